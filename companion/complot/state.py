"""The table as the Complot referee keeps it between two actions (known cards).

Cards are small ints inside the state: a card's position in its :class:`~.cards.Deck`
(``deck.cards[n]``; the ids stay strings at the referee's API, in refusals and in the log).
Piles are tuples whose **last** item is the top card. Every card in play is in exactly one
place: the «pioche», the «défausse», a hand, or a claimant's laid-down hand (C17) — the
invariant :meth:`State.missing_cards` checks.

Every field holds an immutable value (an int, a string, a tuple), and an action replaces the
fields it changes instead of writing into them. So :meth:`State.save`, the fields' values read
by name into one tuple, is a snapshot of the table, and :meth:`State.restore` brings it back
exactly: the referee's ``pop`` and a refused action's way back, without copying a pile. The
state has ``__slots__``: its fields are read and written at fixed places (an instance
``__dict__``, once a snapshot copied it, is read through hashed lookups).

>>> table = State(2, (0, 0), 0, pioche=(1, 2), hands=((3,), (4,)))
>>> saved = table.save()
>>> table.take_top_of_pioche()
2
>>> table.give(0, 2)
>>> table.pioche, table.hands
((1,), ((3, 2), (4,)))
>>> table.restore(saved)
>>> table.pioche, table.hands
((1, 2), ((3,), (4,)))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .judge import game_winners

try:  # installed with mypy; the engine itself needs only the standard library
    from mypy_extensions import mypyc_attr
except ImportError:
    from .native import mypyc_attr

_Value = TypeVar("_Value")


def replaced(values: tuple[_Value, ...], seat: int, value: _Value) -> tuple[_Value, ...]:
    """``values`` with item ``seat`` replaced by ``value`` (per-seat fields are tuples).

    >>> replaced((0, 0, 0), 1, 5)
    (0, 5, 0)
    """
    changed = list(values)  # through a list: about half the instructions of (*a, x, *b)
    changed[seat] = value
    return tuple(changed)


def without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``cards`` less the first ``card`` (ValueError when it holds none), order kept.

    >>> without((4, 7, 9, 7), 7)
    (4, 9, 7)
    """
    at = cards.index(card)
    return cards[:at] + cards[at + 1:]


@dataclass(slots=True)
class State:
    """Everything :class:`~companion.complot.engine.Game` needs to judge the next action."""

    players: int
    scores: tuple[int, ...]
    dealer: int
    manche: int = 0
    phase: str = "deal"  # deal, turn, attentat, manche_over, game_over
    current: int = 0
    drawn: bool = False
    pioche: tuple[int, ...] = ()
    defausse: tuple[int, ...] = ()
    top_blocked: bool = False  # C68: the top of the «défausse» served in an action
    hands: tuple[tuple[int, ...], ...] = ()
    laid: tuple[tuple[int, ...], ...] = ()
    out: tuple[bool, ...] = ()
    skip: tuple[bool, ...] = ()
    turns_done: tuple[int, ...] = ()
    window: int | None = None  # C30: the seat that just ended a turn and may still announce
    window_used: bool = False  # C45: that seat already made a wrong claim in this window
    manche_points: tuple[int, ...] = ()
    end_reason: str | None = None
    reshuffles: int = 0
    claims: tuple[tuple[int, str, int], ...] = ()  # (seat, claim, points)

    def save(self) -> tuple[Any, ...]:
        """The values of every field, for :meth:`restore` (the values are immutable: the
        tuple is a snapshot of the table). Written out by name, as is :meth:`restore`
        (tests/complot/test_undo.py checks that no field is left out)."""
        return (self.players, self.scores, self.dealer, self.manche, self.phase, self.current,
                self.drawn, self.pioche, self.defausse, self.top_blocked, self.hands,
                self.laid, self.out, self.skip, self.turns_done, self.window,
                self.window_used, self.manche_points, self.end_reason, self.reshuffles,
                self.claims)

    def restore(self, saved: tuple[Any, ...]) -> None:
        """Every field back to the values :meth:`save` returned."""
        (self.players, self.scores, self.dealer, self.manche, self.phase, self.current,
         self.drawn, self.pioche, self.defausse, self.top_blocked, self.hands,
         self.laid, self.out, self.skip, self.turns_done, self.window,
         self.window_used, self.manche_points, self.end_reason, self.reshuffles,
         self.claims) = saved

    def copy(self) -> State:
        """A state equal to this one (its values are immutable: they are shared)."""
        twin = State(self.players, self.scores, self.dealer)
        twin.restore(self.save())
        return twin

    def take_top_of_pioche(self) -> int:
        """The top card of the «pioche», taken off it."""
        pioche = self.pioche
        self.pioche = pioche[:-1]
        return pioche[-1]

    def give(self, seat: int, card: int) -> None:
        """Put ``card`` at the end of the hand of ``seat``."""
        self.hands = replaced(self.hands, seat, self.hands[seat] + (card,))

    def take(self, seat: int, card: int) -> None:
        """Take ``card`` out of the hand of ``seat`` (ValueError when it is not there)."""
        self.hands = replaced(self.hands, seat, without(self.hands[seat], card))

    def discard(self, *cards: int) -> None:
        """Put ``cards`` on the «défausse», the last one on top."""
        self.defausse += cards

    def still_in(self) -> list[int]:
        return still_in(self.out)

    def next_seat(self, seat: int) -> int:
        """The next seat clockwise still in the manche (C15)."""
        return next_seat(self.out, seat)

    def previous_seat(self, seat: int) -> int:
        """The nearest seat counter-clockwise still in the manche (C82)."""
        for step in range(1, self.players + 1):
            candidate = (seat - step) % self.players
            if not self.out[candidate]:
                return candidate
        return seat

    def places(self) -> Iterator[int]:
        """Every card the table holds, wherever it is."""
        yield from self.pioche
        yield from self.defausse
        for hand in self.hands:
            yield from hand
        for cards in self.laid:
            yield from cards

    def missing_cards(self, in_play: Sequence[int], ids: Sequence[str]) -> str | None:
        """None when every card of ``in_play`` (sorted) is in exactly one place; else what is
        wrong, with the cards' ``ids``."""
        if self.manche == 0:
            return None
        cards = sorted(self.places())
        if cards == in_play:  # the usual answer, found quickly
            return None
        counts, expected = Counter(cards), Counter(in_play)
        lost = sorted(ids[card] for card in (expected - counts).elements())
        extra = sorted(ids[card] for card in (counts - expected).elements())
        return f"cards lost {lost[:5]}, cards extra or twice {extra[:5]}"


def still_in(out: Sequence[bool]) -> list[int]:
    """The seats still in the manche, given which are out (C17)."""
    return [seat for seat, gone in enumerate(out) if not gone]


def next_seat(out: Sequence[bool], seat: int) -> int:
    """The nearest seat clockwise of ``seat`` still in the manche (C15); ``seat`` itself when
    nobody else is.

    >>> next_seat([False, True, False], 0), next_seat([False, True, True], 0)
    (2, 0)
    """
    players = len(out)
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if not out[candidate]:
            return candidate
    return seat


class _Scored(Protocol):
    """What :class:`RefereeReads` reads of a referee's state (both table models have it)."""

    @property
    def phase(self) -> str: ...
    @property
    def manche(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def window(self) -> int | None: ...
    @property
    def window_used(self) -> bool: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def manche_points(self) -> Sequence[int]: ...
    @property
    def end_reason(self) -> str | None: ...
    def still_in(self) -> list[int]: ...


_State = TypeVar("_State", bound=_Scored)
_Saved = TypeVar("_Saved")
_Done = TypeVar("_Done")


@mypyc_attr(allow_interpreted_subclasses=True)
class RefereeReads(Generic[_State, _Saved, _Done]):
    """The read-only properties both Complot referees give, the one that knows the cards
    (:class:`~companion.complot.engine.Game`) and the one of a hidden-hands table
    (:class:`~companion.complot.table.Table`), read from their current state and undo
    stack.

    Generic in the state, in what the undo stack saves and in the actions it keeps, so that
    each referee's fields keep their own types (the compiled build, docs/complot.md, refuses
    a subclass that narrows an inherited attribute's type);
    :class:`~companion.complot.table.Table` stays interpreted Python, hence
    ``allow_interpreted_subclasses``."""

    __slots__ = ()
    _state: _State
    _undo: list[tuple[_Saved, _Done]]
    players: tuple[str, ...]
    level: int
    target: int

    @property
    def manche(self) -> int:
        return self._state.manche

    @property
    def dealer(self) -> int:
        return self._state.dealer

    @property
    def claim_window(self) -> int | None:
        """The seat that has just ended its turn and may still announce (C30, C45)."""
        return None if self._state.window_used else self._state.window

    @property
    def still_in(self) -> tuple[int, ...]:
        """The seats still in the manche (C17)."""
        return tuple(self._state.still_in())

    @property
    def scores(self) -> tuple[int, ...]:
        """The totals (C53)."""
        return tuple(self._state.scores)

    @property
    def manche_points(self) -> tuple[int, ...]:
        """The points scored so far in this manche (C52)."""
        return tuple(self._state.manche_points)

    @property
    def end_reason(self) -> str | None:
        """``last_player``, ``elysee`` or ``pioche_empty`` once the manche is over (C51)."""
        return self._state.end_reason

    @property
    def winners(self) -> tuple[int, ...]:
        """C55: the seats sharing the highest total once the game is over."""
        if self._state.phase != "game_over":
            return ()
        return tuple(game_winners(self._state.scores, self.target))

    @property
    def is_over(self) -> bool:
        return self._state.phase == "game_over"

    @property
    def history(self) -> tuple[_Done, ...]:
        """The applied actions, first first (the table log's lines after the header)."""
        return tuple(action for _, action in self._undo)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(players={list(self.players)!r}, level={self.level}, "
                f"manche={self.manche}, phase={self._state.phase!r}, "
                f"scores={list(self.scores)})")
