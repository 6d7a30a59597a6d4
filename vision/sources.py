"""Where frames come from, behind one small interface.

A source has a ``name`` and three methods: ``open()``, ``read()`` (the next BGR frame as a numpy
array, or ``None`` when a file or folder has no more) and ``close()``. A camera that cannot be
opened raises :class:`CameraMissing`; one that stops giving frames raises :class:`CameraLost`.
The pipeline catches both, reports them and reconnects.

* :class:`PiCamera`: a Pi Camera Module through picamera2 (OpenCV cannot drive libcamera
  cameras on Bookworm);
* :class:`UsbCamera`: a USB webcam through OpenCV's V4L2 back end;
* :class:`VideoFile`: a recorded video, paced at its own rate or read on its own time
  (every frame, stamped with the video's time: :func:`own_clock`);
* :class:`ImageFolder`: every image in a folder, in name order;
* :class:`vision.synthetic.SyntheticSource`: the virtual table.

:func:`open_source` picks one from ``[camera] source`` (``auto``: the Pi camera if there is one,
else the first USB camera).

>>> source = make_source("synthetic", CameraSettings(width=320, height=240, fps=0))
>>> source.open(); source.read().shape
(240, 320, 3)
"""

from __future__ import annotations

import glob
import logging
import re
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, cast

import numpy as np

from vision.config import CameraSettings
from vision.errors import VisionError

log = logging.getLogger(__name__)
FrameT = TypeVar("FrameT")

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")
#: The largest image a folder scan decodes. A 48-megapixel phone photo fits; a small file that
#: claims 16000×16000 pixels (1.5 GB once decoded) is skipped on the size in its header.
MAX_IMAGE_PIXELS = 50_000_000
MAX_IMAGE_BYTES = 200_000_000  # a 50-megapixel PNG is well under this
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v")


class Source(Protocol):
    """Anything that gives frames."""

    name: str

    def open(self) -> None: ...

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


class Recording(Source, Protocol):
    """A source read on its own time (``recorded`` true; see :func:`own_clock`):
    ``frame_time`` is the recording's time of the frame last read, in seconds."""

    recorded: bool
    frame_time: float


class CameraMissing(VisionError):
    """No camera answered when the source was opened."""


class CameraLost(VisionError):
    """The camera was open but a frame could not be read."""


class PiCamera:
    """A Raspberry Pi Camera Module through picamera2 (Debian package ``python3-picamera2``)."""

    def __init__(self, settings: CameraSettings, index: int = 0) -> None:
        self.settings, self.index = settings, index
        self.name = f"Pi camera {index}"
        self._camera: Any = None

    @staticmethod
    def available() -> bool:
        """True when picamera2 is installed and libcamera lists a camera."""
        try:
            from picamera2 import Picamera2  # Pi only (mypy: pyproject ignores its absence)
        except ImportError:
            return False
        return bool(Picamera2.global_camera_info())

    def open(self) -> None:
        size = (self.settings.width, self.settings.height)
        # "RGB888" is laid out B, G, R in memory: the order OpenCV and the decoders expect
        self._camera = start_picamera(self.index, self.settings, lambda camera: (
            camera.create_video_configuration(main={"size": size, "format": "RGB888"})))

    def read(self) -> np.ndarray:
        try:
            frame: np.ndarray = self._camera.capture_array("main")
        except Exception as error:  # libcamera errors have no common type
            raise CameraLost(f"The Pi camera stopped sending pictures ({error}).",
                             CAMERA_FIX) from None
        return frame

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            camera.close()  # releases libcamera's pipeline handler for the next start


def start_picamera(index: int, settings: CameraSettings, configuration: Callable[[Any], Any], *,
                   doc: str = "docs/vision.md") -> Any:
    """A started ``Picamera2(index)`` with ``configuration(camera)`` and the ``[camera]``
    controls: the one opener of the hand camera and the table camera. Off the Pi, or when the
    camera does not start, :class:`CameraMissing` says what to do (``doc``: where it is told);
    a camera that failed half-way is closed, else libcamera keeps it "in use"."""
    try:
        from picamera2 import Picamera2  # Pi only (mypy: pyproject ignores its absence)
    except ImportError as error:
        raise CameraMissing(
            f"The Pi camera cannot be used: picamera2 is not installed ({error}).",
            f"On the Pi, install it with 'sudo apt install python3-picamera2' (see {doc}); "
            "elsewhere use a USB camera, a video or a folder of photos.",
        ) from None
    camera = None
    try:
        camera = Picamera2(index)
        camera.configure(configuration(camera))
        camera.set_controls(picamera_controls(settings))
        camera.start()
    except Exception as error:  # libcamera errors have no common type
        if camera is not None:
            camera.close()  # else libcamera keeps the camera "in use" until the process ends
        raise CameraMissing(f"The Pi camera did not start ({error}).", CAMERA_FIX) from None
    return camera


def picamera_controls(settings: CameraSettings) -> dict[str, Any]:
    """picamera2 controls for the ``[camera]`` settings: frame rate, fixed exposure, lens focus.

    Shared by the hand camera and the table camera, so both honour ``[camera]`` the same way.

    >>> picamera_controls(CameraSettings(fps=15.0, focus=1.33))
    {'FrameRate': 15.0, 'AfMode': 0, 'LensPosition': 1.33}
    """
    controls: dict[str, Any] = {"FrameRate": settings.fps}
    if settings.exposure is not None:
        controls.update(AeEnable=False, ExposureTime=round(settings.exposure * 1000))
    if settings.focus is not None:  # Camera Module 3 only; 0 = manual autofocus mode
        controls.update(AfMode=0, LensPosition=settings.focus)
    return controls


class UsbCamera:
    """A USB webcam through OpenCV (V4L2)."""

    def __init__(self, settings: CameraSettings, index: int = 0) -> None:
        self.settings, self.index = settings, index
        self.name = f"USB camera {index}"
        self._capture: Any = None

    @staticmethod
    def indexes(sysfs: str = "/sys/class/video4linux") -> list[int]:
        """The numbers of the USB webcams present (``/dev/videoN``), capture nodes only.

        A Pi lists its codec and ISP as video devices too (``/dev/video10``…), and a UVC webcam
        adds a metadata node beside its capture node, so only ``uvcvideo`` devices whose
        ``index`` is 0 count.
        """
        found = []
        for node in glob.glob(f"{sysfs}/video[0-9]*"):
            driver = Path(node, "device", "driver").resolve().name
            index = Path(node, "index")
            if driver == "uvcvideo" and (not index.exists() or index.read_text().strip() == "0"):
                found.append(int(Path(node).name[len("video"):]))
        return sorted(found)

    def open(self) -> None:
        import cv2

        if not Path(f"/dev/video{self.index}").exists():  # spare OpenCV's warnings
            raise CameraMissing(f"No USB camera is plugged in as number {self.index}.",
                                CAMERA_FIX)
        capture = cv2.VideoCapture(self.index, cv2.CAP_V4L2)
        if not capture.isOpened():
            capture.release()
            raise CameraMissing(f"No USB camera answers as number {self.index}.", CAMERA_FIX)
        settings = self.settings
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, settings.width)
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, settings.height)
        capture.set(cv2.CAP_PROP_FPS, settings.fps)
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # keep no stale frames in the driver
        if settings.exposure is not None:  # V4L2: 1 is manual, in units of 0.1 ms
            capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)
            capture.set(cv2.CAP_PROP_EXPOSURE, settings.exposure * 10)
        if settings.focus is not None:  # V4L2's focus_absolute, in the webcam's own units
            capture.set(cv2.CAP_PROP_AUTOFOCUS, 0)
            capture.set(cv2.CAP_PROP_FOCUS, settings.focus)
        self._capture = capture

    def read(self) -> np.ndarray:
        ok, frame = self._capture.read()
        if not ok:
            raise CameraLost(f"The USB camera {self.index} stopped sending pictures.",
                             CAMERA_FIX)
        grabbed: np.ndarray = frame
        return grabbed

    def close(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()


class VideoFile:
    """A recorded video: paced at its own rate on the real clock (``realtime``, the app's hand
    camera replaying a file), or read **on its own time** (``realtime=False``): as fast as it
    decodes, every frame kept and stamped with the video's time (see :func:`own_clock`), so a
    check of the recording gives the same events on any machine.

    ``frame_time``: the video's time of the frame last read, in seconds from its start (the
    container's timestamp, else frame number / frame rate).
    """

    def __init__(self, path: str | Path, realtime: bool = True) -> None:
        self.path, self.realtime = Path(path), realtime
        self.recorded = not realtime  # read on its own time: see own_clock()
        self.name = f"video {self.path.name}"
        try:
            str(self.path).encode("utf-8")
        except UnicodeEncodeError:  # OpenCV would crash the whole process on such a name
            raise VisionError(f"The video {str(self.path)!r} has a file name that is not UTF-8 "
                              "text, which OpenCV cannot open.", "Rename the file.",
                              key="source") from None
        self._capture: Any = None
        self._next = 0.0
        self._interval = 0.0
        self._fps = 0.0
        self._frames = 0  # frames read since opening
        self.frame_time = 0.0

    def open(self) -> None:
        import cv2

        capture = cv2.VideoCapture(str(self.path))
        if not capture.isOpened():
            raise VisionError(f"The video {self.path} cannot be read.",
                              "Check the path; OpenCV reads e.g. .mp4, .avi and .mkv files.")
        fps = capture.get(cv2.CAP_PROP_FPS) or 0.0
        self._fps = fps if fps > 0 else DEFAULT_VIDEO_FPS
        self._interval = 1 / fps if self.realtime and fps > 0 else 0.0
        self._next = time.monotonic()
        self._frames, self.frame_time = 0, 0.0
        self._capture = capture

    def read(self) -> np.ndarray | None:
        if self._interval:
            self._next = max(self._next + self._interval, time.monotonic())
            time.sleep(max(0.0, self._next - time.monotonic()))
        ok, frame = self._capture.read()
        if not ok:
            return None
        self.frame_time = video_time(self._capture, self._frames, self._fps, self.frame_time)
        self._frames += 1
        decoded: np.ndarray = frame
        return decoded

    def close(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()


#: The frame rate assumed for a video whose file gives none (its frames' times, then).
DEFAULT_VIDEO_FPS = 25.0


def video_time(capture: Any, index: int, fps: float, previous: float) -> float:
    """The time of the frame just read from an OpenCV ``capture``, in seconds: the container's
    timestamp (right for a phone's variable frame rate), else ``index / fps``; never before
    the ``previous`` frame's time (a container without timestamps answers 0).

    >>> class NoTimestamps:
    ...     def get(self, prop): return 0.0
    >>> [video_time(NoTimestamps(), index, 25.0, 0.0) for index in range(3)]
    [0.0, 0.04, 0.08]
    """
    import cv2

    # rounded to the microsecond: 0.6, not 0.6000000000000001
    stamp = round(float(capture.get(cv2.CAP_PROP_POS_MSEC)) / 1000, 6)
    if index and stamp <= previous:
        stamp = round(index / fps, 6)
    return max(stamp, previous)


def own_clock(source: object) -> Callable[[], float] | None:
    """The clock of a source read **on its own time** (a recording such as
    ``VideoFile(path, realtime=False)``): it gives the recording's time of the frame last read.
    ``None`` for a live source (a camera, a paced video, the synthetic table), whose frames are
    stamped with the real clock when read.

    This is the one place that tells a recording from a live source: the capture loop stamps a
    recording's frames with this clock, and the pipeline then drops none of them and decides
    every time-based thing (the tracker's confirm and gone delays, the events' times) on it.

    >>> own_clock(VideoFile("table.mp4")) is None, own_clock(VideoFile("table.mp4", False))()
    (True, 0.0)
    """
    if not getattr(source, "recorded", False):
        return None
    recording = cast(Recording, source)
    return lambda: recording.frame_time


class ImageUnreadable(VisionError):
    """An image file that cannot be decoded, or that is too large to be."""


def read_image(path: Path, grayscale: bool = False) -> np.ndarray:
    """Decode one image file (BGR, or grey), after checking the size its header announces
    against :data:`MAX_IMAGE_PIXELS`; :class:`ImageUnreadable` says which file and why.

    >>> read_image(Path("no-such.png"))
    Traceback (most recent call last):
    ...
    vision.sources.ImageUnreadable: no-such.png cannot be read: no such file.
    """
    import cv2
    from PIL import Image

    if not path.is_file():  # a folder or a pipe named *.png: opening a pipe could hang
        raise ImageUnreadable(f"{path} cannot be read: "
                              + ("it is not a regular file." if path.exists() else "no such file."))
    try:
        with warnings.catch_warnings():  # our own limit applies, not Pillow's warning
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:  # reads the header only, never the pixels
                width, height = image.size
    except Image.DecompressionBombError:  # Pillow's own limit, far above ours
        raise _too_large(path, f"over {2 * (Image.MAX_IMAGE_PIXELS or 0) // 10**6} million "
                         "pixels") from None
    except (OSError, SyntaxError, ValueError) as error:  # what Pillow raises for a bad file
        raise ImageUnreadable(f"{path} is not an image this program can read "
                              f"({error}).") from None
    if width * height > MAX_IMAGE_PIXELS:
        raise _too_large(path, f"{width}×{height} pixels")
    size = path.stat().st_size
    if size > MAX_IMAGE_BYTES:
        raise _too_large(path, f"{size // 1_000_000} MB")
    # The bytes are read here, not by cv2.imread: OpenCV crashes the whole process on a file
    # name that is not UTF-8 (a photo copied from another system).
    data = np.fromfile(path, np.uint8)
    frame = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE if grayscale else cv2.IMREAD_COLOR)
    if frame is None:
        raise ImageUnreadable(f"{path} is damaged or in a form OpenCV cannot decode.")
    decoded: np.ndarray = frame
    return decoded


def _too_large(path: Path, size: str) -> ImageUnreadable:
    return ImageUnreadable(f"{path} is {size}, more than a scan decodes "
                           f"({MAX_IMAGE_PIXELS // 1_000_000} megapixels, "
                           f"{MAX_IMAGE_BYTES // 1_000_000} MB).",
                           "Scale it down: a card needs far fewer pixels.")


class ImageFolder:
    """Every image in a folder (and its sub-folders), in name order, once each.

    A file that cannot be decoded (damaged, not an image, too large) is skipped, never in
    silence: ``on_skip`` is called with its :class:`ImageUnreadable` (by default it is logged as
    a warning), and ``skipped`` keeps them.
    """

    def __init__(self, path: str | Path,
                 on_skip: Callable[[ImageUnreadable], None] | None = None) -> None:
        self.path = Path(path)
        self.name = f"folder {self.path.name}"
        self.files = image_files(self.path)
        self.current: Path | None = None  # the file of the last frame read
        self.skipped: list[ImageUnreadable] = []
        self.on_skip = on_skip
        self._next = 0

    def open(self) -> None:
        self._next = 0

    def read(self) -> np.ndarray | None:
        while self._next < len(self.files):
            self.current = self.files[self._next]
            self._next += 1
            try:
                return read_image(self.current)
            except ImageUnreadable as problem:
                self.skipped.append(problem)
                if self.on_skip is not None:
                    self.on_skip(problem)
                else:
                    log.warning("skipped %s", problem)
        return None

    def close(self) -> None:
        pass


def image_files(folder: Path) -> list[Path]:
    """The image files under ``folder``, sorted by path."""
    if not folder.is_dir():
        raise VisionError(f"The folder {folder} does not exist.", "Check the path.")
    files = sorted(p for p in folder.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise VisionError(f"The folder {folder} holds no images.",
                          f"Put {', '.join(IMAGE_SUFFIXES)} files in it.")
    return files


_CAMERA_NUMBER = re.compile(r"[0-9]{1,3}")
# What to do when a camera is missing or lost: said by every camera source, hand or table.
CAMERA_FIX = ("Check the camera's cable (connect it with the Pi switched off), or choose "
               "another source in [camera] (see docs/vision.md).")


#: The source names that are cameras (``camera`` is ``auto``'s other name, as in table scan).
CAMERA_KINDS = ("auto", "camera", "picamera2", "usb")
_SOURCES_FIX = ("Use auto, picamera2, usb, usb:1, synthetic, or the path of a video or image "
                "folder.")


def camera_spec(spec: str) -> tuple[str, int] | None:
    """The camera a source names, as ``(kind, index)``: one of :data:`CAMERA_KINDS` with an
    optional ``:N`` (a bare ``N`` is ``usb:N``); ``None`` when it names no camera (a video, a
    folder, ``synthetic``). The one parser of camera names, the hand's and the table's.

    >>> camera_spec("picamera2:1"), camera_spec("3"), camera_spec("auto"), camera_spec("a.mp4")
    (('picamera2', 1), ('usb', 3), ('auto', 0), None)
    >>> camera_spec("picamera2:²")  # not str.isdigit(): it takes "²", which int() then refuses
    Traceback (most recent call last):
    ...
    vision.errors.VisionError: The camera source 'picamera2:²' has a bad number. Write e.g. \
usb:0 or picamera2:0.
    >>> camera_spec("")
    Traceback (most recent call last):
    ...
    vision.errors.VisionError: No source given (an empty name). Use auto, picamera2, usb, usb:1, \
synthetic, or the path of a video or image folder.
    """
    if not spec.strip():  # Path("") is the current folder: never read it by accident
        raise VisionError("No source given (an empty name).", _SOURCES_FIX, key="source")
    if _CAMERA_NUMBER.fullmatch(spec):
        return "usb", int(spec)
    kind, colon, number = spec.partition(":")
    if kind not in CAMERA_KINDS:
        return None
    if colon and not _CAMERA_NUMBER.fullmatch(number):
        raise VisionError(f"The camera source {spec!r} has a bad number.",
                          "Write e.g. usb:0 or picamera2:0.", key="source")
    return kind, int(number or 0)


def make_source(spec: str, settings: CameraSettings, *, realtime: bool = True) -> Source:
    """The source that ``spec`` names (``[camera] source`` or ``scan --source``).

    ``auto``, ``picamera2`` (or ``picamera2:N``), ``usb`` (or ``usb:N``, or just ``N``),
    ``synthetic``, or the path of a video file or of a folder of images (see
    :func:`camera_spec`). ``realtime``: a video file is paced at its own rate on the real clock
    (the app's hand camera replaying one); ``False`` reads it on its own time (``scan`` and
    ``tags check``: the recording's answer, the same on any machine; see :func:`own_clock`).
    """
    camera = camera_spec(spec)
    if camera is not None:
        kind, index = camera
        if kind == "picamera2":
            return PiCamera(settings, index)
        if kind == "usb":
            return UsbCamera(settings, index)
        return AutoCamera(settings)
    if spec.partition(":")[0] == "synthetic":
        from vision.synthetic import Scene, SyntheticSource

        return SyntheticSource(Scene(width=settings.width, height=settings.height), settings.fps)
    path = Path(spec).expanduser()
    try:
        if path.is_dir():
            return ImageFolder(path)
        if path.is_file():
            return VideoFile(path, realtime=realtime)
    except OSError as error:  # e.g. a name too long for the file system
        raise VisionError(f"The camera source cannot be opened: {error.strerror}.",
                          _SOURCES_FIX, key="source") from None
    raise VisionError(
        f"The camera source {spec[:80]!r} is neither a camera nor an existing file or folder.",
        _SOURCES_FIX, key="source",
    )


class ChosenCamera(Generic[FrameT]):
    """A camera chosen when it opens (:meth:`choose`, by a subclass), so that reopening finds
    one plugged in later; ``read`` and ``close`` go to the camera chosen."""

    def __init__(self, settings: CameraSettings, name: str = "camera") -> None:
        self.settings, self.name = settings, name
        self._camera: Any = None

    def choose(self) -> Any:
        """The camera to open now (raises :class:`CameraMissing` when there is none)."""
        raise NotImplementedError

    def open(self) -> None:
        camera = self.choose()
        camera.open()
        self._camera, self.name = camera, camera.name

    def read(self) -> FrameT:
        if self._camera is None:
            raise CameraLost("The camera is not open.", CAMERA_FIX)
        frame: FrameT = self._camera.read()
        return frame

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            camera.close()


class AutoCamera(ChosenCamera[np.ndarray]):
    """Whichever camera is there when it opens: the Pi camera, else the first USB camera.

    Choosing at each ``open()`` lets the pipeline's reconnection find a camera plugged in later.
    """

    def choose(self) -> PiCamera | UsbCamera:
        usb = UsbCamera.indexes()
        if PiCamera.available():
            return PiCamera(self.settings)
        if usb:
            return UsbCamera(self.settings, usb[0])
        raise CameraMissing("No camera found (no Pi camera, no USB camera).", CAMERA_FIX)
