"""The text inside a Complot card's QR sticker (C6): ``CPLT1/BOX1/EPNO``.

The envelope is the companion's tag scheme (magic, version, ``/``, deck id, ``/``, body) with
its own magic ``CPLT``, so a Noah sticker (``NOAH1/…``) is *foreign* here and a Complot sticker
is foreign to the Noah referee. The body is a category code and a first-name code; there is no
copy number, since every Complot card is unique.

>>> from companion.complot.cards import default_deck
>>> deck = default_deck()
>>> encode("BOX1", deck["empires:noe"])
'CPLT1/BOX1/EPNO'
>>> classify("CPLT1/BOX1/EPNO", deck).card.id
'empires:noe'
>>> classify("NOAH1/BOX1/CAF2", deck)
Foreign(text='NOAH1/BOX1/CAF2')
>>> [classify(text, deck).reason for text in ("CPLT1/BOX1/ALNO", "CPLT2/BOX1/EPNO",
...                                          "CPLT01/BOX1/EPNO", "CPLT1/ZOO7/EPNO")]
['unknown_card', 'version', 'malformed', 'other_deck']

Classification is total and strict (no trimming, no case folding); texts are length-capped
before parsing and control characters refused. The envelope is read by
:mod:`companion.tags.envelope`, shared with Noah; :class:`Foreign` and :class:`TagError` are its
result types, this module is Complot's body codec (category and first-name codes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from companion.errors import UserError
from companion.game.errors import shown
from companion.tags import envelope
from companion.tags.envelope import DECK_ID, MAX_TEXT_LENGTH, Broken, Foreign, Sealed, TagError

from .cards import CATEGORIES, FIRST_NAMES, GRADE_NAMES, Card, Deck, default_deck

FORMAT_VERSION = 1
MAGIC = "CPLT"
DEFAULT_DECK_ID = "BOX1"
_BODY_V1 = re.compile(r"(?P<category>[A-Z]{2})(?P<name>[A-Z]{2})")


@dataclass(frozen=True)
class TagOk:
    """A sticker of this deck: the Complot card it is stuck on (Noah's TagOk holds a Noah
    card; :class:`Foreign` and :class:`TagError` are shared with Noah's codec)."""

    card: Card


Tag = Foreign | TagOk | TagError

__all__ = ["DECK_ID", "DEFAULT_DECK_ID", "MAGIC", "MAX_TEXT_LENGTH", "Foreign", "Tag",
           "TagError", "TagOk", "TaggedDeck", "classify", "encode", "is_ours", "label_lines"]


def encode(deck_id: str, card: Card) -> str:
    """The sticker text of one card (C6).

    >>> from companion.complot.cards import default_deck
    >>> [encode("BOX1", card) for card in default_deck()][-2:]
    ['CPLT1/BOX1/PBOL', 'CPLT1/BOX1/PBIR']
    """
    if not DECK_ID.fullmatch(deck_id):
        raise UserError(f"'{shown(deck_id)}' cannot be a deck id.",
                        "A deck id is exactly four capital letters or digits, for example BOX1.")
    return f"{MAGIC}{FORMAT_VERSION}/{deck_id}/{card.code}"


def label_lines(card: Card) -> list[str]:
    """What a printed sticker's label says beside its code: first name, category, the
    État-Major grade on a line of its own (C64), and the card id.

    >>> label_lines(default_deck()["etat-major:noe"])
    ['Noé', 'État-Major', 'Major Général', 'etat-major:noe']
    >>> label_lines(default_deck()["archange:igor"])
    ['Igor', 'Archange', 'archange:igor']
    """
    grade = [GRADE_NAMES[card.grade]] if card.grade is not None and card.category == "EM" else []
    return [card.first_name, card.category_name, *grade, card.id]


def is_ours(text: str) -> bool:
    """True for any text that claims to be a Complot sticker, usable here or not.

    >>> is_ours("CPLT1/BOX1/EPNO"), is_ours("NOAH1/BOX1/CAF2"), is_ours("CPLT/")
    (True, False, False)
    """
    return envelope.is_ours(text, MAGIC)


def classify(text: str, deck: Deck | None = None, deck_id: str = DEFAULT_DECK_ID) -> Tag:
    """What a decoded QR text means for ``deck`` printed as ``deck_id`` (C6).

    >>> print(classify("CPLT1/BOX1/ALNO").message)
    Cette étiquette dit ALNO, mais ce jeu n'a pas cette carte. This sticker says ALNO, but the \
deck has no such card: check the deck file, or reprint the sticker.
    """
    opened = envelope.unseal(text, MAGIC, FORMAT_VERSION, _broken)
    if not isinstance(opened, Sealed):
        return opened
    body = _BODY_V1.fullmatch(opened.body)
    deck = deck or default_deck()
    if body is None or body["category"] not in CATEGORIES or not (
            body["name"] in FIRST_NAMES or body["name"] in deck.name_codes):
        return _malformed(text)
    if opened.deck_id != deck_id:
        return TagError(text, "other_deck", f"Cette carte appartient au jeu {opened.deck_id}. "
                        f"This card belongs to deck {opened.deck_id}, not to {shown(deck_id)}: "
                        "put it back in its own box.")
    code = body["category"] + body["name"]
    card = deck.by_code(code)
    if card is None:
        return TagError(text, "unknown_card", f"Cette étiquette dit {code}, mais ce jeu n'a pas "
                        f"cette carte. This sticker says {code}, but the deck has no such card: "
                        "check the deck file, or reprint the sticker.")
    return TagOk(card)


def _broken(text: str, broken: Broken) -> TagError:
    if broken.reason == "too_long":
        return TagError(text, "too_long", "Ce code commence comme une étiquette Complot mais "
                        "est trop long. This code starts like a Complot sticker but is too long: "
                        "reprint it with 'noah-companion tags print --game complot'.")
    if broken.reason == "version":
        return TagError(text, "version", f"Étiquette au format {broken.version}, inconnu ici. "
                        f"This sticker has format {broken.version}, which this program does not "
                        "read: update the program or reprint the sticker.")
    return _malformed(text)


def _malformed(text: str) -> TagError:
    return TagError(text, "malformed", f"L'étiquette '{shown(text)}' est abîmée. The sticker "
                    f"'{shown(text)}' is damaged or was not made by this program: reprint it.")


@dataclass(frozen=True)
class TaggedDeck:
    """Complot's box and the deck id printed on its stickers: what ``tags print --game
    complot`` and ``tags check --game complot`` need (the face of Noah's
    :class:`companion.tags.tagged_deck.TaggedDeck`, see its ``StickeredDeck``).

    >>> tagged = TaggedDeck(default_deck())
    >>> tagged.sticker_text(tagged.deck["archange:noe"]), len(tagged.select(["archange"]))
    ('CPLT1/BOX1/ARNO', 5)
    >>> tagged.describe(tagged.deck["leonard:sally"])
    'Sally, Léonard (leonard:sally)'
    """

    game: ClassVar[str] = "Complot"
    reprint: ClassVar[str] = "tags print --game complot --only CARD-ID"
    deck: Deck
    deck_id: str = DEFAULT_DECK_ID
    source: str = "the rulebook's 93 cards"

    @property
    def cards(self) -> Sequence[Card]:
        return self.deck.cards

    def sticker_text(self, card: Card) -> str:
        return encode(self.deck_id, card)

    def label_lines(self, card: Card) -> list[str]:
        return label_lines(card)

    def describe(self, card: Card) -> str:
        return f"{card.first_name}, {card.category_name} ({card.id})"

    def classify(self, text: str) -> Tag:
        return classify(text, self.deck, self.deck_id)

    @staticmethod
    def is_ours(text: str) -> bool:
        return is_ours(text)

    def select(self, only: Iterable[str] | None) -> list[Card]:
        """The deck's cards, or those of the categories or card ids named (``--only archange
        leonard:sally``): the categories' slugs are those of the card ids."""
        if not only:
            return list(self.deck)
        slugs = {CATEGORIES[card.category][0] for card in self.deck}
        unknown = [name for name in only if name not in slugs and name not in self.deck]
        if unknown:
            raise UserError(f"This deck has no category or card {', '.join(map(shown, unknown))}.",
                            f"Name categories among: {', '.join(sorted(slugs))}; or card ids "
                            "such as leonard:sally.")
        wanted = set(only)
        return [card for card in self.deck
                if card.id in wanted or CATEGORIES[card.category][0] in wanted]
