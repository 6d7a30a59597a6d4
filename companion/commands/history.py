"""``noah-companion history``: finished and unfinished games of every game kind (Noah's rounds,
Complot's manches) with their scores, each game named."""

from __future__ import annotations

import argparse

from companion.commands._options import add_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "history", help="list the games played, with each round's scores",
        description="List finished and unfinished games of the record (Noah and Complot), "
                    "newest first, with each round's tears or each manche's points and the "
                    "winners.",
    )
    parser.add_argument("--db", metavar="FILE", help="the game record (default: [store] path)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--finished", action="store_true", help="only finished games")
    which.add_argument("--unfinished", action="store_true", help="only unfinished games")
    add_json(parser, "print the list as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json
    import sys
    from dataclasses import asdict

    from companion.config import load_config
    from companion.session.history import history, score_table
    from companion.session.store import open_store
    from companion.tags.tagged_deck import load_deck_file

    config = load_config()
    finished = True if args.finished else False if args.unfinished else None
    with open_store(args.db or config.store.path, readonly=True) as store:
        games = history(store, load_deck_file(config.game.deck), finished=finished)
        where, unreadable = store.path, store.unreadable
    if unreadable:
        print(f"Warning: {unreadable}. Run 'noah-companion doctor'.", file=sys.stderr)
    if args.json:  # "damage": null, or {"line": ..., "reason": ...} where a damaged game breaks
        print(json.dumps([asdict(game) for game in games], ensure_ascii=False, indent=2))
        return 0
    if not games:
        print(f"No games yet in {where}. Start one in the app, or try 'noah-companion demo'.")
        return 0
    for game in games:
        print(_title(game))
        if game.damage is not None:
            print(f"    {_damage(game)}")
        for line in score_table(game) if game.rounds else ():
            print("    " + line)
        print()
    return 0


def _damage(game) -> str:
    """The line saying where a damaged game breaks, why, and what the table can do."""
    damage = game.damage
    what = "the app offers to resume it up to the last good move, to abandon it or to delete it"
    if damage.line == 1:
        what = "the app offers to abandon or delete it"
    return (f"DAMAGED at line {damage.line}: {damage.reason} ({what}; "
            f"'noah-companion export {game.id}' shows every line)")


def _title(game) -> str:
    from companion.games import find_kind
    from companion.session.narrate import plural

    kind = find_kind(game.kind)
    when = game.started_at.replace("T", " ")[:16] + f" — {kind.title}"
    mode = " (score only)" if game.score_only else ""
    who = ", ".join(game.players) or "(players unknown)"
    actions = plural(game.actions, "action")
    if game.abandoned:
        return f"Game {game.id} — {when} — {who}{mode} — abandoned, {actions}"
    if game.finished:
        won = " and ".join(game.winner_names)
        return f"Game {game.id} — {when} — {who}{mode} — finished, won by {won}"
    offer = "" if game.damage is not None else " (the app offers to resume it)"
    return (f"Game {game.id} — {when} — {who}{mode} — unfinished, {kind.period} {game.round}, "
            f"{actions}{offer}")
