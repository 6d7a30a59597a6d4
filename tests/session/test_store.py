"""The durable record: SQLite settings, committed lines, history cache, failures in words."""

from __future__ import annotations

import os
import sqlite3
import stat

import pytest

from companion.errors import UserError
from companion.session.store import GameStore, storage_error

HEADER = {"format": "noah-table-log", "version": 1, "players": ["Ana", "Ben"], "options": {}}


def test_wal_and_full_sync_are_on(store):
    db = store._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_lines_come_back_in_order_and_survive_reopening(tmp_path):
    path = tmp_path / "games.sqlite"
    with GameStore(path) as store:
        game_id = store.create_game(HEADER)
        for n in range(5):
            assert store.append(game_id, {"type": "note", "text": str(n)}) == n + 1
    with GameStore(path) as store:
        assert [line["text"] for line in store.lines(game_id)] == ["0", "1", "2", "3", "4"]
        assert store.table_log(game_id)[0] == HEADER
        assert store.integrity_check() == "ok"


def test_each_line_is_committed_before_append_returns(tmp_path):
    path = tmp_path / "games.sqlite"
    with GameStore(path) as store:
        game_id = store.create_game(HEADER)
        store.append(game_id, {"type": "note", "text": "x"})
        other = sqlite3.connect(path)  # another connection sees it at once: it is committed
        assert other.execute("SELECT COUNT(*) FROM lines").fetchone()[0] == 1
        other.close()


def test_unfinished_and_finished_games(store):
    first = store.create_game(HEADER)
    second = store.create_game(HEADER, score_only=True)
    store.set_summary(first, {"scores": [3, 4]}, finished=True)
    assert [g.id for g in store.unfinished()] == [second]
    assert [g.id for g in store.games(finished=True)] == [first]
    assert store.game(first).summary == {"scores": [3, 4]}
    assert store.game(second).score_only


def test_unknown_game_is_reported_with_a_way_out(store):
    with pytest.raises(UserError, match=r"no game number 42.*history"):
        store.game(42)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files anyway")
def test_read_only_record_is_reported_and_nothing_is_half_written(tmp_path):
    path = tmp_path / "games.sqlite"
    with GameStore(path) as store:
        game_id = store.create_game(HEADER)
    os.chmod(path, stat.S_IRUSR)
    try:
        with GameStore(path) as store, pytest.raises(UserError, match="could not be saved"):
            store.append(game_id, {"type": "note", "text": "lost?"})
    except UserError as error:  # opening itself may already refuse: that is reported too
        assert "record" in str(error)
    finally:
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
    with GameStore(path) as store:
        assert store.lines(game_id) == []


def test_disk_full_message_says_what_to_do():
    error = storage_error(sqlite3.OperationalError("database or disk is full"), "x.sqlite")
    assert "disk is full" in error.what and "Free some space" in error.fix


def test_a_folder_that_cannot_be_created_is_reported(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(UserError, match=r"cannot be created|could not be saved"):
        GameStore(blocker / "games.sqlite")


def test_a_full_disk_is_reported_and_the_line_is_not_stored(store):
    game_id = store.create_game(HEADER)
    store.append(game_id, {"type": "note", "text": "kept"})
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count={pages}")  # SQLite's own "disk full"
    with pytest.raises(UserError, match="disk is full"):
        for n in range(200):
            store.append(game_id, {"type": "note", "text": "x" * 500 + str(n)})
    kept = store.lines(game_id)
    assert kept[0]["text"] == "kept"
    assert store.integrity_check() == "ok"
