"""Ferry lights, ferry buttons and buzzer on gpiozero for the Noah Table Companion.

The referee tells this package what to show; it knows nothing of the game's rules and never
imports :mod:`companion`. Positions are 0–4 (table-log positions); people read ferry 1–5.

>>> from hardware import FerryLights, LightsConfig
>>> with FerryLights(LightsConfig(pin_factory="mock")) as lights:
...     lights.show_noah(2)
...     lights.snapshot()[2]
FerryLight(ferry=2, brightness=1.0, colour=None, pattern='noah')
"""

from hardware.config import DEFAULTS, LightsConfig
from hardware.errors import HardwareError
from hardware.lights import FerryLights, Snapshot, release_on_exit
from hardware.patterns import FERRIES, FerryLight

__all__ = [
    "DEFAULTS",
    "FERRIES",
    "FerryLight",
    "FerryLights",
    "HardwareError",
    "LightsConfig",
    "Snapshot",
    "release_on_exit",
]
