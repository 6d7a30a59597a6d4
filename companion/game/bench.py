"""``noah-companion bench rules``: how fast the rules engine judges loadings and plays games.

Three figures, all on one core: the median time to validate and apply one loading
(``Game.push`` of a legal :class:`~.actions.Play` taken from random positions; target ≤ 30 µs),
full random 3-round 4-player games per second (legal actions enumerated, invariant checks off;
target ≥ 400, issue 13), and table-log lines replayed per second (what resuming a game costs).
The output names the machine and the date, since the figures mean nothing without them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import random
import statistics
import time
from pathlib import Path
from typing import Any

from .actions import Play
from .deal import random_start_round
from .engine import Game
from .options import Options
from .simulate import play_random_game, table_view
from .tablelog import dumps, replay

PLAYERS = 4
LOADING_TARGET_US = 30
GAMES_TARGET_PER_S = 400


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", default="bench", help="seed of the random games (bench)")


def run(args: argparse.Namespace) -> int:
    quick = args.quick
    figures = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        **measure_loadings(random.Random(f"{args.seed}:loadings"), 300 if quick else 5000),
        **measure_games(args.seed, 10 if quick else 40, rounds=2 if quick else 7),
        **measure_replay(args.seed, 3 if quick else 30),
        "targets": {"loading_us": LOADING_TARGET_US, "games_per_s": GAMES_TARGET_PER_S},
    }
    print(json.dumps(figures, indent=2) if args.json else report(figures))
    return 0


def machine() -> dict[str, str]:
    """Platform, CPU model (from /proc/cpuinfo when there is one) and Python version."""
    return {"platform": platform.platform(), "cpu": _cpu_model(),
            "python": platform.python_version()}


def _cpu_model() -> str:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return platform.processor() or platform.machine()
    fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    fields = {key.strip(): value.strip() for key, value in fields.items()}
    cores = text.count("processor\t:") or text.count("processor :")
    for key in ("model name", "Model", "Hardware", "cpu model"):  # x86, Raspberry Pi, others
        if fields.get(key):
            return f"{fields[key]} ({cores} cores)" if cores else fields[key]
    return platform.processor() or platform.machine()


def measure_loadings(rng: random.Random, count: int) -> dict[str, Any]:
    """Median µs of ``push`` (validate and apply) and of ``check`` (validate) for legal loadings
    met in random 4-player games; each sample is timed on its own copy of the game."""
    samples = _loading_samples(rng, count)
    pushes, checks = [], []
    clock = time.perf_counter_ns
    for game, play in samples:
        twin = game.copy()  # so that neither figure profits from the other's warm-up
        started = clock()
        game.push(play)
        pushes.append(clock() - started)
        started = clock()
        twin.check(play)
        checks.append(clock() - started)
    return {"loadings": len(samples),
            "loading_us_median": round(statistics.median(pushes) / 1000, 2),
            "check_us_median": round(statistics.median(checks) / 1000, 2)}


def _loading_samples(rng: random.Random, count: int) -> list[tuple[Game, Play]]:
    samples: list[tuple[Game, Play]] = []
    while len(samples) < count:
        game = Game([f"Player {seat + 1}" for seat in range(PLAYERS)], Options())
        while not game.is_over and len(samples) < count:
            if game.phase == "round_over":
                game.push(random_start_round(game, rng))
                continue
            choices = game.legal_actions()
            plays = [action for action in choices if isinstance(action, Play)]
            if plays:
                samples.append((game.copy(), rng.choice(plays)))
            game.push(rng.choice(choices))
    return samples


def measure_games(seed: str, count: int, rounds: int = 1) -> dict[str, Any]:
    """Random 3-round 4-player games per second, legal actions enumerated, no checks.

    The same ``count`` games are played in each of ``rounds`` rounds. A shared virtual machine's
    speed drifts by a quarter from one second to the next, so, as timeit does, the best round
    tells what the engine costs and the median what this machine gave during the run.
    """
    rates, actions = [], 0
    for _ in range(rounds):
        actions = 0
        started = time.perf_counter()
        for index in range(count):
            game = Game([f"Player {seat + 1}" for seat in range(PLAYERS)], Options())
            play_random_game(game, random.Random(f"{seed}:game:{index}"), check=False)
            actions += len(game.history)
        rates.append(count / (time.perf_counter() - started))
    return {"games": count, "rounds": rounds, "games_per_s": round(max(rates), 1),
            "games_per_s_median": round(statistics.median(rates), 1),
            "actions_per_game": round(actions / count, 1)}


def measure_replay(seed: str, count: int) -> dict[str, Any]:
    """Table-log lines judged per second by :func:`.tablelog.replay` (hidden hands)."""
    logs = []
    for index in range(count):
        game = Game([f"Player {seat + 1}" for seat in range(PLAYERS)], Options())
        play_random_game(game, random.Random(f"{seed}:replay:{index}"), check=False)
        logs.append(dumps(*table_view(game)).splitlines(keepends=True))
    lines = 0
    started = time.perf_counter()
    for log in logs:
        lines += sum(1 for _ in replay(log))
    elapsed = time.perf_counter() - started
    return {"replay_lines_per_s": round(lines / elapsed)}


def report(figures: dict[str, Any]) -> str:
    """The figures in plain words, each next to its target."""
    host = figures["machine"]
    loading, games = figures["loading_us_median"], figures["games_per_s"]
    return "\n".join([
        f"Rules engine benchmark, {figures['date']}, one core",
        f"Machine: {host['cpu']}; {host['platform']}; Python {host['python']}",
        f"Loading (validate and apply one play): median {loading} µs over "
        f"{figures['loadings']} loadings — target ≤ {LOADING_TARGET_US} µs: "
        f"{'met' if loading <= LOADING_TARGET_US else 'MISSED'}",
        f"  validating only (check): median {figures['check_us_median']} µs",
        f"Random 3-round {PLAYERS}-player games (legal actions enumerated, no checks): "
        f"{games} games/s in the best of {figures['rounds']} rounds of {figures['games']} games "
        f"({figures['games_per_s_median']} median), {figures['actions_per_game']} actions each"
        f" — target ≥ {GAMES_TARGET_PER_S}: {'met' if games >= GAMES_TARGET_PER_S else 'MISSED'}",
        f"Table-log replay (hidden hands): {figures['replay_lines_per_s']} lines/s",
    ])
