"""The referee session: one game at a real table, headless.

Camera events, touches and ferry buttons come in as *intents* (methods); the rules engine judges
each once, the durable record (SQLite, committed) stores it — or the engine takes it back — and
only then the ferry lights and the listeners get a fresh :class:`SessionView`.

>>> import tempfile, pathlib
>>> from companion.session.store import GameStore
>>> session = Session(GameStore(pathlib.Path(tempfile.mkdtemp()) / "g.sqlite"))
>>> view = session.new_game(["Ana", "Ben", "Chloé"])
>>> view.prompt.kind
'choose_noah_start'
>>> session.choose_noah_start(2).accepted
True
>>> session.view.prompt.text
'Show the starting animal of ferry 1 to the camera.'

What is not Noah's — the record and its writer lock, the listeners, the one write path, the
redo stack, resume, notices, the cameras' status, the threads' lock — is the generic
:class:`~companion.session.base.SessionBase`; this module is Noah's intents and view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, cast

from companion.errors import UserError
from companion.game import Game, actions
from companion.game.actions import Action, Play, ScanHands, ScoreRound
from companion.game.deck import Deck, default_deck, parse_ref
from companion.game.errors import InputError
from companion.game.options import Options
from companion.game.sizes import FERRY_COUNT
from companion.i18n import english
from companion.session import record
from companion.session.base import SessionBase
from companion.session.drafts import (
    Drafts,
    PendingPlay,
    SetupDraft,
    not_in_a_hand,
    several_cards,
    with_side,
)
from companion.session.header import new_header, read_header
from companion.session.intents import Outcome, TableIntents
from companion.session.lights import LightsDriver, TableLights, departed_ferry
from companion.session.narrate import copy_name
from companion.session.notices import NOTICE_KEYS as NOTICE_KEYS  # the catalogs check these
from companion.session.notices import said, sticker_problem
from companion.session.prompts import MoveNoah, Prompt, current_step, derive_prompt, in_setup
from companion.session.reconcile import undo_explained
from companion.session.steps import Step
from companion.session.store import GameStore
from companion.session.view import Phrase, SessionView
from companion.tags.payload import DEFAULT_DECK_ID, Foreign, TagOk, classify, is_ours


class Session(SessionBase[SessionView, Action]):
    """The referee for one table of Noah, one game open at a time; its intents are
    :class:`~companion.session.intents.TableIntents` (documented there). ``lights``: any
    :class:`~companion.session.lights.TableLights` or None; ``deck_id``: the stickers' box id."""

    log_format: ClassVar[str] = record.FORMAT

    def __init__(self, store: GameStore, *, lights: TableLights | None = None,
                 deck: Deck | None = None, deck_id: str = DEFAULT_DECK_ID) -> None:
        super().__init__(store)
        self.lights = lights
        self.deck = deck if deck is not None else default_deck()
        self.deck_id = deck_id
        self._game: Game | None = None
        self._header = read_header({})
        self._round_scores: list[tuple[int, tuple[int, ...]]] = []  # (history length, tears)
        self._drafts = Drafts()
        self._reconciliation: tuple[str, ...] = ()
        self._lights = LightsDriver(lights) if lights is not None else None
        self._view = SessionView.empty(self._unfinished_ids())
        if self._lights is not None:
            self._lights.on_button(self.ferry_pressed)

    @property
    def game(self) -> Game | None:
        """The rules engine's game (read it, never push to it directly)."""
        return self._game

    # -- games -----------------------------------------------------------------------------

    def new_game(self, players: Sequence[str], options: Options | Mapping[str, Any] | None = None,
                 *, score_only: bool = False, tokens: Sequence[str] = ()) -> SessionView:
        """Open a new game and write its header (hands hidden, R48; UserError if bad)."""
        header = new_header(players, options, score_only=score_only, deck_id=self.deck_id,
                            tokens=tokens)
        players, options, _ = read_header(header)
        with self._lock:
            try:
                game = Game(players, options, deck=self.deck)
            except InputError as error:
                raise UserError(error.message, "Change the players or the options.") from None
            game_id = self.store.create_game(header, score_only=game.options.score_only)
            self._open(game_id, header, game, redo=[], seq=0)
            self._notice("info", said("new_game", players=list(players)))
            self._publish()
            return self._view

    def resume(self, game_id: int | None = None, *,
               to_last_good_move: bool = False) -> SessionView:
        """Reopen a stored game where it was (replayed once), redo stack included; a damaged
        game raises DamagedGame, or continues from its last good move if the table chose so."""
        with self._lock:
            reading, seq = record.reopen(self.store, self._game_to_resume(game_id), self.deck,
                                         to_last_good_move=to_last_good_move)
            assert reading.game is not None, "reopen raises for a game it cannot read"
            self._open(reading.entry.id, reading.entry.header, reading.game,
                       redo=list(reading.redo), seq=seq)
            self._round_scores = list(reading.round_scores)
            if reading.damaged or reading.game.is_over:  # the cache may say otherwise
                self._save_summary()
            game_id, damage = reading.entry.id, reading.damage
            self._notice("info", said("resumed", game=game_id))
            if damage is not None:  # what was set aside, and what the table puts back
                dropped = len(reading.lines) - reading.keep
                self._notice("info", said("set_aside", count=dropped, line=damage.line))
                self._put_back(reading.put_back)
            self._publish()
            return self._view

    def _open(self, game_id: int, header: dict[str, Any], game: Game, *,
              redo: list[Action], seq: int) -> None:
        self._opened(game_id, seq=seq, redo=redo)
        self._game, self._header = game, read_header(header)
        self._round_scores = []
        self._drafts = Drafts()
        self._reconciliation = ()

    def _clear_game(self) -> None:
        self._game, self._header = None, read_header({})
        self._round_scores = []
        self._drafts = Drafts()
        self._reconciliation = ()

    # -- the camera ------------------------------------------------------------------------

    #: The predicate the vision pipeline takes: true for any Noah sticker text.
    is_ours = staticmethod(is_ours)

    def table_finding(self, phrases: tuple[Phrase, ...], ferry: int | None) -> None:
        """The overhead camera's audit (companion.session.table_observer): a difference between
        the table and the record, said as what to put where (``reconcile``), ferry ``ferry``'s
        light flashing; ``ferry`` None: a confirmation (``info``). The record is not touched."""
        with self._lock:
            self._notice("reconcile" if ferry is not None else "info", phrases)
            if ferry is not None and self._lights is not None:
                self._lights.refused(ferry)
            self._publish()

    def tag_seen(self, text: str, in_view: Sequence[str] = ()) -> Outcome:
        """A sticker read by the camera (two cards in view or more: which one is meant?)."""
        with self._lock:
            tag = classify(text, self.deck, self.deck_id)
            if isinstance(tag, Foreign):
                self.foreign_code(text)
                return Outcome(False, said("foreign_code"))
            if not isinstance(tag, TagOk):
                return self._refuse(sticker_problem(tag, self.deck_id), None)
            tags = (classify(other, self.deck, self.deck_id) for other in in_view)
            several = several_cards(t.card.id if isinstance(t, TagOk) else None for t in tags)
            if several and self._step() in ("play_card", "scan_setup_card", "choose_card"):
                self._drafts.candidates = several
                self._notice("info", said("several_cards"))
                self._publish()
                return Outcome(False, said("several_cards"))
            return self._card(tag.card.id)

    def choose_card(self, ref: str) -> Outcome:
        """A card chosen by touch (``cat:F#2``): the same as showing it to the camera."""
        with self._lock:
            if self.deck.get(ref) is None:
                return self._no_such_card(ref)
            self._drafts.candidates = ()
            return self._card(ref)

    def _card(self, ref: str) -> Outcome:
        """Route a card to whatever the current step expects. A new card replaces one still
        waiting for its snail side or frog weight."""
        self._drafts.candidates, self._drafts.pending = (), None
        step = self._step()
        if step == "scan_setup_card":
            return self._setup_card(ref)
        if step == "scan_hand":
            return self._hand_card(ref)
        if step == "play_card":
            return self._start_play(ref)
        if step in ("choose_target", "move_noah", "give_cards"):
            return self._submit(self._play_action(ref))  # refused: the engine says what first
        if step == "no_game":
            return self._refused("no_game")
        if step == "enter_tears":
            return self._refused("score_only_card")
        return self._refused("no_card_expected")

    def _no_such_card(self, text: str) -> Outcome:
        """A card this deck does not have: a copy it lacks (``cat:F#9``), or no card at all."""
        try:
            parse_ref(text)
        except InputError:
            return self._refused("not_a_card", reason="unknown_card", text=copy_name(text))
        return self._refused("no_such_card", reason="unknown_card", card=text)

    # -- round setup -----------------------------------------------------------------------

    def choose_noah_start(self, ferry: int) -> Outcome:
        """Round setup: the table puts Noah on ``ferry`` (0-4)."""
        with self._lock:
            if self._step() != "choose_noah_start":
                return self._refused("noah_start_chosen")
            if ferry not in range(FERRY_COUNT):
                return self._refused("ferry_range")
            self._drafts.setup.noah = ferry
            started = said("noah_start", ferry=ferry + 1)
            self._notice("info", started)
            self._publish()
            return Outcome(True, started)

    def _setup_card(self, ref: str) -> Outcome:
        setup = self._drafts.setup
        if already := self._drafts.placed_at_setup(ref):
            k, placed = already
            return self._refused("already_on_ferry", card=placed, ferry=k + 1)
        ferry = _given(setup.next_ferry)  # asked for only while a ferry has no animal
        if parse_ref(ref).species == "snail" and parse_ref(ref).gender is None:
            self._drafts.pending = PendingPlay(ref, ("M", "F"))  # any side starts a ferry
            self._publish()
            return Outcome(True)  # the prompt asks which side is up
        setup.ferries[ferry] = ref
        self._notice("info", said("setup_card", card=ref, ferry=ferry + 1))
        return self._maybe_start_round()

    def remove_setup_card(self, ref: str) -> Outcome:
        """Round setup: take a wrongly shown starting animal off its ferry (asked again)."""
        with self._lock:
            placed = self._drafts.placed_at_setup(ref) if in_setup(self._game) else None
            if placed is None:
                return self._refused("not_a_setup_card", card=ref)
            k, card = placed
            self._drafts.setup.ferries[k] = None
            self._notice("info", said("setup_card_removed", card=card, ferry=k + 1))
            self._publish()
            return Outcome(True)

    def choose_starter(self, seat: int) -> Outcome:
        """Round 1 setup: who plays first (the shortest player, R10)."""
        with self._lock:
            if self._step() != "choose_starter":
                return self._refused("starter_not_asked")
            if seat not in range(len(self._header.players)):
                return self._refused("choose_a_player")
            self._drafts.setup.starter = seat
            return self._maybe_start_round()

    def _maybe_start_round(self) -> Outcome:
        draft = self._drafts.setup
        action = draft.start_round(len(self._header.players), first_round=self._playing.round == 0)
        if action is None:
            self._publish()
            return Outcome(True)
        outcome = self._submit(action)
        if not outcome.accepted:
            self._drafts.setup = SetupDraft(noah=draft.noah)
            self._notice("info", said("rescan_setup"))
            self._publish()
        return outcome

    # -- turns -----------------------------------------------------------------------------

    def _start_play(self, ref: str) -> Outcome:
        """A card for the current turn: a snail waits for its side, a frog that could declare a
        weight for its weight (the answers the rules allow are judged once, here)."""
        play = self._play_action(ref)
        self._drafts.pending = pending = PendingPlay.judged(self._playing, play)
        if pending is None:
            return self._submit(play)
        self._publish()
        return Outcome(True)  # the prompt asks for the snail's side or the frog's weight

    def _play_action(self, ref: str, side: str | None = None,
                     frog_weight: int | None = None) -> Play:
        game = self._playing
        return Play(_given(game.current_player), ref, _given(game.noah), as_gender=side,
                    frog_weight=frog_weight)

    def choose_snail_side(self, side: str) -> Outcome:
        """The side of the snail turned up, ``"M"`` or ``"F"`` (R14)."""
        with self._lock:
            pending = self._drafts.pending
            if pending is None or pending.species != "snail":
                return self._refused("no_snail_waiting")
            if side not in ("M", "F"):
                return self._refused("snail_side")
            self._drafts.pending = None
            if in_setup(self._game):
                return self._setup_card(with_side(pending.card, side))
            return self._submit(self._play_action(pending.card, side=side))

    def choose_frog_weight(self, weight: int) -> Outcome:
        """The weight the frog declares (R43): 1 means none; 2-5 only to make the ferry depart."""
        with self._lock:
            pending = self._drafts.pending
            if pending is None or pending.species != "frog":
                return self._refused("no_frog_waiting")
            self._drafts.pending = None
            return self._submit(
                self._play_action(pending.card, frog_weight=None if weight == 1 else weight)
            )

    def take_back(self) -> Outcome:
        """The current player cannot play: they take back every animal of Noah's ferry (R25)."""
        with self._lock:
            if self._game is not None:
                self._drafts.pending = None  # a card waiting for its answer is not played
            return self._players_action(
                lambda game, player: actions.TakeBack(player, _given(game.noah)))

    def choose_target(self, seat: int) -> Outcome:
        """The opponent for the crocodile's fleeing animal, the lion's swap or the giraffe."""
        return self._players_action(
            lambda game, player: _TARGETED.get(game.phase, actions.GiraffeLook)(player, seat))

    def skip(self) -> Outcome:
        """Decline an optional step (the giraffe's look): Noah's move comes next."""
        with self._lock:
            self._drafts.giraffe_looked = True
            self._publish()
            return Outcome(True)

    def move_noah(self, ferry: int) -> Outcome:
        """The current player moves Noah to ``ferry`` (0-4)."""
        return self._players_action(lambda game, player: actions.MoveNoah(player, ferry))

    def ferry_pressed(self, ferry: int) -> Outcome:
        """A ferry button (0-4): chooses Noah's starting ferry or his destination."""
        with self._lock:
            step = self._step()
            if step == "choose_noah_start":
                return self.choose_noah_start(ferry)
            if step == "move_noah":
                return self.move_noah(ferry)
            if self._lights is not None:
                self._lights.refused(ferry)
            return self._refused("ferry_button" if self._game else "no_game")

    def give_cards(self, gifts: Mapping[int, int]) -> Outcome:
        """The departing player's gifts (R20): ``{seat: number of cards}``, all in one go."""
        return self._players_action(lambda game, player: actions.Give(player, tuple(
            actions.Gift(seat) for seat, count in sorted(gifts.items())  # hidden hands: R48
            for _ in range(int(count)))))

    def _players_action(self, action: Callable[[Game, int], Action]) -> Outcome:
        """Submit ``action(game, seat)`` for the seat whose turn it is."""
        with self._lock:
            if self._game is None:
                return self._refused("no_game")
            return self._submit(action(self._game, _given(self._game.current_player)))

    # -- round end -------------------------------------------------------------------------

    def _hand_card(self, ref: str) -> Outcome:
        drafts, counts = self._drafts, self._playing.hand_counts
        if any(ref in hand for hand in drafts.hands):
            return self._refused("already_scanned", card=ref)
        problem = not_in_a_hand(self._playing, ref)
        if problem:
            return self._refuse(problem, "scan_mismatch")
        seat = drafts.scan_card(ref, counts)
        self._notice("info", said("hand_scanned", name=self._header.players[seat], card=ref))
        if drafts.scan_seat(counts) is not None:
            self._publish()
            return Outcome(True)
        hands, drafts.hands = drafts.hands, []
        outcome = self._submit(ScanHands(tuple(tuple(hand) for hand in hands)))
        if not outcome.accepted:
            self._notice("info", said("rescan_hands"))
            self._publish()
        return outcome

    def remove_scanned(self, ref: str) -> Outcome:
        """Drop a card wrongly scanned into a hand during the round-end scan."""
        with self._lock:
            for hand in self._drafts.hands:
                if ref in hand:
                    hand.remove(ref)
                    self._publish()
                    return Outcome(True, said("removed_from_scan", card=ref))
            return self._refused("not_in_scan", card=ref)

    def enter_tears(self, tears: Sequence[int]) -> Outcome:
        """Score-only mode: this round's tears, one number per seat."""
        with self._lock:
            if self._game is None:
                return self._refused("no_game")
            try:
                values = tuple(int(t) for t in tears)
            except (TypeError, ValueError):
                return self._refused("tears_numbers")
            return self._submit(ScoreRound(values))

    # -- cancel, undo, redo ----------------------------------------------------------------

    def cancel(self) -> Outcome:
        """Drop what is half entered (:mod:`companion.session.drafts`); the record stays."""
        with self._lock:
            if not self._drafts.drop_half_entered(in_setup=in_setup(self._game)):
                return Outcome(False, said("nothing_to_cancel"))
            self._publish()
            return Outcome(True, said("cancelled"))

    def undo(self, count: int = 1) -> Outcome:
        """Take back the last ``count`` actions (R55), or first what is half entered."""
        with self._lock:
            if self._game is None:
                return self._refused("no_game")
            last = self._drafts.last_laid() if in_setup(self._game) else None
            if last is not None:
                return self.remove_setup_card(last)
            cancelled = self.cancel()
            if cancelled.accepted:
                return cancelled
            game = self._game
            count = min(count, len(game.history))
            if count < 1:
                return self._refused("nothing_to_undo")
            self._write({"type": "undo", "count": count})
            undone, sentences = undo_explained(game, count, self._header.players)
            self._redo += undone
            self._round_scores = [(at, tears) for at, tears in self._round_scores
                                  if at <= len(game.history)]
            self._notice("info", said("undo", count=count))
            self._put_back(sentences)
            self._publish()
            return Outcome(True, tuple(sentences))

    def redo(self) -> Outcome:
        """Replay the last undone action (possible until a new action is taken)."""
        with self._lock:
            if not self._redo:
                return self._refused("nothing_to_redo")
            self._drafts = Drafts()
            return self._submit(self._redo[-1], redoing=True)

    # -- the one write path ----------------------------------------------------------------

    def _submit(self, action: Action, *, redoing: bool = False) -> Outcome:
        """Judge once and apply (the engine's push), write to the record (committed) — taking
        the action back exactly if the write fails — then light and publish."""
        game = self._playing
        verdict = self._judged(game, action, actions.action_to_dict(action), redoing=redoing)
        if not verdict.accepted:
            return self._refuse((Phrase(f"reason.{verdict.reason}", verdict.params),),
                                verdict.reason, action)
        self._reconciliation = ()
        self._drafts = Drafts()
        if isinstance(action, ScanHands | ScoreRound):
            self._round_scores.append((len(game.history), game.round_scores))
            self._save_summary()
        if self._lights is not None:
            self._lights.ferry_departed(departed_ferry(verdict.events))
        events = tuple(Phrase(f"event.{event.kind}", event.params) for event in verdict.events)
        said_now = (*said("redo"), *events) if redoing else events
        self._notice("info", said_now)
        self._publish()
        return Outcome(True, said_now)

    def _put_back(self, sentences: Sequence[Phrase]) -> None:
        """What the table puts back after an undo or a resume from the last good move."""
        self._reconciliation = tuple(english(sentence) for sentence in sentences)
        for sentence in sentences:
            self._notice("reconcile", (sentence,))

    def _save_summary(self) -> None:
        """Refresh the history list's cache (a failure only says so: the base's text)."""
        game = self._playing
        summary = record.summary(game.state(), [tears for _, tears in self._round_scores])
        self._store_summary(summary, finished=game.is_over)

    def _refused(self, key: str, reason: str | None = None, **params: Any) -> Outcome:
        """Refuse with one of the session's own sentences (``notice.<key>`` and its facts)."""
        return self._refuse(said(key, **params), reason)

    def _refuse(self, phrases: tuple[Phrase, ...], reason: str | None,
                action: Action | None = None) -> Outcome:
        self._notice("refused", phrases, reason)
        if self._lights is not None and isinstance(action, Play):
            self._lights.refused(action.ferry)
        self._publish()
        return Outcome(False, phrases, reason)

    # -- prompts and the view --------------------------------------------------------------

    @property
    def _playing(self) -> Game:
        """The open game (intents check there is one before they need it)."""
        if self._game is None:
            raise RuntimeError("no game is open")
        return self._game

    def _step(self) -> Step:
        """The kind of prompt awaited now (cheap: no prompt is built)."""
        return current_step(self._game, self._drafts)

    def _prompt(self) -> Prompt:
        """The one thing awaited now (companion.session.prompts decides it)."""
        game = self._playing
        return derive_prompt(game, self._drafts, self._header.players,
                             bgstats_url=self.bgstats_url() if game.is_over else "")

    def _build_view(self) -> SessionView:
        """The table's view, the ferry lights shown and their snapshot in it."""
        view = self._table_view()
        if self._lights is not None:
            self._lights.show(view.prompt, view.noah)
            view = replace(view, lights=self._lights.lights.snapshot())
        return view

    def _table_view(self) -> SessionView:
        if self._game is None:
            return SessionView.empty(self._unfinished_ids())
        prompt = self._prompt()
        setup = self._drafts.setup if in_setup(self._game) else None
        return SessionView(
            game_id=self._game_id, players=self._header.players, tokens=self._header.tokens,
            score_only=self._game.options.score_only, seq=self._seq, prompt=prompt,
            state=self._game.state(),
            destinations=prompt.choices if isinstance(prompt, MoveNoah) else (),
            notices=tuple(self._notices), reconciliation=self._reconciliation,
            can_undo=bool(self._game.history) or self._drafts.pending is not None
            or self._drafts.setup != SetupDraft(),
            can_redo=bool(self._redo),
            camera_ok=self._camera_ok, camera_message=self._camera_message,
            foreign_codes=self._foreign_codes,
            round_scores=tuple(tears for _, tears in self._round_scores),
            setup_noah=setup.noah if setup else None,
            setup_ferries=tuple(setup.ferries) if setup else (),
        )

    def bgstats_url(self) -> str:
        """The link that pushes this finished game to the BG Stats app ("" before the end;
        ``bgstats.qr_code(url)`` draws it as a QR code)."""
        from companion.session.bgstats import game_url

        with self._lock:  # close_game on another thread must not clear the game mid-read
            return game_url(self.store, self._game_id, self._game)


# -- helpers -------------------------------------------------------------------------------


#: The action of each step that names an opponent (the giraffe's look otherwise).
_TARGETED = {"croc_flee": actions.CrocFlee, "lion_swap": actions.LionSwap}


def _given(value: int | None) -> int:
    """A seat, ferry or game id as the step gives it: outside a turn there is none, and the
    engine refuses the action with its reason."""
    return cast(int, value)


if TYPE_CHECKING:  # mypy checks here that the session keeps the views' contract
    _CONTRACT: type[TableIntents] = Session
