"""The app's config file: one INI file in the user's config directory, shared with Kivy's
settings panel.

Sections ``[game] [camera] [decoder] [lights] [store] [ui]``; every key is optional. Each part
validates its own section from a ``Mapping[str, str]`` and names the bad key in its error:
``[game]`` and ``[store]`` are validated here, ``[lights]`` by :mod:`hardware.config`,
``[camera]`` and ``[decoder]`` by :mod:`vision`, ``[ui]`` by :mod:`companion.ui`. A part's
validator is imported only when its section is asked for, so reading ``[store]`` never loads
OpenCV or gpiozero. ::

    [game]
    players = Ana, Ben, Chloé      # the names offered for a new game
    end_rule = rounds              # rounds (3 rounds) or score26
    frog = no                      # promo animals and variants (R6, R27, R47)
    crocodile = no
    roommates = no
    pair_mf = no
    score_only = no                # yes: no camera, tears typed by touch
    deck = default                 # or the path of your box's deck CSV
    deck_id = BOX1                 # the id printed on your stickers

    [store]
    path =                         # empty: games.sqlite in the user's data directory

>>> config = Config.from_text("[game]\\nplayers = Ana, Ben\\nfrog = yes\\n")
>>> config.game.players, config.game.options().frog
(('Ana', 'Ben'), True)
>>> Config.from_text("[game]\\nfrogs = yes\\n")
Traceback (most recent call last):
...
companion.errors.UserError: [game] has no setting 'frogs' (did you mean 'frog'?). Fix the \
config file (...).
"""

from __future__ import annotations

import configparser
import difflib
import importlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import UserError

SECTIONS = ("game", "camera", "decoder", "lights", "store", "ui")
ENV_CONFIG = "NOAH_COMPANION_CONFIG"
"""An environment variable that, when set, names the config file to use instead."""

_TRUE = {"yes", "true", "on", "1"}
_FALSE = {"no", "false", "off", "0", ""}

# The other parts' validators: section -> (module, attribute path), imported on demand.
PART_VALIDATORS: dict[str, tuple[str, str]] = {
    "lights": ("hardware.config", "LightsConfig.from_section"),
    "camera": ("vision.config", "camera_settings"),
    "decoder": ("vision.config", "decoder_settings"),
    "ui": ("companion.ui.settings", "validate_ui"),
}


def config_path() -> Path:
    """Where the config file lives: ``$NOAH_COMPANION_CONFIG``, or ``companion.ini`` in the
    user's config directory (``~/.config/noah-companion`` on Linux)."""
    if os.environ.get(ENV_CONFIG):
        return Path(os.environ[ENV_CONFIG])
    import platformdirs

    return Path(platformdirs.user_config_dir("noah-companion", appauthor=False)) / "companion.ini"


def _error(section: str, what: str, fix: str = "") -> UserError:
    return UserError(f"[{section}] {what}", fix or "Fix the config file (see docs/session.md).")


def _boolean(section: str, key: str, text: str) -> bool:
    value = text.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise _error(section, f"{key} = {text!r} is not yes or no.", f"Write {key} = yes or no.")


def _reject_unknown(section: str, values: Mapping[str, str], known: tuple[str, ...]) -> None:
    for key in values:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise _error(section, f"has no setting '{key}'{hint}.",
                         f"Fix the config file ({', '.join(known)} are known).")


@dataclass(frozen=True)
class GameSettings:
    """The ``[game]`` section: defaults for a new game."""

    players: tuple[str, ...] = ()
    end_rule: str = "rounds"
    frog: bool = False
    crocodile: bool = False
    roommates: bool = False
    pair_mf: bool = False
    score_only: bool = False
    deck: str = "default"
    deck_id: str = "BOX1"

    KEYS = ("players", "end_rule", "frog", "crocodile", "roommates", "pair_mf", "score_only",
            "deck", "deck_id")

    @classmethod
    def from_section(cls, values: Mapping[str, str]) -> GameSettings:
        """Validate ``[game]``; errors name the key."""
        _reject_unknown("game", values, cls.KEYS)
        players = tuple(n.strip() for n in values.get("players", "").split(",") if n.strip())
        if len(players) > 5:
            raise _error("game", f"players lists {len(players)} names.", "Noah takes 2 to 5.")
        end_rule = values.get("end_rule", "rounds").strip()
        if end_rule not in ("rounds", "score26"):
            raise _error("game", f"end_rule = {end_rule!r} is unknown.",
                         "Write end_rule = rounds (3 rounds) or score26 (until 26 tears).")
        flags = {
            key: _boolean("game", key, values.get(key, "no"))
            for key in ("frog", "crocodile", "roommates", "pair_mf", "score_only")
        }
        from companion.tags.payload import check_deck_id

        try:
            deck_id = check_deck_id(values.get("deck_id", "BOX1"))
        except UserError as error:
            raise _error("game", f"deck_id: {error.what}", error.fix) from None
        deck = values.get("deck", "default").strip() or "default"
        return cls(players, end_rule, deck=deck, deck_id=deck_id, **flags)

    def options(self, *, hidden: bool = True) -> Any:
        """The engine's :class:`~companion.game.Options` for a new game."""
        from companion.game.options import Options

        return Options(hidden=hidden, frog=self.frog, crocodile=self.crocodile,
                       roommates=self.roommates, pair_mf=self.pair_mf, end_rule=self.end_rule,
                       score_only=self.score_only)

    def load_deck(self) -> Any:
        """The deck named by ``deck`` (the built-in one, or a CSV file)."""
        from companion.tags.tagged_deck import load_deck_file

        return load_deck_file(self.deck)


@dataclass(frozen=True)
class StoreSettings:
    """The ``[store]`` section: where the game record lives."""

    path: Path

    @classmethod
    def from_section(cls, values: Mapping[str, str]) -> StoreSettings:
        """Validate ``[store]`` (``path`` empty or absent: the user's data directory)."""
        _reject_unknown("store", values, ("path",))
        text = values.get("path", "").strip()
        if not text:
            from companion.session.store import default_store_path

            return cls(default_store_path())
        path = Path(text).expanduser()
        if path.is_dir():
            path = path / "games.sqlite"
        return cls(path)


@dataclass(frozen=True)
class Config:
    """The whole file: raw sections plus the validated ``[game]`` and ``[store]``."""

    path: Path | None
    sections: Mapping[str, Mapping[str, str]]
    game: GameSettings
    store: StoreSettings

    @classmethod
    def from_text(cls, text: str, path: Path | None = None) -> Config:
        """Parse INI text (``path`` is only used in messages)."""
        parser = configparser.ConfigParser(
            interpolation=None, inline_comment_prefixes=("#", ";"), strict=True
        )
        where = str(path or "the config file")
        try:
            parser.read_string(text, source=where)
        except configparser.Error as error:
            raise UserError(f"The config file {where} cannot be read: "
                            f"{error.message.splitlines()[0]}.",
                            "Fix the line it names, or delete the file to start afresh.") \
                from None
        for name in parser.sections():
            if name not in SECTIONS:
                close = difflib.get_close_matches(name, SECTIONS, n=1)
                hint = f" (did you mean [{close[0]}]?)" if close else ""
                raise UserError(f"The config file {where} has an unknown section [{name}]{hint}.",
                                f"Known sections: {', '.join(SECTIONS)}.")
        sections = {name: dict(parser[name]) if parser.has_section(name) else {}
                    for name in SECTIONS}
        return cls(path, sections, GameSettings.from_section(sections["game"]),
                   StoreSettings.from_section(sections["store"]))

    def section(self, name: str) -> dict[str, str]:
        """The raw ``key = value`` pairs of a section (empty if absent)."""
        return dict(self.sections.get(name, {}))

    def validated(self, name: str) -> Any:
        """A section validated by the part that owns it (e.g. ``LightsConfig`` for
        ``"lights"``); its own error becomes a :class:`UserError`."""
        if name == "game":
            return self.game
        if name == "store":
            return self.store
        return validate_section(name, self.section(name))


def part_validator(name: str) -> Callable[[Mapping[str, str]], Any]:
    """The validator a part provides for its section (imported now)."""
    module_name, attribute = PART_VALIDATORS[name]
    target: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        target = getattr(target, part)
    return target


def validate_section(name: str, values: Mapping[str, str]) -> Any:
    """Run a part's validator on ``values``; its error becomes a :class:`UserError`.

    >>> validate_section("lights", {"buttons": "yes"}).buttons
    (5, 6, 13, 19, 26)
    """
    validator = part_validator(name)
    try:
        return validator(values)
    except UserError:
        raise
    except Exception as error:  # the parts' own error types (HardwareError, VisionError)
        if not hasattr(error, "fix") and not isinstance(error, ValueError):
            raise
        what = getattr(error, "what", str(error))
        fix = getattr(error, "fix", "") or "Fix the config file."
        if not what.startswith("["):
            what = f"[{name}] {what}"
        raise UserError(what, fix) from None


def load_config(path: str | Path | None = None) -> Config:
    """Read the config file (``path``, or :func:`config_path`); a missing file means every
    default. Errors say which key of which section is wrong."""
    path = Path(path) if path is not None else config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"The config file {path} cannot be read: {error}.",
                        "Check its permissions, or delete it to start afresh.") from None
    return Config.from_text(text, path)
