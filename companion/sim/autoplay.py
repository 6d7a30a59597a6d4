"""A simulated table: seeded players with known hands who act through a session's intents.

The players' real hands live in a *truth* game (known hands), as the cards would on a real table;
the session under test sees what a referee sees (hidden hands): cards shown to the camera, touches
and ferry buttons. Each player's move is drawn at random among the truth game's legal actions and
turned into the intents a person would make: show the card, say the snail's side, press the ferry
button, choose a target, give cards; at round end every hand is shown to the camera. After each
round the session's scores must equal the truth's. Used by ``noah-companion demo`` (cards go
through the camera pipeline) and by the crash drill (cards chosen by touch).

>>> import tempfile, pathlib
>>> from companion.session import GameStore, Session
>>> session = Session(GameStore(pathlib.Path(tempfile.mkdtemp()) / "g.sqlite"))
>>> table = SimulatedTable(session, ["Ana", "Ben"], seed=4)
>>> view = table.play()
>>> view.game_over, len(view.round_scores)
(True, 3)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.game import IN_ROUND_PHASES, Game, Options
from companion.game.actions import (
    CrocFlee,
    GiraffeLook,
    Give,
    LionSwap,
    MoveNoah,
    Play,
    StartRound,
    TakeBack,
)
from companion.game.deck import FERRY_CARDS, HAND_SIZE, format_ref, parse_ref
from companion.game.sizes import FERRY_COUNT
from companion.session.intents import Outcome
from companion.session.session import Session
from companion.session.table_observer import physical as _physical
from companion.session.view import SessionView

CARDS_PER_SHOW = 4  # cards held up to the camera at once during the hand scan
HOLD_SECONDS = 2.0  # the camera mishap: a card left in view that long is still one play


class Camera(Protocol):
    """What the table needs from a camera: show cards, or any QR text, until taken."""

    def show(self, refs: Sequence[str], hold: float = 0.0) -> None: ...

    def show_foreign(self, text: str) -> None: ...


class Buttons(Protocol):
    """What the table needs from the ferry buttons: press one until the session has it."""

    def press(self, ferry: int) -> None: ...


@dataclass(frozen=True)
class Step:
    """One intent the table made, with the record's length before and after it."""

    intent: str
    args: tuple
    seq_before: int
    seq_after: int
    accepted: bool


class DriftError(RuntimeError):
    """The session and the table disagree: a bug, never a player's mistake."""


class SimulatedTable:
    """Players ``players`` at one table, seeded by ``seed``, playing a whole game.

    ``camera`` puts cards (or any QR text) in front of the session's camera and returns once the
    session has taken them (the demo renders them and runs the vision pipeline); without one,
    cards are chosen by touch (:meth:`Session.choose_card`). ``buttons`` presses the ferry
    buttons (the demo's are gpiozero mock pins); without them the session is called directly.
    ``mishaps`` adds round 1's usual accidents: a card held in view, the same card shown again, a
    foreign QR code, an undo and a redo. ``on_step`` sees every step.
    """

    def __init__(
        self,
        session: Session,
        players: Sequence[str],
        *,
        seed: int = 0,
        options: Options | None = None,
        camera: Camera | None = None,
        buttons: Buttons | None = None,
        mishaps: bool = False,
        on_step: Callable[[Step], None] | None = None,
    ) -> None:
        self.session = session
        self.players = tuple(players)
        self.options = options or Options(hidden=True)
        self.rng = random.Random(seed)
        self.camera, self.buttons = camera, buttons
        self._mishaps = ["held", "twice", "foreign", "undo"] if mishaps else []
        self._last_plain_card: str | None = None
        self.on_step = on_step
        self.steps: list[Step] = []
        truth_options = Options.from_dict({**self.options.to_dict(), "hidden": False})
        self.truth = Game(self.players, truth_options, deck=session.deck)

    # -- the game --------------------------------------------------------------------------

    def play(self) -> SessionView:
        """Open a new game in the session and play it to the end; returns the last view."""
        self.do(self.session.new_game, self.players, self.options)
        while not self.truth.is_over:
            self.play_round()
        return self.session.view

    def play_round(self, *, scan_hands: bool = True) -> None:
        """Deal, set the round up through the session, play every turn, scan the hands
        (unless ``scan_hands`` is false: the session then waits for the scan)."""
        deal = self._deal()
        self.press(deal.noah)
        for ref in deal.ferries:
            self._show_card(_physical(ref), side=parse_ref(ref).gender)
        if deal.starter is not None:
            self.do(self.session.choose_starter, deal.starter)
        self._agree(self.truth.push(deal), deal)
        while self.truth.phase in IN_ROUND_PHASES:
            action = self.rng.choice(self.truth.legal_actions())
            self._act(action)
            self._agree(self.truth.push(action), action)
            if self._mishaps and self.truth.phase == "play":
                self._mishap(self._mishaps[0])
        if scan_hands:
            self._scan_hands()

    def _deal(self) -> StartRound:
        """A shuffle of the tagged copies in play: 5 on the ferries, 8 to each player."""
        cards = [card.id for card in self.truth.cards_in_play]
        self.rng.shuffle(cards)
        ferries = tuple(
            _with_side(ref, self.rng.choice("MF")) if ref.startswith("snail") else ref
            for ref in cards[:FERRY_CARDS]
        )
        hands = tuple(
            tuple(cards[FERRY_CARDS + seat * HAND_SIZE: FERRY_CARDS + (seat + 1) * HAND_SIZE])
            for seat in range(len(self.players))
        )
        starter = self.rng.randrange(len(self.players)) if self.truth.round == 0 else None
        return StartRound(noah=self.rng.randrange(FERRY_COUNT), ferries=ferries, hands=hands,
                          starter=starter)

    def _act(self, action: Any) -> None:
        """The intents a person makes for one action of the truth game."""
        if isinstance(action, Play):
            species = parse_ref(action.card).species
            frog = action.frog_weight or 1 if species == "frog" else None
            held = bool(self._mishaps) and self._mishaps[0] == "held"
            self._show_card(action.card, side=action.as_gender, frog_weight=frog, hold=held)
            plain = species not in ("snail", "frog")
            self._last_plain_card = action.card if plain else None
            if held:
                self._mishaps.pop(0)
        elif isinstance(action, TakeBack):
            self.do(self.session.take_back)
        elif isinstance(action, MoveNoah):
            self.press(action.to)
        elif isinstance(action, CrocFlee | LionSwap | GiraffeLook):
            self.do(self.session.choose_target, action.target)
        elif isinstance(action, Give):
            counts: dict[int, int] = {}
            for gift in action.gifts:
                counts[gift.to] = counts.get(gift.to, 0) + 1
            self.do(self.session.give_cards, counts)
        else:
            raise DriftError(f"the table cannot make {action!r}")

    def _show_card(self, ref: str, *, side: str | None = None,
                   frog_weight: int | None = None, hold: bool = False) -> None:
        self.show([ref], hold=hold)
        step = self.session.view.prompt.kind
        if step == "choose_snail_side":
            self.do(self.session.choose_snail_side, side)
        elif step == "choose_frog_weight":
            self.do(self.session.choose_frog_weight, frog_weight or 1)

    def _scan_hands(self) -> None:
        hands = self.truth.state()["hands"]
        for hand in hands:
            for start in range(0, len(hand), CARDS_PER_SHOW):
                self.show(hand[start:start + CARDS_PER_SHOW])
        truth, seen = self.truth.state(), self.session.view.state
        if truth["scores"] != seen.get("scores") or truth["phase"] != seen.get("phase"):
            raise DriftError(f"after the scan the session has {seen.get('scores')} "
                             f"({seen.get('phase')}), the table {truth['scores']}")

    def _mishap(self, kind: str) -> None:
        """Round 1's accidents, one after each turn: the card just loaded shown again (refused,
        R54), a foreign QR code (ignored), an undo and a redo."""
        if kind == "twice":
            if self._last_plain_card is None:
                return
            self.show([self._last_plain_card], expect=False)
        elif kind == "foreign":
            self.show_foreign("https://example.com/menu")
        elif kind == "undo":
            self.do(self.session.undo)
            self.do(self.session.redo)
        self._mishaps.pop(0)

    # -- intents ---------------------------------------------------------------------------

    def show(self, refs: Sequence[str], *, expect: bool = True, hold: bool = False) -> None:
        """Cards shown to the camera (``hold``: left in view for a while), or chosen by touch
        when there is no camera."""
        if self.camera is None:
            for ref in refs:
                self.do(self.session.choose_card, ref, expect=expect)
            return
        before = self.session.view.seq
        self.camera.show(refs, hold=HOLD_SECONDS if hold else 0.0)
        self._record(Step("camera", tuple(refs), before, self.session.view.seq, True))

    def press(self, ferry: int) -> None:
        """A ferry button pressed (or :meth:`Session.ferry_pressed` without buttons)."""
        if self.buttons is None:
            self.do(self.session.ferry_pressed, ferry)
            return
        before = self.session.view.seq
        self.buttons.press(ferry)
        self._record(Step("button", (ferry,), before, self.session.view.seq, True))

    def show_foreign(self, text: str) -> None:
        """A QR code that is not a card (a menu, a phone): the session must ignore it."""
        if self.camera is None:
            self.do(self.session.tag_seen, text, expect=False)
        else:
            self.camera.show_foreign(text)

    def do(self, intent: Callable[..., Any], *args: Any, expect: bool = True) -> Any:
        """Make one intent (a session method); unless ``expect`` is false, a refusal is a
        :class:`DriftError`. The step is recorded under the intent's name."""
        before = self.session.view.seq
        result = intent(*args)
        accepted = not isinstance(result, Outcome) or result.accepted
        self._record(Step(intent.__name__, args, before, self.session.view.seq, accepted))
        if expect and not accepted:
            raise DriftError(f"the session refused {intent.__name__}{args}: {result.message}")
        return result

    def _record(self, step: Step) -> None:
        self.steps.append(step)
        if self.on_step is not None:
            self.on_step(step)

    def _agree(self, verdict: Any, action: Any) -> None:
        if not verdict.accepted:
            raise DriftError(f"the table's own game refused {action!r}: {verdict.message}")


def _with_side(ref: str, side: str) -> str:
    species, _, copy = parse_ref(ref)
    return format_ref(species, side, copy)
