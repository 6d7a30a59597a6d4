"""``noah-companion replay``: verdicts per line, final table, JSON objects, and bad input that
never gives a traceback (exit 2, the line named)."""

from __future__ import annotations

import io
import json
import sys

import pytest

from companion.cli import main

HEADER = {"format": "noah-table-log", "version": 1, "players": ["Ana", "Ben", "Chloé"],
          "options": {"hidden": True, "end_rule": "rounds"}}
DEAL = {"type": "start_round", "noah": 0, "ferries": ["cat:F", "bear:M", "lion:M", "panda:F",
                                                      "snail:M"],
        "hand_counts": [8, 8, 8], "starter": 1}
PAIR = {"type": "play", "player": 1, "card": "cat:M", "ferry": 0}
OUT_OF_TURN = {"type": "play", "player": 0, "card": "cat:M", "ferry": 0}


def write_log(tmp_path, *items, raw: str = ""):
    path = tmp_path / "game.jsonl"
    text = "".join(f"{json.dumps(item, ensure_ascii=False)}\n" for item in items) + raw
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_text_mode_shows_verdicts_and_the_final_table(tmp_path, capsys):
    log = write_log(tmp_path, HEADER, DEAL, OUT_OF_TURN, PAIR)
    assert main(["replay", log]) == 0
    out = capsys.readouterr().out
    assert "    3 ✗ [not_your_turn] It is Ben's turn, not Ana's" in out
    assert "    4 ✓ Ben loaded the ♂ cat on ferry 1." in out
    assert "  1     4/21   ♀ cat, ♂ cat   ← Noah" in out  # ferries are numbered 1-5
    assert "Chloé" in out and "1 line rejected" in out


def test_json_mode_prints_one_object_per_line_then_the_final_state(tmp_path, capsys):
    log = write_log(tmp_path, HEADER, DEAL, OUT_OF_TURN, PAIR)
    assert main(["replay", log, "--json"]) == 0
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(o["line"], o["verdict"], o["reason"]) for o in objects[:-1]] == [
        (1, "accepted", None), (2, "accepted", None), (3, "rejected", "not_your_turn"),
        (4, "accepted", None)]
    assert all(set(o) == {"line", "verdict", "reason", "message"} for o in objects[:-1])
    assert objects[-1]["ferries"][0] == ["cat:F", "cat:M"]
    assert objects[-1]["extra_turn"] is True


def test_json_states_give_the_state_after_each_line_unchanged_after_a_rejection(tmp_path,
                                                                               capsys):
    log = write_log(tmp_path, HEADER, DEAL, OUT_OF_TURN, PAIR)
    main(["replay", log, "--states"])  # --states implies --json
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert objects[2]["state"] == objects[1]["state"]
    assert objects[3]["state"] == objects[4]


def test_strict_exits_1_when_a_line_is_rejected(tmp_path, capsys):
    assert main(["replay", write_log(tmp_path, HEADER, DEAL, OUT_OF_TURN), "--strict"]) == 1
    assert main(["replay", write_log(tmp_path, HEADER, DEAL, PAIR), "--strict"]) == 0


def test_standard_input(monkeypatch, capsys):
    text = "".join(f"{json.dumps(item)}\n" for item in (HEADER, DEAL))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["replay", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[1])["verdict"] == "accepted"


@pytest.mark.parametrize(("raw", "reason"), [
    ('{"type": "juggle", "player": 1}\n', "bad_action"),
    ('{"type": "play", "player": "Ben", "card": "cat:M", "ferry": 0}\n', "bad_action"),
    ('{"type": "play", "player": 1, "card": "cat", "ferry": 0}\n', "bad_action"),
    ('{"type": "undo", "count": 3}\n', "bad_action"),
])
def test_malformed_line_is_a_verdict_and_the_replay_goes_on(tmp_path, capsys, raw, reason):
    log = write_log(tmp_path, HEADER, DEAL, raw=raw + json.dumps(PAIR) + "\n")
    assert main(["replay", log, "--json"]) == 0
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (objects[2]["verdict"], objects[2]["reason"]) == ("rejected", reason)
    assert objects[2]["message"]
    assert objects[3]["verdict"] == "accepted"


@pytest.mark.parametrize("raw", ["not json at all\n", "[1, 2]\n"])
def test_a_line_that_is_not_a_json_object_is_judged_then_the_log_exits_2(tmp_path, capsys, raw):
    """TABLE-LOG.md: a malformed log (not JSON) is reported with its line and a non-zero status;
    the line is still a ``bad_action`` verdict and the lines after it are judged."""
    log = write_log(tmp_path, HEADER, DEAL, raw=raw + json.dumps(PAIR) + "\n")
    assert main(["replay", log, "--json"]) == 2
    captured = capsys.readouterr()
    objects = [json.loads(line) for line in captured.out.splitlines()]
    assert (objects[2]["verdict"], objects[2]["reason"]) == ("rejected", "bad_action")
    assert objects[3]["verdict"] == "accepted"
    assert "line 3" in captured.err


@pytest.mark.parametrize(("items", "raw", "words"), [
    ((), "", "empty"),
    ((DEAL,), "", "Line 1"),
    (({**HEADER, "format": "noah-score-sheet"},), "", "Line 1"),
    (({**HEADER, "version": 2},), "", "version is 2"),
    (({**HEADER, "players": ["Ana"]},), "", "Line 1: Noah is played by 2 to 5 players"),
    ((HEADER, DEAL), '{"type": "play", "player": 1, "card": "ca', "middle of line 3"),
])
def test_unreadable_log_exits_2_naming_the_line(tmp_path, capsys, items, raw, words):
    log = write_log(tmp_path, *items, raw=raw)
    assert main(["replay", log]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert err.startswith("noah-companion: ")


def test_log_cut_short_still_shows_the_lines_before(tmp_path, capsys):
    log = write_log(tmp_path, HEADER, DEAL, raw='{"type": "play", "pla')
    assert main(["replay", log, "--json"]) == 2
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 2
    assert "middle of line 3" in captured.err


def test_binary_file_exits_2(tmp_path, capsys):
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\n\x81\x82\n")
    assert main(["replay", str(path)]) == 2
    assert "line 1" in capsys.readouterr().err.lower()


@pytest.mark.parametrize(("name", "said"), [("missing.jsonl", "Cannot read the table log"),
                                            (".", "is a folder, not a table log")])
def test_unreadable_file_exits_2(tmp_path, capsys, name, said):
    assert main(["replay", str(tmp_path / name)]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
