"""`table scan` against hostile input (issue 20.2): a sticker's control characters, a file name
that is not UTF-8, a bad camera number, an empty source."""

from __future__ import annotations

import io
import json
import os
import unicodedata

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.commands.table import _json_line, describe
from vision.table import FerryView, LooseCode, TableReading
from vision.table_kit import FERRIES

pytestmark = pytest.mark.usefixtures("no_user_config")

HOSTILE = {
    "ESC": "NOAH1/\x1b[2J\x1b[31mRED",
    "OSC": "NOAH1/\x1b]0;owned\x07",
    "CR": "NOAH1/BOX1/CAF2\rLIM1",
    "NUL": "NOAH1/\x00BOX1",
    "newline": "NOAH1/BOX1\nframe 2: all fine",
}


def _reading(code: str) -> TableReading:
    ferries = {k: FerryView() for k in FERRIES}
    ferries[2] = FerryView(seen=True, top=code)
    return TableReading(ferries, noah=2, loose=(LooseCode(code, (1.0, 1.0), 2),))


def _controls(text: str) -> set[str]:
    return {c for c in text if unicodedata.category(c) in ("Cc", "Cs")}


@pytest.mark.parametrize("code", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_stickers_control_characters_are_shown_escaped_one_line_per_frame(code):
    text = describe("a.png", _reading(code), hands=True)
    assert not _controls(text) and len(text.splitlines()) == 1
    assert repr(code)[1:-1] in text  # escaped as `scan` shows them (Python escapes)
    line = _json_line("a.png", _reading(code))
    assert not _controls(line) and len(line.splitlines()) == 1
    assert json.loads(line)["ferries"]["2"]["top"] == code  # the JSON keeps the exact text


def _strict_stdout(monkeypatch) -> io.BytesIO:
    """stdout as Raspberry Pi OS's locale makes it: UTF-8, strict."""
    raw = io.BytesIO()
    stdout = io.TextIOWrapper(raw, encoding="utf-8", errors="strict", write_through=True)
    monkeypatch.setattr("sys.stdout", stdout)
    return raw


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_a_frame_name_that_is_not_utf8_is_shown_safely(tmp_path, monkeypatch, as_json):
    name = os.fsdecode(b"table-\xff.png")
    cv2.imwrite(str(tmp_path / "a.png"), np.full((90, 160), 90, np.uint8))
    (tmp_path / "a.png").rename(tmp_path / name)
    raw = _strict_stdout(monkeypatch)
    assert main(["table", "scan", "--source", str(tmp_path), *(["--json"] * as_json)]) == 0
    out = raw.getvalue().decode("utf-8")  # valid UTF-8, or this raises
    if as_json:
        assert json.loads(out)["frame"] == name
    else:
        assert out.startswith("table-\\udcff.png: 1 mat not found")


@pytest.mark.parametrize("source", ["picamera2:²", "usb:٣", "picamera2:x"])
def test_a_bad_camera_number_is_a_sentence_for_the_table_camera_too(source, capsys):
    assert main(["table", "scan", "--source", source]) == 2
    err = capsys.readouterr().err
    assert "has a bad number. Write e.g. usb:0 or picamera2:0." in err


@pytest.mark.parametrize("command", [["table", "scan"], ["scan"]])
@pytest.mark.parametrize("source", ["", "  "])
def test_an_empty_source_is_refused_not_the_current_folder(command, source, capsys, tmp_path,
                                                           monkeypatch):
    cv2.imwrite(str(tmp_path / "a.png"), np.full((90, 160), 90, np.uint8))
    monkeypatch.chdir(tmp_path)  # a folder that would be read if "" meant "."
    assert main([*command, "--source", source]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "No source given (an empty name)." in err
