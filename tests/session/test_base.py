"""The generic session (companion.session.base): what every game's session shares. A record holds
the games of every kind; each game's session resumes only its own."""

from __future__ import annotations

import sqlite3
from types import SimpleNamespace

import pytest

from companion.errors import UserError
from companion.session import Session
from companion.session.base import SessionBase
from companion.session.store import storage_error

PLAYERS = ["Ana", "Ben"]
COMPLOT_HEADER = {"format": "complot-table-log", "version": 1, "players": PLAYERS,
                  "options": {"level": 1}}


class Stack:
    """A referee of numbers: positive ones are accepted."""

    def __init__(self):
        self.history = []

    def push(self, n):
        self.history += [n] * (n > 0)
        return SimpleNamespace(accepted=n > 0)

    def pop(self):
        return self.history.pop()


class Tally(SessionBase):
    log_format = "tally-log"

    def __init__(self, store):
        super().__init__(store)
        self.stack = Stack()
        self._view = ()

    def _build_view(self):
        return tuple(self.stack.history)

    def _clear_game(self):
        self.stack = Stack()

    def new(self):
        with self._lock:
            self._opened(self.store.create_game({"format": self.log_format, "version": 1,
                                                 "players": PLAYERS}))
            self._publish()

    def add(self, n, *, redoing=False):
        with self._lock:
            verdict = self._judged(self.stack, n, {"type": "add", "n": n}, redoing=redoing)
            self._publish()
            return verdict.accepted


def test_a_refused_action_writes_nothing_and_an_accepted_one_is_stored_before_it_is_shown(store):
    tally = Tally(store)
    tally.new()
    shown = []
    tally.subscribe(lambda view: shown.append((view, len(store.lines(tally._game_id)))))
    assert not tally.add(-1) and tally.add(4)
    assert shown == [((), 0), ((), 0), ((4,), 1)]  # every view after its line is committed


def test_a_write_that_fails_takes_the_action_back_and_tells_the_table(store, monkeypatch):
    tally = Tally(store)
    tally.new()
    tally.add(1)

    def disk_full(*_args):
        raise storage_error(sqlite3.OperationalError("database or disk is full"), store.path)

    monkeypatch.setattr(store, "append", disk_full)
    with pytest.raises(UserError):
        tally.add(2)
    assert tally.view == (1,)  # nothing unrecorded stays applied
    assert [notice.level for notice in tally._notices] == ["problem"]


def test_redo_consumes_its_action_and_any_other_action_clears_the_stack(store):
    tally = Tally(store)
    tally.new()
    tally._redo = [5, 6]
    tally.add(6, redoing=True)
    assert tally._redo == [5]
    tally.add(7)
    assert tally._redo == []


def test_each_session_resumes_only_its_own_games_of_a_shared_record(store):
    """Noah's resume never opens a Complot game, however new; the Complot game stays offered
    to Complot's session."""
    noah = Session(store)
    noah.new_game(PLAYERS)
    noah.close_game()
    complot_id = store.create_game(COMPLOT_HEADER)
    tally = Tally(store)
    assert [g.id for g in noah.unfinished_games()] == [noah.view.prompt.unfinished[0]]
    assert complot_id not in noah.view.prompt.unfinished
    assert noah.resume().game_id != complot_id
    assert [g.format for g in store.unfinished("complot-table-log")] == ["complot-table-log"]
    with pytest.raises(UserError, match="no unfinished game"):
        tally._game_to_resume(None)


def test_a_game_whose_header_is_not_json_is_still_offered_to_noah_to_abandon(store):
    """A damaged header names no game: it is Noah's, where such games were always offered."""
    game_id = store.create_game(COMPLOT_HEADER)
    store._db.execute("UPDATE games SET header = '{not json' WHERE id = ?", (game_id,))
    assert [g.id for g in Session(store).unfinished_games()] == [game_id]


def test_camera_status_and_foreign_codes_are_the_base_s_notices(store):
    tally = Tally(store)
    tally.camera_status(False, "The camera is unplugged.")
    tally.on_vision_event(SimpleNamespace())  # not the referee's: ignored
    tally.foreign_code("https://example.org")
    assert (tally._camera_ok, tally._foreign_codes) == (False, 1)
    assert [n.phrases[0].key for n in tally._notices] == ["notice.camera_lost",
                                                          "notice.foreign_code"]
    assert "not a card of this game" in tally._notices[-1].text
