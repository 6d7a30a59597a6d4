"""``noah-companion demo``: a whole simulated game through the real pipeline, narrated.

Seeded players with known hands (:class:`~companion.sim.autoplay.SimulatedTable`) choose
legal moves. Every card they put in front of the camera — starting animals, plays, the hands at
round end — is rendered as its sticker (:mod:`companion.tags`), filmed by the synthetic camera
(:class:`vision.synthetic.SyntheticSource`), decoded and tracked by the vision pipeline; only the
pipeline's ``CardShown`` event reaches the session, which runs in hidden-hands mode as at a real
table, writes its SQLite record and drives mock ferry lights. The terminal narrates it all.
"""

from __future__ import annotations

import queue
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from companion.errors import UserError
from companion.game import Options
from companion.session.bgstats import qr_code
from companion.session.narrate import plural
from companion.session.session import Session
from companion.session.steps import Step
from companion.session.store import GameStore
from companion.session.view import Notice, SessionView
from companion.sim.autoplay import SimulatedTable
from companion.wiring import assemble, camera_pipeline
from vision.events import CardRemoved, CardShown, ForeignCode

SEEN_TIMEOUT = 10.0  # seconds to wait for the camera to report a card before giving up
LIGHT_SIGNS = {
    "off": "·", "noah": "●", "destination": "◐", "noah, destination": "◉", "scan": "◌",
    "illegal": "✗", "departure": "↑", "round end": "✦", "game end": "✦",
}
LEGEND = ("Each line starts with the five ferry lights as they are after it (ferries 1-5):\n"
          "● Noah  ◐ he may go there  ◌ scan this ferry's animal  ✗ refused  ↑ departing  "
          "✦ round end  · off")
#: Prompts too frequent to narrate.
QUIET_KINDS: tuple[Step, ...] = ("play_card", "move_noah", "no_game")


@dataclass
class DemoReport:
    """Figures of one demo run."""

    game_id: int = 0
    db: Path | None = None
    cards_seen: int = 0
    foreign_codes: int = 0
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    view: SessionView | None = None


class PipelineCamera:
    """The demo's camera: stickers on the synthetic table, read by the vision pipeline.

    The pipeline's callback hands each event to the session first (on the pipeline's thread,
    as in the app), then to :meth:`show`, which waits until every card it put down was
    reported — and then taken away — so the table never runs ahead of the referee.
    """

    def __init__(self, session: Session, report: DemoReport,
                 narrate: Callable[[str], None] = lambda text: None) -> None:
        from vision.synthetic import Scene, SyntheticSource
        from vision.tracker import TrackerSettings

        # The virtual players are quicker than people: a card counts as shown after 2 frames
        # (at a table also 0.25 s) and as gone after 3 frames (at a table also 0.3 s).
        quick = TrackerSettings(confirm_seconds=0.0, gone_seconds=0.0)

        self.session, self.deck_id, self.report = session, session.deck_id, report
        self.narrate = narrate
        # 640×360 from 20 cm above the cards: the stickers get the pixels per module they get
        # from a 1280×720 camera 40 cm up (2.5 px per millimetre), in a quarter of the pixels
        self.scene = Scene(width=640, height=360, camera_height_mm=200.0, seed=7)
        self.source = SyntheticSource(self.scene, fps=0)
        self._events: queue.Queue[Any] = queue.Queue()
        self._stickers: dict[str, Any] = {}
        self.pipeline = camera_pipeline(self.source, session, also=self._events.put,
                                        tracker=quick)
        self.pipeline.start()

    def show(self, refs: Sequence[str], hold: float = 0.0) -> None:
        """Put these cards in view, wait until each is reported, leave them ``hold`` seconds
        longer (still one event each), take them away."""
        from companion.tags.payload import encode

        texts = {encode(self.deck_id, self.session.deck[ref]) for ref in refs}
        self.source.present(*(self._sticker(ref) for ref in refs))
        self._wait_for(CardShown, texts)
        if hold:
            seen = self.report.cards_seen
            time.sleep(hold)
            self.source.clear()
            self._wait_for(CardRemoved, texts)
            repeats = self.report.cards_seen - seen
            self.narrate(f"(the card stayed in view for {hold:.0f} s: {repeats} more events, "
                         "still one play)")
            return
        self.source.clear()
        self._wait_for(CardRemoved, texts)

    def show_foreign(self, text: str) -> None:
        """A QR code that is not a card: the pipeline reports it apart, the session ignores it."""
        self.source.present(text)
        self._wait_for(ForeignCode, {text})
        self.source.clear()

    def _wait_for(self, kind: type[CardShown | CardRemoved | ForeignCode],
                  texts: set[str]) -> None:
        waiting, deadline = set(texts), time.monotonic() + SEEN_TIMEOUT
        while waiting:
            try:
                event = self._events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise UserError(
                    f"The camera pipeline did not report {plural(len(waiting), 'card')} within "
                    f"{SEEN_TIMEOUT:.0f} s.", "Run 'noah-companion bench vision' to check it."
                ) from None
            if isinstance(event, CardShown):
                self.report.cards_seen += 1
                self.report.latencies.append(event.latency)
            elif isinstance(event, ForeignCode):
                self.report.foreign_codes += 1
            if isinstance(event, kind) and event.text in waiting:
                waiting.discard(event.text)

    def _sticker(self, ref: str) -> Any:
        """The card's sticker image at the camera's scale (rendered once per card)."""
        if ref not in self._stickers:
            from companion.tags.sticker import render_sticker

            dpi = self.scene.px_per_mm * 25.4
            self._stickers[ref] = render_sticker(self.session.deck[ref], self.deck_id,
                                                 size_mm=self.scene.sticker_mm, dpi=round(dpi))
        return self._stickers[ref]

    def close(self) -> None:
        self.pipeline.stop()


class MockButtons:
    """The ferry buttons on gpiozero mock pins: a press drives the pin low and high again, and
    gpiozero's own thread calls the session, as a finger on the real button would."""

    BOUNCE = 0.06  # the lights debounce each button for 50 ms

    def __init__(self, lights: Any) -> None:
        self.lights = lights
        self._done = threading.Event()
        self._last: dict[int, float] = {}
        forward = lights.when_ferry_pressed  # the session's ferry_pressed

        def pressed(ferry: int) -> None:
            forward(ferry)
            self._done.set()

        lights.when_ferry_pressed = pressed

    def press(self, ferry: int) -> None:
        wait = self._last.get(ferry, 0.0) + self.BOUNCE - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        pin = self.lights.pin_factory.pin(self.lights.config.buttons[ferry])
        self._done.clear()
        pin.drive_low()
        pin.drive_high()
        self._last[ferry] = time.monotonic()
        if not self._done.wait(SEEN_TIMEOUT):
            raise UserError(f"The button of ferry {ferry + 1} did not reach the referee.",
                            "Run 'noah-companion lights test' to check the buttons.")


class Narrator:
    """Prints what happens at the table: each new notice, the prompts worth reading, and the
    ferry lights as five signs at the start of each line."""

    def __init__(self, out: TextIO, *, quiet: bool = False) -> None:
        self.out, self.quiet = out, quiet
        self._notices: tuple[Notice, ...] = ()
        self._prompt: tuple = ()
        self._lights = _lights(None)

    def __call__(self, view: SessionView) -> None:
        lights = self._lights = _lights(view.lights)
        fresh = _new_notices(self._notices, view.notices)
        self._notices = view.notices
        prompt, key = view.prompt, (view.prompt.kind, view.prompt.player)
        if self.quiet:
            return
        for notice in fresh:
            if not notice.text.endswith(" scanned."):  # hand scans: one line per hand
                self.say(lights, _MARKS.get(notice.level, "") + notice.text)
        if key != self._prompt and prompt.kind == "choose_noah_start":
            print(f"\n── Round {view.state['round'] + 1} " + "─" * 40, file=self.out)
        if key != self._prompt and prompt.kind not in QUIET_KINDS:
            self.say(lights, f"? {prompt.text}")
        self._prompt = key

    def aside(self, text: str) -> None:
        """A remark of the demo itself, under the lights of the last view."""
        if not self.quiet:
            self.say(self._lights, text)

    def say(self, lights: str, text: str) -> None:
        print(f"  {lights}  {text}", file=self.out, flush=True)


_MARKS = {"refused": "✗ refused: ", "reconcile": "↩ put back: ", "problem": "! "}


def _new_notices(old: tuple[Notice, ...], new: tuple[Notice, ...]) -> list[Notice]:
    """The notices of ``new`` that ``old`` did not end with (the list keeps the last few)."""
    for overlap in range(min(len(old), len(new)), 0, -1):
        if old[-overlap:] == new[:overlap]:
            return list(new[overlap:])
    return list(new)


def _lights(snapshot: Any) -> str:
    """The five ferry lights as signs, e.g. ``·◐●·◐``."""
    if not snapshot:
        return "·····"
    return "".join(LIGHT_SIGNS.get(light.pattern, "•") for light in snapshot)


def run_demo(
    *,
    seed: int = 1,
    players: Sequence[str] = ("Ana", "Ben", "Chloé"),
    options: Options | None = None,
    db: Path | None = None,
    quiet: bool = False,
    out: TextIO = sys.stdout,
) -> DemoReport:
    """Play and narrate one whole game; returns its figures."""
    from hardware.lights import FerryLights

    started = time.monotonic()
    db = db or Path(tempfile.mkdtemp(prefix="noah-demo-")) / "games.sqlite"
    report = DemoReport(db=db)
    if not quiet:  # -q: the results only
        _introduce(out, players, seed, db)
    narrator = Narrator(out, quiet=quiet)
    lights_section = {"buttons": "yes"}  # five ferry buttons, on virtual pins like the LEDs
    with GameStore(db) as store, FerryLights.from_section(lights_section, virtual=True) as lights:
        session = assemble(store, lights=lights)
        buttons = MockButtons(lights)
        camera = PipelineCamera(session, report, narrate=narrator.aside)
        try:
            session.subscribe(narrator)
            table = SimulatedTable(session, players, seed=seed, options=options,
                                   camera=camera, buttons=buttons, mishaps=True)
            table.play()
        finally:
            camera.close()
        report.view, report.game_id = session.view, session.view.game_id or 0
        report.seconds = time.monotonic() - started
        _conclude(out, session, report)
    return report


def _introduce(out: TextIO, players: Sequence[str], seed: int, db: Path) -> None:
    names = ", ".join(players[:-1]) + f" and {players[-1]}"
    print(f"Noah Table Companion — demo (seed {seed})\n"
          f"{names} play a whole game of Noah at a virtual table. Each card they show is\n"
          "rendered as a camera frame, read by the vision pipeline and refereed; every accepted\n"
          f"action is saved in {db} before it counts.\n{LEGEND}\n", file=out, flush=True)


def _conclude(out: TextIO, session: Session, report: DemoReport) -> None:
    from companion.session.history import score_table, summarize

    summary = summarize(session.store, report.game_id, session.deck)
    print("\nScores (tears per round; fewest wins):", file=out)
    for line in score_table(summary):
        print("  " + line, file=out)
    view, url = session.view, session.bgstats_url()
    assert url and report.db is not None, "the demo plays its game to the end"
    print(f"\n{view.prompt.text}", file=out)
    qr_png = report.db.with_name(f"bgstats-game-{report.game_id}.png")
    qr_code(url).save(str(qr_png), scale=4)
    print(f"To log it in the BG Stats app, scan this QR code with a phone: {qr_png}", file=out)
    latency = statistics.median(report.latencies) * 1000 if report.latencies else 0.0
    print(f"\nCamera: {report.cards_seen} cards read (median latency {latency:.0f} ms), "
          f"{report.foreign_codes} foreign code ignored. Record: game {report.game_id} in "
          f"{report.db}.\nTry: noah-companion history --db {report.db}\n"
          f"     noah-companion export {report.game_id} --format csv --db {report.db}\n"
          f"     noah-companion export {report.game_id} --bgstats --db {report.db}\n"
          f"Finished in {report.seconds:.0f} s.", file=out, flush=True)
