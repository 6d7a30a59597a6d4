"""``noah-companion demo --table-view``: a whole seeded game refereed from an overhead camera.

The simulated players (:class:`~companion.sim.autoplay.SimulatedTable`) play as usual, but
nobody shows a card to a camera or presses a ferry button for an ordinary turn: they lay the card
on Noah's ferry (a hand passes over the mat), put Noah's marker beside another mat, take a ferry
back, take a departed ferry's cards off the table, and at round end lay their hands face up
beside the mats, one player after the other, a few cards at a time (earlier hands stay on the
table while there is room). A synthetic overhead camera (:mod:`vision.table_render`) renders the
table from what lies on it — the five mats, the stacked cards with their stickers, some askew
or turned round, Noah's marker, the hands laid out, the hand, uneven light and sensor noise —
and the :class:`~companion.session.table_observer.TableObserver` alone tells the session what
happened. What a camera cannot see is answered on the screen (the snail's side, a frog's
weight, lion/giraffe/crocodile targets, gifts, the first player).

The frames are 1920 × 1080 px from a narrower lens (40°): the stickers get 3.3 px per module,
as from a Camera Module 3 at about 90 cm, in a fifth of its pixels, so a whole game takes a
minute or two.
"""

from __future__ import annotations

import math
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from companion.game import Options
from companion.game.actions import MoveNoah, Play, TakeBack
from companion.session.prompts import ScanSetupCard
from companion.session.session import Session
from companion.session.store import GameStore
from companion.session.table_observer import (
    NOT_WARNINGS,
    Finding,
    HandSeen,
    NoahSeen,
    NoahStartSeen,
    PlaySeen,
    SetupCardSeen,
    TakeBackSeen,
    physical,
)
from companion.sim.autoplay import DriftError, SimulatedTable
from companion.sim.recording import GameRecording
from companion.tags.payload import encode
from companion.wiring import assemble, table_observer

NUDGES = 3  # times a player straightens a card the camera is not sure of
#: The camera of the demo (see the module's docstring) and the mats' places under it.
DEMO_CAMERA = {"width": 1920, "height": 1080, "height_mm": 750.0, "hfov_deg": 40.0}
MAT_GAP_MM = 8.0
Point = tuple[float, float]
#: Round end: where the hands are laid, in two rows beside the row of mats (table mm): below
#: them cards turned a quarter one way, above them the other way (the players on either side
#: of the table), each row's card centres from ``-HAND_REACH_MM`` to ``HAND_REACH_MM``.
HAND_ROWS = ((118.0, 90.0), (-118.0, -90.0))
HAND_REACH_MM = 225.0
SPACED_MM = 95.0  # cards side by side, a little apart
NOISE = 2.5  # the sensor noise of each frame (grey levels, as vision.table_render's default)


@dataclass
class TableDemoReport:
    """Figures of one table-view game."""

    plays: int = 0
    noah_moves: int = 0
    take_backs: int = 0
    setup: int = 0
    hands: int = 0
    hand_cards: int = 0
    touches: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    departures_seen: int = 0
    seconds_to_verdict: list[float] = field(default_factory=list)
    frames: int = 0
    nudges: int = 0
    flashes: int = 0
    seconds: float = 0.0
    game_over: bool = False

    @property
    def median_ms(self) -> float:
        return statistics.median(self.seconds_to_verdict) * 1000 if self.seconds_to_verdict \
            else 0.0

    @property
    def ordinary_touches(self) -> int:
        """Touches or buttons for a play, a Noah move, a take-back or a card of a hand: the
        table view's promise is none."""
        return sum(self.touches.get(name, 0) for name in ("choose_card", "move_noah",
                                                          "ferry_pressed", "take_back",
                                                          "hand scan"))


class _Enough(Exception):
    """A quick check has seen enough plays."""


class OverheadTable:
    """The physical table the synthetic camera films: the cards on each mat and Noah's marker."""

    def __init__(self, deck_id: str, deck: Any, seed: int, *, camera: Any = None,
                 noise: float = NOISE, blur: float = 0.7) -> None:
        import random

        import numpy as np

        from vision.table_render import OverheadCamera, TableScene, row_layout

        self.deck_id, self.deck = deck_id, deck
        self.camera = camera or OverheadCamera(**DEMO_CAMERA)  # type: ignore[arg-type]
        self.rng = random.Random(seed)
        # rendered without noise: each frame gets its own (:meth:`_shot`), as a sensor gives
        self.scene = TableScene(mats=row_layout(gap_mm=MAT_GAP_MM), seed=seed, noise=0.0,
                                blur=blur)
        self._noise_rng = np.random.default_rng(seed)
        self._noise: list[Any] = []
        self.noise = noise
        self.cards: list[list[Any]] = [[] for _ in range(5)]
        self.beside: list[Any] = []  # cards laid face up beside the mats (round end)
        self._row_used = [0, 0]  # of HAND_ROWS' places
        self.noah: int | None = None
        self._noah_side = 1.0
        self._cache: dict[Any, Any] = {}
        self.clock = 0.0

    def lay(self, ferry: int, ref: str) -> None:
        """A card laid on a mat, a little askew, sometimes turned round."""
        from vision.table_render import CardOnMat

        angle = self.rng.uniform(-8, 8) + (180.0 if self.rng.random() < 0.25 else 0.0)
        text = encode(self.deck_id, self.deck[physical(ref)])
        self.cards[ferry].append(CardOnMat(text, self.rng.uniform(-3, 3),
                                           self.rng.uniform(-3, 3), angle))

    def clear(self, ferry: int) -> None:
        self.cards[ferry] = []

    def keep(self, ferry: int, refs: Sequence[str]) -> None:
        """The mat holds exactly ``refs`` (bottom first): cards no longer there are taken off."""
        texts = [encode(self.deck_id, self.deck[physical(r)]) for r in refs]
        kept = [c for c in self.cards[ferry] if c.text in texts]
        if [c.text for c in kept] != texts:
            kept = []
            for ref in refs:
                self.lay_into(kept, ref)
        self.cards[ferry] = kept

    def lay_into(self, stack: list[Any], ref: str) -> None:
        saved, self.cards[0] = self.cards[0], stack
        self.lay(0, ref)
        self.cards[0] = saved

    def nudge(self, ferry: int | None) -> None:
        """The top card of ``ferry`` straightened a little (laid again, same card)."""
        from vision.table_render import CardOnMat

        if ferry is None or not self.cards[ferry]:
            return
        top = self.cards[ferry][-1]
        self.cards[ferry][-1] = CardOnMat(top.text, self.rng.uniform(-2, 2),
                                          self.rng.uniform(-2, 2), self.rng.uniform(-3, 3)
                                          + (180.0 if self.rng.random() < 0.25 else 0.0))

    def place_noah(self, ferry: int) -> None:
        self.noah, self._noah_side = ferry, self.rng.choice((-1.0, 1.0))

    def hand_places(self, refs: Sequence[str]) -> list[Any]:
        """Where a hand will lie beside the mats (:class:`vision.table_render.CardOnTable`s in
        the order they are laid): spaced, in the room the earlier hands leave, else once those
        are picked up; a hand longer than both rows' room is spread closer."""
        from vision.table_render import laid_out

        per_row = int(2 * HAND_REACH_MM // SPACED_MM) + 1
        if len(refs) > sum(per_row - used for used in self._row_used):
            self.beside, self._row_used = [], [0, 0]  # earlier hands are picked up
        texts = [encode(self.deck_id, self.deck[physical(r)]) for r in refs]
        long_hand = len(texts) > 2 * per_row
        places: list[Any] = []
        for row, (y, angle) in enumerate(HAND_ROWS):
            used = self._row_used[row]
            room = math.ceil(len(refs) / 2) if long_hand else per_row - used
            chunk, texts = texts[:room], texts[room:]
            if not chunk:
                continue
            pitch = min(SPACED_MM, 2 * HAND_REACH_MM / max(len(chunk) - 1, 1))
            # A quarter turn puts the sticker (near the card's top edge) at one end of the
            # card: the next card goes to the other side, so it never lies over a sticker.
            direction = -math.copysign(1.0, angle)
            first = math.copysign(HAND_REACH_MM, angle) + direction * SPACED_MM * used
            last = first + direction * pitch * (len(chunk) - 1)
            places += laid_out(chunk, (first, y), (last, y), self.rng, angle_deg=angle,
                               askew_deg=6.0)
            self._row_used[row] = used + len(chunk)
        return places

    def lay_beside(self, cards: Sequence[Any]) -> None:
        """Cards laid face up beside the mats (from :meth:`hand_places`)."""
        self.beside.extend(cards)

    def pick_up_hands(self) -> None:
        self.beside, self._row_used = [], [0, 0]

    def frames(self, hand_over: int | Point | None) -> list[Any]:
        """What the camera sees now: a hand over ``hand_over`` (a ferry, or a place on the
        table in mm; if any) leaving the table, then two frames of the still table, each with
        its own sensor noise (TABLE-KIT.md: every change is followed by two still frames)."""
        shots = []
        if hand_over is not None:
            shots.append(self._frame(hand_over))
        still = self._render(None)
        return [*shots, self._shot(still), self._shot(still)]

    def _frame(self, hand_over: int | Point | None) -> Any:
        return self._shot(self._render(hand_over))

    def _shot(self, image: Any) -> Any:
        """A camera frame of a rendered table: the image with fresh sensor noise (one of a few
        noise fields, shifted at random: cheap, and never the same twice in a row)."""
        import cv2
        import numpy as np

        from vision.table_capture import SMALL_SIZE, TableFrame

        rng = self._noise_rng
        if not self._noise or self._noise[0].shape != image.shape:
            self._noise = [np.round(rng.normal(0, self.noise, image.shape)).astype(np.int16)
                           for _ in range(3)]
        self._noise.append(self._noise.pop(int(rng.integers(0, 2))))  # never the last used
        shift = (int(rng.integers(0, image.shape[0])), int(rng.integers(0, image.shape[1])))
        noisy = np.clip(image + np.roll(self._noise[-1], shift, axis=(0, 1)), 0, 255)
        full = noisy.astype(np.uint8)
        small = cv2.resize(full, SMALL_SIZE, interpolation=cv2.INTER_AREA)
        self.clock += 0.1
        return TableFrame(full, small, f"frame {self.clock:.1f}", time.monotonic())

    def _render(self, hand_over: int | Point | None) -> Any:
        import numpy as np

        from vision.table_render import hand_polygon, render_table

        mats = tuple(replace(m, cards=tuple(self.cards[m.ferry - 1])) for m in self.scene.mats)
        noah = None
        if self.noah is not None:
            mat = mats[self.noah]
            noah = (mat.x_mm, mat.y_mm + self._noah_side * 101.0)
        hands: tuple[Any, ...] = ()
        if isinstance(hand_over, tuple):  # beside the mats: the arm comes from that side
            x, y = hand_over
            hands = (hand_polygon(x, y, 90.0 if y > 0 else 270.0),)
        elif hand_over is not None:
            mat = mats[hand_over]
            hands = (hand_polygon(mat.x_mm + 10, mat.y_mm + 20, 90.0),)
        scene = replace(self.scene, mats=mats, noah=noah, loose=tuple(self.beside), hands=hands)
        return render_table(scene, self.camera).frame.astype(np.int16)


class TableViewPlayers(SimulatedTable):
    """Simulated players at a table with an overhead camera: ordinary turns with no touch."""

    def __init__(self, session: Session, players: Sequence[str], *, seed: int,
                 options: Options | None, report: TableDemoReport,
                 narrate: Any = None, max_actions: int | None = None,
                 camera: Any = None, noise: float = NOISE, blur: float = 0.7,
                 recording: GameRecording | None = None, hand_at_setup: bool = True) -> None:
        super().__init__(session, players, seed=seed, options=options,
                         on_step=self._count)
        self.report, self.narrate = report, narrate or (lambda text: None)
        self.table = OverheadTable(session.deck_id, session.deck, seed, camera=camera,
                                   noise=noise, blur=blur)
        self.recording, self.hand_at_setup = recording, hand_at_setup

        self.observer = table_observer(session)
        self.observer.on_finding = self._finding_too(self.observer.on_finding)
        self._scanning = False
        self.max_actions = max_actions

    # -- what the players do at the table ----------------------------------------------------

    def press(self, ferry: int) -> None:
        """Noah's marker put beside ``ferry``'s mat (no button)."""
        if self.recording is not None:  # moving Noah declines the giraffe's look
            self.recording.answered(self.session, "move_noah", (ferry,))
        self.table.place_noah(ferry)
        self._watch(None)

    def do(self, intent: Any, *args: Any, expect: bool = True) -> Any:
        """An intent on the screen (an answer the camera cannot see: recorded as such)."""
        if self.recording is not None:
            self.recording.answered(self.session, intent.__name__, args)
        return super().do(intent, *args, expect=expect)

    def _show_card(self, ref: str, *, side: str | None = None,
                   frog_weight: int | None = None, hold: bool = False) -> None:
        view = self.session.view
        prompt = view.prompt
        setup = isinstance(prompt, ScanSetupCard)
        ferry = prompt.ferry if isinstance(prompt, ScanSetupCard) else view.noah
        assert ferry is not None, "a card goes on Noah's ferry or the ferry being set up"
        self.table.lay(ferry, ref)
        self._watch(ferry, hand=not setup or self.hand_at_setup)
        step = self.session.view.prompt.kind
        if step == "choose_snail_side":
            self._touch("choose_snail_side", side)
        elif step == "choose_frog_weight":
            self._touch("choose_frog_weight", frog_weight or 1)

    def _act(self, action: Any) -> None:
        if self.max_actions is not None and self.report.plays + self.report.noah_moves \
                >= self.max_actions:
            raise _Enough
        if isinstance(action, TakeBack):
            noah = self.session.view.noah
            assert noah is not None
            self.table.clear(noah)
            self._watch(noah)
        elif isinstance(action, Play | MoveNoah):
            super()._act(action)
        else:  # targets and gifts: on the screen, as without the table view
            super()._act(action)

    def play_round(self, *, scan_hands: bool = True) -> None:
        self._scanning = False
        super().play_round(scan_hands=scan_hands)

    def _agree(self, verdict: Any, action: Any) -> None:
        super()._agree(verdict, action)
        self._sync()

    def _sync(self) -> None:
        """The table as the truth game has it: a departed ferry's cards, a crocodile's fleeing
        animal, a round's leftovers leave the table (the observer watches them go)."""
        ferries = self.truth.state()["ferries"]
        for k, cards in enumerate(ferries):
            refs = [physical(r) for r in cards or ()]
            now = [c.text for c in self.table.cards[k]]
            wanted = [encode(self.session.deck_id, self.session.deck[r]) for r in refs]
            if now != wanted:
                self.table.keep(k, refs)
                self._watch(k, expect_change=False)

    def _scan_hands(self) -> None:
        """Round end: the round's animals are gathered, then each player in turn lays their
        hand face up beside the mats, a few cards at a time (:meth:`show`); the camera reads
        each hand (the base class checks the scores after the last one)."""
        self._scanning = True
        for k in range(5):
            self.table.clear(k)
        self.table.noah = None
        self._hands = [list(hand) for hand in self.truth.state()["hands"]]
        self._places: dict[str, Any] = {}
        super()._scan_hands()
        self.table.pick_up_hands()

    def show(self, refs: Sequence[str], *, expect: bool = True, hold: bool = False) -> None:
        """Round end: ``refs`` (part of one player's hand) laid face up beside the mats; once
        the whole hand lies there the camera must have read it."""
        if not self._scanning:
            super().show(refs, expect=expect, hold=hold)
            return
        hand = next(h for h in self._hands if refs[0] in h)
        if refs[0] == hand[0]:  # the first cards of a hand: the room for all of it
            self._places.update(zip(hand, self.table.hand_places(hand), strict=True))
        laid = [self._places[ref] for ref in refs]
        self.table.lay_beside(laid)
        complete = refs[-1] == hand[-1]
        self._watch((laid[-1].x_mm, laid[-1].y_mm), expect_change=complete, hand=hand)

    def _touch(self, name: str, *args: Any) -> Any:
        return self.do(getattr(self.session, name), *args)

    # -- the camera ----------------------------------------------------------------------------

    def film_bare_kit(self) -> None:
        """The table before the deal: the five mats, nothing on them."""
        self._watch(None, expect_change=False)

    def _watch(self, hand_over: int | Point | None, *, expect_change: bool = True,
               hand: Sequence[str] | bool = ()) -> None:
        """Film the table until the observer has said what it saw. When it says nothing (its
        reader was not sure of a top card, or of a card of the ``hand`` laid out), the player
        straightens the card (or the hand), as people do when the screen waits: at most
        :data:`NUDGES` times. ``hand`` false: no hand is filmed over the place."""
        before = self.session.view.seq, self.session.view.prompt
        filmed = hand_over if hand is not False else None
        hand = hand if not isinstance(hand, bool) else ()
        for attempt in range(NUDGES + 1):
            if attempt:
                self.report.nudges += 1
                self._straighten(hand_over, hand)
            for frame in self.table.frames(filmed):
                self.report.frames += 1
                if self.recording is not None:
                    self.recording.frame(frame)
                for verdict in self.observer.feed(frame):
                    self._verdict(verdict)
            if not expect_change or (self.session.view.seq,
                                     self.session.view.prompt) != before:
                return
            if hand_over is None or (isinstance(hand_over, int) \
                    and not self.table.cards[hand_over]):
                break
        raise DriftError(f"the table view did not see the change at {hand_over}: "
                         f"{self.session.view.prompt.text}")

    def _straighten(self, hand_over: int | Point | None, hand: Sequence[str]) -> None:
        if isinstance(hand_over, int):
            self.table.nudge(hand_over)
        elif hand:  # the hand laid again, at a new place
            self.table.beside = [c for c in self.table.beside
                                 if c not in [self._places[r] for r in hand]]
            self._places.update(zip(hand, self.table.hand_places(hand), strict=True))
            self.table.lay_beside([self._places[r] for r in hand])

    def _verdict(self, verdict: Any) -> None:
        self.report.seconds_to_verdict.append(verdict.seconds)
        if not verdict.accepted:
            self.narrate(f"✗ the table: {verdict.message}")
            return
        kind = verdict.inference
        if isinstance(kind, PlaySeen):
            self.report.plays += 1
        elif isinstance(kind, NoahSeen | NoahStartSeen):
            self.report.noah_moves += isinstance(kind, NoahSeen)
            self.report.setup += isinstance(kind, NoahStartSeen)
        elif isinstance(kind, TakeBackSeen):
            self.report.take_backs += 1
        elif isinstance(kind, SetupCardSeen):
            self.report.setup += 1
        elif isinstance(kind, HandSeen):
            self.report.hands += 1
            self.report.hand_cards += len(kind.cards)

    def _finding(self, finding: Finding) -> None:
        if finding.phrase.key == "audit.departure_seen":
            self.report.departures_seen += 1
        elif finding.phrase.key not in NOT_WARNINGS:
            self.report.warnings.append(finding.text)
        self.report.flashes += finding.phrase.key not in NOT_WARNINGS

    def _finding_too(self, shown: Any) -> Any:
        """The session's notice (and flash) as in the app, then the demo's count."""
        def on_finding(finding: Finding) -> None:
            shown(finding)
            self._finding(finding)
        return on_finding

    def _count(self, step: Any) -> None:
        if step.intent not in ("new_game", "camera", "button"):
            name = "hand scan" if step.intent == "choose_card" and self._scanning \
                else step.intent
            self.report.touches[name] = self.report.touches.get(name, 0) + 1


def run_table_demo(*, seed: int = 1, players: Sequence[str] = ("Ana", "Ben", "Chloé"),
                   options: Options | None = None, db: Path | None = None,
                   rounds: int | None = None, max_actions: int | None = None,
                   quiet: bool = False, out: TextIO = sys.stdout, camera: Any = None,
                   noise: float = NOISE, blur: float = 0.7,
                   recording: GameRecording | None = None,
                   hand_at_setup: bool = True) -> TableDemoReport:
    """Play one seeded game refereed from rendered overhead frames; print its summary.
    ``rounds`` stops after that many rounds (their hands scanned), ``max_actions`` after that
    many plays and Noah moves: for quick checks. ``camera``: the overhead camera
    (:class:`vision.table_render.OverheadCamera`; default :data:`DEMO_CAMERA`), ``noise`` its
    sensor noise, ``blur`` its focus (a Gaussian sigma in pixels). ``recording``: the game is
    also saved as a recording for ``table referee``
    (:class:`~companion.sim.recording.GameRecording`), starting with the bare kit;
    ``hand_at_setup`` false: no hand is filmed over the starting animals (fewer frames)."""
    started = time.monotonic()
    db = db or Path(tempfile.mkdtemp(prefix="noah-table-demo-")) / "games.sqlite"
    report = TableDemoReport()

    def say(text: str) -> None:
        if not quiet:
            print(f"  {text}", file=out, flush=True)

    print(f"Noah Table Companion — demo with the table view (seed {seed})\n"
          f"{', '.join(players)} play at a table filmed from above: every play, every move of "
          "Noah,\nevery take-back and every hand at round end is read from rendered overhead "
          "frames, with no touch.\n",
          file=out, flush=True)
    from hardware.lights import FerryLights

    with GameStore(db) as store, FerryLights.from_section({}, virtual=True) as lights:
        session = assemble(store, lights=lights)
        table = TableViewPlayers(session, players, seed=seed, options=options, report=report,
                                 narrate=say, max_actions=max_actions, camera=camera,
                                 noise=noise, blur=blur, recording=recording,
                                 hand_at_setup=hand_at_setup)
        last_notice: list[Any] = [None]

        def on_view(view: Any) -> None:
            if view.notices and view.notices[-1] is not last_notice[0]:
                last_notice[0] = view.notices[-1]
                say(view.notices[-1].text)

        session.subscribe(on_view)
        table.do(session.new_game, table.players, table.options)
        if recording is not None:
            table.film_bare_kit()
        played = 0
        try:
            while not table.truth.is_over and (rounds is None or played < rounds):
                table.play_round()
                played += 1
        except _Enough:
            pass
        report.game_over = session.view.game_over
        report.seconds = time.monotonic() - started
        if recording is not None:
            recording.finish(session)
        _summary(out, report, session)
    return report


def _summary(out: TextIO, report: TableDemoReport, session: Session) -> None:
    touches = ", ".join(f"{name} {count}" for name, count in sorted(report.touches.items()))
    print(f"\n{session.view.prompt.text}\n"
          f"Table view: {report.plays} plays, {report.noah_moves} Noah moves, "
          f"{report.take_backs} take-backs, {report.setup} setup steps and {report.hands} hands "
          f"({report.hand_cards} cards) inferred from {report.frames} rendered frames "
          f"({report.nudges} cards straightened for the camera); "
          f"{report.departures_seen} departures confirmed.\n"
          f"Touches for plays, Noah moves, take-backs and hands: {report.ordinary_touches}; "
          f"other answers on the screen: {touches or 'none'}.\n"
          f"Audit warnings: {len(report.warnings)} (ferry lights flashed {report.flashes} times)."
          "\n"
          f"Median time from still table to verdict: {report.median_ms:.0f} ms "
          f"(two readings of a 1920 × 1080 frame).\n"
          f"Finished in {report.seconds:.0f} s.", file=out, flush=True)
