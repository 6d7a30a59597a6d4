"""The cards a claimant lays down, collected one reading at a time (C17, C33, C6).

When a player announces «Complot !», they lay their six cards face up; the hand camera's
pipeline (:class:`vision.pipeline.Pipeline` with Complot's ``is_ours``) reports each sticker it
reads as an event whose ``text`` is the QR payload. A :class:`ClaimReader` turns that stream
into the claim's cards: each card once, in the order read, foreign codes and Noah stickers
ignored with a reason, a card read again said so, and "6 cards read" once the hand is complete.
A screen without a camera (or a card the camera cannot read) adds cards by touch with
:meth:`ClaimReader.add_card`. Nothing here draws anything or judges the claim: the cards go to
the referee (:meth:`companion.complot.engine.Game.push` with ``"cards"``), which says whether
the combination is made.

>>> reader = ClaimReader()
>>> reader.read("CPLT1/BOX1/LEEM").message("en")
'Emma (Léonard) read: card 1 of 6.'
>>> reader.read("CPLT1/BOX1/LEEM").kind
'again'
>>> print(reader.read("NOAH1/BOX1/CAF2").message("en"))
'NOAH1/BOX1/CAF2' is a Noah card, not a Complot card: put it back in the Noah box.
>>> for code in ("LEAM", "LEAR", "LECL", "LESL", "LESA"):
...     reading = reader.read(f"CPLT1/BOX1/{code}")
>>> reading.kind, reading.message("fr"), reader.cards[-1]
('complete', '6 cartes lues.', 'leonard:sarah')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.game.errors import shown
from companion.session.notices import sticker_problem
from companion.tags import payload as noah_payload

from .cards import Card, Deck, default_deck
from .messages import card_label
from .payload import DEFAULT_DECK_ID, Foreign, TagError, classify

HAND = 6
SHOWN_TEXT_LIMIT = 24
"""A foreign text is cut to this many characters when said."""

#: The kinds of reading, each said by the catalogs' ``complot.reading.<kind>`` (fr, en, zh).
KINDS = ("added", "complete", "again", "full", "noah", "foreign", "unusable", "unknown_card")


@dataclass(frozen=True)
class Reading:
    """What one reading did. ``kind`` is stable for programs: ``added``, ``complete`` (added,
    and the hand is now whole), ``again`` (already collected: not added twice), ``full`` (the
    hand is whole: not added), ``noah`` (a Noah sticker), ``foreign`` (any other code),
    ``unusable`` (a Complot sticker that cannot be used here: ``reason`` says why, as
    :func:`companion.complot.payload.classify` does) or ``unknown_card`` (``add_card`` with an
    id the deck does not have). ``card`` is the card read, when there is one."""

    kind: str
    card: Card | None = None
    count: int = 0
    size: int = HAND
    text: str = ""
    reason: str | None = None
    problem: str = ""
    deck_id: str = DEFAULT_DECK_ID

    @property
    def added(self) -> bool:
        return self.kind in ("added", "complete")

    def message(self, language: str = "fr") -> str:
        """The sentence for the table in ``language``, from the catalogs (companion/i18n.py):
        the first name stays French, the category is said in the table's language
        (docs/complot.md, "Names on the screens").

        >>> reading = ClaimReader().add_card("etat-major:sophie")
        >>> reading.message("en"), reading.message("zh")
        ('Sophie (General Staff) read: card 1 of 6.', '已讀取 Sophie (參謀部)：6 張中的第 1 張。')
        """
        from companion.i18n import Catalog

        catalog = Catalog.load(language)
        card = "" if self.card is None else card_label(self.card.id, catalog.language)
        text = shown(self.text, limit=SHOWN_TEXT_LIMIT)  # control characters escaped
        return catalog.text(f"complot.reading.{self.kind}", card=card, count=self.count,
                            size=self.size, problem=self._problem(catalog),
                            text=f"'{text}'", card_id=text)

    def _problem(self, catalog: Any) -> str:
        """Why a sticker cannot be used, in the catalog's language (``notice.tag_<reason>``,
        the words Noah's stickers get)."""
        if self.reason is None:
            return self.problem
        tag = TagError(self.text, self.reason, self.problem)
        return catalog.phrase(sticker_problem(tag, self.deck_id)[0]) or self.problem


@dataclass
class ClaimReader:
    """The laid-down cards of one claim, as the camera reads them or the players tap them.

    ``size`` is how many cards make the claim (6, C17). Cards are kept in the order read.
    """

    deck: Deck = field(default_factory=default_deck)
    deck_id: str = DEFAULT_DECK_ID
    size: int = HAND
    _cards: list[Card] = field(default_factory=list, init=False)

    @property
    def cards(self) -> tuple[str, ...]:
        """The card ids collected so far, in the order read: what the claim action carries."""
        return tuple(card.id for card in self._cards)

    @property
    def complete(self) -> bool:
        return len(self._cards) >= self.size

    def read(self, text: str) -> Reading:
        """One QR text the hand camera reported (a ``CardShown`` or ``ForeignCode``'s text)."""
        tag = classify(text, self.deck, self.deck_id)
        if isinstance(tag, Foreign):
            kind = "noah" if noah_payload.is_ours(text) else "foreign"
            return self._reading(kind, text=text)
        if isinstance(tag, TagError):
            return self._reading("unusable", text=text, reason=tag.reason, problem=tag.message,
                                 deck_id=self.deck_id)
        return self._collect(tag.card)

    def on_event(self, event: Any) -> Reading | None:
        """A vision pipeline event: cards shown and foreign codes are read, the rest (a card
        taken away, the camera's status, statistics) is not about the claim's cards (None)."""
        if type(event).__name__ in ("CardShown", "ForeignCode"):
            return self.read(event.text)
        return None

    def add_card(self, card_id: str) -> Reading:
        """A card picked by touch (a table without a camera, or a sticker it cannot read)."""
        card = self.deck.get(card_id)
        if card is None:
            return self._reading("unknown_card", text=card_id)
        return self._collect(card)

    def remove_card(self, card_id: str) -> bool:
        """Take a card back (read by mistake); False when it was not collected."""
        for card in self._cards:
            if card.id == card_id:
                self._cards.remove(card)
                return True
        return False

    def clear(self) -> None:
        """Start again: no card collected."""
        self._cards.clear()

    def _collect(self, card: Card) -> Reading:
        if card in self._cards:
            return self._reading("again", card)
        if self.complete:
            return self._reading("full", card)
        self._cards.append(card)
        return self._reading("complete" if self.complete else "added", card)

    def _reading(self, kind: str, card: Card | None = None, **details: Any) -> Reading:
        return Reading(kind, card, len(self._cards), self.size, **details)


def read_all(texts: Sequence[str], deck: Deck | None = None,
             deck_id: str = DEFAULT_DECK_ID) -> list[str]:
    """The card ids of a claim from the texts the camera reported, each once, in order.

    >>> read_all(["CPLT1/BOX1/EPNO", "https://example.com", "CPLT1/BOX1/EPNO"])
    ['empires:noe']
    """
    reader = ClaimReader(deck or default_deck(), deck_id, size=len(texts) or HAND)
    for text in texts:
        reader.read(text)
    return list(reader.cards)
