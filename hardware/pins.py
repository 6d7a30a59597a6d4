"""Choosing gpiozero's pin factory, and explaining in plain words why one cannot start.

On a Raspberry Pi, ``auto`` lets gpiozero pick (lgpio on Bookworm and the Pi 5, honouring
``GPIOZERO_PIN_FACTORY``); ``mock`` gives virtual pins that can dim (``MockPWMPin``), so the same
code runs anywhere:

>>> factory = open_pin_factory("mock")
>>> type(factory).__name__, factory.pin_class.__name__
('MockFactory', 'MockPWMPin')
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

from gpiozero import Device
from gpiozero.exc import PinFactoryFallback
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.errors import HardwareError


def open_pin_factory(name: str) -> Factory:
    """The pin factory called ``name`` (``auto``, ``mock``, ``lgpio``, …), ready to use.

    Raises :class:`HardwareError` with the fix when it cannot start.
    """
    if name == "mock":
        return MockFactory(pin_class=MockPWMPin)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PinFactoryFallback)  # the diagnosis says it better
            if name == "auto":
                Device.ensure_pin_factory()
                return Device.pin_factory
            factory_class = entry_points(group="gpiozero_pin_factories")[name].load()
            return factory_class()
    except Exception as error:  # each library fails its own way (ImportError, OSError, lgpio.error)
        raise explain_factory_failure(error, GpioHost.probe()) from error


@dataclass(frozen=True)
class GpioHost:
    """What this computer offers for GPIO: its board model and its gpiochip devices."""

    model: str | None
    chips: tuple[str, ...]
    unusable_chips: tuple[str, ...]  # present, but this user may not open them

    @property
    def is_raspberry_pi(self) -> bool:
        return self.model is not None and "Raspberry Pi" in self.model

    @classmethod
    def probe(cls) -> GpioHost:
        model_file = Path("/proc/device-tree/model")
        model = model_file.read_text(errors="replace").strip("\0\n") if model_file.exists() \
            else None
        chips = tuple(sorted(str(chip) for chip in Path("/dev").glob("gpiochip*")))
        unusable = tuple(chip for chip in chips if not os.access(chip, os.R_OK | os.W_OK))
        return cls(model, chips, unusable)


def explain_factory_failure(error: Exception, host: GpioHost) -> HardwareError:
    """Turn a pin-factory failure into what happened and what to do.

    >>> host = GpioHost("Raspberry Pi 4 Model B Rev 1.5", ("/dev/gpiochip0",), ("/dev/gpiochip0",))
    >>> print(explain_factory_failure(OSError("can not open gpiochip"), host).fix)
    Add your user to the gpio group (sudo usermod -aG gpio $USER), then log out and in again \
(deploy/install.sh does this for the service's user).
    """
    if not host.chips and not host.is_raspberry_pi:
        return HardwareError(
            "This computer has no GPIO pins (it is not a Raspberry Pi), so the ferry lights "
            "cannot be driven.",
            "Set pin_factory = mock in [lights] to use virtual lights, or start the app with "
            "--simulate.",
        )
    if host.unusable_chips:
        return HardwareError(
            f"This user may not open {host.unusable_chips[0]}, so the ferry lights cannot be "
            "driven.",
            "Add your user to the gpio group (sudo usermod -aG gpio $USER), then log out and in "
            "again (deploy/install.sh does this for the service's user).",
        )
    if isinstance(error, ImportError):
        return HardwareError(
            f"gpiozero cannot load its pin library ({error}).",
            "On Raspberry Pi OS: sudo apt install python3-lgpio, and make the virtual environment "
            "with --system-site-packages (or pip install lgpio).",
        )
    return HardwareError(
        f"gpiozero could not open the GPIO pins ({error}).",
        "Check pin_factory in [lights] (auto picks lgpio on a Raspberry Pi), or set "
        "pin_factory = mock to try without hardware.",
    )
