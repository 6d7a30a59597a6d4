"""The threaded pipeline: events from a virtual camera, the newest frame only, and camera faults
(missing at start, unplugged mid-game, a hanging grab) from a fake camera that fails on purpose.

Waits are bounded by generous timeouts, never asserted on: speed lives in `bench vision`.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from tests.clocks import StillClock
from vision.events import (
    CameraState,
    CameraStatus,
    CardRemoved,
    CardShown,
    CodesSeen,
    Detection,
    ForeignCode,
)
from vision.pipeline import Pipeline
from vision.sources import CameraLost, CameraMissing
from vision.synthetic import Scene, SyntheticSource, render_frame
from vision.tracker import TrackerSettings

CAT, LION = "NOAH1/BOX1/CAF2", "NOAH1/BOX1/LIM1"
WAIT = 20.0  # seconds: only ever reached when something is broken
FAST_RETRY = (0.05, 0.2)


def ours(text: str) -> bool:
    return text.startswith("NOAH")


class FakeCamera:
    """A camera that follows a script: open fails while ``missing``; each read either gives a
    frame, raises (``unplug()``) or blocks (``hang()``) until ``release()``."""

    name = "fake camera"

    def __init__(self, missing: bool = False) -> None:
        self.missing = missing
        self.unplugged = False
        self.opened = 0
        self._hang = threading.Event()
        self.hanging = threading.Event()  # a read has started to hang
        self._released = threading.Event()
        self.frame = np.full((120, 160, 3), 90, np.uint8)

    def open(self) -> None:
        if self.missing:
            raise CameraMissing("No camera found.", "Connect one.")
        self.opened += 1

    def read(self) -> np.ndarray:
        time.sleep(0.005)
        if self._hang.is_set():
            self._hang.clear()
            self.hanging.set()
            self._released.wait(WAIT)
        if self.unplugged:
            raise CameraLost("The camera stopped sending pictures.", "Check its cable.")
        return self.frame

    def close(self) -> None:
        pass

    def hang(self) -> None:
        self._hang.set()

    def release(self) -> None:
        self._released.set()


class TextDecoder:
    """A decoder that 'reads' whatever the test says is in view, after ``delay`` seconds."""

    name = "fake"

    def __init__(self, delay: float = 0.0) -> None:
        self.texts: list[str] = []
        self.delay = delay

    def decode(self, frame) -> list[Detection]:
        time.sleep(self.delay)
        return [Detection(t, ((0, 0), (9, 0), (9, 9), (0, 9))) for t in self.texts]


def statuses(pipeline: Pipeline, *states: CameraState) -> list[CameraStatus]:
    """Wait for these camera states, in this order (other events are skipped)."""
    found = []
    for state in states:
        while True:
            event = pipeline.next_event(CameraStatus, timeout=WAIT)
            assert event is not None, f"no {state} status; got {found}"
            if event.state is state:
                found.append(event)
                break
    return found


def test_a_card_on_the_virtual_table_is_one_event_then_removed():
    camera = SyntheticSource(Scene(width=640, height=360, camera_height_mm=250), fps=30)
    with Pipeline(camera, is_ours=ours) as pipeline:
        camera.present(CAT)
        shown = pipeline.next_event(CardShown, timeout=WAIT)
        camera.clear()
        removed = pipeline.next_event(CardRemoved, timeout=WAIT)
    assert (shown.text, shown.in_view) == (CAT, (CAT,))
    assert shown.latency >= 0 and shown.captured_at <= removed.captured_at
    assert removed.text == CAT


def test_two_cards_and_a_foreign_code_on_the_virtual_table():
    camera = SyntheticSource(Scene(width=960, height=540, camera_height_mm=250), fps=30)
    with Pipeline(camera, is_ours=ours) as pipeline:
        camera.present(CAT, "https://example.com", LION)
        foreign = pipeline.next_event(ForeignCode, timeout=WAIT)
    shown = [e for e in _drain(pipeline) if type(e).__name__ == "CardShown"]
    assert foreign.text == "https://example.com"
    assert shown and set(shown[-1].in_view) == {CAT, LION}


def test_the_decoder_always_gets_the_newest_frame_and_drops_are_counted():
    camera = FakeCamera()
    decoder = TextDecoder(delay=0.05)  # ten times slower than the camera
    with Pipeline(camera, decoder=decoder) as pipeline:
        # four frames decoded (it slept 0.5 s, about nine): a condition, not a deadline
        deadline = time.monotonic() + WAIT
        while (stats := pipeline.stats()).decoded < 4:
            assert time.monotonic() < deadline, "the decoder never got four frames"
            time.sleep(0.01)
    assert stats.dropped > 0
    assert stats.captured >= stats.decoded + stats.dropped - 1


def test_events_go_to_the_callback_and_a_failing_callback_does_not_stop_the_pipeline():
    camera, decoder = FakeCamera(), TextDecoder()
    seen: list = []

    def on_event(event) -> None:
        seen.append(event)
        raise RuntimeError("a bug in the user's callback")

    decoder.texts = [CAT]
    pipeline = Pipeline(camera, decoder=decoder, on_event=on_event).start()
    try:
        deadline = time.monotonic() + WAIT
        while not any(type(e).__name__ == "CardShown" for e in seen):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        decoder.texts = []
        while not any(type(e).__name__ == "CardRemoved" for e in seen):
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        pipeline.stop()


def test_no_camera_at_start_is_reported_then_found_when_plugged_in():
    camera, decoder = FakeCamera(missing=True), TextDecoder()
    with Pipeline(camera, decoder=decoder, retry=FAST_RETRY) as pipeline:
        (missing,) = statuses(pipeline, CameraState.NO_CAMERA)
        camera.missing = False
        statuses(pipeline, CameraState.OK)
        decoder.texts = [CAT]
        assert pipeline.next_event(CardShown, timeout=WAIT).text == CAT
    assert "No camera found." in missing.message and missing.retry_in == FAST_RETRY[0]
    assert not missing.ok


def test_a_camera_unplugged_mid_game_is_lost_then_reconnected():
    camera = FakeCamera()
    with Pipeline(camera, decoder=TextDecoder(), retry=FAST_RETRY) as pipeline:
        statuses(pipeline, CameraState.OK)
        camera.unplugged = True
        lost, reconnecting = statuses(pipeline, CameraState.LOST, CameraState.RECONNECTING)
        camera.unplugged = False
        statuses(pipeline, CameraState.OK)
    assert "stopped sending pictures" in lost.message
    assert reconnecting.retry_in > lost.retry_in  # the pauses grow
    assert camera.opened >= 2


def test_a_hanging_grab_is_abandoned_and_the_camera_reopened():
    """The grab's deadline is on a fake clock, moved once the grab hangs: no real wait for the
    timeout, and a read merely slow on a loaded machine is never taken for a hang."""
    camera, clock = FakeCamera(), StillClock()
    pipeline = Pipeline(camera, decoder=TextDecoder(), grab_timeout=0.3, retry=FAST_RETRY,
                        clock=clock)
    with pipeline:
        statuses(pipeline, CameraState.OK)
        camera.hang()
        assert camera.hanging.wait(WAIT), "the read never hung"
        clock.now += 1.0  # past the hung grab's deadline (0.3 s), short of an opening's (0.9 s)
        (lost,) = statuses(pipeline, CameraState.LOST)
        (back,) = statuses(pipeline, CameraState.OK)
        assert pipeline._decode_thread.is_alive()
        camera.release()  # the abandoned grab returns; its thread must quietly end
    assert "stopped answering" in lost.message
    assert back.at > lost.at


def test_a_finite_source_finishes_with_its_cards_removed():
    class Decoder(TextDecoder):
        def __init__(self) -> None:
            super().__init__()
            self.decoded = threading.Semaphore(0)

        def decode(self, frame) -> list[Detection]:
            try:
                return super().decode(frame)
            finally:
                self.decoded.release()

    class Frames(FakeCamera):
        """Each frame given once the one before is decoded: on a loaded machine the decode
        thread would drop frames a fast reader gives, and the card be seen in one frame only."""

        def __init__(self, count: int, decoder: Decoder) -> None:
            super().__init__()
            self.left, self.given, self.decoder = count, 0, decoder

        def read(self):
            if self.given:
                assert self.decoder.decoded.acquire(timeout=WAIT)
            self.left -= 1
            self.given += 1
            return super().read() if self.left >= 0 else None

    decoder = Decoder()
    decoder.texts = [CAT]
    with Pipeline(Frames(5, decoder), decoder=decoder) as pipeline:
        assert pipeline.finished.wait(WAIT)
    kinds = [type(e).__name__ for e in _drain(pipeline)]
    assert kinds.count("CardShown") == 1 and kinds.count("CardRemoved") == 1
    assert pipeline.status.state is CameraState.STOPPED


def test_the_scan_zone_is_decoded_alone_with_corners_in_frame_pixels():
    camera = SyntheticSource(Scene(width=640, height=360, camera_height_mm=250), fps=0)
    camera.open()
    camera.present(CAT)
    frame = camera.read()
    right_half = Pipeline(camera, roi=(0.5, 0.0, 0.5, 1.0))
    whole = Pipeline(camera)
    (detection,) = whole.decode(frame)
    assert right_half.decode(frame) == []  # it holds only half of the sticker
    left_half = Pipeline(camera, roi=(0.25, 0.0, 0.5, 1.0))
    (zoned,) = left_half.decode(frame)
    assert zoned.text == CAT
    assert np.allclose(zoned.corners, detection.corners, atol=1.5)


def test_raw_reporting_gives_every_code_found():
    camera, decoder = FakeCamera(), TextDecoder()
    decoder.texts = [CAT, "https://example.com"]
    settings = TrackerSettings(confirm_frames=1000, confirm_seconds=1000)  # never confirmed
    with Pipeline(camera, decoder=decoder, raw=True, tracker=settings) as pipeline:
        seen = pipeline.next_event(CodesSeen, timeout=WAIT)
    assert seen.texts == (CAT, "https://example.com")


@pytest.mark.parametrize("name", ["zxing", "zbar"])
def test_both_decoders_read_a_rendered_table_frame(name):
    from vision.decoders import make_decoder

    scene = Scene(width=1280, height=720, blur=0.6, rotation_deg=12, seed=3)
    camera = SyntheticSource(scene, fps=0)
    camera.open()
    camera.present(CAT, LION)
    texts = sorted(d.text for d in make_decoder(name).decode(camera.read()))
    assert texts == [CAT, LION]
    camera.clear()
    assert make_decoder(name).decode(camera.read()) == []


def _drain(pipeline: Pipeline) -> list:
    events = []
    while not pipeline.events.empty():
        events.append(pipeline.events.get())
    return events


@pytest.mark.parametrize(
    "difficulty", [dict(glare=0.8, seed=1, rotation_deg=13), dict(tilt_deg=55, seed=4,
                                                                  rotation_deg=52)],
)
def test_the_second_look_reads_a_sticker_zxing_alone_cannot(difficulty):
    from vision.decoders import RescueDecoder, make_decoder

    frame = render_frame([CAT], Scene(width=1280, height=720, **difficulty))
    assert make_decoder("zxing").decode(frame) == []
    (found,) = RescueDecoder().decode(frame)
    assert found.text == CAT
    assert 400 < found.center[0] < 880  # corners back in frame pixels: near the middle


def test_the_second_look_finds_nothing_on_an_empty_table():
    from vision.decoders import RescueDecoder

    assert RescueDecoder().decode(render_frame([], Scene(glare=0.8, light=0.4))) == []


def test_auto_camera_counts_only_usb_capture_nodes_not_a_pis_codec_devices(tmp_path):
    """On a Pi, /dev/video10+ are the codec and ISP: 'auto' must not take them for a webcam."""
    from vision.sources import UsbCamera

    def node(number: int, driver: str, index: int) -> None:
        drivers = tmp_path / "drivers" / driver
        drivers.mkdir(parents=True, exist_ok=True)
        device = tmp_path / "devices" / f"video{number}"
        device.mkdir(parents=True)
        (device / "driver").symlink_to(drivers)
        folder = tmp_path / "class" / f"video{number}"
        folder.mkdir(parents=True)
        (folder / "device").symlink_to(device)
        (folder / "index").write_text(f"{index}\n")

    node(10, "bcm2835-codec", 0)
    node(13, "bcm2835-isp", 0)
    assert UsbCamera.indexes(str(tmp_path / "class")) == []
    node(0, "uvcvideo", 0)
    node(1, "uvcvideo", 1)  # the webcam's metadata node
    assert UsbCamera.indexes(str(tmp_path / "class")) == [0]
