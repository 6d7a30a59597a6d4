"""``noah-companion demo --ui``: the seeded demo game played on the app's screen; with
``--table-view`` the table-view demo's players, seen from above.

The same seeded players as the terminal demo (:class:`~companion.sim.autoplay.SimulatedTable`
with its round-1 mishaps) play at the app's table, at a pace a person can follow: every card
they show goes under the simulator's camera (:class:`~companion.ui.camera.Simulator`), is read
by the real vision pipeline and refereed by the app's session, exactly as a card touched in the
tray. The players act on a thread of their own; the screen follows through the session's views
like any other game. Closing the window stops them; the record is ``--db`` (default: a new one
in a temporary folder, never the user's own record).

``demo --table-view --ui`` (:func:`run_table_demo_ui`): the players of ``demo --table-view``
(:class:`~companion.sim.table_demo.TableViewPlayers`) lay their cards on a rendered table
and move Noah's marker, with no touch for a play; the app opens on the calibration screen,
which shows that table as the overhead camera sees it (each mat found, its pixels per code
square), frame by frame; **Back** shows the game's screen, where the referee's answers appear.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.errors import UserError

PACE_SECONDS = 0.6  # between two things the players do: time to see each on the screen
FRAME_SECONDS = 0.5  # each rendered overhead frame stays this long (the hand, the still table)
RESULT_SECONDS = 4.0  # the round's result stays this long before the next round's setup
SEEN_TIMEOUT = 10.0  # seconds the camera may take to report a card


class Stopped(Exception):
    """The window was closed: the players stop."""


class SimulatorCamera:
    """The players' camera: each card goes under the simulator's camera in turn and counts
    once the pipeline has reported it and seen it go (the card tray does the same)."""

    def __init__(self, simulator: Any, session: Any, stop: threading.Event) -> None:
        self.simulator, self.session, self.stop = simulator, session, stop

    def show(self, refs: Sequence[str], hold: float = 0.0) -> None:
        for ref in refs:
            shown = self.simulator.shown
            self.simulator.show(ref)
            self._wait(lambda s=shown: self.simulator.shown > s and self.simulator.idle)
        if hold:
            time.sleep(hold)

    def show_foreign(self, text: str) -> None:
        """A QR code that is not a card, in view until the session has noticed it."""
        seen = self.session.view.foreign_codes
        self.simulator.source.present(text)
        try:
            self._wait(lambda: self.session.view.foreign_codes > seen)
        finally:
            self.simulator.source.clear()

    def _wait(self, done: Any) -> None:
        deadline = time.monotonic() + SEEN_TIMEOUT
        while not done():
            if self.stop.is_set():
                raise Stopped
            if time.monotonic() > deadline:
                raise UserError(f"The simulated camera did not report a card within "
                                f"{SEEN_TIMEOUT:.0f} s.",
                                "Run 'noah-companion bench vision' to check it.")
            time.sleep(0.01)


class DemoPlayers:
    """The seeded players at the app's table, on their own thread.

    ``camera`` is how they show cards (the simulator's camera; ``None``: by touch, as the
    tests do); ``pace`` the seconds between two of their actions. :meth:`start` begins,
    :meth:`stop` makes them stop at their next action; ``error`` keeps what ended them early.
    """

    def __init__(self, app: Any, players: Sequence[str], *, seed: int, camera: Any = "simulator",
                 pace: float = PACE_SECONDS, result_pause: float = RESULT_SECONDS) -> None:
        self.app, self.players, self.seed = app, tuple(players), seed
        self.pace, self.result_pause = pace, result_pause
        self.stopping = threading.Event()
        if camera == "simulator":
            camera = SimulatorCamera(app.simulator, app.session, self.stopping)
        self.camera = camera
        self.error: BaseException | None = None
        self.done = threading.Event()
        self._rounds = 0
        self.stops: tuple[type[Exception], ...] = (Stopped,)  # how the players are stopped
        self._thread = threading.Thread(target=self._play, name="demo-players", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self.stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _play(self) -> None:
        try:
            self._table().play()
        except self.stops:
            pass
        except Exception as error:  # shown on screen: the demo stops, the app stays usable
            self.error = error
            self._say(str(error))
        finally:
            self.done.set()

    def _table(self) -> Any:
        """The seeded players at the app's session."""
        from companion.sim.autoplay import SimulatedTable

        return SimulatedTable(self.app.session, self.players, seed=self.seed,
                              camera=self.camera, mishaps=True, on_step=self._step)

    def _step(self, step: Any) -> None:
        """After each thing the players do: stop if asked, wait so people can follow, and
        after a round's result go on to the next round as a person would. After an undo or a
        redo the virtual table does what the card over the screen says, then closes it, as a
        person touching Done would."""
        if self.stopping.is_set():
            raise Stopped
        view = self.app.session.view
        if len(view.round_scores) > self._rounds:
            self._rounds = len(view.round_scores)
            self._sleep(self.result_pause)
            self._on_ui(lambda: self.app.next_round())  # the next round, or the game's end
        self._sleep(self.pace)
        if getattr(step, "intent", "") in ("undo", "redo"):
            from companion.ui.screens import UndoCard

            self._on_ui(UndoCard.close)

    def _sleep(self, seconds: float) -> None:
        if self.stopping.wait(seconds):
            raise Stopped

    def _on_ui(self, call: Any) -> None:
        from kivy.clock import Clock

        Clock.schedule_once(lambda _dt: call())

    def _say(self, text: str) -> None:
        self._on_ui(lambda: self.app.message(text))


class TableViewDemo(DemoPlayers):
    """The table-view demo's players at the app's table (see the module's docstring): each
    frame of their rendered table goes to ``overhead`` (the app's simulated overhead camera)
    and stays ``frame_pace`` seconds before the referee reads it."""

    def __init__(self, app: Any, players: Sequence[str], *, seed: int, overhead: Any,
                 pace: float = PACE_SECONDS, frame_pace: float = FRAME_SECONDS,
                 result_pause: float = RESULT_SECONDS) -> None:
        super().__init__(app, players, seed=seed, camera=None, pace=pace,
                         result_pause=result_pause)
        from companion.sim.overhead import StopFilming
        from companion.sim.table_demo import TableDemoReport

        self.overhead, self.frame_pace = overhead, frame_pace
        self.report = TableDemoReport()
        self.stops = (Stopped, StopFilming)

    def _table(self) -> Any:
        """The table-view players, their table filmed for the app (each of their touches
        paced as in :class:`DemoPlayers`)."""
        from companion.sim.overhead import ShownTable
        from companion.sim.table_demo import TableViewPlayers

        session = self.app.session
        table = TableViewPlayers(session, self.players, seed=self.seed, options=None,
                                 report=self.report)
        table.table = ShownTable(session.deck_id, session.deck, self.seed,
                                 show=self.overhead.put, pace=self.frame_pace,
                                 stopping=self.stopping)
        count = table.on_step

        def on_step(step: Any) -> None:
            if count is not None:
                count(step)
            self._step(step)

        table.on_step = on_step
        return table


def run_table_demo_ui(*, seed: int = 1, players: Sequence[str] = ("Ana", "Ben", "Chloé"),
                      db: Path | None = None, verbose: bool = False) -> int:
    """``demo --table-view --ui``: the app in simulator mode on record ``db``, its overhead
    camera the players' rendered table, opened on the calibration screen; returns the exit
    status when the window is closed."""
    from companion.session import GameStore
    from companion.ui.app import run_app
    from vision.table_capture import FedTableSource

    db = db or Path(tempfile.mkdtemp(prefix="noah-table-demo-")) / "games.sqlite"
    overhead = FedTableSource("simulated overhead camera")

    def prepare(app: Any) -> None:
        app.overhead = lambda: overhead
        app.reading = "table"  # the players lay their cards, hands included, on the table
        demo = TableViewDemo(app, players, seed=seed, overhead=overhead)

        def started(*_args: Any) -> None:
            demo.start()
            app.open_table_check()

        def stopped(*_args: Any) -> None:
            demo.stop()
            overhead.end()

        app.bind(on_start=started, on_stop=stopped)

    print(f"Table-view demo (seed {seed}) for {', '.join(players)} on screen; record: {db}",
          flush=True)
    return run_app(simulate=True, verbose=verbose, store=GameStore(db), prepare=prepare)


def run_demo_ui(*, seed: int = 1, players: Sequence[str] = ("Ana", "Ben", "Chloé"),
                db: Path | None = None, verbose: bool = False) -> int:
    """Open the app in simulator mode on record ``db`` and let the seeded players play the
    demo game on screen until the window is closed; returns the exit status. The app starts
    as ``noah-companion --simulate`` does (no screen: one sentence; a bad config: the error
    screen)."""
    from companion.session import GameStore
    from companion.ui.app import run_app

    db = db or Path(tempfile.mkdtemp(prefix="noah-demo-")) / "games.sqlite"

    def prepare(app: Any) -> None:
        demo = DemoPlayers(app, players, seed=seed)
        app.bind(on_start=lambda *_args: demo.start(), on_stop=lambda *_args: demo.stop())

    print(f"Demo game (seed {seed}) for {', '.join(players)} on screen; record: {db}",
          flush=True)
    return run_app(simulate=True, verbose=verbose, store=GameStore(db), prepare=prepare)
