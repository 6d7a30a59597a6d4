"""A damaged game never blocks anything (issue 12.2 and 12.5): history, export, doctor, the
session and resume up to the last good move, for every kind of damage a record can hold."""

from __future__ import annotations

import json
import sqlite3

import pytest

from companion import doctor
from companion.cli import main
from companion.config import ENV_CONFIG
from companion.errors import UserError
from companion.game.tablelog import replay
from companion.session import GameStore, Session
from companion.session.history import export, history
from companion.session.record import DamagedGame, read_game

PLAYERS = ["Ana", "Ben", "Chloé"]
SETUP = ["cat:F#1", "bear:M#1", "lion:M#1", "panda:F#1", "snail#1"]
#: Ana is not the player to move (Ben is, and he has to move Noah): refused by the engine.
ILLEGAL = '{"type":"play","player":0,"card":"lion:F#1","ferry":2}'
#: Ben moves Noah to ferry 5: legal where the game stood.
NEXT_MOVE = '{"type":"move_noah","player":1,"to":4}'
DAMAGE = {
    "illegal line": ILLEGAL,
    "not JSON": '{"type": "play", "player": 1, "card": "cat:M',
    "an undo of more than was played": '{"type":"undo","count":40}',
    "an unknown line type": '{"type":"tea"}',
    "a list as type": '{"type":["play"],"player":0}',
    "JSON nested 100000 deep": "[" * 100_000 + "]" * 100_000,
    "an empty line": "",
}


@pytest.fixture
def record(tmp_path, monkeypatch):
    """A record with a finished score-only game (1), then the game to damage (2): Ben has
    played the ♂ cat on ferry 3 and moves Noah next. Returns (path, state of game 2)."""
    monkeypatch.setenv(ENV_CONFIG, str(tmp_path / "none.ini"))
    path = tmp_path / "games.sqlite"
    with GameStore(path) as store:
        session = Session(store)
        session.new_game(PLAYERS, score_only=True)
        for tears in ((1, 2, 3), (4, 0, 1), (2, 2, 2)):
            assert session.enter_tears(tears).accepted
        session.new_game(PLAYERS)
        session.choose_noah_start(2)
        for ref in SETUP:
            session.choose_card(ref)
        session.choose_snail_side("M")
        session.choose_starter(1)
        assert session.choose_card("cat:M#1").accepted
        state = session.view.state
    return path, state


def add_raw_lines(path, game_id, *texts):
    """Write lines as they are (damage), behind the app's back."""
    db = sqlite3.connect(path)
    seq = db.execute("SELECT MAX(seq) FROM lines WHERE game_id = ?", (game_id,)).fetchone()[0]
    for n, text in enumerate(texts, start=seq + 1):
        db.execute("INSERT INTO lines VALUES (?, ?, ?, '2026-11-23T20:00:00+00:00')",
                   (game_id, n, text))
    db.commit()
    db.close()
    return seq + 2  # the table-log line number of the first one (the header is line 1)


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_game_is_listed_exported_reported_and_resumed_up_to_its_last_good_move(
        record, kind, capsys, monkeypatch):
    path, state = record
    bad = add_raw_lines(path, 2, DAMAGE[kind], NEXT_MOVE)

    # history, text and JSON, also --finished: every game, the damaged one marked
    assert main(["history", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Game 1 —" in out and "Game 2 —" in out and f"DAMAGED at line {bad}:" in out
    assert main(["history", "--db", str(path), "--json"]) == 0
    games = {game["id"]: game for game in json.loads(capsys.readouterr().out)}
    assert games[1]["damage"] is None and games[2]["damage"]["line"] == bad
    assert main(["history", "--db", str(path), "--finished"]) == 0
    assert "Game 1 —" in capsys.readouterr().out

    # export: another game, and the damaged one with all its lines, the bad one named
    assert main(["export", "1", "--format", "csv", "--db", str(path)]) == 0
    assert capsys.readouterr().out.count("\n") == 1 + 3 * 3
    assert main(["export", "2", "--db", str(path)]) == 0
    captured = capsys.readouterr()
    log = captured.out.splitlines()
    assert len(log) == bad + 1 and json.loads(log[-1]) == json.loads(NEXT_MOVE)
    assert f"Game 2, line {bad} is damaged" in captured.err
    assert main(["export", "2", "--format", "json", "--db", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["damaged_lines"][0]["line"] == bad and len(data["table_log"]) == bad + 1

    # doctor: the damaged game by number and line
    finding = doctor.check_store(_machine_for(path, monkeypatch))
    assert finding.status is doctor.Status.WARN and f"game 2 at line {bad}" in finding.found

    # the session starts; resume refuses with the table's choices and changes nothing
    with GameStore(path) as store:
        session = Session(store)
        assert session.view.prompt.unfinished == (2,)
        with pytest.raises(DamagedGame) as refused:
            session.resume()
        assert refused.value.reading.damage.line == bad
        assert len(store.raw_lines(2).texts) == bad  # nothing set aside yet

        # resume up to the last good move: the game stands where it was, lines kept aside
        view = session.resume(2, to_last_good_move=True)
        assert view.state == state and view.prompt.kind == "move_noah"
        assert [line["seq"] for line in store.set_aside_lines(2)] == [bad - 1, bad]
        assert session.move_noah(4).accepted  # the game goes on, written after the good lines
        assert [json.loads(t)["type"] for t in store.raw_lines(2).texts][-1] == "move_noah"
    with GameStore.reader(path) as store:
        [damaged] = [game for game in history(store, _deck()) if game.id == 2]
        assert damaged.damage is None  # the dropped lines are aside, the record replays
        assert len(json.loads(export(store, 2, _deck(), "json"))["set_aside"]) == 2


def test_the_table_is_told_which_actions_are_dropped_and_what_to_put_back(record):
    """R55's undo sentences bring the table back to the last good move."""
    path, _ = record
    bad = add_raw_lines(path, 2, ILLEGAL, NEXT_MOVE)
    with GameStore(path) as store:
        reading = read_game(store, 2, _deck())
        assert [(d.line, d.accepted) for d in reading.dropped] == [(bad, False), (bad + 1, True)]
        assert "Ana's ♀ lion on ferry 3 (refused: " in reading.dropped[0].text
        assert reading.dropped[1].text == "Noah's move to ferry 5"
        session = Session(store)
        view = session.resume(2, to_last_good_move=True)
    assert view.reconciliation == ("Move Noah back to ferry 3.",)
    assert [n.level for n in view.notices][-2:] == ["info", "reconcile"]
    assert "2 lines set aside from line" in view.notices[-2].text


def test_redo_survives_resume_through_the_one_replay(record):
    """The resumed game keeps its redo stack (R55), rebuilt by tablelog.replay."""
    path, _ = record
    with GameStore(path) as store:
        session = Session(store)
        session.resume(2)
        session.move_noah(4)
        session.undo()
        session.close_game()
        again = Session(store).resume(2)
        assert again.can_redo
    results = list(replay([f"{line}\n" for line in
                           export(GameStore.reader(path), 2, _deck(), "log").splitlines()]))
    assert results[-1].redo and results[-1].redo[-1].type == "move_noah"


def test_a_damaged_header_can_only_be_abandoned_or_deleted(record, capsys):
    path, _ = record
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET header = 'players: Ana, Ben' WHERE id = 2")
    db.commit()
    db.close()
    assert main(["history", "--db", str(path)]) == 0
    assert "DAMAGED at line 1: The game's first line" in capsys.readouterr().out
    assert main(["export", "2", "--db", str(path)]) == 0
    assert capsys.readouterr().out.startswith("players: Ana, Ben\n")
    with GameStore(path) as store:
        session = Session(store)
        with pytest.raises(DamagedGame, match="Abandon it or delete it"):
            session.resume(2, to_last_good_move=True)
        session.abandon_game(2)
        assert session.view.prompt.unfinished == ()
        assert [g.abandoned for g in store.games() if g.id == 2] == [True]
        session.delete_game(2)
        assert [g.id for g in store.games()] == [1]


def test_a_damaged_page_of_the_file_blocks_only_its_game(tmp_path, monkeypatch, capsys):
    """A page of the lines table overwritten (a bad SD card): the other games still list and
    export; the damaged one is reported up to the line where the file cannot be read."""
    monkeypatch.setenv(ENV_CONFIG, str(tmp_path / "none.ini"))
    path = tmp_path / "games.sqlite"
    header = {"format": "noah-table-log", "version": 1, "players": PLAYERS, "options": {}}
    with GameStore(path) as store:
        for game in (1, 2, 3):
            store.create_game(header)
            for n in range(12):
                store.append(game, {"type": "note", "text": f"game{game}-note{n}-" + "x" * 900})
    data = bytearray(path.read_bytes())
    page = 4096
    at = data.index(b"game2-note8-") // page * page
    data[at:at + 12] = b"\xff" * 12  # the b-tree page header: SQLite calls the page malformed
    path.write_bytes(bytes(data))
    assert main(["history", "--db", str(path), "--json"]) == 0
    games = {game["id"]: game for game in json.loads(capsys.readouterr().out)}
    assert set(games) == {1, 2, 3}
    assert games[1]["damage"] is None and games[3]["damage"] is None
    assert "cannot be read" in games[2]["damage"]["reason"]
    assert main(["export", "3", "--db", str(path)]) == 0
    assert capsys.readouterr().out.count("\n") == 13
    with GameStore(path) as store:  # the lines on the bad page cannot even be moved aside
        with pytest.raises(DamagedGame, match="cannot be read"):
            Session(store).resume(2)
        with pytest.raises(UserError, match=r"the file is damaged.*move the file away"):
            Session(store).resume(2, to_last_good_move=True)


def _deck():
    from companion.game import default_deck

    return default_deck()


def _machine_for(path, monkeypatch):
    """A machine with empty system trees whose config names the record at ``path``."""
    config = path.parent / "doctor.ini"
    config.write_text(f"[store]\npath = {path}\n")
    monkeypatch.setenv(ENV_CONFIG, str(config))
    return doctor.Machine(sys_root=path.parent, dev_root=path.parent, proc_root=path.parent,
                          systemctl_show=lambda unit: None, environ={})


def test_a_damaged_page_of_the_games_list_hides_only_its_games(tmp_path, monkeypatch, capsys):
    """The session still starts and history lists the games it can read, with a warning."""
    monkeypatch.setenv(ENV_CONFIG, str(tmp_path / "none.ini"))
    path = tmp_path / "games.sqlite"
    with GameStore(path) as store:
        for game in range(1, 31):
            store.create_game({"format": "noah-table-log", "version": 1, "players": PLAYERS,
                               "options": {}, "note": f"game{game}-" + "x" * 900})
    data = bytearray(path.read_bytes())
    at = data.index(b"game20-") // 4096 * 4096
    data[at:at + 12] = b"\xff" * 12
    path.write_bytes(bytes(data))
    with GameStore(path) as store:
        session = Session(store)  # the app starts
        assert 0 < len(session.view.prompt.unfinished) < 30
    assert main(["history", "--db", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    assert 0 < len(json.loads(captured.out)) < 30
    assert "some games cannot be read" in captured.err
