"""``noah-companion update``: a new version beside the running one, checked, switched with one
atomic rename, rolled back by hand or by itself (issue 20, section 5).

Releases here are fake (tests/deploy/fake_release.py: a shell script for a program), so the
real checks run in milliseconds; the real build (a venv, pip) is exercised by
``deploy/test-arm64.sh`` in the emulated Raspberry Pi OS root. A power cut is a SIGKILL of a
process in the middle of an update: no ``finally``, no clean-up.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
from pathlib import Path

import pytest

from companion.errors import UserError
from companion.update import (
    READY,
    STEPS,
    TRIAL,
    Prefix,
    Source,
    Updater,
    main,
    program,
    release_version,
    self_test,
)
from tests.deploy.fake_release import FakeBuilder, FakeService, fake_clock, power_cut_at


@pytest.fixture
def source(tmp_path: Path) -> Path:
    folder = tmp_path / "checkout"
    folder.mkdir()
    (folder / "pyproject.toml").write_text("[project]\nname = 'noah-companion'\n")
    return folder


def updater(prefix: Path, builder: FakeBuilder, service: FakeService | None = None) -> Updater:
    return Updater(Prefix(prefix), builder, service=service or FakeService(),
                   clock=fake_clock())


@pytest.fixture
def installed(tmp_path: Path, source: Path) -> Prefix:
    """A prefix where version 1.0 runs."""
    updater(tmp_path / "opt", FakeBuilder("1.0")).update(Source.parse(str(source)))
    return Prefix(tmp_path / "opt")


def versions(prefix: Prefix) -> tuple[str | None, str | None]:
    current, previous = prefix.current(), prefix.previous()
    return (release_version(current) if current else None,
            release_version(previous) if previous else None)


def test_a_good_update_switches_after_its_checks_and_keeps_the_old_version(installed, source):
    service = FakeService()
    release = updater(installed.root, FakeBuilder("2.0"), service).update(
        Source.parse(str(source)))

    assert versions(installed) == ("2.0", "1.0")
    assert (installed.root / "current").is_symlink()
    assert service.started == 1
    assert not (release / TRIAL).exists()  # ran a (fake) minute healthy: confirmed
    assert (release / READY).exists() and program(release).exists()


@pytest.mark.parametrize("kind", ["broken", "no-game"])
def test_a_broken_version_is_refused_and_the_running_one_stays(installed, source, kind):
    service = FakeService()
    with pytest.raises(UserError, match="Nothing was changed"):
        updater(installed.root, FakeBuilder("2.0", kind), service).update(
            Source.parse(str(source)))

    assert versions(installed) == ("1.0", None)
    assert service.started == 0
    # The refused build is left unfinished (no READY), and the next update clears it away.
    assert sum(not (f / READY).exists() for f in installed.releases.iterdir()) == 1
    updater(installed.root, FakeBuilder("2.1")).update(Source.parse(str(source)))
    assert all((f / READY).exists() for f in installed.releases.iterdir())
    assert versions(installed) == ("2.1", "1.0")


def test_a_version_that_does_not_come_up_healthy_is_rolled_back_by_itself(installed, source):
    service = FakeService([("active", 0), ("activating", 1)])  # it crashed and restarts
    with pytest.raises(UserError, match="previous version runs again"):
        updater(installed.root, FakeBuilder("2.0"), service).update(Source.parse(str(source)))

    assert versions(installed) == ("1.0", "2.0")
    assert service.started == 2  # onto 2.0, then back onto 1.0
    assert not (installed.previous() / TRIAL).exists()


def test_a_first_install_that_does_not_come_up_says_where_to_look(tmp_path, source):
    service = FakeService([("failed", 0)])
    with pytest.raises(UserError, match="journalctl"):
        updater(tmp_path / "opt", FakeBuilder("1.0"), service).update(Source.parse(str(source)))
    assert versions(Prefix(tmp_path / "opt")) == ("1.0", None)  # nothing else to run


def test_rollback_by_hand_goes_back_and_a_second_one_forward_again(installed, source):
    updater(installed.root, FakeBuilder("2.0")).update(Source.parse(str(source)))
    back = updater(installed.root, FakeBuilder())

    back.rollback()
    assert versions(installed) == ("1.0", "2.0")
    back.rollback()
    assert versions(installed) == ("2.0", "1.0")


def test_the_automatic_rollback_leaves_a_version_that_passed_its_trial_alone(installed, source):
    updater(installed.root, FakeBuilder("2.0")).update(Source.parse(str(source)))
    service = FakeService()

    updater(installed.root, FakeBuilder(), service).rollback(only_on_trial=True)

    assert versions(installed) == ("2.0", "1.0")
    assert service.started == 0


def test_rollback_with_nothing_to_go_back_to_says_so(installed):
    with pytest.raises(UserError, match="no previous version"):
        updater(installed.root, FakeBuilder()).rollback()
    assert versions(installed) == ("1.0", None)


@pytest.mark.parametrize("stop", ["build-half", "ready", "switch-half", "watch"])
def test_a_power_cut_at_any_moment_leaves_one_whole_version(installed, source, stop):
    """Killed (SIGKILL) in the middle of the build, after the checks and before the markers,
    between the two renames of the switch, and while the new version is watched (each step of
    companion.update.STEPS works the same way): ``current`` names a whole version, 1.0 or 2.0,
    and the next update finishes the job and clears what the cut left."""
    child = os.fork()  # the update runs in a child process, which is killed
    if child == 0:
        try:
            with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
                power_cut_at(installed.root, source, stop)
        finally:
            os._exit(0)  # not cut: the test fails below
    _, status = os.waitpid(child, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL  # really cut

    current = installed.current()
    assert current is not None and (current / READY).exists() and program(current).exists()
    switched = stop in STEPS and STEPS.index(stop) > STEPS.index("switch")
    assert release_version(current) == ("2.0" if switched else "1.0")

    updater(installed.root, FakeBuilder("3.0")).update(Source.parse(str(source)))
    assert versions(installed)[0] == "3.0"
    assert all((folder / READY).exists() for folder in installed.releases.iterdir())


def test_old_versions_are_cleared_but_current_previous_and_one_more_kept(installed, source):
    for version in ("2.0", "3.0", "4.0", "5.0"):
        updater(installed.root, FakeBuilder(version)).update(Source.parse(str(source)))
    kept = sorted(release_version(folder) for folder in installed.releases.iterdir())
    # 5.0 and 4.0 (current, previous) were kept at the last update, with 3.0 and 2.0 (the
    # spare and the new one's predecessor), 1.0 cleared.
    assert "1.0" not in kept and {"4.0", "5.0"} <= set(kept)
    assert len(kept) <= 4


def test_a_second_update_at_the_same_time_is_refused(installed, source):
    first = updater(installed.root, FakeBuilder())
    with first._only_one(), pytest.raises(UserError, match="Another update"):
        updater(installed.root, FakeBuilder("2.0")).update(Source.parse(str(source)))
    assert versions(installed) == ("1.0", None)


def test_sources_are_a_folder_a_wheel_or_a_git_address(tmp_path, source):
    wheel = tmp_path / "noah_companion-2.0-py3-none-any.whl"
    wheel.write_bytes(b"")
    assert Source.parse(str(source)).kind == "folder"
    assert Source.parse(str(wheel)).kind == "wheel"
    assert Source.parse("git@example.org:club/noah-companion.git").kind == "git"
    with pytest.raises(UserError, match=r"without pyproject\.toml"):
        Source.parse(str(tmp_path))


def test_the_self_test_is_instant_once_the_trial_is_over(installed):
    assert self_test(installed) == 0  # nothing imported, nothing played


def test_the_command_line_refuses_a_rollback_where_nothing_was_installed(tmp_path, capsys):
    assert main(["--rollback", "--prefix", str(tmp_path / "nothing")]) == 2
    assert capsys.readouterr().err.startswith("noah-companion: No version was installed in")
    assert not (tmp_path / "nothing").exists()


# ---- the game record's schema moves forward only with a backup ---------------------------------


def record_with_a_game(path: Path) -> None:
    from companion.session.store import GameStore

    with GameStore(path) as store:
        store.create_game({"format": "noah-table-log", "version": 1, "players": ["Ana", "Ben"],
                           "options": {}})


def games_in(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT count(*) FROM games").fetchone()[0])
    finally:
        db.close()


def test_a_newer_schema_is_written_only_after_a_backup_and_a_rollback_puts_it_back(
        tmp_path, monkeypatch):
    from companion import schema_backup
    from companion.session import store

    record = tmp_path / "games.sqlite"
    record_with_a_game(record)
    monkeypatch.setattr(store, "SCHEMA_VERSION", 2)  # the new version's schema
    record_with_a_game(record)  # opened by the new version: schema 2, two games

    assert schema_backup.schema_version(record) == 2
    [backup] = schema_backup.backups(record)
    assert ".schema-1." in backup.name and games_in(backup) == 1

    restored = schema_backup.restore_for_schema(record, readable=1)  # back to the old version

    assert restored == backup
    assert schema_backup.schema_version(record) == 1 and games_in(record) == 1
    [newer] = tmp_path.glob("games.sqlite.schema-2.*.newer")
    assert games_in(newer) == 2  # kept, not deleted


def test_no_migration_without_its_backup(tmp_path, monkeypatch):
    from companion import schema_backup
    from companion.session import store

    record = tmp_path / "games.sqlite"
    record_with_a_game(record)
    monkeypatch.setattr(store, "SCHEMA_VERSION", 2)

    def full_disk(path: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(schema_backup, "durable", full_disk)
    with pytest.raises(UserError, match="backup could not be written"):
        record_with_a_game(record)

    assert schema_backup.schema_version(record) == 1 and games_in(record) == 1
    assert schema_backup.backups(record) == []


def test_an_update_that_cannot_write_says_so_in_a_sentence(source, capsys):
    assert main(["--from", str(source), "--prefix", "/proc/no-such-place/opt"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("noah-companion: The update could not write /proc/no-such-place")
    assert "sudo noah-companion update" in err and "Traceback" not in err
