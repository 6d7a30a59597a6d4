"""The app's camera side, off the UI thread: a capture source, the vision pipeline, the
simulator's virtual cards, and what the calibration screen shows of the overhead camera.

The pipeline reads and decodes frames on its own thread and hands its events to the session
(which publishes views the UI picks up on its own thread). :class:`FrameTap` keeps the newest
frame for the small live camera view, which the UI polls with ``Clock``.

In simulator mode (:class:`Simulator`) a touched card of the virtual tray is rendered as its
sticker (:mod:`companion.tags`), put in front of the synthetic camera
(:class:`vision.synthetic.SyntheticSource`) and read by the real decoders and tracker; once the
pipeline has reported it, the card is taken away again, as a player would.

The overhead camera (``[camera] view = table`` or ``both``, docs/table-view.md) runs on its own
thread (:func:`companion.wiring.open_cameras`); :class:`TableLook` checks some of its frames for
the calibration screen (:mod:`companion.ui.tablecam`).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

from companion.wiring import camera_pipeline
from vision.events import CardRemoved, CardShown


class FrameTap:
    """A capture source that remembers the newest frame it delivered (``latest``, ``count``).

    >>> import numpy as np
    >>> class Still:
    ...     def open(self): pass
    ...     def read(self): return np.zeros((2, 2, 3), np.uint8)
    ...     def close(self): pass
    >>> tap = FrameTap(Still()); tap.open(); _ = tap.read()
    >>> tap.count, tap.latest.shape
    (1, (2, 2, 3))
    """

    def __init__(self, source: Any) -> None:
        self.source = source
        self.name: str = getattr(source, "name", "camera")
        self.latest: Any = None
        self.count = 0

    def open(self) -> None:
        self.source.open()

    def read(self) -> Any:
        frame = self.source.read()
        self.latest, self.count = frame, self.count + 1
        return frame

    def close(self) -> None:
        self.source.close()


IDLE_FPS = 2.0  # the simulator's camera over a bare table (vision.synthetic.SyntheticSource)


class Simulator:
    """Virtual cards in front of a synthetic camera, read by the real vision pipeline.

    ``show(ref)`` returns at once; the card stays in view until the pipeline has reported it
    (``CardShown``), then it is taken away. ``shown`` counts the cards the pipeline reported.
    ``pipeline`` is started and stopped by its owner (the app); it feeds ``feeds`` (the app's
    :class:`companion.wiring.GameInPlay`), ``session`` (Noah's) by default.
    """

    def __init__(self, session: Any, *, fps: float = 30.0, decoding: Any = None,
                 feeds: Any = None) -> None:
        from vision.synthetic import Scene, SyntheticSource

        self.session = session
        # a camera 25 cm above the cards: stickers get the pixels they get in real frames
        self.scene = Scene(width=800, height=450, camera_height_mm=250.0, seed=7)
        self.source = SyntheticSource(self.scene, fps=fps, idle_fps=IDLE_FPS)
        self.camera = FrameTap(self.source)
        self.pipeline = camera_pipeline(self.camera, feeds or session, also=self._after_session,
                                        decoding=decoding)
        self.shown = 0
        self._stickers: dict[str, Any] = {}
        self._queue: deque[str] = deque()
        self._current: str | None = None  # the sticker text under the camera
        self._lock = threading.Lock()

    def show(self, ref: str) -> None:
        """Queue the card ``ref`` (``cat:F#2``) for the camera: cards go under it one at a
        time, each once the previous one has been reported and taken away."""
        with self._lock:
            self._queue.append(ref)
        self._next()

    @property
    def idle(self) -> bool:
        """No card waiting or under the camera."""
        with self._lock:
            return not self._queue and self._current is None

    def _next(self) -> None:
        from companion.tags.payload import encode

        with self._lock:
            if self._current is not None or not self._queue:
                return
            ref = self._queue.popleft()
            self._current = encode(self.session.deck_id, self.session.deck[ref])
        self.source.present(self._sticker(ref))

    def _sticker(self, ref: str) -> Any:
        if ref not in self._stickers:
            from companion.tags.sticker import render_sticker

            dpi = round(self.scene.px_per_mm * 25.4)
            self._stickers[ref] = render_sticker(self.session.deck[ref], self.session.deck_id,
                                                 size_mm=self.scene.sticker_mm, dpi=dpi)
        return self._stickers[ref]

    def _after_session(self, event: object) -> None:
        """Pipeline thread, once the session has the event: a reported card is taken away,
        and once the pipeline has seen it go the next one comes."""
        if not isinstance(event, CardShown | CardRemoved):
            return
        with self._lock:
            if event.text != self._current:
                return
            if isinstance(event, CardShown):
                self.shown += 1
            else:
                self._current = None
        if isinstance(event, CardShown):
            self.source.clear()
        else:
            self._next()


def open_hand_camera(config: Any) -> Any:
    """The hand camera of ``[camera] source`` (validated; a bad setting raises
    :class:`~vision.errors.VisionError`). It opens in the pipeline's thread, which reports a
    missing or lost camera as a status event and keeps trying: the app shows a banner and cards
    can be chosen by touch meanwhile."""
    from vision.sources import make_source

    settings = config.validated("camera")
    return make_source(settings.source, settings)


def open_overhead_camera(config: Any) -> Any:
    """The overhead camera of ``[camera] table_source`` (a
    :class:`~vision.table_capture.TableSource`; a bad setting raises
    :class:`~vision.errors.VisionError`). It opens in its capture thread, which reports a
    missing camera and keeps trying, as for the hand camera."""
    from vision.table_capture import open_table_source

    settings = config.validated("camera")
    return open_table_source(settings.table_source, settings)


PICTURE_WIDTH = 640  # the calibration screen's picture: its frame drawn this wide, then fitted


class TableLook:
    """What the calibration screen shows of the overhead camera: the newest
    :class:`~vision.table_check.TableCheck` and its picture (the frame with the mats found
    outlined: ``latest``, BGR, and ``count``, as :class:`FrameTap` has them for the live view).

    :meth:`on_frame` is called on the camera's thread with every frame; while ``wanted`` (the
    screen is shown), one frame every ``every`` seconds is read and checked there, so the UI
    thread only draws. :meth:`update` checks a frame at once (screenshots, tests).

    >>> import numpy as np
    >>> from vision.table_capture import TableFrame
    >>> look = TableLook()
    >>> look.update(TableFrame(np.full((360, 640), 200, np.uint8), np.zeros((9, 16), np.uint8),
    ...                        "blank", 0.0))
    >>> look.count, look.check.advice, look.latest.shape
    (1, ('no_mats',), (360, 640, 3))
    """

    CHECK_EVERY = 0.5  # s: the calibration screen's pace
    PLAY_EVERY = 2.0  # s: the game's small view in the table view (the referee reads too)

    def __init__(self, every: float = CHECK_EVERY) -> None:
        self.every = every
        self.wanted = False
        self.check: Any = None
        self.latest: Any = None
        self.count = 0
        self._due = 0.0
        self._reader: Any = None
        self._lock = threading.Lock()
        self._cleared = 0  # how many times the look was cleared: a check begun before is stale

    def on_frame(self, frame: Any) -> None:
        """The camera's thread: check this frame if the screen wants one and it is time."""
        now = time.monotonic()
        if not self.wanted or now < self._due:
            return
        self._due = now + self.every
        self.update(frame)

    def update(self, frame: Any) -> None:
        """Check ``frame`` (a :class:`~vision.table_capture.TableFrame`) and draw it."""
        from vision.table import TableReader
        from vision.table_check import check_table, draw_check

        if self._reader is None:
            self._reader = TableReader()
        begun = self._cleared
        check = check_table(frame.full, reader=self._reader)
        picture = draw_check(frame.full, check, PICTURE_WIDTH)
        with self._lock:
            if self._cleared != begun:  # the screen opened afresh meanwhile: not its camera's
                return
            self.check, self.latest, self.count = check, picture, self.count + 1

    def snapshot(self) -> tuple[int, Any, Any]:
        """``(count, check, picture)`` of one and the same frame: the screen words the check
        of the very picture it shows (the picture is the frame with that check drawn)."""
        with self._lock:
            return self.count, self.check, self.latest

    def clear(self) -> None:
        """Forget the last check (a camera opened afresh shows its own), and any check still
        being made of an earlier camera's frame (it would land after this, with that camera's
        mats)."""
        with self._lock:
            self.check, self.latest, self._due = None, None, 0.0
            self._cleared += 1

    def close(self) -> None:
        """Let go of the reader (zxing-cpp's objects still alive when the interpreter ends
        are reported as "leaked" on the terminal)."""
        self.wanted, self._reader = False, None
