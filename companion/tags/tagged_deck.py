"""A deck together with its deck id: what the stickers of one box say, and how to read them.

The deck id lives in the deck file itself, as a comment line the rules engine ignores::

    # deck-id: ZOO7
    species,gender,weight,tears,mark,promo
    woodpecker,M,0,2,,no
    ...

so the sticker sheet and the referee always agree. Without a file (the default composition) or
without that line, the id is ``BOX1``. Two boxes at one house: give the second one its own file
with another id, and a card from the wrong box is named as such at the table.

>>> tagged = load_tagged_deck(None)
>>> tagged.deck_id, len(tagged.deck)
('BOX1', 52)
>>> tagged.classify("NOAH1/BOX1/SNH3")
TagOk(card=Card(species='snail', gender='H', weight=1, tears=2, mark=None, promo=False, copy=3))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from companion.errors import UserError
from companion.game.deck import Deck, default_deck, parse_deck
from companion.game.errors import InputError
from companion.tags.payload import DEFAULT_DECK_ID, Tag, check_deck_id, classify, encode

_DECK_ID_LINE = re.compile(r"\s*#\s*deck-id\s*:\s*(?P<id>\S*)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class TaggedDeck:
    """The cards of one box and the deck id printed on their stickers."""

    deck: Deck
    deck_id: str = DEFAULT_DECK_ID

    def encode(self, card_id: str) -> str:
        """The sticker text of the card with this id.

        >>> load_tagged_deck(None).encode("cat:F#2")
        'NOAH1/BOX1/CAF2'
        """
        return encode(self.deck_id, self.deck[card_id])

    def classify(self, text: str) -> Tag:
        """What a decoded QR text means for this box (see :func:`payload.classify`)."""
        return classify(text, self.deck, self.deck_id)


def parse_tagged_deck(text: str, source_name: str = "deck") -> TaggedDeck:
    """Read a deck file's text: the cards, and the deck id from its ``# deck-id:`` line.

    >>> parse_tagged_deck("# deck-id: zoo7\\nspecies,gender,weight,tears,mark,promo\\n"
    ...                   "cat,F,2,1,,no\\n").deck_id
    'ZOO7'
    """
    deck = _parse_cards(text, source_name)
    found = [
        (number, match["id"])
        for number, line in enumerate(text.splitlines(), start=1)
        if (match := _DECK_ID_LINE.match(line))
    ]
    if len(found) > 1:
        lines = " and ".join(str(number) for number, _ in found)
        raise UserError(
            f"{source_name} names a deck id twice (lines {lines}).",
            "Keep one '# deck-id: …' line.",
        )
    if not found:
        return TaggedDeck(deck)
    number, deck_id = found[0]
    try:
        return TaggedDeck(deck, check_deck_id(deck_id))
    except UserError as error:
        raise UserError(f"{source_name}, line {number}: {error.what}", error.fix) from None


def load_tagged_deck(path: str | Path | None) -> TaggedDeck:
    """The deck file at ``path`` with its deck id, or the default deck (id ``BOX1``) for None."""
    if path is None:
        return TaggedDeck(default_deck())
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UserError(
            f"There is no deck file {path}.",
            "Check the path, or leave out --deck to use the default deck.",
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(
            f"The deck file {path} cannot be read ({error}).",
            "Save it as a UTF-8 CSV text file.",
        ) from None
    return parse_tagged_deck(text, path.name)


def _parse_cards(text: str, source_name: str) -> Deck:
    try:
        return parse_deck(text, source_name)
    except InputError as error:  # its message already names the file, the line and the field
        raise UserError(error.message, "Fix that line and try again.") from None
