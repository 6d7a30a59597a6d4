"""The command line's small frictions a new user met (issue 20, section 3): each says what is
happening, in the user's words, and blames the right thing."""

from __future__ import annotations

import pytest

from companion.cli import main
from companion.terminal import display_width


@pytest.fixture
def no_config(tmp_path, monkeypatch):
    monkeypatch.setenv("NOAH_COMPANION_CONFIG", str(tmp_path / "none.ini"))


def test_history_counts_in_words_and_aligns_chinese_names_by_their_columns(
        tmp_path, no_config, capsys):
    from companion.session import GameStore, Session

    db = tmp_path / "games.sqlite"
    with GameStore(db) as store:
        session = Session(store)
        session.new_game(["陳小明", "Ana"], score_only=True)
        session.enter_tears([3, 12])
    assert main(["history", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "1 actions" not in out and "1 action" in out
    table = [line for line in out.splitlines() if line.startswith("    ")]
    assert len(table) == 3  # header, 陳小明, Ana
    assert len({display_width(line) for line in table}) == 1  # every row ends in one column
    assert table[1].startswith("    陳小明 ") and table[2].startswith("    Ana    ")


def test_an_unknown_language_option_blames_the_option_not_the_config_file(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--language", "de"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "argument --language: the app has no 'de' translation; choose en or fr or zh" in err
    assert "[ui]" not in err and "config" not in err


class _Stop(BaseException):  # not caught as a bug by the command line
    pass


def test_demo_quiet_prints_no_introduction(tmp_path, monkeypatch, capsys):
    class NoGame:  # the game itself is not what this test is about
        def __init__(self, *args, **kwargs):
            pass

        def play(self):
            raise _Stop

    monkeypatch.setattr("companion.sim.demo.SimulatedTable", NoGame)
    with pytest.raises(_Stop):
        main(["demo", "-q", "--db", str(tmp_path / "games.sqlite")])
    assert "Noah Table Companion — demo" not in capsys.readouterr().out


def test_tags_check_asks_for_cards_only_once_a_camera_answers(no_config, capsys):
    assert main(["tags", "check", "--source", "usb:9"]) == 2
    captured = capsys.readouterr()
    assert "Show the cards" not in captured.out
    assert "No camera could be opened" in captured.err


def test_scan_says_it_is_still_looking_to_people_and_keeps_json_lines_events_only(capsys):
    from companion.commands.scan import Printer

    line = "camera: still looking (5 s so far; Ctrl-C to stop)…"
    Printer(True, str).say(line)
    Printer(False, str).say(None)
    assert capsys.readouterr().out == ""
    Printer(False, str).say(line)
    assert capsys.readouterr().out.endswith(f" s  {line}\n")


@pytest.fixture(scope="module")
def table_frames():
    from vision.table_render import OverheadCamera, TableScene, render_table, row_layout

    camera = OverheadCamera(width=1920, height=1080, hfov_deg=40.0)
    whole = TableScene(mats=row_layout(gap_mm=5), noah=(0.0, 110.0))
    away = TableScene(mats=tuple(m for m in row_layout(gap_mm=5) if m.ferry != 4),
                      noah=(0.0, 110.0))
    return render_table(whole, camera).frame, render_table(away, camera).frame


def test_doctor_checks_the_table_camera_mats_detail_and_noah(table_frames):
    from companion.doctor import Status, judge_table

    whole, away = table_frames
    good = judge_table("Pi camera 1", whole)
    assert good.status is Status.OK
    assert "mats found: 1, 2, 3, 4, 5 of 5" in good.found and "Noah's marker found" in good.found
    missing = judge_table("Pi camera 1", away)
    assert missing.status is Status.FAIL and "(not found: ferry 4)" in missing.found
    assert "Check the table camera" in missing.fix


def test_doctor_opens_the_table_source_of_the_config(tmp_path, monkeypatch, table_frames):
    import cv2

    from companion.doctor import Machine, Status, check_table_camera

    folder = tmp_path / "overhead"
    folder.mkdir()
    cv2.imwrite(str(folder / "table.png"), table_frames[0])
    config = tmp_path / "companion.ini"
    config.write_text(f"[camera]\nview = table\ntable_source = {folder}\n", encoding="utf-8")
    monkeypatch.setenv("NOAH_COMPANION_CONFIG", str(config))
    machine = Machine(systemctl_show=lambda unit: None)
    assert check_table_camera(machine).status is Status.OK
    config.write_text("[camera]\nview = hand\n", encoding="utf-8")
    assert "not used" in check_table_camera(Machine(systemctl_show=lambda unit: None)).found
