"""A stand-in for a built release, for the update tests: instead of a venv with the app, a
``noah-companion`` shell script that answers ``--version``, ``doctor --json`` and ``demo`` as a
good or a broken version would (milliseconds instead of minutes of pip), so that the real
checks of :func:`companion.update.check_release` run against it."""

from __future__ import annotations

import json
import os
import signal
from dataclasses import dataclass, field
from pathlib import Path

from companion.update import Clock, Prefix, Updater

GOOD_DOCTOR = {"ready": False, "checks": [
    {"check": "Packages", "status": "ok", "found": "all 15 present", "fix": ""},
    {"check": "Camera", "status": "missing", "found": "No camera found.", "fix": "Plug it in."},
]}
BROKEN_DOCTOR = {"ready": False, "checks": [
    {"check": "Packages", "status": "missing", "found": "kivy is missing.", "fix": "Reinstall."},
]}


def script(version: str, doctor: dict, demo_status: int = 0) -> str:
    return f"""#!/bin/sh
case "$1" in
    --version) echo "noah-companion {version}" ;;
    doctor) echo '{json.dumps(doctor)}'; exit 1 ;;
    demo) exit {demo_status} ;;
    *) exit 2 ;;
esac
"""


@dataclass
class FakeBuilder:
    """Builds a fake release of ``version``; ``kind``: "good", "broken" (its doctor finds a
    package missing), "no-game" (its seeded game fails) or "dies-halfway" (killed mid-build)."""

    version: str = "2.0"
    kind: str = "good"

    def build(self, installable: str, release: Path) -> None:
        bin_folder = release / "venv" / "bin"
        bin_folder.mkdir(parents=True)
        (bin_folder / "python").write_text("#!/bin/sh\nexit 0\n")
        if self.kind == "dies-halfway":  # the power goes while pip writes the files
            os.kill(os.getpid(), signal.SIGKILL)
        doctor = BROKEN_DOCTOR if self.kind == "broken" else GOOD_DOCTOR
        program = bin_folder / "noah-companion"
        program.write_text(script(self.version, doctor, 1 if self.kind == "no-game" else 0))
        program.chmod(0o755)


@dataclass
class FakeService:
    """The app's service as systemd reports it: ``states`` in turn (the last one stays)."""

    states: list[tuple[str, int]] = field(default_factory=lambda: [("active", 0)])
    started: int = 0

    def present(self) -> bool:
        return True

    def restart(self, wait: bool = True) -> None:
        self.started += 1

    def state(self) -> tuple[str, int]:
        return self.states.pop(0) if len(self.states) > 1 else self.states[0]


def fake_clock() -> Clock:
    """A clock that moves only when slept on (no test waits for real)."""
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    return Clock(now=lambda: now[0], sleep=sleep)


def power_cut_at(prefix: Path, source: Path, stop: str) -> None:
    """Update ``prefix`` to version 2.0 from ``source``, and end the process with SIGKILL (no
    clean-up of any kind, as a power cut) at step ``stop`` (see companion.update.STEPS), or in
    the middle of the build ("build-half") or of the switch ("switch-half": between the
    ``previous`` and ``current`` renames)."""
    from companion.update import Source

    def cut(name: str) -> None:
        if name == stop:
            os.kill(os.getpid(), signal.SIGKILL)

    if stop == "switch-half":
        point = Prefix._point

        def point_then_cut(self: Prefix, name: str, target: Path) -> None:
            point(self, name, target)
            if name == "previous":
                os.kill(os.getpid(), signal.SIGKILL)

        Prefix._point = point_then_cut  # type: ignore[method-assign]
    builder = FakeBuilder(kind="dies-halfway" if stop == "build-half" else "good")
    Updater(Prefix(prefix), builder, service=FakeService(), clock=fake_clock(), step=cut).update(
        Source.parse(str(source)))
