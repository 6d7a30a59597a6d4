"""A stand-in for ``companion.complot.session.ComplotSession`` while it is being built.

The Complot screens code against the session API of ``API-COMPLOT`` (``new_game``,
``next_turn``, ``claim``, ``claim_points``, ``action``, ``defence``, ``end_manche``,
``next_manche``, ``undo``, ``redo``, ``subscribe``, ``view``). Until the real session lands,
this one gives them the same API over the contract's own pure functions
(:mod:`companion.complot.judge`): every verdict is the judge's, nothing is judged here. The
table is a list of accepted events replayed from the start (undo pops one, redo pushes it
back), like python-chess's move stack.

What it does NOT do, and the real session does: keep the game in the record (nothing is
durable here: leaving the app loses the game), resume, the table log.

>>> session = InterimComplotSession()
>>> session.new_game(["Ana", "Ben", "Chloé"])
>>> hand = ["leonard:amelie", "leonard:arthur", "leonard:clara", "leonard:emma",
...         "leonard:sally", "leonard:sarah"]
>>> outcome = session.claim(0, "complot", hand)
>>> outcome.accepted, outcome.points, outcome.combination
(True, 50, 'six_leonards')
>>> view = session.view()
>>> view.still_in, view.current, view.manche_points
((1, 2), 1, (50, 0, 0))
>>> session.claim(1, "complot", hand[:5]).code  # a misread hand changes nothing (C44a)
'hand_size'
>>> session.undo().accepted, session.view().still_in
(True, (0, 1, 2))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.complot import judge
from companion.complot.combos import CLAIMS, CLASSIC_POINTS, SPECIAL_POINTS
from companion.complot.messages import sentence
from companion.errors import UserError

Phase = Literal["manche", "manche_over", "game_over"]
#: C44a: refusals that are a wrong claim (the player passes a turn); the others are a
#: recording error that changes nothing.
WRONG_CLAIMS = frozenset({"claim_not_met", "joker_not_noe", "villain_not_allowed",
                          "elysee_must_wait", "claim_wrong_moment"})
#: Every combination a score-only table can record, with its points (C31, C32, C40).
COMBINATION_POINTS: dict[str, int] = {**CLASSIC_POINTS, **SPECIAL_POINTS}


@dataclass(frozen=True)
class ComplotOutcome:
    """What happened to one request (the API's ``ComplotOutcome``)."""

    accepted: bool
    code: str | None = None
    points: int = 0
    combination: str | None = None
    cards: tuple[str, ...] = ()

    def sentence(self, language: str) -> str:
        """The refusal's one plain sentence (empty when accepted: the screen words those)."""
        return "" if self.accepted or self.code is None else sentence(self.code, language)


@dataclass(frozen=True)
class ComplotView:
    """The table as the screens draw it (the API's ``ComplotView``)."""

    game_id: int | None = None
    players: tuple[str, ...] = ()
    level: int = 1
    target: int = judge.TARGET_SCORE
    scores_only: bool = False
    manche: int = 1
    current: int | None = None
    must_pass: tuple[int, ...] = ()
    still_in: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    manche_points: tuple[int, ...] = ()
    manches: tuple[tuple[int, ...], ...] = ()
    phase: Phase = "manche"
    end_reason: str | None = None
    winners: tuple[int, ...] = ()
    pending_action: str | None = None
    last: ComplotOutcome | None = None
    history: tuple[str, ...] = ()
    can_undo: bool = False
    can_redo: bool = False


@dataclass
class _Table:
    """The state the events build up, from a new game (mutable while replaying only)."""

    players: int
    level: int
    target: int
    manches: list[tuple[int, ...]] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    still_in: list[int] = field(default_factory=list)
    must_pass: set[int] = field(default_factory=set)
    played: set[int] = field(default_factory=set)  # seats that finished a turn (C42)
    current: int = 0
    claimed: bool = False  # an announcement this turn (C45)
    acted: bool = False  # an action this turn (C91)
    pending: tuple[str, tuple[str, ...]] | None = None  # a contrôle/descente to defend
    end_reason: str | None = None

    def start_manche(self) -> None:
        self.points = [0] * self.players
        self.still_in = list(range(self.players))
        self.must_pass, self.played = set(), set()
        self.current = len(self.manches) % self.players  # the deal passes clockwise (C54)
        self.claimed = self.acted = False
        self.pending, self.end_reason = None, None

    def totals(self) -> list[int]:
        done = [sum(column) for column in zip(*self.manches, strict=True)] or [0] * self.players
        if self.end_reason is None:
            return done
        return [total + won for total, won in zip(done, self.points, strict=True)]

    def winners(self) -> list[int]:
        return judge.game_winners(self.totals(), self.target) if self.end_reason else []

    def pass_turn(self) -> None:
        """The turn goes to the next seat still in; a seat that must pass is skipped once
        (C15, C44)."""
        self.played.add(self.current)
        self.claimed = self.acted = False
        seat = self.current
        for _ in range(2 * self.players):
            seat = (seat + 1) % self.players
            if seat not in self.still_in:
                continue
            if seat in self.must_pass:
                self.must_pass.discard(seat)
                self.played.add(seat)
                continue
            break
        self.current = seat

    def score(self, seat: int, points: int, combination: str | None) -> None:
        """An accepted announcement: the seat is out with its points (C50); the manche may
        end (C51)."""
        self.points[seat] = points
        self.still_in.remove(seat)
        self.must_pass.discard(seat)
        if combination == "complot_elysee":
            self.end_reason = "elysee"
        elif len(self.still_in) == 1:
            self.end_reason = "last_player"
        elif seat == self.current:
            self.pass_turn()


Event = tuple[str, tuple[Any, ...]]


class InterimComplotSession:
    """The ``ComplotSession`` API over the judge, without a record (see the module)."""

    def __init__(self, store: Any = None) -> None:
        self.store = store
        self._setup: tuple[tuple[str, ...], int, int, bool] | None = None
        self._events: list[Event] = []
        self._undone: list[Event] = []
        self._last: ComplotOutcome | None = None
        self._listeners: list[Callable[[ComplotView], None]] = []

    # -- listening ------------------------------------------------------------------------

    def subscribe(self, listener: Callable[[ComplotView], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _publish(self) -> None:
        view = self.view()
        for listener in list(self._listeners):
            listener(view)

    # -- games ----------------------------------------------------------------------------

    def new_game(self, players: Sequence[str], *, level: int = 1, target: int = 400,
                 scores_only: bool = False) -> None:
        names = tuple(name.strip() for name in players)
        if not 2 <= len(names) <= 6 or not all(names):
            raise UserError("A game of Complot needs 2 to 6 players, each with a name.",
                            "Type a name for every player, from 2 to 6 players.")
        if level not in (1, 2, 3) or not 50 <= target <= 2000:
            raise UserError("The level is 1, 2 or 3 and the target score 50 to 2000.",
                            "Choose the level and the target score again.")
        self._setup = (names, level, target, scores_only)
        self._events, self._undone, self._last = [], [], None
        self._publish()

    def close_game(self) -> None:
        self._setup = None
        self._publish()

    # -- the table's requests --------------------------------------------------------------

    def next_turn(self) -> ComplotOutcome:
        return self._submit(("turn", ()))

    def claim(self, seat: int, words: str, cards: Sequence[str], *,
              moment: str | None = None) -> ComplotOutcome:
        return self._submit(("claim", (seat, words, tuple(cards), moment)))

    def claim_points(self, seat: int, combination: str) -> ComplotOutcome:
        return self._submit(("claim_points", (seat, combination)))

    def action(self, seat: int, kind: str, cards: Sequence[str],
               targets: Sequence[int]) -> ComplotOutcome:
        return self._submit(("action", (seat, kind, tuple(cards), tuple(targets))))

    def defence(self, card: str) -> ComplotOutcome:
        return self._submit(("defence", (card,)))

    def end_manche(self, reason: str = "pioche_empty") -> ComplotOutcome:
        return self._submit(("end_manche", (reason,)))

    def next_manche(self) -> ComplotOutcome:
        return self._submit(("next_manche", ()))

    def undo(self) -> ComplotOutcome:
        if not self._events:
            return ComplotOutcome(False, "bad_input")
        self._undone.append(self._events.pop())
        self._last = ComplotOutcome(True)
        self._publish()
        return self._last

    def redo(self) -> ComplotOutcome:
        if not self._undone:
            return ComplotOutcome(False, "bad_input")
        return self._submit(self._undone.pop(), keep_redo=True)

    def _submit(self, event: Event, *, keep_redo: bool = False) -> ComplotOutcome:
        table = self._replay()
        outcome, changed = _apply(table, event)
        if changed:  # a refusal that changes nothing is not kept (C44a: recording errors)
            self._events.append(event)
            if not keep_redo:
                self._undone.clear()
        self._last = outcome
        self._publish()
        return outcome

    def _replay(self) -> _Table:
        if self._setup is None:
            raise UserError("No game of Complot is open.", "Start a new game first.")
        _names, level, target, _scores_only = self._setup
        table = _Table(len(_names), level, target)
        table.start_manche()
        for event in self._events:
            _apply(table, event)
        return table

    # -- the view ---------------------------------------------------------------------------

    def view(self) -> ComplotView:
        if self._setup is None:
            return ComplotView()
        names, level, target, scores_only = self._setup
        table = self._replay()
        winners = table.winners()
        phase: Phase = "game_over" if winners else (
            "manche_over" if table.end_reason else "manche")
        return ComplotView(
            game_id=0, players=names, level=level, target=target, scores_only=scores_only,
            manche=len(table.manches) + 1,
            current=None if table.end_reason else table.current,
            must_pass=tuple(sorted(table.must_pass)), still_in=tuple(table.still_in),
            scores=tuple(table.totals()), manche_points=tuple(table.points),
            manches=tuple(table.manches), phase=phase, end_reason=table.end_reason,
            winners=tuple(winners),
            pending_action=table.pending[0] if table.pending else None, last=self._last,
            can_undo=bool(self._events), can_redo=bool(self._undone))


def _apply(table: _Table, event: Event) -> tuple[ComplotOutcome, bool]:
    """Play ``event`` on ``table``: its outcome, and whether it changed the table."""
    kind, args = event
    problem = _order_problem(table, kind)
    if problem is not None:
        return ComplotOutcome(False, problem), False
    handler = _HANDLERS[kind]
    return handler(table, *args)


def _order_problem(table: _Table, kind: str) -> str | None:
    """Section H's first checks: the game's end, the manche's end, a defence awaited."""
    if table.winners():
        return "game_over"
    if table.end_reason is not None:
        return None if kind == "next_manche" else "manche_over"
    if kind == "next_manche":
        return "bad_input"
    if table.pending is not None and kind not in ("defence", "turn"):
        return "bad_input"
    return None


def _turn(table: _Table) -> tuple[ComplotOutcome, bool]:
    table.pending = None  # an undefended action went ahead
    table.pass_turn()
    return ComplotOutcome(True), True


def _seat_problem(table: _Table, seat: int) -> str | None:
    if not judge.is_int(seat) or not 0 <= seat < table.players:
        return "bad_input"
    if seat not in table.still_in:
        return "player_out"
    if seat != table.current:
        return "not_your_turn"
    return None


def _claim(table: _Table, seat: int, words: str, cards: tuple[str, ...],
           moment: str | None) -> tuple[ComplotOutcome, bool]:
    code = _seat_problem(table, seat) or ("one_claim_per_turn" if table.claimed else None)
    if code is not None:
        return ComplotOutcome(False, code, cards=cards), False
    request = {"level": table.level, "claim": words, "cards": list(cards),
               "first_turn": seat not in table.played}
    if moment is not None:
        request["moment"] = moment
    verdict = judge.check_claim(request)
    outcome = ComplotOutcome(verdict["accepted"], verdict["code"], verdict["points"],
                             verdict["combination"], cards)
    if outcome.accepted:
        table.score(seat, outcome.points, outcome.combination)
        return outcome, True
    if outcome.code not in WRONG_CLAIMS:
        return outcome, False
    table.claimed = True  # C44: a wrong claim costs a turn
    if (moment or ("turn_start" if words == "complot_elysee" else "discard")) == "turn_start":
        table.pass_turn()  # this turn is lost
    else:
        table.must_pass.add(seat)  # the next one is
    return outcome, True


def _claim_points(table: _Table, seat: int, combination: str) -> tuple[ComplotOutcome, bool]:
    if combination not in COMBINATION_POINTS:
        return ComplotOutcome(False, "bad_input"), False
    if not judge.is_int(seat) or not 0 <= seat < table.players:
        return ComplotOutcome(False, "bad_input"), False
    if seat not in table.still_in:
        return ComplotOutcome(False, "player_out"), False
    points = COMBINATION_POINTS[combination]
    table.current = seat  # score-only: whoever announces, the table says who
    table.score(seat, points, combination)
    return ComplotOutcome(True, None, points, combination), True


def _action(table: _Table, seat: int, kind: str, cards: tuple[str, ...],
            targets: tuple[int, ...]) -> tuple[ComplotOutcome, bool]:
    code = _seat_problem(table, seat)
    if code is None:
        request = {"level": table.level, "action": kind, "hand": list(cards),
                   "cards": list(cards), "actor": seat, "targets": list(targets),
                   "active": list(table.still_in), "actions_this_turn": int(table.acted)}
        code = judge.check_action(request)["code"]
    if code is not None:
        return ComplotOutcome(False, code, cards=cards), False
    table.acted = True
    if kind in judge.LEVEL_2_ACTIONS:
        table.pending = (kind, cards)
    return ComplotOutcome(True, cards=cards), True


def _defence(table: _Table, card: str) -> tuple[ComplotOutcome, bool]:
    if table.pending is None:
        return ComplotOutcome(False, "defence_not_allowed", cards=(card,)), False
    kind, used = table.pending
    verdict = judge.check_defence({"action": kind, "cards": list(used), "defence": card})
    table.pending = None  # stopped, or the action goes ahead: either way it is settled
    return ComplotOutcome(verdict["accepted"], verdict["code"], cards=(card,)), True


def _end_manche(table: _Table, reason: str) -> tuple[ComplotOutcome, bool]:
    table.end_reason = reason
    return ComplotOutcome(True), True


def _next_manche(table: _Table) -> tuple[ComplotOutcome, bool]:
    table.manches.append(tuple(table.points))
    table.start_manche()
    return ComplotOutcome(True), True


_HANDLERS: dict[str, Callable[..., tuple[ComplotOutcome, bool]]] = {
    "turn": _turn, "claim": _claim, "claim_points": _claim_points, "action": _action,
    "defence": _defence, "end_manche": _end_manche, "next_manche": _next_manche,
}
__all__ = ["CLAIMS", "COMBINATION_POINTS", "ComplotOutcome", "ComplotView",
           "InterimComplotSession"]
