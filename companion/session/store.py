"""The durable record: every game's table log in one SQLite file.

A game's record *is* its table log (TABLE-LOG.md): line 0 is the header, then one line per
accepted action, ``undo`` lines included. Each line is written in its own committed transaction
(WAL journal, ``synchronous=FULL``) before the session acknowledges it, so a crash or a pulled
plug never loses an acknowledged action; resume and export are replays of these lines.

A small ``summary`` per game (scores, per-round scores, winners) is kept for the history list;
it is a cache the session refreshes after each round's scoring and can always be rebuilt by
replaying the lines.

One writer per record: a process that opens the record to write (the app, ``demo``, the crash
drill) holds an exclusive lock on it for as long as it has it open (``flock`` on the record's
file itself, so a symbolic or hard link is the same record; :class:`RecordLock`); a second
writer is refused at once with :class:`RecordInUse`, which names the holder's process. The lock
belongs to the open file, so it dies with its process: a ``kill -9`` leaves nothing stale.
Readers (``history``, ``export``, ``doctor``) open the record read-only with
:meth:`GameStore.reader` and never need the lock, nor write access.

Nothing here interprets a game: rows come back as stored (a damaged header or line included)
and :mod:`companion.session.record` judges them.

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

import fcntl
import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar, TypeVar
from urllib.parse import quote

from companion.errors import UserError
from companion.paths import (  # default_store_path re-exported: the record's home
    PRIVATE_FILE,
    default_store_path,  # noqa: F401
    make_private_dir,
)

_T = TypeVar("_T")

SCHEMA_VERSION = 1

#: The game of a record whose header does not name one (not JSON, damaged): Noah's, the only
#: game whose records exist from before a second game came, so its damaged games are still
#: offered to abandon or delete where they always were.
UNSTATED_FORMAT = "noah-table-log"

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
-- Lines taken out of a damaged game when the table chose "resume up to the last good move":
-- kept, never lost (export shows them).
CREATE TABLE IF NOT EXISTS set_aside (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL,
    line          TEXT NOT NULL,
    at            TEXT NOT NULL,
    set_aside_at  TEXT NOT NULL,
    reason        TEXT NOT NULL             -- why the game broke there
);
-- Games the table chose to abandon: kept in the history, no longer offered for resume.
CREATE TABLE IF NOT EXISTS abandoned (
    game_id  INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    at       TEXT NOT NULL,
    reason   TEXT NOT NULL
);
"""
# Added after version 1 without a version change: older versions ignore both tables.

#: The columns a game record must have: anything else at the path is another program's file.
_OUR_COLUMNS = {
    "games": {"id", "started_at", "updated_at", "header", "score_only", "status", "summary"},
    "lines": {"game_id", "seq", "line", "at"},
}


class RecordInUse(UserError):
    """Another process already writes this record (one writer per record): ``pid`` and
    ``since`` (its start, local time) say which, when known.

    >>> today = datetime.now().astimezone().replace(hour=14, minute=2)
    >>> error = RecordInUse(Path("g.sqlite"), 1234, today)
    >>> error.what
    'The referee is already running on this record (process 1234, since 14:02).'
    >>> error.fix
    'Close it first, or use --db for a separate record.'
    """

    def __init__(self, path: Path, pid: int | None, since: datetime | None) -> None:
        when = _clock(since) if since is not None else ""
        who = f"process {pid}, since {when}" if pid and when else (
            f"process {pid}" if pid else "another process")
        super().__init__(
            f"The referee is already running on this record ({who}).",
            "Close it first, or use --db for a separate record.",
            key="error.record_in_use", pid=pid or "?", since=when or "?", path=str(path),
        )
        self.path, self.pid, self.since = path, pid, since


def _clock(moment: datetime) -> str:
    """``14:02`` today, ``2026-11-22 14:02`` an earlier day (local time)."""
    local = moment.astimezone()
    today = datetime.now().astimezone().date()
    return local.strftime("%H:%M" if local.date() == today else "%Y-%m-%d %H:%M")


class RecordLock:
    """The one-writer lock of a record: ``flock`` on the record's file itself, so it belongs to
    the file (its inode), whatever name opens it: the same path, a symbolic link, a hard link.
    No file beside the record is needed, so deleting one cannot let a second writer in. The
    lock belongs to the open file, so the kernel drops it when the process ends, however it
    ends (a ``kill -9`` leaves nothing stale).

    ``flock`` and SQLite's own locks (POSIX ``fcntl`` byte ranges) are independent on Linux, so
    SQLite's WAL readers and writers work as before. One POSIX rule matters here: closing *any*
    descriptor of a file drops every POSIX lock the process holds on it, SQLite's included.
    So the lock's descriptor is closed only after SQLite's connection (see
    :meth:`GameStore.close`), a writer refused by its own process opens no descriptor at all,
    and :meth:`holder` asks the kernel's lock table (``/proc/locks``) instead of opening the
    file. The holder is named from that table: its pid and the time its process started.

    >>> import tempfile
    >>> lock = RecordLock(Path(tempfile.mkdtemp()) / "g.sqlite")
    >>> lock.acquire(); lock.holder()[0] == os.getpid()
    True
    >>> lock.release(); lock.holder()
    (None, None)
    """

    #: The records this process holds, by (device, inode).
    _held: ClassVar[set[tuple[int, int]]] = set()

    def __init__(self, record: Path) -> None:
        self.record = record
        self._fd: int | None = None
        self._inode: tuple[int, int] | None = None

    def acquire(self) -> None:
        """Take the lock at once or raise :class:`RecordInUse` (never waits). Creates the
        record's file (empty, private: SQLite makes an empty file a new database)."""
        inode = _inode(self.record)
        if inode in self._held:  # this process writes it already: open no descriptor
            raise RecordInUse(self.record, os.getpid(), _process_start(os.getpid()))
        try:
            fd = os.open(self.record, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
        except PermissionError:  # another user's file (e.g. root's): flock works read-only
            fd = os.open(self.record, os.O_RDONLY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise RecordInUse(self.record, *self.holder()) from None
        opened = os.fstat(fd)
        self._fd, self._inode = fd, (opened.st_dev, opened.st_ino)
        self._held.add(self._inode)

    def release(self) -> None:
        """Drop the lock (after SQLite's connection to the record is closed)."""
        if self._fd is not None:
            os.close(self._fd)  # closing the file drops the lock
            if self._inode is not None:
                self._held.discard(self._inode)
            self._fd = self._inode = None

    def holder(self) -> tuple[int | None, datetime | None]:
        """The pid and start of the process holding the lock; ``(None, None)`` if free (or
        when the system does not say: no ``/proc``)."""
        pid = _flock_holder(self._inode or _inode(self.record))
        return (pid, _process_start(pid)) if pid is not None else (None, None)


def _inode(path: Path) -> tuple[int, int] | None:
    """The (device, inode) of a file, ``None`` if there is none yet."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _flock_holder(inode: tuple[int, int] | None) -> int | None:
    """The pid holding an exclusive ``flock`` on the file ``inode``, from the kernel's lock
    table. A line of ``/proc/locks`` reads ``1: FLOCK  ADVISORY  WRITE 1234 b3:02:5678 0 EOF``
    (device major:minor in hex, then the inode); waiters' lines hold ``->`` and are skipped.

    >>> _flock_holder(None) is None
    True
    """
    if inode is None:
        return None
    device, number = inode
    wanted = f"{os.major(device):02x}:{os.minor(device):02x}:{number}"
    try:
        table = Path("/proc/locks").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    for line in table.splitlines():
        fields = line.split()
        if len(fields) >= 6 and fields[1:4] == ["FLOCK", "ADVISORY", "WRITE"] \
                and fields[5] == wanted and fields[4].isascii() and fields[4].isdigit():
            return int(fields[4])
    return None


def _process_start(pid: int) -> datetime | None:
    """When process ``pid`` started (from ``/proc``), ``None`` if the system does not say."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
        ticks = int(stat.rpartition(")")[2].split()[19])  # field 22: start, in ticks after boot
        boot = next(int(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                    if line.startswith("btime "))
    except (OSError, ValueError, IndexError, StopIteration):
        return None
    return datetime.fromtimestamp(boot + ticks / os.sysconf("SC_CLK_TCK"), UTC)


@dataclass(frozen=True)
class GameRecord:
    """One game as the record holds it. ``header`` is the stored header when it is a JSON
    object, else ``{}`` (``header_text`` keeps what is stored); ``abandoned``: the table gave
    the game up, it is no longer offered for resume."""

    id: int
    started_at: str
    updated_at: str
    header: dict[str, Any]
    score_only: bool
    finished: bool
    summary: dict[str, Any]
    actions: int
    header_text: str = ""
    abandoned: bool = False

    @property
    def players(self) -> list[str]:
        players = self.header.get("players")
        return [p for p in players if isinstance(p, str)] if isinstance(players, list) else []

    @property
    def format(self) -> str:
        """The table log's ``format``: which game it is (companion.games.find_kind). A header
        that does not say (damaged, not JSON) counts as :data:`UNSTATED_FORMAT`'s."""
        value = self.header.get("format")
        return value if isinstance(value, str) else UNSTATED_FORMAT


@dataclass(frozen=True)
class StoredLines:
    """A game's action lines exactly as stored (text), in order. ``unreadable`` says why the
    lines after these cannot be read (a damaged page of the file), or is empty."""

    texts: tuple[str, ...]
    unreadable: str = ""
    #: Each line's ``seq`` in the record (1, 2, ... unless rows were lost).
    seqs: tuple[int, ...] = ()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _object(text: Any) -> dict[str, Any]:
    """A stored JSON object, or ``{}`` when the text is not one (a damaged row)."""
    try:
        value = json.loads(text) if isinstance(text, str | bytes) else None
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


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
    elif "malformed" in text or "not a database" in text:
        what, fix = ("the file is damaged", "Export the games you need with 'noah-companion "
                     "export', then move the file away to start a new record.")
    else:
        what, fix = f"the database said '{error}'", "Check the disk and the [store] path."
    return UserError(f"The game record could not be saved: {what} ({path}).", fix)


def reading_error(error: sqlite3.Error, path: Path) -> UserError:
    """An SQLite failure while *reading* the record (never worded as a failed save).

    >>> reading_error(sqlite3.DatabaseError("database disk image is malformed"),
    ...               Path("/g.sqlite")).what
    "The game record /g.sqlite cannot be read: the file is damaged ('database disk image is \
malformed')."
    """
    text = str(error).lower()
    if "not a database" in text:
        return not_a_record(path, "it is not an SQLite database file")
    if "unable to open" in text:
        return UserError(f"The game record {path} cannot be opened.",
                         "Check that the file exists and may be read, or use --db.")
    return UserError(f"The game record {path} cannot be read: the file is damaged ('{error}').",
                     "Export the games you still can with 'noah-companion export', then restore "
                     "a backup or move the file away.")


def not_a_record(path: Path, why: str) -> UserError:
    """The file at the record's path belongs to something else: it is never written to.

    >>> not_a_record(Path("/x.db"), "it is another program's database").what
    "/x.db is not a Noah game record: it is another program's database."
    """
    return UserError(f"{path} is not a Noah game record: {why}.",
                     "Use --db (or [store] path = … in the settings) to name another file.")


class GameStore:
    """Games and their table-log lines in one SQLite file (created on first use).

    ``GameStore(path)`` opens the record to write: it takes the record's lock first
    (:class:`RecordInUse` if another process writes it) and keeps it until :meth:`close` or the
    end of the process. ``GameStore.reader(path)`` opens it read-only: no lock, no write, works
    beside a running writer and on a read-only file or a full disk.

    Every write is one committed transaction; a failure raises :class:`UserError` and leaves the
    record as it was. Thread use: one writer at a time (the session serializes its calls).
    """

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        #: Set when listing the games met a damaged page: why some games are missing.
        self.unreadable = ""
        self._lock: RecordLock | None = None
        if readonly:
            self._db = self._open_reader()
        else:
            self._db = self._open_writer()
        self._tables = self._table_names()

    @classmethod
    def reader(cls, path: str | Path) -> GameStore:
        """The record at ``path`` opened read-only (an empty record if there is no file)."""
        return cls(path, readonly=True)

    def _open_writer(self) -> sqlite3.Connection:
        try:
            make_private_dir(self.path.parent)
            self._lock = RecordLock(self.path)
            self._lock.acquire()  # before anything is written: a refused writer writes nothing
        except OSError as error:
            raise UserError(
                f"The game record cannot be created at {self.path}: {error.strerror}.",
                "Choose another folder with [store] path = ... in the settings.",
            ) from error
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                 timeout=5.0)
            try:
                self._check_ours(db)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                db.execute("PRAGMA foreign_keys=ON")
                self._db = db
                self._back_up_before_migration()
                with self._transaction():
                    self._create_schema()
            except BaseException:
                db.close()
                raise
        except BaseException as error:
            self._lock.release()
            if isinstance(error, sqlite3.DatabaseError) and "not a database" in str(error):
                raise not_a_record(self.path, "it is not an SQLite database file") from error
            if isinstance(error, sqlite3.Error):
                raise storage_error(error, self.path) from error
            raise
        return db

    def _open_reader(self) -> sqlite3.Connection:
        if not self.path.exists():  # nothing recorded yet: an empty record, nothing created
            db = sqlite3.connect(":memory:", check_same_thread=False)
            db.executescript(_SCHEMA)
            return db
        uri = f"file:{quote(str(self.path.absolute()))}"
        # "mode=ro" reads beside a live writer (SQLite may add its empty -wal/-shm files);
        # "immutable=1" when it cannot even create its shared-memory file (read-only folder,
        # full disk), where nobody can be writing anyway.
        for flags in ("mode=ro", "immutable=1"):
            try:
                db = sqlite3.connect(f"{uri}?{flags}", uri=True, check_same_thread=False,
                                     timeout=5.0)
                self._check_ours(db)
                return db
            except sqlite3.DatabaseError as error:
                if flags == "immutable=1" or not isinstance(error, sqlite3.OperationalError):
                    raise reading_error(error, self.path) from error
        raise AssertionError("unreachable")

    def _check_ours(self, db: sqlite3.Connection) -> None:
        """Refuse another program's database (never add tables to it); an empty file is ours."""
        tables = {row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            return
        for table, columns in _OUR_COLUMNS.items():
            have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if not columns <= have:
                raise not_a_record(self.path, "it is another program's database")

    def _table_names(self) -> set[str]:
        try:
            return {row[0] for row in self._db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.Error as error:
            raise reading_error(error, self.path) from error

    def _back_up_before_migration(self) -> None:
        """The schema only moves forward with a backup beside the record (outside the
        transaction: SQLite's backup cannot read through a connection that holds one)."""
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if 0 < version < SCHEMA_VERSION:
            from companion.schema_backup import backup_before_migration

            backup_before_migration(self._db, self.path, version, SCHEMA_VERSION)

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
            self._db.execute("COMMIT")  # a COMMIT that fails is rolled back below, never kept
        except BaseException:
            if self._db.in_transaction:  # SQLite already rolled back after e.g. SQLITE_FULL
                self._db.execute("ROLLBACK")
            raise

    def _write(self, work: Callable[[], _T]) -> _T:
        """Run ``work()`` in one committed transaction; SQLite failures become UserError."""
        if self.readonly:
            raise UserError(f"The game record {self.path} is open for reading only.",
                            "Open it without --read-only to change it.")
        try:
            with self._transaction():
                return work()
        except sqlite3.Error as error:
            raise storage_error(error, self.path) from error

    # -- writing ---------------------------------------------------------------------------

    def create_game(self, header: dict[str, Any], *, score_only: bool = False) -> int:
        """Start a game's record with its table-log header; returns the new game id."""
        now = _now()
        game_id = self._write(
            lambda: self._db.execute(
                "INSERT INTO games (started_at, updated_at, header, score_only) "
                "VALUES (?, ?, ?, ?)",
                (now, now, _dumps(header), int(score_only)),
            ).lastrowid
        )
        assert game_id is not None  # an INSERT into a rowid table always sets it
        return game_id

    def append(self, game_id: int, line: dict[str, Any]) -> int:
        """Append one table-log line (committed, durable); returns its ``seq`` (1, 2, ...)."""

        def work() -> int:
            seq: int = self._db.execute(
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

    def set_aside(self, game_id: int, from_seq: int, reason: str) -> int:
        """Move a game's lines from ``from_seq`` on into the ``set_aside`` table (kept, not
        lost), in one transaction; returns how many moved. Only the table's choice to resume a
        damaged game up to its last good move calls this."""

        def work() -> int:
            now = _now()
            moved = self._db.execute(
                "INSERT INTO set_aside (game_id, seq, line, at, set_aside_at, reason) "
                "SELECT game_id, seq, line, at, ?, ? FROM lines WHERE game_id = ? AND seq >= ?",
                (now, reason, game_id, from_seq),
            ).rowcount
            self._db.execute("DELETE FROM lines WHERE game_id = ? AND seq >= ?",
                             (game_id, from_seq))
            self._db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            return moved

        return self._write(work)

    def abandon(self, game_id: int, reason: str) -> None:
        """Give a game up: it stays in the history (lines untouched), no longer resumable."""
        self._write(lambda: self._db.execute(
            "INSERT OR REPLACE INTO abandoned (game_id, at, reason) VALUES (?, ?, ?)",
            (game_id, _now(), reason)))

    # -- reading ---------------------------------------------------------------------------

    def _read(self, query: str, values: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(query, values).fetchall()
        except sqlite3.Error as error:
            raise reading_error(error, self.path) from error

    def header(self, game_id: int) -> dict[str, Any]:
        """The table-log header of a game (UserError if there is no such game)."""
        return self.game(game_id).header

    def raw_lines(self, game_id: int) -> StoredLines:
        """Every action line of a game as stored, in order; reading stops (and says why) at a
        damaged page of the file instead of failing."""
        texts: list[str] = []
        seqs: list[int] = []
        problem = ""
        try:
            cursor = self._db.execute(
                "SELECT seq, line FROM lines WHERE game_id = ? ORDER BY seq", (game_id,))
            for seq, text in cursor:
                seqs.append(seq)
                texts.append(text if isinstance(text, str) else repr(text))
        except sqlite3.DatabaseError as error:
            problem = f"the record's file is damaged here ('{error}')"
        return StoredLines(tuple(texts), problem, tuple(seqs))

    def lines(self, game_id: int) -> list[dict[str, Any]]:
        """Every action line of a game after the header, in order, as JSON objects
        (UserError naming the line if one is not: see :mod:`companion.session.record` to read
        a damaged game)."""
        stored = self.raw_lines(game_id)
        objects = []
        for number, text in enumerate(stored.texts, start=2):
            line = _object(text)
            if not line:
                raise UserError(f"Game {game_id} is damaged at line {number}: it is not a "
                                "table-log line.", "Run 'noah-companion history' to see it.")
            objects.append(line)
        if stored.unreadable:
            raise UserError(f"Game {game_id} is damaged at line {len(objects) + 2}: "
                            f"{stored.unreadable}.", "Run 'noah-companion doctor'.")
        return objects

    def table_log(self, game_id: int) -> list[dict[str, Any]]:
        """The whole table log: header first, then every line."""
        return [self.header(game_id), *self.lines(game_id)]

    def set_aside_lines(self, game_id: int) -> list[dict[str, Any]]:
        """The lines set aside from a game (``seq``, ``line`` as stored, ``set_aside_at``,
        ``reason``), oldest first."""
        if "set_aside" not in self._tables:
            return []
        rows = self._read("SELECT seq, line, at, set_aside_at, reason FROM set_aside "
                          "WHERE game_id = ? ORDER BY id", (game_id,))
        return [{"seq": seq, "line": line, "at": at, "set_aside_at": when, "reason": reason}
                for seq, line, at, when, reason in rows]

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

    def unfinished(self, log_format: str | None = None) -> list[GameRecord]:
        """Games that can be resumed (not finished, not abandoned), newest first; only those
        whose table log has ``log_format`` when given (a record holds every game's games)."""
        return [game for game in self.games(finished=False) if not game.abandoned
                and (log_format is None or game.format == log_format)]

    def _select_games(self, where: str, values: tuple[Any, ...]) -> list[GameRecord]:
        abandoned = ("g.id IN (SELECT game_id FROM abandoned)" if "abandoned" in self._tables
                     else "0")
        rows = []
        try:  # row by row: a damaged page hides the games on it, not the whole record
            for row in self._db.execute(
                    "SELECT g.id, g.started_at, g.updated_at, g.header, g.score_only, g.status, "
                    f"g.summary, {abandoned} FROM games g {where}", values):
                rows.append(row)
        except sqlite3.DatabaseError as error:
            if not rows:
                raise reading_error(error, self.path) from error
            self.unreadable = f"some games cannot be read: the file is damaged ('{error}')"
        counts = self._line_counts()
        games = [
            GameRecord(
                id=row[0], started_at=str(row[1]), updated_at=str(row[2]),
                header=_object(row[3]), score_only=bool(row[4]), finished=row[5] == "finished",
                summary=_object(row[6]), actions=counts.get(row[0], 0),
                header_text=str(row[3]), abandoned=bool(row[7]),
            )
            for row in rows
        ]
        return sorted(games, key=lambda g: (g.updated_at, g.id), reverse=True)

    def _line_counts(self) -> dict[int, int]:
        """Lines per game; a damaged page of the lines only makes the counts incomplete."""
        try:
            return dict(self._db.execute(
                "SELECT game_id, COUNT(*) FROM lines GROUP BY game_id").fetchall())
        except sqlite3.DatabaseError:
            return {}

    def integrity_check(self) -> str:
        """SQLite's own verdict on the file: ``"ok"`` when sound."""
        try:
            return "; ".join(row[0] for row in self._db.execute("PRAGMA integrity_check"))
        except sqlite3.DatabaseError as error:
            return str(error)

    def holder(self) -> tuple[int | None, datetime | None]:
        """The process writing this record now (pid, since), ``(None, None)`` if none."""
        return RecordLock(self.path).holder() if self._lock is None else self._lock.holder()

    def close(self) -> None:
        self._db.close()
        if self._lock is not None:
            self._lock.release()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_store(path: str | Path | None = None, *, readonly: bool = False) -> GameStore:
    """The game record at ``path``, or where the config's ``[store] path`` says; ``readonly``
    for the commands that only read it (no lock, no write access needed)."""
    if path is None:
        from companion.config import load_config

        path = load_config().store.path
    return GameStore(Path(path).expanduser(), readonly=readonly)
