"""The simulator's overhead camera: the table of the game in progress, rendered from above.

Two ways the app shows a rendered table (docs/table-view.md, "The demo" and "Check what the
camera reads"), both through the demo's :class:`~companion.sim.table_demo.OverheadTable` (the
five mats in a row, each card as its sticker, a little askew, Noah's marker beside his mat):

* :class:`RecordCamera` — in simulator mode (``noah-companion --simulate``) the calibration
  screen films the record: what the session says lies on each ferry, and Noah's place;
* :class:`ShownTable` — in ``demo --table-view --ui`` the players' own table: every frame the
  referee reads is also handed to the app (a :class:`~vision.table_capture.FedTableSource`),
  paced so that a person can follow the hand passing and the card landing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from companion.session.table_observer import physical
from companion.sim.table_demo import OverheadTable, Point
from vision.table_capture import TableFrame

RECORD_FPS = 2.0  # the record's table changes at a player's pace: two frames a second show it


class RecordCamera:
    """A :class:`~vision.table_capture.TableSource` filming the session's record: each read
    renders the ferries and Noah as the session's view has them (again only when they
    changed), at ``fps`` frames a second. ``away``: ferry positions whose mat is left off the
    table (to see a missing mat on the calibration screen).

    >>> import pathlib, tempfile
    >>> from companion.session import GameStore, Session
    >>> camera = RecordCamera(Session(GameStore(pathlib.Path(tempfile.mkdtemp()) / "g.sqlite")),
    ...                       fps=0)
    >>> camera.open(); frame = camera.read(); frame.full.shape, frame.small.shape
    ((1080, 1920), (180, 320))
    """

    name = "simulated overhead camera"

    def __init__(self, session: Any, *, fps: float = RECORD_FPS, seed: int = 7,
                 away: tuple[int, ...] = ()) -> None:
        self.session, self.fps, self.away = session, fps, away
        self.table = OverheadTable(session.deck_id, session.deck, seed)
        self._shown: tuple[Any, ...] | None = None
        self._frame: TableFrame | None = None
        self._next = 0.0
        self._stopping = threading.Event()

    def open(self) -> None:
        self._stopping.clear()
        self._next = time.monotonic()

    def read(self) -> TableFrame:
        if self.fps > 0:
            self._next = max(self._next + 1 / self.fps, time.monotonic())
            self._stopping.wait(max(0.0, self._next - time.monotonic()))
        view = self.session.view
        state = view.state or {}
        ferries = tuple(tuple(physical(r) for r in f or ()) for f in state.get("ferries")
                        or ((),) * 5)
        shown = (ferries, state.get("noah"))
        if shown != self._shown or self._frame is None:
            self._shown = shown
            self._frame = self._render(ferries, state.get("noah"))
        frame = self._frame
        return TableFrame(frame.full, frame.small, frame.name, time.monotonic())

    def _render(self, ferries: tuple[tuple[str, ...], ...], noah: int | None) -> TableFrame:
        from dataclasses import replace

        table = self.table
        for k, refs in enumerate(ferries):
            table.keep(k, refs)
        if noah != table.noah:
            if noah is None:
                table.noah = None
            else:
                table.place_noah(noah)
        full_scene = table.scene
        table.scene = replace(full_scene, mats=tuple(m for m in full_scene.mats
                                                      if m.ferry not in self.away))
        try:
            return table.frames(None)[0]
        finally:
            table.scene = full_scene

    def close(self) -> None:
        self._stopping.set()  # a read waiting for its time returns at once


class StopFilming(Exception):
    """The window was closed: the players stop at their next frame."""


class ShownTable(OverheadTable):
    """The demo players' table, each frame also handed to ``show`` and kept in sight for
    ``pace`` seconds (the hand over the ferry, then the still table) before the referee reads
    them; once ``stopping`` is set the next frame raises :class:`StopFilming`."""

    def __init__(self, deck_id: str, deck: Any, seed: int, *, show: Callable[[TableFrame], Any],
                 pace: float, stopping: threading.Event) -> None:
        super().__init__(deck_id, deck, seed)
        self.show, self.pace, self.stopping = show, pace, stopping

    def frames(self, hand_over: int | Point | None) -> list[Any]:
        shots = super().frames(hand_over)
        for shot in shots[:-1]:  # the still table is shown once, not twice
            self.show(shot)
            if self.stopping.wait(self.pace):
                raise StopFilming
        return shots
