"""The text inside a card's QR sticker: which physical copy of which card of which deck.

A payload is 15 or 16 characters of the QR alphanumeric alphabet, so that every sticker is a
QR code version 1 (21×21 modules) at error-correction level Q (docs/tags.md)::

    NOAH1/BOX1/CAF2
    │   │ │    │ │└─ copy number within species and gender (1-99)
    │   │ │    │ └── gender: M, F, or H for the snail
    │   │ │    └──── species code (two letters, see SPECIES_CODES)
    │   │ └───────── deck id: four characters 0-9 A-Z, chosen when the stickers are printed
    │   └─────────── format version
    └─────────────── magic: "NOAH" + version + "/" marks a text as ours

>>> from companion.game.deck import default_deck
>>> encode("BOX1", default_deck()["cat:F#2"])
'NOAH1/BOX1/CAF2'
>>> classify("NOAH1/BOX1/CAF2", default_deck(), "BOX1").card.id
'cat:F#2'
>>> classify("https://example.com", default_deck(), "BOX1")
Foreign(text='https://example.com')
>>> print(classify("NOAH1/ZOO7/CAF2", default_deck(), "BOX1").message)
This sticker (cat ♀ copy 2) belongs to deck ZOO7, not to this deck (BOX1). Put the card back in \
its own box, or write deck_id = ZOO7 under [game] in the config file to play with that box.

Classification is total: any text at all gives exactly one of :class:`Foreign` (not one of ours:
the referee ignores it), :class:`TagOk` (a card of this deck) or :class:`TagError` (one of ours
that cannot be used, with a message for the table). The envelope (magic, version, deck id, the
length cap, control characters) is read by :mod:`companion.tags.envelope`, shared with Complot's
stickers; this module is Noah's body codec (species, gender, copy).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.errors import UserError
from companion.game.deck import MAX_COPIES
from companion.game.errors import shown
from companion.tags import envelope
from companion.tags.envelope import MAX_TEXT_LENGTH, Broken, Foreign, Sealed, TagError

if TYPE_CHECKING:
    from companion.game.deck import Card

FORMAT_VERSION = 1
MAGIC = "NOAH"
DEFAULT_DECK_ID = "BOX1"

SPECIES_CODES = {
    "woodpecker": "WO",
    "parrot": "PA",
    "snail": "SN",
    "cat": "CA",
    "kangaroo": "KA",
    "panda": "PN",
    "lion": "LI",
    "donkey": "DO",
    "bear": "BE",
    "giraffe": "GI",
    "rhino": "RH",
    "elephant": "EL",
    "frog": "FR",
    "crocodile": "CR",
}
SPECIES_BY_CODE = {code: species for species, code in SPECIES_CODES.items()}
GENDER_SIGNS = {"M": "♂", "F": "♀", "H": "♂♀"}

_BODY_V1 = re.compile(r"(?P<species>[A-Z]{2})(?P<gender>[MFH])(?P<copy>[1-9][0-9]?)")

__all__ = ["DEFAULT_DECK_ID", "GENDER_SIGNS", "MAGIC", "MAX_TEXT_LENGTH", "SPECIES_CODES",
           "Foreign", "Tag", "TagError", "TagOk", "check_deck_id", "classify", "encode",
           "is_ours"]


@dataclass(frozen=True)
class TagOk:
    """A sticker of this deck: the physical card it is stuck on."""

    card: Card


Tag = Foreign | TagOk | TagError


def check_deck_id(deck_id: str) -> str:
    """The deck id, upper-cased, or a :class:`UserError` saying what a deck id looks like.

    >>> check_deck_id("zoo7")
    'ZOO7'
    """
    normalized = deck_id.strip().upper()
    if not envelope.DECK_ID.fullmatch(normalized):
        raise UserError(
            f"'{deck_id}' cannot be a deck id.",
            "A deck id is exactly four letters or digits, for example BOX1 or ZOO7.",
        )
    return normalized


def encode(deck_id: str, card: Card) -> str:
    """The sticker text of one physical card.

    >>> from companion.game.deck import default_deck
    >>> [encode("BOX1", card) for card in default_deck()][:3]
    ['NOAH1/BOX1/WOM1', 'NOAH1/BOX1/WOF1', 'NOAH1/BOX1/PAM1']
    """
    deck_id = check_deck_id(deck_id)
    try:
        species = SPECIES_CODES[card.species]
    except KeyError:
        raise UserError(
            f"Card {card.id} has a species stickers cannot name.",
            f"Use one of: {', '.join(SPECIES_CODES)}.",
        ) from None
    if not 1 <= card.copy <= MAX_COPIES:
        raise UserError(f"Card {card.id} has copy number {card.copy}.",
                        f"Copies go from 1 to {MAX_COPIES}.")
    return f"{MAGIC}{FORMAT_VERSION}/{deck_id}/{species}{card.gender}{card.copy}"


def is_ours(text: str) -> bool:
    """True for any text that claims to be a Noah sticker, usable here or not.

    The vision pipeline reports other codes apart, so they never become card events.

    >>> is_ours("NOAH1/BOX1/CAF2"), is_ours("NOAH9/anything"), is_ours("NOAH'S ARK")
    (True, True, False)
    """
    return envelope.is_ours(text, MAGIC)


def classify(text: str, cards: Iterable[Card], deck_id: str = DEFAULT_DECK_ID) -> Tag:
    """What a decoded QR text means for the deck ``cards`` printed as ``deck_id``.

    >>> from companion.game.deck import default_deck
    >>> print(classify("NOAH2/BOX1/CAF2", default_deck()).message)
    This sticker was printed by a newer version of Noah Table Companion (format 2). Update the \
program on this device.
    """
    opened = envelope.unseal(text, MAGIC, FORMAT_VERSION, _broken)
    if not isinstance(opened, Sealed):
        return opened
    body = _BODY_V1.fullmatch(opened.body)
    if body is None or body["species"] not in SPECIES_BY_CODE:
        return _malformed(text)
    return _find_card(text, opened.deck_id, body, cards, check_deck_id(deck_id))


def _broken(text: str, broken: Broken) -> TagError:
    if broken.reason == "too_long":
        return _error(text, "too_long", "This code starts like a Noah sticker but is too long. "
                      "Reprint the sticker with 'noah-companion tags print'.")
    if broken.reason == "version" and broken.version is not None:
        return _error(
            text,
            "version",
            f"This sticker was printed by a newer version of Noah Table Companion "
            f"(format {broken.version}). Update the program on this device."
            if broken.version > FORMAT_VERSION
            else f"This sticker has an unknown format ({MAGIC}{broken.version}). Reprint it "
            "with 'noah-companion tags print'.",
        )
    return _malformed(text)


def _malformed(text: str) -> TagError:
    # The text is shown escaped: a QR code may hold terminal escapes, CR or NUL.
    return _error(text, "malformed", f"The sticker '{shown(text)}' is damaged or was not made "
                  "by this program. Reprint it with 'noah-companion tags print'.")


def _find_card(text: str, printed_deck: str, body: re.Match[str], cards: Iterable[Card],
               deck_id: str) -> Tag:
    species = SPECIES_BY_CODE[body["species"]]
    gender, copy = body["gender"], int(body["copy"])
    name = f"{species} {GENDER_SIGNS[gender]} copy {copy}"
    if printed_deck != deck_id:
        return _error(
            text,
            "other_deck",
            f"This sticker ({name}) belongs to deck {printed_deck}, not to this deck "
            f"({deck_id}). Put the card back in its own box, or write deck_id = "
            f"{printed_deck} under [game] in the config file to play with that box.",
        )
    for card in cards:
        if card.species == species and card.gender == gender and card.copy == copy:
            return TagOk(card)
    return _error(
        text,
        "unknown_card",
        f"This sticker says {name}, but the deck has no such card. Check the deck file, or "
        "reprint the stickers of the cards you changed.",
    )


def _error(text: str, reason: str, message: str) -> TagError:
    return TagError(text, reason, message)
