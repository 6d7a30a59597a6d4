"""`noah-companion scan` on a folder of photos and on a short video; bad sources get a plain
message; the benchmark's phantom count on frames without our codes."""

from __future__ import annotations

import json
import threading

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
    player shows it), empty. Read on its own time: every frame, in well under a second."""
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


class SlowDecoder:
    """A decoder slower than the video, without a clock: it decodes a frame only once the
    video has been read two frames further (or to its end). Reading live, the frame after the
    one being decoded is then always replaced by a newer one (dropped); read on its own time,
    the video waits for the decoder."""

    def __init__(self, decoder, reads):
        self.name, self.decoder, self.reads = decoder.name, decoder, reads

    def decode(self, frame):
        index = next(i for i, read in enumerate(self.reads.frames) if read is frame)
        with self.reads.changed:
            self.reads.changed.wait_for(
                lambda: len(self.reads.frames) >= index + 3 or self.reads.ended, timeout=30)
        return self.decoder.decode(frame)


class Reads:
    """Every frame a video has given so far (the very objects), and whether it has ended."""

    def __init__(self):
        self.frames, self.ended, self.changed = [], False, threading.Condition()

    def wrap(self, read):
        def counted(source):
            frame = read(source)
            with self.changed:
                if frame is None:
                    self.ended = True
                else:
                    self.frames.append(frame)
                self.changed.notify_all()
            return frame

        return counted


def scan_events(path, monkeypatch, capsys):
    """``scan --json`` of the video at ``path`` with :class:`SlowDecoder`: the card events,
    and the final counts."""
    from vision.config import DecoderSettings
    from vision.sources import VideoFile

    reads = Reads()
    decoder = DecoderSettings.decoder
    with monkeypatch.context() as patch:
        patch.setattr(VideoFile, "read", reads.wrap(VideoFile.read))
        patch.setattr(DecoderSettings, "decoder", lambda self: SlowDecoder(decoder(self), reads))
        assert main(["scan", "--source", str(path), "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return [e for e in events if e["event"].startswith("Card")], events[-1]


def test_a_video_is_read_on_its_own_time_every_frame_the_same_events(tmp_path, monkeypatch,
                                                                       capsys):
    """Two showings of two frames each (the least the tracker confirms), read by a decoder
    slower than the video: both are reported, every frame is decoded, and two runs give the
    same JSON events, times included (the video's: frame 4 at 25 frames a second is 0.16 s).

    Fails with the video's own time switched off (``vision.capture.own_clock`` returning
    ``None``: the video read unpaced, stamped by the real clock, as live): every other frame
    is dropped for a newer one, so neither showing is confirmed, and the times are the
    machine's."""
    path = tmp_path / "quick.avi"
    empty, cat, lion = (render_frame(codes, SCENE) for codes in ([], [CAT], [LION]))
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25, (640, 360))
    for frame in [empty] * 3 + [cat] * 2 + [empty] * 10 + [lion] * 2 + [empty] * 10:
        writer.write(frame)
    writer.release()
    cards, counts = scan_events(path, monkeypatch, capsys)
    assert [(e["event"], e["text"], e["captured_at"], e["frame"]) for e in cards] == [
        ("CardShown", CAT, 0.16, 5), ("CardRemoved", CAT, 0.48, 13),
        ("CardShown", LION, 0.64, 17), ("CardRemoved", LION, 0.96, 25)]
    assert all(e["latency"] == 0 for e in cards)  # decided at the frame's own time
    assert (counts["captured"], counts["decoded"], counts["dropped"]) == (27, 27, 0)
    again, _ = scan_events(path, monkeypatch, capsys)
    assert again == cards


def test_only_a_check_reads_a_video_on_its_own_time(video):
    """``scan`` (``Pipeline.from_settings``) reads a video file on its own time; the app's
    hand camera replaying one (``make_source``'s default) stays live, paced on the real clock."""
    from vision.config import CameraSettings
    from vision.pipeline import Pipeline
    from vision.sources import make_source, own_clock

    camera = CameraSettings(source=str(video))
    assert Pipeline.from_settings(camera).recorded
    assert own_clock(make_source(str(video), camera)) is None
    assert not Pipeline.from_settings(CameraSettings(source="synthetic")).recorded
