"""The app's config file: one INI file in the user's config directory, shared with Kivy's
settings panel.

Sections ``[game] [camera] [decoder] [lights] [store] [ui] [web] [complot]``; every key is
optional. Each part validates its own section from a ``Mapping[str, str]`` and names the bad key
in its error: ``[game]`` (its ``kind`` among companion.games' names), ``[complot]`` and
``[store]`` are validated here, ``[lights]`` by :mod:`hardware.config`,
``[camera]`` and ``[decoder]`` by :mod:`vision` (parts below ``companion``: their validators are
imported only when their section is asked for, so reading ``[store]`` never loads OpenCV or
gpiozero). Parts above this module hand their validator in (:meth:`Config.validated`): the
app's ``[ui]`` (:func:`companion.ui.settings.validate_ui`), the LAN page's ``[web]``
(:class:`companion.web.settings.WebSettings`), and the deck named in ``[game]``,
which :mod:`companion.tags.tagged_deck` loads and checks (``deck_id`` included). This module
imports none of them. ::

    [game]
    players = Ana, Ben, Chloé      # the names offered for a new game
    kind = noah                    # the game the app opens on: noah or complot
    end_rule = rounds              # rounds (3 rounds) or score26
    frog = no                      # promo animals and variants (R6, R27, R47)
    crocodile = no
    roommates = no
    pair_mf = no
    score_only = no                # yes: no camera, tears typed by touch
    deck = default                 # or the path of your box's deck CSV
    deck_id = BOX1                 # the id printed on your stickers

    [complot]
    level = 1                      # 1-3: the action cards of levels 2 and 3 (C91, C92)
    target = 400                   # the score that ends the game

    [store]
    path =                         # empty: games.sqlite in the user's data directory;
                                   # a relative path is taken from the config file's folder

>>> config = Config.from_text("[game]\\nplayers = Ana, Ben\\nfrog = yes\\n")
>>> config.game.players, config.game.options().frog
(('Ana', 'Ben'), True)
>>> Config.from_text("[game]\\nfrogs = yes\\n")
Traceback (most recent call last):
...
companion.errors.UserError: [game] has no setting 'frogs' (did you mean 'frog'?). Fix the \
config file (...).

The file is read as UTF-8 (a byte-order mark, as Windows Notepad writes, is fine; so is UTF-16
with its mark); only a regular file of at most 64 kB is read, so a FIFO or a device named by
mistake is refused at once instead of waiting for ever.
"""

from __future__ import annotations

import ast
import configparser
import contextlib
import difflib
import errno
import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.game.sizes import MAX_PLAYERS, MIN_PLAYERS
from companion.paths import config_dir, default_store_path

SECTIONS = ("game", "camera", "decoder", "lights", "store", "ui", "web", "complot")
ENV_CONFIG = "NOAH_COMPANION_CONFIG"
"""An environment variable that, when set, names the config file to use instead."""
MAX_CONFIG_BYTES = 64 * 1024
"""A config file is a few hundred bytes; anything far larger was named by mistake."""
MAX_PATH_CHARS = 4096  # Linux's PATH_MAX: a longer path can never be opened

Validator = Callable[[Mapping[str, str]], Any]
"""A part's check of its section: raw ``key = value`` pairs in, its settings object out."""

_TRUE = {"yes", "true", "on", "1"}
_FALSE = {"no", "false", "off", "0", ""}
_BOMS = {b"\xef\xbb\xbf": "utf-8", b"\xff\xfe": "utf-16-le", b"\xfe\xff": "utf-16-be"}


def config_path() -> Path:
    """Where the config file lives: ``$NOAH_COMPANION_CONFIG``, or ``companion.ini`` in the
    user's config directory (``~/.config/noah-companion`` on Linux)."""
    if os.environ.get(ENV_CONFIG):
        return Path(os.environ[ENV_CONFIG])
    return config_dir() / "companion.ini"


def shown_path(path: str | Path, limit: int = 80) -> str:
    """A path as a message shows it: whole when short, else its beginning and its end.

    >>> shown_path("/a/" + "x" * 5000 + "/b.ini")
    '/a/xxxxxxxxxxxxxxxxx…xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx/b.ini'
    """
    text = str(path)
    if len(text) <= limit:
        return text
    return f"{text[:limit // 4]}…{text[-(limit - limit // 4):]}"


def setting_error(section: str, what: str, fix: str = "", *, key: str | None = None,
                  **params: object) -> UserError:
    """The error for a bad setting: ``[section] what``, and how to fix it (``key`` and
    ``params``: the same in the app's catalogs, ``config.*``, with ``section`` added).

    >>> str(setting_error("ui", "rotation = '90' is not 0 or 180."))
    "[ui] rotation = '90' is not 0 or 180. Fix the config file (see docs/session.md)."
    """
    return UserError(f"[{section}] {what}", fix or "Fix the config file (see docs/session.md).",
                     key=key, section=section, **params)


def yes_or_no(section: str, key: str, text: str) -> bool:
    """A yes/no setting (also true/false, on/off, 1/0; empty is no).

    >>> yes_or_no("ui", "sounds", "On"), yes_or_no("ui", "sounds", "")
    (True, False)
    """
    value = text.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise setting_error(section, f"{key} = {text!r} is not yes or no.",
                        f"Write {key} = yes or no.", key="config.not_yes_no", name=key,
                        value=text)


def reject_unknown(section: str, values: Mapping[str, str], known: tuple[str, ...]) -> None:
    """A :class:`UserError` for the first key of ``values`` that is not ``known`` (with the
    closest known one as a hint)."""
    for key in values:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise setting_error(section, f"has no setting '{key}'{hint}.",
                                f"Fix the config file ({', '.join(known)} are known).",
                                key="config.unknown_setting", name=key, known=", ".join(known))


@dataclass(frozen=True)
class GameSettings:
    """The ``[game]`` section: defaults for a new game. ``deck`` and ``deck_id`` are kept as
    written (``deck_id`` upper-cased): :mod:`companion.tags.tagged_deck` loads the deck and
    checks the id when the deck is needed."""

    players: tuple[str, ...] = ()
    kind: str = "noah"
    end_rule: str = "rounds"
    frog: bool = False
    crocodile: bool = False
    roommates: bool = False
    pair_mf: bool = False
    score_only: bool = False
    deck: str = "default"
    deck_id: str = "BOX1"

    KEYS = ("players", "kind", "end_rule", "frog", "crocodile", "roommates", "pair_mf",
            "score_only", "deck", "deck_id")

    @classmethod
    def from_section(cls, values: Mapping[str, str]) -> GameSettings:
        """Validate ``[game]``; errors name the key."""
        reject_unknown("game", values, cls.KEYS)
        players = tuple(n.strip() for n in values.get("players", "").split(",") if n.strip())
        if len(players) > MAX_PLAYERS:
            raise setting_error("game", f"players lists {len(players)} names.",
                                f"Noah takes {MIN_PLAYERS} to {MAX_PLAYERS}.",
                                key="config.too_many_players",
                                count=len(players))
        kind = _game_kind(values.get("kind", "noah"))
        end_rule = values.get("end_rule", "rounds").strip()
        if end_rule not in ("rounds", "score26"):
            raise setting_error("game", f"end_rule = {end_rule!r} is unknown.",
                                "Write end_rule = rounds (3 rounds) or score26 (until 26 tears).",
                                key="config.end_rule", value=end_rule)
        flags = {
            key: yes_or_no("game", key, values.get(key, "no"))
            for key in ("frog", "crocodile", "roommates", "pair_mf", "score_only")
        }
        deck = values.get("deck", "default").strip() or "default"
        deck_id = values.get("deck_id", "BOX1").strip().upper()
        return cls(players, kind, end_rule, deck=deck, deck_id=deck_id, **flags)

    def options(self, *, hidden: bool = True) -> Any:
        """The engine's :class:`~companion.game.Options` for a new game."""
        from companion.game.options import Options

        return Options(hidden=hidden, frog=self.frog, crocodile=self.crocodile,
                       roommates=self.roommates, pair_mf=self.pair_mf, end_rule=self.end_rule,
                       score_only=self.score_only)


def _game_kind(text: str) -> str:
    """``[game] kind``: the game the app opens on, one of companion.games' names.

    >>> _game_kind(" Complot ")
    'complot'
    """
    from companion.games import NAMES

    kind = text.strip().lower()
    if kind not in NAMES:
        raise setting_error("game", f"kind = {text!r} is not a game of this companion.",
                            f"Write kind = {' or '.join(NAMES)}.", key="config.game_kind",
                            value=text, known=", ".join(NAMES))
    return kind


@dataclass(frozen=True)
class ComplotSettings:
    """The ``[complot]`` section: defaults for a new game of «Noé, Complot à l'Élysée»: the
    ``level`` (1-3, C91/C92) and the ``target`` score that ends the game (400 in the rulebook).

    >>> ComplotSettings.from_section({"level": "2", "target": "300"})
    ComplotSettings(level=2, target=300)
    >>> ComplotSettings.from_section({"level": "4"})
    Traceback (most recent call last):
    ...
    companion.errors.UserError: [complot] level = '4' is not 1, 2 or 3. Write level = 1, 2 or 3.
    """

    level: int = 1
    target: int = 400

    KEYS = ("level", "target")
    MAX_TARGET = 10_000

    @classmethod
    def from_section(cls, values: Mapping[str, str]) -> ComplotSettings:
        """Validate ``[complot]``; errors name the key."""
        reject_unknown("complot", values, cls.KEYS)
        level = values.get("level", "1").strip()
        if level not in ("1", "2", "3"):
            raise setting_error("complot", f"level = {level!r} is not 1, 2 or 3.",
                                "Write level = 1, 2 or 3.", key="config.complot_level",
                                value=level)
        target = values.get("target", "400").strip()
        if not (target.isascii() and target.isdigit() and 0 < int(target) <= cls.MAX_TARGET):
            raise setting_error("complot", f"target = {target!r} is not a score from 1 to "
                                f"{cls.MAX_TARGET}.", "Write target = 400 (the rulebook's), or "
                                "another score that ends the game.",
                                key="config.complot_target", value=target)
        return cls(int(level), int(target))


@dataclass(frozen=True)
class StoreSettings:
    """The ``[store]`` section: where the game record lives."""

    path: Path

    @classmethod
    def from_section(cls, values: Mapping[str, str], base: Path | None = None) -> StoreSettings:
        """Validate ``[store]``: ``path`` empty or absent means the user's data directory; a
        folder means ``games.sqlite`` in it; a relative path is taken from ``base`` (the config
        file's folder), never from wherever the command happens to run.

        >>> StoreSettings.from_section({"path": "games/club.sqlite"}, Path("/etc/noah")).path
        PosixPath('/etc/noah/games/club.sqlite')
        """
        reject_unknown("store", values, ("path",))
        text = values.get("path", "").strip()
        if not text:
            return cls(default_store_path())
        if len(text) > MAX_PATH_CHARS or "\0" in text:
            raise setting_error("store", f"path = {shown_path(text)!r} cannot be a file name.",
                                "Write the path of the game record, or leave it empty.",
                                key="config.store_path", value=shown_path(text))
        path = Path(text).expanduser()
        if not path.is_absolute():
            path = (base or Path.cwd()).absolute() / path
        try:
            if path.is_dir():
                path = path / "games.sqlite"
        except OSError as error:  # a name component over 255 bytes, a loop of links…
            raise setting_error("store", f"path = {shown_path(text)!r}: {error.strerror}.",
                                "Write the path of the game record, or leave it empty.",
                                key="config.store_path", value=shown_path(text)) from None
        return cls(path)


@dataclass(frozen=True)
class Config:
    """The whole file: raw sections plus the validated ``[game]``, ``[store]`` and
    ``[complot]``."""

    path: Path | None
    sections: Mapping[str, Mapping[str, str]]
    game: GameSettings
    store: StoreSettings
    complot: ComplotSettings = ComplotSettings()

    @classmethod
    def from_text(cls, text: str, path: Path | None = None) -> Config:
        """Parse INI text (``path`` names the file in messages, and relative paths in it are
        taken from its folder)."""
        parser = configparser.ConfigParser(
            interpolation=None, inline_comment_prefixes=("#", ";"), strict=True
        )
        where = f"The config file {shown_path(path)}" if path is not None else "The config file"
        shown = shown_path(path) if path is not None else ""
        try:
            parser.read_string(text.removeprefix("\ufeff"), source=where)
        except configparser.Error as error:
            problem, key, params = _parse_problem(error)
            raise UserError(f"{where} cannot be read: {problem}",
                            "Fix that line, or delete the file to start afresh.", key=key,
                            path=shown, **params) from None
        for name in parser.sections():
            if name not in SECTIONS:
                close = difflib.get_close_matches(name, SECTIONS, n=1)
                hint = f" (did you mean [{close[0]}]?)" if close else ""
                raise UserError(f"{where} has an unknown section [{name}]{hint}.",
                                f"Known sections: {', '.join(SECTIONS)}.",
                                key="config.unknown_section", path=shown, name=name,
                                known=", ".join(SECTIONS))
        sections = {name: dict(parser[name]) if parser.has_section(name) else {}
                    for name in SECTIONS}
        base = path.parent if path is not None else None
        return cls(path, sections, GameSettings.from_section(sections["game"]),
                   StoreSettings.from_section(sections["store"], base),
                   ComplotSettings.from_section(sections["complot"]))

    def section(self, name: str) -> dict[str, str]:
        """The raw ``key = value`` pairs of a section (empty if absent)."""
        return dict(self.sections.get(name, {}))

    def validated(self, name: str, validator: Validator | None = None) -> Any:
        """A section checked by the part that owns it: ``validator`` when given (how parts
        above this module, like the app's ``[ui]``, hand theirs in), else the validator of
        ``[lights]`` (:mod:`hardware.config`), ``[camera]`` or ``[decoder]``
        (:mod:`vision.config`); their own errors become a :class:`UserError`."""
        checked_here = {"game": self.game, "store": self.store, "complot": self.complot}
        if name in checked_here:
            return checked_here[name]
        return validate_section(name, self.section(name), validator)


def part_validator(name: str) -> Validator:
    """The validator of a section owned by a part below ``companion`` (``lights``,
    ``camera``, ``decoder``), imported now; a :class:`LookupError` for any other section,
    whose owner hands its validator in."""
    if name == "lights":
        from hardware.config import LightsConfig

        return LightsConfig.from_section
    if name in ("camera", "decoder"):
        from vision import config as vision_config

        return vision_config.camera_settings if name == "camera" \
            else vision_config.decoder_settings
    raise LookupError(f"[{name}] is checked by the part that owns it: pass its validator in")


def validate_section(name: str, values: Mapping[str, str],
                     validator: Validator | None = None) -> Any:
    """Run a part's validator (``validator``, else :func:`part_validator`) on ``values``; its
    error becomes a :class:`UserError`.

    >>> validate_section("lights", {"buttons": "yes"}).buttons
    (5, 6, 13, 19, 26)
    """
    check = validator or part_validator(name)
    try:
        return check(values)
    except UserError:
        raise
    except Exception as error:  # the parts' own error types (HardwareError, VisionError)
        if not hasattr(error, "fix") and not isinstance(error, ValueError):
            raise
        what = getattr(error, "what", str(error))
        fix = getattr(error, "fix", "") or "Fix the config file."
        if not what.startswith("["):
            what = f"[{name}] {what}"
        raise UserError(what, fix, key=getattr(error, "words", None),
                        **getattr(error, "params", {})) from None


def load_config(path: str | Path | None = None) -> Config:
    """Read the config file (``path``, or :func:`config_path`); a missing file means every
    default. Errors say which key of which section is wrong, or which line cannot be read."""
    path = Path(path) if path is not None else config_path()
    return Config.from_text(read_config_text(path), path)


def read_config_text(path: Path) -> str:
    """The text of the config file at ``path`` (empty when there is none). Only a regular file
    is read, opened without waiting (a FIFO or a device is refused at once), and at most
    :data:`MAX_CONFIG_BYTES` of it."""
    shown = shown_path(path)
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return ""
    except OSError as error:
        if error.errno == errno.ENOTDIR:  # a file where a folder of the path should be
            return ""
        raise UserError(f"The config file {shown} cannot be opened: {error.strerror}.",
                        "Check the path and its permissions, or delete the file to start "
                        "afresh.", key="config.cannot_open", path=shown,
                        reason=error.strerror) from None
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise UserError(f"The config file {shown} is not a regular file.",
                        f"Name a text file in {ENV_CONFIG}, or unset it.",
                        key="config.not_a_file", path=shown, variable=ENV_CONFIG)
    with os.fdopen(handle, "rb") as file:
        data = file.read(MAX_CONFIG_BYTES + 1)
    if len(data) > MAX_CONFIG_BYTES:
        raise UserError(f"The config file {shown} is larger than "
                        f"{MAX_CONFIG_BYTES // 1024} kB: it is not a config file.",
                        f"Name the right file in {ENV_CONFIG}, or delete it to start afresh.",
                        key="config.too_large", path=shown, kb=MAX_CONFIG_BYTES // 1024,
                        variable=ENV_CONFIG)
    return _decode(data, shown)


def _decode(data: bytes, shown: str) -> str:
    encoding = next((name for mark, name in _BOMS.items() if data.startswith(mark)), "utf-8")
    try:
        return data.decode(encoding).removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise UserError(f"The config file {shown} is not UTF-8 text (line {line}).",
                        "Save it as UTF-8 (Notepad: Save as, Encoding UTF-8).",
                        key="config.not_utf8", path=shown, line=line) from None


def _parse_problem(error: configparser.Error) -> tuple[str, str | None, dict[str, object]]:
    """What configparser found wrong, as a sentence that names the line, with the catalog key
    and params of the whole error (``config.line_*``; None: configparser's own words)."""
    if isinstance(error, configparser.MissingSectionHeaderError):
        text = error.line.strip()[:40]
        return (f"line {error.lineno} ({text!r}) comes before any [section] heading.",
                "config.line_before_section", {"line": error.lineno, "text": text})
    if isinstance(error, configparser.ParsingError):
        lineno, line = error.errors[0]  # the line as repr() wrote it
        with contextlib.suppress(ValueError, SyntaxError):
            line = ast.literal_eval(line)
        text = str(line).strip()[:40]
        return (f"line {lineno} ({text!r}) is not 'key = value'.", "config.line_not_setting",
                {"line": lineno, "text": text})
    if isinstance(error, configparser.DuplicateSectionError):
        return (f"line {error.lineno} repeats the section [{error.section}].",
                "config.line_repeats_section", {"line": error.lineno, "name": error.section})
    if isinstance(error, configparser.DuplicateOptionError):
        return (f"line {error.lineno} sets {error.option} a second time in [{error.section}].",
                "config.line_repeats_setting",
                {"line": error.lineno, "name": error.option, "section": error.section})
    return f"{error.message.splitlines()[0]}.", None, {}
