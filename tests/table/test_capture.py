"""The overhead camera's capture (issue 14 point 3): picamera2 with two streams of one camera,
the camera's faults reported and the camera reopened, a clear sentence off the Pi."""

from __future__ import annotations

import sys
import threading
import time
import types
from collections.abc import Callable
from typing import ClassVar

import numpy as np
import pytest

from vision.config import CameraSettings
from vision.events import CameraState
from vision.sources import CameraLost, CameraMissing
from vision.table_capture import (
    GRAB_TIMEOUT,
    PiTableCamera,
    TableCapture,
    TableFrame,
    open_table_source,
)


class FakePicamera2:
    """What PiTableCamera asks of picamera2's Picamera2, recorded."""

    made: ClassVar[list[FakePicamera2]] = []

    def __init__(self, index: int) -> None:
        self.index, self.config, self.controls = index, None, None
        self.sensor_resolution = (64, 36)
        self.closed = self.fail = False
        self.waits: list[object] = []
        FakePicamera2.made.append(self)

    def create_still_configuration(self, **streams):
        return streams

    def configure(self, config) -> None:
        self.config = config

    def set_controls(self, controls) -> None:
        self.controls = controls

    def start(self) -> None:
        pass

    def capture_arrays(self, names, wait=None):
        self.waits.append(wait)
        if self.fail:
            raise TimeoutError("no frame within the timeout")
        arrays = []
        for name in names:
            width, height = self.config[name]["size"]
            yuv = np.zeros((height * 3 // 2, width), np.uint8)
            yuv[:height] = 200  # the Y plane; U and V below it stay 0
            arrays.append(yuv)
        return arrays, {}

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    FakePicamera2.made = []
    return FakePicamera2


def test_the_pi_camera_gives_the_full_frame_and_the_small_one_as_grayscale(picamera2):
    camera = PiTableCamera(CameraSettings(fps=10, focus=1.33), index=1, small=(16, 10))
    camera.open()
    frame = camera.read()
    made = picamera2.made[0]
    assert made.index == 1
    assert made.config["main"] == {"size": (64, 36), "format": "YUV420"}  # the sensor's size
    assert made.config["lores"] == {"size": (16, 10), "format": "YUV420"}
    assert made.controls == {"FrameRate": 10, "AfMode": 0, "LensPosition": 1.33}
    assert frame.full.shape == (36, 64) and frame.small.shape == (10, 16)
    assert int(frame.full.min()) == 200  # the Y plane only, not the chroma rows
    assert made.waits == [GRAB_TIMEOUT]  # a grab never hangs for ever
    camera.close()
    assert made.closed


def test_a_pi_camera_that_stops_answering_is_lost(picamera2):
    camera = PiTableCamera(CameraSettings())
    camera.open()
    picamera2.made[0].fail = True
    with pytest.raises(CameraLost, match="stopped sending pictures"):
        camera.read()


def test_off_the_pi_the_pi_camera_says_what_to_do(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import picamera2 fails, as off the Pi
    with pytest.raises(CameraMissing) as missing:
        open_table_source("picamera2").open()
    assert "picamera2 is not installed" in missing.value.what
    assert "sudo apt install python3-picamera2" in missing.value.fix


def wait_for(condition: Callable[[], bool], bound: float = 30.0) -> None:
    """Until ``condition()`` (the bound only ends a hang: it is not what is tested)."""
    end = time.monotonic() + bound
    while not condition() and time.monotonic() < end:
        time.sleep(0.005)


class Flaky:
    """A camera missing at first, then giving frames, then lost."""

    name = "flaky camera"

    def __init__(self) -> None:
        self.opened = self.reads = 0
        self.closed = threading.Event()

    def open(self) -> None:
        self.opened += 1
        if self.opened == 1:
            raise CameraMissing("No camera answers.", "Plug it in.")

    def read(self) -> TableFrame:
        self.reads += 1
        if self.reads == 3:
            raise CameraLost("The camera stopped.", "Check its cable.")
        blank = np.zeros((4, 4), np.uint8)
        return TableFrame(blank, blank, f"frame {self.reads}", 0.0)

    def close(self) -> None:
        self.closed.set()


def test_the_capture_reports_each_change_and_reopens_the_camera():
    statuses, frames = [], []
    source = Flaky()
    capture = TableCapture(source, lambda f: frames.append(f.name), retry=(0.01, 0.02),
                           on_status=statuses.append)
    capture.start()
    wait_for(lambda: len(frames) >= 3)
    capture.stop()
    assert [s.state for s in statuses[:4]] == [CameraState.NO_CAMERA, CameraState.OK,
                                                CameraState.LOST, CameraState.OK]
    assert statuses[0].message == "No camera answers. Trying again in 0.01 s."
    assert frames[:3] == ["frame 1", "frame 2", "frame 4"]
    assert source.opened >= 3 and source.closed.is_set() and not capture.running


def test_a_failing_frame_handler_does_not_stop_the_camera():
    source, seen = Flaky(), []

    def handler(frame: TableFrame) -> None:
        seen.append(frame.name)
        raise RuntimeError("a bug in the referee")

    capture = TableCapture(source, handler, retry=(0.01, 0.02))
    capture.start()
    wait_for(lambda: len(seen) >= 2)
    capture.stop()
    assert seen[:2] == ["frame 1", "frame 2"]


class Hanging:
    """A USB camera whose grab blocks for ever once ``hang`` is set (until ``release``)."""

    name = "hanging camera"

    def __init__(self) -> None:
        self.opened = 0
        self.hang, self.hung, self.release = threading.Event(), threading.Event(), threading.Event()

    def open(self) -> None:
        self.opened += 1

    def read(self) -> TableFrame:
        if self.hang.is_set() and self.opened == 1:
            self.hung.set()
            self.release.wait(30)  # bounds a broken test only
        blank = np.zeros((4, 4), np.uint8)
        time.sleep(0.002)
        return TableFrame(blank, blank, f"opened {self.opened}", 0.0)

    def close(self) -> None:
        pass


def test_a_grab_that_hangs_is_abandoned_by_the_watchdog_and_the_camera_reopened():
    """The table camera's loop is the hand camera's (vision.capture): a USB grab that blocks
    for ever is abandoned once past its deadline (a fake clock: no timing here)."""
    now = [0.0]
    changed = threading.Condition()
    statuses: list = []

    def on_status(status) -> None:
        with changed:
            statuses.append(status)
            changed.notify_all()

    frames: list[str] = []
    source = Hanging()
    capture = TableCapture(source, lambda f: frames.append(f.name), on_status=on_status,
                           retry=(0.01, 0.02), grab_timeout=5.0, clock=lambda: now[0])
    capture.start()
    with changed:
        assert changed.wait_for(lambda: statuses, 30)
    source.hang.set()
    assert source.hung.wait(30)
    assert not capture.check()  # within its deadline: the grab may still come
    now[0] += 6.0
    capture.check()  # the watchdog's look (its own thread may have made it first)
    with changed:
        assert changed.wait_for(lambda: len(statuses) >= 3, 30)
    assert [s.state for s in statuses[:3]] == [CameraState.OK, CameraState.LOST,
                                                CameraState.OK]
    assert "stopped answering" in statuses[1].message
    wait_for(lambda: "opened 2" in frames)
    source.release.set()  # the abandoned grab returns: its thread ends quietly
    capture.stop()
    assert "opened 2" in frames and source.opened == 2
