"""``noah-companion replay LOG``: judge a table log line by line and show the final table.

The log's first line names its game (``format``: ``noah-table-log``, ``complot-table-log``):
its kind (companion.games) judges and shows it; below, Noah's output.

Text mode prints, per line, its number, ✓ or ✗ and the referee's sentence, then the ferries,
the players' hands and scores, and the winners. ``--json`` prints TABLE-LOG.md's objects, one
per line (``--states`` adds the state after each line); the last object is the final state.
Rejected lines do not stop the replay (exit status 0; ``--strict`` makes it 1). A line that is
no table-log line at all (not a JSON object, beyond the limits of docs/table-log.md, a ``type``
that is not a string) is judged ``bad_action`` and the replay goes on, but the log is malformed:
the command then exits with status 2, naming the line. A log that cannot be read at all (no
header, another format, cut short) stops at once with status 2 and says which line is wrong.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from companion.commands._options import add_json, add_quiet, progress_bar, shows_progress
from companion.errors import UserError
from companion.game.errors import shown


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay", help="check a table log line by line and show the final table",
        description="Judge every line of a table log (JSON Lines, see docs/table-log.md) and "
        "show the final state. Use - to read the log from standard input.",
    )
    parser.add_argument("logs", metavar="LOG", nargs="+",
                        help="table log file(s) (.jsonl), or - for stdin; each is judged on its "
                        "own, in turn")
    add_json(parser, "one JSON object per line, then the final state (TABLE-LOG.md)")
    parser.add_argument("--states", action="store_true",
                        help="add the state after each line (implies --json)")
    parser.add_argument("--strict", action="store_true",
                        help="exit with status 1 if any line is rejected")
    add_quiet(parser, "no progress bar while several logs are judged")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Judge each log in turn; the exit status is the worst of theirs."""
    if len(args.logs) == 1:
        return replay_log(args.logs[0], args)
    worst = 0
    json_mode = args.json or args.states
    enabled = not json_mode and shows_progress(args.quiet)
    with progress_bar(len(args.logs), "Logs", "log", enabled) as bar:
        for number, path in enumerate(args.logs):
            if not json_mode:
                print(f"{'' if number == 0 else chr(10)}== {shown(path, limit=None)} ==")
            try:
                status = replay_log(path, args)
            except UserError as error:
                sys.stdout.flush()
                print(f"noah-companion: {error}", file=sys.stderr)
                status = 2
            worst = max(worst, status)
            bar.update()
    return worst


def replay_log(path: str, args: argparse.Namespace) -> int:
    """Judge one table log with its game's referee, chosen by the header's ``format``
    (companion.games), and show it; the exit status described in the module docstring."""
    from companion.games import kind_of_log
    from companion.games.noah import MalformedLog

    lines = _read_lines(path)
    head = list(_through_first_line(lines))
    kind = kind_of_log(head[-1] if head else b"")
    try:
        return kind.replay(itertools.chain(head, lines), sys.stdout, name=_name(path),
                           json_mode=args.json or args.states, states=args.states,
                           strict=args.strict)
    except MalformedLog as error:  # every line was judged and shown: said after them
        sys.stdout.flush()
        print(f"noah-companion: {error}", file=sys.stderr)
        return 2


def _through_first_line(lines: Iterator[bytes]) -> Iterator[bytes]:
    """The lines up to the first one that is not blank (the header), read from ``lines``."""
    for line in lines:
        yield line
        if line.strip():
            return


def _name(path: str) -> str:
    return "standard input" if path == "-" else path


def _read_lines(path: str) -> Iterator[bytes]:
    """The log's raw lines (decoded by the replay, so a bad byte is reported with its line)."""
    from companion.game import InputError
    from companion.game.inputs import require_regular_file

    if path == "-":
        yield from _bounded_lines(sys.stdin.buffer)
        return
    try:  # never open a device or a pipe by name: reading /dev/zero would never end
        require_regular_file(Path(path), "a table log", "Give the path of a .jsonl file, or - "
                             "to read the log from standard input.")
        with Path(path).open("rb") as file:
            yield from _bounded_lines(file)
    except InputError as error:
        raise UserError(error.message) from None
    except OSError as error:
        raise UserError(f"Cannot read the table log {path}: {error.strerror}.",
                        "Check the file name and that you may read it.") from error


def _bounded_lines(file: BinaryIO) -> Iterator[bytes]:
    """Each line, but never more than :data:`MAX_LINE_BYTES` + 1 bytes of one in memory: the
    replay reports an over-long line, and the rest of it is skipped unread."""
    from companion.game.tablelog import MAX_LINE_BYTES

    while line := file.readline(MAX_LINE_BYTES + 1):
        yield line
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while (rest := file.readline(MAX_LINE_BYTES)) and not rest.endswith(b"\n"):
                pass


