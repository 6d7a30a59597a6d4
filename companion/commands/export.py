"""``noah-companion export GAME --format log|csv|json``: one game of the record, to share."""

from __future__ import annotations

import argparse

from companion.commands._options import add_out

FORMATS = ("log", "csv", "json")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "export", help="write one game as a table log, CSV scores or JSON",
        description="Write one game of the record: its table log (replays to the same result "
                    "with 'noah-companion replay'), its per-round scores as CSV, or both as JSON.",
    )
    parser.add_argument("game", metavar="GAME",
                        help="the game number shown by 'noah-companion history', or 'last'")
    parser.add_argument("--format", choices=FORMATS, default="log", help="default: log")
    add_out(parser, "write here instead of stdout")
    parser.add_argument("--output", dest="out", help=argparse.SUPPRESS)  # its name until 0.1
    parser.add_argument("--db", metavar="FILE", help="the game record (default: [store] path)")
    parser.add_argument("--bgstats", action="store_true",
                        help="also print the BG Stats link and its QR code (finished games)")
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
    with open_store(args.db or config.store.path, readonly=True) as store:
        game_id = _game_id(args.game, store)
        text, summary = export_game(store, game_id, deck, args.format)
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
        print(f"Game {game_id} written to {args.out} ({args.format}).", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if link:
        from companion.session.bgstats import qr_code, web_link

        print(f"\nBG Stats: {link}", file=sys.stderr)
        print(f"(web form: {web_link(link)})", file=sys.stderr)
        qr_code(link).terminal(out=sys.stderr, compact=True)
    return 0


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
    from companion.session.bgstats import play_url
    from companion.session.history import summarize

    summary = summarize(store, game_id, deck)
    if not summary.finished:
        raise UserError(f"Game {game_id} is not finished.", "BG Stats takes finished games.")
    return play_url(game_id, summary.players, summary.scores, summary.winners, store)
