"""One writer per game record (issue 12.1): the lock, its message, and readers beside it."""

from __future__ import annotations

import doctest
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from companion.errors import UserError
from companion.session import store as store_module
from companion.session.store import GameStore, RecordInUse

HEADER = {"format": "noah-table-log", "version": 1, "players": ["Ana", "Ben"], "options": {}}

# A writer in another process: opens the record, writes a line, says so, then waits.
WRITER = textwrap.dedent("""
    import sys, time
    from companion.session.store import GameStore
    store = GameStore(sys.argv[1])
    game = store.create_game({"format": "noah-table-log", "version": 1,
                              "players": ["Ana", "Ben"], "options": {}})
    store.append(game, {"type": "note", "text": "first writer"})
    print("writing", flush=True)
    time.sleep(600)
""")


@pytest.fixture
def writer(tmp_path):
    """A live writer process holding ``tmp_path / "games.sqlite"``."""
    path = tmp_path / "games.sqlite"
    child = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE,
                             text=True)
    assert child.stdout.readline().strip() == "writing"
    yield path, child
    child.kill()
    child.wait()


def _snapshot(path):
    """The record's files, byte for byte (SQLite's shared-memory index and an empty WAL, which
    any reader may create, aside)."""
    files = {p.name: p.read_bytes() for p in sorted(path.parent.iterdir())
             if not p.name.endswith("-shm")}
    return {name: data for name, data in files.items() if data or not name.endswith("-wal")}


def test_a_second_writer_is_refused_at_once_and_writes_nothing(writer):
    path, child = writer
    before = _snapshot(path)
    with pytest.raises(RecordInUse) as refused:
        GameStore(path)
    error = refused.value
    assert error.pid == child.pid and error.since is not None
    assert error.what.startswith(f"The referee is already running on this record (process "
                                 f"{child.pid}, since ")
    assert error.fix == "Close it first, or use --db for a separate record."
    assert isinstance(error, UserError) and error.key == "error.record_in_use"
    assert _snapshot(path) == before  # nothing written, not even the lock file
    with GameStore.reader(path) as reader:  # the first writer's record is intact
        [game] = reader.games()
        assert reader.lines(game.id) == [{"type": "note", "text": "first writer"}]


def test_kill_9_of_a_writer_leaves_no_stale_lock(writer):
    path, child = writer
    child.send_signal(signal.SIGKILL)
    child.wait()
    with GameStore(path) as store:
        [game] = store.games()
        store.append(game.id, {"type": "note", "text": "second life"})
        assert store.holder()[0] == os.getpid()
    assert GameStore.reader(path).holder() == (None, None)


def _refused_while(child, path):
    """A second writer opening ``path`` is refused with the sentence naming ``child``."""
    with pytest.raises(RecordInUse) as refused:
        GameStore(path)
    assert refused.value.pid == child.pid
    assert refused.value.what.startswith(
        f"The referee is already running on this record (process {child.pid}, since ")


@pytest.mark.parametrize("link", ["symlink_to", "hardlink_to"])
def test_a_link_to_the_record_is_the_same_record_and_is_refused(writer, link,
                                                                tmp_path_factory):
    """Issue 20.1: the lock is on the record's file (its inode), not on the name opened."""
    path, child = writer
    other = tmp_path_factory.mktemp("elsewhere") / "same.sqlite"
    getattr(other, link)(path)
    before = _snapshot(path)
    _refused_while(child, other)
    assert _snapshot(path) == before


def test_deleting_every_file_beside_the_record_does_not_let_a_second_writer_in(writer):
    """Issue 20.1: nothing beside the record holds the lock (an older version's
    ``games.sqlite.lock`` included): delete all that is not SQLite's own, still refused."""
    path, child = writer
    (path.parent / "games.sqlite.lock").write_text('{"pid": 1}')
    sqlites_own = {path.name + tail for tail in ("", "-wal", "-shm", "-journal")}
    for stray in path.parent.iterdir():
        if stray.name not in sqlites_own:
            stray.unlink()
    assert {p.name for p in path.parent.iterdir()} <= sqlites_own
    _refused_while(child, path)


def test_the_record_stays_in_wal_mode_under_the_lock(tmp_path):
    """flock and SQLite's own POSIX locks are independent: WAL still works, and a reader in
    the same process beside the writer leaves the writer able to write."""
    path = tmp_path / "games.sqlite"
    with GameStore(path) as store:
        assert store._db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        game = store.create_game(HEADER)
        with GameStore.reader(path) as reader:
            assert reader.holder()[0] == os.getpid()
        store.append(game, {"type": "note", "text": "after the reader"})
        assert path.with_name("games.sqlite-wal").exists()
    assert oct(path.stat().st_mode & 0o777) == "0o600"  # the family's record only


def test_two_real_demos_on_one_record_the_second_is_refused(tmp_path):
    """Issue 20.1's check: two ``noah-companion demo --db`` processes, the second through a
    symbolic link, is refused with a sentence naming the first (exit 2, no traceback)."""
    path = tmp_path / "games.sqlite"
    command = [sys.executable, "-m", "companion.cli", "demo", "--db"]
    first = subprocess.Popen([*command, str(path)], stdout=subprocess.PIPE, text=True,
                             stderr=subprocess.DEVNULL)
    try:
        for line in first.stdout:  # the game starts once its record is open (and locked)
            if "New game for" in line:
                break
        link = tmp_path / "link.sqlite"
        link.symlink_to(path)
        second = subprocess.run([*command, str(link)], capture_output=True, text=True,
                                timeout=120)
    finally:
        first.kill()
        first.wait()
    assert second.returncode == 2, second.stderr
    assert "Traceback" not in second.stderr
    assert (f"The referee is already running on this record (process {first.pid}, since "
            in second.stderr)


def test_one_process_cannot_open_the_same_record_twice_to_write(tmp_path):
    path = tmp_path / "games.sqlite"
    with GameStore(path), pytest.raises(RecordInUse, match=f"process {os.getpid()}"):
        GameStore(path)
    with GameStore(path):  # closed: free again
        pass


def test_readers_work_beside_a_writer_and_see_its_lines(writer):
    path, child = writer
    with GameStore.reader(path) as reader:
        assert reader.holder()[0] == child.pid
        [game] = reader.games()
        assert game.players == ["Ana", "Ben"] and game.actions == 1


def test_history_export_and_doctor_run_while_the_record_is_being_written(writer, capsys):
    from companion.cli import main

    path, _ = writer
    assert main(["history", "--db", str(path)]) == 0
    assert "Ana, Ben" in capsys.readouterr().out
    assert main(["export", "last", "--db", str(path)]) == 0
    assert '"first writer"' in capsys.readouterr().out


def test_a_reader_never_writes(tmp_path):
    path = tmp_path / "games.sqlite"
    with GameStore(path) as store:
        store.append(store.create_game(HEADER), {"type": "note", "text": "kept"})
    before = _snapshot(path)
    with GameStore.reader(path) as reader:
        assert len(reader.games()) == 1
        with pytest.raises(UserError, match="reading only"):
            reader.create_game(HEADER)
    assert _snapshot(path) == before


def test_a_missing_record_reads_as_empty_and_is_not_created(tmp_path):
    path = tmp_path / "none" / "games.sqlite"
    with GameStore.reader(path) as reader:
        assert reader.games() == []
    assert not path.parent.exists()


def test_reading_needs_no_write_access_even_with_a_full_disk(tmp_path):
    """A full disk (every file write fails: RLIMIT_FSIZE 0) or a read-only file: listing and
    exporting still work (issue 12.5)."""
    path = tmp_path / "games.sqlite"
    with GameStore(path) as store:
        store.append(store.create_game(HEADER), {"type": "note", "text": "kept"})
    script = textwrap.dedent("""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
        from companion.cli import main
        sys.exit(main(["export", "last", "--db", sys.argv[1]]))
    """)
    os.chmod(path, 0o444)
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert '"kept"' in done.stdout


def test_another_programs_database_is_refused_and_left_alone(tmp_path):
    import sqlite3

    path = tmp_path / "photos.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT)")
    db.commit()
    db.close()
    before = path.read_bytes()
    for open_it in (GameStore, GameStore.reader):
        with pytest.raises(UserError, match="is not a Noah game record: it is another program"):
            open_it(path)
    assert path.read_bytes() == before
    text = tmp_path / "notes.sqlite"
    text.write_text("shopping list\n" * 100)
    with pytest.raises(UserError, match="not an SQLite database file"):
        GameStore.reader(text)
    with pytest.raises(UserError, match="not an SQLite database file"):
        GameStore(text)


def test_store_docstring_examples():
    assert doctest.testmod(store_module).failed == 0
