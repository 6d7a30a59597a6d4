"""Checking a tagged deck: show every card once, then hear what is missing, doubled or foreign.

:class:`DeckCheck` is the bookkeeping, fed one *presentation* at a time (a card shown to the
camera, or a code found in a photo) and free of any I/O; the command ``noah-companion tags
check`` feeds it from a camera, a video or a folder of photos.

>>> from companion.tags.tagged_deck import load_tagged_deck
>>> check = DeckCheck(load_tagged_deck("default"))
>>> print(check.saw("NOAH1/BOX1/CAF2", "photo 1"))
Cat ♀, weight 2 (cat:F#2)  1/52
>>> print(check.saw("NOAH1/BOX1/CAF2", "photo 2"))
Cat ♀, weight 2 (cat:F#2) AGAIN (also seen: photo 1). Is this sticker on two cards?
>>> print(check.saw("https://example.com", "photo 2"))
Not a Noah sticker: 'https://example.com' (ignored).
>>> report = check.report()
>>> len(report.missing), [card.id for card, _ in report.doubled], report.ok
(51, ['cat:F#2'], False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import UserError
from companion.game.deck import Card
from companion.game.errors import shown
from companion.tags.payload import GENDER_SIGNS, Foreign, TagError
from companion.tags.tagged_deck import StickeredDeck

if TYPE_CHECKING:
    from vision.decoders import Decoder

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
SHOWN_TEXT_LIMIT = 40
"""Foreign texts are cut to this many characters when shown."""


def describe(card: Card) -> str:
    """How a person reads a card: species, gender sign, weight and its id.

    >>> from companion.game.deck import default_deck
    >>> describe(default_deck()["snail#3"])
    'Snail ♂♀, weight 1 (snail#3)'
    """
    return f"{card.species.capitalize()} {GENDER_SIGNS[card.gender]}, weight {card.weight} " \
           f"({card.id})"


def _shown(text: str) -> str:
    return f"'{shown(text, limit=SHOWN_TEXT_LIMIT)}'"  # control characters escaped


@dataclass
class CheckReport:
    """What a check found: cards never seen, seen more than once, foreign codes, bad stickers."""

    deck_id: str
    cards: int
    seen: int
    missing: list[Any]
    doubled: list[tuple[Any, list[str]]]
    foreign: dict[str, list[str]]
    problems: dict[str, tuple[str, list[str]]]
    game: str = "Noah"
    describe: Callable[[Any], str] = field(default=describe, repr=False)
    reprint: str = "tags print --only SPECIES"
    """The command that reprints one card's sticker, said when a card is never seen."""

    @property
    def ok(self) -> bool:
        """True when every card was seen exactly once and no sticker of ours was unusable."""
        return not (self.missing or self.doubled or self.problems)

    def lines(self) -> Iterator[str]:
        """The report as lines of text for a person."""
        yield f"Seen {self.seen} of the {self.cards} cards of deck {self.deck_id}."
        if self.missing:
            yield f"Never seen ({len(self.missing)}):"
            yield from (f"  {self.describe(card)}" for card in self.missing)
            yield "  Show them again. If one still does not count, reprint its sticker " \
                  f"({self.reprint})."
        if self.doubled:
            yield f"Seen more than once ({len(self.doubled)}):"
            yield from (f"  {self.describe(card)}: {', '.join(where)}"
                        for card, where in self.doubled)
            yield "  The same sticker is probably on two cards: find them by their labels and " \
                  "reprint the right sticker for one of them."
        if self.problems:
            yield f"Unusable {self.game} stickers ({len(self.problems)}):"
            yield from (f"  {_shown(text)} ({', '.join(where)}): {message}"
                        for text, (message, where) in self.problems.items())
        if self.foreign:
            yield f"Other QR codes, not {self.game} stickers, ignored ({len(self.foreign)}):"
            yield from (f"  {_shown(text)}: {', '.join(where)}"
                        for text, where in self.foreign.items())
        if self.ok:
            yield "Every card was seen exactly once: this deck is ready to play."


@dataclass
class DeckCheck:
    """The tally of one check of the cards of ``tagged`` (or only ``cards`` of it), of either
    game."""

    tagged: StickeredDeck
    cards: Sequence[Any] | None = None
    _seen: dict[str, list[str]] = field(default_factory=dict, init=False)
    _foreign: dict[str, list[str]] = field(default_factory=dict, init=False)
    _problems: dict[str, tuple[str, list[str]]] = field(default_factory=dict, init=False)

    @property
    def expected(self) -> Sequence[Any]:
        return self.tagged.cards if self.cards is None else self.cards

    def saw(self, text: str, where: str) -> str:
        """Count one presentation of the code ``text`` (``where``: e.g. a photo's name); say it."""
        tag = self.tagged.classify(text)
        if isinstance(tag, Foreign):
            self._foreign.setdefault(text, []).append(where)
            return f"Not a {self.tagged.game} sticker: {_shown(text)} (ignored)."
        if isinstance(tag, TagError):
            self._problems.setdefault(text, (tag.message, []))[1].append(where)
            return f"Unusable sticker: {tag.message}"
        return self._saw_card(tag, where)

    def _saw_card(self, tag: Any, where: str) -> str:
        card, said = tag.card, self.tagged.describe(tag.card)
        if card not in self.expected:
            return f"{said}: not among the cards being checked (ignored)."
        earlier = self._seen.setdefault(card.id, [])
        earlier.append(where)
        if len(earlier) > 1:
            return f"{said} AGAIN (also seen: {', '.join(earlier[:-1])}). " \
                   "Is this sticker on two cards?"
        return f"{said}  {self.count_seen()}/{len(self.expected)}"

    def count_seen(self) -> int:
        return len(self._seen)

    @property
    def complete(self) -> bool:
        """True once every expected card has been seen."""
        return self.count_seen() == len(self.expected)

    def report(self) -> CheckReport:
        doubled = [(card, self._seen[card.id]) for card in self.expected
                   if len(self._seen.get(card.id, ())) > 1]
        return CheckReport(
            deck_id=self.tagged.deck_id,
            cards=len(self.expected),
            seen=self.count_seen(),
            missing=[card for card in self.expected if card.id not in self._seen],
            doubled=doubled,
            foreign=dict(self._foreign),
            problems=dict(self._problems),
            game=self.tagged.game,
            describe=self.tagged.describe,
            reprint=self.tagged.reprint,
        )


def image_files(folder: Path) -> list[Path]:
    """The photos in ``folder``, by name; a :class:`UserError` if there are none."""
    if not folder.is_dir():
        raise UserError(f"There is no folder {folder}.", "Give the folder that holds the photos.")
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise UserError(
            f"The folder {folder} holds no photos ({', '.join(IMAGE_SUFFIXES)}).",
            "Put the photos of your cards there, or give another folder.",
        )
    return files


def folder_presentations(folder: Path, decoder: Decoder) -> Iterator[tuple[str, str]]:
    """``(text, photo name)`` for every code ``decoder`` finds in every photo of ``folder``.

    A code found twice in one photo counts twice: two cards carry it.
    """
    from vision.sources import ImageUnreadable, read_image

    for path in image_files(folder):
        try:
            image = read_image(path, grayscale=True)  # its size checked before decoding
        except ImageUnreadable as problem:
            raise UserError(problem.what, problem.fix or "Remove it or save it again.") from None
        for detection in decoder.decode(image):
            yield detection.text, path.name

