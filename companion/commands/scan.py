"""``noah-companion scan``: watch a camera, a video or a folder of photos and say what it reads.

For a camera or a video, events are printed as they happen: a card shown (once per
presentation), a card taken away, a QR code that is not a card, the camera's condition; with
``--raw`` also every QR text found in each frame, ours or not. For a folder of still images,
one JSON object per image with every text found and the time spent decoding it.

Settings come from the ``[camera]`` and ``[decoder]`` sections of the config file; ``--source``
and ``--decoder`` override them. See docs/vision.md.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from companion.commands._options import (
    CONFIGURED_CAMERA,
    add_json,
    add_quiet,
    add_source,
    progress_bar,
    shows_progress,
)
from companion.errors import UserError
from companion.game.errors import shown
from vision.events import CameraStatus, CardRemoved, CardShown, CodesSeen, ForeignCode


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "scan",
        help="read QR stickers from a camera, a video or a folder of photos",
        description="Print the cards the camera sees, as the referee would get them.",
    )
    add_source(parser, "one JSON line per photo")
    parser.add_argument("--decoder", choices=("zxing", "zbar"),
                        help="QR decoder (default: [decoder] name of the config file)")
    parser.add_argument("--raw", action="store_true",
                        help="also print every QR text found in each frame, ours or not")
    add_json(parser, "one JSON object per line")
    add_quiet(parser, "no progress bar while a folder of photos is read")
    parser.add_argument("--seconds", type=float, metavar="N",
                        help="stop after N seconds (default: at the end of a video, or Ctrl-C)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.errors import VisionError

    try:
        return _scan(args)
    except VisionError as error:
        raise UserError(error.what, error.fix) from None


def _scan(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from companion.config import load_config
    from companion.tags.payload import is_ours
    from vision.pipeline import Pipeline
    from vision.sources import ImageFolder

    config = load_config()
    camera, decoder = config.validated("camera"), config.validated("decoder")
    if args.source != CONFIGURED_CAMERA:
        camera = replace(camera, source=args.source)
    if args.decoder:
        decoder = replace(decoder, name=args.decoder)
    pipeline = Pipeline.from_settings(camera, decoder, is_ours=is_ours, raw=args.raw)
    if isinstance(pipeline.source, ImageFolder):
        return _scan_folder(pipeline.source, pipeline, is_ours, shows_progress(args.quiet))
    printer = Printer(args.json, _card_namer(config), pipeline.own_clock)
    return _scan_stream(pipeline, printer, args.seconds)


def _scan_folder(folder: Any, pipeline: Any, is_ours: Any, progress: bool) -> int:
    """One JSON line per image: every text found, which are ours, the decoding time; a file
    that cannot be decoded is named on standard error, with why. A progress bar on a terminal's
    standard error counts the images (the JSON lines stay clean)."""
    import sys

    def skipped(problem: Any) -> None:
        print(f"noah-companion: skipped {problem}", file=sys.stderr, flush=True)

    folder.on_skip = skipped
    folder.open()
    ranks = {path: rank for rank, path in enumerate(folder.files, start=1)}
    with progress_bar(len(ranks), "Images", "image", progress) as bar:
        while (frame := folder.read()) is not None:
            started = time.perf_counter()
            texts = [d.text for d in pipeline.decode(frame)]
            seconds = time.perf_counter() - started
            image = folder.current.relative_to(folder.path).as_posix()
            line = {"image": image, "texts": texts, "ours": [is_ours(t) for t in texts],
                    "ms": round(seconds * 1000, 3)}
            print(json_line(line), flush=True)
            bar.update(ranks[folder.current] - bar.n)  # the images skipped before it too
    return 0


def _scan_stream(pipeline: Any, printer: Printer, seconds: float | None) -> int:
    import queue

    deadline = time.monotonic() + seconds if seconds else float("inf")
    waiting = CameraWait(give_up=seconds is None)
    pipeline.start()
    try:
        while time.monotonic() < deadline:
            try:
                event = pipeline.events.get(timeout=0.1)
            except queue.Empty:
                if pipeline.finished.is_set():
                    break
                printer.say(waiting.tick(time.monotonic()))
                continue
            waiting.update(event)
            printer(event)
    finally:
        pipeline.stop()
    while not pipeline.events.empty():  # what came in while stopping, the final counts last
        printer(pipeline.events.get())
    return 0


LOOKING_EVERY = 5.0  # seconds between "still looking" lines while no camera answers
GIVE_UP_AFTER = 30.0  # seconds without a camera before scan stops (without --seconds)


class CameraWait:
    """While no camera answers, say every few seconds that scan is still looking; after
    :data:`GIVE_UP_AFTER` seconds (unless ``give_up`` is False) stop with doctor's hint.

    >>> from vision.events import CameraState
    >>> wait = CameraWait()
    >>> wait.update(CameraStatus(CameraState.NO_CAMERA, "No camera found.", at=100.0))
    >>> wait.tick(102.0) is None, wait.tick(105.0)
    (True, 'camera: still looking (5 s so far; Ctrl-C to stop)…')
    >>> wait.tick(130.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.errors.UserError: Still no camera after 30 s. Run 'noah-companion doctor': it ...
    """

    def __init__(self, give_up: bool = True) -> None:
        self.give_up = give_up
        self.since: float | None = None  # when the camera went missing or was lost
        self.said = 0.0

    def update(self, event: Any) -> None:
        if isinstance(event, CameraStatus):
            self.since = None if event.ok else (self.since or event.at)
            self.said = event.at

    def tick(self, now: float) -> str | None:
        """A line to print now, if one is due."""
        if self.since is None:
            return None
        if self.give_up and now - self.since >= GIVE_UP_AFTER:
            raise UserError(f"Still no camera after {GIVE_UP_AFTER:.0f} s.",
                            "Run 'noah-companion doctor': it says what is missing and how to "
                            "fix it. To read a video or photos instead: --source FILE|FOLDER.")
        if now - self.said < LOOKING_EVERY:
            return None
        self.said = now
        return f"camera: still looking ({now - self.since:.0f} s so far; Ctrl-C to stop)…"


def _card_namer(config: Any) -> Any:
    """Names the card behind one of our texts (``cat ♀ copy 2``), or says why it is unusable."""
    from companion.game import default_deck, load_deck
    from companion.tags.payload import GENDER_SIGNS, TagError, TagOk, classify

    settings = config.game
    try:
        deck = default_deck() if settings.deck == "default" else load_deck(settings.deck)
    except Exception:  # a broken deck file is the deck command's business, not scan's
        deck = default_deck()

    def name(text: str) -> str:
        tag = classify(text, deck, settings.deck_id)
        if isinstance(tag, TagOk):
            card = tag.card
            return f"{card.species} {GENDER_SIGNS.get(card.gender, card.gender)} copy {card.copy}"
        if isinstance(tag, TagError):
            return tag.message
        return "not a Noah sticker"

    return name


class Printer:
    """Prints events for a person (one line each) or as JSON lines, each line with its time
    from the start: on the real clock, or with ``video_clock`` (a recording read on its own
    time: :attr:`vision.pipeline.Pipeline.own_clock`) on the video's, a card event at its
    frame's time and the camera's condition or the counts at the time the video has reached."""

    def __init__(self, as_json: bool, card_name: Any,
                 video_clock: Callable[[], float] | None = None) -> None:
        self.as_json, self.card_name, self.video_clock = as_json, card_name, video_clock
        self.started = self._now()

    def __call__(self, event: Any) -> None:
        kind = type(event).__name__
        if self.as_json:
            line = {"event": kind, **asdict(event)}
            print(json_line(line), flush=True)
            return
        at = self._time_of(event) - self.started
        print(f"{max(0.0, at):7.2f} s  {self.describe(event)}", flush=True)

    def _now(self) -> float:
        return time.monotonic() if self.video_clock is None else self.video_clock()

    def _time_of(self, event: Any) -> float:
        """A card's frame's time; the camera's condition or the counts: when they were told,
        on a recording when the video had come that far."""
        if hasattr(event, "captured_at"):
            return float(event.captured_at)
        return self._now() if self.video_clock is not None else getattr(event, "at", self.started)

    def say(self, line: str | None) -> None:
        """A line of scan's own (not an event), for people only: JSON lines stay events."""
        if line is not None and not self.as_json:
            print(f"{self._now() - self.started:7.2f} s  {line}", flush=True)

    def describe(self, event: Any) -> str:
        if isinstance(event, CardShown):
            text = f"card shown: {shown(event.text)} ({self.card_name(event.text)})"
            if event.several:
                text += (f"; {len(event.in_view)} cards in view, the referee will ask which "
                         "one is played")
            if self.video_clock is not None:  # decided at its frame's own time: no delay
                return text
            return f"{text}  [{event.latency * 1000:.0f} ms after capture]"
        if isinstance(event, CardRemoved):
            return f"card taken away: {shown(event.text)} (shown for {event.shown_for:.1f} s)"
        if isinstance(event, ForeignCode):
            return f"QR code that is not a card (ignored): {shown(event.text)}"
        if isinstance(event, CodesSeen):
            return f"frame {event.frame}: {', '.join(map(shown, event.texts))}"
        if isinstance(event, CameraStatus):
            return f"camera: {event.message}"
        return (f"{event.captured} frames, {event.decoded} decoded, {event.dropped} skipped "
                f"for a newer one; {event.mean_decode_time * 1000:.1f} ms to decode a frame, "
                f"{event.mean_latency * 1000:.0f} ms from capture to event on average")


#: Characters JSON leaves raw that a terminal may still obey (DEL, the C1 controls, line and
#: paragraph separators, bidirectional overrides) or cannot print at all (lone surrogates, from
#: file names that are not UTF-8): escaped too, so a JSON line stays inert and printable.
_RAW_IN_JSON = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def json_line(data: dict[str, Any]) -> str:
    """One JSON line of decoded texts, readable (accents kept) yet inert in a terminal.

    >>> print(json_line({"texts": ["Chloé \x1b[2J\x9b"]}))
    {"texts": ["Chloé \\u001b[2J\\u009b"]}
    """
    text = json.dumps(data, ensure_ascii=False, default=_jsonable)
    return _RAW_IN_JSON.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def _jsonable(value: Any) -> Any:
    if hasattr(value, "value"):  # enums
        return value.value
    return str(value)

