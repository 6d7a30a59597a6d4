"""What every sub-command shares: its parser class, the options spelled alike, the progress bar.

Not a command (its name starts with ``_``, so :mod:`companion.cli` does not register it). One
place for each option that several commands take, so that ``--out``/``-o``, ``--players``,
``--source`` and ``--json`` mean the same thing everywhere (docs/commands.md).
"""

from __future__ import annotations

import argparse
import difflib
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager, redirect_stderr, redirect_stdout
from typing import Any, NoReturn

from companion.game.sizes import MAX_PLAYERS, MIN_PLAYERS, PLAYER_COUNTS

#: ``--source`` value meaning "the camera the config file names in ``[camera] source``": the
#: default of ``scan`` and ``tags check``.
CONFIGURED_CAMERA = "camera"

#: Namespace attribute where each parser leaves its suggestions for the options it did not know.
_HINTS = "_option_hints"


class Parser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` that takes no abbreviated long option (``--simulat``
    is not ``--simulate``) and answers a misspelled command, choice or option with the closest
    names ("did you mean …?"). Sub-command parsers are of the same class, as argparse builds them
    with the class of their parent.

    >>> parser = Parser(prog="noah-companion")
    >>> _ = parser.add_argument("--games")
    >>> parser.parse_known_args(["--gam", "3"])[1]
    ['--gam', '3']
    >>> parser.unknown_options_message(["--gams"], parser.parse_known_args(["--gams"])[0])
    'unrecognized arguments: --gams (did you mean --games?)'
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # argparse's one check of a value against ``choices``: sub-command names included.
        try:
            super()._check_value(action, value)
        except argparse.ArgumentError as error:
            names = [choice for choice in action.choices or () if isinstance(choice, str)]
            close = difflib.get_close_matches(str(value), names, n=3)
            if not close:
                raise
            raise argparse.ArgumentError(
                action, f"{error.message}. Did you mean {' or '.join(map(repr, close))}?"
            ) from None

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        namespace = parsed
        # The innermost parser sees an unknown option first: it names the closest of its own.
        hints: dict[str, str | None] = getattr(namespace, _HINTS, {})
        own = [option for option in self._option_string_actions if option.startswith("--")]
        for extra in extras:
            if extra.startswith("--") and extra not in hints:
                close = difflib.get_close_matches(extra.partition("=")[0], own, n=1)
                hints[extra] = close[0] if close else None
        setattr(namespace, _HINTS, hints)
        return namespace, extras

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        namespace, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error(self.unknown_options_message(extras, namespace))
        return namespace

    def refuse(self, extras: list[str], namespace: argparse.Namespace) -> NoReturn:
        """Stop with status 2, naming the arguments nobody took and the options meant."""
        self.error(self.unknown_options_message(extras, namespace))

    @staticmethod
    def unknown_options_message(extras: list[str], namespace: argparse.Namespace) -> str:
        hints = getattr(namespace, _HINTS, {})
        words = [f"{extra} (did you mean {hints[extra]}?)" if hints.get(extra) else extra
                 for extra in extras]
        return f"unrecognized arguments: {' '.join(words)}"


def add_out(parser: argparse.ArgumentParser, what: str, metavar: str = "FILE",
            **kwargs: Any) -> None:
    """``-o``/``--out``: where a command writes its file (or folder) ``what``."""
    parser.add_argument("-o", "--out", metavar=metavar, help=what, **kwargs)


def add_json(parser: argparse.ArgumentParser, what: str) -> None:
    """``--json``: machine-readable output instead of text (and never a progress bar)."""
    parser.add_argument("--json", action="store_true", help=what)


def add_quiet(parser: argparse.ArgumentParser, what: str = "no progress bar") -> None:
    """``-q``/``--quiet``: less on the terminal."""
    parser.add_argument("-q", "--quiet", action="store_true", help=what)


#: Help of ``--players``, the same in every command that takes it.
PLAYERS_HELP = ("how many play (2 to 5), or their names in seat order, comma-separated "
                "(e.g. 3 or Ana,Ben,Chloé)")


def players(text: str) -> tuple[str, ...]:
    """The value of ``--players``: a count (seats named ``Player 1``…) or the names.

    >>> players("3"), players("Ana, Ben")
    (('Player 1', 'Player 2', 'Player 3'), ('Ana', 'Ben'))
    >>> players("7")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: Noah is played by 2 to 5: give a count from 2 to 5 or 2 to 5 names
    """
    from companion.game.inputs import is_ascii_number
    from companion.game.simulate import seat_names

    text = text.strip()
    if is_ascii_number(text) and len(text) <= 2:
        seats = seat_names(int(text))
    else:
        seats = tuple(name.strip() for name in text.split(","))
        if not all(seats):
            raise argparse.ArgumentTypeError("give 2 to 5 non-empty names separated by commas")
    if len(seats) not in PLAYER_COUNTS:
        low, high = MIN_PLAYERS, MAX_PLAYERS
        raise argparse.ArgumentTypeError(
            f"Noah is played by {low} to {high}: give a count from {low} to {high} or {low} to "
            f"{high} names")
    return seats


def add_source(parser: argparse.ArgumentParser, folder: str) -> None:
    """``--source``: the camera, video or folder to read; ``folder`` says what a folder gives."""
    parser.add_argument(
        "--source", default=CONFIGURED_CAMERA, metavar="SRC",
        help=f"'{CONFIGURED_CAMERA}' (the [camera] source of the config file, default), auto, "
             f"picamera2, usb, usb:N, synthetic, a video file, or a folder of photos ({folder})")


def shows_progress(quiet: bool = False) -> bool:
    """Whether to draw a progress bar: only for a person at a terminal (standard error is one),
    never with ``--quiet`` or ``--json``, nor into a pipe or a file."""
    return not quiet and sys.stderr.isatty()


@contextmanager
def progress_bar(total: int | None, description: str, unit: str,
                 enabled: bool) -> Iterator[Any]:
    """A tqdm progress bar on standard error (``bar.update()`` per item); while it is drawn,
    what the command prints on standard output goes above it instead of through it. Disabled,
    it is an inert bar and printing is untouched."""
    from tqdm import tqdm
    from tqdm.contrib import DummyTqdmFile
    from tqdm.contrib.logging import logging_redirect_tqdm

    with ExitStack() as stack:
        bar = stack.enter_context(tqdm(total=total, desc=description, unit=unit, leave=False,
                                       file=sys.stderr, disable=not enabled, dynamic_ncols=True))
        if enabled:  # lines printed meanwhile to the terminal are written above the bar
            if sys.stdout.isatty():  # (into a file or a pipe they cannot disturb it)
                stack.enter_context(redirect_stdout(DummyTqdmFile(sys.stdout)))
            stack.enter_context(redirect_stderr(DummyTqdmFile(sys.stderr)))
            stack.enter_context(logging_redirect_tqdm())  # log lines too
        yield bar


@contextmanager
def elapsed_bar(description: str, enabled: bool) -> Iterator[None]:
    """For a run whose length is unknown (a benchmark): the time spent so far on standard error,
    redrawn once a second by a thread that otherwise sleeps (no measurable load)."""
    if not enabled:
        yield
        return
    from tqdm import tqdm

    stop = threading.Event()
    with tqdm(desc=description, bar_format="{desc}: running for {elapsed}", file=sys.stderr,
              leave=False, dynamic_ncols=True) as bar:
        ticker = threading.Thread(target=_tick, args=(bar, stop), daemon=True)
        ticker.start()
        try:
            yield
        finally:
            stop.set()
            ticker.join()


def _tick(bar: Any, stop: threading.Event) -> None:
    while not stop.wait(1.0):
        bar.refresh()
