"""``noah-companion demo``: a whole simulated game through the real pipeline (no Pi, camera or
screen needed), narrated in the terminal. ``--ui`` plays the same seeded game on the app's
screen (simulator mode), with the same ``--seed``, ``--players`` and ``--db``; ``--table-view``
referees from rendered overhead frames (with ``--ui``: on the app's screen, which shows the
rendered table on its calibration screen)."""

from __future__ import annotations

import argparse

from companion.commands._options import PLAYERS_HELP, players


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo", help="play a whole simulated game through camera, referee, record and lights",
        description="Seeded players play a whole game of Noah at a virtual table: every card is "
                    "rendered as a camera frame, read by the vision pipeline, refereed by the "
                    "session, saved in a SQLite record and shown on virtual ferry lights.",
    )
    parser.add_argument("--seed", type=int, default=1, help="which game to play (default 1)")
    parser.add_argument("--players", type=players, default="Ana,Ben,Chloé",
                        metavar="N|A,B,...", help=f"{PLAYERS_HELP}; default Ana,Ben,Chloé")
    parser.add_argument("--db", metavar="FILE",
                        help="keep the record in this file (default: a temporary folder)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only the results")
    parser.add_argument("--ui", action="store_true",
                        help="play the game on the touchscreen app's screen instead (virtual "
                             "cards and lights; with --table-view, the rendered table is shown "
                             "on the table camera's screen)")
    parser.add_argument("--table-view", action="store_true",
                        help="referee from one camera above the table: plays and Noah's moves "
                             "are read from rendered overhead frames, with no touch")
    parser.add_argument("--web", nargs="?", const=0, type=int, metavar="PORT",
                        help="also serve the game's read-only page on the local network while "
                             "it is played (printing its address; default port: [web] port)")
    parser.add_argument("--frames", metavar="DIR",
                        help="with --table-view: also save the game as a recording in DIR (its "
                             "frames as JPEG, answers.jsonl, true-log.jsonl) for 'table referee'")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    if args.web is not None:
        from companion.web.demo import run_with_page

        return run_with_page(args, run)
    players = list(args.players)
    if args.frames and (args.ui or not args.table_view):
        from companion.errors import UserError

        raise UserError("--frames saves the frames of 'demo --table-view' (without --ui).",
                        "Add --table-view, or leave --frames out.")
    if args.table_view and args.ui:
        from companion.ui.demo import run_table_demo_ui

        return run_table_demo_ui(seed=args.seed, players=players,
                                 db=Path(args.db) if args.db else None,
                                 verbose=getattr(args, "verbose", False))
    if args.table_view:
        from companion.sim.recording import GameRecording
        from companion.sim.table_demo import run_table_demo

        run_table_demo(seed=args.seed, players=players,
                       db=Path(args.db) if args.db else None, quiet=args.quiet,
                       recording=GameRecording(Path(args.frames)) if args.frames else None)
        return 0
    if args.ui:
        from companion.ui.demo import run_demo_ui

        return run_demo_ui(seed=args.seed, players=players,
                           db=Path(args.db) if args.db else None,
                           verbose=getattr(args, "verbose", False))
    from companion.sim.demo import run_demo

    run_demo(seed=args.seed, players=players, db=Path(args.db) if args.db else None,
             quiet=args.quiet)
    return 0
