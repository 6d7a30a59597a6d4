"""The ``[lights]`` section of the app's config file, validated into a :class:`LightsConfig`.

Every key is optional; the defaults match docs/wiring.md::

    [lights]
    pins = 17, 27, 22, 23, 24     # BCM numbers, ferry 1 to 5 (with rgb = yes: 5/6/13, … triples)
    active_high = yes             # no: LEDs wired from 3.3 V to the pin (common-anode RGB)
    rgb = no                      # yes: an RGB LED per ferry
    buttons = no                  # yes (GPIO 5, 6, 13, 19, 26) or five pins: ferry buttons
    buzzer = no                   # yes (GPIO 25) or a pin: beeps on illegal plays
    pin_factory = auto            # auto, mock (virtual pins), lgpio, rpigpio, pigpio, native

Errors name the key and say how to fix it:

>>> LightsConfig.from_section({"buttons": "yes"}).buttons
(5, 6, 13, 19, 26)
>>> LightsConfig.from_section({"buzzer": "17"})
Traceback (most recent call last):
...
hardware.errors.HardwareError: [lights] GPIO 17 is used twice: by pins (ferry 1) and by buzzer. \
Give each part its own pin (docs/wiring.md lists free ones).
"""

from __future__ import annotations

import configparser
import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points

from hardware.errors import HardwareError
from hardware.patterns import FERRIES

DEFAULT_LED_PINS = (17, 27, 22, 23, 24)  # physical pins 11, 13, 15, 16, 18
DEFAULT_BUTTON_PINS = (5, 6, 13, 19, 26)  # physical pins 29, 31, 33, 35, 37 (ground on 39)
DEFAULT_BUZZER_PIN = 25  # physical pin 22
HEADER_GPIOS = range(28)  # BCM 0–27 are on the 40-pin header

DEFAULTS: dict[str, str] = {
    "pins": ", ".join(map(str, DEFAULT_LED_PINS)),
    "active_high": "yes",
    "rgb": "no",
    "buttons": "no",
    "buzzer": "no",
    "pin_factory": "auto",
}

LedPins = tuple[int, ...] | tuple[tuple[int, int, int], ...]


def pin_factory_names() -> list[str]:
    """The pin factories gpiozero knows here, plus ``auto`` (gpiozero's own choice)."""
    return ["auto", *sorted(ep.name for ep in entry_points(group="gpiozero_pin_factories"))]


@dataclass(frozen=True)
class LightsConfig:
    """Which parts are wired to which BCM pins.

    ``leds`` holds one pin per ferry, or one (red, green, blue) triple per ferry when ``rgb``.

    >>> LightsConfig().leds
    (17, 27, 22, 23, 24)
    """

    leds: LedPins = DEFAULT_LED_PINS
    rgb: bool = False
    active_high: bool = True
    buttons: tuple[int, ...] | None = None
    buzzer: int | None = None
    pin_factory: str = "auto"

    @classmethod
    def from_section(cls, section: Mapping[str, str]) -> LightsConfig:
        """Validate the ``[lights]`` settings (missing keys take :data:`DEFAULTS`)."""
        _reject_unknown_keys(section)
        values = {**DEFAULTS, **{key: str(value).strip() for key, value in section.items()}}
        rgb = _boolean(values, "rgb")
        config = cls(
            leds=_led_pins(values["pins"], rgb),
            rgb=rgb,
            active_high=_boolean(values, "active_high"),
            buttons=_optional_pins(values, "buttons"),
            buzzer=_optional_buzzer(values),
            pin_factory=_pin_factory(values["pin_factory"]),
        )
        config.check_pins_unique()
        return config

    def pin_uses(self) -> list[tuple[int, str]]:
        """Every pin with what it drives, in people's words ("pins (ferry 1, red)")."""
        uses: list[tuple[int, str]] = []
        leds: tuple[int | tuple[int, int, int], ...] = self.leds
        for k, led in enumerate(leds):
            if isinstance(led, tuple):
                named = zip(led, RGB_NAMES, strict=True)
                uses += [(pin, f"pins (ferry {k + 1}, {colour})") for pin, colour in named]
            else:
                uses.append((led, f"pins (ferry {k + 1})"))
        for k, pin in enumerate(self.buttons or ()):
            uses.append((pin, f"buttons (ferry {k + 1})"))
        if self.buzzer is not None:
            uses.append((self.buzzer, "buzzer"))
        return uses

    def check_pins_unique(self) -> None:
        """Raise :class:`HardwareError` naming both users of a pin wired twice."""
        seen: dict[int, str] = {}
        for pin, use in self.pin_uses():
            if pin in seen:
                raise _error(
                    f"GPIO {pin} is used twice: by {seen[pin]} and by {use}.",
                    "Give each part its own pin (docs/wiring.md lists free ones).",
                )
            seen[pin] = use


RGB_NAMES = ("red", "green", "blue")
KEYS = tuple(DEFAULTS)


def _error(what: str, fix: str) -> HardwareError:
    return HardwareError(f"[lights] {what}", fix)


def _reject_unknown_keys(section: Mapping[str, str]) -> None:
    for key in section:
        if key not in DEFAULTS:
            close = difflib.get_close_matches(key, KEYS, n=1)
            hint = f"Did you mean {close[0]!r}? " if close else ""
            raise _error(f"Unknown setting {key!r}.", f"{hint}Known settings: {', '.join(KEYS)}.")


def _boolean(values: Mapping[str, str], key: str) -> bool:
    word = values[key].lower()
    if word not in configparser.ConfigParser.BOOLEAN_STATES:
        raise _error(f"{key} = {values[key]!r} is neither yes nor no.", f"Write {key} = yes or no.")
    return configparser.ConfigParser.BOOLEAN_STATES[word]


def _pin(text: str, key: str) -> int:
    """A BCM number on the 40-pin header: ``17`` or ``GPIO17``."""
    match = re.fullmatch(r"(?:GPIO|BCM)?\s*(\d+)", text.strip(), re.IGNORECASE)
    if match is None or int(match[1]) not in HEADER_GPIOS:
        raise _error(
            f"{key}: {text.strip()!r} is not a GPIO pin.",
            f"Use BCM numbers from 0 to {HEADER_GPIOS[-1]}, like 17 "
            "(that is physical pin 11; see docs/wiring.md).",
        )
    return int(match[1])


def _pin_list(text: str, key: str) -> list[str]:
    items = [item for item in re.split(r"[,\s]+", text.strip()) if item]
    if len(items) != FERRIES:
        raise _error(
            f"{key} lists {len(items)} pins, but there are {FERRIES} ferries.",
            f"Give {FERRIES} pins separated by commas, ferry 1 first.",
        )
    return items


def _led_pins(text: str, rgb: bool) -> LedPins:
    items = _pin_list(text, "pins")
    if not rgb:
        if any("/" in item for item in items):
            raise _error("pins has red/green/blue triples but rgb = no.", "Set rgb = yes.")
        return tuple(_pin(item, "pins") for item in items)
    triples = [item.split("/") for item in items]
    if any(len(triple) != 3 for triple in triples):
        raise _error(
            "With rgb = yes, pins needs a red/green/blue triple for each ferry.",
            "Write them like pins = 4/17/27, 22/5/6, … (docs/wiring.md has a layout).",
        )
    return tuple(tuple(_pin(pin, "pins") for pin in triple) for triple in triples)  # type: ignore[return-value]


def _switch(text: str) -> bool | None:
    """``True``/``False`` for yes/no words (an empty value is no), ``None`` for anything else."""
    if text.lower() in ("", "none"):
        return False
    return configparser.ConfigParser.BOOLEAN_STATES.get(text.lower())


def _optional_pins(values: Mapping[str, str], key: str) -> tuple[int, ...] | None:
    """``buttons``: no, yes (the default pins) or five pins."""
    switch = _switch(values[key])
    if switch is not None:
        return DEFAULT_BUTTON_PINS if switch else None
    return tuple(_pin(item, key) for item in _pin_list(values[key], key))


def _optional_buzzer(values: Mapping[str, str]) -> int | None:
    """``buzzer``: no, yes (the default pin) or one pin."""
    switch = _switch(values["buzzer"])
    if switch is not None:
        return DEFAULT_BUZZER_PIN if switch else None
    return _pin(values["buzzer"], "buzzer")


def _pin_factory(name: str) -> str:
    names = pin_factory_names()
    if name.lower() not in names:
        raise _error(
            f"pin_factory = {name!r} is not a pin library gpiozero has here.",
            f"Use one of: {', '.join(names)} (auto picks lgpio on a Raspberry Pi).",
        )
    return name.lower()
