"""``noah-companion bench app``: launch time, frame rate on the table screen, peak memory.

Each run starts a fresh process (Kivy has one window per process) rendering offscreen at
800×480 in simulator mode: the launch time is measured from the process's start to the first
drawn home screen; the frame rate on the table screen with the live camera view running (the
synthetic camera at 30 frames per second through the real vision pipeline), counted as frames
actually drawn (window flips), since Kivy draws nothing when nothing changed; the peak memory is
the process's maximum resident set size. ``--phones N``: the frame rate while a seeded game is
played, the LAN page off and then serving N phones (issue 22: "the app's frame rate unchanged").
Figures only, never pass or fail.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TARGETS = {"launch_s": 3.0, "fps": 30.0, "peak_mb": 250.0}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="how long to count frames on the table screen (default 5)")
    parser.add_argument("--phones", type=int, default=None, metavar="N",
                        help="count frames while a seeded game is played, twice: the LAN page "
                             "off, then on with N phones following it (issue 22)")


def run(args: argparse.Namespace) -> int:
    seconds = 1.5 if args.quick else args.seconds
    if args.phones is not None:
        return _run_with_phones(seconds, args.phones, args.json)
    launch, figures = _measure(seconds)
    if launch is None or not figures:
        print("bench app: the app did not start (try `noah-companion doctor`).", file=sys.stderr)
        return 1
    figures = {"launch_s": round(launch, 2), **figures}
    if args.json:
        print(json.dumps(figures))
        return 0
    print("Touchscreen app (offscreen, 800×480, simulator mode):")
    print(f"  launch to interactive home screen  {figures['launch_s']:.2f} s   (target ≤ 3 s)")
    print(f"  table screen, camera view live     {figures['fps']:.0f} fps     (target ≥ 30)")
    print(f"  camera frames shown                {figures['camera_fps']:.0f} per second")
    print(f"  peak memory                        {figures['peak_mb']:.0f} MB    (target ≤ 250)")
    return 0


def _run_with_phones(seconds: float, phones: int, as_json: bool) -> int:
    """The frame rate while a game is played, the page off then on (then on, then off: the
    order weighs on neither), each in a fresh app."""
    rounds: dict[str, list[float]] = {"off": [], "on": []}
    for order in (("off", "on"), ("on", "off")):
        for mode in order:
            _launch, figures = _measure(seconds, phones if mode == "on" else 0)
            if not figures:
                print("bench app: the app did not start (try `noah-companion doctor`).",
                      file=sys.stderr)
                return 1
            rounds[mode].append(figures["fps"])
    result = {"phones": phones, "fps_off": rounds["off"], "fps_on": rounds["on"],
              "ratio": round(sum(rounds["on"]) / max(sum(rounds["off"]), 0.1), 2)}
    if as_json:
        print(json.dumps(result))
    else:
        print(f"Table screen while a game is played ({seconds:g} s each, offscreen 800×480):")
        print(f"  LAN page off              {', '.join(f'{f:.0f}' for f in rounds['off'])} fps")
        print(f"  on, {phones} phones following  {', '.join(f'{f:.0f}' for f in rounds['on'])} fps")
        print(f"  ratio on/off              {result['ratio']:.2f}")
    return 0


def _measure(seconds: float, phones: int | None = None) -> tuple[float | None, dict[str, float]]:
    """One app in a child process: its launch time and its figures (empty if it failed)."""
    started = time.monotonic()
    command = [sys.executable, "-m", "companion.ui.bench", "--child", str(seconds)]
    if phones is not None:
        command.append(str(phones))
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True)
    assert child.stdout is not None
    launch = None
    figures: dict[str, float] = {}
    for line in child.stdout:
        if line.startswith("READY") and launch is None:
            launch = time.monotonic() - started
        elif line.startswith("{"):
            figures = json.loads(line)
    child.wait(timeout=300)
    return launch, figures


def _child(seconds: float, phones: int | None = None) -> None:
    """In the measuring process: start, report READY, reach the table, count frames (with
    ``phones``: while a seeded game is played on another thread, the LAN page on when
    ``phones`` > 0)."""
    from companion.ui.driver import HeadlessApp

    work = Path(tempfile.mkdtemp(prefix="noah-bench-app-"))
    driver = HeadlessApp(work, simulate=True, quick_camera=True, paced=True)  # as on the Pi
    driver.start()
    driver.pump_until(lambda: driver.app.root.sm.current == "home" and driver.app.view)
    print("READY", flush=True)
    _reach_table(driver)
    stop_playing = _play_while_counting(driver.app, phones) if phones is not None else None
    screen = driver.app.root.sm.current_screen
    camera = next(w for w in screen.walk() if type(w).__name__ == "CameraView")
    from kivy.core.window import Window

    drawn = [0]  # frames actually drawn: Kivy skips a frame when nothing changed on screen
    Window.bind(on_flip=lambda *_args: drawn.__setitem__(0, drawn[0] + 1))
    uploads, began = camera.uploads, time.monotonic()
    while time.monotonic() - began < seconds:
        driver.pump(draw=True)
    elapsed = time.monotonic() - began
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"fps": round(drawn[0] / elapsed, 1),
                      "camera_fps": round((camera.uploads - uploads) / elapsed, 1),
                      "peak_mb": round(peak_kb / 1024, 1)}), flush=True)
    if stop_playing is not None:
        stop_playing()
    driver.stop()


def _play_while_counting(app: Any, phones: int) -> Callable[[], None]:
    """Seeded games played on the session from another thread, as people at a table (an
    intent every 0.2 s), with the LAN page serving ``phones`` followers when > 0; returns
    what stops it all."""
    from companion.web.bench import TOKEN, Phones, play
    from companion.web.server import WebServer
    from companion.web.settings import WebSettings

    server = followers = None
    if phones:
        server = WebServer(app.session.store.path, app.session.deck, token=TOKEN,
                           follow_record=False,
                           settings=WebSettings(enabled=True, port=0, host="127.0.0.1",
                                                mdns=False, max_clients=phones + 1))
        server.start(announce=False)
        app.session.subscribe(server.publish_view)
        followers = Phones(server.port, phones)
        followers.start()
    done = threading.Event()

    def games() -> None:
        with contextlib.suppress(Exception):  # the app closing under the game ends it
            for seed in itertools.count():
                if done.is_set():
                    return
                play(app.session, 1, [], 0.2, seed=seed)

    threading.Thread(target=games, daemon=True).start()

    def stop() -> None:
        done.set()
        if followers is not None and server is not None:
            followers.stop()
            server.stop()

    return stop


def _reach_table(driver) -> None:
    """A new 3-player game set up by touch: the table screen with a turn awaited."""
    app = driver.app
    session = app.session
    app.start_game(["Ana", "Ben", "Chloé"], ["red", "blue", "green"], {}, score_only=False)
    session.choose_noah_start(0)
    for ref in ("cat:F#1", "lion:M#1", "panda:F#1", "bear:M#1", "kangaroo:F#1"):
        session.choose_card(ref)
    session.choose_starter(0)
    driver.pump_until(lambda: app.root.sm.current == "table")


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    _child(float(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else None)
