"""The referee session: one game at a real table, headless.

Camera events, touches and ferry buttons come in as *intents* (methods); the session validates
each with the rules engine, writes it to the durable record (SQLite, committed) and only then
applies it, drives the ferry lights and publishes a fresh :class:`SessionView` to its listeners.
The Kivy app and ``noah-companion demo`` are both views over it.

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

Threads: every intent takes the session's lock, so camera callbacks (pipeline thread), touches
(UI thread) and buttons (gpiozero thread) are applied one at a time, in arrival order. Listeners
are called with the lock held, in order; they must return quickly (the UI schedules its redraw
on its own thread).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.errors import UserError
from companion.game.actions import (
    CrocFlee,
    GiraffeLook,
    LionSwap,
    Play,
    ScanHands,
    ScoreRound,
    StartRound,
    TakeBack,
)
from companion.game.actions import MoveNoah as MoveNoahAction
from companion.game.deck import HAND_SIZE, Deck, default_deck, format_ref, parse_ref
from companion.game.errors import InputError
from companion.game.options import Options
from companion.session import record
from companion.session.narrate import (
    card_name,
    copy_name,
    ferries_phrase,
    ferry_name,
    plural,
)
from companion.session.prompts import (
    ChooseCard,
    ChooseFrogWeight,
    ChooseNoahStart,
    ChooseSnailSide,
    ChooseStarter,
    ChooseTarget,
    EnterTears,
    GameOver,
    GiveCards,
    MoveNoah,
    PlayCard,
    Prompt,
    ScanHand,
    ScanSetupCard,
)
from companion.session.reconcile import english, explain_undo
from companion.session.store import GameStore
from companion.session.view import Notice, Phrase, SessionView
from companion.tags.payload import DEFAULT_DECK_ID, Foreign, TagOk, classify, is_ours

Listener = Callable[[SessionView], None]
MAX_NOTICES = 6
FERRIES = 5


@dataclass(frozen=True)
class Outcome:
    """What an intent did: ``accepted`` or not, with the sentence shown to the table and, for a
    refusal by the rules, the TABLE-LOG reason code.

    >>> Outcome(False, "It is Ben's turn.", "not_your_turn").accepted
    False
    """

    accepted: bool
    message: str = ""
    reason: str | None = None


@dataclass
class _SetupDraft:
    """A round's setup while it is being scanned (not yet an action of the record)."""

    noah: int | None = None
    ferries: list[str | None] = field(default_factory=lambda: [None] * FERRIES)
    starter: int | None = None

    @property
    def next_ferry(self) -> int | None:
        return next((k for k, ref in enumerate(self.ferries) if ref is None), None)


@dataclass
class _PendingPlay:
    """A card shown for a turn that still needs an answer (snail side, frog weight)."""

    card: str


class Session:
    """The referee for one table: engine + durable record + lights + prompts + undo/redo.

    ``store`` keeps every game; ``lights`` is a :class:`hardware.FerryLights` (or anything with
    its methods) or ``None``; ``deck`` is the box's composition and ``deck_id`` the id printed
    on its stickers. One game is open at a time: :meth:`new_game` or :meth:`resume`.
    """

    def __init__(
        self,
        store: GameStore,
        *,
        lights: Any = None,
        deck: Deck | None = None,
        deck_id: str = DEFAULT_DECK_ID,
    ) -> None:
        self.store = store
        self.lights = lights
        self.deck = deck if deck is not None else default_deck()
        self.deck_id = deck_id
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._game: Any = None
        self._game_id: int | None = None
        self._header: dict[str, Any] = {}
        self._seq = 0
        self._redo: list[Any] = []
        self._round_scores: list[tuple[int, tuple[int, ...]]] = []  # (history length, tears)
        self._reset_drafts()
        self._notices: list[Notice] = []
        self._reconciliation: tuple[str, ...] = ()
        self._camera_ok = True
        self._camera_message = ""
        self._foreign_codes = 0
        self._lights_shown: tuple = ()
        self._departing: int | None = None
        self._view = SessionView.empty(self._unfinished_ids())
        if lights is not None and hasattr(lights, "when_ferry_pressed"):
            lights.when_ferry_pressed = self.ferry_pressed

    @classmethod
    def from_config(cls, config: Any = None, *, lights: Any = None) -> Session:
        """The session the app runs: the record at ``[store] path``, the deck and deck id of
        ``[game]`` (``config`` defaults to the user's config file)."""
        from companion.config import load_config
        from companion.tags.tagged_deck import load_deck_file

        config = config if config is not None else load_config()
        store = GameStore(config.store.path)
        return cls(store, lights=lights, deck=load_deck_file(config.game.deck),
                   deck_id=config.game.deck_id)

    # -- publishing ------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(view)`` now and after every change; returns the unsubscriber."""
        with self._lock:
            self._listeners.append(listener)
            listener(self._view)
        return lambda: self._unsubscribe(listener)

    def _unsubscribe(self, listener: Listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    @property
    def view(self) -> SessionView:
        """The latest published snapshot."""
        return self._view

    @property
    def game(self) -> Any:
        """The rules engine's game (read it, never push to it directly)."""
        return self._game

    def _publish(self) -> None:
        view = self._build_view()
        if self.lights is not None:
            self._show_lights(view)
            view = replace(view, lights=self.lights.snapshot())
        self._view = view
        for listener in list(self._listeners):
            listener(self._view)

    def _notice(self, level: str, text: str, reason: str | None = None,
                phrases: tuple[Phrase, ...] = ()) -> None:
        """Add a line for the table: ``text`` in English, ``phrases`` the same as data."""
        self._notices = [*self._notices, Notice(level, text, reason, phrases)][-MAX_NOTICES:]

    # -- games -----------------------------------------------------------------------------

    def unfinished_games(self) -> list:
        """Games that can be resumed (newest first), as :class:`GameRecord` entries."""
        return self.store.unfinished()

    def _unfinished_ids(self) -> tuple[int, ...]:
        return tuple(entry.id for entry in self.store.unfinished())

    def new_game(
        self,
        players: Sequence[str],
        options: Options | Mapping[str, Any] | None = None,
        *,
        score_only: bool = False,
        tokens: Sequence[str] = (),
    ) -> SessionView:
        """Open a new game and write its header. At a table hands are hidden (R48), so
        ``options`` defaults to ``Options(hidden=True)``; ``score_only`` needs no camera.
        ``tokens`` names each player's score-token colour (kept with the game for a resume).
        Raises :class:`UserError` for bad players, tokens or options."""
        options = _options(options, score_only)
        players = _check_players(players)
        tokens = _check_tokens(tokens, len(players))
        with self._lock:
            try:
                game = record.new_game(players, options, self.deck)
            except InputError as error:
                raise UserError(error.message, "Change the players or the options.") from None
            header = record.header(players, options, self.deck_id, tokens)
            game_id = self.store.create_game(header, score_only=options.score_only)
            self._open(game_id, header, game, redo=[], seq=0)
            self._notice("info", f"New game for {', '.join(players)}.",
                         phrases=_said("new_game", players=list(players)))
            self._publish()
            return self._view

    def resume(self, game_id: int | None = None, *,
               to_last_good_move: bool = False) -> SessionView:
        """Reopen a stored game exactly where it was (the newest unfinished one by default):
        its record is replayed once through the engine, undo lines and redo stack included.

        A damaged game raises :class:`~companion.session.record.DamagedGame` and nothing
        changes, unless the table chose ``to_last_good_move``: the lines from the damaged one
        on are then set aside (kept in the record, shown by export) and the view says what to
        put back on the table."""
        with self._lock:
            if game_id is None:
                unfinished = self.store.unfinished()
                if not unfinished:
                    raise UserError("There is no unfinished game to resume.", "Start a new game.",
                                    key="error.nothing_to_resume")
                game_id = unfinished[0].id
            reading = record.read_game(self.store, game_id, self.deck)
            if reading.game is None or (reading.damaged and not to_last_good_move):
                raise record.DamagedGame(reading)
            seq = reading.seqs[reading.keep - 1] if reading.keep else 0
            if reading.damaged:
                self.store.set_aside(game_id, seq + 1, record.describe(reading.damage))
            self._open(game_id, reading.entry.header, reading.game, redo=list(reading.redo),
                       seq=seq)
            self._round_scores = list(reading.round_scores)
            if reading.damaged or reading.game.is_over:  # the cache may say otherwise
                self._save_summary()
            self._notice("info", f"Game {game_id} resumed where it stopped.",
                         phrases=_said("resumed", game=game_id))
            if reading.damaged:
                self._resumed_damaged(reading)
            self._publish()
            return self._view

    def _resumed_damaged(self, reading: record.GameReading) -> None:
        """Say which lines were set aside and what the table puts back (as after an undo)."""
        dropped = len(reading.lines) - reading.keep
        self._notice("info", f"{plural(dropped, 'line')} set aside from line "
                     f"{reading.damage.line} on; the game goes on from the last good move.",
                     phrases=_said("set_aside", count=dropped, line=reading.damage.line))
        self._reconciliation = tuple(record.english(p) for p in reading.put_back)
        for text, sentence in zip(self._reconciliation, reading.put_back, strict=True):
            self._notice("reconcile", text, phrases=(sentence,))

    def abandon_game(self, game_id: int) -> None:
        """Give a stored game up (the table confirmed): kept in the history, lines untouched,
        no longer offered for resume."""
        with self._lock:
            self.store.abandon(game_id, "abandoned by the table")
            if game_id == self._game_id:
                self._open(None, {}, None, redo=[], seq=0)
            self._publish()

    def delete_game(self, game_id: int) -> None:
        """Delete a stored game and all its lines for good (the table confirmed)."""
        with self._lock:
            self.store.delete_game(game_id)
            if game_id == self._game_id:
                self._open(None, {}, None, redo=[], seq=0)
            self._publish()

    def close_game(self) -> None:
        """Leave the open game; it stays in the record and can be resumed."""
        with self._lock:
            self._open(None, {}, None, redo=[], seq=0)
            self._publish()

    def _open(self, game_id: int | None, header: dict, game: Any, *, redo: list,
              seq: int) -> None:
        self._game, self._game_id, self._header = game, game_id, header
        self._redo, self._seq = redo, seq
        self._round_scores = []
        self._reset_drafts()
        self._notices, self._reconciliation = [], ()

    def _reset_drafts(self) -> None:
        self._setup = _SetupDraft()
        self._pending: _PendingPlay | None = None
        self._candidates: tuple[str, ...] = ()
        self._hands: list[list[str]] = []
        self._giraffe_looked = False

    # -- the camera ------------------------------------------------------------------------

    def is_ours(self, text: str) -> bool:
        """The predicate the vision pipeline takes: true for any Noah sticker text."""
        return is_ours(text)

    def on_vision_event(self, event: Any) -> None:
        """Callback for the vision pipeline (any thread): card shown, foreign code, camera
        status. Errors are published as notices, never raised into the pipeline's thread."""
        kind = type(event).__name__
        try:
            if kind == "CardShown":
                self.tag_seen(event.text, event.in_view)
            elif kind == "ForeignCode":
                self.foreign_code(event.text)
            elif kind == "CameraStatus":
                self.camera_status(event.ok, event.message)
        except UserError as error:
            with self._lock:
                self._notice("problem", str(error), phrases=_said("vision_error"))
                self._publish()

    def camera_status(self, ok: bool, message: str = "") -> None:
        """The camera came back or was lost; manual card entry stays possible either way."""
        with self._lock:
            was_ok, self._camera_ok, self._camera_message = self._camera_ok, ok, message
            if not ok:
                self._notice("problem", f"{message} You can still choose cards by touch.".strip(),
                             phrases=_said("camera_lost"))
            elif not was_ok:
                self._notice("info", message or "The camera is back.",
                             phrases=_said("camera_back"))
            self._publish()

    def foreign_code(self, text: str) -> None:
        """A QR code that is not a Noah sticker: counted and ignored (never an action)."""
        with self._lock:
            self._count_foreign()
            self._publish()

    def _count_foreign(self) -> None:
        self._foreign_codes += 1
        self._notice("info", "A QR code that is not a Noah card was seen and ignored.",
                     phrases=_said("foreign_code"))

    def tag_seen(self, text: str, in_view: Sequence[str] = ()) -> Outcome:
        """A sticker text read by the camera. ``in_view`` lists every sticker in view: with two
        cards or more on show, the session asks which one is meant (:class:`ChooseCard`)."""
        with self._lock:
            tag = classify(text, self.deck, self.deck_id)
            if isinstance(tag, Foreign):
                self._count_foreign()
                self._publish()
                return Outcome(False, "Not a Noah card: ignored.")
            if not isinstance(tag, TagOk):
                return self._refuse(tag.message, None, phrases=_said(f"tag_{tag.reason}"))
            others = [
                t.card.id
                for t in (classify(other, self.deck, self.deck_id) for other in in_view)
                if isinstance(t, TagOk)
            ]
            if len(set(others)) > 1 and self._needs_card_choice():
                self._candidates = tuple(dict.fromkeys(others))
                self._notice("info", "Several cards are in view: choose the one you mean.",
                             phrases=_said("several_cards"))
                self._publish()
                return Outcome(False, "Several cards are in view.")
            return self._card(tag.card.id)

    def choose_card(self, ref: str) -> Outcome:
        """A card chosen by touch (or among :class:`ChooseCard` candidates): same as showing it
        to the camera. ``ref`` is a card id like ``cat:F#2``."""
        with self._lock:
            if self.deck.get(ref) is None:
                return self._refuse(f"There is no {copy_name(ref)} in this deck: check the "
                                    "card.", "unknown_card",
                                    phrases=_said("no_such_card", card=ref))
            self._candidates = ()
            return self._card(ref)

    def _needs_card_choice(self) -> bool:
        return self._step() in ("play_card", "scan_setup_card", "choose_card")

    def _card(self, ref: str) -> Outcome:
        """Route a card to whatever the current step expects. A new card replaces one still
        waiting for its snail side or frog weight."""
        self._candidates, self._pending = (), None
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
            return self._refuse("No game is open: start or resume one first.", None,
                                phrases=_said("no_game"))
        if step == "enter_tears":
            return self._refuse("This game keeps scores only: type the tears instead.", None,
                                phrases=_said("score_only_card"))
        return self._refuse(f"No card is expected now. {self._prompt().text}", None,
                            phrases=_said("no_card_expected"))

    # -- round setup -----------------------------------------------------------------------

    def choose_noah_start(self, ferry: int) -> Outcome:
        """Round setup: the table puts Noah on ``ferry`` (0-4)."""
        with self._lock:
            if self._step() != "choose_noah_start":
                return self._refuse("Noah's starting ferry is already chosen.", None,
                                    phrases=_said("noah_start_chosen"))
            if ferry not in range(FERRIES):
                return self._refuse("Choose a ferry from 1 to 5.", None,
                                    phrases=_said("ferry_range"))
            self._setup.noah = ferry
            self._notice("info", f"Noah starts on {ferry_name(ferry)}.",
                         phrases=_said("noah_start", ferry=ferry + 1))
            self._publish()
            return Outcome(True, f"Noah starts on {ferry_name(ferry)}.")

    def _setup_card(self, ref: str) -> Outcome:
        for k, placed in enumerate(self._setup.ferries):
            if placed is not None and _same_copy(placed, ref):
                name = card_name(placed).capitalize()
                return self._refuse(f"{name} is already on {ferry_name(k)}.", None,
                                    phrases=_said("already_on_ferry", card=placed, ferry=k + 1))
        k = self._setup.next_ferry
        if parse_ref(ref).species == "snail" and parse_ref(ref).gender is None:
            self._pending = _PendingPlay(ref)
            self._publish()
            return Outcome(True, "Which side of the snail is up?")
        self._setup.ferries[k] = ref
        self._notice("info", f"{card_name(ref).capitalize()} starts on {ferry_name(k)}.",
                     phrases=_said("setup_card", card=ref, ferry=k + 1))
        return self._maybe_start_round()

    def remove_setup_card(self, ref: str) -> Outcome:
        """Round setup: take a wrongly shown starting animal off its ferry; that ferry's
        animal is asked for again."""
        with self._lock:
            for k, placed in enumerate(self._setup.ferries if self._in_setup() else ()):
                if placed is not None and _same_copy(placed, ref):
                    self._setup.ferries[k] = None
                    self._notice("info", f"{card_name(placed).capitalize()} is taken off "
                                 f"{ferry_name(k)}: show its starting animal again.",
                                 phrases=_said("setup_card_removed", card=placed, ferry=k + 1))
                    self._publish()
                    return Outcome(True)
            return self._refuse(f"{card_name(ref).capitalize()} is not a starting animal of "
                                "this round.", None, phrases=_said("not_a_setup_card", card=ref))

    def choose_starter(self, seat: int) -> Outcome:
        """Round 1 setup: who plays first (the shortest player, R10)."""
        with self._lock:
            if self._step() != "choose_starter":
                return self._refuse("The first player is not asked for now.", None,
                                    phrases=_said("starter_not_asked"))
            if seat not in range(len(self._players)):
                return self._refuse("Choose one of the players.", None,
                                    phrases=_said("choose_a_player"))
            self._setup.starter = seat
            return self._maybe_start_round()

    def _maybe_start_round(self) -> Outcome:
        draft = self._setup
        first_round = self._game.round == 0
        if draft.next_ferry is not None or (first_round and draft.starter is None):
            self._publish()
            return Outcome(True)
        action = StartRound(
            noah=draft.noah, ferries=tuple(draft.ferries),
            hand_counts=tuple([HAND_SIZE] * len(self._players)),
            starter=draft.starter if first_round else None,
        )
        outcome = self._submit(action)
        if not outcome.accepted:
            self._setup = _SetupDraft(noah=draft.noah)
            self._notice("info", "Scan the five starting animals again.",
                         phrases=_said("rescan_setup"))
            self._publish()
        return outcome

    # -- turns -----------------------------------------------------------------------------

    def _start_play(self, ref: str) -> Outcome:
        species = parse_ref(ref).species
        self._pending = _PendingPlay(ref)
        if species == "snail":
            self._publish()
            return Outcome(True, "Which side of the snail is up?")
        if species == "frog" and len(self._frog_choices(ref)) > 1:
            self._publish()
            return Outcome(True, "Does the frog declare a weight?")
        self._pending = None
        return self._submit(self._play_action(ref))

    def _play_action(self, ref: str, side: str | None = None, frog_weight: int | None = None):
        state = self._game.state()
        return Play(
            player=state["current_player"], card=ref, ferry=state["noah"],
            as_gender=side, frog_weight=frog_weight,
        )

    def _frog_choices(self, ref: str) -> tuple[int, ...]:
        declared = [
            w for w in range(2, 6)
            if self._game.check(self._play_action(ref, frog_weight=w)).accepted
        ]
        return (1, *declared)

    def _snail_sides(self, ref: str) -> tuple[str, ...]:
        if self._in_setup():
            return ("M", "F")
        return tuple(
            side for side in ("M", "F")
            if self._game.check(self._play_action(ref, side=side)).accepted
        ) or ("M", "F")

    def choose_snail_side(self, side: str) -> Outcome:
        """The side of the snail turned up, ``"M"`` or ``"F"`` (R14)."""
        with self._lock:
            pending = self._pending
            if pending is None or parse_ref(pending.card).species != "snail":
                return self._refuse("No snail is waiting for its side.", None,
                                    phrases=_said("no_snail_waiting"))
            if side not in ("M", "F"):
                return self._refuse("A snail is either ♂ or ♀ side up.", None,
                                    phrases=_said("snail_side"))
            self._pending = None
            if self._in_setup():
                return self._setup_card(_with_side(pending.card, side))
            return self._submit(self._play_action(pending.card, side=side))

    def choose_frog_weight(self, weight: int) -> Outcome:
        """The weight the frog declares (R43): 1 means none; 2-5 only to make the ferry depart."""
        with self._lock:
            pending = self._pending
            if pending is None or parse_ref(pending.card).species != "frog":
                return self._refuse("No frog is waiting for its weight.", None,
                                    phrases=_said("no_frog_waiting"))
            self._pending = None
            return self._submit(
                self._play_action(pending.card, frog_weight=None if weight == 1 else weight)
            )

    def take_back(self) -> Outcome:
        """The current player cannot play: they take back every animal of Noah's ferry (R25)."""
        with self._lock:
            if self._game is None:
                return self._refuse("No game is open.", None, phrases=_said("no_game"))
            self._pending = None
            state = self._game.state()
            return self._submit(
                TakeBack(player=state["current_player"], ferry=state["noah"])
            )

    def choose_target(self, seat: int) -> Outcome:
        """The opponent chosen for the crocodile's fleeing animal, the lion's swap or the
        giraffe's look, whichever the current step needs."""
        with self._lock:
            if self._game is None:
                return self._refuse("No game is open.", None, phrases=_said("no_game"))
            state = self._game.state()
            player, phase = state["current_player"], state["phase"]
            if phase == "croc_flee":
                return self._submit(CrocFlee(player=player, target=seat))
            if phase == "lion_swap":
                return self._submit(LionSwap(player=player, target=seat))
            return self._submit(GiraffeLook(player=player, target=seat))

    def skip(self) -> Outcome:
        """Decline an optional step (the giraffe's look): Noah's move comes next."""
        with self._lock:
            self._giraffe_looked = True
            self._publish()
            return Outcome(True)

    def move_noah(self, ferry: int) -> Outcome:
        """The current player moves Noah to ``ferry`` (0-4)."""
        with self._lock:
            if self._game is None:
                return self._refuse("No game is open.", None, phrases=_said("no_game"))
            state = self._game.state()
            return self._submit(MoveNoahAction(player=state["current_player"], to=ferry))

    def ferry_pressed(self, ferry: int) -> Outcome:
        """A ferry button (0-4): chooses Noah's starting ferry or his destination."""
        with self._lock:
            step = self._step() if self._game is not None else "no_game"
            if step == "choose_noah_start":
                return self.choose_noah_start(ferry)
            if step == "move_noah":
                return self.move_noah(ferry)
            if self.lights is not None:
                self.lights.flash_illegal(ferry)
            return self._refuse(f"The ferry buttons choose where Noah goes; now: "
                                f"{self._prompt().text if self._game else 'start a game.'}", None,
                                phrases=_said("ferry_button"))

    def give_cards(self, gifts: Mapping[int, int]) -> Outcome:
        """The departing player's gifts (R20): ``{seat: number of cards}``, all in one go."""
        with self._lock:
            if self._game is None:
                return self._refuse("No game is open.", None, phrases=_said("no_game"))
            state = self._game.state()
            return self._submit(
                record.give(player=state["current_player"], counts=dict(gifts))
            )

    # -- round end -------------------------------------------------------------------------

    def _hand_card(self, ref: str) -> Outcome:
        counts = self._game.state()["hand_counts"]
        if not self._hands:
            self._hands = [[] for _ in counts]
        if any(ref in hand for hand in self._hands):
            return self._refuse(f"{card_name(ref).capitalize()} was already scanned.", None,
                                phrases=_said("already_scanned", card=ref))
        problem = self._not_in_a_hand(ref)
        if problem:
            return self._refuse(problem[0], "scan_mismatch", phrases=problem[1:])
        seat = self._scan_seat(counts)
        self._hands[seat].append(ref)
        self._notice("info", f"{self._players[seat]}: {card_name(ref)} scanned.",
                     phrases=_said("hand_scanned", name=self._players[seat], card=ref))
        if self._scan_seat(counts) is not None:
            self._publish()
            return Outcome(True)
        hands, self._hands = self._hands, []
        outcome = self._submit(ScanHands(tuple(tuple(hand) for hand in hands)))
        if not outcome.accepted:
            self._notice("info", "Scan every hand again.", phrases=_said("rescan_hands"))
            self._publish()
        return outcome

    def _not_in_a_hand(self, ref: str) -> tuple[str, Phrase] | None:
        """Why a scanned card cannot be in anyone's hand (not in this game, or on the table),
        in English and as a phrase."""
        name = card_name(ref).capitalize()
        if ref not in self._game.cards_in_play:
            return (f"{name} is not used in this game: put it back in the box.",
                    *_said("not_in_game", card=ref))
        state = self._game.state()
        for k, ferry in enumerate(state["ferries"]):
            if any(_same_copy(placed, ref) for placed in ferry or ()):
                return (f"{name} is on {ferry_name(k)}: it cannot be in a hand.",
                        *_said("on_ferry_not_hand", card=ref, ferry=k + 1))
        if any(_same_copy(gone, ref) for gone in state["departed_cards"]):
            return (f"{name} left on a ferry this round: it cannot be in a hand.",
                    *_said("departed_not_hand", card=ref))
        return None

    def _scan_seat(self, counts: Sequence[int]) -> int | None:
        """The first seat whose hand is not completely scanned yet (None when all are)."""
        scanned = self._hands or [[] for _ in counts]
        return next((seat for seat, count in enumerate(counts) if len(scanned[seat]) < count),
                    None)

    def remove_scanned(self, ref: str) -> Outcome:
        """Drop a card wrongly scanned into a hand during the round-end scan."""
        with self._lock:
            for hand in self._hands:
                if ref in hand:
                    hand.remove(ref)
                    self._publish()
                    return Outcome(True, f"{card_name(ref).capitalize()} removed from the scan.")
            return self._refuse(f"{card_name(ref).capitalize()} is not in this scan.", None,
                                phrases=_said("not_in_scan", card=ref))

    def enter_tears(self, tears: Sequence[int]) -> Outcome:
        """Score-only mode: this round's tears, one number per seat."""
        with self._lock:
            if self._game is None:
                return self._refuse("No game is open.", None, phrases=_said("no_game"))
            try:
                values = tuple(int(t) for t in tears)
            except (TypeError, ValueError):
                return self._refuse("Tears are whole numbers, one per player.", None,
                                    phrases=_said("tears_numbers"))
            return self._submit(ScoreRound(values))

    # -- cancel, undo, redo ----------------------------------------------------------------

    def cancel(self) -> Outcome:
        """Drop what is half-entered (a card waiting for its side or weight, a choice between
        cards, the current setup scan or hand scan) without touching the record."""
        with self._lock:
            if self._pending or self._candidates:
                self._pending, self._candidates = None, ()
            elif self._hands:
                self._hands = []
            elif self._in_setup() and self._setup != _SetupDraft():
                self._setup = _SetupDraft()
            else:
                return Outcome(False, "Nothing to cancel.")
            self._publish()
            return Outcome(True, "Cancelled.")

    def undo(self, count: int = 1) -> Outcome:
        """Take back the last ``count`` accepted actions (R55). Something half-entered is
        dropped first. The view's ``reconciliation`` then says what to put back physically."""
        with self._lock:
            if self._game is None:
                return self._refuse("No game is open.", None, phrases=_said("no_game"))
            placed = [ref for ref in self._setup.ferries if ref] if self._in_setup() else []
            if placed and not (self._pending or self._candidates):
                return self.remove_setup_card(placed[-1])  # the last starting animal shown
            if self.cancel().accepted:
                return Outcome(True, "Cancelled.")
            count = min(count, len(self._game.history))
            if count < 1:
                return self._refuse("There is nothing to undo.", None,
                                    phrases=_said("nothing_to_undo"))
            self._append({"type": "undo", "count": count})
            sentences: list[Phrase] = []
            for _ in range(count):
                after = self._game.state()
                action = self._game.pop()
                self._redo.append(action)
                sentences += explain_undo(
                    record.to_line(action), after, self._game.state(), self._players
                )
            self._round_scores = [
                entry for entry in self._round_scores if entry[0] <= len(self._game.history)
            ]
            self._reconciliation = tuple(english(sentence) for sentence in sentences)
            self._notice("info", f"Undo: {plural(count, 'action')} taken back.",
                         phrases=_said("undo", count=count))
            for text, sentence in zip(self._reconciliation, sentences, strict=True):
                self._notice("reconcile", text, phrases=(sentence,))
            self._publish()
            return Outcome(True, " ".join(self._reconciliation))

    def redo(self) -> Outcome:
        """Replay the last undone action (possible until a new action is taken)."""
        with self._lock:
            if not self._redo:
                return self._refuse("There is nothing to redo.", None,
                                    phrases=_said("nothing_to_redo"))
            self._reset_drafts()
            outcome = self._submit(self._redo[-1], redoing=True)
            return replace(outcome, message=f"Redo: {outcome.message}")

    # -- the one write path ----------------------------------------------------------------

    def _submit(self, action: Any, *, redoing: bool = False) -> Outcome:
        """Check with the engine, write to the record (committed), apply, light, publish."""
        verdict = self._game.check(action)
        if not verdict.accepted:
            return self._refuse(verdict.message, verdict.reason, action,
                                phrases=(Phrase(f"reason.{verdict.reason}", verdict.params),))
        line = record.to_line(action)
        before = self._game.state()
        self._append(line)
        applied = self._game.push(action)
        assert applied.accepted, "check() accepted what push() refused"
        if redoing:
            self._redo.pop()
        else:
            self._redo.clear()
        self._after_action(line, before)
        events = tuple(Phrase(f"event.{event.kind}", event.params) for event in applied.events)
        self._notice("info", f"Redo: {applied.message}" if redoing else applied.message,
                     phrases=(*_said("redo"), *events) if redoing else events)
        self._publish()
        return Outcome(True, applied.message)

    def _append(self, line: dict[str, Any]) -> None:
        """Write one line durably; on failure nothing is applied and the table is told."""
        try:
            self._seq = self.store.append(self._game_id, line)
        except UserError as error:
            self._notice("problem", str(error), phrases=_said("record_error"))
            self._publish()
            raise

    def _after_action(self, line: dict[str, Any], before: dict[str, Any]) -> None:
        self._reconciliation = ()
        self._reset_drafts()
        state = self._game.state()
        if record.kind_of_line(line) in ("scan_hands", "score_round"):
            tears = tuple(state.get("round_scores") or ())
            self._round_scores.append((len(self._game.history), tears))
            self._save_summary()
        self._departing = _departed_ferry(before, state)

    def _save_summary(self) -> None:
        """Refresh the history list's cache. The action itself is already saved and applied,
        so a failure here (a disk that just filled up) must not make it look failed: the table
        would enter it again and count it twice. The cache catches up at the next resume."""
        state = self._game.state()
        summary = record.summary(state, [tears for _, tears in self._round_scores])
        try:
            self.store.set_summary(self._game_id, summary,
                                   finished=bool(state.get("game_over")))
        except UserError:
            self._notice("problem", "Saved; only the list of games could not be updated. Check "
                         "the disk: it may be full.", phrases=_said("summary_not_saved"))

    def _refuse(self, message: str, reason: str | None, action: Any = None, *,
                phrases: tuple[Phrase, ...] = ()) -> Outcome:
        self._notice("refused", message, reason, phrases)
        if self.lights is not None and action is not None and record.kind(action) == "play":
            self.lights.flash_illegal(action.ferry)
        self._publish()
        return Outcome(False, message, reason)

    # -- prompts and the view --------------------------------------------------------------

    @property
    def _players(self) -> tuple[str, ...]:
        return tuple(self._header.get("players", ()))

    @property
    def _score_only(self) -> bool:
        return bool(self._header.get("options", {}).get("score_only"))

    def _step(self) -> str:
        """The kind of prompt awaited now (cheap: no prompt is built)."""
        if self._game is None:
            return "no_game"
        phase = self._game.phase
        if phase == "game_over":
            return "game_over"
        if self._candidates:
            return "choose_card"
        if self._pending is not None:
            species = parse_ref(self._pending.card).species
            return "choose_snail_side" if species == "snail" else "choose_frog_weight"
        if self._score_only:
            return "enter_tears"
        if phase == "round_over":
            draft = self._setup
            if draft.noah is None:
                return "choose_noah_start"
            if draft.next_ferry is not None:
                return "scan_setup_card"
            return "choose_starter"
        return _PHASE_STEPS[phase]

    def _in_setup(self) -> bool:
        return self._game is not None and self._game.phase == "round_over"

    def _prompt(self) -> Prompt:
        """The one thing awaited now, derived from the engine's state and the drafts."""
        step = self._step()
        state = self._game.state()
        players = self._players
        seat = state.get("current_player")
        who = players[seat] if seat is not None else ""
        if step == "game_over":
            return GameOver(
                player=None, text=_winners_sentence(state, players),
                winners=tuple(state["winners"]), bgstats_url=self.bgstats_url(),
            )
        if step == "choose_card":
            return ChooseCard(player=None, text="Several cards are in view: which one is meant?",
                              candidates=self._candidates)
        if step == "choose_snail_side":
            return ChooseSnailSide(
                player=None if self._in_setup() else seat,
                text=f"{who + ': w' if who and not self._in_setup() else 'W'}hich side of the "
                     "snail is up, ♂ or ♀?", card=self._pending.card,
                ferry=self._pending_ferry(state), legal=self._snail_sides(self._pending.card),
            )
        if step == "choose_frog_weight":
            return ChooseFrogWeight(
                player=seat, text=f"{who}: does the frog declare a weight? (1 = no declaration)",
                card=self._pending.card, ferry=state["noah"],
                choices=self._frog_choices(self._pending.card),
            )
        if step == "enter_tears":
            number = state["round"] + 1
            return EnterTears(player=None, text=f"Type each player's tears for round {number}.",
                              round=number)
        if step == "choose_noah_start":
            return ChooseNoahStart(
                player=None, text=f"Round {state['round'] + 1}: put Noah on a ferry and press its "
                                  "button (or touch it).")
        if step == "scan_setup_card":
            k = self._setup.next_ferry
            return ScanSetupCard(
                player=None, text=f"Show the starting animal of {ferry_name(k)} to the camera.",
                ferry=k, scanned=tuple(self._setup.ferries))
        if step == "choose_starter":
            return ChooseStarter(player=None, text="Who plays first? (the shortest player)",
                                 choices=tuple(range(len(players))))
        if step == "play_card":
            return PlayCard(
                player=seat, text=f"{who}: load an animal on {ferry_name(state['noah'])}.",
                ferry=state["noah"], can_take_back=bool(state["ferries"][state["noah"]]))
        if step == "choose_target":
            return self._target_prompt(state, seat, who)
        if step == "move_noah":
            choices = tuple(state["noah_choices"])
            looks = ()
            if state["giraffe_look"] and not self._giraffe_looked:
                looks = _opponents(seat, len(players))
            text = f"{who}: move Noah to {ferries_phrase(choices)}."
            if looks:
                text += " (The giraffe may first look at one opponent's hand.)"
            return MoveNoah(player=seat, text=text, choices=choices, giraffe_targets=looks)
        if step == "give_cards":
            owed = state["gifts_owed"]
            return GiveCards(player=seat, text=f"{who}: give {plural(owed, 'card')} to opponents.",
                             count=owed, opponents=_opponents(seat, len(players)))
        return self._scan_prompt(state)

    def _target_prompt(self, state: dict, seat: int, who: str) -> ChooseTarget:
        phase = state["phase"]
        if phase == "croc_flee":
            what = f"who takes the {card_name(state['fleeing'])[4:]} fleeing from the crocodile"
        else:
            what = "the opponent the lion swaps a card with"
        return ChooseTarget(player=seat, text=f"{who}: choose {what}.", action=phase,
                            choices=_opponents(seat, len(self._players)))

    def _pending_ferry(self, state: dict) -> int:
        if self._in_setup():
            return self._setup.next_ferry or 0
        return state["noah"]

    def _scan_prompt(self, state: dict) -> ScanHand:
        counts = state["hand_counts"]
        seat = self._scan_seat(counts)
        scanned = tuple(self._hands[seat]) if seat < len(self._hands) else ()
        return ScanHand(
            player=seat,
            text=f"{self._players[seat]}: show every card left in your hand "
                 f"({len(scanned)} of {counts[seat]} scanned).",
            expected=counts[seat], scanned=scanned,
        )

    def _build_view(self) -> SessionView:
        if self._game is None:
            return SessionView.empty(self._unfinished_ids())
        prompt = self._prompt()
        state = self._game.state()
        return SessionView(
            game_id=self._game_id,
            players=self._players,
            score_only=self._score_only,
            seq=self._seq,
            prompt=prompt,
            state=state,
            destinations=prompt.choices if isinstance(prompt, MoveNoah) else (),
            notices=tuple(self._notices),
            reconciliation=self._reconciliation,
            can_undo=bool(self._game.history) or self._pending is not None
            or self._setup != _SetupDraft(),
            can_redo=bool(self._redo),
            camera_ok=self._camera_ok,
            camera_message=self._camera_message,
            foreign_codes=self._foreign_codes,
            round_scores=tuple(tears for _, tears in self._round_scores),
            tokens=_stored_tokens(self._header),
            **(self._setup_so_far() if self._in_setup() else {}),
        )

    def _setup_so_far(self) -> dict[str, Any]:
        return {"setup_noah": self._setup.noah, "setup_ferries": tuple(self._setup.ferries)}

    def _show_lights(self, view: SessionView) -> None:
        """Tell the ferry lights what the current step needs (rule-free calls), only when that
        changes, so a running pattern is not restarted by every notice; a departure plays over
        it and then gives way to it."""
        if self.lights is None:
            return
        command = _lights_command(view)
        if command != self._lights_shown:
            self._lights_shown = command
            getattr(self.lights, command[0])(*command[1:])
        if self._departing is not None:
            self.lights.departure(self._departing)
            self._departing = None

    # -- BG Stats --------------------------------------------------------------------------

    def bgstats_url(self) -> str:
        """The link that pushes this finished game to the BG Stats app ("" before the end)."""
        from companion.session.bgstats import play_url

        with self._lock:  # close_game on another thread must not clear the game mid-read
            if self._game is None or not self._game.state().get("game_over"):
                return ""
            return play_url(self._game_id, self._players, self._game.state(), self.store)

    def bgstats_qr(self):
        """A :mod:`segno` QR code of :meth:`bgstats_url` (``.save("x.png")``, ``.terminal()``),
        or None before the end of the game."""
        from companion.session.bgstats import qr_code

        url = self.bgstats_url()
        return qr_code(url) if url else None


# -- helpers -------------------------------------------------------------------------------


#: The session's own sentences (``notice.<name>`` in the catalogs); ``tag_<reason>`` words a
#: sticker that cannot be used (companion.tags.payload.TagError reasons).
NOTICE_KEYS = frozenset({
    "already_on_ferry", "already_scanned", "camera_back", "camera_lost", "choose_a_player",
    "departed_not_hand", "ferry_button", "ferry_range", "foreign_code", "hand_scanned",
    "new_game", "no_card_expected", "no_frog_waiting", "no_game", "no_snail_waiting",
    "no_such_card", "noah_start", "noah_start_chosen", "not_a_setup_card", "not_in_game",
    "not_in_scan", "setup_card_removed",
    "nothing_to_redo", "nothing_to_undo", "on_ferry_not_hand", "record_error", "redo",
    "rescan_hands", "rescan_setup", "resumed", "score_only_card", "setup_card", "several_cards",
    "snail_side", "starter_not_asked", "tears_numbers", "undo", "vision_error",
    "set_aside", "summary_not_saved",
    "tag_too_long", "tag_version", "tag_malformed", "tag_other_deck", "tag_unknown_card",
})


def _said(key: str, /, **params: Any) -> tuple[Phrase]:
    """One of the session's own sentences as data (``notice.<key>`` in the catalogs)."""
    assert key in NOTICE_KEYS, key
    return (Phrase(f"notice.{key}", params),)


def _options(options: Options | Mapping[str, Any] | None, score_only: bool) -> Options:
    """The game's options: a referee at a table never sees the hands (R48), so ``hidden`` is
    always on; ``score_only`` from the argument or the options.

    >>> _options({"frog": True}, score_only=False)
    Options(hidden=True, frog=True, crocodile=False, roommates=False, pair_mf=False, \
end_rule='rounds', score_only=False)
    """
    given = options.to_dict() if isinstance(options, Options) else dict(options or {})
    try:
        return Options.from_dict({**given, "hidden": True,
                                  "score_only": score_only or bool(given.get("score_only"))})
    except InputError as error:
        raise UserError(error.message, "Choose the game's options again.") from None


def _check_tokens(tokens: Sequence[str], players: int) -> tuple[str, ...]:
    tokens = tuple(tokens)
    if tokens and (len(tokens) != players or not all(
            isinstance(t, str) and 0 < len(t) <= 20 for t in tokens)):
        raise UserError(f"Give one token colour per player ({players}), each a short name.",
                        "Choose the players' colours again.", key="error.tokens")
    return tokens


def _stored_tokens(header: Mapping[str, Any]) -> tuple[str, ...]:
    """The header's token colours; a damaged entry is ignored (default colours are shown)."""
    tokens = header.get("tokens")
    players = header.get("players", ())
    if isinstance(tokens, list) and len(tokens) == len(players) \
            and all(isinstance(t, str) for t in tokens):
        return tuple(tokens)
    return ()


def _check_players(players: Sequence[str]) -> tuple[str, ...]:
    names = tuple(name.strip() for name in players)
    if not 2 <= len(names) <= 5:
        raise UserError(f"Noah is played by 2 to 5 players, not {len(names)}.",
                        "Enter between two and five names.", key="error.player_count",
                        count=len(names))
    if any(not name for name in names):
        raise UserError("A player has no name.", "Give every player a name.",
                        key="error.player_unnamed")
    if len(set(names)) != len(names):
        raise UserError("Two players have the same name.", "Add an initial to tell them apart.",
                        key="error.player_twice")
    return names


def _opponents(seat: int, count: int) -> tuple[int, ...]:
    return tuple(s for s in range(count) if s != seat)


def _same_copy(a: str, b: str) -> bool:
    """Whether two references name the same physical card (a snail's side aside).

    >>> _same_copy("snail:M#3", "snail#3"), _same_copy("cat:F#1", "cat:F#2")
    (True, False)
    """
    ra, rb = parse_ref(a), parse_ref(b)
    if ra.species == "snail":
        return rb.species == "snail" and ra.copy == rb.copy
    return ra == rb


def _with_side(ref: str, side: str) -> str:
    species, _, copy = parse_ref(ref)
    return format_ref(species, side, copy)


def _winners_sentence(state: dict, players: Sequence[str]) -> str:
    winners = [players[s] for s in state.get("winners") or ()]
    scores = ", ".join(f"{name} {score}" for name, score in zip(players, state["scores"],
                                                                   strict=True))
    if len(winners) == 1:
        return f"Game over: {winners[0]} wins with the fewest tears ({scores})."
    return f"Game over: {' and '.join(winners)} share the victory ({scores})."


def _lights_command(view: SessionView) -> tuple:
    """The lights call for a view: ``(method name, *arguments)``."""
    prompt, noah = view.prompt, view.noah
    if isinstance(prompt, MoveNoah):
        return ("show_destinations", noah, prompt.choices)
    if isinstance(prompt, ScanSetupCard):
        return ("prompt_scan", prompt.ferry)
    if isinstance(prompt, GameOver):
        return ("game_end",)
    if isinstance(prompt, ScanHand | EnterTears):
        return ("round_end",)
    if isinstance(prompt, ChooseNoahStart | ChooseStarter) or noah is None:
        return ("off",)
    return ("show_noah", noah)


def _departed_ferry(before: Mapping[str, Any], after: Mapping[str, Any]) -> int | None:
    """The position whose ferry left during the last action, if one did."""
    if (after.get("departed") or 0) <= (before.get("departed") or 0):
        return None
    for k, (then, now) in enumerate(zip(before["ferries"], after["ferries"], strict=True)):
        if then and not now:
            return k
    return None


_PHASE_STEPS = {
    "play": "play_card", "croc_flee": "choose_target", "lion_swap": "choose_target",
    "move_noah": "move_noah", "give": "give_cards", "scan": "scan_hand",
}
