"""Frames for the table view: a full-resolution grayscale frame to read, a small one to watch.

The overhead camera is read at full resolution (a 20 mm sticker needs about 2.5 px per module,
docs/table-view.md) but a reading costs tens of milliseconds; motion and hands are seen on a
small frame at every tick. :class:`TableFrame` carries both.

* :class:`PiTableCamera`: a Raspberry Pi Camera Module through picamera2, with two streams of
  one camera: ``main`` at the sensor's full resolution and ``lores`` (320 × 180 by default),
  both YUV420, whose Y planes are the grayscale frames at no cost;
* :class:`StillTableSource`: any :mod:`vision.sources` source (a USB camera, a video, a folder
  of stills), each frame turned grayscale and scaled down for the small copy.

:func:`open_table_source` picks one from a ``--source``/``[camera] source`` text. Camera faults
are the same :class:`~vision.sources.CameraMissing` and :class:`~vision.sources.CameraLost` as
elsewhere.

>>> import tempfile, pathlib, cv2
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = cv2.imwrite(str(folder / "a.png"), np.zeros((720, 1280, 3), np.uint8))
>>> source = open_table_source(str(folder))
>>> source.open(); frame = source.read()
>>> frame.name, frame.full.shape, frame.small.shape
('a.png', (720, 1280), (180, 320))
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from vision.config import CameraSettings
from vision.errors import VisionError
from vision.sources import (
    CAMERA_FIX,
    CameraLost,
    CameraMissing,
    ImageFolder,
    PiCamera,
    Source,
    UsbCamera,
    make_source,
    picamera_controls,
)

SMALL_SIZE = (320, 180)


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
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found, unused-ignore]
        except ImportError as error:
            raise CameraMissing(
                f"The Pi camera cannot be used: picamera2 is not installed ({error}).",
                "On the Pi, install it with 'sudo apt install python3-picamera2' (see "
                "docs/table-view.md); elsewhere use a USB camera, a video or a folder of photos.",
            ) from None
        camera = None
        try:
            camera = Picamera2(self.index)
            full = camera.sensor_resolution
            config = camera.create_still_configuration(
                main={"size": full, "format": "YUV420"},
                lores={"size": self.small_size, "format": "YUV420"},
                buffer_count=2, queue=False)  # never hand out a stale frame
            camera.configure(config)
            camera.set_controls(picamera_controls(self.settings))
            camera.start()
        except Exception as error:  # libcamera errors have no common type
            if camera is not None:
                camera.close()  # else libcamera keeps the camera "in use"
            raise CameraMissing(f"The Pi camera did not start ({error}).", CAMERA_FIX) from None
        self._camera = camera

    def read(self) -> TableFrame:
        try:
            (main, lores), _ = self._camera.capture_arrays(["main", "lores"])
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
    kind, _, number = spec.partition(":")
    if kind in ("camera", "auto"):
        if PiCamera.available():
            return PiTableCamera(settings)
        usb = UsbCamera.indexes()
        if not usb:
            raise CameraMissing("No camera found (no Pi camera, no USB camera).", CAMERA_FIX)
        return StillTableSource(UsbCamera(settings, usb[0]))
    if kind == "picamera2":
        if number and not number.isdigit():
            raise VisionError(f"The camera source '{spec}' has a bad number.",
                              "Write e.g. picamera2:0.", key="source")
        return PiTableCamera(settings, int(number or 0))
    return StillTableSource(make_source(spec, settings, realtime=False))
