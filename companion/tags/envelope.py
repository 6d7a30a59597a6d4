"""The sticker envelope every game shares: ``MAGIC<version>/<deck id>/<body>``.

A sticker's text names its game by the magic (``NOAH`` for Noah, ``CPLT`` for Complot), its
format by the version, its box by the deck id, and leaves the card itself to the game's *body
codec* (``companion/tags/payload.py`` for Noah, ``companion/complot/payload.py`` for Complot)::

    CPLT1/BOX1/EPNO
    │   │ │    └─── body: the game's own card code
    │   │ └──────── deck id: exactly four characters 0-9 A-Z
    │   └────────── format version: 1 to 3 digits, no leading zero
    └────────────── magic: which game's sticker this is

:func:`open_envelope` is total and strict: any text at all gives exactly one of
:class:`Foreign` (not this game's sticker: the referee ignores it), :class:`Sealed` (the deck id
and body of a sticker of this format) or :class:`Broken` (this game's sticker, unusable: too
long, another version, or not the grammar). No trimming, no case folding; texts longer than
:data:`MAX_TEXT_LENGTH` are never parsed; control characters (a QR code may hold NUL, CR or
terminal escapes) make a text malformed.

>>> open_envelope("CPLT1/BOX1/EPNO", "CPLT", 1)
Sealed(deck_id='BOX1', body='EPNO')
>>> open_envelope("NOAH1/BOX1/CAF2", "CPLT", 1)
Foreign(text='NOAH1/BOX1/CAF2')
>>> open_envelope("CPLT2/BOX1/EPNO", "CPLT", 1)
Broken(reason='version', version=2)
>>> [open_envelope(text, "CPLT", 1).reason
...  for text in ("CPLT01/BOX1/EPNO", "CPLT1/box1/EPNO", "CPLT1/BOX1/EP\\x1bNO", "CPLT1/" * 7)]
['malformed', 'malformed', 'malformed', 'too_long']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

MAX_TEXT_LENGTH = 32
"""Longer texts are never parsed: every game's stickers are at most 16 characters."""
DECK_ID = re.compile(r"[0-9A-Z]{4}")
_VERSION = r"(?P<version>[0-9]{1,3})/"
_SEALED = re.compile(r"(?P<deck>[0-9A-Z]{4})/(?P<body>[^/\x00-\x1f\x7f-\x9f]+)")


@dataclass(frozen=True)
class Foreign:
    """A QR code that is not this game's sticker (a cereal box, another game's card): ignore it.
    """

    text: str


@dataclass(frozen=True)
class TagError:
    """One of our stickers that cannot be used here; ``message`` says why and what to do.

    ``reason`` is stable for programs: ``too_long``, ``version``, ``malformed``,
    ``other_deck`` or ``unknown_card``.
    """

    text: str
    reason: str
    message: str


@dataclass(frozen=True)
class Sealed:
    """A well-formed envelope of the expected format: the game's codec reads ``body``."""

    deck_id: str
    body: str


@dataclass(frozen=True)
class Broken:
    """This game's magic, but unusable: ``reason`` is ``too_long``, ``version`` (then
    ``version`` is the one the sticker says) or ``malformed``."""

    reason: str
    version: int | None = None


@cache
def _magic_pattern(magic: str) -> re.Pattern[str]:
    return re.compile(re.escape(magic) + _VERSION)


def is_ours(text: str, magic: str) -> bool:
    """True for any text that claims to be a sticker of the game ``magic``, usable or not.

    >>> is_ours("NOAH1/BOX1/CAF2", "NOAH"), is_ours("NOAH9/x", "NOAH"), is_ours("NOAH/", "NOAH")
    (True, True, False)
    """
    return _magic_pattern(magic).match(text[:MAX_TEXT_LENGTH]) is not None


def open_envelope(text: str, magic: str, version: int) -> Foreign | Sealed | Broken:
    """What ``text`` is for the game whose stickers start ``magic`` at format ``version``."""
    ours = _magic_pattern(magic).match(text[:MAX_TEXT_LENGTH])
    if ours is None:
        return Foreign(text)
    if len(text) > MAX_TEXT_LENGTH:
        return Broken("too_long")
    written = ours["version"]
    if len(written) > 1 and written.startswith("0"):  # CPLT01/, NOAH001/: no leading zeros
        return Broken("malformed")
    if int(written) != version:
        return Broken("version", int(written))
    sealed = _SEALED.fullmatch(text, ours.end())
    if sealed is None:
        return Broken("malformed")
    return Sealed(sealed["deck"], sealed["body"])


def unseal(text: str, magic: str, version: int,
           refuse: Callable[[str, Broken], TagError]) -> Foreign | Sealed | TagError:
    """:func:`open_envelope`, with a broken envelope turned into the game's own
    :class:`TagError` by ``refuse(text, broken)`` (each game words its messages)."""
    opened = open_envelope(text, magic, version)
    return refuse(text, opened) if isinstance(opened, Broken) else opened
