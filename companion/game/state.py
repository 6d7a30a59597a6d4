"""The table as the engine records it: one :class:`State` per accepted action, and its helpers.

A state holds immutable values only (ints, strings, tuples, frozensets, and dicts never changed
once built), so the next state is a shallow copy whose changed fields are rebuilt; undo (R55)
puts the previous record back. Derived facts (each ferry's :class:`~.ferry.FerryFacts`, the
departed animals by species and tagged copy) are kept in step with the fields they derive from,
so that neither judging nor enumerating rescans the table.

>>> s = initial_state(players=3)
>>> s.phase, s.round, s.counts, s.ferries
('round_over', 0, (0, 0, 0), (None, None, None, None, None))
>>> t = s.copy()
>>> t.counts = replace_at(t.counts, 1, 8)
>>> s.counts, t.counts
((0, 0, 0), (0, 8, 0))
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, ClassVar, Literal, NamedTuple, TypeVar

from .deck import Deck, Ref, format_ref, parse_ref
from .ferry import FerryFacts, Placed, ferry_facts
from .options import Options
from .sizes import FERRY_COUNT

Ferry = tuple[Placed, ...]
Hands = tuple[tuple[str, ...], ...]
#: A physical card whatever side a snail shows: (species, printed gender, copy or None).
Identity = tuple[str, str, int | None]
_T = TypeVar("_T")
#: The engine's phase: whose action of which kind is awaited. A ``Literal`` (plain strings in
#: the table log and the JSON, free to compare in the engine's hot loop) that mypy checks
#: wherever a phase is assigned, keyed or compared.
Phase = Literal["play", "croc_flee", "lion_swap", "move_noah", "give", "scan", "round_over",
                "game_over"]
#: The phases of a round being played (a turn's steps), as opposed to scan and the pauses.
IN_ROUND_PHASES: tuple[Phase, ...] = ("play", "croc_flee", "lion_swap", "move_noah", "give")


class State:
    """One record of the table; every field holds an immutable value, so copies are shallow."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "counts", "departed", "departed_cards", "departed_ids", "departed_species", "departing",
        "extra_turn", "facts", "ferries", "fleeing", "gifts_owed", "giraffe", "hands",
        "lion_due", "loaded", "next_starter", "noah", "noah_due", "phase", "player", "round",
        "round_scores", "scores", "starter", "winners",
    )

    counts: tuple[int, ...]  # cards per seat
    departed: int  # departures this round (0-4)
    departed_cards: tuple[str, ...]  # references of the animals that left this round (public)
    departed_ids: frozenset[Identity]  # the tagged copies among them (derived: R54)
    departed_species: dict[str, int]  # how many of each species among them (derived: R48)
    departing: int | None  # position that leaves once Noah has moved
    # TABLE-LOG's extra_turn (R26, R28, R35): in the play step, this turn is a pair-bonus extra
    # turn; in a later step of a turn, this turn's loading earned a bonus.
    extra_turn: bool
    facts: tuple[FerryFacts | None, ...]  # per position, kept in step with ferries (derived)
    ferries: tuple[Ferry | None, ...]  # 5 ferries bottom first; None once gone (4th departure)
    fleeing: Placed | None  # the card fleeing a crocodile, awaiting its receiver (R45)
    gifts_owed: int  # cards still to give (R20, R21)
    giraffe: bool  # a giraffe look is still possible (R31)
    hands: Hands | None  # known hands: references per seat; None with hidden hands
    lion_due: bool  # a lion swap is owed (R30)
    loaded: Placed | None  # the card loaded in this turn (its gender moves Noah, R22)
    next_starter: int | None  # seat starting the next round, once this one is scored (R39)
    noah: int | None  # Noah's position, None before the first deal
    noah_due: bool  # Noah must still be moved (R22)
    phase: Phase
    player: int | None  # seat expected to act, None when nobody is
    round: int
    round_scores: tuple[int, ...]
    scores: tuple[int, ...]
    starter: int | None  # seat that started this round
    winners: tuple[int, ...]

    def copy(self) -> State:
        """The same record, to be changed field by field (the values themselves are shared)."""
        new = State.__new__(State)
        # dict(), not .copy(): a copy of an instance dict stays a "split" dict, on which
        # CPython 3.11 cannot specialise attribute access (3x slower for every field).
        new.__dict__ = dict(self.__dict__)
        return new


def initial_state(players: int) -> State:
    """The record before the first deal (round 0, phase ``round_over``), or of a new round."""
    state = State()
    state.__dict__ = dict.fromkeys(State.FIELDS)  # the same dict layout as a copy's
    state.round, state.phase, state.departed, state.departed_cards = 0, "round_over", 0, ()
    state.counts, state.scores = (0,) * players, (0,) * players
    state.round_scores = (0,) * players
    state.extra_turn = state.lion_due = state.noah_due = state.giraffe = False
    state.gifts_owed, state.ferries, state.winners = 0, (None,) * FERRY_COUNT, ()
    state.facts = (None,) * FERRY_COUNT
    state.departed_ids, state.departed_species = frozenset(), {}
    return state


def replace_at(items: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    """``items`` with ``value`` at ``index`` (through a list: the fastest way in CPython).

    >>> replace_at((1, 2, 3), 0, 9)
    (9, 2, 3)
    """
    changed = list(items)
    changed[index] = value
    return tuple(changed)


def add_departed(ns: State, refs: tuple[str, ...]) -> None:
    """Add animals to those gone this round, keeping their derived counts in step."""
    ns.departed_cards = ns.departed_cards + refs
    species, ids = dict(ns.departed_species), set(ns.departed_ids)
    for ref in map(parse_ref, refs):
        species[ref.species] = species.get(ref.species, 0) + 1
        if ref.copy is not None:
            ids.add(identity(ref))
    ns.departed_species, ns.departed_ids = species, frozenset(ids)


def set_ferry(ns: State, position: int, ferry: Ferry | None,
              facts: FerryFacts | None = None) -> None:
    """Change one ferry, keeping its cached facts in step."""
    ns.ferries = replace_at(ns.ferries, position, ferry)
    if facts is None and ferry is not None:
        facts = ferry_facts(ferry)
    ns.facts = replace_at(ns.facts, position, facts)


def set_ferries(ns: State, ferries: tuple[Ferry | None, ...]) -> None:
    """Lay all five ferries at once (a deal, a position)."""
    ns.ferries = ferries
    ns.facts = tuple(None if ferry is None else ferry_facts(ferry) for ferry in ferries)


@cache  # one entry per card reference of the decks in use
def hand_form(ref: str) -> str:
    """The reference of a card going back to a hand: a snail loses its side (R14).

    >>> hand_form("snail:F#2"), hand_form("cat:F")
    ('snail#2', 'cat:F')
    """
    parsed = parse_ref(ref)
    if parsed.species != "snail":
        return ref
    return format_ref("snail", None, parsed.copy)


def kind(ref: Ref) -> tuple[str, str]:
    """(species, printed gender): what the deck counts copies of."""
    return (ref.species, "H" if ref.species == "snail" else str(ref.gender))


def identity(ref: Ref) -> Identity:
    """(species, printed gender, copy): what a physical card is, whatever side a snail shows.

    >>> identity(parse_ref("snail:F#3"))
    ('snail', 'H', 3)
    """
    return (ref.species, "H" if ref.species == "snail" else str(ref.gender), ref.copy)


def find_in_hand(hand: tuple[str, ...], ref: Ref, text: str | None = None) -> int | None:
    """Where ``ref`` (written ``text``) is in a known hand: the same reference or copy first,
    else an untagged or any copy.

    >>> find_in_hand(("cat:F#2", "cat:F"), parse_ref("cat:F#2"), "cat:F#2")
    0
    >>> find_in_hand(("cat:F#2", "cat:F"), parse_ref("cat:F#1"), "cat:F#1")
    1
    """
    if text in hand:
        return hand.index(text)
    best = None
    for index, entry in enumerate(hand):
        held = parse_ref(entry)
        if held.species != ref.species or (ref.species != "snail" and held.gender != ref.gender):
            continue
        if held.copy == ref.copy:
            return index
        if (ref.copy is None or held.copy is None) and (best is None or held.copy is None):
            best = index
    return best


# -- what the table shows (hidden hands: R48, R54) ----------------------------------------------

def visible_species(s: State) -> Counter[str]:
    """R48: animals seen this round, on the ferries, fleeing, or departed."""
    seen = Counter(card.species for ferry in s.ferries if ferry for card in ferry)
    seen.update(s.departed_species)
    if s.fleeing is not None:
        seen[s.fleeing.species] += 1
    return seen


def visible_count(s: State, species: str) -> int:
    """R48 for one species: ``visible_species(s)[species]``, looking only into the ferries that
    hold one (a loading's check with hidden hands)."""
    seen = sum(card.species == species
               for ferry, facts in zip(s.ferries, s.facts, strict=True)
               if ferry is not None and facts is not None and species in facts.species
               for card in ferry)
    seen += s.departed_species.get(species, 0)
    if s.fleeing is not None and s.fleeing.species == species:
        seen += 1
    return seen


def place_on_table(s: State, card: Identity) -> tuple[str, int | None] | None:
    """R54: where a tagged copy is if it is on the table: ``("ferry", 1-5)``, ``("fleeing",
    None)`` or ``("departed", None)`` (this round); None when it is not."""
    if card in s.departed_ids:
        return ("departed", None)
    species = card[0]
    for k, (ferry, facts) in enumerate(zip(s.ferries, s.facts, strict=True)):
        if ferry is not None and facts is not None and species in facts.species and any(
                "#" in placed.ref and identity(parse_ref(placed.ref)) == card
                for placed in ferry):
            return ("ferry", k + 1)
    if s.fleeing is not None and "#" in s.fleeing.ref \
            and identity(parse_ref(s.fleeing.ref)) == card:
        return ("fleeing", None)
    return None


# -- the cards of a game ------------------------------------------------------------------------

#: Animals with a loading rule of their own (R14, R15, R43, R45): enumeration looks closer.
SPECIAL = frozenset({"crocodile", "frog", "snail", "woodpecker"})


class CardInfo(NamedTuple):
    """What enumeration reads of a card reference: species, gender (None: a snail in hand),
    weight, and whether the species is in :data:`SPECIAL`."""

    species: str
    gender: str | None
    weight: int
    special: bool


#: A card named by a play, checked against the deck (R51): its reference, the gender it is
#: loaded with (a snail's side), and the id of its copy when tagged.
NamedCard = tuple[Ref, str, str | None]


@dataclass(frozen=True, slots=True)  # slots, not a NamedTuple: its fields are read per action
class Cards:
    """The cards of a game as the engine looks them up: computed once per deck, player count and
    options, and shared by every game with them (only the memos grow, and only with the
    references of these cards)."""

    in_play: Deck
    weight: dict[str, int]  # by species
    tears: dict[str, int]  # by species
    copies: Counter[tuple[str, str]]  # by (species, printed gender)
    species_copies: Counter[str]
    ids: frozenset[str]
    #: (species, printed gender) by untagged reference, a snail's sides included: a deal's or a
    #: scan's quick count (Game._cards_problem)
    kinds: dict[str, tuple[str, str]]
    info: dict[str, CardInfo]  # by reference (memo of card_info)
    cards_named: dict[str, NamedCard]  # by reference: plain plays that passed R51's card checks
    #: by (seat, Noah's position, capacity, room, gender needed), then reference: the plays
    #: enumeration found (legal.loadings)
    fits: dict[tuple[int, int, int, int, str | None], dict[str, Any]]
    placed: dict[str, Placed]  # the card as it lies on a ferry, by reference


@lru_cache(maxsize=64)
def cards_of(deck: Deck, source: str, players: int, options: Options) -> Cards:
    """The :class:`Cards` of a game (``source``: decks alike but for their name differ).

    >>> from companion.game.deck import default_deck
    >>> cards = cards_of(default_deck(), default_deck().source, 3, Options())
    >>> cards.weight["elephant"], cards.copies["snail", "H"]
    (10, 3)
    """
    in_play = deck.for_game(players, options)
    return Cards(
        in_play=in_play,
        weight={card.species: card.weight for card in in_play},
        tears={card.species: card.tears for card in in_play},
        copies=Counter((card.species, card.gender) for card in in_play),
        species_copies=Counter(card.species for card in in_play),
        ids=frozenset(card.id for card in in_play),
        kinds={text: (card.species, card.gender) for card in in_play
               for text in _untagged_forms(card.species, card.gender)},
        info={},
        cards_named={},
        fits={},
        placed={},
    )


def _untagged_forms(species: str, gender: str) -> tuple[str, ...]:
    """The untagged references of a card: a snail's, in a hand and on either side (R14)."""
    if gender == "H":
        return (format_ref(species, None), format_ref(species, "M"), format_ref(species, "F"))
    return (format_ref(species, gender),)


def card_info(cards: Cards, text: str) -> CardInfo:
    """The :class:`CardInfo` of a reference of these cards, memoised."""
    info = cards.info.get(text)
    if info is None:
        ref = parse_ref(text)
        info = cards.info[text] = CardInfo(ref.species, ref.gender, cards.weight[ref.species],
                                           ref.species in SPECIAL)
    return info


def placed_card(cards: Cards, ref_text: str) -> Placed:
    """The card ``ref_text`` (a reference with a side) as it lies on a ferry, memoised."""
    placed = cards.placed.get(ref_text)
    if placed is None:
        ref = parse_ref(ref_text)
        placed = Placed(ref_text, ref.species, str(ref.gender), cards.weight[ref.species])
        cards.placed[ref_text] = placed
    return placed


__all__ = [
    "SPECIAL", "CardInfo", "Cards", "Ferry", "Hands", "Identity", "NamedCard", "State",
    "add_departed", "card_info", "cards_of", "find_in_hand", "hand_form", "identity",
    "initial_state", "kind", "place_on_table", "placed_card", "replace_at", "set_ferries",
    "set_ferry", "visible_count", "visible_species",
]
