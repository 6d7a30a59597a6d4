"""``noah-companion bench complot``: how fast the Complot referee judges claims and plays games.

Figures on one core: C90 claim checks per second (targets ≥ 20,000), C94 judge lines per
second (JSON text in and out) next to ``json.loads`` + ``json.dumps`` of the same lines measured
in the same run (the baseline: the ratio says what judging adds to reading and writing), seeded
simulated games to 400 per second at level 3 with 4 players (target ≥ 200), with and without the
invariant checks, and table-log lines replayed per second. Each figure is the best of a few
rounds (a shared machine drifts), as timeit does.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import time
from collections.abc import Callable
from typing import Any

from companion.game.bench import machine

from .cards import default_deck
from .combos import CLAIMS
from .judge import check_claim, judge_line
from .simulate import play_game
from .tablelog import replay

CLAIMS_TARGET_PER_S = 20_000
GAMES_TARGET_PER_S = 200


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", default="bench", help="seed of the claims and games (bench)")


def run(args: argparse.Namespace) -> int:
    quick = args.quick
    rounds = 2 if quick else 5
    requests = claim_requests(args.seed, 2_000 if quick else 20_000)
    figures = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        **measure_claims(requests, rounds),
        **measure_games(args.seed, 3 if quick else 20, 1 if quick else 3),
        "targets": {"claims_per_s": CLAIMS_TARGET_PER_S, "games_per_s": GAMES_TARGET_PER_S},
    }
    print(json.dumps(figures, indent=2) if args.json else report(figures))
    return 0


def claim_requests(seed: str, count: int) -> list[dict[str, Any]]:
    """Seeded C90 requests like a table's: six cards of the level, every word and moment;
    one in five is a real combination (a Léonard six or two trios) so accepted paths count."""
    rng = random.Random(f"{seed}:claims")
    deck = default_deck()
    ids = [card.id for card in deck if card.category != "AT"]
    leonards = [card.id for card in deck if card.category in ("LE", "AR")]
    requests = []
    for index in range(count):
        cards = rng.sample(leonards if index % 5 == 0 else ids, 6)
        requests.append({"level": 3, "cards": cards, "claim": rng.choice(CLAIMS),
                         "moment": rng.choice(("discard", "turn_start")),
                         "first_turn": index % 7 == 0})
    return requests


def _best_rate(count: int, rounds: int, work: Callable[[], object]) -> float:
    best = 0.0
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        best = max(best, count / (time.perf_counter() - started))
    return best


def measure_claims(requests: list[dict[str, Any]], rounds: int) -> dict[str, Any]:
    """C90 checks per second, and C94 lines per second beside the JSON-only baseline."""
    lines = [json.dumps({"id": index, "kind": "claim", "input": request})
             for index, request in enumerate(requests)]
    count = len(requests)
    claims = _best_rate(count, rounds, lambda: [check_claim(request) for request in requests])
    judged = _best_rate(count, rounds,
                        lambda: [json.dumps(judge_line(line)) for line in lines])
    baseline = _best_rate(count, rounds, lambda: [json.dumps(json.loads(line)) for line in lines])
    accepted = sum(1 for request in requests if check_claim(request)["accepted"])
    return {"claims": count, "accepted": accepted, "claims_per_s": round(claims),
            "judge_lines_per_s": round(judged), "json_only_lines_per_s": round(baseline),
            "judge_vs_json_only": round(baseline / judged, 2)}


def measure_games(seed: str, count: int, rounds: int) -> dict[str, Any]:
    """Seeded 4-player level-3 games to 400 per second (checks off, then on), and replay."""
    def games(check: bool) -> list[Any]:
        return [play_game(f"{seed}:{index}", 4, 3, check=check) for index in range(count)]

    fast = _best_rate(count, rounds, lambda: games(False))
    checked = _best_rate(count, rounds, lambda: games(True))
    reports = games(False)
    logs = [report.log.splitlines() for report in reports]
    lines = sum(len(log) for log in logs)
    replayed = _best_rate(lines, rounds, lambda: [list(replay(log)) for log in logs])
    return {"games": count, "games_per_s": round(fast, 1),
            "games_per_s_checked": round(checked, 1),
            "turns_per_game": round(sum(report.turns for report in reports) / count, 1),
            "manches_per_game": round(sum(report.manches for report in reports) / count, 1),
            "replay_lines_per_s": round(replayed)}


def report(figures: dict[str, Any]) -> str:
    """The figures in plain words, each next to its target."""
    host = figures["machine"]
    claims, games = figures["claims_per_s"], figures["games_per_s"]
    return "\n".join([
        f"Complot referee benchmark, {figures['date']}, one core",
        f"Machine: {host['cpu']}; {host['platform']}; Python {host['python']}",
        f"Claim checks (C90): {claims}/s over {figures['claims']} claims "
        f"({figures['accepted']} accepted) — target ≥ {CLAIMS_TARGET_PER_S}: "
        f"{'met' if claims >= CLAIMS_TARGET_PER_S else 'MISSED'}",
        f"Judge lines (C94, JSON in and out): {figures['judge_lines_per_s']}/s; JSON alone "
        f"{figures['json_only_lines_per_s']}/s (judging costs "
        f"{figures['judge_vs_json_only']}× reading and writing)",
        f"Games to 400, level 3, 4 players: {games}/s without checks, "
        f"{figures['games_per_s_checked']}/s with the invariant checks "
        f"({figures['manches_per_game']} manches, {figures['turns_per_game']} turns each) — "
        f"target ≥ {GAMES_TARGET_PER_S}: {'met' if games >= GAMES_TARGET_PER_S else 'MISSED'}",
        f"Table-log replay: {figures['replay_lines_per_s']} lines/s",
    ])
