"""The threaded pipeline: capture, decode and track without ever blocking or lagging.

Two threads. The *capture* thread reads frames and leaves each in a one-frame slot, replacing
any frame still waiting there (that one is counted as dropped): the *decode* thread therefore
always works on the newest frame, however slow decoding gets. A recording read on its own time
(:func:`~vision.sources.own_clock`: ``VideoFile(path, realtime=False)``) is the exception: its
frames wait for the decoder, none is dropped, and every time-based decision (the tracker's
confirm and gone delays, the events' times and latencies, the end) is taken on the recording's
own clock, so the same video gives the same events on any machine. The decode thread decodes the
scan zone, feeds the :class:`~vision.tracker.Tracker` and hands its events to ``on_event``
(called on the decode thread) or, without a callback, to the :attr:`Pipeline.events` queue.

Camera faults never stop it: a camera missing at start, one that fails to give a frame, or one
whose frame grab hangs for ``grab_timeout`` seconds is reported as a
:class:`~vision.events.CameraStatus` (with a plain sentence) and reopened with growing pauses
(``retry`` seconds: 0.5, 1, 2 … up to 10). The capture thread is a
:class:`~vision.capture.CaptureLoop`, the table camera's too; the decode thread is its hang
watchdog (it looks whenever it waits for a frame).

>>> from vision.events import CardShown
>>> from vision.synthetic import Scene, SyntheticSource
>>> camera = SyntheticSource(Scene(width=640, height=360, camera_height_mm=250), fps=20)
>>> with Pipeline(camera, is_ours=lambda text: text.startswith("NOAH")) as pipeline:
...     camera.present("NOAH1/BOX1/CAF2")
...     shown = pipeline.next_event(CardShown, timeout=10)
>>> shown.text, shown.in_view, shown.latency < 1
('NOAH1/BOX1/CAF2', ('NOAH1/BOX1/CAF2',), True)
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

import numpy as np

from vision.capture import RETRY, CaptureLoop
from vision.config import FULL_FRAME, CameraSettings, DecoderSettings, Roi
from vision.decoders import Decoder, make_decoder
from vision.events import (
    CameraState,
    CameraStatus,
    CodesSeen,
    Detection,
    PipelineStats,
    Point,
)
from vision.sources import Source, make_source
from vision.tracker import Tracker, TrackerSettings

E = TypeVar("E")

log = logging.getLogger(__name__)


class Pipeline:
    """Frames from ``source`` in, events out; see the module's docstring.

    ``decoder`` is a decoder name or object (default: ``[decoder]``'s defaults, zxing-cpp with
    a second look at codes it could not read), ``roi`` the scan zone (fractions of the frame),
    ``raw`` adds a :class:`~vision.events.CodesSeen` for every frame with codes in it.
    ``clock`` times the hang watcher's deadlines (``grab_timeout``): a test's fake one.
    """

    def __init__(
        self,
        source: Source,
        *,
        is_ours: Callable[[str], bool] = lambda text: True,
        on_event: Callable[[Any], None] | None = None,
        decoder: str | Decoder | None = None,
        tracker: TrackerSettings | None = None,
        roi: Roi = FULL_FRAME,
        raw: bool = False,
        grab_timeout: float = 3.0,
        retry: tuple[float, float] = RETRY,
        stats_every: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.source = source
        if decoder is None:
            decoder = DecoderSettings().decoder()
        self.decoder = make_decoder(decoder) if isinstance(decoder, str) else decoder
        self.tracker = Tracker(is_ours, tracker, clock=self.frame_clock)
        self.roi, self.raw = roi, raw
        self.grab_timeout, self.retry, self.stats_every = grab_timeout, retry, stats_every
        self.events: queue.Queue[Any] = queue.Queue()
        self._on_event = on_event or self.events.put
        self.finished = threading.Event()  # set when a file or folder has no more frames
        self._slot: tuple[np.ndarray, float] | None = None
        self._slot_changed = threading.Condition()
        self._stopping = threading.Event()
        self._ended = False
        self._decoding_at = 0.0  # the stamp of the frame being decoded (a recording's "now")
        self._capture = CaptureLoop(source, self._publish, on_status=self._emit,
                                    on_end=self._end_of_stream, grab_timeout=grab_timeout,
                                    retry=retry, clock=clock, name="vision-capture")
        self._emit_lock = threading.RLock()  # both threads emit; statuses are checked and set
        self._counts = dict(captured=0, decoded=0, dropped=0, errors=0)
        self._decode_seconds = 0.0
        self._latency_sum = self._latency_max = 0.0
        self._latency_count = 0
        self._decode_thread = threading.Thread(target=self._decode_loop, name="vision-decode",
                                               daemon=True)

    @classmethod
    def from_settings(
        cls,
        camera: CameraSettings,
        decoder: DecoderSettings | None = None,
        source: Source | None = None,
        **options: Any,
    ) -> Pipeline:
        """The pipeline that ``[camera]`` and ``[decoder]`` describe (its source, decoder,
        scan zone and tracker); ``options`` as for the constructor (``is_ours``, ``on_event``).
        A video file is read on its own time (every frame, the video's clock: ``scan``'s
        answer on a recording); a camera is live as ever.

        >>> from vision.config import camera_settings
        >>> pipeline = Pipeline.from_settings(camera_settings({"source": "synthetic"}))
        >>> pipeline.source.name, pipeline.decoder.name
        ('synthetic camera 1280×720', 'zxing+zbar')
        """
        decoder = decoder or DecoderSettings()
        return cls(
            source or make_source(camera.source, camera, realtime=False),
            decoder=decoder.decoder(),
            tracker=decoder.tracker,
            roi=camera.roi,
            **options,
        )

    # -- life cycle ---------------------------------------------------------------------

    @property
    def recorded(self) -> bool:
        """Whether the source is a recording read on its own time (no frame dropped)."""
        return self._capture.recorded

    @property
    def own_clock(self) -> Callable[[], float] | None:
        """A recording's clock: its time of the frame being decoded; ``None`` for a live source
        (see :func:`vision.sources.own_clock`)."""
        return self.frame_clock if self.recorded else None

    def frame_clock(self) -> float:
        """Now, on the clock the frames are stamped with: the real clock for a live source; for
        a recording, its time of the frame being decoded (an event's latency is then 0: it is
        decided at its frame's own time, whatever the machine's speed)."""
        return self._decoding_at if self.recorded else time.monotonic()

    @property
    def status(self) -> CameraStatus | None:
        """The camera's condition (the last :class:`~vision.events.CameraStatus` emitted)."""
        return self._capture.status

    def start(self) -> Pipeline:
        self._capture.start()
        self._decode_thread.start()
        return self

    def stop(self, timeout: float = 3.0) -> None:
        """Stop both threads (a hung capture thread is abandoned) and release the source."""
        self._stopping.set()
        with self._slot_changed:
            self._slot_changed.notify_all()
        if self._decode_thread.is_alive():
            self._decode_thread.join(timeout)
        self._capture.stop(timeout)

    def __enter__(self) -> Pipeline:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def next_event(self, kind: type[E], timeout: float) -> E | None:
        """The next event of class ``kind`` from :attr:`events` (others are skipped), or
        ``None`` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                event = self.events.get(timeout=left)
            except queue.Empty:
                return None
            if isinstance(event, kind):
                return event
        return None

    def stats(self) -> PipelineStats:
        """Counters and mean timings since the start."""
        counts = self._counts
        decoded = max(1, counts["decoded"])
        return PipelineStats(
            captured=counts["captured"],
            decoded=counts["decoded"],
            dropped=counts["dropped"],
            errors=counts["errors"],
            at=time.monotonic(),
            mean_decode_time=self._decode_seconds / decoded,
            mean_latency=self._latency_sum / max(1, self._latency_count),
            max_latency=self._latency_max,
        )

    # -- capture thread (vision.capture.CaptureLoop) --------------------------------------

    def _publish(self, frame: np.ndarray, captured_at: float) -> None:
        with self._slot_changed:
            while self.recorded and self._slot is not None and not self._stopping.is_set():
                self._slot_changed.wait()  # a recording's frame waits for the decoder
            self._counts["captured"] += 1
            if self._slot is not None:
                self._counts["dropped"] += 1  # a newer frame replaces one never decoded
            self._slot = (frame, captured_at)
            self._slot_changed.notify()

    def _end_of_stream(self) -> None:
        with self._slot_changed:
            self._ended = True
            self._slot_changed.notify()

    # -- decode thread --------------------------------------------------------------------

    def _decode_loop(self) -> None:
        next_stats = time.monotonic() + self.stats_every
        while not self._stopping.is_set():
            item = self._take_newest()
            if item is not None:
                self._process(*item)
            elif self._ended:
                self._finish()
                return
            else:
                self._watch_for_hang()
            if time.monotonic() >= next_stats:
                next_stats += self.stats_every
                self._emit(self.stats())
        self._emit(self.stats())

    def _take_newest(self) -> tuple[np.ndarray, float] | None:
        with self._slot_changed:
            if self._slot is None and not self._ended and not self._stopping.is_set():
                self._slot_changed.wait(timeout=0.2)
            item, self._slot = self._slot, None
            self._slot_changed.notify()  # a recording's next frame may be waiting for the slot
            return item

    def _process(self, frame: np.ndarray, captured_at: float) -> None:
        self._decoding_at = captured_at
        started = time.perf_counter()
        try:
            detections = self.decode(frame)
        except Exception:  # a frame the decoder chokes on is skipped, counted
            log.exception("decoding a frame failed")
            self._counts["errors"] += 1
            return
        decode_time = time.perf_counter() - started
        self._counts["decoded"] += 1
        self._decode_seconds += decode_time
        if self.raw and detections:
            self._emit(CodesSeen(tuple(detections), captured_at, self.frame_clock() - captured_at,
                                 self.tracker.frame + 1, decode_time))
        for event in self.tracker.update((d.text for d in detections), captured_at):
            self._emit(event)

    def decode(self, frame: np.ndarray) -> list[Detection]:
        """The codes in the scan zone of one frame, with corners in whole-frame pixels."""
        if self.roi == FULL_FRAME:
            return self.decoder.decode(frame)
        height, width = frame.shape[:2]
        left, top, zone_w, zone_h = self.roi
        x, y = round(left * width), round(top * height)
        zone = frame[y : y + max(1, round(zone_h * height)), x : x + max(1, round(zone_w * width))]
        return [replace(d, corners=_moved(d.corners, x, y)) for d in self.decoder.decode(zone)]

    def _watch_for_hang(self) -> None:
        self._capture.check()  # a hung grab: that thread retired, the camera reopened

    def _finish(self) -> None:
        for event in self.tracker.finish(self.frame_clock()):
            self._emit(event)
        self._capture.set_status(CameraState.STOPPED,
                                 f"The {self.source.name} has no more frames.")
        self._emit(self.stats())
        self.finished.set()

    # -- events -----------------------------------------------------------------------------

    def _emit(self, event: Any) -> None:
        latency = getattr(event, "latency", None)
        if latency is not None:
            self._latency_count += 1
            self._latency_sum += latency
            self._latency_max = max(self._latency_max, latency)
        with self._emit_lock:  # one event at a time, whichever thread reports it
            try:
                self._on_event(event)
            except Exception:  # the user's callback must not kill the pipeline
                log.exception("the vision event callback failed on %r", event)


def _moved(corners: tuple[Point, Point, Point, Point], x: float,
           y: float) -> tuple[Point, Point, Point, Point]:
    """Corners found in the scan zone, in whole-frame pixels."""
    a, b, c, d = ((cx + x, cy + y) for cx, cy in corners)
    return a, b, c, d
