"""Words for the terminal: cards and players as people name them (the engine words its verdicts;
the session's notices and prompts are the catalogs').

A card reads like its face ("the ♀ cat", "the snail, ♂ side up"), as the English catalog words
it (:func:`companion.i18n.english_catalog`): one wording of a card in English.

>>> card_name("cat:F#2"), card_name("snail:M#1"), card_name("snail#3")
('the ♀ cat', 'the snail (♂ side up)', 'the snail')
>>> join_names(["Ana", "Ben", "Chloé"])
'Ana, Ben and Chloé'
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.game.deck import parse_ref
from companion.i18n import english_catalog

SIGNS = {"M": "♂", "F": "♀"}


def card_name(ref: str) -> str:
    """A card as people see it, with the article."""
    return english_catalog().card(ref)


def copy_name(text: str) -> str:
    """A card's copy as its sticker names it, for a card that is not in the deck; text that is
    no card reference at all is quoted, control characters escaped.

    >>> copy_name("cat:F#9"), copy_name("snail#7"), copy_name("unicorn")
    ('♀ cat #9', 'snail #7', "'unicorn'")
    """
    try:
        species, gender, copy = parse_ref(text)
    except ValueError:
        return repr(text)
    name = f"{SIGNS[gender]} {species}" if gender in SIGNS else species
    return f"{name} #{copy}" if copy is not None else name


def cards_phrase(refs: Sequence[str]) -> str:
    """Several cards in one phrase.

    >>> cards_phrase(["cat:F#2", "lion:M#1"]), cards_phrase([])
    ('the ♀ cat and the ♂ lion', 'no card')
    """
    return english_catalog().cards(refs)


def join_names(names: Sequence[str]) -> str:
    return english_catalog().join(names)


def plural(count: int, word: str, words: str | None = None) -> str:
    """A count with its noun, in English (the table's catalogs word their own plurals).

    >>> plural(1, "card"), plural(3, "card"), plural(2, "process", "processes")
    ('1 card', '3 cards', '2 processes')
    """
    return f"{count} {word}" if count == 1 else f"{count} {words or word + 's'}"
