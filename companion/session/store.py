"""The durable record: every game's table log in one SQLite file.

A game's record *is* its table log (TABLE-LOG.md): line 0 is the header, then one line per
accepted action, ``undo`` lines included. Each line is written in its own committed transaction
(WAL journal, ``synchronous=FULL``) before the session acknowledges it, so a crash or a pulled
plug never loses an acknowledged action; resume and export are replays of these lines.

A small ``summary`` per game (scores, per-round scores, winners) is kept for the history list;
it is a cache the session refreshes after each round's scoring and can always be rebuilt by
replaying the lines.

>>> import tempfile, pathlib
>>> store = GameStore(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite")
>>> gid = store.create_game({"format": "noah-table-log", "version": 1, "players": ["A", "B"],
...                          "options": {}})
>>> store.append(gid, {"type": "note", "text": "hello"})
1
>>> [line["type"] for line in store.lines(gid)]
['note']
>>> store.close()
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.paths import default_store_path  # noqa: F401 (re-exported: the record's home)

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    started_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    header      TEXT NOT NULL,              -- the table log's line 1 (JSON)
    score_only  INTEGER NOT NULL DEFAULT 0,
    status      TEXT NOT NULL DEFAULT 'playing' CHECK (status IN ('playing', 'finished')),
    summary     TEXT NOT NULL DEFAULT '{}'  -- cache for the history list (JSON)
);
CREATE TABLE IF NOT EXISTS lines (
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,              -- 1, 2, ... after the header
    line     TEXT NOT NULL,                 -- one table-log action line (JSON)
    at       TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class GameRecord:
    """One game as the history lists it."""

    id: int
    started_at: str
    updated_at: str
    header: dict[str, Any]
    score_only: bool
    finished: bool
    summary: dict[str, Any]
    actions: int

    @property
    def players(self) -> list[str]:
        return list(self.header.get("players", []))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def storage_error(error: sqlite3.Error, path: Path) -> UserError:
    """Turn an SQLite failure into a sentence a player can act on.

    >>> storage_error(sqlite3.OperationalError("database or disk is full"), Path("/x.db")).what
    'The game record could not be saved: the disk is full (/x.db).'
    """
    text = str(error).lower()
    if "full" in text:
        what, fix = "the disk is full", "Free some space (delete old files), then try again."
    elif "readonly" in text or "read-only" in text:
        what, fix = "the file is read-only", "Check the [store] path in the settings."
    elif "locked" in text or "busy" in text:
        what, fix = "another program is using it", "Close the other copy of the app."
    elif "unable to open" in text:
        what, fix = "its folder cannot be opened", "Check the [store] path in the settings."
    else:
        what, fix = f"the database said '{error}'", "Check the disk and the [store] path."
    return UserError(f"The game record could not be saved: {what} ({path}).", fix)


class GameStore:
    """Games and their table-log lines in one SQLite file (created on first use).

    Every write is one committed transaction; a failure raises :class:`UserError` and leaves the
    record as it was. Thread use: one writer at a time (the session serializes its calls).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=5.0
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self._transaction():
                self._create_schema()
        except sqlite3.Error as error:
            raise storage_error(error, self.path) from error
        except OSError as error:
            raise UserError(
                f"The game record cannot be created at {self.path}: {error.strerror}.",
                "Choose another folder with [store] path = ... in the settings.",
            ) from error

    def _create_schema(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise UserError(
                f"The game record {self.path} was written by a newer version of the app.",
                "Update the app, or choose another [store] path.",
            )
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                self._db.execute(statement)
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self._db.in_transaction:  # SQLite already rolled back after e.g. SQLITE_FULL
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _write(self, work) -> Any:
        """Run ``work()`` in one committed transaction; SQLite failures become UserError."""
        try:
            with self._transaction():
                return work()
        except sqlite3.Error as error:
            raise storage_error(error, self.path) from error

    # -- writing ---------------------------------------------------------------------------

    def create_game(self, header: dict[str, Any], *, score_only: bool = False) -> int:
        """Start a game's record with its table-log header; returns the new game id."""
        now = _now()
        return self._write(
            lambda: self._db.execute(
                "INSERT INTO games (started_at, updated_at, header, score_only) "
                "VALUES (?, ?, ?, ?)",
                (now, now, _dumps(header), int(score_only)),
            ).lastrowid
        )

    def append(self, game_id: int, line: dict[str, Any]) -> int:
        """Append one table-log line (committed, durable); returns its ``seq`` (1, 2, ...)."""

        def work() -> int:
            seq = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM lines WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            now = _now()
            self._db.execute(
                "INSERT INTO lines (game_id, seq, line, at) VALUES (?, ?, ?, ?)",
                (game_id, seq, _dumps(line), now),
            )
            self._db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            return seq

        return self._write(work)

    def set_summary(self, game_id: int, summary: dict[str, Any], *, finished: bool) -> None:
        """Refresh the history cache of a game (scores, rounds, winners) and its status."""
        self._write(
            lambda: self._db.execute(
                "UPDATE games SET summary = ?, status = ? WHERE id = ?",
                (_dumps(summary), "finished" if finished else "playing", game_id),
            )
        )

    def delete_game(self, game_id: int) -> None:
        """Remove a game and its lines for good."""
        self._write(lambda: self._db.execute("DELETE FROM games WHERE id = ?", (game_id,)))

    # -- reading ---------------------------------------------------------------------------

    def header(self, game_id: int) -> dict[str, Any]:
        """The table-log header of a game (UserError if there is no such game)."""
        return self.game(game_id).header

    def lines(self, game_id: int) -> list[dict[str, Any]]:
        """Every action line of a game after the header, in order."""
        rows = self._db.execute(
            "SELECT line FROM lines WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [json.loads(row[0]) for row in rows]

    def table_log(self, game_id: int) -> list[dict[str, Any]]:
        """The whole table log: header first, then every line."""
        return [self.header(game_id), *self.lines(game_id)]

    def game(self, game_id: int) -> GameRecord:
        """One game's history entry (UserError naming the known ids if absent)."""
        rows = self._select_games("WHERE g.id = ?", (game_id,))
        if not rows:
            raise UserError(
                f"There is no game number {game_id} in {self.path}.",
                "Run 'noah-companion history' to see the games.",
            )
        return rows[0]

    def games(self, *, finished: bool | None = None) -> list[GameRecord]:
        """Games, newest first; ``finished`` filters finished/unfinished ones."""
        if finished is None:
            return self._select_games("", ())
        return self._select_games("WHERE g.status = ?", ("finished" if finished else "playing",))

    def unfinished(self) -> list[GameRecord]:
        """Games that can be resumed, newest first."""
        return self.games(finished=False)

    def _select_games(self, where: str, values: tuple) -> list[GameRecord]:
        query = (
            "SELECT g.id, g.started_at, g.updated_at, g.header, g.score_only, g.status, "
            "g.summary, (SELECT COUNT(*) FROM lines l WHERE l.game_id = g.id) "
            f"FROM games g {where} ORDER BY g.updated_at DESC, g.id DESC"
        )
        return [
            GameRecord(
                id=row[0], started_at=row[1], updated_at=row[2], header=json.loads(row[3]),
                score_only=bool(row[4]), finished=row[5] == "finished",
                summary=json.loads(row[6]), actions=row[7],
            )
            for row in self._db.execute(query, values).fetchall()
        ]

    def integrity_check(self) -> str:
        """SQLite's own verdict on the file: ``"ok"`` when sound."""
        return self._db.execute("PRAGMA integrity_check").fetchone()[0]

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_store(path: str | Path | None = None) -> GameStore:
    """The game record at ``path``, or where the config's ``[store] path`` says."""
    if path is None:
        from companion.config import load_config

        path = load_config().store.path
    return GameStore(Path(path).expanduser())
