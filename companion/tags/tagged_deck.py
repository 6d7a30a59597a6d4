"""A deck together with its deck id: what the stickers of one box say, and how to read them.

The deck and its id are settings of the ``[game]`` section of the config file, which the
referee reads too, so the sticker sheet and the table always agree::

    [game]
    deck = default          # or the path of your box's deck CSV (noah-companion deck check)
    deck_id = BOX1          # four letters or digits, printed on every sticker

Two boxes at one house: give the second box another deck id when printing its stickers, and a
card from the wrong box is named as such at the table.

>>> tagged = load_tagged_deck("default")
>>> tagged.deck_id, len(tagged.deck)
('BOX1', 52)
>>> tagged.classify("NOAH1/BOX1/SNH3").card.id
'snail#3'
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from companion.errors import UserError
from companion.game.deck import Card, Deck, default_deck, load_deck
from companion.game.errors import InputError
from companion.tags.payload import DEFAULT_DECK_ID, Tag, check_deck_id, classify, encode

DEFAULT_DECK = "default"
"""What ``--deck`` and the config's ``deck`` say for the built-in composition."""


class StickeredDeck(Protocol):
    """What sticker sheets and deck checks need of one game's box, whichever the game: Noah's
    :class:`TaggedDeck`, Complot's :class:`companion.complot.payload.TaggedDeck`.

    A classified text is :class:`Foreign`, :class:`TagError` or the game's ``TagOk`` (which
    holds the ``card``).
    """

    game: ClassVar[str]
    """The game's short name in messages: ``Noah``, ``Complot``."""
    reprint: ClassVar[str]
    """The command that reprints some cards' stickers, as a check's report says it."""

    @property
    def deck_id(self) -> str: ...

    @property
    def cards(self) -> Sequence[Any]: ...
    @property
    def source(self) -> str: ...
    def sticker_text(self, card: Any) -> str: ...
    def label_lines(self, card: Any) -> list[str]: ...
    def describe(self, card: Any) -> str: ...
    def classify(self, text: str) -> Any: ...
    def is_ours(self, text: str) -> bool: ...
    def select(self, only: Iterable[str] | None) -> list[Any]: ...


@dataclass(frozen=True)
class TaggedDeck:
    """The cards of one box and the deck id printed on their stickers."""

    game: ClassVar[str] = "Noah"
    reprint: ClassVar[str] = "tags print --only SPECIES"
    deck: Deck
    deck_id: str = DEFAULT_DECK_ID

    @property
    def cards(self) -> Sequence[Card]:
        return tuple(self.deck)

    @property
    def source(self) -> str:
        """Where the deck came from (the built-in composition, or a file)."""
        return self.deck.source

    def sticker_text(self, card: Card) -> str:
        """The sticker text of ``card``."""
        return encode(self.deck_id, card)

    def label_lines(self, card: Card) -> list[str]:
        """What the sticker's label says beside its code."""
        from companion.tags.sticker import label_lines

        return label_lines(card)

    def describe(self, card: Card) -> str:
        """How a person reads a card: ``Cat ♀, weight 2 (cat:F#2)``."""
        from companion.tags.check import describe

        return describe(card)

    @staticmethod
    def is_ours(text: str) -> bool:
        """True for any text that claims to be a Noah sticker (see :func:`payload.is_ours`)."""
        from companion.tags.payload import is_ours

        return is_ours(text)

    def select(self, only: Iterable[str] | None) -> list[Card]:
        """The deck's cards, or those of the species named (``--only frog crocodile``)."""
        if not only:
            return list(self.deck)
        present = sorted(self.deck.species())
        unknown = [name for name in only if name.lower() not in present]
        if unknown:
            raise UserError(
                f"The deck {self.deck.source} has no {', '.join(unknown)}.",
                f"Name species among: {', '.join(present)}.",
            )
        wanted = {name.lower() for name in only}
        return [card for card in self.deck if card.species in wanted]

    def encode(self, card_id: str) -> str:
        """The sticker text of the card with this id.

        >>> load_tagged_deck("default").encode("cat:F#2")
        'NOAH1/BOX1/CAF2'
        """
        return encode(self.deck_id, self.deck[card_id])

    def classify(self, text: str) -> Tag:
        """What a decoded QR text means for this box (see :func:`payload.classify`)."""
        return classify(text, self.deck, self.deck_id)


def load_deck_file(deck: str | Path) -> Deck:
    """The built-in deck for ``"default"``, else the deck CSV at that path; errors for people.

    >>> load_deck_file("no/such.csv")
    Traceback (most recent call last):
    ...
    companion.errors.UserError: There is no deck file no/such.csv. Check the path, or write \
default for the built-in deck.
    """
    if str(deck) == DEFAULT_DECK:
        return default_deck()
    path = Path(deck).expanduser()
    if not os.path.exists(path):  # a folder or a pipe is said to be one by load_deck
        raise UserError(
            f"There is no deck file {deck}.",
            "Check the path, or write default for the built-in deck.",
        )
    try:
        return load_deck(path)
    except InputError as error:  # its message already names the file, the line and the field
        fix = "Fix that line, then try again." if error.line is not None else ""
        raise UserError(error.message, fix) from None


def load_tagged_deck(deck: str | Path, deck_id: str = DEFAULT_DECK_ID) -> TaggedDeck:
    """The deck ``deck`` (a path, or ``"default"``) whose stickers carry ``deck_id``."""
    return TaggedDeck(load_deck_file(deck), check_deck_id(deck_id))


def configured_tagged_deck(deck: str | None = None, deck_id: str | None = None) -> TaggedDeck:
    """The deck and deck id given on the command line, else those of the config file."""
    if deck is None or deck_id is None:
        from companion.config import load_config

        game = load_config().game
        deck = game.deck if deck is None else deck
        deck_id = game.deck_id if deck_id is None else deck_id
    return load_tagged_deck(deck, deck_id)
