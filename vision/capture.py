"""One camera's capture thread, kept alive: retries, growing pauses, status, a hang watchdog.

Both cameras run on it: the hand camera's :class:`~vision.pipeline.Pipeline` and the table
camera's :class:`~vision.table_capture.TableCapture`. A :class:`CaptureLoop` reads frames from
a source on a thread of its own and hands each to ``deliver(frame, captured_at)`` on that
thread; ``captured_at`` is the real clock's time of the read, or, for a recording read on its
own time (:func:`~vision.sources.own_clock`), the recording's time of the frame. Camera faults
never stop it: a camera missing at start or one that fails to give a
frame (:class:`~vision.sources.CameraMissing`, :class:`~vision.sources.CameraLost`, or anything
else) is reported as a :class:`~vision.events.CameraStatus` (one per change, with a plain
sentence) and reopened after pauses growing from ``retry[0]`` to ``retry[1]`` seconds.

**The watchdog.** A USB camera or a driver can block a grab for ever. Each open and each read
gets a deadline (``grab_timeout``; three times that to open); :meth:`CaptureLoop.check`, called
by a watcher (the pipeline's decode thread while it waits, or the loop's own watchdog thread),
retires a capture thread stuck past its deadline and starts a fresh one, which closes the hung
camera itself before it opens it again: the source is opened and closed under one lock, by the
thread that owns it, so a late close can never hit the reopened camera. The time to handle a
frame (``deliver``) is not a grab and is never counted.

>>> import numpy as np
>>> class Two:
...     name = "two frames"
...     def __init__(self): self.left = 2
...     def open(self): pass
...     def read(self):
...         self.left -= 1
...         return np.zeros((2, 2), np.uint8) if self.left >= 0 else None
...     def close(self): pass
>>> seen, ended = [], threading.Event()
>>> loop = CaptureLoop(Two(), lambda frame, at: seen.append(frame.shape), on_end=ended.set)
>>> loop.start(); ended.wait(10)
True
>>> loop.stop(); seen, loop.status.state.value
([(2, 2), (2, 2)], 'ok')
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from vision.events import CameraState, CameraStatus, state_after_fault
from vision.sources import CameraMissing, own_clock

log = logging.getLogger(__name__)

FrameT = TypeVar("FrameT")
FrameT_co = TypeVar("FrameT_co", covariant=True)
RETRY = (0.5, 10.0)  # seconds before the first reopening of a missing or lost camera, and at most
WATCH_EVERY = 0.5  # seconds between two looks of the loop's own watchdog thread
OPENING = 3  # opening a camera may take this many grab timeouts


class FrameSource(Protocol[FrameT_co]):
    """A camera, video or folder: ``read`` gives the next frame, ``None`` at the end."""

    name: str

    def open(self) -> None: ...

    def read(self) -> FrameT_co | None: ...

    def close(self) -> None: ...


class CaptureLoop(Generic[FrameT]):
    """Frames of ``source`` to ``deliver`` on a capture thread, faults reported and retried,
    hung grabs abandoned (see the module's docstring).

    ``on_status(status)``: each change of the camera's condition; ``on_end()``: the source has
    no more frames (a video or folder; the thread then ends). ``watchdog``: run a thread that
    calls :meth:`check` every :data:`WATCH_EVERY` seconds (else the owner calls it). ``clock``:
    the deadlines' clock (a test's fake one).
    """

    def __init__(self, source: FrameSource[FrameT],
                 deliver: Callable[[FrameT, float], object], *,
                 on_status: Callable[[CameraStatus], object] | None = None,
                 on_end: Callable[[], object] | None = None,
                 grab_timeout: float = 3.0, retry: tuple[float, float] = RETRY,
                 watchdog: bool = False, clock: Callable[[], float] = time.monotonic,
                 name: str = "capture") -> None:
        self.source, self.deliver = source, deliver
        self.on_status, self.on_end = on_status, on_end
        self.grab_timeout, self.retry, self.clock, self.name = grab_timeout, retry, clock, name
        self.status: CameraStatus | None = None
        self.frames_since_open = 0
        recording = own_clock(source)
        #: Whether the source is a recording read on its own time (its frames' owner keeps
        #: every one); ``frame_clock`` stamps the frames: the recording's clock, else the real one.
        self.recorded = recording is not None
        self.frame_clock: Callable[[], float] = recording or time.monotonic
        self._watchdog = watchdog
        self._stopping = threading.Event()
        self._generation = 0  # bumped to retire a hung capture thread
        self._source_lock = threading.Lock()  # the source is opened or closed by one thread
        self._owner = 0  # the generation whose thread opened the source (0: closed)
        self._deadline = float("inf")  # when the current open or read counts as hung
        self._status_lock = threading.RLock()
        self._check_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._watcher: threading.Thread | None = None

    # -- life cycle ---------------------------------------------------------------------------

    def start(self, delay: float = 0.0) -> None:
        """Start reading (after ``delay`` seconds); with ``watchdog``, its watcher too."""
        self._start_capture(delay)
        if self._watchdog and self._watcher is None:
            self._watcher = threading.Thread(target=self._watch, name=f"{self.name}-watchdog",
                                             daemon=True)
            self._watcher.start()

    def stop(self, timeout: float = 3.0) -> None:
        """Stop reading and release the camera (a thread still stuck in a grab is abandoned,
        and its camera left alone: closing it under the grab could crash the driver)."""
        self._stopping.set()
        thread = self._thread
        if thread is not None and thread.is_alive() and thread is not threading.current_thread():
            thread.join(timeout)
        if thread is None or not thread.is_alive():
            _close_quietly(self.source)
        if self._watcher is not None and self._watcher is not threading.current_thread():
            self._watcher.join(timeout)

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    @property
    def running(self) -> bool:
        """Whether the current capture thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    # -- the watchdog -------------------------------------------------------------------------

    def check(self) -> bool:
        """If the capture thread is stuck in an open or a read past its deadline: report the
        camera lost, retire that thread (it may never return) and start a fresh one, which
        reopens the camera after ``retry[0]`` seconds. Returns whether it did."""
        with self._check_lock:  # two watchers never retire the same thread twice
            if self._stopping.is_set() or self.clock() < self._deadline:
                return False
            status = self.status
            state = CameraState.LOST if status is None or status.ok \
                else CameraState.RECONNECTING
            first = self.retry[0]
            self.set_status(state, f"The camera ({self.source.name}) stopped answering. "
                            f"Trying again in {first:g} s.", retry_in=first)
            self._start_capture(delay=first)
            return True

    def _watch(self) -> None:
        while not self._stopping.wait(WATCH_EVERY):
            self.check()

    # -- the capture thread -------------------------------------------------------------------

    def _start_capture(self, delay: float) -> None:
        self._generation += 1
        self._deadline = float("inf")
        self._thread = threading.Thread(target=self._run, args=(self._generation, delay),
                                        name=f"{self.name}-{self._generation}", daemon=True)
        self._thread.start()

    def _current(self, generation: int) -> bool:
        return generation == self._generation and not self._stopping.is_set()

    def _run(self, generation: int, delay: float) -> None:
        first, most = self.retry
        pause = first
        if delay and self._stopping.wait(delay):
            return
        while self._current(generation):
            self.frames_since_open = 0
            try:
                self._deadline = self.clock() + OPENING * self.grab_timeout
                if not self._open(generation):
                    return
                self._read_frames(generation)
                return  # the source ended, or this thread was retired or stopped
            except Exception as error:  # any camera failure is reported, then retried
                if not self._current(generation):
                    return
                if self.frames_since_open:
                    pause = first  # it worked for a while: start the pauses afresh
                self._deadline = float("inf")  # pausing before a retry is not hanging
                self._close(generation)
                self._report_fault(error, pause)
            if self._stopping.wait(pause):
                return
            pause = min(most, pause * 2)

    def _open(self, generation: int) -> bool:
        """Open the source for this thread, first closing what a retired (hung) thread left
        open; False if this thread was retired meanwhile."""
        with self._source_lock:
            if not self._current(generation):
                return False
            if self._owner not in (0, generation):
                _close_quietly(self.source)  # the hung thread's camera, before reopening it
            self._owner = generation  # claimed before opening: a failed open is closed too
            self.source.open()
        return True

    def _close(self, generation: int) -> None:
        """Close the source after a fault, unless a newer thread owns it by now."""
        with self._source_lock:
            if self._owner == generation:
                _close_quietly(self.source)
                self._owner = 0

    def _read_frames(self, generation: int) -> None:
        while self._current(generation):
            self._deadline = self.clock() + self.grab_timeout
            frame = self.source.read()
            captured_at = self.frame_clock()
            self._deadline = float("inf")  # handling a frame is not grabbing one
            if not self._current(generation):
                return
            if frame is None:
                if self.on_end is not None:
                    self.on_end()
                return
            if self.status is None or not self.status.ok:
                self.set_status(CameraState.OK, f"The camera ({self.source.name}) is working.")
            self.frames_since_open += 1
            self.deliver(frame, captured_at)

    # -- status ---------------------------------------------------------------------------------

    def _report_fault(self, error: Exception, pause: float) -> None:
        what = getattr(error, "what", None) or f"The camera failed ({error})."
        state = state_after_fault(self.status, missing=isinstance(error, CameraMissing))
        self.set_status(state, f"{what} Trying again in {pause:g} s.", retry_in=pause)

    def set_status(self, state: CameraState, message: str,
                   retry_in: float | None = None) -> None:
        """The camera's condition is now ``state``: told once per change (not per retry)."""
        with self._status_lock:
            if self.status is not None and self.status.state is state:
                return
            self.status = CameraStatus(state, message, at=time.monotonic(),
                                       source=self.source.name, retry_in=retry_in)
            if self.on_status is not None:
                try:
                    self.on_status(self.status)
                except Exception:  # the owner's callback must not stop the camera
                    log.exception("the camera status callback failed on %r", self.status)


def _close_quietly(source: FrameSource[Any]) -> None:
    try:
        source.close()
    except Exception:  # a camera already gone may fail to close
        log.debug("closing %s failed", getattr(source, "name", source), exc_info=True)
