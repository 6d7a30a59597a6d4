"""Updates that cannot brick the box: the releases beside each other, one atomic switch, a way
back (``noah-companion update``; docs/raspberry-pi.md, section 11).

A family's Pi is updated by someone who is not there, so the version that runs is never touched
until the new one has proved itself:

1. **build**: the new version is installed beside the running one, in its own folder under the
   install prefix (a venv that sees apt's picamera2 and lgpio, pip pinned to the system's numpy);
2. **check**: its ``doctor`` must find its software whole, and it plays a short seeded game
   (``demo``) in a scratch record; then ``READY`` is written in its folder;
3. **switch**: ``current``, the symbolic link the service starts, is pointed at it with one
   ``rename``: a power cut leaves either the old or the new version whole, never a mix;
4. **trial**: the service restarts on it. Until it has run a minute without failing (``TRIAL``
   in its folder) every start first runs ``update --self-test`` (``ExecStartPre``); if it keeps
   failing, systemd gives up at its start limit and the ``OnFailure=`` unit runs ``update
   --rollback --if-on-trial`` *with the previous version's own program*, which switches back.

Layout (``PREFIX`` is ``/opt/noah-companion``)::

    PREFIX/releases/20261126T161200/venv/  one folder per version, never changed once READY
    PREFIX/current -> releases/…           what the service runs
    PREFIX/previous -> releases/…          what a rollback goes back to
    PREFIX/constraints.txt, PREFIX/source  pip's pins; where updates come from (install.sh)

This module uses the standard library only: deploy/install.sh runs it with the system's Python
from the checkout (``python3 -m companion.update``) to install the first release the same way.

>>> import tempfile
>>> prefix = Prefix(Path(tempfile.mkdtemp()))
>>> release = prefix.new_release()
>>> _ = mark(release, READY)
>>> prefix.switch_to(release)
>>> prefix.current() == release, prefix.previous()
(True, None)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from companion.errors import UserError
from companion.schema_backup import durable

SERVICE = "noah-companion.service"
READY = "READY"  # the release is built and checked: the only kind `current` may point to
TRIAL = "TRIAL"  # switched to, not yet confirmed healthy: the service checks it before starting
VERSION = "VERSION"
TRIAL_SECONDS = 60  # how long the new version must run without failing to be kept
KEEP_RELEASES = 3  # folders kept besides none-too-old ones: current, previous and one more
# Doctor's checks of the software itself: one of these missing refuses the update. The others
# (camera, screen, touch, lights, service) look at the box, which the new version does not change.
SOFTWARE_CHECKS = frozenset({"Python", "Packages", "numpy", "Decoding", "Config", "Deck",
                             "Game record"})
STEPS = ("clean", "build", "check", "ready", "switch", "restart", "watch")


def say(text: str) -> None:
    print(text, flush=True)


# ---- the releases on disk ---------------------------------------------------------------------


def mark(release: Path, name: str, text: str = "") -> Path:
    """Write a marker file in a release folder, durably (before any switch relies on it)."""
    path = release / name
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    durable(release)
    return path


@dataclass(frozen=True)
class Prefix:
    """The install prefix: its release folders and the ``current``/``previous`` links."""

    root: Path

    @property
    def releases(self) -> Path:
        return self.root / "releases"

    def new_release(self) -> Path:
        """A new, empty release folder named after the time (UTC)."""
        self.releases.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
        for count in range(1, 100):
            folder = self.releases / (stamp if count == 1 else f"{stamp}-{count}")
            try:
                folder.mkdir()
                return folder
            except FileExistsError:
                continue
        raise UserError(f"Too many releases named {stamp} in {self.releases}.", "Try again.")

    def _link(self, name: str) -> Path | None:
        link = self.root / name
        if not link.is_symlink():
            return None
        target = (self.root / os.readlink(link)).resolve()
        return target if (target / READY).exists() else None

    def current(self) -> Path | None:
        return self._link("current")

    def previous(self) -> Path | None:
        return self._link("previous")

    def _point(self, name: str, target: Path) -> None:
        """Point ``name`` at ``target`` with one rename (atomic: the old or the new link)."""
        link, staged = self.root / name, self.root / f".{name}.new"
        staged.unlink(missing_ok=True)
        os.symlink(os.path.relpath(target, self.root), staged)
        os.replace(staged, link)
        durable(self.root)

    def switch_to(self, release: Path) -> None:
        """Make ``release`` the current one; what was current becomes the previous one.

        ``previous`` is written first: cut the power between the two renames and both links
        name the old version, which is whole."""
        if not (release / READY).exists():
            raise AssertionError(f"{release} is not ready")  # never point at a half release
        old = self.current()
        if old is not None and old != release:
            self._point("previous", old)
        self._point("current", release)

    def leftovers(self) -> list[Path]:
        """Release folders that are neither current nor previous, oldest first: unfinished
        builds (no READY: an update that was stopped) and versions older than the two kept."""
        keep = {self.current(), self.previous()}
        folders = sorted(self.releases.iterdir()) if self.releases.is_dir() else []
        finished = [f for f in folders if (f / READY).exists() and f not in keep]
        unfinished = [f for f in folders if not (f / READY).exists() and f not in keep]
        spare = max(0, KEEP_RELEASES - len(keep - {None}))
        return unfinished + finished[:max(0, len(finished) - spare)]


def release_version(release: Path) -> str:
    path = release / VERSION
    return path.read_text().strip() if path.exists() else release.name


def describe(release: Path) -> str:
    """A release for people: its version and when it was installed (its folder's name)."""
    return f"{release_version(release)} (releases/{release.name})"


def program(release: Path) -> Path:
    """The ``noah-companion`` command of a release."""
    return release / "venv" / "bin" / "noah-companion"


# ---- where the new version comes from, and how it is built ------------------------------------

_GIT_URL = re.compile(r"^(https?|ssh|git|file)://|^[\w.-]+@[\w.-]+:|\.git/?$")


@dataclass(frozen=True)
class Source:
    """The new version: a git address, a wheel, or a folder with the project in it."""

    kind: str  # "git", "wheel" or "folder"
    where: str

    @classmethod
    def parse(cls, text: str) -> Source:
        """
        >>> Source.parse("https://example.org/club/noah-companion.git").kind
        'git'
        >>> Source.parse("/nowhere/at/all")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        companion.errors.UserError: There is no folder or wheel /nowhere/at/all. Give a git ...
        """
        if _GIT_URL.search(text) and not Path(text).exists():
            return cls("git", text)
        path = Path(text).expanduser()
        if path.is_file() and path.suffix == ".whl":
            return cls("wheel", str(path.resolve()))
        if (path / "pyproject.toml").is_file():
            return cls("folder", str(path.resolve()))
        what = "a folder without pyproject.toml" if path.is_dir() else "no folder or wheel"
        raise UserError(f"There is {what} {text}.",
                        "Give a git address, a .whl file or a folder with the project (its "
                        "pyproject.toml): noah-companion update --from ...")

    @contextmanager
    def installable(self) -> Iterator[str]:
        """What pip installs: a clean copy of a folder or a fresh clone (so that no build files
        land in the club's checkout), or the wheel itself."""
        if self.kind == "wheel":
            yield self.where
            return
        with tempfile.TemporaryDirectory(prefix="noah-update-") as scratch:
            copy = Path(scratch) / "source"
            if self.kind == "git":
                _run_or_refuse(["git", "clone", "--quiet", "--depth", "1", self.where,
                                str(copy)], f"Could not fetch {self.where}")
            else:
                shutil.copytree(self.where, copy, ignore=shutil.ignore_patterns(
                    ".git", ".venv", "__pycache__", "build", "*.egg-info", ".*_cache"))
            yield str(copy)


def _run_or_refuse(command: list[str], what: str, timeout: float = 1800) -> str:
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                check=False)
    except FileNotFoundError as error:
        raise UserError(f"{what}: {command[0]} is not installed.",
                        f"sudo apt install -y {command[0]}") from error
    except subprocess.TimeoutExpired as error:
        raise UserError(f"{what}: no answer after {timeout:.0f} s.",
                        "Check the network, then try again.") from error
    if result.returncode != 0:
        last = (result.stderr.strip() or result.stdout.strip()).splitlines()[-3:]
        raise UserError(f"{what}: {' '.join(last) or f'status {result.returncode}'}.",
                        "Nothing was changed: the running version stays. Fix that, then try "
                        "again.")
    return result.stdout


class Builder(Protocol):
    def build(self, installable: str, release: Path) -> None:
        """Install the app from ``installable`` into ``release`` (its ``venv`` folder)."""


@dataclass(frozen=True)
class VenvBuilder:
    """The real build: a venv with the system's site packages (apt's picamera2 and lgpio),
    pip pinned by the prefix's constraints (the system's numpy)."""

    constraints: Path | None = None

    def build(self, installable: str, release: Path) -> None:
        base = getattr(sys, "_base_executable", sys.executable)  # not a venv's own python
        venv = release / "venv"
        _run_or_refuse([base, "-m", "venv", "--system-site-packages", str(venv)],
                       "The new version's virtual environment could not be made")
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
               "--disable-pip-version-check"]
        if self.constraints is not None and self.constraints.exists():
            pip += ["--constraint", str(self.constraints)]
        _run_or_refuse([*pip, installable], "The new version could not be installed")


# ---- checking a release -----------------------------------------------------------------------


def check_release(release: Path, timeout: float = 900) -> str:
    """Run the release's ``doctor`` and a short seeded game; its version when both pass.

    Raises :class:`UserError` naming what failed (nothing is switched then)."""
    command = str(program(release))
    version = _run_or_refuse([command, "--version"], "The new version does not start").strip()
    report = _run_doctor(command, timeout)
    broken = [check for check in report.get("checks", [])
              if check.get("status") == "missing" and check.get("check") in SOFTWARE_CHECKS]
    if broken:
        found = "; ".join(f"{c['check']}: {c['found']}" for c in broken)
        raise UserError(f"The new version's doctor found its software broken ({found}).",
                        "Nothing was changed: the running version stays.")
    with tempfile.TemporaryDirectory(prefix="noah-update-game-") as scratch:
        _run_or_refuse([command, "demo", "--quiet", "--players", "2", "--seed", "1", "--db",
                        str(Path(scratch) / "games.sqlite")],
                       "The new version could not play a seeded game", timeout)
    return version.removeprefix("noah-companion ").strip()


def _run_doctor(command: str, timeout: float) -> dict:
    try:
        result = subprocess.run([command, "doctor", "--json"], capture_output=True, text=True,
                                timeout=timeout, check=False)
    except subprocess.TimeoutExpired as error:
        raise UserError(f"The new version's doctor gave no answer in {timeout:.0f} s.",
                        "Nothing was changed: the running version stays.") from error
    try:
        if result.returncode not in (0, 1):
            raise ValueError(f"exit status {result.returncode}")
        report = json.loads(result.stdout)
        if not isinstance(report, dict):
            raise ValueError("not a report")
        return report
    except ValueError as error:
        tail = " ".join(result.stderr.strip().splitlines()[-2:])
        raise UserError(f"The new version's doctor does not run ({error}; {tail}).",
                        "Nothing was changed: the running version stays.") from error


# ---- the service ------------------------------------------------------------------------------


class Service(Protocol):
    def present(self) -> bool: ...
    def restart(self, wait: bool = True) -> None: ...
    def state(self) -> tuple[str, int]:
        """ActiveState and NRestarts."""


@dataclass(frozen=True)
class SystemdService:
    unit: str = SERVICE

    def present(self) -> bool:
        if not Path("/run/systemd/system").is_dir() or shutil.which("systemctl") is None:
            return False
        return self._show("LoadState") == "loaded"

    def restart(self, wait: bool = True) -> None:
        """Restart the app afresh (its start limit and restart count cleared). ``wait``: until
        it has started or failed to (the rollback unit must not wait on another unit's job)."""
        subprocess.run(["systemctl", "reset-failed", self.unit], capture_output=True,
                       check=False)
        block = [] if wait else ["--no-block"]
        subprocess.run(["systemctl", "restart", *block, self.unit], capture_output=True,
                       check=False)  # a failed start shows in state(), which is watched

    def state(self) -> tuple[str, int]:
        restarts = self._show("NRestarts")
        return self._show("ActiveState"), int(restarts) if restarts.isdigit() else 0

    def _show(self, name: str) -> str:
        result = subprocess.run(["systemctl", "show", "-p", name, "--value", self.unit],
                                capture_output=True, text=True, check=False)
        return result.stdout.strip()


@dataclass
class Clock:
    now: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep


def came_up_healthy(service: Service, clock: Clock, seconds: float = TRIAL_SECONDS) -> bool:
    """True when the service stays up, never restarted, for ``seconds``; False as soon as it
    fails or restarts (systemd's start limit and the rollback unit take it from there)."""
    deadline = clock.now() + seconds
    while True:
        active, restarts = service.state()
        if active == "failed" or restarts > 0:
            return False
        if clock.now() >= deadline:
            return active == "active"
        clock.sleep(2)


# ---- update and rollback ----------------------------------------------------------------------


@dataclass
class Updater:
    prefix: Prefix
    builder: Builder
    service: Service = field(default_factory=SystemdService)
    clock: Clock = field(default_factory=Clock)
    checker: Callable[[Path], str] = check_release
    before_rollback: Callable[[Path], None] = lambda release: None  # the record's schema
    step: Callable[[str], None] = lambda name: None  # tests stop here (a power cut)
    restart: bool = True  # False: switch only; the next start of the service uses it

    @contextmanager
    def _only_one(self) -> Iterator[None]:
        """One update or rollback at a time on a prefix (a second one is refused)."""
        import fcntl

        self.prefix.root.mkdir(parents=True, exist_ok=True)
        with open(self.prefix.root / ".update.lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError as error:
                raise UserError("Another update or rollback is running on this box.",
                                "Wait until it ends, then look: noah-companion --version"
                                ) from error
            yield

    def update(self, source: Source) -> Path:
        """Install ``source`` beside the running version, check it, switch, watch it start."""
        with self._only_one():
            release = self._install(source)
        self._after_switch(release)
        return release

    def _install(self, source: Source) -> Path:
        self._step("clean")
        self.clean()
        release = self.prefix.new_release()
        self._step("build")
        say(f"Installing the new version in {release} (the running one stays as it is)…")
        with source.installable() as installable:
            self.builder.build(installable, release)
        self._step("check")
        say("Checking it: its doctor, then a short seeded game…")
        version = self.checker(release)
        self._step("ready")
        mark(release, VERSION, version + "\n")
        mark(release, TRIAL)
        mark(release, READY)
        self._step("switch")
        old = self.prefix.current()
        self.prefix.switch_to(release)
        say(f"Switched to {describe(release)}" + (f", from {describe(old)}." if old else "."))
        return release

    def _step(self, name: str) -> None:
        self.step(name)

    def _after_switch(self, release: Path) -> None:
        self._step("restart")
        if not self.restart or not self.service.present():
            (release / TRIAL).unlink()
            say("The new version is used from the app's next start. To go back: "
                "noah-companion update --rollback")
            return
        self.service.restart()
        say(f"Restarted the app; watching it for {TRIAL_SECONDS} s…")
        self._step("watch")
        if came_up_healthy(self.service, self.clock):
            (release / TRIAL).unlink()
            say("Updated: the new version runs. To go back: sudo noah-companion update "
                "--rollback")
            return
        if self.prefix.previous() is None:  # a first install: nothing to go back to
            raise UserError("The app did not come up healthy after its install.",
                            "See why with: sudo journalctl -u noah-companion -b")
        if self.prefix.current() == release:  # the rollback unit has not done it yet
            self.rollback(only_on_trial=True, reason="it did not come up healthy")
        raise UserError("The new version did not come up healthy, so the previous version "
                        "runs again.", "See why with: sudo journalctl -u noah-companion -b")

    def clean(self) -> None:
        """Remove unfinished builds (an update that was stopped) and old versions."""
        for folder in self.prefix.leftovers():
            shutil.rmtree(folder, ignore_errors=True)

    def rollback(self, *, only_on_trial: bool = False, reason: str = "asked by hand") -> Path:
        """Go back to the previous version (the current one becomes the previous one, so a
        second rollback goes forward again). ``only_on_trial``: only if the running version
        has not yet run healthy for a minute (the automatic rollback)."""
        with self._only_one():
            current, previous = self.prefix.current(), self.prefix.previous()
            if only_on_trial and (current is None or not (current / TRIAL).exists()):
                say("The running version is not on trial: it stays.")
                return current or self.prefix.root
            if previous is None:
                raise UserError("There is no previous version to go back to.",
                                "Install one with: noah-companion update --from ...")
            self.before_rollback(previous)
            self._step("switch")
            self.prefix.switch_to(previous)
            if current is not None:
                (current / TRIAL).unlink(missing_ok=True)
            say(f"Went back to {describe(previous)}: {reason}.")
        if self.restart and self.service.present():
            self.service.restart(wait=not only_on_trial)
        return previous


def restore_record_for(release: Path, record: Path) -> None:
    """Before running ``release`` again: if the record's schema is newer than it reads, put
    back the backup taken before the schema moved (the newer record is kept beside it)."""
    from companion.schema_backup import restore_for_schema

    readable = _run_or_refuse(
        [str(release / "venv" / "bin" / "python"), "-c",
         "from companion.session.store import SCHEMA_VERSION; print(SCHEMA_VERSION)"],
        f"Could not ask {release_version(release)} which record it reads")
    restored = restore_for_schema(record, int(readable.strip() or 0))
    if restored is not None:
        say(f"The record's schema is newer than {release_version(release)} reads: put back "
            f"{restored.name} (the newer record is kept beside it).")


# ---- the command line -------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    """``noah-companion update``: the options of :mod:`companion.commands.update`."""
    try:
        return _run(args)
    except OSError as error:  # not root, a full disk: the links were never half switched
        where = error.filename or args.prefix
        raise UserError(f"The update could not write {where}: {error.strerror}.",
                        "Run it as an administrator (sudo noah-companion update), with room on "
                        "the SD card; the running version stays as it was.") from error


def _run(args: argparse.Namespace) -> int:
    prefix = Prefix(args.prefix)
    if args.self_test:
        return self_test(prefix)
    if args.rollback and not prefix.releases.is_dir():
        raise UserError(f"No version was installed in {prefix.root} by an update.",
                        "Install one with: noah-companion update --from GIT-URL|WHEEL|DIR")
    record = args.db
    updater = Updater(prefix, VenvBuilder(args.prefix / "constraints.txt"),
                      before_rollback=lambda release: restore_record_for(
                          release, record or _record_path()),
                      restart=not args.no_restart)
    if args.rollback:
        reason = "the new version failed to start" if args.if_on_trial else "asked by hand"
        updater.rollback(only_on_trial=args.if_on_trial, reason=reason)
        return 0
    source = Source.parse(args.source or _recorded_source(prefix))
    updater.update(source)
    _remember_source(prefix, source)
    return 0


def _on_trial(prefix: Prefix) -> bool:
    current = prefix.current()
    return current is not None and (current / TRIAL).exists()


def _record_path() -> Path:
    from companion.config import load_config

    return Path(load_config().store.path)


def _recorded_source(prefix: Prefix) -> str:
    recorded = prefix.root / "source"
    if recorded.exists() and recorded.read_text().strip():
        return recorded.read_text().strip()
    raise UserError("Where from? No source was recorded at the install.",
                    "Say it: noah-companion update --from GIT-URL|WHEEL|DIR")


def _remember_source(prefix: Prefix, source: Source) -> None:
    """The next ``update`` without ``--from`` comes from the same place (not a wheel: the
    next version is another file)."""
    if source.kind != "wheel":
        (prefix.root / "source").write_text(source.where + "\n")


def self_test(prefix: Prefix) -> int:
    """The service's ``ExecStartPre``: nothing to do unless the running version is on trial;
    then import every command, Kivy and the app, and play one simulated game (a few seconds)."""
    if not _on_trial(prefix):
        return 0
    import importlib

    from companion.cli import build_parser
    from companion.game import Options
    from companion.game.simulate import run_game
    from companion.ui.environment import kivy_home

    build_parser()  # every command's module
    os.environ.setdefault("KIVY_HOME", str(kivy_home()))  # the app's own, not ~/.kivy
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")  # its lines through the CLI's quiet log
    for module in ("kivy", "kivy.core.text", "companion.ui.app"):  # Kivy's wheel works here
        importlib.import_module(module)
    result = run_game(index=0, seed="self-test", players=2, options=Options())
    if result.failure is not None:
        print(f"noah-companion: self-test: {result.failure}", file=sys.stderr)
        return 1
    print("noah-companion: self-test passed (the version on trial)", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python3 -m companion.update``: deploy/install.sh installs a release with it."""
    from companion.commands.update import add_arguments

    parser = argparse.ArgumentParser(prog="python3 -m companion.update")
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except UserError as error:
        print(f"noah-companion: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
