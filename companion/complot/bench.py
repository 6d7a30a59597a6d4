"""``noah-companion bench complot``: how fast the Complot referee judges claims and plays games.

Figures on one core: C90 claim checks per second (targets ≥ 20,000), C94 judge lines per
second (JSON text in and out) next to ``json.loads`` + ``json.dumps`` of the same lines measured
in the same run (the baseline: the ratio says what judging adds to reading and writing), seeded
simulated games to 400 per second at level 3 with 4 players (target ≥ 200), with and without the
invariant checks, and table-log lines replayed per second. Each figure is the best of a few
rounds (a shared machine drifts), as timeit does; every round plays other seeds, so that no
round finds the hands of an earlier one remembered.

``--against DIR`` plays the same games with the code in ``DIR`` (another checkout, e.g. ``git
archive main | tar -x -C DIR``) in subprocesses, alternating with this code, and reports the
ratio of CPU time per game: a before/after comparison measured in one run.

The deck check (``tags check --game complot``) is timed through the camera path: the 93
stickers shown one at a time to a synthetic camera at 15 frames a second, read by the vision
pipeline with the tracker's own timings, each counted by the check; the minutes for a whole
deck add an assumed time for a hand to put one card down and show the next.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from companion.game.bench import machine

from . import native
from .actions import Action
from .cards import default_deck
from .combos import CLAIMS
from .engine import Game
from .judge import check_claim, judge_line
from .simulate import collector_for_games, play_game
from .tablelog import replay

CLAIMS_TARGET_PER_S = 20_000
GAMES_TARGET_PER_S = 200
DECK_CHECK_TARGET_S = 120
HANDLING_S = 0.6
"""Assumed seconds for a hand to take a card away and show the next (not measured here)."""
DECK_CHECK_FPS = 15


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", default="bench", help="seed of the claims and games (bench)")
    parser.add_argument("--against", metavar="DIR",
                        help="also play the games with the code in DIR (another checkout) and "
                             "report the ratio of CPU time per game, measured in pairs")
    parser.add_argument("--compiled-pairs", action="store_true",
                        help="also play the games with the pure and the compiled engine "
                             "(./run.sh setup's build) in alternating fresh processes")


def run(args: argparse.Namespace) -> int:
    quick = args.quick
    rounds = 2 if quick else 5
    requests = claim_requests(args.seed, 2_000 if quick else 20_000)
    figures = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "engine": native.status(),
        **measure_claims(requests, rounds),
        **measure_games(args.seed, 3 if quick else 20, 1 if quick else 3),
        **measure_deck_check(10 if quick else None),
        "targets": {"claims_per_s": CLAIMS_TARGET_PER_S, "games_per_s": GAMES_TARGET_PER_S,
                    "deck_check_s": DECK_CHECK_TARGET_S},
    }
    if args.compiled_pairs:
        figures["compiled_pairs"] = measure_compiled_pairs(args.seed, 3 if quick else 10,
                                                           2 if quick else 5)
    if args.against:
        figures["against"] = measure_against(args.against, args.seed, 3 if quick else 10,
                                             2 if quick else 5)
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


def _best_rate(count: int, rounds: int, work: Callable[[int], object]) -> float:
    """``count`` per second of the fastest of ``rounds`` runs of ``work(round)``."""
    return _best_rates(count, rounds, work)[0]


def _best_rates(count: int, rounds: int, work: Callable[[int], object]) -> tuple[float, float]:
    """``count`` per second of wall-clock time and per second of this process's CPU time (on
    a loaded machine the second says what the code costs), each the best of ``rounds``."""
    wall = cpu = 0.0
    for round_number in range(rounds):
        started, started_cpu = time.perf_counter(), time.process_time()
        work(round_number)
        wall = max(wall, count / (time.perf_counter() - started))
        cpu = max(cpu, count / max(time.process_time() - started_cpu, 1e-9))
    return wall, cpu


def measure_claims(requests: list[dict[str, Any]], rounds: int) -> dict[str, Any]:
    """C90 checks per second, and C94 lines per second beside the JSON-only baseline."""
    lines = [json.dumps({"id": index, "kind": "claim", "input": request})
             for index, request in enumerate(requests)]
    count = len(requests)
    claims = _best_rate(count, rounds, lambda _: [check_claim(request) for request in requests])
    judged = _best_rate(count, rounds,
                        lambda _: [json.dumps(judge_line(line)) for line in lines])
    baseline = _best_rate(count, rounds,
                          lambda _: [json.dumps(json.loads(line)) for line in lines])
    accepted = sum(1 for request in requests if check_claim(request)["accepted"])
    return {"claims": count, "accepted": accepted, "claims_per_s": round(claims),
            "judge_lines_per_s": round(judged), "json_only_lines_per_s": round(baseline),
            "judge_vs_json_only": round(baseline / judged, 2)}


def measure_games(seed: str, count: int, rounds: int) -> dict[str, Any]:
    """Seeded 4-player level-3 games to 400 per second (checks off, then on), and replay;
    the games with the collector set as ``complot simulate`` sets it (the claim benchmark's
    20,000 requests frozen with the rest of the heap)."""
    def games(check: bool, round_number: int, keep: bool = False) -> list[Any]:
        # The timed rounds keep no game, as complot simulate keeps none: 20 games kept with
        # their undo stacks are survivors the collector walks again and again (0.6-0.8x).
        reports = []
        with collector_for_games():
            for index in range(count):
                report = play_game(f"{seed}:{round_number}:{index}", 4, 3, check=check)
                if keep:
                    reports.append(report)
        return reports

    fast, fast_cpu = _best_rates(count, rounds,
                                 lambda round_number: games(False, round_number))
    checked, checked_cpu = _best_rates(count, rounds,
                                       lambda round_number: games(True, rounds + round_number))
    reports = games(False, 0, keep=True)
    logs = [report.log.splitlines() for report in reports]
    lines = sum(len(log) for log in logs)
    replayed = _best_rate(lines, rounds, lambda _: [list(replay(log)) for log in logs])
    typed = [(report.game, [report.game.parse(line) for line in report.game.history])
             for report in reports if report.game is not None]
    pushes = sum(len(actions) for _, actions in typed)
    pushed = _best_rate(pushes, rounds, lambda _: [_push_legal_all(*game) for game in typed])
    return {"games": count, "games_per_s": round(fast, 1),
            "games_per_s_checked": round(checked, 1), "games_per_cpu_s": round(fast_cpu, 1),
            "games_per_cpu_s_checked": round(checked_cpu, 1),
            "turns_per_game": round(sum(report.turns for report in reports) / count, 1),
            "manches_per_game": round(sum(report.manches for report in reports) / count, 1),
            "replay_lines_per_s": round(replayed), "typed_pushes_per_s": round(pushed)}


def _push_legal_all(game: Game, actions: list[Action | None]) -> Game:
    """A fresh game with ``game``'s options, every typed action pushed unchecked."""
    fresh = Game(game.players, game.level, game.first_dealer, game.seed, game.deck,
                 game.target)
    for action in actions:
        assert action is not None  # every line of a simulated game has a typed form
        fresh.push_legal(action)
    return fresh


_GAMES_IN_A_CHILD = """
import sys, time
import companion
from companion.complot.simulate import play_game
assert companion.__file__.startswith(sys.argv[1]), companion.__file__
seed, count = sys.argv[2], int(sys.argv[3])
play_game(seed + ":warm-up", 4, 3, check=False)
started = time.process_time()
for index in range(count):
    play_game(f"{seed}:{index}", 4, 3, check=False)
print(count / (time.process_time() - started))
"""


def measure_against(other: str, seed: str, count: int, rounds: int) -> dict[str, Any]:
    """Games per CPU second of this code and of the code in ``other``, in alternating fresh
    processes playing the same seeds (each process plays a warm-up game first)."""
    from pathlib import Path

    import companion

    here = str(Path(companion.__file__).resolve().parent.parent)
    there = str(Path(other).expanduser().resolve())
    if not (Path(there) / "companion" / "complot" / "simulate.py").is_file():
        from companion.errors import UserError

        raise UserError(f"{other} holds no companion/complot/simulate.py.",
                        "Give a checkout of this project, e.g. git archive main | tar -x -C DIR.")
    rates: dict[str, list[float]] = {"this": [], "against": []}
    for _ in range(rounds):
        for name, folder in (("against", there), ("this", here)):
            done = subprocess.run([sys.executable, "-c", _GAMES_IN_A_CHILD, folder, seed,
                                   str(count)], env={"PYTHONPATH": folder}, cwd=folder,
                                  capture_output=True, text=True, check=True)
            rates[name].append(float(done.stdout))
    return {"against": there, "games": count, "rounds": rounds,
            "this_games_per_cpu_s": [round(rate, 1) for rate in rates["this"]],
            "against_games_per_cpu_s": [round(rate, 1) for rate in rates["against"]],
            "ratio_median": round(statistics.median(rates["this"])
                                  / statistics.median(rates["against"]), 2)}


_PAIRED_CHILD = """
import sys, time
from companion.complot import native
from companion.complot.simulate import collector_for_games, play_game
seed, count, check = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "check"
play_game(seed + ":warm-up", 4, 3, check=check)
with collector_for_games():
    started = time.process_time()
    for index in range(count):
        play_game(f"{seed}:{index}", 4, 3, check=check)
    print(native.kind(), count / (time.process_time() - started))
"""


def measure_compiled_pairs(seed: str, count: int, rounds: int) -> dict[str, Any]:
    """Games per CPU second of the pure and the compiled engine, without and with the
    invariant checks, in alternating fresh processes playing the same seeds; the median of
    the pairs' ratios (each pair ran side by side, under the same load)."""
    import os

    from companion.errors import UserError

    if native.usable_build() is None:
        raise UserError("There is no compiled build of these sources to compare with.",
                        "Run ./run.sh setup (it needs gcc and python3-dev), then again.")
    figures: dict[str, Any] = {"games": count, "rounds": rounds}
    for check in ("no_checks", "check"):
        rates: dict[str, list[float]] = {"pure": [], "compiled": []}
        for round_number in range(rounds):
            for kind, pure in (("pure", "1"), ("compiled", "")):
                done = subprocess.run(
                    [sys.executable, "-c", _PAIRED_CHILD, f"{seed}:{round_number}",
                     str(count), check], env={**os.environ, native.PURE_ENV: pure},
                    capture_output=True, text=True, check=True)
                ran, rate = done.stdout.split()
                assert ran == kind, done.stdout
                rates[kind].append(float(rate))
        ratios = [fast / slow for fast, slow in zip(rates["compiled"], rates["pure"],
                                                        strict=True)]
        figures[check] = {"pure_games_per_cpu_s": [round(rate, 1) for rate in rates["pure"]],
                          "compiled_games_per_cpu_s": [round(rate, 1)
                                                       for rate in rates["compiled"]],
                          "pure_median": round(statistics.median(rates["pure"]), 1),
                          "compiled_median": round(statistics.median(rates["compiled"]), 1),
                          "ratio_median_of_pairs": round(statistics.median(ratios), 2)}
    return figures


def measure_deck_check(cards: int | None = None) -> dict[str, Any]:
    """Seconds per card of ``tags check --game complot`` through the camera path (see the
    module's docstring), over the first ``cards`` cards (default: all 93)."""
    import queue

    from companion.tags.check import DeckCheck
    from vision.pipeline import Pipeline
    from vision.synthetic import Scene, SyntheticSource

    from .payload import TaggedDeck

    tagged = TaggedDeck(default_deck())
    shown = list(tagged.cards)[:cards]
    check = DeckCheck(tagged, shown)
    events: queue.Queue[Any] = queue.Queue()
    source = SyntheticSource(Scene(width=640, height=360, camera_height_mm=200.0, seed=11),
                             fps=DECK_CHECK_FPS)
    started = time.perf_counter()
    with Pipeline(source, is_ours=tagged.is_ours, on_event=events.put):
        for number, card in enumerate(shown, start=1):
            text = tagged.sticker_text(card)
            source.present(text)
            _wait_for(events, "CardShown", text)
            check.saw(text, f"card {number}")
            source.clear()
            _wait_for(events, "CardRemoved", text)
    per_card = (time.perf_counter() - started) / len(shown)
    return {"deck_check_cards": len(shown), "deck_check_ok": check.report().ok,
            "deck_check_s_per_card": round(per_card, 2),
            "deck_check_93_cards_s": round(93 * (per_card + HANDLING_S)),
            "deck_check_handling_s": HANDLING_S}


def _wait_for(events: Any, kind: str, text: str, timeout: float = 30.0) -> None:
    """Until the pipeline reports ``kind`` for ``text`` (the timeout only bounds a hang)."""
    import queue

    from companion.errors import UserError

    deadline = time.monotonic() + timeout
    while True:
        try:
            event = events.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise UserError(f"The camera pipeline did not report {kind} for {text}.",
                            "Run 'noah-companion bench vision' to check it.") from None
        if type(event).__name__ == kind and event.text == text:
            return


def report(figures: dict[str, Any]) -> str:
    """The figures in plain words, each next to its target."""
    host = figures["machine"]
    claims, games = figures["claims_per_s"], figures["games_per_s"]
    return "\n".join([
        f"Complot referee benchmark, {figures['date']}, one core",
        f"Engine: {figures['engine']}",
        f"Machine: {host['cpu']}; {host['platform']}; Python {host['python']}",
        f"Claim checks (C90): {claims}/s over {figures['claims']} claims "
        f"({figures['accepted']} accepted) — target ≥ {CLAIMS_TARGET_PER_S}: "
        f"{'met' if claims >= CLAIMS_TARGET_PER_S else 'MISSED'}",
        f"Judge lines (C94, JSON in and out): {figures['judge_lines_per_s']}/s; JSON alone "
        f"{figures['json_only_lines_per_s']}/s (judging costs "
        f"{figures['judge_vs_json_only']}× reading and writing)",
        f"Games to 400, level 3, 4 players: {games}/s without checks, "
        f"{figures['games_per_s_checked']}/s with the invariant checks; per second of CPU "
        f"time {figures['games_per_cpu_s']} and {figures['games_per_cpu_s_checked']} "
        f"({figures['manches_per_game']} manches, {figures['turns_per_game']} turns each) — "
        f"target ≥ {GAMES_TARGET_PER_S}: {'met' if games >= GAMES_TARGET_PER_S else 'MISSED'}",
        f"Table-log replay: {figures['replay_lines_per_s']} lines/s (judged dicts); the same "
        f"games' typed actions pushed unchecked: {figures['typed_pushes_per_s']}/s",
        f"Deck check through the camera path ({figures['deck_check_cards']} cards, "
        f"{DECK_CHECK_FPS} fps): {figures['deck_check_s_per_card']} s per card; 93 cards with "
        f"{figures['deck_check_handling_s']} s of handling each: about "
        f"{figures['deck_check_93_cards_s']} s — target ≤ {DECK_CHECK_TARGET_S} s: "
        f"{'met' if figures['deck_check_93_cards_s'] <= DECK_CHECK_TARGET_S else 'MISSED'}"
        f"{'' if figures['deck_check_ok'] else ' (a card was not read once: see tags check)'}",
        *_against_lines(figures.get("against")),
        *_pairs_lines(figures.get("compiled_pairs")),
    ])


def _pairs_lines(pairs: dict[str, Any] | None) -> list[str]:
    if pairs is None:
        return []
    return [f"Pure against compiled, {words} ({pairs['rounds']} pairs of fresh processes, "
            f"{pairs['games']} games each, CPU time): medians {figures['pure_median']} and "
            f"{figures['compiled_median']} games/s, median ratio of the pairs "
            f"{figures['ratio_median_of_pairs']}"
            for words, figures in (("without the checks", pairs["no_checks"]),
                                   ("with the checks", pairs["check"]))]


def _against_lines(against: dict[str, Any] | None) -> list[str]:
    if against is None:
        return []
    return [f"Against {against['against']} (same seeds, fresh processes in turn, CPU time): "
            f"{against['this_games_per_cpu_s']} games/s here, "
            f"{against['against_games_per_cpu_s']} there: ratio of medians "
            f"{against['ratio_median']}"]
