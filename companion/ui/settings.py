"""The ``[ui]`` section of the config file, and the check of a change the settings page makes.

::

    [ui]
    language = fr        # en or fr (any language with a catalog in companion/locales)
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

import configparser
import io
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.config import (
    SECTIONS,
    Config,
    load_config,
    reject_unknown,
    setting_error,
    yes_or_no,
)
from companion.i18n import Catalog, languages

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
                            f"Write language = {' or '.join(languages())}.",
                            key="config.ui_language", value=language,
                            choices=" / ".join(languages()))
    rotation = merged["rotation"].strip()
    if rotation not in ("0", "180"):
        raise setting_error("ui", f"rotation = {rotation!r} is not 0 or 180.",
                            "Write rotation = 180 for a screen mounted upside down, else 0.",
                            key="config.ui_rotation", value=rotation)
    return UiSettings(language, yes_or_no("ui", "sounds", merged["sounds"]), int(rotation),
                      yes_or_no("ui", "fullscreen", merged["fullscreen"]))


SECTION_DEFAULTS: dict[str, dict[str, str]] = {
    "ui": UI_DEFAULTS,
    "camera": {"source": "auto", "view": "hand", "table_source": "auto"},
    "decoder": {"name": "zxing"},
    "lights": {"pins": "17, 27, 22, 23, 24", "buttons": "no", "buzzer": "no", "rgb": "no"},
    "store": {"path": ""},
}
"""What the settings page shows for a key the config file does not set."""


def checked_change(config_file: Path, section: str, key: str, value: str) -> None:
    """Check that the config file at ``config_file`` stays valid with ``key = value`` in
    ``[section]``: the whole file is read as the app reads it at start
    (:func:`~companion.config.load_config`) and the changed section validated by its owner
    (``[ui]`` here, ``[lights]`` by hardware, ``[camera]``/``[decoder]`` by vision, ``[game]``
    and ``[store]`` by the config). Its :class:`UserError` is the config's own sentence; the
    caller writes nothing then.

    >>> import tempfile
    >>> ini = Path(tempfile.mkdtemp()) / "companion.ini"
    >>> checked_change(ini, "ui", "sounds", "no")
    >>> checked_change(ini, "lights", "pins", "17, 17")
    Traceback (most recent call last):
    ...
    companion.errors.UserError: [lights] ...
    """
    current = load_config(config_file)
    sections = {name: current.section(name) for name in SECTIONS}
    sections[section][key] = value
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_dict({name: values for name, values in sections.items() if values})
    text = io.StringIO()
    parser.write(text)
    changed = Config.from_text(text.getvalue(), config_file)  # checks [game] and [store]
    if section not in ("game", "store"):
        changed.validated(section, validate_ui if section == "ui" else None)


ON_OFF = (("yes", "settings.on"), ("no", "settings.off"))


@dataclass(frozen=True)
class Setting:
    """One key of the config file as the page offers it: ``choices`` are ``(value, catalog
    key)`` pairs shown as big toggle buttons; no choices means a line of text."""

    section: str
    key: str
    choices: tuple[tuple[str, str], ...] = ()

    @property
    def words(self) -> str:
        """The catalog key of its title (``…desc`` is its one-line explanation)."""
        return f"settings.{self.section}.{self.key}"


EVERYDAY = (
    Setting("ui", "sounds", ON_OFF),
    Setting("ui", "rotation", (("180", "settings.on"), ("0", "settings.off"))),
)
TECHNICAL = (
    Setting("ui", "fullscreen", ON_OFF),
    Setting("camera", "source", tuple((name, f"settings.camera.source.{name}")
                                      for name in ("auto", "picamera2", "usb", "synthetic"))),
    Setting("camera", "view", tuple((name, f"settings.camera.view.{name}")
                                    for name in ("hand", "table", "both"))),
    Setting("camera", "table_source"),
    Setting("decoder", "name", (("zxing", "settings.decoder.name.zxing"),
                                ("zbar", "settings.decoder.name.zbar"))),
    Setting("lights", "pins"),
    Setting("lights", "buttons", ON_OFF),
    Setting("lights", "rgb", ON_OFF),
    Setting("lights", "buzzer"),
    Setting("store", "path"),
)


def language_names() -> list[tuple[str, str]]:
    """Each language with a catalog, named in itself: ``('fr', 'Français')``.

    >>> ("en", "English") in language_names()
    True
    """
    return [(code, Catalog(code).text("_language")) for code in languages()]
