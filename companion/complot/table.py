"""The Complot referee of a real table, where the hands are hidden (API-COMPLOT.md).

At a real table the companion does not know the hands. It referees what it is *shown* — the six
cards laid down for a claim (C90), the action cards and the card shown in defence (C91, C92) —
and what it is *told*: that the current player has ended their turn, that the «pioche» ran out
(C51c). Like python-chess's ``Board``, a :class:`Table` judges JSON actions with
:meth:`~Table.check`, applies them with :meth:`~Table.push` and takes them back exactly with
:meth:`~Table.pop`; the actions are the lines of its table log (which
:func:`companion.complot.tablelog.replay` reads).

>>> table = Table(["Ana", "Ben", "Chloé"])          # the last seat deals: Ana plays first
>>> table.current, table.manche
(0, 1)
>>> table.push({"type": "turn", "player": 0}).accepted
True
>>> leonards = ["leonard:amelie", "leonard:arthur", "leonard:clara", "leonard:emma",
...             "leonard:sally", "leonard:sarah"]
>>> verdict = table.push({"type": "claim", "player": 1, "claim": "complot", "cards": leonards})
>>> verdict.accepted, verdict.combination, verdict.points, table.still_in, table.current
(True, 'six_leonards', 50, (0, 2), 2)
>>> wrong = table.push({"type": "claim", "player": 2, "claim": "plan_etare", "cards": leonards})
>>> wrong.code, wrong.changed, table.must_pass, table.current     # C44: Chloé misses a turn
('claim_not_met', True, (2,), 0)
>>> table.pop()["type"], table.must_pass
('claim', ())
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .cards import Deck, default_deck
from .combos import CLAIMS, CLASSIC_POINTS, SPECIAL_POINTS
from .engine import WRONG_CLAIM, Verdict
from .judge import (
    ACTIONS,
    LEVEL_2_ACTIONS,
    TARGET_SCORE,
    action_problem,
    claim_verdict,
    defence_problem,
    game_winners,
    is_int,
)
from .state import RefereeReads, next_seat, still_in

FORMAT = "complot-table-log"
#: The header option that tells this table model's logs from the engine's (known cards).
HIDDEN = {"hands": "hidden"}
#: Every combination a score-only claim may name, with its points (C31, C32, C40).
POINTS: dict[str, int] = {**CLASSIC_POINTS, **SPECIAL_POINTS}
ACTION_TYPES = ("turn", "claim", "claim_points", "action", "defence", "defausse",
                "end_manche", "next_manche", "undo", "note")
#: The piles a turn's card is drawn from (C13).
PILES = ("pioche", "defausse")
#: Cards in hand between turns (C11, C14): every count the table gives follows from it.
HAND = 6
#: The one end of a manche the table must tell: the rest follow from the claims (C51).
TOLD_ENDS = ("pioche_empty",)
PHASES = ("manche", "manche_over", "game_over")


class _Refused(Exception):
    """Raised inside a judgement to refuse with ``code``; never leaves :class:`Table`."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(slots=True)
class TableState:
    """What the referee of a hidden-hands table knows between two actions."""

    players: int
    dealer: int
    scores: list[int]
    target: int
    manche: int = 1
    phase: str = "manche"
    current: int | None = None
    window: int | None = None        # C30: the seat that just ended its turn may still announce
    window_used: bool = False        # C45: … unless it already made a wrong claim there
    actions_this_turn: int = 0       # C61
    pending: tuple[str, tuple[str, ...], int] | None = None  # (kind, cards, target), C65
    out: list[bool] = field(default_factory=list)
    skip: list[bool] = field(default_factory=list)
    turns_done: list[int] = field(default_factory=list)
    manche_points: list[int] = field(default_factory=list)
    manches: list[tuple[int, ...]] = field(default_factory=list)
    end_reason: str | None = None
    top: str | None = None           # the top of the «défausse» when the table showed it
    top_blocked: bool = False        # C68: it served in an action, or is an Attentat
    used: tuple[str, ...] = ()       # the action cards just laid on the «défausse» (C62–C86)
    laid: tuple[str, ...] = ()       # the cards claimants laid down this manche (C17)

    def copy(self) -> TableState:
        """An independent copy (the saved states of the undo stack are never changed)."""
        return replace(self, scores=list(self.scores), out=list(self.out),
                       skip=list(self.skip), turns_done=list(self.turns_done),
                       manche_points=list(self.manche_points), manches=list(self.manches))

    def still_in(self) -> list[int]:
        return still_in(self.out)

    def next_seat(self, seat: int) -> int:
        """The nearest seat clockwise still in the manche (C15)."""
        return next_seat(self.out, seat)

    def as_dict(self) -> dict[str, Any]:
        """The state as a JSON object (``replay``'s final state)."""
        return {
            "manche": self.manche, "phase": self.phase, "dealer": self.dealer,
            "current_player": self.current, "claim_window": self.window,
            "still_in": self.still_in(), "must_pass": [s for s in range(self.players)
                                                       if self.skip[s]],
            "turns_done": list(self.turns_done), "actions_this_turn": self.actions_this_turn,
            "pending_action": self.pending[0] if self.pending else None,
            "scores": list(self.scores), "manche_points": list(self.manche_points),
            "manches": [list(points) for points in self.manches],
            "end_reason": self.end_reason, "hand_counts": list(hand_counts(self)),
            "top_of_defausse": self.top, "top_blocked": self.top_blocked,
        }


class Table(RefereeReads[TableState, TableState, dict[str, Any]]):
    """A game of Complot at a real table, from the first manche to the target (C10–C92).

    ``dealer`` is the first dealer (C11, the table's choice; default the last seat, so the
    first name entered plays first, C12). ``scores_only``: claims are recorded by their
    combination (``claim_points``), without cards and without turns.
    """

    def __init__(self, players: Sequence[str], *, level: int = 1, target: int = TARGET_SCORE,
                 scores_only: bool = False, dealer: int | None = None,
                 deck: Deck | None = None) -> None:
        problem = setup_problem(players, level, target, dealer)
        if problem is not None:
            raise ValueError(problem)
        self.players = tuple(players)
        self.level = level
        self.target = target
        self.scores_only = scores_only
        self.first_dealer = len(players) - 1 if dealer is None else dealer
        self.deck = deck or default_deck()
        self._state = TableState(len(players), self.first_dealer, [0] * len(players), target)
        _start_manche(self._state, scores_only)
        self._undo = []

    # -- typed reads ---------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``manche``, ``manche_over`` or ``game_over``."""
        return self._state.phase

    @property
    def current(self) -> int | None:
        """Whose turn it is (None between manches and in a score-only game)."""
        return self._state.current if self._state.phase == "manche" else None

    @property
    def must_pass(self) -> tuple[int, ...]:
        """Seats that will pass their next turn after a wrong claim (C44)."""
        return tuple(seat for seat, skip in enumerate(self._state.skip) if skip)

    @property
    def manches(self) -> tuple[tuple[int, ...], ...]:
        """The points of each finished manche, first manche first."""
        return tuple(self._state.manches)

    @property
    def pending_action(self) -> str | None:
        """The contrôle or descente the target may still stop (C65), else None."""
        return self._state.pending[0] if self._state.pending else None

    @property
    def pending_target(self) -> int | None:
        return self._state.pending[2] if self._state.pending else None

    def turns_done(self, seat: int) -> int:
        return self._state.turns_done[seat]

    @property
    def hand_counts(self) -> tuple[int, ...]:
        """How many cards each seat holds, as the table told it (C11, C14, C17, C62–C67):
        6 between turns, 0 once laid down; empty between manches and in a score-only game.

        >>> table = Table(["Ana", "Ben", "Chloé"], level=2)
        >>> table.hand_counts
        (6, 6, 6)
        >>> _ = table.push({"type": "action", "player": 0, "kind": "descente", "targets": [1],
        ...                 "cards": ["enqueteurs:emma", "enqueteurs:clara", "enqueteurs:max"]})
        >>> table.hand_counts      # Ana drew (7) and laid three Enquêteurs before Ben (C63)
        (4, 6, 6)
        """
        return hand_counts(self._state)

    @property
    def top_of_defausse(self) -> str | None:
        """The card on top of the «défausse» when the table showed it, else None (never a
        guess): a turn's discard, the action card laid on top, the card turned at the deal.

        >>> table = Table(["Ana", "Ben"])
        >>> table.top_of_defausse is None
        True
        >>> _ = table.push({"type": "turn", "player": 0, "discard": "leonard:emma"})
        >>> table.top_of_defausse, table.top_blocked
        ('leonard:emma', False)
        >>> table.push({"type": "turn", "player": 1, "from": "defausse"}).accepted
        True
        >>> table.top_of_defausse is None    # Ben took Emma and discarded a card not shown
        True
        """
        return self._state.top

    @property
    def top_blocked(self) -> bool:
        """C68: the top of the «défausse» served in an action or is an Attentat (known even
        when the card is not: a descente's three Enquêteurs)."""
        return self._state.top_blocked

    def state(self) -> dict[str, Any]:
        """The table as a JSON object."""
        return {**self._state.as_dict(), "winners": list(self.winners)}

    # -- push, check, pop ----------------------------------------------------------------------
    def push(self, action: Any) -> Verdict:
        """Judge ``action`` and apply it when it changes the table: every accepted action, and
        a wrong claim, whose refusal costs a turn (C44). An ``undo`` line pops (TABLE-LOG.md)."""
        if isinstance(action, dict) and action.get("type") == "undo":
            return self._undo_line(action)
        state = self._state.copy()
        verdict = self._judge(state, action)
        if verdict.changed:
            self._undo.append((self._state, dict(action)))
            self._state = state
        return verdict

    def check(self, action: Any) -> Verdict:
        """The verdict :meth:`push` would give, without applying anything."""
        if isinstance(action, dict) and action.get("type") == "undo":
            count = action.get("count", 1)
            ok = is_int(count) and 1 <= count <= len(self._undo)
            return Verdict(ok, None if ok else "bad_input", changed=ok)
        return self._judge(self._state.copy(), action)

    def pop(self) -> dict[str, Any]:
        """Take back the last applied action exactly; IndexError when there is none."""
        state, action = self._undo.pop()
        self._state = state
        return action

    def _undo_line(self, action: dict[str, Any]) -> Verdict:
        verdict = self.check(action)
        if verdict.accepted:
            for _ in range(action.get("count", 1)):
                self.pop()
        return verdict

    def _judge(self, state: TableState, action: Any) -> Verdict:
        if not isinstance(action, dict) or action.get("type") not in ACTION_TYPES:
            return Verdict(False, "bad_input")
        if action["type"] == "note":  # free text: accepted, changes nothing (TABLE-LOG.md)
            text_ok = isinstance(action.get("text"), str)
            return Verdict(text_ok, None if text_ok else "bad_input")
        try:
            return _HANDLERS[action["type"]](self, state, action)
        except _Refused as refusal:
            return Verdict(False, refusal.code)

    # -- gates (C47's referee checks: game, manche, seat, turn, player out) ----------------------
    def _seat(self, value: Any) -> int:
        if not is_int(value) or not 0 <= value < len(self.players):
            raise _Refused("bad_input")
        return value

    def _in_manche(self, s: TableState) -> None:
        if s.phase == "game_over":
            raise _Refused("game_over")
        if s.phase == "manche_over":
            raise _Refused("manche_over")

    def _turn_gate(self, s: TableState, action: dict[str, Any]) -> int:
        """The seat whose turn it is, acting (turns and actions; not in a score-only game)."""
        self._in_manche(s)
        if self.scores_only:
            raise _Refused("scores_only_game")
        seat = self._seat(action.get("player"))
        if seat != s.current:
            raise _Refused("not_your_turn")
        return seat

    def _card_shown(self, s: TableState, action: dict[str, Any]) -> str:
        """The one card an action line shows (a defence, the top of the «défausse»), during a
        manche of a game that judges cards."""
        self._in_manche(s)
        if self.scores_only:
            raise _Refused("scores_only_game")
        card = action.get("card")
        if not isinstance(card, str):
            raise _Refused("bad_input")
        return card

    def _cards(self, value: Any) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(card, str) for card in value):
            raise _Refused("bad_input")
        return value

    # -- turns (C12, C15, C42, C44) ------------------------------------------------------------
    def _turn(self, s: TableState, action: dict[str, Any]) -> Verdict:
        """The current player has drawn and discarded: the turn passes clockwise. The pile
        drawn from (``from``) and the card discarded (``discard``) are optional: a card not
        shown leaves the top of the «défausse» unknown. An Attentat as the turn's card is a
        turn ended by an Attentat (C82): it lies on top, blocked, and no claim follows (C30).
        """
        seat = self._turn_gate(s, action)
        pile, card = action.get("from"), action.get("discard")
        if pile not in (None, *PILES) or not (card is None or isinstance(card, str)):
            raise _Refused("bad_input")
        if s.actions_this_turn and (pile, card) != (None, None):
            raise _Refused("bad_input")  # the action replaced the discard (C13, C62)
        if pile == "defausse" and s.top_blocked:
            raise _Refused("discard_top_blocked")  # C68
        if card is not None:
            self._check_discard(s, card, pile)
        events: list[tuple[str, dict[str, Any]]] = []
        attentat = card is not None and self.deck[card].category == "AT"
        if not s.actions_this_turn:
            s.top, s.top_blocked, s.used = card, attentat, ()
            if card is not None:
                events.append(("discarded", {"player": seat, "card": card, "from": pile}))
        _end_turn(s, seat, window=not attentat)
        return Verdict(True, changed=True, events=[*events, ("turn", {"player": seat,
                                                                     "next": s.current})])

    def _check_discard(self, s: TableState, card: str, pile: Any) -> None:
        """A card shown as discarded, or as the top of the «défausse»: one of the deck's, in
        play at this level, not laid down by a claimant (C17), not already on the «défausse»
        (unless just taken from it)."""
        if card not in self.deck:
            raise _Refused("unknown_card")
        if self.level < 3 and self.deck[card].is_villain:
            raise _Refused("card_not_in_play")
        if card in s.laid or (card == s.top and pile != "defausse"):
            raise _Refused("card_not_in_hand")
        if pile == "defausse" and self.deck[card].category == "AT":
            raise _Refused("discard_top_blocked")  # an Attentat is never taken (C68, C82)

    def _defausse(self, s: TableState, action: dict[str, Any]) -> Verdict:
        """The table shows the top of the «défausse»: the card turned at the deal (C11), or
        the top seen again. It changes nothing else."""
        card = self._card_shown(s, action)
        if card != s.top:
            self._check_discard(s, card, None)
        attentat = self.deck[card].category == "AT"
        s.top_blocked = attentat or card in s.used or (card == s.top and s.top_blocked)
        s.top = card
        return Verdict(True, changed=True, events=[("top", {"card": card})])

    # -- claims from the cards laid down (C30–C47, C90) ------------------------------------------
    def _claim(self, s: TableState, action: dict[str, Any]) -> Verdict:
        seat, moment = self._claimant(s, action)
        word = action.get("claim")
        if word not in CLAIMS:
            raise _Refused("bad_input")
        cards = self._cards(action.get("cards"))
        first_turn = moment == "turn_start" and s.turns_done[seat] == 0
        verdict = claim_verdict(self.level, cards, str(word), moment, first_turn, self.deck)
        code = verdict["code"]
        if code is not None and code not in WRONG_CLAIM:
            raise _Refused(code)  # a recording error: the cards are read again (C44a)
        if seat == s.current and moment == "discard" and not s.actions_this_turn:
            # the claimant has just discarded a card the table was not shown (C30)
            s.top, s.top_blocked, s.used = None, False, ()
        if code is None:
            s.laid = (*s.laid, *cards)
            return _accept(s, seat, str(verdict["combination"]), int(verdict["points"]))
        return _wrong_claim(s, seat, moment, code)

    def _claimant(self, s: TableState, action: dict[str, Any]) -> tuple[int, str]:
        """The claiming seat and the moment of its claim, after C47's referee checks."""
        self._in_manche(s)
        if self.scores_only:
            raise _Refused("scores_only_game")
        seat = self._seat(action.get("player"))
        moment = action.get("moment")
        if moment not in (None, "discard", "turn_start"):
            raise _Refused("bad_input")
        in_window = s.window == seat and seat != s.current
        if seat != s.current and not in_window:
            raise _Refused("not_your_turn" if not s.out[seat] else "player_out")
        if in_window and moment == "turn_start":
            raise _Refused("not_your_turn")
        if in_window and s.window_used:
            raise _Refused("one_claim_per_turn")
        return seat, self._moment(s, seat, action.get("claim"), moment)

    @staticmethod
    def _moment(s: TableState, seat: int, word: Any, told: str | None) -> str:
        """``discard`` (the turn's end, C30) or ``turn_start`` (before drawing, C41): an
        Élysée defaults to the turn's start, every other claim to the discard (C90); a claim
        after an action is at the turn's end whatever is said (the player has drawn)."""
        if seat != s.current or s.actions_this_turn:
            return "discard"
        if told is not None:
            return told
        return "turn_start" if word == "complot_elysee" else "discard"

    def _claim_points(self, s: TableState, action: dict[str, Any]) -> Verdict:
        """A score-only claim: the combination's points, no cards (C31, C32, C40)."""
        self._in_manche(s)
        seat = self._seat(action.get("player"))
        if not self.scores_only:
            raise _Refused("needs_cards")
        if s.out[seat]:
            raise _Refused("player_out")
        combination = action.get("combination")
        if not isinstance(combination, str) or combination not in POINTS:
            raise _Refused("bad_input")
        return _accept(s, seat, combination, POINTS[combination])

    # -- levels 2 and 3: actions and defences on the cards shown (C60–C92) -----------------------
    def _action(self, s: TableState, action: dict[str, Any]) -> Verdict:
        seat = self._turn_gate(s, action)
        kind = action.get("kind")
        cards = self._cards(action.get("cards"))
        targets = action.get("targets")
        if kind not in ACTIONS or not isinstance(targets, list) or not all(
                is_int(target) for target in targets):
            raise _Refused("bad_input")
        code = action_problem({
            "level": self.level, "action": kind, "hand": cards, "cards": cards, "actor": seat,
            "targets": targets, "active": s.still_in(), "drawn": True,
            "actions_this_turn": s.actions_this_turn}, self.deck)
        if code is not None:
            raise _Refused(code)
        s.window = None
        s.actions_this_turn += 1
        s.pending = (str(kind), tuple(cards), targets[0]) if kind in LEVEL_2_ACTIONS else None
        # the action cards end face up on the «défausse», blocked (C62–C68, C84–C86); which
        # of a descente's three lies on top is not said
        s.used, s.top_blocked = tuple(cards), True
        s.top = cards[0] if len(cards) == 1 else None
        return Verdict(True, changed=True, events=[("action", {
            "player": seat, "action": kind, "targets": list(targets), "cards": list(cards)})])

    def _defence(self, s: TableState, action: dict[str, Any]) -> Verdict:
        """C65–C67: the target shows an État-Major card of a strictly higher grade."""
        card = self._card_shown(s, action)
        if card not in self.deck:
            raise _Refused("unknown_card")
        if s.pending is None:
            raise _Refused("defence_not_allowed" if s.actions_this_turn
                           else "no_action_to_defend")
        kind, used, target = s.pending
        code = defence_problem(kind, used, card, self.deck)
        if code is not None:
            raise _Refused(code)
        s.pending = None
        return Verdict(True, changed=True, events=[("defended", {
            "player": s.current, "action": kind, "target": target, "defence": card})])

    # -- the manche and the game (C51–C56) -----------------------------------------------------
    def _end_manche(self, s: TableState, action: dict[str, Any]) -> Verdict:
        self._in_manche(s)
        if action.get("reason", "pioche_empty") not in TOLD_ENDS:
            raise _Refused("bad_input")
        _score_manche(s, "pioche_empty")
        return Verdict(True, changed=True, events=[_manche_over_event(s)])

    def _next_manche(self, s: TableState, action: dict[str, Any]) -> Verdict:
        if s.phase == "game_over":
            raise _Refused("game_over")
        if s.phase != "manche_over":
            raise _Refused("manche_not_over")
        s.manche += 1
        s.dealer = (s.dealer + 1) % s.players  # C12, C54
        _start_manche(s, self.scores_only)
        return Verdict(True, changed=True, events=[("manche_started", {
            "manche": s.manche, "dealer": s.dealer})])

    # -- the table log -------------------------------------------------------------------------
    def header(self) -> dict[str, Any]:
        """The table log's first line (TABLE-LOG.md's envelope, ``"hands": "hidden"``)."""
        return {"format": FORMAT, "version": 1, "players": list(self.players),
                "options": {**HIDDEN, "level": self.level, "target": self.target,
                            "scores_only": self.scores_only, "dealer": self.first_dealer}}

    def to_json(self) -> str:
        """The game as a table log: the header, then every applied action.

        >>> table = Table(["Ana", "Ben"], scores_only=True)
        >>> _ = table.push({"type": "claim_points", "player": 1, "combination": "two_trios"})
        >>> print(table.to_json(), end="")  # doctest: +NORMALIZE_WHITESPACE
        {"format": "complot-table-log", "version": 1, "players": ["Ana", "Ben"],
         "options": {"hands": "hidden", "level": 1, "target": 400, "scores_only": true,
                     "dealer": 1}}
        {"type": "claim_points", "player": 1, "combination": "two_trios"}
        >>> Table.from_json(table.to_json()).scores
        (0, 15)
        """
        lines = [self.header(), *self.history]
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)

    @classmethod
    def from_header(cls, header: Any, deck: Deck | None = None) -> Table:
        """The table a header line describes; ValueError (saying what) when it is not one."""
        if not is_hidden_header(header):
            raise ValueError(f"Line 1 is not a hidden-hands Complot table log header "
                             f"(format '{FORMAT}', option \"hands\": \"hidden\").")
        if header.get("version") != 1:
            raise ValueError("Line 1: this Complot table log has a version this program "
                             "cannot read.")
        players, options = header.get("players"), header["options"]
        if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
            raise ValueError("Line 1: 'players' must list 2 to 6 names.")
        level, target = options.get("level", 1), options.get("target", TARGET_SCORE)
        scores_only, dealer = options.get("scores_only", False), options.get("dealer")
        if not isinstance(scores_only, bool) or not (dealer is None or is_int(dealer)):
            raise ValueError("Line 1: 'scores_only' is true or false, 'dealer' a seat.")
        return cls(players, level=level, target=target, scores_only=scores_only,
                   dealer=dealer, deck=deck)

    @classmethod
    def from_json(cls, text: str, deck: Deck | None = None) -> Table:
        """The table a log describes; ValueError (with the line) when a line is refused."""
        lines = [line for line in text.split("\n") if line.strip()]
        if not lines:
            raise ValueError("The table log is empty.")
        table = cls.from_header(json.loads(lines[0]), deck)
        for number, line in enumerate(lines[1:], start=2):
            verdict = table.push(json.loads(line))
            if not (verdict.accepted or verdict.changed):
                raise ValueError(f"Line {number} of the table log is refused.")
        return table


# -- what the actions do to the state ----------------------------------------------------------

def _start_manche(s: TableState, scores_only: bool) -> None:
    """A fresh manche: everyone in, the player on the dealer's left first (C11, C12)."""
    n = s.players
    s.phase, s.end_reason, s.window, s.window_used = "manche", None, None, False
    s.current = None if scores_only else (s.dealer + 1) % n
    s.actions_this_turn, s.pending = 0, None
    s.top, s.top_blocked, s.used, s.laid = None, False, (), ()
    s.out, s.skip, s.turns_done, s.manche_points = [False] * n, [False] * n, [0] * n, [0] * n


def hand_counts(s: TableState) -> tuple[int, ...]:
    """The cards in each hand (C14): 6 for every seat still in, 0 once laid down (C17); the
    actor of a descente that may still be stopped holds 4, its three Enquêteurs laid before
    the target (C63, C67: 6 + 1 drawn − 3). Empty between manches (the cards are gathered)
    and in a score-only game (no turns: the table does not follow the hands)."""
    if s.phase != "manche" or s.current is None:
        return ()
    counts = [0 if out else HAND for out in s.out]
    if s.pending is not None:
        counts[s.current] += 1 - len(s.pending[1])
    return tuple(counts)


def _end_turn(s: TableState, seat: int, window: bool) -> None:
    """Pass the turn clockwise, skipping (and counting) the turns to pass (C15, C42, C44)."""
    s.turns_done[seat] += 1
    s.actions_this_turn, s.pending = 0, None
    following = s.next_seat(seat)
    while s.skip[following]:
        s.skip[following] = False
        s.turns_done[following] += 1
        following = s.next_seat(following)
    s.current = following
    # Who plays again after the others passed has no late claim to make: their claim now is
    # the end of this new turn.
    s.window = seat if window and following != seat and not s.out[seat] else None
    s.window_used = False


def _accept(s: TableState, seat: int, combination: str, points: int) -> Verdict:
    """An accepted claim takes the player out with its points (C34, C50); the manche ends
    with the last player or an Élysée (C51)."""
    s.out[seat] = True
    s.manche_points[seat] = points
    if s.window == seat:
        s.window = None
    events: list[tuple[str, dict[str, Any]]] = [("claimed", {
        "player": seat, "combination": combination, "points": points})]
    if combination == "complot_elysee":
        _score_manche(s, "elysee")
    elif len(s.still_in()) == 1:
        _score_manche(s, "last_player")
    elif s.current == seat:
        _end_turn(s, seat, window=False)
    if s.phase != "manche":
        events.append(_manche_over_event(s))
    return Verdict(True, changed=True, points=points, combination=combination, events=events)


def _wrong_claim(s: TableState, seat: int, moment: str, code: str) -> Verdict:
    """C44: the cards go back to the hand and a turn is passed — this one at a turn's start,
    the next one at a discard (which also ends this turn, C30)."""
    if seat == s.current and moment == "turn_start":
        _end_turn(s, seat, window=False)
    else:
        s.skip[seat] = True
        if seat == s.current:
            _end_turn(s, seat, window=True)
        s.window_used = s.window == seat
    return Verdict(False, code, changed=True,
                   events=[("wrong_claim", {"player": seat, "code": code})])


def _score_manche(s: TableState, reason: str) -> None:
    """C51–C55: the manche's points added to the totals, the game over at the target."""
    s.end_reason = reason
    s.scores = [total + won for total, won in zip(s.scores, s.manche_points, strict=True)]
    s.manches.append(tuple(s.manche_points))
    s.current, s.window, s.pending = None, None, None
    s.phase = "game_over" if game_winners(s.scores, s.target) else "manche_over"


def _manche_over_event(s: TableState) -> tuple[str, dict[str, Any]]:
    return ("manche_over", {"reason": s.end_reason, "points": list(s.manche_points)})


# -- set-up and the table log ------------------------------------------------------------------

def setup_problem(players: Sequence[Any], level: Any, target: Any,
                  dealer: Any = None) -> str | None:
    """What is wrong with a table's set-up (C10), in one English sentence, or None.

    >>> setup_problem(["Ana"], 1, 400)
    'Complot is played by 2 to 6 players, not 1: enter between two and six names.'
    >>> setup_problem(["Ana", "Ben"], 4, 400)
    'The level is 1, 2 or 3.'
    """
    if not 2 <= len(players) <= 6:
        return (f"Complot is played by 2 to 6 players, not {len(players)}: enter between two "
                "and six names.")
    if not all(isinstance(name, str) and name.strip() for name in players):
        return "Every player needs a name: fill in the empty names."
    if len({name.strip() for name in players}) != len(players):
        return "Two players have the same name: add an initial to tell them apart."
    if not is_int(level) or level not in (1, 2, 3):
        return "The level is 1, 2 or 3."
    if not is_int(target) or not 1 <= target <= 10_000:
        return "The target score is a whole number from 1 to 10000 (the rules say 400)."
    if dealer is not None and (not is_int(dealer) or not 0 <= dealer < len(players)):
        return "The first dealer is one of the players."
    return None


def is_hidden_header(header: Any) -> bool:
    """Whether a log's line 1 is this table model's (``"hands": "hidden"``), not the engine's.

    >>> is_hidden_header(Table(["Ana", "Ben"]).header())
    True
    >>> is_hidden_header({"format": "complot-table-log", "version": 1, "options": {}})
    False
    """
    return (isinstance(header, dict) and header.get("format") == FORMAT
            and isinstance(header.get("options"), dict)
            and header["options"].get("hands") == HIDDEN["hands"])


_Handler = Callable[[Table, TableState, dict[str, Any]], Verdict]
_HANDLERS: dict[str, _Handler] = {
    "turn": Table._turn, "claim": Table._claim, "claim_points": Table._claim_points,
    "action": Table._action, "defence": Table._defence, "defausse": Table._defausse,
    "end_manche": Table._end_manche,
    "next_manche": Table._next_manche,
}
