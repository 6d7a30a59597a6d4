"""The ``[ui]`` section of the config file and the JSON panels of Kivy's settings panel.

::

    [ui]
    language = fr        # en or fr (any language with a catalog in companion/ui/locales)
    sounds = yes         # a short sound with the red banner of a refused play
    rotation = 0         # 180 when the screen is mounted upside down
    fullscreen = yes     # no: a window (on a laptop)

>>> validate_ui({"language": "fr", "rotation": "180"}).rotation
180
>>> validate_ui({"langage": "fr"})
Traceback (most recent call last):
...
companion.errors.UserError: [ui] has no setting 'langage' (did you mean 'language'?). \
Fix the config file (language, sounds, rotation, fullscreen are known).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.config import reject_unknown, setting_error, yes_or_no
from companion.ui.i18n import languages

UI_KEYS = ("language", "sounds", "rotation", "fullscreen")
UI_DEFAULTS = {"language": "en", "sounds": "yes", "rotation": "0", "fullscreen": "yes"}


@dataclass(frozen=True)
class UiSettings:
    """The validated ``[ui]`` section."""

    language: str = "en"
    sounds: bool = True
    rotation: int = 0
    fullscreen: bool = True


def validate_ui(values: Mapping[str, str]) -> UiSettings:
    """Validate ``[ui]``; an error names the key and says what to write."""
    reject_unknown("ui", values, UI_KEYS)
    merged = {**UI_DEFAULTS, **values}
    language = merged["language"].strip().lower()
    if language not in languages():
        raise setting_error("ui", f"language = {language!r} has no translation.",
                     f"Write language = {' or '.join(languages())}.")
    rotation = merged["rotation"].strip()
    if rotation not in ("0", "180"):
        raise setting_error("ui", f"rotation = {rotation!r} is not 0 or 180.",
                     "Write rotation = 180 for a screen mounted upside down, else 0.")
    return UiSettings(language, yes_or_no("ui", "sounds", merged["sounds"]), int(rotation),
                      yes_or_no("ui", "fullscreen", merged["fullscreen"]))




SECTION_DEFAULTS: dict[str, dict[str, str]] = {
    "ui": UI_DEFAULTS,
    "camera": {"source": "auto"},
    "decoder": {"name": "zxing"},
    "lights": {"pins": "17, 27, 22, 23, 24", "buttons": "no", "buzzer": "no", "rgb": "no"},
}
"""What the settings panel shows for a key the config file does not set."""


def panels(catalog: Any = None) -> list[tuple[str, str]]:
    """Kivy settings panels as ``(title, JSON)``: app, camera and decoder, lights, worded by
    ``catalog`` (:class:`~companion.ui.i18n.Catalog`) where it has ``settings.*`` keys.

    >>> [title for title, _data in panels()]
    ['Noah', 'Camera', 'Lights']
    """

    def say(key: str, english: str) -> str:
        return catalog.text(key) if catalog is not None and catalog.has(key) else english

    def _item(kind: str, title: str, section: str, key: str, desc: str, **extra: Any) -> dict:
        return {"type": kind, "title": say(f"settings.{section}.{key}", title),
                "section": section, "key": key,
                "desc": say(f"settings.{section}.{key}.desc", desc), **extra}

    app = [
        _item("options", "Language / Langue", "ui", "language", "Words on the screen",
              options=languages()),
        _item("bool", "Sounds", "ui", "sounds", "A short sound when a play is refused",
              values=["no", "yes"]),
        _item("options", "Rotation", "ui", "rotation", "180 if the screen is upside down",
              options=["0", "180"]),
        _item("bool", "Full screen", "ui", "fullscreen", "No: run in a window",
              values=["no", "yes"]),
    ]
    camera = [
        _item("options", "Camera", "camera", "source", "Which camera films the table",
              options=["auto", "picamera2", "usb", "synthetic"]),
        _item("options", "QR decoder", "decoder", "name", "zxing reads more codes; zbar is the "
              "fallback", options=["zxing", "zbar"]),
    ]
    lights = [
        _item("string", "LED pins", "lights", "pins", "BCM numbers, ferry 1 to 5"),
        _item("bool", "Ferry buttons", "lights", "buttons", "Buttons at the ferries",
              values=["no", "yes"]),
        _item("bool", "RGB LEDs", "lights", "rgb", "An RGB LED per ferry", values=["no", "yes"]),
        _item("string", "Buzzer", "lights", "buzzer", "no, yes (GPIO 25) or a pin"),
    ]
    return [(say("settings.panel.app", "Noah"), json.dumps(app)),
            (say("settings.panel.camera", "Camera"), json.dumps(camera)),
            (say("settings.panel.lights", "Lights"), json.dumps(lights))]
