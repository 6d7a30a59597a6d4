"""Hostile QR codes and images (issue 12, part 5): decoded text never reaches a terminal or the
screen raw, the payload grammar has no leading zeros, an image's size is checked before it is
decoded, an unreadable image is named, and a bad camera number is a sentence."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import zlib

import cv2
import pytest

from companion.cli import main
from companion.commands.scan import Printer, json_line
from companion.game.deck import default_deck
from companion.tags.payload import TagError, classify, is_ours
from vision.config import CameraSettings
from vision.errors import VisionError
from vision.events import CardShown, CodesSeen, Detection, ForeignCode
from vision.sources import MAX_IMAGE_PIXELS, ImageFolder, ImageUnreadable, make_source, read_image
from vision.synthetic import Scene, render_frame

CONTROL = ("\x1b", "\r", "\x00", "\x9b")
EVIL = "NOAH1/\x1b[2J\r\x00\x9b"


pytestmark = pytest.mark.usefixtures("no_user_config")  # tests/conftest.py


def raw_control(text: str) -> bool:
    return any(char in text for char in CONTROL)


def test_a_refusal_shows_the_sticker_text_escaped():
    tag = classify(EVIL, default_deck(), "BOX1")
    assert isinstance(tag, TagError) and tag.reason == "malformed"
    assert not raw_control(tag.message)
    assert "NOAH1/\\x1b[2J\\r\\x00\\x9b" in tag.message


@pytest.mark.parametrize("text", ["NOAH01/BOX1/CAF2", "NOAH001/BOX1/CAF2", "NOAH00/BOX1/CAF2"])
def test_a_version_with_a_leading_zero_is_not_format_1(text):
    """docs/tags.md: no leading zeros. Still ours (never ignored as foreign): a damaged sticker."""
    tag = classify(text, default_deck(), "BOX1")
    assert is_ours(text) and isinstance(tag, TagError) and tag.reason == "malformed"


def test_format_0_and_format_1_are_unchanged():
    assert classify("NOAH0/BOX1/CAF2", default_deck(), "BOX1").reason == "version"
    assert classify("NOAH1/BOX1/CAF2", default_deck(), "BOX1").card.id == "cat:F#2"


def test_scan_prints_decoded_text_escaped():
    printer = Printer(False, lambda text: "not a Noah sticker")
    detection = Detection(EVIL, ((0, 0), (1, 0), (1, 1), (0, 1)))
    events = [ForeignCode("evil\x1b]0;owned\x07", 0.0, 0.0, 1),
              CardShown(EVIL, (EVIL,), 0.0, 0.0, 1),
              CodesSeen((detection,), 0.0, 0.0, 1)]
    lines = [printer.describe(event) for event in events]
    assert not any(map(raw_control, lines)) and "\x07" not in lines[0]
    assert "evil\\x1b]0;owned\\x07" in lines[0] and "NOAH1/\\x1b[2J" in lines[1]


def test_json_lines_escape_what_json_leaves_raw():
    line = json_line({"texts": [EVIL, "Chloé \u202e"]})
    assert not raw_control(line) and "\u202e" not in line and "Chloé" in line
    assert json.loads(line)["texts"] == [EVIL, "Chloé \u202e"]


def png_header(width: int, height: int) -> bytes:
    """A PNG that claims a size and holds no pixels: what a decompression bomb looks like."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


@pytest.mark.parametrize("size", [(16000, 16000), (8000, 7000)])
def test_an_image_too_large_is_refused_before_it_is_decoded(tmp_path, monkeypatch, size):
    """A 51 kB PNG of 16000×16000 pixels once cost a folder scan 1.5 GB."""
    assert size[0] * size[1] > MAX_IMAGE_PIXELS
    path = tmp_path / "bomb.png"
    path.write_bytes(png_header(*size))

    def never(*_args):
        raise AssertionError("decoded before its size was checked")

    monkeypatch.setattr(cv2, "imdecode", never)
    monkeypatch.setattr(cv2, "imread", never)
    with pytest.raises(ImageUnreadable, match="more than a scan decodes"):
        read_image(path)


def test_a_folder_scan_names_every_image_it_skips(tmp_path, capsys):
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "a-bomb.png").write_bytes(png_header(16000, 16000))
    (folder / "b-junk.jpg").write_bytes(b"not a photo")
    (folder / "c-folder.png").mkdir()
    cv2.imwrite(str(folder / "d-cat.png"),
                render_frame(["NOAH1/BOX1/CAF2"], Scene(width=640, height=360, seed=2)))
    assert main(["scan", "--source", str(folder)]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["image"] for line in out.splitlines()] == ["d-cat.png"]
    skipped = err.splitlines()
    assert len(skipped) == 3
    assert all(line.startswith("noah-companion: skipped ") for line in skipped)
    assert "a-bomb.png is over" in skipped[0] and "more than a scan decodes" in skipped[0]
    assert "b-junk.jpg is not an image this program can read" in skipped[1]
    assert "c-folder.png cannot be read: it is not a regular file" in skipped[2]


def test_a_folder_scan_prints_file_names_that_are_not_utf8(tmp_path):
    """A strict UTF-8 terminal (Raspberry Pi OS) cannot print a lone surrogate: the JSON line
    escapes it."""
    folder = tmp_path / "photos"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), render_frame([], Scene(width=320, height=240, seed=2)))
    (folder / "a.png").rename(folder / os.fsdecode(b"\xff.png"))
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict",
           "NOAH_COMPANION_CONFIG": str(tmp_path / "none.ini")}
    run = subprocess.run([sys.executable, "-m", "companion.cli", "scan", "--source", str(folder)],
                         capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["image"] == os.fsdecode(b"\xff.png")


def test_an_image_folder_keeps_what_it_skipped_and_logs_it(tmp_path, caplog):
    (tmp_path / "junk.png").write_bytes(b"\x89PNG but not really")
    folder = ImageFolder(tmp_path)
    folder.open()
    with caplog.at_level("WARNING", logger="vision.sources"):
        assert folder.read() is None
    assert [problem.what.split(" is ")[0] for problem in folder.skipped] == [
        str(tmp_path / "junk.png")]
    assert "skipped " in caplog.text and "junk.png" in caplog.text


@pytest.mark.parametrize("spec", ["usb:²", "²", "picamera2:٣", "usb:1234", "x" * 5000])
def test_a_bad_camera_source_is_a_sentence(spec):
    with pytest.raises(VisionError) as error:
        make_source(spec, CameraSettings())
    assert error.value.key == "source" and len(str(error.value)) < 300


def test_a_video_whose_name_is_not_utf8_is_refused_not_a_crash(tmp_path):
    """cv2.VideoCapture kills the process (SIGSEGV) on such a name."""
    video = tmp_path / os.fsdecode(b"\xfe.mp4")
    video.write_bytes(b"not really a video")
    with pytest.raises(VisionError, match="not UTF-8"):
        make_source(str(video), CameraSettings())


def test_scan_with_a_superscript_camera_number_exits_2(capsys):
    assert main(["scan", "--source", "usb:²"]) == 2
    err = capsys.readouterr().err
    assert "has a bad number" in err and "Traceback" not in err


def test_tags_check_refuses_a_bomb_photo_by_name(tmp_path, monkeypatch):
    from companion.errors import UserError
    from companion.tags.check import folder_presentations
    from vision.decoders import make_decoder

    (tmp_path / "bomb.png").write_bytes(png_header(16000, 16000))
    for decode in ("imdecode", "imread"):
        monkeypatch.setattr(cv2, decode, lambda *_: pytest.fail("decoded a bomb"))
    with pytest.raises(UserError, match=r"bomb\.png is over"):
        list(folder_presentations(tmp_path, make_decoder("zxing")))
