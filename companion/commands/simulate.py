"""``noah-companion simulate``: play seeded random games and check the rules engine's invariants.

Game ``i`` of a run depends only on ``--seed`` and ``i``, so a reported failure is reproduced
with ``--game i`` whatever ``--jobs`` was. Exit status: 0 when every game held, 1 otherwise.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from companion.commands._options import (
    PLAYERS_HELP,
    add_out,
    add_quiet,
    players,
    progress_bar,
    shows_progress,
)
from companion.commands._pool import batches, in_order, job_count
from companion.errors import UserError
from companion.session.narrate import plural


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate", help="play seeded random games and check the rules engine",
        description="Play random games with known hands, choosing uniformly among the legal "
        "actions, and check the table's invariants after every action.",
    )
    parser.add_argument("--games", type=_positive, default=100, help="games to play (100)")
    parser.add_argument("--players", type=players, default="4", metavar="N|A,B,...",
                        help=f"{PLAYERS_HELP}; default 4")
    # --names was the option for names before --players took them too: still understood.
    parser.add_argument("--names", type=players, dest="players", help=argparse.SUPPRESS)
    parser.add_argument("--seed", default="1", help="seed of the run (1); any text works")
    parser.add_argument("--frog", action="store_true", help="frogs replace snails")
    parser.add_argument("--crocodile", action="store_true", help="crocodiles replace donkeys")
    parser.add_argument("--roommates", action="store_true", help="'Roommates on the Ark' variant")
    parser.add_argument("--pair-mf", action="store_true",
                        help="a pair bonus needs a male and a female")
    parser.add_argument("--score26", action="store_true",
                        help="play until someone has 26 or more (instead of 3 rounds)")
    add_out(parser, "write every game as a table log (game-00000.jsonl, ...) in the folder DIR",
            metavar="DIR", type=Path)
    parser.add_argument("--write-logs", type=Path, dest="out", help=argparse.SUPPRESS)  # old name
    parser.add_argument("--table-view", action="store_true",
                        help="with --out: write what a real table records (hidden hands, "
                        "gifts as counts, a hand scan at each round end)")
    parser.add_argument("--no-check", action="store_true",
                        help="skip the invariant checks (faster)")
    parser.add_argument("--jobs", type=_positive, default=None,
                        help="processes to use (default: one per core)")
    parser.add_argument("--game", type=int, metavar="I", default=None,
                        help="play only game I of the run (to reproduce a failure)")
    add_quiet(parser)
    parser.set_defaults(func=run)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return value


def run(args: argparse.Namespace) -> int:
    from companion.game import InputError, Options

    try:
        options = Options(frog=args.frog, crocodile=args.crocodile, roommates=args.roommates,
                          pair_mf=args.pair_mf,
                          end_rule="score26" if args.score26 else "rounds")
        _check_deck(args.players, options)
    except InputError as error:
        raise UserError(error.message) from error
    first, count = (args.game, 1) if args.game is not None else (0, args.games)
    if args.out:
        _make_directory(args.out)
    jobs = job_count(args.jobs, count)
    started = time.perf_counter()
    tally = _Tally()
    with progress_bar(count, "Games", "game", shows_progress(args.quiet)) as bar:
        for result in _results(first, count, args, options, jobs):
            tally.add(result)
            if args.out:
                _write_log(result, args.out)
            bar.update()
    elapsed = time.perf_counter() - started
    print(tally.summary(args, options, elapsed, jobs))
    return 0 if not tally.failures else 1


def _check_deck(players: Any, options: Any) -> None:
    from companion.game import Game
    from companion.game.simulate import seat_names

    Game(seat_names(players), options)


def _make_directory(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"Cannot create the log directory {path}: {error.strerror}.",
                        "Choose another directory with --out.") from error


def _results(first: int, count: int, args: argparse.Namespace, options: Any, jobs: int):
    """Game summaries in order; with several jobs, played by worker processes."""
    log_kind = None if not args.out else "table" if args.table_view else "full"
    tasks = [(start, games, args.players, options, args.seed, not args.no_check, log_kind)
             for start, games in batches(first, count, jobs)]
    return in_order(_play_batch, tasks, jobs)


def _play_batch(task: tuple) -> list[dict[str, Any]]:
    from companion.game.simulate import simulate

    start, count, players, options, seed, check, log_kind = task
    return [_summary(result, log_kind)
            for result in simulate(count, players, options, seed, check, start)]


def _summary(result: Any, log_kind: str | None) -> dict[str, Any]:
    """What the parent needs of a game (small, picklable): figures, failure, and its log as
    played (``"full"``) or as a real table records it (``"table"``, not for a failed game)."""
    from companion.game.simulate import table_view
    from companion.game.tablelog import dumps, game_lines

    game = result.game
    summary = {"index": result.index, "actions": result.actions, "failure": result.failure,
               "rounds": game.round, "scores": game.scores, "winners": game.winners,
               "take_backs": sum(action.type == "take_back" for action in game.history)}
    if log_kind == "table" and result.ok:
        summary["log"] = dumps(*table_view(game))
    elif log_kind:
        summary["log"] = "".join(f"{line}\n" for line in game_lines(game))
    return summary


def _write_log(result: dict[str, Any], directory: Path) -> None:
    name = f"game-{result['index']:05d}{'' if result['failure'] is None else '-failed'}.jsonl"
    try:
        (directory / name).write_text(result["log"], encoding="utf-8")
    except OSError as error:
        raise UserError(f"Cannot write {directory / name}: {error.strerror}.",
                        "Choose another directory with --out.") from error
    result["written"] = str(directory / name)


class _Tally:
    """Running totals of a simulation, and its report."""

    def __init__(self) -> None:
        self.games = self.actions = self.rounds = self.take_backs = self.shared = 0
        self.max_actions = 0
        self.score_total = 0
        self.failures: list[dict[str, Any]] = []

    def add(self, result: dict[str, Any]) -> None:
        self.games += 1
        if result["failure"] is not None:
            self.failures.append(result)
            return
        self.actions += result["actions"]
        self.max_actions = max(self.max_actions, result["actions"])
        self.rounds += result["rounds"]
        self.take_backs += result["take_backs"]
        self.score_total += sum(result["scores"])
        self.shared += len(result["winners"]) > 1

    def summary(self, args: argparse.Namespace, options: Any, elapsed: float, jobs: int) -> str:
        chosen = [name.replace("_", "-") for name in ("frog", "crocodile", "roommates", "pair_mf")
                  if getattr(options, name)] + (["score26"] if args.score26 else [])
        lines = [f"Simulated {plural(self.games, 'game')} of {len(args.players)} players "
                 f"(seed {args.seed}, options: {', '.join(chosen) or 'none'}) in {elapsed:.1f} s "
                 f"with {plural(jobs, 'process', 'processes')}: "
                 f"{self.games / elapsed:.0f} games/s."]
        good = self.games - len(self.failures)
        if good:
            checked = "not checked (--no-check)" if args.no_check else "checked after each"
            lines.append(
                f"{self.actions} actions, invariants {checked}; per game: {self.rounds / good:.1f}"
                f" rounds, {self.actions / good:.0f} actions (at most {self.max_actions}), "
                f"{self.take_backs / good:.1f} take-backs; mean final score "
                f"{self.score_total / good / len(args.players):.1f}; shared wins "
                f"{100 * self.shared / good:.1f}%.")
        for failure in self.failures[:10]:
            lines.append(f"FAILED game {failure['index']} {failure['failure'].rstrip()}\n"
                         f"  Log: {failure.get('written', 'use --out DIR')}; reproduce "
                         f"with --game {failure['index']} --seed {args.seed}.")
        if self.failures:
            lines.append(f"{plural(len(self.failures), 'game')} broke an invariant: that is a "
                         "rules-engine bug; send the logs above to the developers.")
        else:
            lines.append("Every game held every invariant.")
        return "\n".join(lines)
