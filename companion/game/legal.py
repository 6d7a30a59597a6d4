"""Legal actions: every action the referee would accept now, and the caches that keep it fast.

The engine asks this module for :meth:`Game.legal_actions <.engine.Game.legal_actions>`,
``can_play`` (R25, R46) and Noah's choices (R22). Enumeration is built from the same facts the
judge reads (each ferry's :class:`~.ferry.FerryFacts`, the golden rules) and a test checks that
the two agree: every enumerated action is accepted, and no accepted loading is missing.

Enumeration meets the same few thousand actions again and again (one seat's loadings on one
ferry, its lion swaps, Noah's moves...), and frozen dataclasses are slow to build, so actions
are built once and shared between games through :data:`SHARED`, a bounded store (see
:class:`SharedActions`).

>>> from companion.game import Game, Options
>>> from companion.game.actions import StartRound
>>> game = Game(["Ana", "Ben"], Options(hidden=True))
>>> game.push(StartRound(noah=0, ferries=("cat:F", "bear:M", "lion:M", "panda:F", "snail:M"),
...                      hand_counts=(8, 8), starter=1)).accepted
True
>>> plays = legal_actions(game)
>>> plays[0]
Play(player=1, card='woodpecker:M', ferry=0, as_gender=None, frog_weight=None)
>>> plays[-1]
TakeBack(player=1, ferry=0)
"""

from __future__ import annotations

import collections
import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .actions import Action, CrocFlee, Gift, GiraffeLook, Give, LionSwap, MoveNoah, Play, TakeBack
from .deck import format_ref
from .ferry import NOAH_MOVES, WOODPECKER_CAPACITY, Loading, Placed
from .state import CardInfo, Cards, State, card_info, placed_card, visible_species

if TYPE_CHECKING:
    from .engine import Game


class SharedActions:
    """Actions built once and shared between games, in a store of at most ``limit`` entries.

    ``objects`` maps a key ``(class, *fields)`` (or a named key) to its object; ``tables`` maps
    a key to a lookup table of actions by card (a string key is cheaper to look up than a whole
    action's fields). Every entry added through :meth:`shared` or :meth:`keep` counts; when the
    count passes ``limit`` the store is emptied and refills as the games go on.

    Why "empty when full" and not ``functools.lru_cache``: lookups stay a plain ``dict.get``
    in the engine's hottest loop (an LRU's bookkeeping would be paid on every hit), and a miss
    costs only the rebuilding of one small frozen action, so which entries go does not matter.
    The working set is small: about 8,500 entries for 4-player games with one deck and one set
    of options (a row of up to 9 shared gives counts as one), about 16,000 for the four seat
    counts, so the default limit (50,000 entries, a few MB) is never reached by one table and
    bounds a long-lived process whatever decks and options it meets.

    >>> store = SharedActions(limit=2)
    >>> store.shared((MoveNoah, 0, 2)) is store.shared((MoveNoah, 0, 2))
    True
    >>> table = store.table((MoveNoah, 0))
    >>> store.keep(table, "x", 1), store.keep(table, "y", 2), len(store.objects), store.size
    (1, 2, 0, 1)
    """

    def __init__(self, limit: int = 50_000) -> None:
        self.limit = limit
        self.size = 0
        self.objects: dict[Any, Any] = {}
        self.tables: dict[Any, dict[Any, Any]] = {}

    def shared(self, key: tuple[Any, ...]) -> Any:
        """The object ``key[0](*key[1:])``, built once.

        Hot loops look up ``objects.get(key) or shared(key)`` themselves, saving a call.
        """
        made = self.objects.get(key)
        if made is None:
            made = self.keep(self.objects, key, key[0](*key[1:]))
        return made

    def table(self, key: tuple[Any, ...]) -> dict[Any, Any]:
        """A lookup table of shared actions (one seat's plain loadings on one ferry...)."""
        table = self.tables.get(key)
        if table is None:
            table = self.tables[key] = {}
        return table

    def keep(self, table: dict[Any, Any], key: Any, value: Any) -> Any:
        """Store ``value`` in ``table`` (one of this store's) and return it; empty the store
        first when it is full."""
        self.size += 1
        if self.size > self.limit:
            self.clear()
            self.size = 1
        table[key] = value
        return value

    def clear(self) -> None:
        """Forget every shared action (tables held by a caller stay valid, just unshared)."""
        self.objects.clear()
        for table in self.tables.values():
            table.clear()
        self.tables.clear()
        self.size = 0


#: The store every game shares.
SHARED = SharedActions()


def legal_actions(game: Game) -> list[Action]:
    """The actions ``game`` accepts now, for the step awaited (R50).

    Known hands: every choice (cards, targets, recipients; copies of a card are alike).
    Hidden hands: loadings of every card that may still be in a hand, take-back, targets,
    Noah's moves and gift recipients. Empty between rounds (a deal is not enumerated).
    """
    s = game._state
    phase = s.phase
    if phase == "play":
        plays = loadings(game, s)
        noah = s.noah
        assert noah is not None  # in the play step Noah stands on a ferry
        if s.ferries[noah] and (s.hands is None or not plays):
            plays.append(SHARED.objects.get((TakeBack, s.player, noah))
                         or SHARED.shared((TakeBack, s.player, noah)))
        return plays
    if phase == "lion_swap" and s.hands is not None:
        return lion_swaps(game, s, s.hands)
    if phase == "give" and s.hands is not None:
        return gifts(game, s, s.hands)
    if phase in ("croc_flee", "lion_swap", "move_noah", "give"):
        return list(step_choices(game, s))
    return []


def noah_choices(s: State) -> list[int]:
    """R22: Noah's destinations in the ``move_noah`` step, else ``[]``."""
    if s.phase != "move_noah" or s.loaded is None or s.noah is None:
        return []
    return list(NOAH_MOVES[s.loaded.gender][s.noah])


def loadings(game: Game, s: State) -> list[Action]:
    """Every legal :class:`Play` for the current player (by distinct card and choice).

    The golden rules of ``Game._rule_broken`` (R51's order does not matter here: only whether
    some rule is broken), read from the ferry's facts; a test checks that these are exactly the
    loadings ``check`` accepts.
    """
    cards = game._cards
    player, noah = s.player, s.noah
    assert player is not None and noah is not None  # a loading is awaited
    candidates = _candidates(cards, s, player)
    ferry, facts = s.ferries[noah], s.facts[noah]
    if ferry is None or facts is None:  # never in the play step: Noah stands on a ferry (R24)
        return []
    total, capacity, needed, _, species_aboard, _, _ = facts  # unpacked: faster than by name
    room = capacity - total
    # What each card gives on a ferry with this capacity, room and gender needed: its plays
    # (none, one, a snail's two sides, a frog's filling weight too), in enumeration order. Kept
    # with these cards (weights differ between decks), so bounded by them. A crocodile is never
    # kept: on a loaded ferry it is judged after its flight (R45), which these facts miss.
    fits_key = (player, noah, capacity, room, needed)
    fits = cards.fits.get(fits_key)
    if fits is None:
        fits = cards.fits[fits_key] = {}
    aboard = species_aboard if game._options.roommates else ()
    if not aboard:
        try:  # the usual case, every card met before on such a ferry: one C-level pass
            return list(itertools.chain.from_iterable(map(fits.__getitem__, candidates)))
        except KeyError:  # a card not met yet on such a ferry: the loop below
            pass
    plays: list[Action] = []
    for text in candidates:
        info = card_info(cards, text)
        species = info.species
        if species == "crocodile":  # never kept (see above)
            plays += _crocodile_plays(game, ferry, info, text, player, noah, capacity, room, needed)
            continue
        if species in aboard:  # R47
            continue
        fit = fits.get(text)
        if fit is None:
            fit = fits[text] = _fit(info, player, noah, text, capacity, room, needed)
        plays += fit
    return plays


def _crocodile_plays(game: Game, ferry: tuple[Placed, ...], info: CardInfo, text: str,
                     player: int, noah: int, capacity: int, room: int,
                     needed: str | None) -> tuple[Action, ...]:
    """A crocodile's play: on an empty ferry like any card, else judged after its flight."""
    if not ferry:
        return _fit(info, player, noah, text, capacity, room, needed)
    if isinstance(game._loading(ferry, placed_card(game._cards, text), None), Loading):
        return (SHARED.shared((Play, player, text, noah)),)  # R45, R46
    return ()


def _candidates(cards: Cards, s: State, player: int) -> dict[str, None]:
    """The cards the player may load, each once: the hand's when hands are known, else every
    card of the deck that is not all in sight (hidden hands)."""
    if s.hands is not None:
        return dict.fromkeys(s.hands[player])
    visible = visible_species(s)
    return dict.fromkeys(
        format_ref(species, None if gender == "H" else gender)
        for species, gender in cards.copies
        if visible[species] < cards.species_copies[species]
    )


def _fit(info: CardInfo, player: int, noah: int, text: str, capacity: int, room: int,
         needed: str | None) -> tuple[Play, ...]:
    """The plays of a card whose weight and gender fit (R13, R15; a snail's sides R14, a frog's
    filling weight R43, a woodpecker's capacity R15), on a ferry without roommates' rule."""
    species, gender, weight, _ = info
    if species == "woodpecker":
        room = WOODPECKER_CAPACITY - (capacity - room)
    if weight > room:
        return ()
    if species == "snail":
        return tuple(SHARED.shared((Play, player, text, noah, side))
                     for side in ("M", "F") if needed is None or side == needed)
    if needed is not None and gender != needed:
        return ()
    key = (Play, player, noah)
    plain = SHARED.tables.get(key) or SHARED.table(key)  # plain plays by card
    play: Play = plain.get(text) or SHARED.keep(plain, text, Play(player, text, noah))
    if species == "frog" and 2 <= room <= 5:  # R43: the weight that fills it
        return (play, SHARED.shared((Play, player, text, noah, None, room)))
    return (play,)


def step_choices(game: Game, s: State) -> tuple[Action, ...]:
    """The choices of a step that depend on no hand (targets, Noah's moves, gift recipients),
    shared between games."""
    phase, players = s.phase, len(game._players)
    key: tuple[Any, ...]
    if phase == "move_noah" and s.loaded is not None:
        _, _, gender, _ = s.loaded  # unpacked: a NamedTuple's fields are slow to read
        key = (players, phase, s.player, gender, s.noah, s.giraffe)
    elif phase == "give":
        key = (players, phase, s.player, s.gifts_owed)
    else:
        key = (players, phase, s.player)
    choices: tuple[Action, ...] | None = SHARED.objects.get(key)
    if choices is None:
        choices = SHARED.keep(SHARED.objects, key, tuple(_list_step_choices(game, s)))
    return choices


def _list_step_choices(game: Game, s: State) -> Iterator[Action]:
    player = _seat(s)
    opponents = _opponents(game, player)
    if s.phase == "croc_flee":
        yield from (CrocFlee(player, seat) for seat in opponents)
    elif s.phase == "lion_swap":
        yield from (LionSwap(player, seat) for seat in opponents)
    elif s.phase == "move_noah":
        yield from (MoveNoah(player, to) for to in noah_choices(s))
        if s.giraffe:
            yield from (GiraffeLook(player, seat) for seat in opponents)
    else:
        for recipients in itertools.combinations_with_replacement(opponents, s.gifts_owed):
            yield Give(player, tuple(SHARED.shared((Gift, to)) for to in recipients))


def lion_swaps(game: Game, s: State, hands: tuple[tuple[str, ...], ...]) -> list[Action]:
    """Every (target, card taken, card given back) with known hands (R30)."""
    player = _seat(s)
    own = tuple(dict.fromkeys(hands[player]))
    swaps: list[Action] = []
    for seat in _opponents(game, player):
        by_take = SHARED.table((LionSwap, player, seat))  # the swaps by card taken, card given
        for take in dict.fromkeys(hands[seat]):
            by_give = by_take.get(take)
            if by_give is None:
                by_give = SHARED.keep(by_take, take, {})
            gives = own if take in own else (*own, take)
            row = list(map(by_give.get, gives))  # one C-level loop when all are known
            if not all(row):  # (not "None in row": that compares actions)
                row = [by_give.get(give)
                       or SHARED.keep(by_give, give, LionSwap(player, seat, take, give))
                       for give in gives]
            swaps += row
    return swaps


#: Gives of at most this many cards are shared, by player and cards given (for a 4-player deck
#: 4 × 780 rows of 9 gives for two cards); longer ones are too many to keep, and are built each
#: time (more than half of a random game's gives have one or two cards).
SHARED_GIFTS = 2


def gifts(game: Game, s: State, hands: tuple[tuple[str, ...], ...]) -> list[Action]:
    """Every distinct choice of cards and recipients with known hands (R20: all owed cards in
    one ``give``): 1,215 when 4 of 6 distinct cards go to 3 opponents, in the order of
    :func:`gift_choices`."""
    player = _seat(s)
    hand, opponents, owed = hands[player], _opponents(game, player), s.gifts_owed
    if owed <= SHARED_GIFTS and len(set(hand)) == len(hand):
        return _shared_gifts(player, opponents, sorted(hand), owed)
    return _gives(player, gift_choices(hand, opponents, owed))


def _shared_gifts(player: int, opponents: tuple[int, ...], cards: list[str],
                  owed: int) -> list[Action]:
    """:func:`gift_choices`'s gives for distinct ``cards`` (sorted), from rows shared between
    games: one row per choice of cards, its gives to every choice of recipients."""
    by_cards = SHARED.table((Give, player, opponents))
    rows = [by_cards.get(choice) or SHARED.keep(by_cards, choice, tuple(_gives(
                player, itertools.product(*(_gifts_of(card, opponents) for card in choice)))))
            for choice in itertools.combinations(cards, owed)]
    return list(itertools.chain.from_iterable(rows))


_new_object = object.__new__
_set_giver = vars(Give)["player"].__set__  # the slots the frozen dataclass's __init__ sets
_set_gifts = vars(Give)["gifts"].__set__
#: Runs an iterator to its end, at C speed.
_consume: Callable[[Iterable[Any]], None] = collections.deque(maxlen=0).extend


def _gives(player: int, choices: Iterable[tuple[Gift, ...]]) -> list[Action]:
    """``[Give(player, gifts) for gifts in choices]`` in C-level loops: each give made empty,
    then its two slots filled (with known hands a gift step enumerates hundreds of gives, and a
    frozen dataclass's ``__init__`` costs several times as much).

    >>> _gives(0, [(Gift(1, "cat:F"),), (Gift(2, "cat:F"),)]) == [
    ...     Give(0, (Gift(1, "cat:F"),)), Give(0, (Gift(2, "cat:F"),))]
    True
    """
    choices = list(choices)
    gives: list[Action] = list(map(_new_object, itertools.repeat(Give, len(choices))))
    _consume(map(_set_giver, gives, itertools.repeat(player)))
    _consume(map(_set_gifts, gives, choices))
    return gives


def gift_choices(hand: Iterable[str], opponents: tuple[int, ...],
                 owed: int) -> Iterator[tuple[Gift, ...]]:
    """Every distinct way to give ``owed`` cards of ``hand`` to ``opponents``, each produced
    once, as gifts in card order.

    >>> for choice in gift_choices(["cat:F", "cat:F"], (1, 2), 2):
    ...     print(*choice)
    Gift(to=1, card='cat:F') Gift(to=1, card='cat:F')
    Gift(to=1, card='cat:F') Gift(to=2, card='cat:F')
    Gift(to=2, card='cat:F') Gift(to=2, card='cat:F')
    """
    cards = sorted(hand)
    if len(set(cards)) == len(cards):  # the usual hand: any opponent for each card
        per_card = [_gifts_of(card, opponents) for card in cards]
        for chosen in itertools.combinations(per_card, owed):
            yield from itertools.product(*chosen)
        return
    for chosen_cards in dict.fromkeys(itertools.combinations(cards, owed)):
        alike = [(card, len(tuple(run))) for card, run in itertools.groupby(chosen_cards)]
        if len(alike) == owed:
            yield from itertools.product(*(_gifts_of(card, opponents) for card in chosen_cards))
        else:  # alike cards go to a multiset of opponents, so each choice comes once
            parts = [itertools.combinations_with_replacement(_gifts_of(card, opponents), count)
                     for card, count in alike]
            for chosen in itertools.product(*parts):
                yield tuple(itertools.chain.from_iterable(chosen))


def _gifts_of(card: str, opponents: tuple[int, ...]) -> tuple[Gift, ...]:
    """``card`` given to each opponent in turn (shared between games)."""
    key = ("gifts of", card, opponents)
    made: tuple[Gift, ...] | None = SHARED.objects.get(key)
    if made is None:
        made = SHARED.keep(SHARED.objects, key,
                           tuple(SHARED.shared((Gift, to, card)) for to in opponents))
    return made


def _opponents(game: Game, seat: int) -> tuple[int, ...]:
    return game._opponents[seat]


def _seat(s: State) -> int:
    """The seat to act, in a step of a round (where there always is one)."""
    assert s.player is not None
    return s.player


__all__ = ["SHARED", "SharedActions", "gift_choices", "legal_actions", "loadings",
           "noah_choices", "step_choices"]
