"""Disk full right after a round is saved (issue 12.5): the round counts once, and is reported
as saved; a write either fully happens and is reported as done, or nothing changes."""

from __future__ import annotations

import sqlite3

import pytest

from companion.session import Session
from companion.session.store import storage_error

PLAYERS = ["Ana", "Ben", "Chloé"]


def test_a_round_saved_just_before_the_disk_fills_counts_once_and_is_reported_saved(
        store, monkeypatch):
    session = Session(store)
    session.new_game(PLAYERS, score_only=True)

    def disk_full(*_args, **_kwargs):  # the history cache's refresh, right after the round
        raise storage_error(sqlite3.OperationalError("database or disk is full"), store.path)

    monkeypatch.setattr(store, "set_summary", disk_full)
    outcome = session.enter_tears((1, 2, 3))
    assert outcome.accepted  # the round is in the record and applied: it is done
    assert session.view.round_scores == ((1, 2, 3),)
    assert session.view.prompt.round == 2  # nothing invites the table to enter it again
    [notice] = [n for n in session.view.notices if n.level == "problem"]
    assert notice.text.startswith("Saved;") and "could not be saved" not in notice.text
    assert [line["type"] for line in store.lines(session.view.game_id)] == ["score_round"]

    monkeypatch.undo()  # space again: the next round, and a resume, see one round 1
    assert session.enter_tears((0, 0, 1)).accepted
    resumed = Session(store).resume(session.view.game_id)
    assert resumed.round_scores == ((1, 2, 3), (0, 0, 1))
    assert resumed.state["scores"] == [1, 2, 4]


def test_a_commit_that_fails_is_rolled_back_and_not_kept_for_the_next_write(store):
    """A failed COMMIT must not leave its transaction open: the next write would commit the
    line reported as lost along with its own (it would count twice)."""
    game = store.create_game({"format": "noah-table-log", "version": 1, "players": PLAYERS,
                              "options": {}})

    class FailingCommit:
        """The connection, except that COMMIT fails as on a disk that just filled up."""

        def __init__(self, db):
            self.db = db

        @property
        def in_transaction(self):
            return self.db.in_transaction

        def execute(self, sql, *args):
            if sql == "COMMIT":
                raise sqlite3.OperationalError("database or disk is full")
            return self.db.execute(sql, *args)

        def __getattr__(self, name):
            return getattr(self.db, name)

    real = store._db
    store._db = FailingCommit(real)
    with pytest.raises(Exception, match="disk is full"):
        store.append(game, {"type": "note", "text": "lost"})
    store._db = real
    assert not real.in_transaction
    store.append(game, {"type": "note", "text": "kept"})
    assert [line["text"] for line in store.lines(game)] == ["kept"]
