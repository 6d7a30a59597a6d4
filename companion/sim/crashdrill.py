"""Crash drill: kill a scripted game with SIGKILL at random moments, resume, compare.

A seeded :class:`~companion.sim.autoplay.SimulatedTable` plays one whole game (with its
mishaps, undo and redo) in memory first; that gives the script of intents and the expected
engine state after every line of the record. Then, again and again, a child process (forked
from a :class:`Zygote` that has imported the app once) opens the record (resuming the unfinished
game, as the app does at start), replays the rest of the script and says the record's length
after each acknowledged intent; the parent kills it with SIGKILL after a random number of
acknowledged lines and a random moment of at most 3 ms more (often inside the next write), or
after a random delay during start-up or resume, and checks that

* ``PRAGMA integrity_check`` is ``ok``;
* the record holds every acknowledged line and at most one more (written, but killed before it
  could be acknowledged) — nothing acknowledged is ever lost;
* replaying the record gives exactly the expected state for its length.

Run it: ``python -m companion.sim.crashdrill --kills 50`` (figures in docs/session.md).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.game import Options
from companion.session.session import Session
from companion.session.store import GameStore
from companion.sim.autoplay import SimulatedTable

PLAYERS = ("Ana", "Ben", "Chloé")
HANG_SECONDS = 120  # a child silent this long is stuck: only bounds a hang



@dataclass
class DrillReport:
    """What the drill saw."""

    kills: int = 0
    kills_before_ready: int = 0
    written_not_acknowledged: int = 0
    games_finished: int = 0
    lives: int = 0
    lines_checked: list[int] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        return (
            f"{self.kills} SIGKILLs ({self.kills_before_ready} during start-up or resume) over "
            f"{self.lives} process lives and {self.games_finished} finished games in "
            f"{self.seconds:.1f} s; {self.written_not_acknowledged} kills fell between a line's "
            f"commit and its acknowledgement; every resumed state checked "
            f"({len(self.lines_checked)} checks): {len(self.failures)} failures."
        )


def _normal(value: Any) -> Any:
    """JSON round trip: tuples become lists, keys strings, so states compare as stored."""
    return json.loads(json.dumps(value))


def make_script(path: Path, *, seed: int, workdir: Path) -> dict[str, Any]:
    """Play the game once, uninterrupted, and write its script and expected states."""
    options = Options(hidden=True)
    with GameStore(workdir / "script.sqlite") as store:
        session = Session(store)
        states: dict[int, Any] = {}

        def remember(step) -> None:
            assert session.game is not None, "a step is taken in an open game"
            states[step.seq_after] = _normal(session.game.state())

        table = SimulatedTable(session, PLAYERS, seed=seed, options=options, mishaps=True,
                               on_step=remember)
        table.play()
    steps = [[s.intent, _normal(s.args), s.seq_before] for s in table.steps[1:]]  # 0: new_game
    script = {"players": PLAYERS, "options": options.to_dict(), "steps": steps,
              "states": states, "final": table.steps[-1].seq_after}
    path.write_text(json.dumps(script, ensure_ascii=False), encoding="utf-8")
    return _normal(script)


def run_child(db: Path, script_path: Path, say: Callable[[int], object]) -> int:
    """One life of the game: resume (or start) and carry on with the script; ``say`` gets the
    record's length when it is ready, then after each acknowledged intent."""
    script = json.loads(script_path.read_text(encoding="utf-8"))
    with GameStore(db) as store:
        session = Session(store)
        if store.unfinished():
            session.resume()
        elif not store.games():
            session.new_game(script["players"], Options.from_dict(script["options"]))
        else:
            return 0  # the game is over
        done = session.view.seq
        say(done)
        start = next((i for i, step in enumerate(script["steps"]) if step[2] == done), None)
        for intent, args, _ in script["steps"][start:] if start is not None else ():
            getattr(session, intent)(*_arguments(intent, args))
            say(session.view.seq)
    return 0


class Zygote:
    """A Python that has imported the app and forks each life of the game on request, so that
    a life starts in milliseconds (a fresh Python spent most of the drill importing). Each life
    is still a process of its own that opens the record itself and dies by SIGKILL; the zygote
    is single-threaded, so forking it is safe.

    Its stdout carries short lines (atomic in a pipe): ``pid P`` when a life starts, ``said N``
    for each record length the life acknowledges, ``exit S`` when it ended (S: its exit code,
    negative for a signal).
    """

    COMMAND = (sys.executable, "-c", "from companion.sim.crashdrill import Zygote; Zygote.serve()")

    def __init__(self, hang_seconds: float = HANG_SECONDS,
                 command: Sequence[str] = COMMAND) -> None:
        self.hang_seconds = hang_seconds
        # Unbuffered (bufsize=0): :meth:`next` waits with select() on the pipe itself, so no
        # line may sit read ahead in a Python buffer. Buffered, two lines that came in one
        # read (a loaded machine) left the second unseen by select() until the hang bound.
        self.process = subprocess.Popen(list(command), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, bufsize=0)
        assert self.process.stdin is not None and self.process.stdout is not None, "pipes"
        self._stdin, self._stdout = self.process.stdin, self.process.stdout

    def start(self, db: Path, script_path: Path) -> int:
        """Start a life; returns its pid."""
        self._stdin.write(f"{json.dumps([str(db), str(script_path)])}\n".encode())
        self._stdin.flush()
        kind, value = self.next()
        assert kind == "pid", f"the zygote said {kind} {value}"
        return value

    def next(self) -> tuple[str, int]:
        """The next line: ``("said", N)``, ``("exit", S)``, ``("pid", P)``."""
        if not select.select([self._stdout], [], [], self.hang_seconds)[0]:
            raise TimeoutError(f"the game said nothing for {self.hang_seconds:g} s")
        line = self._stdout.readline().decode()
        if not line:
            raise EOFError("the zygote ended")
        kind, value = line.split()
        return kind, int(value)

    def close(self) -> None:
        self._stdin.close()
        self.process.wait(timeout=self.hang_seconds)
        self._stdout.close()

    @staticmethod
    def serve() -> None:
        """The zygote's loop: one life per line of stdin (``[db, script]``)."""
        for line in sys.stdin:
            db, script_path = json.loads(line)
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    code = run_child(Path(db), Path(script_path),
                                     lambda n: os.write(1, f"said {n}\n".encode()))
                except BaseException:
                    traceback.print_exc()  # the drill reports the status, this says why
                finally:
                    os._exit(code)  # never back into the zygote's loop
            os.write(1, f"pid {pid}\n".encode())
            _, status = os.waitpid(pid, 0)
            os.write(1, f"exit {os.waitstatus_to_exitcode(status)}\n".encode())


def _arguments(intent: str, args: list) -> list:
    if intent == "give_cards":
        return [{int(seat): n for seat, n in args[0].items()}]
    return args


def check_record(db: Path, acknowledged: int, script: dict[str, Any]) -> tuple[int, str | None]:
    """The record's length and the first problem found, if any."""
    with GameStore(db) as store:
        if store.integrity_check() != "ok":
            return -1, f"integrity_check: {store.integrity_check()}"
        games = store.games()
        if not games:
            return 0, None if acknowledged == 0 else "the game vanished"
        lines = store.lines(games[0].id)
        if not acknowledged <= len(lines) <= acknowledged + 1:
            return len(lines), f"{acknowledged} lines acknowledged but {len(lines)} stored"
        resumed = Session(store).resume(games[0].id).state  # as the app does at start
    if lines and _normal(resumed) != script["states"].get(str(len(lines))):
        return len(lines), f"the state after {len(lines)} lines differs from the expected one"
    return len(lines), None


def drill(kills: int = 50, *, seed: int = 1, workdir: Path | None = None,
          hang_seconds: float = HANG_SECONDS) -> DrillReport:
    """Kill the scripted game ``kills`` times at random moments and check every resume
    (``hang_seconds``: how long a silent game is waited for before it counts as stuck)."""
    workdir = Path(workdir or tempfile.mkdtemp(prefix="noah-crash-"))
    script_path = workdir / "script.json"
    script = make_script(script_path, seed=seed, workdir=workdir)
    rng = random.Random(seed)
    report = DrillReport()
    started = time.monotonic()
    db = workdir / "game-0.sqlite"
    stored = 0  # lines the record held after the previous life: what a resume shows
    zygote = Zygote(hang_seconds)
    while report.kills < kills:
        acknowledged, killed, early, status = _one_life(zygote, db, script_path, rng)
        if not killed and status != 0:
            report.failures.append(f"life {report.lives + 1}: the program stopped with status "
                                   f"{status} (see its error above)")
            break
        acknowledged = stored if acknowledged is None else acknowledged
        report.lives += 1
        report.kills += killed
        report.kills_before_ready += early
        stored, problem = check_record(db, acknowledged, script)
        report.lines_checked.append(stored)
        report.written_not_acknowledged += stored == acknowledged + 1
        if problem:
            report.failures.append(f"life {report.lives}: {problem}")
        if not killed and stored == script["final"]:
            report.games_finished += 1
            db = workdir / f"game-{report.games_finished}.sqlite"
            stored = 0
    zygote.close()
    report.seconds = time.monotonic() - started
    return report


def _one_life(
    zygote: Zygote, db: Path, script_path: Path, rng: random.Random
) -> tuple[int | None, int, int, int]:
    """Run a life, kill it at a random moment; returns the last record length it acknowledged
    (None if none), whether it was killed, killed early, and its exit status."""
    pid = zygote.start(db, script_path)
    early = rng.random() < 0.15
    said: list[int] = []
    ended: int | None = None
    if early:  # during start-up or the resume's replay
        time.sleep(rng.uniform(0.0, 0.02))
    else:
        # After its "ready" and a drawn number of acknowledged lines (a count, not a delay: a
        # loaded machine must not change where the kills fall), then a moment more, often
        # inside the next write.
        for _ in range(rng.randint(1, 40)):
            kind, value = zygote.next()
            if kind == "exit":  # the game ended before
                ended = value
                break
            said.append(value)
        time.sleep(rng.uniform(0.0, 0.003))
    if ended is None:
        with contextlib.suppress(ProcessLookupError):  # it may have ended meanwhile
            os.kill(pid, signal.SIGKILL)
    while ended is None:  # what it said before it died, then how it ended
        kind, value = zygote.next()
        if kind == "exit":
            ended = value
        else:
            said.append(value)
    killed = ended == -signal.SIGKILL
    return (said[-1] if said else None), int(killed), int(killed and early), ended


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    report = drill(args.kills, seed=args.seed)
    print(report.summary())
    for failure in report.failures:
        print("  " + failure)
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
