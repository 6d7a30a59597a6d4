"""The game record's schema only moves forward with a backup beside it.

When a newer version of the app opens a record written by an older one and must change its
tables (``PRAGMA user_version`` below the app's ``SCHEMA_VERSION``), the record first calls
:func:`backup_before_migration`: a consistent copy (SQLite's online backup) named after the
schema it holds, next to the record. An older version that cannot read the newer schema (after
``noah-companion update --rollback``) gets that copy back through :func:`restore_for_schema`,
and the newer record is kept beside it, never deleted.

>>> import sqlite3, tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> record = folder / "games.sqlite"
>>> db = sqlite3.connect(record)
>>> _ = db.execute("PRAGMA user_version=1")
>>> backup_before_migration(db, record, 1, 2).name.startswith("games.sqlite.schema-1.")
True
>>> [path.name.endswith(".backup") for path in backups(record)]
[True]
>>> schema_version(record)
1
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import time
from pathlib import Path

from companion.errors import UserError

_BACKUP = re.compile(r"\.schema-(\d+)\.(\d{8}T\d{6})(?:-\d+)?\.backup$")


def backup_before_migration(db: sqlite3.Connection, record: Path, from_version: int,
                            to_version: int) -> Path:
    """Copy the record (open as ``db``) to ``RECORD.schema-N.TIME.backup`` before its schema
    moves from ``from_version`` to ``to_version``; raise :class:`UserError` if it cannot be
    written, so that no migration happens without its backup."""
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    target = record.with_name(f"{record.name}.schema-{from_version}.{stamp}.backup")
    count = 1
    while target.exists():  # two migrations within a second (tests)
        count += 1
        target = record.with_name(f"{record.name}.schema-{from_version}.{stamp}-{count}.backup")
    partial = target.with_name(target.name + ".partial")
    try:
        copy = sqlite3.connect(partial)
        try:
            db.backup(copy)
        finally:
            copy.close()
        durable(partial)
        os.replace(partial, target)  # a backup that exists is whole
        durable(target.parent)
    except (OSError, sqlite3.Error) as error:
        partial.unlink(missing_ok=True)
        raise UserError(
            f"The game record {record} must be converted for this version of the app "
            f"(schema {from_version} to {to_version}), and its backup could not be written "
            f"({error}).",
            "Free some space beside the record, then start the app again; nothing was changed.",
        ) from error
    return target


def backups(record: Path) -> list[Path]:
    """The record's schema backups, oldest first."""
    found = [path for path in record.parent.glob(f"{record.name}.schema-*.backup")
             if _BACKUP.search(path.name)]
    return sorted(found, key=lambda path: _BACKUP.search(path.name).group(2))  # type: ignore[union-attr]


def schema_version(record: Path) -> int:
    """The schema version written in a record (0 for a new or missing one)."""
    if not record.exists():
        return 0
    db = sqlite3.connect(f"file:{record}?mode=ro", uri=True)
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    finally:
        db.close()


def restore_for_schema(record: Path, readable: int) -> Path | None:
    """Put back the newest backup that a version reading schema ``readable`` can open, if the
    record is newer than that; the newer record is kept as ``RECORD.schema-N.TIME.newer``.
    Returns the backup put back (None when the record needed nothing).
    """
    current = schema_version(record)
    if current <= readable:
        return None
    usable = [path for path in backups(record)
              if int(_BACKUP.search(path.name).group(1)) <= readable]  # type: ignore[union-attr]
    if not usable:
        raise UserError(
            f"The game record {record} has schema {current}, which the version rolled back to "
            f"cannot read (it reads {readable}), and there is no backup of an older schema.",
            "Update again to the newer version: noah-companion update.")
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    owner = record.stat()
    for suffix in ("", "-wal", "-shm"):  # the newer record whole, SQLite's companions with it
        part = record.with_name(record.name + suffix)
        if part.exists():
            os.replace(part, record.with_name(f"{record.name}.schema-{current}.{stamp}.newer"
                                              f"{suffix}"))
    partial = record.with_name(record.name + ".restoring")
    shutil.copy2(usable[-1], partial)
    _same_owner(partial, owner)
    durable(partial)
    os.replace(partial, record)
    durable(record.parent)
    return usable[-1]


def _same_owner(path: Path, like: os.stat_result) -> None:
    if os.geteuid() == 0:  # root restores for the service's user
        os.chown(path, like.st_uid, like.st_gid)
    path.chmod(like.st_mode & 0o777)


def durable(path: Path) -> None:
    """fsync a file, or a folder (so that a rename in it survives a power cut)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
