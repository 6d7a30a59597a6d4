"""``noah-companion history`` and ``export`` on a record with a finished and an unfinished game."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.game.tablelog import replay
from companion.session import GameStore, Session
from companion.sim.autoplay import SimulatedTable


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    """A record with a finished 2-player game and an unfinished score-only game (read only)."""
    path = tmp_path_factory.mktemp("record") / "games.sqlite"
    with GameStore(path) as store:
        SimulatedTable(Session(store), ["Ana", "Ben"], seed=11).play()
        unfinished = Session(store)
        unfinished.new_game(["Zoé", "Yves", "Xavier"], score_only=True)
        unfinished.enter_tears([1, 2, 3])
    return path


@pytest.fixture
def db(record, tmp_path, monkeypatch):
    monkeypatch.setenv("NOAH_COMPANION_CONFIG", str(tmp_path / "none.ini"))
    return record


def test_history_lists_finished_and_unfinished_games_with_round_scores(db, capsys):
    assert main(["history", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Game 2" in out and "unfinished, round 2" in out and "score only" in out
    assert "Game 1" in out and "finished, won by" in out and "R1  R2  R3" in out
    assert main(["history", "--db", str(db), "--finished", "--json"]) == 0
    [game] = json.loads(capsys.readouterr().out)
    assert game["id"] == 1 and len(game["rounds"]) == 3


def test_export_log_replays_to_the_recorded_result(db, tmp_path, capsys):
    target = tmp_path / "game1.jsonl"
    assert main(["export", "1", "--format", "log", "-o", str(target), "--db", str(db)]) == 0
    results = list(replay(target.read_text(encoding="utf-8").splitlines(keepends=True)))
    assert all(r.accepted for r in results) and results[-1].game.is_over
    with GameStore(db) as store:
        assert results[-1].game.scores == tuple(store.game(1).summary["scores"])


def test_export_csv_and_json_to_stdout(db, capsys):
    assert main(["export", "last", "--format", "csv", "--db", str(db)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "2,1,0,Zoé,1,1", "2,1,1,Yves,2,2", "2,1,2,Xavier,3,3"]
    assert main(["export", "1", "--format", "json", "--db", str(db)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["finished"] and data["table_log"][0]["format"] == "noah-table-log"


def test_export_bgstats_prints_the_link_and_a_qr(db, capsys):
    assert main(["export", "1", "--bgstats", "--db", str(db)]) == 0
    out = capsys.readouterr().out  # the link alone (tests/web/test_cli.py: its QR code)
    assert "BG Stats: https://app.bgstatsapp.com/createPlay.html?data=" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["export", "7"], "no game number 7"),
    (["export", "seven"], "not a game number"),
    (["export", "²"], "not a game number"),  # str.isdigit() takes it, int() does not
    (["export", "9" * 30], "not a game number"),
    (["export", "2", "--bgstats"], "not finished"),
])
def test_export_mistakes_are_explained(db, capsys, argv, message):
    assert main([*argv, "--db", str(db)]) == 2
    assert message in capsys.readouterr().err


def test_history_of_an_empty_record_says_what_to_do(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("NOAH_COMPANION_CONFIG", str(tmp_path / "none.ini"))
    assert main(["history", "--db", str(tmp_path / "new.sqlite")]) == 0
    assert "noah-companion demo" in capsys.readouterr().out
