"""Frames for the table view: a full-resolution grayscale frame to read, a small one to watch.

The overhead camera is read at full resolution (a 20 mm sticker needs about 2.5 px per module,
docs/table-view.md) but a reading costs tens of milliseconds; motion and hands are seen on a
small frame at every tick. :class:`TableFrame` carries both.

* :class:`PiTableCamera`: a Raspberry Pi Camera Module through picamera2, with two streams of
  one camera: ``main`` at the sensor's full resolution and ``lores`` (320 × 180 by default),
  both YUV420, whose Y planes are the grayscale frames at no cost;
* :class:`StillTableSource`: any :mod:`vision.sources` source (a USB camera, a video, a folder
  of stills), each frame turned grayscale and scaled down for the small copy;
* :class:`FedTableSource`: frames handed in by someone else (a simulator that renders them).

:func:`open_table_source` picks one from a ``--source``/``[camera] source`` text. Camera faults
are the same :class:`~vision.sources.CameraMissing` and :class:`~vision.sources.CameraLost` as
elsewhere. :class:`TableCapture` runs a source on a thread of its own, hands each frame on and
reports the camera's condition as :class:`~vision.events.CameraStatus` events, reopening a
camera that is missing, lost or hung (:class:`vision.capture.CaptureLoop`, the hand camera's
loop too).

>>> import tempfile, pathlib, cv2
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = cv2.imwrite(str(folder / "a.png"), np.zeros((720, 1280, 3), np.uint8))
>>> source = open_table_source(str(folder))
>>> source.open(); frame = source.read()
>>> frame.name, frame.full.shape, frame.small.shape
('a.png', (720, 1280), (180, 320))
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from vision.capture import RETRY, CaptureLoop
from vision.config import CameraSettings
from vision.events import CameraState, CameraStatus
from vision.sources import (
    CAMERA_FIX,
    CameraLost,
    CameraMissing,
    ChosenCamera,
    ImageFolder,
    PiCamera,
    Source,
    UsbCamera,
    camera_spec,
    make_source,
    picamera_controls,
    start_picamera,
)
from vision.table_exposure import ShortExposure

log = logging.getLogger(__name__)

SMALL_SIZE = (320, 180)
GRAB_TIMEOUT = 5.0  # seconds a Pi camera may take to give a frame before it counts as lost


@dataclass(frozen=True)
class TableFrame:
    """One moment of the table: ``full`` (grayscale, to read), ``small`` (grayscale, for
    motion), a ``name`` (the file's name, or the frame's number) and the capture time."""

    full: np.ndarray
    small: np.ndarray
    name: str
    captured_at: float


class TableSource(Protocol):
    name: str

    def open(self) -> None: ...

    def read(self) -> TableFrame | None: ...

    def close(self) -> None: ...


SHORT_EXPOSURE_US = 8000  # the automatic exposure assumed when a frame's metadata lacks it
SETTLE_FRAMES = 8  # frames to wait for new controls to take effect (picamera2: 2-6)


class PiTableCamera:
    """A Pi Camera Module with two streams: full resolution for readings, ``lores`` for motion.

    Needs picamera2 (Raspberry Pi OS: ``sudo apt install python3-picamera2``, and a virtual
    environment made with ``--system-site-packages``). Uses the ``[camera]`` settings' frame
    rate, exposure and focus (a fixed lens position is best for a fixed mount); the main
    stream is always the sensor's full size (4608 × 2592 on a Camera Module 3).
    """

    def __init__(self, settings: CameraSettings, index: int = 0,
                 small: tuple[int, int] = SMALL_SIZE) -> None:
        self.settings, self.index, self.small_size = settings, index, small
        self.name = f"Pi camera {index} (table view)"
        self._camera: Any = None
        self._count = 0

    def open(self) -> None:
        self._camera = start_picamera(self.index, self.settings, lambda camera: (
            camera.create_still_configuration(
                main={"size": camera.sensor_resolution, "format": "YUV420"},
                lores={"size": self.small_size, "format": "YUV420"},
                buffer_count=2, queue=False)),  # never hand out a stale frame
            doc="docs/table-view.md")

    def read(self) -> TableFrame:
        try:  # picamera2 raises TimeoutError after ``wait`` seconds: a grab never hangs for ever
            (main, lores), _ = self._camera.capture_arrays(["main", "lores"], wait=GRAB_TIMEOUT)
        except Exception as error:  # libcamera errors have no common type
            raise CameraLost(f"The Pi camera stopped sending pictures ({error}).",
                             CAMERA_FIX) from None
        self._count += 1
        return TableFrame(_y_plane(main), _y_plane(lores), f"frame {self._count}",
                          time.monotonic())

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            camera.close()

    def short_exposure(self, settings: ShortExposure | None = None) -> np.ndarray:
        """One full-resolution grayscale frame at a short exposure
        (:class:`~vision.table_exposure.ShortExposure`: a fraction of the automatic exposure
        time, at its analogue gain): a glossy sleeve's highlight, clipped white at the normal
        exposure, shows the code and any card's edge under it (:mod:`vision.table_exposure`).
        The automatic exposure is read from the newest frame's metadata (``ExposureTime``,
        ``AnalogueGain``), auto-exposure switched off for the short frame, the frames in
        between skipped until one carries the exposure asked, and the camera's own controls
        set back afterwards. Raises :class:`~vision.sources.CameraMissing` when the camera is
        not open (always off the Pi), :class:`~vision.sources.CameraLost` when no such frame
        comes."""
        settings = settings or ShortExposure()
        camera = self._camera
        if camera is None:
            raise CameraMissing("The Pi camera is not open: a short exposure needs it.",
                                CAMERA_FIX)
        try:
            automatic = camera.capture_metadata(wait=GRAB_TIMEOUT)
        except Exception as error:  # libcamera errors have no common type
            raise CameraLost(f"The Pi camera gave no picture ({error}).", CAMERA_FIX) from None
        exposure_us = settings.microseconds(automatic.get("ExposureTime", SHORT_EXPOSURE_US))
        camera.set_controls({"AeEnable": False, "ExposureTime": exposure_us,
                             "AnalogueGain": automatic.get("AnalogueGain", 1.0)})
        try:
            for _ in range(SETTLE_FRAMES):  # controls take effect a few frames later
                request = camera.capture_request(wait=GRAB_TIMEOUT)
                try:
                    if abs(request.get_metadata().get("ExposureTime", 0) - exposure_us) \
                            <= 0.1 * exposure_us:
                        return _y_plane(request.make_array("main"))
                finally:
                    request.release()
        except Exception as error:  # libcamera errors have no common type
            raise CameraLost(f"The Pi camera gave no short exposure ({error}).",
                             CAMERA_FIX) from None
        finally:
            camera.set_controls({"AeEnable": self.settings.exposure is None,
                                 **picamera_controls(self.settings)})
        raise CameraLost("The Pi camera did not take the short exposure asked.", CAMERA_FIX)


def _y_plane(yuv420: np.ndarray) -> np.ndarray:
    """The luminance of a YUV420 array (height × 3/2 rows): its first two thirds."""
    rows = yuv420.shape[0] * 2 // 3
    return np.ascontiguousarray(yuv420[:rows])


class StillTableSource:
    """Table frames from any :mod:`vision.sources` source (USB camera, video, image folder)."""

    def __init__(self, source: Source, small: tuple[int, int] = SMALL_SIZE) -> None:
        self.source, self.small_size = source, small
        self.name = source.name
        self._count = 0

    def open(self) -> None:
        self.source.open()
        self._count = 0

    def read(self) -> TableFrame | None:
        import cv2

        frame = self.source.read()
        if frame is None:
            return None
        captured = time.monotonic()
        self._count += 1
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(gray, self.small_size, interpolation=cv2.INTER_AREA)
        return TableFrame(np.ascontiguousarray(gray), small, self._frame_name(), captured)

    def _frame_name(self) -> str:
        current = getattr(self.source, "current", None)
        if isinstance(self.source, ImageFolder) and current is not None:
            return str(current.relative_to(self.source.path).as_posix())
        return f"frame {self._count}"

    def close(self) -> None:
        self.source.close()


def open_table_source(spec: str, settings: CameraSettings | None = None) -> TableSource:
    """The table source ``spec`` names: ``camera`` (the Pi camera if there is one, else the
    first USB camera), ``picamera2[:N]``, ``usb[:N]``, or a video file or image folder.

    >>> open_table_source("/no/such/thing")
    Traceback (most recent call last):
    ...
    vision.errors.VisionError: The camera source '/no/such/thing' is neither a camera nor an \
existing file or folder. Use auto, picamera2, usb, usb:1, synthetic, or the path of a video or \
image folder.
    """
    settings = settings or CameraSettings()
    kind, index = camera_spec(spec) or ("", 0)
    if kind in ("camera", "auto"):
        return AutoTableCamera(settings)
    if kind == "picamera2":
        return PiTableCamera(settings, index)
    return StillTableSource(make_source(spec, settings, realtime=False))


class AutoTableCamera(ChosenCamera["TableFrame | None"]):
    """Whichever camera is there when it opens: the Pi camera (two streams), else the first
    USB camera. Choosing at each ``open()`` lets a reopening find a camera plugged in later;
    with none, ``open()`` raises :class:`~vision.sources.CameraMissing`.

    >>> camera = AutoTableCamera(CameraSettings())
    >>> camera.read()
    Traceback (most recent call last):
    ...
    vision.sources.CameraLost: The camera is not open. Check the camera's cable (connect it \
with the Pi switched off), or choose another source in [camera] (see docs/vision.md).
    """

    def __init__(self, settings: CameraSettings) -> None:
        super().__init__(settings, "camera (table view)")

    def short_exposure(self, settings: ShortExposure | None = None) -> np.ndarray:
        """The Pi camera's short exposure (:meth:`PiTableCamera.short_exposure`); a USB
        camera cannot take one (:class:`~vision.sources.CameraMissing`)."""
        if isinstance(self._camera, PiTableCamera):
            return self._camera.short_exposure(settings)
        raise CameraMissing(f"The {self.name} cannot take a short exposure (only a Pi camera "
                            "can).", CAMERA_FIX)

    def choose(self) -> PiTableCamera | StillTableSource:
        if PiCamera.available():
            return PiTableCamera(self.settings)
        if usb := UsbCamera.indexes():
            return StillTableSource(UsbCamera(self.settings, usb[0]))
        raise CameraMissing("No camera found (no Pi camera, no USB camera).", CAMERA_FIX)


class FedTableSource:
    """Frames handed in from elsewhere (:meth:`put`), e.g. a simulator rendering the table.

    :meth:`read` gives the newest frame put since the last read, waiting up to ``wait``
    seconds for one; with none it gives the last one again (the table has not changed), or
    ``None`` once :meth:`end` was called.

    >>> fed = FedTableSource("simulated overhead camera", wait=0.0)
    >>> fed.open(); fed.read() is None
    False
    >>> fed.put(TableFrame(np.zeros((4, 4), np.uint8), np.zeros((2, 2), np.uint8), "a", 0.0))
    >>> fed.read().name, fed.read().name
    ('a', 'a')
    """

    def __init__(self, name: str, wait: float = 0.5) -> None:
        self.name, self.wait = name, wait
        self._frame: TableFrame | None = None
        self._fresh = threading.Condition()
        self._new = False
        self._ended = False

    def put(self, frame: TableFrame) -> None:
        with self._fresh:
            self._frame, self._new = frame, True
            self._fresh.notify_all()

    def end(self) -> None:
        with self._fresh:
            self._ended = True
            self._fresh.notify_all()

    def open(self) -> None:
        pass

    def read(self) -> TableFrame | None:
        with self._fresh:
            if not self._new and not self._ended:
                self._fresh.wait(self.wait)
            if self._ended:
                return None
            self._new = False
            frame = self._frame
        if frame is None:  # nothing rendered yet: an empty table of the smallest size
            blank = np.zeros((2, 2), np.uint8)
            return TableFrame(blank, blank, "no frame yet", time.monotonic())
        return frame

    def close(self) -> None:
        pass


class TableCapture:
    """The overhead camera's thread: each frame of ``source`` to ``on_frame`` (on this thread).

    A frame is read once the previous one has been handled: a camera's driver keeps only its
    newest frame (picamera2 with ``queue=False``, V4L2 with one buffer), so the reader always
    gets a fresh table, and a folder or a video gives every frame once. ``latest`` and
    ``count`` are the newest frame and how many were read (for a live view).

    The thread is a :class:`~vision.capture.CaptureLoop`, as the hand camera's: the camera's
    condition goes to ``on_status`` as :class:`~vision.events.CameraStatus` events, one per
    change; a camera missing at start or lost (an error from ``open`` or ``read``) is reported
    and reopened after pauses growing from ``retry[0]`` to ``retry[1]`` seconds; a grab that
    hangs longer than ``grab_timeout`` (a USB camera can block for ever) is abandoned by the
    loop's watchdog and the camera reopened; a folder or video at its end is ``STOPPED`` and
    ``finished`` is set. An exception in ``on_frame`` is logged and the next frame read.
    :meth:`stop` ends the thread and closes the source.

    >>> import tempfile, pathlib, cv2
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("a.png", "b.png"):
    ...     _ = cv2.imwrite(str(folder / name), np.zeros((90, 160), np.uint8))
    >>> seen = []
    >>> capture = TableCapture(open_table_source(str(folder)), lambda f: seen.append(f.name))
    >>> _ = capture.start(); capture.finished.wait(10)
    True
    >>> capture.stop(); seen, capture.status.state.value
    (['a.png', 'b.png'], 'stopped')
    """

    def __init__(self, source: TableSource, on_frame: Callable[[TableFrame], object], *,
                 on_status: Callable[[CameraStatus], object] | None = None,
                 retry: tuple[float, float] = RETRY, grab_timeout: float = GRAB_TIMEOUT + 1,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.source, self.on_frame = source, on_frame
        self.name = source.name
        self.latest: TableFrame | None = None
        self.count = 0
        self.finished = threading.Event()
        self._loop = CaptureLoop(source, self._handle, on_status=on_status, on_end=self._ended,
                                 grab_timeout=grab_timeout, retry=retry, watchdog=True,
                                 clock=clock, name="table-capture")

    @property
    def status(self) -> CameraStatus | None:
        return self._loop.status

    def start(self) -> TableCapture:
        self._loop.start()
        return self

    def stop(self, timeout: float = GRAB_TIMEOUT + 1) -> None:
        """End the thread (after the frame in hand) and release the camera."""
        self._loop.stop(timeout)

    @property
    def running(self) -> bool:
        return self._loop.running

    def check(self) -> bool:
        """The watchdog's look (its thread makes it twice a second): a grab hung past its
        deadline is abandoned and the camera reopened; returns whether it was."""
        return self._loop.check()

    def _handle(self, frame: TableFrame, captured_at: float) -> None:
        self.latest, self.count = frame, self.count + 1
        try:
            self.on_frame(frame)
        except Exception:  # the user's callback must not stop the camera
            log.exception("handling a table frame failed")

    def _ended(self) -> None:
        self._loop.set_status(CameraState.STOPPED, f"The {self.name} has no more frames.")
        self.finished.set()
