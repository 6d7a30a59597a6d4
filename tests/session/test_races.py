"""Races between threads (issue 12, part 5), forced in a fixed order with events and fakes:
the BG Stats link read while another thread closes the game, and the vision pipeline's hang
watcher closing a camera late, after it was reopened.

Waits are bounded by generous timeouts and never asserted on."""

from __future__ import annotations

import threading
import time

import numpy as np

from companion.session import GameStore, Session
from companion.sim.autoplay import SimulatedTable
from tests.clocks import StillClock
from vision.events import CameraState
from vision.pipeline import Pipeline
from vision.sources import CameraLost

WAIT = 20.0  # seconds: only ever reached when something is broken


def test_the_bgstats_link_is_read_under_the_session_lock(tmp_path):
    """close_game on another thread once cleared the game between bgstats_url's check and its
    use (an AttributeError). Here the other thread tries exactly at that moment: it must find
    the session busy instead of clearing the game under the reader."""
    with GameStore(tmp_path / "games.sqlite") as store:
        session = Session(store)
        SimulatedTable(session, ["Ana", "Ben", "Chloé"], seed=3).play()
        game = session._game
        closed_meanwhile: list[bool] = []

        class GameClosedWhileRead:
            """The finished game; the first time it is read (any property), another thread
            closes the game if the session lets it, and this thread waits until it is done."""

            def __getattr__(self, name):
                if not closed_meanwhile:
                    def close_if_free() -> None:
                        free = session._lock.acquire(blocking=False)
                        if free:
                            session._lock.release()
                            session.close_game()
                        closed_meanwhile.append(free)

                    other = threading.Thread(target=close_if_free)
                    other.start()
                    other.join(WAIT)
                return getattr(game, name)

        session._game = GameClosedWhileRead()
        url = session.bgstats_url()
        assert closed_meanwhile == [False]  # the other thread had to wait for the reader
        assert url.startswith("bgstats://")


class LateClosingCamera:
    """A camera whose first grab hangs, and whose close of that hung camera acts late: it waits
    (a bounded while) for the camera to be reopened, then closes whichever camera is open by
    then, as a close scheduled late on a busy machine did."""

    name = "late-closing camera"
    LATE = 0.5  # seconds the close of the hung camera waits for a reopening, at most

    def __init__(self) -> None:
        self.handle = 0  # which opening of the camera is current (1: the hung one)
        self.closed: list[int] = []
        self.reopened = threading.Event()
        self.hung = threading.Event()  # the first grab has started hanging
        self.release_hung = threading.Event()
        self.reading_after_close = threading.Event()
        self._reads_after_close = 0

    def open(self) -> None:
        self.handle += 1
        if self.handle == 2:
            self.reopened.set()

    def read(self) -> np.ndarray:
        handle = self.handle
        if handle == 1:  # the hung grab: it returns only at the end of the test
            self.hung.set()
            self.release_hung.wait(WAIT)
            raise CameraLost("The hung grab gave up.", "")
        time.sleep(0.005)
        if handle in self.closed:
            raise CameraLost("The camera was closed under its reader.", "")
        if self.closed:
            self._reads_after_close += 1
            if self._reads_after_close >= 3:
                self.reading_after_close.set()
        return np.zeros((48, 64, 3), np.uint8)

    def close(self) -> None:
        if self.handle == 1 and not self.closed:
            self.reopened.wait(self.LATE)
        self.closed.append(self.handle)


class NoCodes:
    name = "none"

    def decode(self, frame):
        return []


def test_the_hang_watcher_never_closes_the_reopened_camera():
    """A hung grab is abandoned and the camera reopened; the hung camera's close, however late,
    must close that camera and not the fresh one (once: a spurious second "camera lost")."""
    camera = LateClosingCamera()
    clock = StillClock()
    # grab_timeout: a hang is noticed after 1 s of the fake clock, which moves only once the
    # grab hangs: no real wait, and a grab merely slow on a loaded machine is never "hung".
    pipeline = Pipeline(camera, decoder=NoCodes(), grab_timeout=1.0, retry=(0.05, 0.2),
                        clock=clock)
    with pipeline:
        assert camera.hung.wait(WAIT), "the first grab never started"
        clock.now += 1.5  # past the hung grab's deadline (1 s), short of a reopening's (3 s)
        assert camera.reading_after_close.wait(WAIT), "the reopened camera never gave frames"
    camera.release_hung.set()
    states = []
    while not pipeline.events.empty():
        event = pipeline.events.get()
        if type(event).__name__ == "CameraStatus":
            states.append(event.state)
    assert camera.closed[0] == 1  # the hung camera, not the reopened one (2)
    assert states == [CameraState.LOST, CameraState.OK]  # one loss, one recovery
