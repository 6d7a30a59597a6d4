"""The simulation's invariants (issue 21 §4), checked after every push at a small cost.

What they say: every card in play is in exactly one place — the «pioche», the «défausse», a
hand or a claimant's laid-down hand (C1, C5a, C17); between two turns every seat still in the
manche holds 6 cards and a seat that is out none (C14, C17); and the scores come only from
accepted claims (C52, C53): the manche's points change only with a claim the referee
recorded, by its points, and at a manche's end the totals are the accepted claims' points.

:func:`invariant_problem` checks the whole table: the places of all the cards sorted and
compared with the cards in play (some 93 cards walked after each push: more than the rest of a
simulated game costs). :class:`Invariants` says the same after each push for much less, from
what the push changed. Every field of the referee's table holds an immutable value, replaced by
the action that changes it (see :mod:`.state`): a pile the push did not touch is the very same
tuple as before it, found by ``is``. A draw or a discard (nine pushes in ten) changes one pile
and one hand by one card, a shape checked in place: the pile against the old one less (or plus)
its top card, the seat's hand item by item, the other hands by ``is`` then ``==`` — no tuple or
list built per push, and loops over native ints once compiled (docs/complot.md, "The compiled
build"). Of any other change the cards that left and the cards that came are worked out: a pile
that lost or gained cards at its end (a refill, the «défausse») differs by those cards alone;
any other changed pile (a hand, a claim, a reshuffle) counts whole. When the cards that left
their places are the cards that came, as multisets, every card is still in exactly one place,
by induction from the last whole check: that of the deal that started the manche (a deal brings
the cards in afresh) — and the whole check runs again at the game's end.

So a broken push is caught at that push: a card lost, a card that is now in two places, or
a card that comes in the place of another; a score at the push that changed it, or at the
manche's end when points were not added. What neither check looks at is a card moved to the
wrong place while the multiset stays the same (two cards exchanged between two hands): it
is not one of §4's invariants; the rules tests judge where each card goes.

>>> from companion.complot.actions import Deal
>>> from companion.complot.engine import Game
>>> game = Game(["Ana", "Ben"], level=1, dealer=1)
>>> earned = [0, 0]
>>> checks = Invariants(game, earned)
>>> game.push_legal(Deal(tuple(range(79))))
>>> checks.problem()                              # the deal: the whole check
>>> game.push_legal(game.legal_draws()[0])
>>> checks.problem()                              # a draw: one card moved
>>> table = game.table
>>> table.hands = ((*table.hands[0][:-1], 0), table.hands[1])  # a card copied in its place
>>> print(checks.problem())
cards lost ['enqueteurs:emma'], cards extra or twice ['etat-major:abigail']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from .engine import HAND, Game
from .state import State

#: The phases in which a manche is over: its scores are added (C51–C55). Final: compiled,
#: the names are constants (no lookup of the module's globals per push).
_MANCHE_OVER: Final = "manche_over"
_GAME_OVER: Final = "game_over"
_OVER: Final = (_MANCHE_OVER, _GAME_OVER)


def invariant_problem(game: Game, earned: Sequence[int]) -> str | None:
    """The invariants on the whole table (None when they hold): every card in play in
    exactly one place, 6 cards in each hand still in between turns, and at a manche's end the
    scores equal to ``earned`` (each seat's accepted claims' points, as the caller counted
    them). The reference :class:`Invariants` is tested against."""
    problem = game.missing_cards()
    if problem is not None:
        return problem
    if game.phase in _OVER:
        if list(game.scores) != list(earned):
            return f"scores {game.scores} are not the accepted claims' points {earned}"
    elif game.phase == "turn" and not game.drawn:
        short = [seat for seat in game.still_in if len(game.hand(seat)) != HAND]
        if short:
            return f"seats {short} do not hold 6 cards between turns (C14)"
    return None


class Invariants:
    """The invariants of :func:`invariant_problem`, checked after each push of one game from
    what the push changed (see the module's docstring), and the manche's points at every
    push (C52). Make it before the game's first push (it trusts the table it is given),
    call :meth:`problem` after every push; ``earned`` is the caller's count of each seat's
    accepted claims' points, read at the manches' ends."""

    __slots__ = ("_claims", "_current", "_defausse", "_earned", "_game", "_hands", "_laid",
                 "_manche", "_out", "_pioche", "_points", "_scores", "_six", "_sizes",
                 "_table")

    def __init__(self, game: Game, earned: Sequence[int]) -> None:
        self._game, self._table, self._earned = game, game.table, earned
        self._out: tuple[bool, ...] | None = None
        self._sizes: list[int] = []  # the hand sizes between turns: 6 each, 0 once out
        self._six: tuple[tuple[int, ...], ...] | None = None  # the hands last found so
        self._remember(self._table)

    def _remember(self, s: State) -> None:
        """Keep the table's values as they are now (references: never written into)."""
        self._pioche, self._defausse, self._hands, self._laid = (s.pioche, s.defausse,
                                                                 s.hands, s.laid)
        self._manche, self._current = s.manche, s.current
        self._points, self._claims, self._scores = s.manche_points, s.claims, s.scores

    def problem(self) -> str | None:
        """What the last push broke, or None; called after every push.

        Nine pushes in ten are a draw or a discard: one pile and one hand changed by one
        card (:meth:`_one_card_moved`, no object built); any other change is judged as the
        cards that left and the cards that came (:meth:`_cards_problem`)."""
        s = self._table
        if s.manche != self._manche or s.phase == _GAME_OVER:  # a deal, the game's end
            self._remember(s)
            return invariant_problem(self._game, self._earned)
        # (both read the values before the push, still this object's until just below)
        problem = None if self._one_card_moved(s) else self._cards_problem(s)
        hands = s.hands
        self._pioche, self._defausse, self._hands, self._laid = (s.pioche, s.defausse, hands,
                                                                 s.laid)
        self._current = s.current
        if problem is not None:
            return problem
        phase = s.phase
        if (s.manche_points is not self._points or s.claims is not self._claims
                or s.scores is not self._scores or phase == _MANCHE_OVER):
            problem = self._points_problem(s)
        if problem is None and phase == "turn" and not s.drawn and hands is not self._six:
            if s.out is self._out and _sizes_are(hands, self._sizes):
                self._six = hands  # C14: 6 cards in each hand still in (_hands_problem)
            else:
                problem = self._hands_problem(s)
        return problem

    def _one_card_moved(self, s: State) -> bool:
        """True when the push was a draw or a discard by the seat whose turn it was: one
        pile's top card, and nothing else, moved to the end of that seat's hand, or one card
        of that hand (its first of that card) to the top of the «défausse»
        (:func:`~.state.without`); every other pile and hand as it was. Compared in place,
        item by item, with no tuple or list built for it."""
        pioche, defausse, hands = s.pioche, s.defausse, s.hands
        old_pioche, old_defausse, old_hands = self._pioche, self._defausse, self._hands
        if s.laid is not self._laid or len(hands) != len(old_hands):
            return False
        if defausse is old_defausse:
            pile, old_pile = pioche, old_pioche
        elif pioche is old_pioche:
            pile, old_pile = defausse, old_defausse
        else:
            return False
        seat = self._current  # whose turn it was: who drew or discarded, if anyone did
        if len(pile) + 1 == len(old_pile):  # a draw
            if not (_drawn(old_hands[seat], hands[seat], old_pile[-1])
                    and pile == old_pile[:-1]):
                return False
        elif not (len(pile) == len(old_pile) + 1 and pile[:-1] == old_pile
                  and _without(old_hands[seat], hands[seat], pile[-1])):  # a discard
            return False
        for other in range(len(hands)):
            if other != seat and hands[other] is not old_hands[other] \
                    and hands[other] != old_hands[other]:
                return False
        return True

    def _cards_problem(self, s: State) -> str | None:
        """None when the cards that left their places in the push are the cards that came
        (the places before it are still this object's)."""
        left: list[int] = []
        came: list[int] = []
        if s.pioche is not self._pioche:
            _moved(self._pioche, s.pioche, left, came)
        if s.defausse is not self._defausse:
            _moved(self._defausse, s.defausse, left, came)
        if s.hands is not self._hands:
            _moved_in(self._hands, s.hands, left, came)
        if s.laid is not self._laid:
            _moved_in(self._laid, s.laid, left, came)
        if left == came or sorted(left) == sorted(came):
            return None
        ids = self._game.card_ids
        lost = sorted(ids[card] for card in (Counter(left) - Counter(came)).elements())
        extra = sorted(ids[card] for card in (Counter(came) - Counter(left)).elements())
        return f"cards lost {lost[:5]}, cards extra or twice {extra[:5]}"

    def _points_problem(self, s: State) -> str | None:
        """The manche's points move only with the claims the referee recorded (C52), the
        totals only at the manche's end, to the accepted claims' points (C53)."""
        before, claims_before = self._points, self._claims
        self._points, self._claims, scores_before, self._scores = (s.manche_points, s.claims,
                                                                   self._scores, s.scores)
        if s.manche_points is not before:
            expected = list(before)
            for seat, _, points in s.claims[len(claims_before):]:
                expected[seat] += points
            if list(s.manche_points) != expected or s.claims[:len(claims_before)] != claims_before:
                return (f"manche points {list(s.manche_points)} are not the accepted claims' "
                        f"{expected}")
        if s.phase in _OVER:
            if list(s.scores) != list(self._earned):
                return f"scores {s.scores} are not the accepted claims' points {self._earned}"
        elif s.scores is not scores_before:
            return f"scores {s.scores} changed before the manche's end"
        return None

    def _hands_problem(self, s: State) -> str | None:
        """C14 between two turns: 6 cards in each hand still in the manche, none once out."""
        if s.out is not self._out:
            self._out = s.out
            self._sizes = [0 if gone else HAND for gone in s.out]
        if _sizes_are(s.hands, self._sizes):
            self._six = s.hands
            return None
        short = [seat for seat, (hand, size) in enumerate(zip(s.hands, self._sizes, strict=True))
                 if len(hand) != size]
        return f"seats {short} do not hold 6 cards between turns (C14)"


_Pile = tuple[int, ...]


def _drawn(old: _Pile, new: _Pile, card: int) -> bool:
    """``new`` is ``old`` with ``card`` put at its end (a draw).

    >>> _drawn((4, 7), (4, 7, 9), 9), _drawn((4, 7), (7, 4, 9), 9), _drawn((4, 7), (4, 7), 9)
    (True, False, False)
    """
    size = len(old)
    return len(new) == size + 1 and new[size] == card and new[:size] == old


def _without(old: _Pile, new: _Pile, card: int) -> bool:
    """``new`` is ``old`` less its first ``card`` (a discard: :func:`~.state.without`),
    worked out item by item without building it.

    >>> _without((4, 7, 9, 7), (4, 9, 7), 7), _without((4, 7, 9, 7), (4, 7, 9), 7)
    (True, False)
    >>> _without((4, 7), (4,), 7), _without((4, 7), (4,), 5), _without((4, 7), (7,), 4)
    (True, False, True)
    """
    if len(new) + 1 != len(old):
        return False
    skip = 0  # 1 once ``card`` has been passed in ``old``
    for at in range(len(new)):
        if skip == 0 and old[at] == card:
            skip = 1
        if new[at] != old[at + skip]:
            return False
    return skip == 1 or old[-1] == card


def _sizes_are(hands: tuple[_Pile, ...], sizes: list[int]) -> bool:
    """Each hand holds as many cards as ``sizes`` says (C14), counted without a list.

    >>> _sizes_are(((1, 2), ()), [2, 0]), _sizes_are(((1, 2), ()), [2, 1])
    (True, False)
    """
    if len(hands) != len(sizes):
        return False
    for seat in range(len(hands)):  # noqa: SIM110 (all() of a generator: a frame a call)
        if len(hands[seat]) != sizes[seat]:
            return False
    return True


def _moved(old: tuple[int, ...], new: tuple[int, ...], left: list[int],
           came: list[int]) -> None:
    """Add to ``left`` and ``came`` the cards that left ``old`` and came into ``new``: only
    those at the end when the rest is unchanged, else all of them."""
    kept = len(new) if len(new) < len(old) else len(old)
    if kept and old[:kept] == new[:kept]:  # (kept == 0: a pile emptied or filled, no slice)
        left += old[kept:]
        came += new[kept:]
    else:
        left += old
        came += new


def _moved_in(old: tuple[tuple[int, ...], ...], new: tuple[tuple[int, ...], ...],
              left: list[int], came: list[int]) -> None:
    """:func:`_moved` for each seat's pile whose tuple changed."""
    if len(old) != len(new):
        for pile in old:
            left += pile
        for pile in new:
            came += pile
        return
    for seat in range(len(old)):  # (compiled, zip() is a generic call and iteration)
        if new[seat] is not old[seat]:
            _moved(old[seat], new[seat], left, came)
