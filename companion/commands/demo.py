"""``noah-companion demo``: a whole simulated game through the real pipeline (no Pi, camera or
screen needed), narrated in the terminal. ``--ui`` opens the touchscreen app in simulator mode."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo", help="play a whole simulated game through camera, referee, record and lights",
        description="Seeded players play a whole game of Noah at a virtual table: every card is "
                    "rendered as a camera frame, read by the vision pipeline, refereed by the "
                    "session, saved in a SQLite record and shown on virtual ferry lights.",
    )
    parser.add_argument("--seed", type=int, default=1, help="which game to play (default 1)")
    parser.add_argument("--players", default="Ana,Ben,Chloé",
                        help="2 to 5 names, comma-separated (default: Ana,Ben,Chloé)")
    parser.add_argument("--db", metavar="FILE",
                        help="keep the record in this file (default: a temporary folder)")
    parser.add_argument("--quiet", action="store_true", help="print only the results")
    parser.add_argument("--ui", action="store_true",
                        help="open the touchscreen app with virtual cards and lights instead")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.ui:
        from companion.ui.app import run_app

        return run_app(simulate=True)
    from pathlib import Path

    from companion.errors import UserError
    from companion.sim.demo import run_demo

    players = [name.strip() for name in args.players.split(",") if name.strip()]
    if not 2 <= len(players) <= 5:
        raise UserError(f"--players lists {len(players)} names.",
                        "Noah is played by 2 to 5: give e.g. --players Ana,Ben,Chloé.")
    run_demo(seed=args.seed, players=players, db=Path(args.db) if args.db else None,
             quiet=args.quiet)
    return 0
