"""The machine around the app: the screen's backlight and shutting the Raspberry Pi down.

No game rules and no Kivy here, so both are tested with a fake sysfs folder and a fake runner.

The backlight is the kernel's ``/sys/class/backlight/<device>/`` (the official 7" display is
``rpi_backlight`` on older systems, ``10-0045`` on Bookworm; a DSI panel on a Pi 5 has its own
name): ``max_brightness`` says the scale, ``brightness`` is read and written. Writing needs the
udev rule that deploy/install.sh installs (the ``video`` group may write it). ::

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = fake_backlight(folder, "10-0045", brightness=255, maximum=255)
    >>> light = Backlight.find(folder)
    >>> light.name, light.percent()
    ('10-0045', 100)
    >>> light.set_percent(50); light.percent()
    50
    >>> Backlight.find(folder / "nothing") is None
    True

Shutting down asks systemd (``systemctl poweroff``, which asks logind over D-Bus); polkit lets
the service's user do it (the rule deploy/install.sh installs). Anywhere else the refusal is a
:class:`~companion.errors.UserError`, never a traceback. ::

    >>> calls = []
    >>> power_off(lambda command: calls.append(command) or (0, ""))
    >>> calls
    [['systemctl', '--no-ask-password', 'poweroff']]
    >>> power_off(lambda command: (1, "Access denied"))
    Traceback (most recent call last):
    ...
    companion.errors.UserError: This computer did not let the app shut it down (Access denied). \
Switch it off yourself, or install the app with deploy/install.sh, which allows it.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.errors import UserError

BACKLIGHTS = Path("/sys/class/backlight")
ENV_BACKLIGHTS = "NOAH_COMPANION_BACKLIGHTS"
"""An environment variable naming another folder of backlights (tests, screenshots)."""
PREFERRED = ("rpi_backlight", "10-0045", "11-0045")
"""The official 7" display's device names: chosen first when a machine has several."""
MIN_PERCENT = 10
"""The dimmest the settings page goes: a black screen could not be turned up again by touch."""
POWER_OFF = ["systemctl", "--no-ask-password", "poweroff"]

Runner = Callable[[Sequence[str]], tuple[int, str]]
"""Runs a command: its exit status and what it printed (stdout and stderr)."""


@dataclass(frozen=True)
class Backlight:
    """One backlight device folder in sysfs."""

    folder: Path

    @property
    def name(self) -> str:
        return self.folder.name

    @classmethod
    def find(cls, root: Path | None = None) -> Backlight | None:
        """The screen's backlight under ``root`` (``$NOAH_COMPANION_BACKLIGHTS``, else
        ``/sys/class/backlight``), the official display's first; ``None`` when there is none
        that can be read (a laptop's desktop, an HDMI screen, a container)."""
        root = root or Path(os.environ.get(ENV_BACKLIGHTS) or BACKLIGHTS)
        try:
            folders = sorted(root.iterdir(), key=lambda p: (p.name not in PREFERRED, p.name))
        except OSError:
            return None
        for folder in folders:
            light = cls(folder)
            try:
                if light.maximum() > 0:
                    return light
            except (OSError, ValueError):
                continue
        return None

    def maximum(self) -> int:
        return int((self.folder / "max_brightness").read_text().strip())

    def percent(self) -> int:
        """The brightness now, 0–100."""
        return round(100 * int((self.folder / "brightness").read_text().strip())
                     / self.maximum())

    def set_percent(self, percent: float) -> None:
        """Set the brightness (at least :data:`MIN_PERCENT`); a :class:`UserError` when the
        app may not write it."""
        percent = max(MIN_PERCENT, min(100, percent))
        value = max(1, round(self.maximum() * percent / 100))
        try:
            (self.folder / "brightness").write_text(f"{value}\n")
        except OSError as error:
            raise UserError(
                f"The screen's brightness cannot be changed ({error.strerror}).",
                "Install the app with deploy/install.sh, which lets it set the brightness, "
                "then restart the Raspberry Pi.", key="system.brightness_denied") from None


def run_command(command: Sequence[str]) -> tuple[int, str]:
    """The real :data:`Runner`: runs ``command`` for at most 30 s."""
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, timeout=30,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return 1, str(getattr(error, "strerror", None) or error)
    return done.returncode, (done.stderr or done.stdout).strip()


def power_off(runner: Runner = run_command) -> None:
    """Ask systemd to shut the machine down; a :class:`UserError` when it refuses (no polkit
    rule for this user, no systemd, a container)."""
    status, output = runner(POWER_OFF)
    if status != 0:
        reason = (output.splitlines() or ["no reason given"])[-1].strip().rstrip(".")
        raise UserError(
            f"This computer did not let the app shut it down ({reason}).",
            "Switch it off yourself, or install the app with deploy/install.sh, which allows it.",
            key="system.power_off_denied")


def fake_backlight(root: Path, name: str, *, brightness: int, maximum: int) -> Path:
    """A backlight folder as sysfs has it, for tests and screenshots."""
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "max_brightness").write_text(f"{maximum}\n")
    (folder / "brightness").write_text(f"{brightness}\n")
    return folder
