"""``noah-companion table scan``: read the whole table from an overhead camera, video or photos.

One line per frame: which ferry mats were found, the code on each ferry's top card, where Noah
is. With ``--json`` exactly one JSON object per frame, one per line (the contract of issue 14)::

    {"frame": "a.png", "ferries": {"1": {"seen": true, "top": "NOAH1/BOX1/CAF2"}, ...,
     "5": {"seen": true, "top": null}}, "noah": 3, "ms": 24.1}

``top`` is null when no top-card code is readable (or the ferry is empty, or the reader is not
sure), ``noah`` is null when the Noah marker is not seen, ``ms`` is the time spent reading that
frame (fetching and decoding the image file excluded). See docs/table-view.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.commands._options import PLAYERS_HELP, players
from companion.errors import UserError
from companion.session.narrate import plural


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "table", help="read the table from an overhead camera (ferry mats, top cards, Noah)")
    actions = parser.add_subparsers(dest="table_action", metavar="ACTION", required=True)
    scan = actions.add_parser(
        "scan", help="read every frame of a camera, a video or a folder of photos",
        description="Print, for every frame, the ferry mats found, each ferry's top card and "
                    "the ferry where Noah is (docs/table-view.md).")
    scan.add_argument("--source", required=True, metavar="DIR|VIDEO|camera",
                      help="a folder of photos, a video file, 'camera' (the Pi camera, else a "
                           "USB camera), picamera2, usb or usb:N")
    scan.add_argument("--json", action="store_true", help="one JSON object per frame and line")
    scan.add_argument("--hands", action="store_true",
                      help="also read the cards laid face up beside the mats (the round-end "
                           "hand scan) and list them on each line (not in --json)")
    scan.add_argument("--frames", type=int, metavar="N",
                      help="stop after N frames (default: the end of the video or folder; a "
                           "camera runs until Ctrl-C)")
    scan.set_defaults(func=run_scan)
    add_referee(actions)


def add_referee(actions: argparse._SubParsersAction) -> None:
    """``table referee`` (its work: :mod:`companion.table_referee`)."""
    referee = actions.add_parser(
        "referee", help="referee a whole recorded game from its frames, with no screen",
        description="Run every frame of a recording through the table observer, the referee "
                    "session and the audit, exactly as the app does with a live overhead camera; "
                    "what the camera cannot see comes from --answers (TABLE-KIT.md, 'Refereeing "
                    "a recording'). Exit status 3: a question the answers do not cover.")
    referee.add_argument("--source", required=True, metavar="DIR|VIDEO",
                         help="the recording: a folder of frames (in file-name order) or a video")
    referee.add_argument("--players", required=True, type=players, metavar="NAMES",
                         help=PLAYERS_HELP)
    referee.add_argument("--options", metavar="JSON",
                         help="the game's options, the table log header's 'options' object "
                              "(default: all false, \"end_rule\": \"rounds\")")
    referee.add_argument("--answers", metavar="FILE",
                         help="what the camera cannot see, one JSON object per line")
    referee.add_argument("--log", metavar="FILE", help="write the table log of the game here")
    referee.add_argument("--json", action="store_true", help="one JSON object per event and line")

    def run(args: argparse.Namespace) -> int:
        from companion.table_referee import run_command

        return run_command(args)

    referee.set_defaults(func=run)


def run_scan(args: argparse.Namespace) -> int:
    from vision.errors import VisionError

    try:
        return _scan(args)
    except VisionError as error:
        raise UserError(error.what, error.fix) from None


def _scan(args: argparse.Namespace) -> int:
    from companion.config import load_config
    from vision.table import TableReader
    from vision.table_capture import open_table_source

    if args.frames is not None and args.frames < 1:
        raise UserError(f"--frames {args.frames} is not a number of frames.",
                        "Give 1 or more, e.g. --frames 10.")
    settings = load_config().validated("camera")
    source = open_table_source(args.source, settings)
    reader = TableReader()
    count = 0
    source.open()
    try:
        while args.frames is None or count < args.frames:
            frame = source.read()
            if frame is None:
                break
            count += 1
            reading = reader.read(frame.full, loose=args.hands)
            print(_json_line(frame.name, reading) if args.json
                  else describe(frame.name, reading, hands=args.hands), flush=True)
    finally:
        source.close()
    if count == 0:
        raise UserError(f"The source {args.source} gave no frame.",
                        "Check that the video plays or that the folder holds photos.")
    if not args.json:
        print(f"{plural(count, 'frame')} read.", file=sys.stderr)
    return 0


def _json_line(name: str, reading: Any) -> str:
    return json.dumps({"frame": name, **reading.to_json()}, ensure_ascii=False)


def describe(name: str, reading: Any, *, hands: bool = False) -> str:
    """One readable line: ``a.png: 1 CAF2 · 2 empty? · 3 not found … Noah at 3 (24 ms)``;
    ``hands``: with the codes read beside the mats (``… · beside the mats: CAF1, LIM2``)."""
    parts = []
    for ferry, view in sorted(reading.ferries.items()):
        if not view.seen:
            parts.append(f"{ferry} mat not found")
        elif view.top is None:
            parts.append(f"{ferry} no top card read")
        else:
            parts.append(f"{ferry} {view.top}")
    noah = f"Noah at ferry {reading.noah}" if reading.noah else "Noah not seen"
    parts.append(noah)
    if hands:
        texts = "not read (a mat not found)" if reading.loose is None \
            else ", ".join(code.text for code in reading.loose) or "no card"
        parts.append(f"beside the mats: {texts}")
    return f"{name}: {' · '.join(parts)} ({reading.ms:.0f} ms)"
