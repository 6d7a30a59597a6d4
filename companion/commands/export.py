"""``noah-companion export GAME --format log|csv|json``: one game of the record, to share: its
table log, its scores per round (Noah) or per manche (Complot) as CSV, or both as JSON."""

from __future__ import annotations

import argparse

from companion.commands._options import add_out

FORMATS = ("log", "csv", "json")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "export", help="write one game as a table log, CSV scores or JSON",
        description="Write one game of the record, Noah or Complot: its table log (replays to "
                    "the same result with 'noah-companion replay'), its scores per round or "
                    "manche as CSV, or both as JSON.",
    )
    parser.add_argument("game", metavar="GAME",
                        help="the game number shown by 'noah-companion history', or 'last'")
    parser.add_argument("--format", choices=FORMATS,
                        help="default: log (with --bgstats: none unless asked)")
    add_out(parser, "write here instead of stdout")
    parser.add_argument("--output", dest="out", help=argparse.SUPPRESS)  # its name until 0.1
    parser.add_argument("--db", metavar="FILE", help="the game record (default: [store] path)")
    parser.add_argument("--bgstats", action="store_true",
                        help="print the BG Stats link of a finished game, and its QR code when "
                             "it fits the terminal (alone: no export unless --format or -o)")
    parser.add_argument("--qr", metavar="FILE.png",
                        help="with --bgstats: save the link's QR code as a picture")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from companion.config import load_config
    from companion.errors import UserError
    from companion.session.history import export_game
    from companion.session.store import open_store
    from companion.tags.tagged_deck import load_deck_file

    config = load_config()
    deck = load_deck_file(config.game.deck)
    fmt = args.format or "log"
    exporting = not args.bgstats or args.format is not None or args.out
    with open_store(args.db or config.store.path, readonly=True) as store:
        game_id = _game_id(args.game, store)
        text, summary = export_game(store, game_id, deck, fmt)
        link = _bgstats_link(store, game_id, deck) if args.bgstats else None
    for problem in summary.problems:  # every line is exported; the damaged ones are named
        print(f"Game {game_id}, line {problem.line} is damaged: {problem.reason}",
              file=sys.stderr)
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as error:
            raise UserError(f"Cannot write {args.out}: {error.strerror}.",
                            "Choose another file name or folder.") from None
        print(f"Game {game_id} written to {args.out} ({fmt}).", file=sys.stderr)
    elif exporting:
        sys.stdout.write(text)
    if link:
        _show_bgstats(link, args.qr, sys.stderr if exporting and not args.out else sys.stdout)
    return 0


def _show_bgstats(link: str, qr_file: str | None, out) -> None:
    """The https link (it opens BG Stats' import on a phone), then its QR code: in the file
    asked for, else on the terminal when it fits its width (a 3-player game's code is about
    81 columns: wider than the classic 80)."""
    import shutil
    from pathlib import Path

    from companion.errors import UserError
    from companion.session.bgstats import qr_code, web_link

    code = qr_code(web_link(link))
    print(f"BG Stats: {web_link(link)}", file=out)
    if qr_file:
        try:
            code.save(str(Path(qr_file)), kind="png", scale=8, border=4)
        except OSError as error:
            raise UserError(f"Cannot write {qr_file}: {error.strerror}.",
                            "Choose another file name or folder.") from None
        print(f"Its QR code: {qr_file} (scan it with the phone that has BG Stats).", file=out)
        return
    width = code.symbol_size(border=2)[0]
    columns = shutil.get_terminal_size((80, 24)).columns
    if width <= columns:
        code.terminal(out=out, compact=True, border=2)
    else:
        print(f"Its QR code is {width} columns wide, wider than this terminal ({columns}):\n"
              "add --qr FILE.png to save it as a picture, or open the link above.", file=out)


def _game_id(text: str, store) -> int:
    from companion.errors import UserError
    from companion.game.inputs import is_ascii_number

    if text == "last":
        games = store.games()
        if not games:
            raise UserError("The record holds no game yet.", "Play one, or run the demo.")
        return games[0].id
    if not is_ascii_number(text) or len(text) > 18:  # SQLite's numbers stop at 19 digits
        raise UserError(f"'{text}' is not a game number.",
                        "Run 'noah-companion history' to see the numbers.")
    return store.game(int(text)).id


def _bgstats_link(store, game_id: int, deck) -> str:
    from companion.errors import UserError
    from companion.session.bgstats import summary_url
    from companion.session.history import summarize

    summary = summarize(store, game_id, deck)
    if not summary.finished:
        raise UserError(f"Game {game_id} is not finished.", "BG Stats takes finished games.")
    return summary_url(store, summary)
