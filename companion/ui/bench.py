"""``noah-companion bench app``: launch time, frame rate on the table screen, peak memory.

Each run starts a fresh process (Kivy has one window per process) rendering offscreen at
800×480 in simulator mode: the launch time is measured from the process's start to the first
drawn home screen; the frame rate on the table screen with the live camera view running (the
synthetic camera at 30 frames per second through the real vision pipeline), counted as frames
actually drawn (window flips), since Kivy draws nothing when nothing changed; the peak memory is
the process's maximum resident set size. Figures only, never pass or fail.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGETS = {"launch_s": 3.0, "fps": 30.0, "peak_mb": 250.0}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="how long to count frames on the table screen (default 5)")


def run(args: argparse.Namespace) -> int:
    seconds = 1.5 if args.quick else args.seconds
    started = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-m", "companion.ui.bench", "--child", str(seconds)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert child.stdout is not None
    launch = None
    figures: dict[str, float] = {}
    for line in child.stdout:
        if line.startswith("READY") and launch is None:
            launch = time.monotonic() - started
        elif line.startswith("{"):
            figures = json.loads(line)
    child.wait(timeout=120)
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


def _child(seconds: float) -> None:
    """In the measuring process: start, report READY, reach the table, count frames."""
    from companion.ui.driver import HeadlessApp

    work = Path(tempfile.mkdtemp(prefix="noah-bench-app-"))
    driver = HeadlessApp(work, simulate=True, quick_camera=True, paced=True)  # as on the Pi
    driver.start()
    driver.pump_until(lambda: driver.app.root.sm.current == "home" and driver.app.view)
    print("READY", flush=True)
    _reach_table(driver)
    screen = driver.app.root.sm.current_screen
    camera = next(w for w in screen.walk() if type(w).__name__ == "CameraView")
    from kivy.core.window import Window

    drawn = [0]  # frames actually drawn: Kivy skips a frame when nothing changed on screen
    Window.bind(on_flip=lambda *_args: drawn.__setitem__(0, drawn[0] + 1))
    uploads, began = camera.uploads, time.monotonic()
    while time.monotonic() - began < seconds:
        driver.pump()
    elapsed = time.monotonic() - began
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"fps": round(drawn[0] / elapsed, 1),
                      "camera_fps": round((camera.uploads - uploads) / elapsed, 1),
                      "peak_mb": round(peak_kb / 1024, 1)}), flush=True)
    driver.stop()


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
    _child(float(sys.argv[2]))
