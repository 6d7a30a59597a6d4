"""The table as the Complot referee keeps it between two actions (known cards).

Piles are lists whose **last** item is the top card. Every card in play is in exactly one place:
the «pioche», the «défausse», a hand, or a claimant's laid-down hand (C17) — the invariant
:meth:`State.missing_cards` checks.

The referee judges each action on a :meth:`State.fork` of the table, which shares every list
with it; the first write to a list copies it (copy-on-write: :meth:`State.writable`,
:meth:`State.writable_hand`). An action touches two or three piles, so the state kept for
``pop`` costs those few lists, not the whole table, and is never changed afterwards.

>>> table = State(2, [0, 0], 0, pioche=["a", "b"], hands=[["c"], ["d"]])
>>> turn = table.fork()
>>> turn.writable_hand(0).append(turn.writable("pioche").pop())
>>> turn.pioche, turn.hands, table.pioche, table.hands
(['a'], [['c', 'b'], ['d']], ['a', 'b'], [['c'], ['d']])
>>> turn.hands[1] is table.hands[1]    # the hand not touched is shared
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .judge import game_winners

_new_state = object.__new__


@dataclass(slots=True)
class State:
    """Everything :class:`~companion.complot.engine.Game` needs to judge the next action."""

    players: int
    scores: list[int]
    dealer: int
    manche: int = 0
    phase: str = "deal"  # deal, turn, attentat, manche_over, game_over
    current: int = 0
    drawn: bool = False
    pioche: list[str] = field(default_factory=list)
    defausse: list[str] = field(default_factory=list)
    top_blocked: bool = False  # C68: the top of the «défausse» served in an action
    hands: list[list[str]] = field(default_factory=list)
    laid: list[list[str]] = field(default_factory=list)
    out: list[bool] = field(default_factory=list)
    skip: list[bool] = field(default_factory=list)
    turns_done: list[int] = field(default_factory=list)
    window: int | None = None  # C30: the seat that just ended a turn and may still announce
    window_used: bool = False  # C45: that seat already made a wrong claim in this window
    manche_points: list[int] = field(default_factory=list)
    end_reason: str | None = None
    reshuffles: int = 0
    claims: list[tuple[int, str, int]] = field(default_factory=list)  # (seat, claim, points)
    # The lists this state has copied since its fork (names, and seats for single hands).
    _owned: set[str | int] = field(default_factory=set, repr=False, compare=False)

    def fork(self) -> State:
        """A state equal to this one that shares all its lists until it writes to them.

        Made field by field without ``__init__``: the referee forks once per action, and
        the dataclass's ``__init__`` with its 22 arguments costs about four times as much
        (tests/complot/test_undo.py checks that every field is carried over)."""
        twin: State = _new_state(State)
        twin.players, twin.scores, twin.dealer = self.players, self.scores, self.dealer
        twin.manche, twin.phase, twin.current = self.manche, self.phase, self.current
        twin.drawn, twin.pioche, twin.defausse = self.drawn, self.pioche, self.defausse
        twin.top_blocked, twin.hands, twin.laid = self.top_blocked, self.hands, self.laid
        twin.out, twin.skip, twin.turns_done = self.out, self.skip, self.turns_done
        twin.window, twin.window_used = self.window, self.window_used
        twin.manche_points, twin.end_reason = self.manche_points, self.end_reason
        twin.reshuffles, twin.claims, twin._owned = self.reshuffles, self.claims, set()
        return twin

    def writable(self, name: str) -> list[Any]:
        """The list field ``name``, copied first if it may still be shared with another state
        (``hands`` and ``laid``: the outer list only; a hand is :meth:`writable_hand`)."""
        if name in self._owned:
            return getattr(self, name)  # type: ignore[no-any-return]
        own = list(getattr(self, name))
        setattr(self, name, own)
        self._owned.add(name)
        return own

    def writable_hand(self, seat: int) -> list[str]:
        """The hand of ``seat``, this state's own to change."""
        hands = self.writable("hands")
        if seat not in self._owned:
            hands[seat] = list(hands[seat])
            self._owned.add(seat)
        return hands[seat]  # type: ignore[no-any-return]

    def replace_hand(self, seat: int, cards: list[str]) -> None:
        """Give ``seat`` the new list ``cards`` as its hand."""
        self.writable("hands")[seat] = cards
        self._owned.add(seat)

    def copy(self) -> State:
        """An independent copy (the undo stack keeps one per accepted action)."""
        return State(
            self.players, list(self.scores), self.dealer, self.manche, self.phase, self.current,
            self.drawn, list(self.pioche), list(self.defausse), self.top_blocked,
            [list(hand) for hand in self.hands], [list(cards) for cards in self.laid],
            list(self.out), list(self.skip), list(self.turns_done), self.window,
            self.window_used, list(self.manche_points), self.end_reason, self.reshuffles,
            list(self.claims),
        )

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

    def places(self) -> Iterable[str]:
        """Every card the table holds, wherever it is."""
        yield from self.pioche
        yield from self.defausse
        for hand in self.hands:
            yield from hand
        for cards in self.laid:
            yield from cards

    def missing_cards(self, in_play: Iterable[str]) -> str | None:
        """None when every card of ``in_play`` is in exactly one place; else what is wrong."""
        if self.manche == 0:
            return None
        expected_order = sorted(in_play)
        cards = self.pioche + self.defausse
        for pile in (*self.hands, *self.laid):
            cards += pile
        if sorted(cards) == expected_order:  # the usual answer, found quickly
            return None
        counts = Counter(self.places())
        expected = Counter(expected_order)
        lost = sorted((expected - counts).elements())
        extra = sorted((counts - expected).elements())
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
    def scores(self) -> list[int]: ...
    @property
    def manche_points(self) -> list[int]: ...
    @property
    def end_reason(self) -> str | None: ...
    def still_in(self) -> list[int]: ...


class RefereeReads:
    """The read-only properties both Complot referees give, the one that knows the cards
    (:class:`~companion.complot.engine.Game`) and the one of a hidden-hands table
    (:class:`~companion.complot.table.Table`), read from their current state and undo
    stack."""

    __slots__ = ()
    _state: _Scored
    _undo: Sequence[tuple[object, dict[str, Any]]]
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
    def history(self) -> tuple[dict[str, Any], ...]:
        """The applied actions, first first (the table log's lines after the header)."""
        return tuple(action for _, action in self._undo)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(players={list(self.players)!r}, level={self.level}, "
                f"manche={self.manche}, phase={self._state.phase!r}, "
                f"scores={list(self.scores)})")
