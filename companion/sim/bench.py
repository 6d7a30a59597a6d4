"""Referee session speed: ``python -m companion.sim.bench`` (figures for docs/benchmarks.md).

* intent to acknowledgement: one touch or camera card, button or target, from the call to the
  published view (engine check, committed SQLite write with ``synchronous=FULL``, apply, lights,
  snapshot), over whole seeded games at a simulated table;
* the committed write alone (``GameStore.append``);
* resuming a finished 3-round game from its record (replay of every line).

The record lives where ``--dir`` says (default: a temporary folder), since the disk's ``fsync``
dominates. Benchmarks report figures; they never pass or fail on time.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.session.session import Session
from companion.session.store import GameStore
from companion.sim.autoplay import SimulatedTable

PLAYERS = ("Ana", "Ben", "Chloé")


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(folder: Path, games: int) -> dict[str, Any]:
    """Play ``games`` seeded games at a simulated table and time everything."""
    intents: list[float] = []
    with GameStore(folder / "bench.sqlite") as store:
        session = Session(store)
        for seed in range(games):
            table = SimulatedTable(session, PLAYERS, seed=seed)
            do = table.do

            def timed(intent, *args, expect=True, _do=do):
                started = time.perf_counter()
                result = _do(intent, *args, expect=expect)
                intents.append(time.perf_counter() - started)
                return result

            table.do = timed  # type: ignore[method-assign]  # timing each intent
            table.play()
        game_id = session.view.game_id
        assert game_id is not None, "the last game is still open"
        lines = len(store.lines(game_id))
        writes = []
        for _ in range(100):
            started = time.perf_counter()
            store.append(game_id, {"type": "note", "text": "bench"})
            writes.append(time.perf_counter() - started)
    with GameStore(folder / "bench.sqlite") as store:
        started = time.perf_counter()
        Session(store).resume(game_id)
        resume = time.perf_counter() - started
    return {
        "intents": len(intents),
        "intent_median_ms": statistics.median(intents) * 1000,
        "intent_p95_ms": _percentile(intents, 0.95) * 1000,
        "write_median_ms": statistics.median(writes) * 1000,
        "write_p95_ms": _percentile(writes, 0.95) * 1000,
        "resume_lines": lines + 100,
        "resume_ms": resume * 1000,
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=5, help="seeded games to play (5)")
    parser.add_argument("--dir", type=Path, help="where to write the record (a temp folder)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    """``noah-companion bench session``: the figures, as text or JSON."""
    folder = args.dir or Path(tempfile.mkdtemp(prefix="noah-bench-"))
    figures = measure(folder, args.games)
    figures["machine"] = f"{platform.machine()}, Python {platform.python_version()}"
    figures["date"] = datetime.date.today().isoformat()
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"Referee session, {figures['machine']}, {figures['date']}, record in {folder}:\n"
          f"  intent to acknowledgement: median {figures['intent_median_ms']:.2f} ms, "
          f"p95 {figures['intent_p95_ms']:.2f} ms ({figures['intents']} intents)\n"
          f"  committed write alone:     median {figures['write_median_ms']:.2f} ms, "
          f"p95 {figures['write_p95_ms']:.2f} ms\n"
          f"  resume of a finished game: {figures['resume_ms']:.0f} ms "
          f"({figures['resume_lines']} lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
