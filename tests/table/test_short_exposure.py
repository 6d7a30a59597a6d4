"""The table camera's short exposure of one ferry (issue 19.3): on the Pi a picamera2 capture
with ExposureTime (a fraction of the automatic exposure's) and the automatic AnalogueGain set,
the camera's own controls set back; off the Pi, or on a USB camera, a clear error. A stand-in
camera takes picamera2's place."""

import numpy as np
import pytest

from vision.config import CameraSettings
from vision.sources import CameraLost, CameraMissing
from vision.table_capture import AutoTableCamera, PiTableCamera, StillTableSource
from vision.table_exposure import ShortExposure, short_exposure_camera


class Request:
    def __init__(self, exposure: int) -> None:
        self.exposure, self.released = exposure, False

    def get_metadata(self):
        return {"ExposureTime": self.exposure}

    def make_array(self, stream):
        assert stream == "main"
        return np.full((6, 4), self.exposure // 100, np.uint8)  # YUV420: 4 rows of Y

    def release(self):
        self.released = True


class FakePicamera:
    """Gives frames at the old exposure until ``lag`` frames after new controls."""

    def __init__(self, lag: int) -> None:
        self.controls: list[dict] = []
        self.exposure, self.lag, self.requests = 9000, lag, []

    def capture_metadata(self, wait=None):
        return {"ExposureTime": 8000, "AnalogueGain": 1.5}  # the automatic exposure's

    def set_controls(self, controls):
        self.controls.append(dict(controls))

    def capture_request(self, wait=None):
        self.lag -= 1
        if self.lag < 0:
            self.exposure = self.controls[-1].get("ExposureTime", self.exposure)
        self.requests.append(Request(self.exposure))
        return self.requests[-1]


def camera_with(fake) -> PiTableCamera:
    camera = PiTableCamera(CameraSettings(focus=1.33))
    camera._camera = fake
    return camera


def test_short_exposure_waits_for_the_exposure_then_sets_the_controls_back():
    fake = FakePicamera(lag=3)
    frame = camera_with(fake).short_exposure(ShortExposure(fraction=0.25))
    assert frame.shape == (4, 4) and int(frame[0, 0]) == 20
    assert fake.controls[0] == {"AeEnable": False, "ExposureTime": 2000, "AnalogueGain": 1.5}
    assert fake.controls[-1]["AeEnable"] is True and fake.controls[-1]["LensPosition"] == 1.33
    assert all(r.released for r in fake.requests)


def test_short_exposure_that_never_comes_is_a_lost_camera():
    fake = FakePicamera(lag=100)
    with pytest.raises(CameraLost):
        camera_with(fake).short_exposure()
    assert fake.controls[-1]["AeEnable"] is True


def test_short_exposure_off_the_pi_says_what_to_do():
    with pytest.raises(CameraMissing, match="not open"):
        PiTableCamera(CameraSettings()).short_exposure()


def test_a_usb_camera_or_a_folder_declines_a_short_exposure(tmp_path):
    import cv2

    from vision.sources import ImageFolder

    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((4, 4), np.uint8))
    assert short_exposure_camera(StillTableSource(ImageFolder(tmp_path))) is None
    auto = AutoTableCamera(CameraSettings())
    assert short_exposure_camera(auto) is auto  # it may open a Pi camera
    with pytest.raises(CameraMissing, match="cannot take a short exposure"):
        auto.short_exposure()  # not open, or a USB camera: no Pi camera to ask
