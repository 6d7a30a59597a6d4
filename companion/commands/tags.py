"""``noah-companion tags print|check``: QR stickers for the cards, and checking a stickered deck.

``tags print`` writes a PDF to print at 100 % (and/or one PNG per sticker); ``tags check`` shows
each card as the camera (or a video, or a folder of photos) sees it, then lists the cards never
seen, the stickers seen twice and the foreign codes. The deck and its deck id come from
``--deck``/``--deck-id`` or from the config's ``[game]`` section (docs/stickers.md).
``--game complot`` does the same for the 93 cards of «Noé, Complot à l'Élysée» (stickers
``CPLT1/…``, RULINGS-COMPLOT C6; its deck is the rulebook's unless ``--deck`` names a deck file).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from companion.commands._options import (
    CONFIGURED_CAMERA,
    add_out,
    add_quiet,
    add_source,
    progress_bar,
    shows_progress,
)
from companion.errors import UserError
from companion.session.narrate import plural


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("tags", help="print the cards' QR stickers, check a deck")
    actions = parser.add_subparsers(dest="tags_action", metavar="ACTION", required=True)
    _register_print(actions)
    _register_check(actions)


def _add_deck_arguments(parser: argparse.ArgumentParser) -> None:
    from companion.games import DEFAULT_KIND, NAMES

    parser.add_argument(
        "--game", choices=NAMES,
        help=f"whose cards: noah or complot («Noé, Complot à l'Élysée», 93 cards); default: "
             f"'kind' in the config's [game], else {DEFAULT_KIND}",
    )
    parser.add_argument(
        "--deck", metavar="FILE",
        help="deck CSV of your box, or 'default' (default: 'deck' in the config's [game]); "
             "with --game complot, a Complot deck file (default: the rulebook's 93 cards)",
    )
    parser.add_argument(
        "--deck-id", metavar="ID",
        help="four letters or digits printed on every sticker (default: 'deck_id' in the "
             "config's [game], else BOX1)",
    )
    parser.add_argument(
        "--only", nargs="+", metavar="SPECIES",
        help="only these species, e.g. --only frog crocodile; with --game complot, "
             "categories or card ids, e.g. --only archange leonard:sally",
    )


def _register_print(actions: argparse._SubParsersAction) -> None:
    from companion.tags.sheet import LAYOUTS, PAPERS
    from companion.tags.sticker import DEFAULT_SIZE_MM

    parser = actions.add_parser(
        "print", help="write the sticker sheet (PDF) and/or one PNG per sticker",
        description="Write the QR stickers of the deck, to print at 100 % scale.",
    )
    add_out(parser, "the PDF to write, e.g. tags.pdf", metavar="PDF", type=Path)
    parser.add_argument("--png", metavar="DIR", type=Path, help="also one PNG per sticker there")
    parser.add_argument("--paper", choices=tuple(PAPERS), help="paper of the grid (default A4)")
    parser.add_argument(
        "--layout", choices=LAYOUTS, default="grid",
        help="grid: any self-adhesive sheet, cut by hand (default); L7160: Avery L7160 labels "
             "(A4, 21 per sheet); L7651: Avery L7651 (A4, 65 per sheet, codes up to 14 mm); "
             "5160: Avery 5160/8160 (letter, 30 per sheet, codes up to 17 mm)",
    )
    parser.add_argument(
        "--size-mm", type=float, metavar="N",
        help=f"side of the QR code without its white border (default {DEFAULT_SIZE_MM:g}, or "
             "the most a label sheet holds)",
    )
    _add_deck_arguments(parser)
    parser.set_defaults(func=print_stickers)


def _register_check(actions: argparse._SubParsersAction) -> None:
    parser = actions.add_parser(
        "check", help="show every card to the camera once and list what is wrong",
        description="Recognise the stickered cards one by one, then report cards never seen, "
                    "stickers seen twice and codes that are not stickers of the game.",
    )
    add_source(parser, "each photo read once")
    parser.add_argument("--decoder", choices=("zxing", "zbar"),
                        help="QR decoder (default: [decoder] name of the config file, zxing)")
    add_quiet(parser, "no progress bar while a folder of photos is read")
    _add_deck_arguments(parser)
    parser.set_defaults(func=check_stickers)


def _tagged_deck(args: argparse.Namespace):
    """The box of ``--game``, asked of its kind (companion.games): Noah's deck and deck id
    (command line, else config), or Complot's (the rulebook's 93 cards, or ``--deck``), each
    behind the same face (:class:`companion.tags.tagged_deck.StickeredDeck`)."""
    from companion.games import find_kind

    if args.game is None:  # the game the config opens on ([game] kind)
        from companion.config import load_config

        args.game = load_config().game.kind
    return find_kind(args.game).stickered_deck(args.deck, args.deck_id)


def print_stickers(args: argparse.Namespace) -> int:
    from companion.tags.sheet import plan_sheet, render_sheet

    if args.out is None and args.png is None:
        raise UserError("Nothing to write.", "Give --out tags.pdf (and/or --png DIR).")
    tagged = _tagged_deck(args)
    cards = tagged.select(args.only)
    plan = plan_sheet(args.layout, args.paper, args.size_mm)
    if args.out is not None:
        _write(args.out, render_sheet(tagged, plan, cards))
        pages = -(-len(cards) // plan.per_page)
        sheets = plural(pages, f"{plan.paper} page")
        print(f"Wrote {args.out}: {len(cards)} stickers of deck {tagged.deck_id} on {sheets}, "
              f"{args.layout} layout, QR codes {plan.geometry.size_mm:g} mm wide.")
        print("Print it at 100 % (\"Actual size\") and check the 50 mm bar with a ruler.")
    if args.png is not None:
        _write_pngs(args.png, tagged, cards, plan.geometry.size_mm)
        print(f"Wrote {len(cards)} PNG stickers (300 dpi) to {args.png}/.")
    _remind_deck_id(tagged.deck_id, args.game)
    print(f"Next: stick each sticker on the card its label names, then run "
          f"'noah-companion tags check --game {args.game}'.")
    return 0


def _write(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as error:
        raise UserError(f"Cannot write {path}: {error.strerror}.",
                        "Choose a folder you can write to.") from None


def _write_pngs(folder: Path, tagged, cards: list, size_mm: float) -> None:
    from companion.tags.sticker import render_sticker

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"Cannot create the folder {folder}: {error.strerror}.",
                        "Choose a folder you can write to.") from None
    for card in cards:
        name = card.id.replace(":", "-").replace("#", "-")  # cat:F#2 -> cat-F-2.png
        image = render_sticker(card, tagged.deck_id, size_mm=size_mm, dpi=300,
                               text=tagged.sticker_text(card), lines=tagged.label_lines(card))
        image.save(folder / f"{name}.png", dpi=(300, 300))


def _remind_deck_id(deck_id: str, game: str) -> None:
    """Say so when these stickers carry another deck id than the one the referee will expect
    (the config's, for a game whose box the config names)."""
    from companion.config import config_path
    from companion.games import find_kind

    configured = find_kind(game).configured_deck_id()
    if configured is not None and configured != deck_id:
        print(f"Note: the referee expects deck id {configured}. Before playing with these "
              f"stickers, write 'deck_id = {deck_id}' under [game] in {config_path()}.")


def check_stickers(args: argparse.Namespace) -> int:
    from companion.tags.check import DeckCheck
    from vision.errors import VisionError

    tagged = _tagged_deck(args)
    check = DeckCheck(tagged, tagged.select(args.only))
    photos = _photos(args.source)
    try:
        presentations = _presentations(args.source, args.decoder, check)
        print(f"Checking {len(check.expected)} cards of deck {tagged.deck_id} "
              f"({tagged.source}).")
        enabled = photos is not None and shows_progress(args.quiet)
        with progress_bar(len(photos or ()), "Photos", "photo", enabled) as bar:
            for text, where in presentations:
                if photos:  # photos without a code yield nothing: count up to this one
                    bar.update(photos.get(where, bar.n) - bar.n)
                print(check.saw(text, where), flush=True)
    except VisionError as error:  # a camera that cannot start, zbar's library missing
        raise UserError(error.what, error.fix) from None
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)
    report = check.report()
    print()
    print("\n".join(report.lines()))
    return 0 if report.ok else 1


def _photos(source: str) -> dict[str, int] | None:
    """The photos of a folder ``source``, each with its rank from 1 (None for a camera or a
    video): how far a check of the folder has come."""
    from companion.tags.check import image_files

    path = Path(source).expanduser()
    if not path.is_dir():
        return None
    return {photo.name: rank for rank, photo in enumerate(image_files(path), start=1)}


def _presentations(source: str, decoder_name: str | None, check) -> Iterator[tuple[str, str]]:
    """``(text, where)`` for each code presented: by a folder of photos, a video, a camera."""
    from dataclasses import replace

    from companion.config import load_config
    from companion.tags.check import folder_presentations

    config = load_config()
    decoder = config.validated("decoder")
    if decoder_name is not None:
        decoder = replace(decoder, name=decoder_name)
    path = Path(source).expanduser()
    if path.is_dir():
        return folder_presentations(path, decoder.decoder())
    camera = config.validated("camera")
    if source != CONFIGURED_CAMERA:
        if not _names_a_camera(source) and not path.exists():
            raise UserError(
                f"There is no folder or video file '{source}'.",
                "Give the folder of your photos, a video file, or 'camera'.",
            )
        camera = replace(camera, source=source)
    return _stream_presentations(camera, decoder, check)


def _names_a_camera(source: str) -> bool:
    from companion.game.inputs import is_ascii_number

    kind = source.partition(":")[0]
    return is_ascii_number(source) or kind in ("auto", "picamera2", "usb", "synthetic")


def _stream_presentations(camera, decoder, check) -> Iterator[tuple[str, str]]:
    """Cards and foreign codes as the vision pipeline reports them, one per presentation, until
    every card is seen, the video ends, or Ctrl+C; the camera's condition is said as it changes.
    """
    import queue

    from vision.events import CameraState, CameraStatus, CardShown, ForeignCode
    from vision.pipeline import Pipeline
    from vision.sources import make_source

    # a video is checked on its own time: every frame, the same showings on any machine
    source = make_source(camera.source, camera, realtime=False)
    pipeline = Pipeline(source, is_ours=check.tagged.is_ours,
                        decoder=decoder.decoder(), tracker=decoder.tracker, roi=camera.roi)
    shown, camera_seen = 0, False
    with pipeline:
        while not check.complete:
            try:
                event = pipeline.events.get(timeout=0.1)
            except queue.Empty:
                if pipeline.finished.is_set():
                    return
                continue
            if isinstance(event, CardShown | ForeignCode):
                shown += 1
                yield event.text, f"showing {shown}"
            elif isinstance(event, CameraStatus):
                if event.state is CameraState.NO_CAMERA and not camera_seen:
                    raise UserError(
                        f"No camera could be opened ({pipeline.source.name}).",
                        "Check it with 'noah-companion doctor', or photograph the cards and "
                        "run 'noah-companion tags check --source FOLDER'.",
                    )
                print(f"Camera: {event.message}", flush=True)
                if event.ok and not camera_seen:  # ask for cards once a camera can see them
                    print("Show the cards to the camera one at a time; Ctrl+C stops.",
                          flush=True)
                camera_seen = camera_seen or event.ok
