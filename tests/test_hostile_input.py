"""Hostile and damaged input from files (issue 12, part 5): table logs given to ``replay`` and
deck files given to ``deck check``. Each case once ended in a traceback, a hang, a misleading
message or absurd numbers taken as true; now each is refused with one sentence naming the line,
exit status 2, and the rest of the log still judged."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.commands.replay import _bounded_lines
from companion.game.deck import MAX_COPIES, default_deck, load_deck, parse_ref
from companion.game.errors import InputError, shown
from companion.game.options import Options
from companion.game.tablelog import MAX_LINE_BYTES, replay
from companion.tags.payload import encode

HEADER = {"format": "noah-table-log", "version": 1, "players": ["Ana", "Ben"],
          "options": {"hidden": True}}
HEADER_LINE = json.dumps(HEADER)
DEAL = {"type": "start_round", "noah": 0,
        "ferries": ["cat:F", "bear:M", "lion:M", "panda:F", "snail:M"],
        "hand_counts": [8, 8], "starter": 0}
NOTE = '{"type": "note", "text": "still judged"}'


@pytest.fixture(autouse=True)
def no_user_config(tmp_path, monkeypatch):
    monkeypatch.setenv("NOAH_COMPANION_CONFIG", str(tmp_path / "companion.ini"))


def replay_text(tmp_path, capsys, *lines: str) -> tuple[int, str, str]:
    path = tmp_path / "hostile.jsonl"
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    status = main(["replay", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


# -- table logs --------------------------------------------------------------------------------

HOSTILE_LINES = {
    "nested 1,000 deep": '{"type": "note", "text": ' + "[" * 1000 + "]" * 1000 + "}",
    "a 5,000-digit number": '{"type": "undo", "count": ' + "9" * 5000 + "}",
    "a list as type": '{"type": ["play"]}',
    "an object as type": '{"type": {"play": 1}}',
    "a lone surrogate": '{"type": "note", "text": "\\ud800 echoed"}',
    "NaN": '{"type": "undo", "count": NaN}',
    "a line over the cap": '{"type": "note", "text": "' + "x" * (MAX_LINE_BYTES + 10) + '"}',
}


@pytest.mark.parametrize("line", HOSTILE_LINES.values(), ids=HOSTILE_LINES.keys())
def test_a_hostile_line_is_named_exit_2_and_the_replay_goes_on(tmp_path, capsys, line):
    status, out, err = replay_text(tmp_path, capsys, HEADER_LINE, line, NOTE)
    assert status == 2
    assert "    2 ✗ [bad_action] This line is malformed: " in out
    assert "    3 ✓ Note: still judged" in out
    assert "line 2 cannot be read" in err and "Traceback" not in out + err


@pytest.mark.parametrize("version", ["true", "1.0", '"1"'])
def test_a_version_that_only_equals_1_in_python_is_refused(tmp_path, capsys, version):
    header = HEADER_LINE.replace('"version": 1', f'"version": {version}')
    status, out, err = replay_text(tmp_path, capsys, header)
    assert status == 2 and out == ""
    assert f"Line 1 is not a table-log header: its version is {version}" in err


@pytest.mark.parametrize("header", [
    HEADER_LINE.replace('"Ana"', '"\\ud800"'),  # a surrogate in a name
    HEADER_LINE.replace('"version": 1', '"version": ' + "1" * 5000),
])
def test_a_hostile_header_stops_the_replay_naming_line_1(tmp_path, capsys, header):
    status, out, err = replay_text(tmp_path, capsys, header)
    assert status == 2 and "Line 1" in err and out == ""


def test_a_player_name_cannot_drive_the_terminal(tmp_path, capsys):
    status, out, _ = replay_text(tmp_path, capsys, HEADER_LINE.replace('"Ana"', '"A\\u001bna"'))
    assert status == 0 and "\x1b" not in out
    assert "New game: A\\x1bna and Ben" in out and "\nA\\x1bna " in out  # the final table


def test_a_superscript_copy_number_is_a_verdict_not_a_crash(tmp_path, capsys):
    deal = json.dumps({**DEAL, "ferries": ["cat:F#²", *DEAL["ferries"][1:]]},
                      ensure_ascii=False)
    status, out, _ = replay_text(tmp_path, capsys, HEADER_LINE, deal)
    assert status == 0
    assert "    2 ✗ [setup_invalid]" in out and "bad copy number" in out


@pytest.mark.parametrize("ref", ["cat:F#²", "cat:F#٣", "cat:F#0", "cat:F#100", "cat:F#02",
                                 "cat:F#" + "9" * 5000])
def test_copy_numbers_are_ascii_digits_from_1_to_99(ref):
    with pytest.raises(InputError, match="copies go from 1 to 99"):
        parse_ref(ref)
    assert parse_ref(f"cat:F#{MAX_COPIES}").copy == MAX_COPIES


@pytest.mark.parametrize("field, value, reason", [
    ("hand_counts", [10**18, 8], "setup_invalid"),
    ("scores", [10**18, 0], "setup_invalid"),
    ("round", 10**14, "setup_invalid"),
])
def test_numbers_no_table_reaches_are_refused_in_a_position(tmp_path, capsys, field, value,
                                                           reason):
    position = {"type": "position", "round": 2, "round_starter": 0, "current_player": 0,
                "noah": 0, "ferries": [[], [], [], [], []], "departed": 0, "scores": [0, 0],
                "hand_counts": [8, 8], field: value}
    status, out, _ = replay_text(tmp_path, capsys, HEADER_LINE, json.dumps(position))
    assert status == 0
    assert f"    2 ✗ [{reason}] This set-up cannot be right" in out


def test_a_hand_larger_than_the_game_is_refused_and_a_real_one_accepted():
    position = {"type": "position", "round": 1, "round_starter": 0, "current_player": 0,
                "noah": 0, "ferries": [[], [], [], [], []], "departed": 0, "scores": [0, 0]}
    in_play = len(default_deck().for_game(2, Options(hidden=True)))
    results = list(replay([HEADER_LINE, json.dumps({**position, "hand_counts": [in_play + 1, 8]}),
                           json.dumps({**position, "hand_counts": [in_play - 8, 8]})]))
    assert (results[1].reason, results[2].verdict) == ("setup_invalid", "accepted")
    assert f"this game has {in_play} cards in all" in results[1].message


def test_a_round_of_more_tears_than_the_whole_deck_is_refused():
    header = json.dumps({**HEADER, "options": {"score_only": True}})
    all_tears = sum(card.tears
                    for card in default_deck().for_game(2, Options(score_only=True)))
    results = list(replay([header, '{"type": "score_round", "tears": [100000000000000, 0]}',
                           json.dumps({"type": "score_round", "tears": [all_tears, 0]})]))
    assert results[1].reason == "bad_action" and f"bring {all_tears}" in results[1].message
    assert results[2].accepted


def test_a_list_longer_than_any_table_is_refused(tmp_path, capsys):
    scan = json.dumps({"type": "scan_hands", "hands": [["cat:F"] * 5000, []]})
    _, out, _ = replay_text(tmp_path, capsys, HEADER_LINE, scan)
    assert "    2 ✗ [bad_action]" in out and "more than 1000 items" in out


def test_a_note_cannot_drive_the_terminal(tmp_path, capsys):
    note = json.dumps({"type": "note", "text": "\x1b[2J\rgone\x00"})
    status, out, _ = replay_text(tmp_path, capsys, HEADER_LINE, note)
    assert status == 0
    assert "    2 ✓ Note: \\x1b[2J\\rgone\\x00" in out
    assert not any(char in out for char in "\x1b\r\x00")


def test_an_over_long_line_is_never_held_whole_in_memory():
    """A 50 MB line once cost 1.57 GB: the reader hands the replay at most the cap plus one
    byte of a line, and skips the rest unread into memory."""
    big = b'{"type": "note", "text": "' + b"x" * (3 * MAX_LINE_BYTES) + b'"}\n'
    lines = list(_bounded_lines(io.BytesIO(HEADER_LINE.encode() + b"\n" + big + b"{}\n")))
    assert [len(line) for line in lines] == [len(HEADER_LINE) + 1, MAX_LINE_BYTES + 1, 3]


def test_a_strict_utf8_terminal_gets_no_traceback_from_a_lone_surrogate(tmp_path):
    """Raspberry Pi OS's locale is strict UTF-8: a lone surrogate once crashed the printing."""
    path = tmp_path / "surrogate.jsonl"
    path.write_text(f'{HEADER_LINE}\n{{"type": "note", "text": "\\udcff \\ud800"}}\n',
                    encoding="utf-8")
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"}
    for extra in ([], ["--json"]):
        run = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(path), *extra],
                             capture_output=True, text=True, env=env, timeout=60)
        assert run.returncode == 2, run.stderr
        assert "Traceback" not in run.stderr and "line 2 cannot be read" in run.stderr


FIELDS = ["type", "player", "card", "ferry", "as", "frog_weight", "to", "target", "take", "give",
          "gifts", "hands", "hand_counts", "noah", "ferries", "starter", "round", "scores",
          "round_starter", "current_player", "departed", "tears", "count", "text"]
TYPES = ["position", "start_round", "play", "take_back", "move_noah", "croc_flee", "lion_swap",
         "giraffe_look", "give", "scan_hands", "score_round", "note", "undo"]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats()
    | st.text(st.characters(codec=None), max_size=12) | st.sampled_from(TYPES)
    | st.sampled_from(["cat:F", "cat:F#²", "snail#3", "lion:M", "F", "M"]),
    lambda inner: st.lists(inner, max_size=6)
    | st.dictionaries(st.sampled_from(FIELDS), inner, max_size=4),
    max_leaves=12)
LINES = st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES, max_size=5).map(
    lambda data: json.dumps(data, allow_nan=True))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINES, max_size=6))
def test_any_json_lines_give_verdicts_never_a_crash(lines):
    """Whatever JSON the lines hold (wrong types, surrogates, huge numbers, NaN, nesting), each
    gets a verdict and the states stay printable: never an exception but InputError."""
    header = json.dumps({**HEADER, "options": {"hidden": False}})
    try:
        for result in replay([header, *lines]):
            json.dumps(result.to_dict(state=True), ensure_ascii=False).encode("utf-8")
    except InputError:
        pass


def test_a_file_name_that_is_not_utf8_is_printed_escaped(tmp_path):
    """Several logs print each one's name first: a name of undecodable bytes once crashed a
    strict UTF-8 terminal."""
    path = tmp_path / os.fsdecode(b"\xff.jsonl")
    path.write_text(f"{HEADER_LINE}\n", encoding="utf-8")
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"}
    run = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(path), str(path)],
                         capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "\\udcff.jsonl ==" in run.stdout


def test_shown_escapes_what_a_terminal_would_obey():
    assert shown("NOAH1/\x1b[31mred\r\x00") == "NOAH1/\\x1b[31mred\\r\\x00"
    assert shown("Chloé ♀ \u202eevil") == "Chloé ♀ \\u202eevil"
    assert shown("x" * 100, limit=5) == "xxxxx…" and shown("abc", limit=None) == "abc"


# -- deck files --------------------------------------------------------------------------------

COLUMNS = "species,gender,weight,tears,mark,promo\n"


def check_deck(capsys, path: Path) -> tuple[int, str]:
    status = main(["deck", "check", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, err


@pytest.mark.parametrize("row, words", [
    ("cat,F,²,1,,no", "line 3: weight '²' is not a whole number from 0 to 21"),
    ("cat,F," + "9" * 5000 + ",1,,no", "line 3 is 5012 characters long"),
    ("cat,F,2,1,," + "x" * 140_000, "line 3 is 140011 characters long"),
    ('cat,"F\nM",2,1,,no', "line 3: its quotes do not pair up"),
    ('cat,"F,2,1,,no', "line 3: its quotes do not pair up"),
])
def test_a_bad_deck_field_is_named_with_its_line(tmp_path, capsys, row, words):
    path = tmp_path / "box.csv"
    path.write_text(f"{COLUMNS}cat,M,2,1,,no\n{row}\n", encoding="utf-8")
    status, err = check_deck(capsys, path)
    assert status == 2 and words in err


def test_deck_check_and_the_stickers_agree_on_the_copy_limit(tmp_path, capsys):
    """A 100th copy can never get a sticker (tags print refused it), so deck check refuses it."""
    path = tmp_path / "box.csv"
    path.write_text(COLUMNS + "cat,F,2,1,,no\n" * (MAX_COPIES + 1), encoding="utf-8")
    status, err = check_deck(capsys, path)
    assert status == 2 and f"line {MAX_COPIES + 2}: this is copy 100 of cat:F" in err
    path.write_text(COLUMNS + "cat,F,2,1,,no\n" * MAX_COPIES, encoding="utf-8")
    deck = load_deck(path)
    assert encode("BOX1", deck[-1]) == f"NOAH1/BOX1/CAF{MAX_COPIES}"  # every copy gets a sticker


def test_a_folder_is_called_a_folder(tmp_path, capsys):
    (tmp_path / "box.csv").mkdir()
    status, err = check_deck(capsys, tmp_path / "box.csv")
    assert status == 2 and "is a folder, not a deck file" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path, capsys):
    fifo = tmp_path / "box.csv"
    os.mkfifo(fifo)  # opening it for reading would block until a writer comes: never opened
    status, err = check_deck(capsys, fifo)
    assert status == 2 and "is not a regular file (a pipe or a device)" in err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le"])
def test_a_utf16_deck_is_said_to_be_utf16(tmp_path, capsys, encoding):
    path = tmp_path / "box.csv"
    path.write_text(default_deck().to_csv(), encoding=encoding)
    status, err = check_deck(capsys, path)
    assert status == 2 and "is not saved as UTF-8 text (it looks like UTF-16" in err
    assert "line" not in err  # no line that does not exist


def test_bytes_that_are_not_utf8_are_named_with_their_line(tmp_path, capsys):
    path = tmp_path / "box.csv"
    path.write_bytes(COLUMNS.encode() + b"cat,M,2,1,,no\ncat,F,2,1,,no \xe9\n")
    status, err = check_deck(capsys, path)
    assert status == 2 and "box.csv, line 3: this is not UTF-8 text" in err
