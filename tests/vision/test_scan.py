"""`noah-companion scan` on a folder of photos and on a short video; bad sources get a plain
message; the benchmark's phantom count on frames without our codes."""

from __future__ import annotations

import json

import cv2
import pytest

from companion.cli import main
from vision.synthetic import Scene, render_frame

CAT, LION = "NOAH1/BOX1/CAF2", "NOAH1/BOX1/LIM1"
SCENE = Scene(width=640, height=360, camera_height_mm=200, seed=2)


pytestmark = pytest.mark.usefixtures("no_user_config")  # tests/conftest.py


def test_a_folder_gives_one_json_line_per_image(tmp_path, capsys):
    folder = tmp_path / "photos"
    folder.mkdir()
    cv2.imwrite(str(folder / "a-empty.png"), render_frame([], SCENE))
    cv2.imwrite(str(folder / "b-cat.png"), render_frame([CAT], SCENE))
    cv2.imwrite(str(folder / "c-two.png"), render_frame([LION, "https://bombyx.fr"], SCENE))
    (folder / "notes.txt").write_text("not an image")
    assert main(["scan", "--source", str(folder)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in lines] == ["a-empty.png", "b-cat.png", "c-two.png"]
    assert [line["texts"] for line in lines[:2]] == [[], [CAT]]
    assert sorted(zip(lines[2]["texts"], lines[2]["ours"], strict=True)) == [
        ("NOAH1/BOX1/LIM1", True), ("https://bombyx.fr", False)]
    assert all(line["ms"] > 0 for line in lines)


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    """Under two seconds at 30 frames a second: empty, the cat card held for a second (as a
    player shows it: long enough for the tracker even when a loaded machine decodes only a few
    frames a second), empty."""
    path = tmp_path_factory.mktemp("video") / "table.avi"
    empty, cat = render_frame([], SCENE), render_frame([CAT], SCENE)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, (640, 360))
    for frame in [empty] * 3 + [cat] * 30 + [empty] * 20:
        writer.write(frame)
    writer.release()
    return path


def test_a_video_prints_one_shown_and_one_removed_event(video, capsys):
    assert main(["scan", "--source", str(video), "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    cards = [(e["event"], e["text"]) for e in events if e["event"].startswith("Card")]
    assert cards == [("CardShown", CAT), ("CardRemoved", CAT)]
    assert events[0]["state"] == "ok" and events[-1]["event"] == "PipelineStats"


def test_raw_prints_every_text_and_text_output_names_the_card(video, capsys):
    assert main(["scan", "--source", str(video), "--raw", "--decoder", "zbar"]) == 0
    out = capsys.readouterr().out
    assert f"card shown: {CAT} (cat ♀ copy 2)" in out
    assert f": {CAT}\n" in out  # a raw line: "frame N: TEXT"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--source", "/no/such/folder"], "neither a camera nor an existing file"),
        (["--source", "usb:one"], "bad number"),
    ],
)
def test_bad_sources_are_one_plain_sentence(argv, message, capsys):
    assert main(["scan", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_bad_config_key_is_named(tmp_path, monkeypatch, capsys):
    config = tmp_path / "companion.ini"
    config.write_text("[camera]\nfps = fast\n")
    monkeypatch.setenv("NOAH_COMPANION_CONFIG", str(config))
    assert main(["scan", "--source", "synthetic", "--seconds", "0.1"]) == 2
    assert "[camera] fps = 'fast'" in capsys.readouterr().err


def test_no_phantom_card_events_on_frames_without_our_codes():
    from vision.bench import phantoms

    result = phantoms(frames=24, size=(640, 360))
    assert result["card_events"] == 0
    assert result["foreign_events"] == 1  # frames 10-19 show one foreign code
