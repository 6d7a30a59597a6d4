"""Ferries: the cards aboard, the facts the golden rules need, and Noah's moves (R3, R13-R22).

>>> cat, bear = Placed("cat:F", "cat", "F", 2), Placed("bear:M", "bear", "M", 7)
>>> facts = ferry_facts((cat, bear))
>>> facts.total, facts.capacity, facts.needed, facts.pattern
(9, 21, 'F', 'alternate')
>>> facts.after(Placed("woodpecker:F", "woodpecker", "F", 0)).capacity
13
>>> NOAH_MOVES["M"][0]
(2, 3)
"""

from __future__ import annotations

from functools import lru_cache, partial
from typing import NamedTuple

from .sizes import FERRY_COUNT

RESERVE = 3  # ferries in reserve (R3)
CAPACITY, WOODPECKER_CAPACITY = 21, 13  # R3, R15
#: R22: Noah's destinations by the loaded card's gender and his position (±1 after a female,
#: ±2 after a male, on the circle of five positions).
NOAH_MOVES = {
    gender: tuple(
        tuple(sorted({(position + step) % FERRY_COUNT for step in (distance, -distance)}))
        for position in range(FERRY_COUNT)
    )
    for gender, distance in (("F", 1), ("M", 2))
}


class Placed(NamedTuple):
    """A card on a ferry: its reference (a snail's with its side), species, gender, weight."""

    ref: str
    species: str
    gender: str
    weight: int


class FerryFacts(NamedTuple):
    """What the golden rules need to know of a ferry, computed once per ferry."""

    total: int
    capacity: int
    needed: str | None  # the gender the next card must have (R13), None if free
    pattern: str | None  # "same" or "alternate" once two cards fix it
    #: the species aboard, each once (a tuple, not a frozenset: a ferry holds a few, and a
    #: record of plain tuples leaves the cycle collector's watch, which every action pays for)
    species: tuple[str, ...]
    top: Placed | None
    size: int  # cards aboard (not ``count``: tuple's own method)

    def after(self, card: Placed) -> FerryFacts:
        """The facts once ``card`` is loaded on top (no flight): cheaper than recomputing."""
        # Unpacked: reading a NamedTuple's fields one by one is several times slower.
        total, capacity, needed, pattern, species, top, size = self
        _, kind, gender, weight = card
        opposite = "M" if gender == "F" else "F"
        if size >= 2:
            if pattern != "same":
                needed = opposite
        elif size == 1:
            assert top is not None
            pattern, needed = ("same", gender) if top.gender == gender else ("alternate", opposite)
        else:
            needed = pattern = None
        if kind not in species:
            species = (*species, kind)
        if kind == "woodpecker":
            capacity = WOODPECKER_CAPACITY
        return _new_facts((total + weight, capacity, needed, pattern, species, card, size + 1))


class Loading(NamedTuple):
    """A legal loading's outcome: the ferry after it, what fled, whether it is full, a pair."""

    ferry: tuple[Placed, ...]
    fled: Placed | None
    full: bool
    pair: bool
    facts: FerryFacts  # of the ferry after the loading


#: ``new_loading((ferry, fled, full, pair, facts))``: a :class:`Loading` without NamedTuple's
#: Python-level ``__new__`` (every loading judged builds one).
new_loading = partial(tuple.__new__, Loading)

#: ``FerryFacts`` from one tuple, skipping NamedTuple's Python-level ``__new__`` (every loading
#: builds one).
_new_facts = partial(tuple.__new__, FerryFacts)


@lru_cache(maxsize=4096)  # deals, departures and take-backs lay the same short ferries again
def ferry_facts(ferry: tuple[Placed, ...]) -> FerryFacts:
    """R13, R15 for one ferry.

    >>> cat, bear = Placed("cat:F", "cat", "F", 2), Placed("bear:M", "bear", "M", 7)
    >>> ferry_facts((cat, bear)).needed, ferry_facts((cat, bear)).total
    ('F', 9)
    """
    species = tuple(dict.fromkeys(card.species for card in ferry))
    capacity = WOODPECKER_CAPACITY if "woodpecker" in species else CAPACITY
    needed = pattern = None
    if len(ferry) >= 2:
        if ferry[0].gender == ferry[1].gender:
            needed, pattern = ferry[0].gender, "same"
        else:
            needed, pattern = ("M" if ferry[-1].gender == "F" else "F"), "alternate"
    total = sum(card.weight for card in ferry)
    return FerryFacts(total, capacity, needed, pattern, species, ferry[-1] if ferry else None,
                      len(ferry))
