"""The [camera] and [decoder] sections and the choice of source: errors name the key."""

from __future__ import annotations

import pytest

from vision.config import CameraSettings, camera_settings, decoder_settings
from vision.errors import VisionError
from vision.sources import AutoCamera, ImageFolder, UsbCamera, VideoFile, make_source
from vision.synthetic import SyntheticSource


def test_defaults():
    assert camera_settings({}) == CameraSettings()
    settings = decoder_settings({})
    assert settings.name == "zxing"
    assert (settings.tracker.confirm_frames, settings.tracker.gone_seconds) == (2, 0.3)


def test_every_camera_key():
    settings = camera_settings({
        "source": "usb:1", "resolution": "640×480", "fps": "30", "roi": "0.1, 0.2, 0.8, 0.6",
        "exposure": "8", "focus": "2.5",
    })
    assert settings == CameraSettings("usb:1", 640, 480, 30.0, (0.1, 0.2, 0.8, 0.6), 8.0, 2.5)


@pytest.mark.parametrize(
    ("values", "key"),
    [
        ({"resolution": "big"}, "resolution"),
        ({"resolution": "20x10"}, "resolution"),
        ({"fps": "0"}, "fps"),
        ({"roi": "0.5, 0.5, 0.8, 0.8"}, "roi"),
        ({"roi": "left"}, "roi"),
        ({"exposure": "short"}, "exposure"),
        ({"focus": "-1"}, "focus"),
        ({"focus": "2000"}, "focus"),
        ({"fsp": "15"}, "fsp"),
    ],
)
def test_bad_camera_values_name_their_key(values, key):
    with pytest.raises(VisionError) as caught:
        camera_settings(values)
    assert caught.value.key == key
    assert key in caught.value.what and caught.value.fix


def test_unknown_key_suggests_the_close_one():
    with pytest.raises(VisionError, match="did you mean 'fps'"):
        camera_settings({"fsp": "15"})


@pytest.mark.parametrize(
    ("values", "key"),
    [({"name": "opencv"}, "name"), ({"confirm_frames": "1.5"}, "confirm_frames"),
     ({"gone_ms": "-3"}, "gone_ms")],
)
def test_bad_decoder_values_name_their_key(values, key):
    with pytest.raises(VisionError) as caught:
        decoder_settings(values)
    assert caught.value.key == key


def test_sources_by_name(tmp_path):
    settings = CameraSettings()
    assert isinstance(make_source("auto", settings), AutoCamera)
    assert isinstance(make_source("synthetic", settings), SyntheticSource)
    assert make_source("usb:2", settings).index == 2
    assert isinstance(make_source("1", settings), UsbCamera)
    video = tmp_path / "table.mp4"
    video.write_bytes(b"")
    assert isinstance(make_source(str(video), settings), VideoFile)
    (tmp_path / "a.png").write_bytes(b"")
    assert isinstance(make_source(str(tmp_path), settings), ImageFolder)


@pytest.mark.parametrize("spec", ["usb:x", "/no/such/place"])
def test_bad_sources_say_what_to_write(spec):
    with pytest.raises(VisionError, match=r"Use auto|Write e\.g\."):
        make_source(spec, CameraSettings())


def test_the_app_config_validates_vision_sections():
    from companion.config import validate_section
    from companion.errors import UserError

    assert validate_section("camera", {"fps": "10"}).fps == 10.0
    with pytest.raises(UserError, match=r"^\[camera\] fps"):
        validate_section("camera", {"fps": "ten"})


def test_auto_with_no_camera_says_none_was_found(monkeypatch):
    from vision.sources import CameraMissing, PiCamera

    monkeypatch.setattr(PiCamera, "available", staticmethod(lambda: False))
    monkeypatch.setattr(UsbCamera, "indexes", staticmethod(lambda: []))
    with pytest.raises(CameraMissing, match="No camera found"):
        make_source("auto", CameraSettings()).open()


def test_a_missing_usb_camera_is_missing_not_a_crash():
    from vision.sources import CameraMissing

    with pytest.raises(CameraMissing, match="number 99"):
        make_source("usb:99", CameraSettings()).open()


def test_a_file_that_is_no_video_and_an_empty_folder_are_refused(tmp_path):
    not_video = tmp_path / "notes.mp4"
    not_video.write_text("hello")
    with pytest.raises(VisionError, match="cannot be read"):
        make_source(str(not_video), CameraSettings()).open()
    (tmp_path / "empty").mkdir()
    with pytest.raises(VisionError, match="holds no images"):
        make_source(str(tmp_path / "empty"), CameraSettings())
