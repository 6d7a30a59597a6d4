"""Fixtures of the Kivy tests.

``ui_driver`` (alias ``driver``): the touchscreen app, headless (SDL offscreen + Mesa). Kivy has
one window per process, so every Kivy test module shares this one app (session scope; under
``pytest -n 2`` each worker builds its own); a test that uses it is skipped where Mesa's EGL is
missing. A watchdog, re-armed for every test, ends the process with a traceback if one test
hangs, so a stuck UI can never stall CI (per test, not per session: a loaded machine may take
longer than the watchdog for the whole session without anything hanging).
"""

from __future__ import annotations

import ctypes.util
import faulthandler
import os
from collections.abc import Callable

import pytest

WATCHDOG_SECONDS = 300  # on an idle machine; see watchdog_seconds()


def watchdog_seconds() -> float:
    """The hang bound, stretched by how busy the machine is: at a load average of 20 on two
    cores a test runs about ten times slower, and the whole-game test once outran a fixed
    300 s and died "crashed" (issue 20.2). Still a bound on a hang, never on speed."""
    from companion.ui.driver import slowness  # an emulated root says how much slower it is

    busy = os.getloadavg()[0] / (os.cpu_count() or 1)
    return WATCHDOG_SECONDS * max(1.0, busy) * slowness()


@pytest.fixture(scope="session")
def ui_driver(tmp_path_factory, crash_log):
    if ctypes.util.find_library("EGL") is None:
        pytest.skip("no Mesa EGL (apt install libegl1 libgl1) for offscreen Kivy")
    from companion.ui.driver import HeadlessApp

    app = HeadlessApp(tmp_path_factory.mktemp("ui"), simulate=True, quick_camera=True)
    faulthandler.dump_traceback_later(watchdog_seconds(), exit=True, file=crash_log)
    app.start()
    faulthandler.cancel_dump_traceback_later()
    # The live view's texture uploads are slow in software GL (Mesa llvmpipe): only the test
    # of the view itself turns it on.
    app.app.camera_tap = None
    try:
        yield app
    finally:
        app.stop()


@pytest.fixture
def driver(ui_driver, crash_log):
    """The shared app, under the name the UI tests use. (The watchdog's dump goes to the
    worker's crash log: the test's captured output dies with the process.)"""
    faulthandler.dump_traceback_later(watchdog_seconds(), exit=True, file=crash_log)
    yield ui_driver
    faulthandler.cancel_dump_traceback_later()


class ManualTime:
    """Kivy's clock time: the real time (plus how far tests moved it), or standing still while
    a test holds it (``freeze``, ``advance``, ``thaw``). It never goes back: Kivy sleeps until
    its next frame is due, so a clock behind its last frame would stall every frame."""

    def __init__(self, real: Callable[[], float]) -> None:
        self.real, self.offset = real, 0.0
        self.frozen_at: float | None = None

    def __call__(self) -> float:
        return self.frozen_at if self.frozen_at is not None else self.real() + self.offset

    def freeze(self) -> None:
        self.frozen_at = self()

    def advance(self, seconds: float) -> None:
        assert self.frozen_at is not None, "freeze first"
        self.frozen_at += seconds

    def thaw(self) -> None:
        if self.frozen_at is not None:
            self.offset = self.frozen_at - self.real()
            self.frozen_at = None


@pytest.fixture
def clock(ui_driver):
    """Kivy's clock stands still unless the test moves it (``clock.advance(seconds)`` then a
    pump): what is scheduled for later (a banner's end) happens when the test says, however
    slow the machine. Afterwards it runs on from there."""
    from kivy.clock import Clock

    if not isinstance(Clock.time, ManualTime):
        Clock.time = ManualTime(Clock.time)
    # A clock that stands still must not pace frames: Kivy reads `maxfps` once, when its clock
    # is made, and a process whose clock was made before the tests' environment set it to 0
    # would wait for ever for the next frame's time (a worker hung in `Clock.idle`).
    paced, Clock._max_fps = Clock._max_fps, 0.0
    Clock.time.freeze()
    yield Clock.time
    Clock.time.thaw()
    Clock._max_fps = paced
