"""The LAN page under load: ``noah-companion bench web`` (figures for docs/benchmarks.md).

Seeded games are played at a simulated table (the referee session, its SQLite record with
``synchronous=FULL``) twice, paired: once with the page off, once with ``--phones`` followers
(default 50) on loopback reading every server-sent event. Measured:

* update latency: from the session publishing a view after an accepted action to each phone
  receiving the event that shows it (p50, p95, max over every phone and action);
* the game's own intent-to-acknowledgement time, page off and on (their ratio: what serving
  the phones costs the table);
* the process's memory (RSS) before the server starts and at its peak with every phone on;
* phones dropped (a follower is dropped only when 64 kB of events wait unsent for it).

Benchmarks report figures; they never pass or fail on time.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Any

from companion.game import default_deck
from companion.session.session import Session
from companion.session.store import GameStore
from companion.sim.autoplay import SimulatedTable
from companion.web.server import WebServer
from companion.web.settings import WebSettings

PLAYERS = ("Ana", "Ben", "Chloé")
TOKEN = "bench-token-0001"
#: Which update an event shows: the record line count of which game (``from_view``'s order).
SEQ = re.compile(rb'"seq":(\d+),"table":\{"game":(\d+)')


def rss_mib() -> float:
    """The process's resident memory now (Linux), in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Phones:
    """``count`` followers on loopback, in a process of their own (their memory and CPU are
    not the server's, as phones'): each reads every event and notes when (monotonic clock,
    shared by both processes) it first saw each ``seq``."""

    def __init__(self, port: int, count: int) -> None:
        self.port, self.count = port, count
        self.seen: list[dict[int, float]] = []
        self.connected = 0
        self._process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        code = f"from companion.web.bench import follow; follow({self.port}, {self.count})"
        self._process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True)
        assert self._process.stdout is not None
        self.connected = int(self._process.stdout.readline() or 0)  # once all are connected

    def stop(self) -> None:
        assert self._process is not None
        out, _ = self._process.communicate("stop\n", timeout=60)
        self.seen = [{int(seq): t for seq, t in phone.items()} for phone in json.loads(out)]


def follow(port: int, count: int) -> None:
    """The phones' process: connect ``count`` followers, say so, read until told to stop,
    print what each saw (JSON)."""
    seen: list[dict[int, float]] = [{} for _ in range(count)]

    async def phone(index: int, ready: asyncio.Queue[int]) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
        writer.write(f"GET /events?token={TOKEN} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        await writer.drain()
        ready.put_nowait(index)
        while line := await reader.readline():
            found = SEQ.search(line)
            if found and _update(int(found[2]), int(found[1])) not in seen[index]:
                seen[index][_update(int(found[2]), int(found[1]))] = time.monotonic()

    async def main() -> None:
        ready: asyncio.Queue[int] = asyncio.Queue()
        tasks = [asyncio.ensure_future(phone(i, ready)) for i in range(count)]
        for _ in range(count):
            await ready.get()
        print(count, flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())
    print(json.dumps(seen))


def play(session: Session, games: int, on_intent: list[float], pace: float,
         seed: int = 0) -> None:
    for number in range(seed, seed + games):
        table = SimulatedTable(session, PLAYERS, seed=number)
        do = table.do

        def timed(intent: Any, *args: Any, expect: bool = True, _do: Any = do) -> Any:
            started = time.perf_counter()
            result = _do(intent, *args, expect=expect)
            on_intent.append(time.perf_counter() - started)
            if pace:
                time.sleep(pace)  # people at a table: the phones are not flooded
            return result

        table.do = timed  # type: ignore[method-assign]
        table.play()


def measure(folder: Path, games: int, phones: int, pace: float) -> dict[str, Any]:
    """Seeded games played in pairs, page off then page on (same seed), so that a busy disk or
    CPU weighs on both alike; the figures of the page-on games."""
    off: list[float] = []
    on: list[float] = []
    published: dict[int, float] = {}
    path = folder / "on.sqlite"
    GameStore(path).close()
    before = rss_mib()
    server = WebServer(path, default_deck(), token=TOKEN, follow_record=False,
                       settings=WebSettings(enabled=True, port=0, host="127.0.0.1", mdns=False,
                                            max_clients=phones + 1))
    with GameStore(folder / "off.sqlite") as quiet, GameStore(path) as store:
        plain, session = Session(quiet), Session(store)
        play(plain, 1, [], 0.0)  # warm-up: imports and caches, in neither figure
        server.start(announce=False)
        followers = Phones(server.port, phones)
        followers.start()
        peak = rss_mib()

        def publish(view: Any) -> None:
            if view.game_id is not None:
                published.setdefault(_update(view.game_id, view.seq), time.monotonic())
            server.publish_view(view)

        session.subscribe(publish)
        for seed in range(games):  # off then on, then on then off: the order weighs on neither
            pair = [(plain, off), (session, on)]
            for table, figures in pair if seed % 2 == 0 else reversed(pair):
                play(table, 1, figures, pace, seed=seed)
            peak = max(peak, rss_mib())
        time.sleep(1.0)  # the last update reaches every phone (its latency is measured)
        followers.stop()
        server.stop()
    latencies = [latency for seen in followers.seen for latency in _lags(published, seen)]
    return {
        "phones": phones, "connected": followers.connected, "dropped": server.dropped,
        "games": games, "updates": len(published), "received": len(latencies),
        "latency_p50_ms": statistics.median(latencies) * 1000,
        "latency_p95_ms": _percentile(latencies, 0.95) * 1000,
        "latency_max_ms": max(latencies) * 1000,
        "intent_off_median_ms": statistics.median(off) * 1000,
        "intent_on_median_ms": statistics.median(on) * 1000,
        "intent_ratio": statistics.median(on) / statistics.median(off),
        "rss_before_mib": before, "rss_peak_mib": peak, "rss_delta_mib": peak - before,
    }


def _update(game_id: int, seq: int) -> int:
    """One number per update of the record: its game and line count."""
    return game_id * 1_000_000 + seq


def _lags(published: dict[int, float], seen: dict[int, float]) -> list[float]:
    """For each published update, how long until this phone showed it or a newer one (the
    page shows the whole picture, so a skipped intermediate picture is not a lost one)."""
    receipts = sorted(seen.items())
    lags, index = [], 0
    for seq, sent in sorted(published.items()):
        while index < len(receipts) and receipts[index][0] < seq:
            index += 1
        if index < len(receipts):
            lags.append(max(0.0, receipts[index][1] - sent))
    return lags


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--phones", type=int, default=50, help="followers on loopback (50)")
    parser.add_argument("--games", type=int, default=3,
                        help="seeded games to play, each page off and page on (3)")
    parser.add_argument("--pace", type=float, default=0.02,
                        help="seconds between two actions at the table (0.02)")


def run(args: argparse.Namespace) -> int:
    """``noah-companion bench web``: the figures, as text or JSON."""
    folder = Path(tempfile.mkdtemp(prefix="noah-bench-web-"))
    figures = measure(folder, 1 if args.quick else args.games, args.phones, args.pace)
    figures["machine"] = f"{platform.machine()}, Python {platform.python_version()}"
    figures["aiohttp"] = metadata.version("aiohttp")
    figures["date"] = datetime.date.today().isoformat()
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    f = figures
    print(f"LAN page, {f['machine']}, aiohttp {f['aiohttp']}, {f['date']}:\n"
          f"  {f['phones']} phones ({f['connected']} connected, {f['dropped']} dropped), "
          f"{f['games']} games, {f['updates']} updates, {f['received']} receipts\n"
          f"  update latency: p50 {f['latency_p50_ms']:.1f} ms, p95 {f['latency_p95_ms']:.1f} ms,"
          f" max {f['latency_max_ms']:.1f} ms\n"
          f"  intent to acknowledgement: {f['intent_off_median_ms']:.2f} ms page off, "
          f"{f['intent_on_median_ms']:.2f} ms page on (ratio {f['intent_ratio']:.2f})\n"
          f"  memory: {f['rss_before_mib']:.0f} MiB before, peak {f['rss_peak_mib']:.0f} MiB "
          f"(+{f['rss_delta_mib']:.1f} MiB)")
    return 0
