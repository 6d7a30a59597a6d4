"""Which combination six laid-down cards make, and for how many points (C20–C27, C31–C40).

A combination is judged for the word announced (C33): «Complot !» scores the best of the six
classic combinations (C31), «Prix Pulitzer !» and «Plan Étaré !» need three Journalistes or
Pompiers (C32), «Complot à l'Élysée !» one of its two forms (C40).

>>> from companion.complot.cards import default_deck
>>> deck = default_deck()
>>> hand = [deck[i] for i in ("pompiers:camille", "pompiers:clara", "pompiers:etienne",
...                           "duron:jacquotte", "archange:gabrielle", "archange:igor")]
>>> made("complot", hand)
Made(combination='two_trios', points=15, form=None)
>>> made("plan_etare", hand).points
50
>>> made("complot_elysee", hand) is None
True

:class:`Rules` says how far the cards are stretched: the normal rules, or the two "what if"
readings that C47 uses to explain a refusal (``joker_not_noe``, ``villain_not_allowed``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from operator import itemgetter
from typing import NamedTuple

from .cards import (
    ATTENTAT,
    BOMB_SETTER,
    NOE,
    RED_SPY,
    VIOLET_SPY,
    Card,
)

CLAIMS = ("complot", "prix_pulitzer", "plan_etare", "complot_elysee")

#: The classic combinations of C31, in the contract's order, with their points.
CLASSIC_POINTS: dict[str, int] = {
    "two_trios": 15, "six_duron": 25, "six_senechales": 35, "six_leonards": 50,
    "six_empires": 50, "five_alphas": 75,
}
SPECIAL_POINTS = {"prix_pulitzer": 50, "plan_etare": 50, "complot_elysee": 100}
_SIXES = (("six_duron", "DU"), ("six_senechales", "SE"), ("six_leonards", "LE"),
          ("six_empires", "EP"))
_SIXES_BEST_FIRST = _SIXES[::-1]
#: The five first names of the Élysée's first form (C40).
ELYSEE_NAMES = ("NO", "SA", "MX", "MR", "AR")
#: The splits of six cards into two groups of three (C25): card 0 with two of the five others.
_SPLITS = tuple(((0, *pair), tuple(i for i in range(1, 6) if i not in pair))
                for pair in combinations(range(1, 6), 2))
#: How a méchant counts when C47 asks "would it be made were the méchants counted": red and
#: violet spies as Espions, the others as their own category.
_VILLAIN_AS = {RED_SPY: "ES", VIOLET_SPY: "ES", ATTENTAT: ATTENTAT, BOMB_SETTER: BOMB_SETTER}


class Rules(NamedTuple):
    """How cards count: ``any_joker_noe`` lets every archangel stand for Noé (C23 broken on
    purpose), ``villains_count`` counts méchants as ordinary cards (C20 broken on purpose)."""

    any_joker_noe: bool = False
    villains_count: bool = False


NORMAL = Rules()
_ANY_JOKER_NOE = Rules(any_joker_noe=True)
_VILLAINS_COUNT = Rules(villains_count=True)


class Made(NamedTuple):
    """A combination the cards make: its contract id, points and (Élysée only) form."""

    combination: str
    points: int
    form: str | None = None


#: A card as a combination sees it: (category, first-name code, may stand for Noé, the
#: first name's key in a tally ``/NO``, a number told apart from every other slot's). A
#: joker has category and name None; a méchant that does not count has category "-".
_Slot = tuple[str | None, str | None, bool, str, int]
_SLOT_CACHE: dict[Rules, dict[str, _Slot]] = {}
_SLOT_NUMBERS: dict[tuple[str | None, str | None, bool], int] = {}


def _slot(card: Card, rules: Rules) -> _Slot:
    if card.is_joker:
        seen: tuple[str | None, str | None, bool] = (
            None, None, rules.any_joker_noe or card.name == NOE)
    elif card.is_villain:
        seen = (_VILLAIN_AS[card.category], card.name, False) if rules.villains_count \
            else ("-", None, False)
    else:
        seen = (card.category, card.name, False)
    number = _SLOT_NUMBERS.setdefault(seen, len(_SLOT_NUMBERS))
    return (*seen, f"/{seen[1]}", number)


def _slots(cards: Sequence[Card], rules: Rules) -> list[_Slot]:
    """The cards as combinations see them (cached per card id: the judge's hot path; a deck
    file's card with a known id has the same category and name, C6)."""
    cache = _SLOT_CACHE.get(rules)
    if cache is None:
        cache = _SLOT_CACHE[rules] = {}
    slots = []
    for card in cards:
        slot = cache.get(card.id)
        if slot is None:
            slot = cache[card.id] = _slot(card, rules)
        slots.append(slot)
    return slots


_TRIOS: dict[int, bool] = {}
_TRIOS_KEPT = 100_000
"""At most this many triples are remembered (a few megabytes); then the memo starts again."""


def _remembered_trio(key: int, a: _Slot, b: _Slot, c: _Slot) -> bool:
    """:func:`_trio` of three slots whose numbers make ``key``, remembered: the simulator
    and the judge ask about the same few thousand triples again and again (keyed by the
    slots' numbers, one int: quicker to hash than the slots)."""
    if len(_TRIOS) >= _TRIOS_KEPT:
        _TRIOS.clear()
    known = _TRIOS[key] = _trio(a, b, c)
    return known


def _trio(a: _Slot, b: _Slot, c: _Slot) -> bool:
    """Three cards of one category or of one first name, jokers filling in (C21–C24, C27).
    (Written with sets of the three, no comprehension: a trio not yet remembered is worked
    out in every claim check.)"""
    categories = {a[0], b[0], c[0]}
    if "-" in categories:
        return False  # a méchant never counts (C20)
    categories.discard(None)  # the jokers
    if len(categories) <= 1:
        return True  # one category, or jokers only
    names = {a[1], b[1], c[1]}
    names.discard(None)  # only jokers have no first name here (a méchant was refused above)
    if len(names) != 1:
        return False
    # Noé's trio: a joker in it must be one that may stand for Noé (C23).
    return names != {NOE} or ((a[0] is not None or a[2]) and (b[0] is not None or b[2])
                              and (c[0] is not None or c[2]))


class _Tally(NamedTuple):
    """The six cards counted once: jokers, real cards per category and per first name (keys
    ``/NO``), and whether a méchant that does not count is among them (C20)."""

    jokers: int
    counts: dict[str, int]
    spoilt: bool


def _tally(slots: Sequence[_Slot]) -> _Tally:
    jokers, spoilt = 0, False
    counts: dict[str, int] = {}
    get = counts.get
    for category, _, _, name_key, _ in slots:
        if category is None:
            jokers += 1
            continue
        spoilt = spoilt or category == "-"
        counts[category] = get(category, 0) + 1
        counts[name_key] = get(name_key, 0) + 1
    return _Tally(jokers, counts, spoilt)


def _count(tally: _Tally, category: str) -> int:
    """Cards of ``category``, jokers included (C23)."""
    return tally.counts.get(category, 0) + tally.jokers


def _two_trios(slots: list[_Slot], tally: _Tally) -> bool:
    """Whether the six slots split into two trios (C25). First a quick necessary test that
    most hands fail: a trio of ``k`` real cards shares a category or a first name and has
    ``3 - k`` jokers, so each real card's category or first name, plus the jokers, counts 3
    at least. Then the ten splits, each trio looked up in the memo by its slots' numbers
    (written out here, no call per trio: a claim check tries up to twenty)."""
    counts, jokers = tally.counts, tally.jokers
    if tally.spoilt:
        return False
    for category, _, _, name_key, _ in slots:
        if category is not None and (counts[category] + jokers < 3
                                     and counts[name_key] + jokers < 3):
            return False
    numbers = [slot[4] for slot in slots]
    known = _TRIOS
    for split in _SPLITS:
        for i, j, k in split:
            key = (numbers[i] << 40) | (numbers[j] << 20) | numbers[k]
            trio = known.get(key)
            if trio is None:
                trio = _remembered_trio(key, slots[i], slots[j], slots[k])
            if not trio:
                break
        else:  # both trios
            return True
    return False


def best_classic(cards: Sequence[Card], rules: Rules = NORMAL) -> Made | None:
    """The highest classic combination of C31 the six cards make (ties: the contract's order).

    >>> from companion.complot.cards import default_deck
    >>> deck = default_deck()
    >>> best_classic([deck[f"duron:{n}"] for n in ("camille", "clara", "david", "emma",
    ...                                             "estelle", "etienne")])
    Made(combination='six_duron', points=25, form=None)
    """
    if len(cards) != 6:
        return None
    return _best_classic(_slots(cards, rules))


def _best_classic(slots: list[_Slot], tally: _Tally | None = None) -> Made | None:
    """:func:`_classic`, remembered by the six slots' numbers in order (the answer does not
    depend on the cards' order): a simulated player asks about the hand it then announces,
    and the referee judges that same hand."""
    key = tuple(sorted(map(_SLOT_NUMBER, slots)))
    known = _CLASSICS.get(key)
    if known is None:
        if len(_CLASSICS) >= _TRIOS_KEPT:
            _CLASSICS.clear()
        known = _CLASSICS[key] = (_classic(slots, tally or _tally(slots)),)
    return known[0]


_CLASSICS: dict[tuple[int, ...], tuple[Made | None]] = {}
_SLOT_NUMBER = itemgetter(4)


def _classic(slots: list[_Slot], tally: _Tally) -> Made | None:
    counts, jokers = tally.counts, tally.jokers  # _count(tally, …), written out
    if counts.get("AL", 0) + jokers >= 5:
        return Made("five_alphas", 75)
    for name, category in _SIXES_BEST_FIRST:
        if counts.get(category, 0) + jokers == 6:
            return Made(name, CLASSIC_POINTS[name])
    if _two_trios(slots, tally):
        return Made("two_trios", 15)
    return None


def elysee_form(cards: Sequence[Card], rules: Rules = NORMAL) -> str | None:
    """``5_names``, ``3_noe`` or None (C40); only Noé cards and Noé-capable jokers fill Noé.

    >>> from companion.complot.cards import default_deck
    >>> deck = default_deck()
    >>> noes = [deck[i] for i in ("etat-major:noe", "espions:noe", "archange:noe")]
    >>> elysee_form(noes + [deck["leonard:emma"]] * 3)
    '3_noe'
    """
    real_names = {card.name for card in cards if card.is_character}
    jokers = [card for card in cards if card.is_joker]
    noe_jokers = sum(1 for card in jokers if rules.any_joker_noe or card.name == NOE)
    missing = [name for name in ELYSEE_NAMES if name not in real_names]
    noe_filled = NOE not in missing or noe_jokers > 0
    if noe_filled and len(missing) <= len(jokers):
        return "5_names"
    real_noes = sum(1 for card in cards if card.is_character and card.name == NOE)
    if real_noes + noe_jokers >= 3:
        return "3_noe"
    return None


def made(claim: str, cards: Sequence[Card], rules: Rules = NORMAL) -> Made | None:
    """What the cards make for the announcement ``claim``, or None (C33: the word is judged)."""
    if claim == "complot":
        return best_classic(cards, rules)
    if claim == "complot_elysee":
        form = elysee_form(cards, rules)
        return None if form is None else Made("complot_elysee", 100, form)
    category = "JO" if claim == "prix_pulitzer" else "PO"
    if _count(_tally(_slots(cards, rules)), category) >= 3:
        return Made(claim, SPECIAL_POINTS[claim])
    return None


def why_not(claim: str, cards: Sequence[Card], level: int) -> str:
    """The refusal code of a combination not made (C47's last three steps)."""
    if made(claim, cards, _ANY_JOKER_NOE) is not None:
        return "joker_not_noe"
    if level >= 3 and made(claim, cards, _VILLAINS_COUNT) is not None:
        return "villain_not_allowed"
    return "claim_not_met"


def best_claim(cards: Sequence[Card]) -> tuple[str, Made] | None:
    """The announcement worth most that the cards allow at a discard (C33: what a companion
    offers), never the Élysée (it waits for the next turn, C41)."""
    slots = _slots(cards, NORMAL)  # counted once for the three words
    tally = _tally(slots)
    best: tuple[str, Made] | None = None
    classic = _best_classic(slots, tally) if len(cards) == 6 else None
    if classic is not None:
        best = ("complot", classic)
    for claim, category in (("prix_pulitzer", "JO"), ("plan_etare", "PO")):
        if _count(tally, category) >= 3 and (best is None
                                            or SPECIAL_POINTS[claim] > best[1].points):
            best = (claim, Made(claim, SPECIAL_POINTS[claim]))
    return best
