"""The Complot referee session: one game at a real table, headless (API-COMPLOT.md).

The screens call its intents (a turn ended, a claim with the cards laid down, an action, a
defence…); the :class:`~companion.complot.table.Table` judges each once, the durable record
(:class:`~companion.session.store.GameStore`) stores what changed the table — or the table takes
it back — and only then the listeners get a fresh :class:`ComplotView`.

>>> import tempfile, pathlib
>>> from companion.session.store import GameStore
>>> session = ComplotSession(GameStore(pathlib.Path(tempfile.mkdtemp()) / "g.sqlite"))
>>> session.new_game(["Ana", "Ben", "Chloé"])
>>> session.view.current
0
>>> session.next_turn().sentence("en")
"Ben's turn."
>>> outcome = session.claim(1, "complot", ["leonard:amelie", "leonard:arthur",
...     "leonard:clara", "leonard:emma", "leonard:sally", "leonard:sarah"])
>>> outcome.accepted, outcome.points, outcome.sentence("fr")
(True, 50, 'Ben marque 50 points (six Léonard) et sort de la manche. À Chloé de jouer.')
>>> session.undo().sentence("en")
"Undone: Ben's claim; Ben picks the laid cards up again."

It is a :class:`~companion.session.base.SessionBase` (the record and its writer lock, the
listeners, the one write path, resume, notices, the cameras' status): only the intents, the
view and what is said are Complot's. Threads: every intent takes the session's lock (camera, UI
threads alike: one at a time, in arrival order). Listeners are called with the lock held and
must return quickly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar, Literal, cast

from companion.errors import UserError
from companion.session.base import SessionBase
from companion.session.notices import said, sticker_problem
from companion.session.store import GameRecord, GameStore
from companion.session.view import Notice

from .cards import Deck, default_deck
from .engine import Verdict
from .judge import TARGET_SCORE
from .messages import is_seat, table_sentence
from .messages import sentence as refusal_sentence
from .payload import DEFAULT_DECK_ID, Foreign, TagError, classify, is_ours
from .table import FORMAT, Table, is_hidden_header, setup_problem

if TYPE_CHECKING:
    from companion.i18n import Catalog

Phase = Literal["manche", "manche_over", "game_over"]
#: How many recent outcomes the view keeps for the screen's history lines.
HISTORY = 8


@dataclass(frozen=True)
class ComplotOutcome:
    """What the referee made of one intent. ``code`` is section H's code of a refusal (a wrong
    claim too: ``accepted`` is false but the claimant passes a turn, see ``wrong_claim``);
    ``events`` (event, params) are worded by :meth:`sentence` in the table's language."""

    accepted: bool
    code: str | None = None
    points: int = 0
    combination: str | None = None
    cards: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    events: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    #: Whom it is about: the claimant, the player acting or ending a turn, the defender.
    seat: int | None = None

    @property
    def wrong_claim(self) -> bool:
        """A refused claim that cost the claimant a turn (C44, C44a)."""
        return any(event == "wrong_claim" for event, _ in self.events)

    def sentence(self, language: str) -> str:
        """One plain sentence (or two) in ``language`` (fr, en, zh): what happened and what to
        do next."""
        if not self.events:
            return refusal_sentence(self.code, language) if self.code else ""
        joiner = "" if language == "zh" else " "  # Chinese sentences need no space
        return joiner.join(table_sentence(event, params, self.players, language)
                           for event, params in self.events)


@dataclass(frozen=True)
class ComplotView:
    """An immutable snapshot of the session, published after every change."""

    game_id: int | None = None
    players: tuple[str, ...] = ()
    level: int = 1
    target: int = TARGET_SCORE
    scores_only: bool = False
    manche: int = 0
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
    pending_target: int | None = None
    claim_window: int | None = None
    #: Cards in each hand (C14; empty between manches and in a score-only game).
    hand_counts: tuple[int, ...] = ()
    #: The top of the «défausse» when the table showed it, else None; C68's block.
    top_of_defausse: str | None = None
    top_blocked: bool = False
    #: Turns played this manche (passed turns included): none yet is the deal's moment.
    turns_played: int = 0
    dealer: int | None = None
    last: ComplotOutcome | None = None
    history: tuple[ComplotOutcome, ...] = ()
    can_undo: bool = False
    can_redo: bool = False
    unfinished: tuple[int, ...] = ()
    notices: tuple[Notice, ...] = ()
    camera_ok: bool = True
    camera_message: str = ""
    foreign_codes: int = 0
    cards_read: tuple[str, ...] = ()

    @property
    def has_game(self) -> bool:
        return self.game_id is not None

    def __call__(self) -> ComplotView:
        """The view itself: ``session.view`` is a property, as Noah's session's (the base's);
        this keeps ``session.view()``, the API's first spelling, working."""
        return self


@dataclass(frozen=True)
class _Applied:
    """A :class:`Table` verdict as the write path sees it: applied (and so stored) when the
    table changed — every accepted action, and a wrong claim, whose lost turn is the rule's
    own consequence (C44)."""

    verdict: Verdict

    @property
    def accepted(self) -> bool:
        return self.verdict.changed


class _Referee:
    """The :class:`Table` behind the base's write path (its ``push`` and ``pop``)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def push(self, action: dict[str, Any]) -> _Applied:
        return _Applied(self.table.push(action))

    def pop(self) -> dict[str, Any]:
        return self.table.pop()


class ComplotSession(SessionBase[ComplotView, dict[str, Any]]):
    """The referee for one Complot table, one game open at a time (API-COMPLOT.md)."""

    log_format: ClassVar[str] = FORMAT
    #: The camera pipeline's filter (companion.wiring): a Complot sticker, ``CPLT1/…``.
    is_ours = staticmethod(is_ours)

    def __init__(self, store: GameStore, *, deck: Deck | None = None,
                 deck_id: str = DEFAULT_DECK_ID) -> None:
        super().__init__(store)
        self.deck = deck
        self.deck_id = deck_id
        self._table: Table | None = None
        self._cards_read: list[str] = []
        self._history: list[ComplotOutcome] = []
        self._saved: tuple[int, str] = (0, "manche")
        self._view = ComplotView(unfinished=self._unfinished_ids())

    @property
    def table(self) -> Table | None:
        """The open game's table (read it, never push to it directly)."""
        return self._table

    # -- games ---------------------------------------------------------------------------------
    def unfinished_games(self) -> list[GameRecord]:
        """Complot games of real tables that can be resumed, newest first."""
        return [game for game in super().unfinished_games() if is_hidden_header(game.header)]

    def new_game(self, players: Sequence[str], *, level: int = 1, target: int = TARGET_SCORE,
                 scores_only: bool = False, dealer: int | None = None) -> None:
        """Open a new game and write its header (C10; UserError if the set-up is wrong).
        ``dealer``: the first dealer (default the last seat: the first name plays first)."""
        names = [name.strip() if isinstance(name, str) else name for name in players]
        problem = setup_problem(names, level, target, dealer)
        if problem is not None:
            raise UserError(problem, "Change the players or the options.",
                            key="complot.error.setup", reason=problem)
        with self._lock:
            table = Table(names, level=level, target=target, scores_only=bool(scores_only),
                          dealer=dealer, deck=self.deck)
            game_id = self.store.create_game(table.header(), score_only=table.scores_only)
            self._open(game_id, table)
            self._save_summary()
            self._publish()

    def resume(self, game_id: int | None = None, *, to_last_good_move: bool = False) -> None:
        """Reopen a stored Complot game where it stopped (its lines replayed), redo included;
        ``None``: the newest unfinished one. A damaged game (a line the referee refuses, or
        not JSON) raises UserError and changes nothing — unless the table chose to go on from
        its last good move: the lines from the break on are then set aside (kept, never lost:
        ``export`` shows them) and the game goes on."""
        with self._lock:
            game_id = self._game_to_resume(game_id)
            table, redo, seq, damage = self._replayed(game_id)
            if damage is not None:
                line, bad_seq, reason = damage
                if not to_last_good_move:
                    raise UserError(f"Game {game_id} is damaged at line {line}: {reason}",
                                    "Choose to resume it up to the last good move, to abandon "
                                    "it or to delete it.", key="complot.error.damaged",
                                    game=game_id, line=line)
                moved = self.store.set_aside(game_id, bad_seq, f"line {line}: {reason}")
            self._open(game_id, table, redo=redo, seq=seq)
            if damage is not None:
                self._notice("info", said("set_aside", count=moved, line=damage[0]), "set_aside")
            self._publish()

    def _replayed(self, game_id: int) -> tuple[Table, list[dict[str, Any]], int,
                                               tuple[int, int, str] | None]:
        """The stored game's table up to its first bad line, what an undo left to redo, the
        last good line's seq, and the damage (line number, its seq, why) or None."""
        header = self.store.header(game_id)
        if not is_hidden_header(header):
            raise UserError(f"Game {game_id} is not a Complot game of a real table.",
                            "Resume it from its own game's screen.",
                            key="complot.error.not_complot", game=game_id)
        try:
            table = Table.from_header(header, self.deck)
        except ValueError as error:
            raise UserError(f"Game {game_id} cannot be read: {error}",
                            "Abandon it or delete it (it cannot be resumed).") from None
        stored = self.store.raw_lines(game_id)
        if stored.unreadable:
            raise UserError(f"Game {game_id} cannot be read to its end: {stored.unreadable}.",
                            "Run 'noah-companion doctor'.")
        redo: list[dict[str, Any]] = []
        last = 0
        for number, (text, seq) in enumerate(zip(stored.texts, stored.seqs, strict=True),
                                             start=2):
            line, done = _json_object(text), table.history
            verdict = table.push(line) if line is not None else None
            if verdict is None or not (verdict.accepted or verdict.changed):
                why = "not a table-log line" if verdict is None else verdict.sentence("en")
                return table, redo, last, (number, seq, why)
            redo, last = _after(line or {}, done, table.history, redo), seq
        return table, redo, last, None

    def _open(self, game_id: int, table: Table, *, redo: list[dict[str, Any]] | None = None,
              seq: int = 0) -> None:
        self._opened(game_id, seq=seq, redo=redo)
        self._table, self._history = table, []
        self._saved = (len(table.manches), table.phase)

    def _clear_game(self) -> None:
        self._table, self._history, self._cards_read = None, [], []

    # -- the cameras ---------------------------------------------------------------------------
    def tag_seen(self, text: str, in_view: tuple[str, ...] = ()) -> ComplotOutcome:
        """A sticker read by a camera (the pipeline's ``on_vision_event``). A Complot card joins
        the view's ``cards_read`` — the cards shown since the last intent was judged, each once,
        in the order read — for the screen to lay into its claim, action or defence; a Noah or
        foreign code is counted and ignored; a sticker of another box or a damaged one is said
        (C6)."""
        with self._lock:
            tag = classify(text, self.deck or default_deck(), self.deck_id)
            if isinstance(tag, Foreign):
                self.foreign_code(text)
                return ComplotOutcome(False, "foreign_code")
            if isinstance(tag, TagError):
                self._notice("problem", sticker_problem(tag, self.deck_id), tag.reason)
                return self._refused("bad_sticker")
            if tag.card.id not in self._cards_read:
                self._cards_read.append(tag.card.id)
            self._publish()
            return ComplotOutcome(True, cards=(tag.card.id,))

    # -- intents -------------------------------------------------------------------------------
    def next_turn(self, discard: str | None = None, *,
                  drawn_from: str | None = None) -> ComplotOutcome:
        """The current player has drawn and discarded: the next player in play (C13, C15,
        C44). ``discard``: the card discarded, when the table showed it (it is then the top of
        the «défausse»); ``drawn_from``: ``pioche`` or ``defausse``, when the table said."""
        with self._lock:
            current = self._table.current if self._table is not None else None
            action: dict[str, Any] = {"type": "turn", "player": current}
            if discard is not None:
                action["discard"] = discard
            if drawn_from is not None:
                action["from"] = drawn_from
            return self._submit(action)

    def show_top(self, card: str) -> ComplotOutcome:
        """The table shows the top of the «défausse»: the card turned at the deal (C11), or
        the top seen again."""
        with self._lock:
            return self._submit({"type": "defausse", "card": card})

    def claim(self, seat: int, words: str, cards: Sequence[str], *,
              moment: str | None = None) -> ComplotOutcome:
        """A claim with the cards laid down (C30–C47, C90): ``words`` is ``complot``,
        ``prix_pulitzer``, ``plan_etare`` or ``complot_elysee``; ``moment`` (``discard`` or
        ``turn_start``) when the screen knows it better than the default (C90)."""
        action: dict[str, Any] = {"type": "claim", "player": seat, "claim": words,
                                  "cards": list(cards)}
        if moment is not None:
            action["moment"] = moment
        with self._lock:
            return self._submit(action)

    def claim_points(self, seat: int, combination: str) -> ComplotOutcome:
        """Score-only mode: a claim recorded by its combination's points (C31, C32, C40)."""
        with self._lock:
            return self._submit({"type": "claim_points", "player": seat,
                                 "combination": combination})

    def action(self, seat: int, kind: str, cards: Sequence[str],
               targets: Sequence[int]) -> ComplotOutcome:
        """A level 2–3 action on the cards shown (C60–C87, C91)."""
        with self._lock:
            return self._submit({"type": "action", "player": seat, "kind": kind,
                                 "cards": list(cards), "targets": list(targets)})

    def defence(self, card: str) -> ComplotOutcome:
        """The target of the pending contrôle or descente shows ``card`` (C65–C67, C92)."""
        with self._lock:
            return self._submit({"type": "defence", "card": card})

    def end_manche(self, reason: str = "pioche_empty") -> ComplotOutcome:
        """C51c: the table says the «pioche» ran out (the only end it must tell)."""
        with self._lock:
            return self._submit({"type": "end_manche", "reason": reason})

    def next_manche(self) -> ComplotOutcome:
        """The next manche, dealt by the next player clockwise (C12, C54, C56)."""
        with self._lock:
            return self._submit({"type": "next_manche"})

    def undo(self) -> ComplotOutcome:
        """Take back the last action (a wrong claim's lost turn included), saying what the
        table puts back."""
        with self._lock:
            table = self._table
            if table is None or not table.history:
                return self._refused("no_game" if table is None else "nothing_to_undo")
            undone = table.history[-1]
            self._write({"type": "undo", "count": 1})
            still_in = table.still_in
            table.pop()
            self._redo.append(undone)
            kind = undone.get("type")
            if kind == "claim" and table.still_in == still_in:  # the claim was refused
                kind = "wrong_claim"
            params = {"type": kind, "player": undone.get("player")}
            seat = params["player"] if is_seat(params["player"], table.players) else None
            return self._done(ComplotOutcome(True, players=table.players,
                                             events=(("undone", params),), seat=seat))

    def redo(self) -> ComplotOutcome:
        """Apply again the last undone action (possible until another action is taken)."""
        with self._lock:
            if not self._redo:
                return self._refused("nothing_to_redo")
            return self._submit(self._redo[-1], redoing=True)

    # -- the one write path --------------------------------------------------------------------
    def _submit(self, action: dict[str, Any], *, redoing: bool = False) -> ComplotOutcome:
        """Judge once and apply (the table's push), write to the record (committed) — taking
        the action back if the write fails — then publish."""
        table = self._table
        if table is None:
            return self._refused("no_game")
        seat = table.pending_target if action.get("type") == "defence" else action.get("player")
        verdict = self._judged(_Referee(table), action, action, redoing=redoing).verdict
        self._cards_read = []
        outcome = self._outcome(table, action, verdict)
        return self._done(replace(outcome, seat=seat) if is_seat(seat, table.players)
                          else outcome)

    def _done(self, outcome: ComplotOutcome) -> ComplotOutcome:
        self._history = [*self._history, outcome][-HISTORY:]
        self._save_summary()
        self._publish()
        return outcome

    def _refused(self, code: str) -> ComplotOutcome:
        outcome = ComplotOutcome(False, code)
        if self._table is not None:
            self._history = [*self._history, outcome][-HISTORY:]
        self._publish()
        return outcome

    @staticmethod
    def _outcome(table: Table, action: dict[str, Any], verdict: Verdict) -> ComplotOutcome:
        events: list[tuple[str, Mapping[str, Any]]] = list(verdict.events)
        if verdict.changed:
            events += _consequences(table, events)
        cards = action.get("cards", [action["card"]] if "card" in action else [])
        return ComplotOutcome(
            verdict.accepted, verdict.code, verdict.points, verdict.combination,
            tuple(card for card in cards if isinstance(card, str)) if isinstance(cards, list)
            else (), table.players, tuple(events) if verdict.changed else ())

    def _save_summary(self) -> None:
        """Refresh the history list's cache when a manche ends or comes back."""
        table = self._table
        if table is None or self._game_id is None:
            return
        now = (len(table.manches), table.phase)
        if now == self._saved and table.history:
            return
        self._store_summary(summary(table), finished=table.is_over)
        self._saved = now

    def bgstats_url(self) -> str:
        """The link that pushes this finished game to the BG Stats app ("" before the end;
        companion/session/bgstats.py, the same as Noah's)."""
        from companion.session.bgstats import game_url

        with self._lock:  # close_game on another thread must not clear the game mid-read
            return game_url(self.store, self._game_id, self._table)

    # -- the view ------------------------------------------------------------------------------
    def _build_view(self) -> ComplotView:
        table = self._table
        if table is None:
            return ComplotView(**self._shared_fields())
        return ComplotView(
            game_id=self._game_id, players=table.players, level=table.level,
            target=table.target, scores_only=table.scores_only, manche=table.manche,
            current=table.current, must_pass=table.must_pass, still_in=table.still_in,
            scores=table.scores, manche_points=table.manche_points, manches=table.manches,
            phase=cast(Phase, table.phase), end_reason=table.end_reason,
            winners=table.winners, pending_action=table.pending_action,
            pending_target=table.pending_target, claim_window=table.claim_window,
            hand_counts=table.hand_counts, top_of_defausse=table.top_of_defausse,
            top_blocked=table.top_blocked, dealer=table.dealer,
            turns_played=sum(table.turns_done(seat) for seat in range(len(table.players))),
            last=self._history[-1] if self._history else None,
            history=tuple(self._history), can_undo=bool(table.history),
            can_redo=bool(self._redo), cards_read=tuple(self._cards_read),
            **self._shared_fields())

    def _shared_fields(self) -> dict[str, Any]:
        """The view's fields the base keeps: notices and the cameras' status."""
        return {"unfinished": self._unfinished_ids(), "notices": tuple(self._notices),
                "camera_ok": self._camera_ok, "camera_message": self._camera_message,
                "foreign_codes": self._foreign_codes}


def defausse_caption(catalog: Catalog, table: Any, *, unknown: bool = True) -> str:
    """The words over the top of the «défausse» (the app's play screen's too): its name, and
    that it may not be taken (C68) or (``unknown``) that the table has not shown it (never a
    guess)."""
    caption = catalog.text("complot.play.defausse")
    if table.top_blocked:
        return f"{caption} · {catalog.text('complot.play.top_blocked')}"
    if unknown and table.top_of_defausse is None:
        return f"{caption} · {catalog.text('complot.play.top_unknown')}"
    return caption


def summary(table: Table) -> dict[str, Any]:
    """The history list's cache for one Complot game (the fields of Noah's, manches as
    rounds)."""
    return {"kind": "complot", "round": table.manche, "scores": list(table.scores),
            "round_scores": [list(points) for points in table.manches],
            "winners": list(table.winners), "game_over": table.is_over}


def _consequences(table: Table, events: Sequence[tuple[str, Mapping[str, Any]]]
                  ) -> list[tuple[str, Mapping[str, Any]]]:
    """What follows from an applied action that the screen must say: who may defend, the
    game's end, whose turn it now is."""
    kinds = [kind for kind, _ in events]
    more: list[tuple[str, Mapping[str, Any]]] = []
    if table.pending_action is not None and "action" in kinds:
        more.append(("defendable", {"target": table.pending_target}))
    if table.is_over and "manche_over" in kinds:
        more.append(("game_over", {"winners": list(table.winners)}))
    elif table.current is not None and "turn" not in kinds and (
            "claimed" in kinds or "wrong_claim" in kinds or "manche_started" in kinds):
        more.append(("turn", {"next": table.current}))
    return more


def _json_object(text: str) -> dict[str, Any] | None:
    """A stored line as a JSON object, or None when it is not one."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _after(line: dict[str, Any], done: tuple[dict[str, Any], ...],
           now: tuple[dict[str, Any], ...], redo: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The redo stack after ``line`` was replayed: an undo adds what it took back, the same
    action again is a redo, anything else clears it (as the session does live)."""
    if line.get("type") == "undo":
        return [*redo, *reversed(done[len(now):])]
    if redo and line == redo[-1]:
        return redo[:-1]
    return []
