"""A second look at a ferry under a glossy highlight, on a shorter exposure of the same still table.

A lamp's reflection in a sleeve can clip white over a sticker. At the camera's automatic
exposure the clipped patch hides the code's modules *and* whatever edge lies under it: a
covering card's corner beside a buried code disappears in the white, so the reader rightly says
nothing for that ferry (docs/table-view.md, "Under a glossy sleeve's highlight"). A frame taken
at a shorter exposure, at the same gain, scales all the light down: the highlight no longer
clips, and the code and any edge under it show again, on paper that is darker and noisier. It
still *adds* the same share of the paper's light, lifting the dark modules under it as much as
before (read as it comes, the short frame gave 1 more of 48 DEV top cards under a strong
highlight: docs/benchmarks.md, branch ``texpo``); but with nothing clipped that added light can
be taken off (:func:`without_highlight`) before the zone is read.

* :class:`ShortExposure`: the settings (as picamera2 takes its controls: a small object), the
  exposure as a fraction of the automatic one;
* :class:`ShortExposureCamera`: what a camera must do to give such a frame
  (``short_exposure(settings)``); :class:`vision.table_capture.PiTableCamera` does it with
  picamera2's controls, :class:`SceneCamera` with the scenes renderer; a USB camera, a video or
  a folder of stills cannot (:func:`short_exposure_camera` gives ``None`` for them);
* :func:`under_highlight`: the ferries a short exposure may help: located, no top card read, and
  a clipped patch in the card zone;
* :class:`ShortLook`: once per still table, asks the camera for the short frame when such a
  ferry exists and reads *only those ferries* on it (:func:`read_short`): the highlight's light
  taken off, the zone read by the ordinary reader
  (:meth:`vision.table.TableReader.read_ferries`, every rule of the top-card test as on any
  frame: the short frame earns no excuse), the top card's quiet zone judged again on the short
  frame as it came (taking light off cannot tell a dark surface under a highlight from paper).
  A ferry's top read there is kept only when the mat was located on the short frame where it
  was on the normal one (the table did not move between the two); every other ferry keeps the
  normal frame's reading. A camera that cannot, or fails, changes nothing.

>>> settings = ShortExposure()
>>> settings.fraction, settings.microseconds(8000)
(0.4, 3200)
>>> ShortExposure(fraction=1.5)
Traceback (most recent call last):
...
vision.errors.VisionError: A short exposure is a fraction of the automatic exposure between 0.05 \
and 1 (got 1.5).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from vision.errors import VisionError
from vision.table_kit import MAT_MM, QR_MODULES_MM, Box

if TYPE_CHECKING:
    from vision.table import FerryView, TableReader, TableReading
    from vision.table_capture import TableFrame
    from vision.table_markers import MatPose
    from vision.table_scenes import Scene

log = logging.getLogger(__name__)

SATURATED = 250
"""A Y value at or above this is clipped (picamera2's still configuration gives full-range Y)."""
CLIPPED_MODULES = 2.0
"""A clipped patch of at least this many modules' area in a card zone is a highlight there."""
MAT_REACH = 1.8
"""The card zone grown this much about its centre covers the mat and its markers."""
WHITE_WINDOW = 2.5
"""Modules across which the paper's white level is taken (:func:`without_highlight`)."""
LIFT_SMOOTHING = 2.0
"""Modules: the highlight is smooth at this scale, a code's modules and a card's edge are not."""
SAME_PLACE_MM = 2.0
"""A mat located on the short frame within this of its place on the normal one: nothing moved."""


@dataclass(frozen=True)
class ShortExposure:
    """A shorter exposure of the same still table.

    ``fraction``: the exposure time as a fraction of the automatic exposure's (0.4: a highlight
    up to 1.5 times the paper's light above it no longer clips); the analogue gain stays the
    automatic exposure's (a higher gain would add noise for nothing: the paper only needs to
    stay well above black).
    """

    fraction: float = 0.4

    def __post_init__(self) -> None:
        if not 0.05 <= self.fraction <= 1.0:
            raise VisionError("A short exposure is a fraction of the automatic exposure between "
                              f"0.05 and 1 (got {self.fraction}).")

    def microseconds(self, automatic_us: float) -> int:
        """The exposure time to ask for, given the automatic exposure's (picamera2's
        ``ExposureTime`` metadata)."""
        return max(1, round(automatic_us * self.fraction))


@runtime_checkable
class ShortExposureCamera(Protocol):
    """A camera that can give one frame of the table at a short exposure: grayscale, full
    resolution, the same size and view as its ordinary frames. It raises
    :class:`~vision.sources.CameraMissing` or :class:`~vision.sources.CameraLost` (both
    :class:`~vision.errors.VisionError`) when it cannot."""

    def short_exposure(self, settings: ShortExposure) -> np.ndarray: ...


def short_exposure_camera(source: object) -> ShortExposureCamera | None:
    """``source`` as a camera that gives short exposures, or ``None`` (a USB camera, a video, a
    folder of stills: their exposure is not ours to set).

    >>> short_exposure_camera(object()) is None
    True
    """
    return source if isinstance(source, ShortExposureCamera) else None


def under_highlight(gray: np.ndarray, reading: TableReading) -> list[int]:
    """The ferries whose mat was located, whose top card was not read, and whose card zone holds
    a clipped patch of :data:`CLIPPED_MODULES` modules or more.

    >>> from vision.table import FERRIES, FerryView, TableReading
    >>> frame = np.full((100, 100), 180, np.uint8)
    >>> zone = ((10.0, 10.0), (60.0, 10.0), (60.0, 60.0), (10.0, 60.0))
    >>> reading = TableReading({k: FerryView(seen=k == 2, zone=zone, px_per_module=4.0)
    ...                         for k in FERRIES}, noah=None)
    >>> under_highlight(frame, reading)
    []
    >>> frame[30:36, 30:36] = 255
    >>> under_highlight(frame, reading)
    [2]
    """
    return [k for k, view in sorted(reading.ferries.items())
            if view.seen and view.top is None and _clipped(gray, view)]


def _clipped(gray: np.ndarray, view: FerryView) -> bool:
    if view.zone is None or not view.px_per_module:
        return False
    left, top, right, bottom = _bounds(np.array(view.zone, np.float32), 1.0, gray.shape)
    clipped = np.count_nonzero(gray[top:bottom, left:right] >= SATURATED)
    return bool(clipped >= CLIPPED_MODULES * view.px_per_module ** 2)


def _bounds(quad: np.ndarray, grow: float, shape: tuple[int, ...]) -> Box:
    """The box of ``quad`` grown ``grow`` times about its centre, inside a frame of ``shape``."""
    centre = quad.mean(axis=0)
    grown = centre + (quad - centre) * grow
    left, top = np.floor(grown.min(axis=0)).astype(int)
    right, bottom = np.ceil(grown.max(axis=0)).astype(int) + 1
    return (max(0, int(left)), max(0, int(top)), min(shape[1], int(right)),
            min(shape[0], int(bottom)))


def read_short(reader: TableReader, short: np.ndarray, reading: TableReading,
               ferries: Sequence[int]) -> TableReading:
    """``reading`` with the top cards of ``ferries`` read on ``short``, the same still table at
    a short exposure: their mats located again there (markers searched round each mat only),
    their zones read by the ordinary reader once the highlight's added light is taken off
    (:func:`without_highlight`), and a top card kept only when its quiet zone is clear on the
    short frame as it came and on the taken-off one, and no card's corner beside it
    (:func:`_nothing_beside`). A ferry keeps the normal reading
    unless its mat lies where it was, its stickers' modules are not so small that the reader
    enlarges them (:func:`_too_small`), and all of this gives it a top card."""
    from vision.table_markers import mat_poses

    boxes = [_bounds(np.array(reading.ferries[k].zone, np.float32), MAT_REACH, short.shape)
             for k in ferries if reading.ferries[k].zone is not None]
    poses = mat_poses(reader.find_markers(short, boxes))
    still = [k for k in ferries if k in poses and _same_place(reading.ferries[k], poses[k])
             and not _too_small(reader, poses[k].px_per_mm * QR_MODULES_MM)]
    if not still:
        return reading
    flat, zones = short.copy(), {}
    for k in still:
        zones[k] = left, top, right, bottom = _bounds(
            np.array(poses[k].search_zone(), np.float32), 1.0, short.shape)
        mat = np.array(poses[k].quad(0.0, 0.0, *MAT_MM), np.float32) - (left, top)
        flat[top:bottom, left:right] = without_highlight(
            short[top:bottom, left:right], poses[k].px_per_mm * QR_MODULES_MM, mat)
    views = reader.read_ferries(flat, poses, still)
    found: dict[int, FerryView] = {}
    for k in still:
        text = views[k].top
        if text is not None and _nothing_beside(flat, short, zones[k], text):
            found[k] = replace(reading.ferries[k], top=text, codes=tuple(
                sorted({*reading.ferries[k].codes, *views[k].codes})))
    return replace(reading, ferries={**reading.ferries, **found}) if found else reading


def without_highlight(crop: np.ndarray, px_per_module: float,
                      paper: np.ndarray | None = None) -> np.ndarray:
    """``crop`` of a short exposure with a highlight's added light taken off.

    A sleeve's reflection *adds* light, smooth over many modules (6–16 mm): in linear units
    (the Y plane's 2.2 tone curve undone) the paper's white level round each point (the
    brightest within :data:`WHITE_WINDOW` modules, smoothed over :data:`LIFT_SMOOTHING`) stands
    above the unlit paper's by the highlight's light there; that lift is subtracted. The unlit
    paper's level is the white level's median inside ``paper`` (a quad in the crop: the mat,
    mostly paper and cards, a highlight on a small part of it), or over the whole crop. The
    code's own contrast, and any edge, are left as they are; nothing is ever made lighter. Only
    a frame with nothing clipped has the light to take off: that is what the short exposure is
    for.

    >>> paper = np.full((90, 120), 180, np.uint8); paper[35:55, 55:65] = 60  # a dark patch
    >>> glow = 0.3 * np.exp(-((np.arange(120) - 60) / 12.0) ** 2)  # a highlight down the middle
    >>> lit = (255 * np.clip((paper / 255) ** 2.2 + glow, 0, 1) ** (1 / 2.2)).astype(np.uint8)
    >>> flat = without_highlight(lit, 3.0)
    >>> [int(v) for v in (lit[5, 60], flat[5, 60], lit[45, 60], flat[45, 60], flat[5, 5])]
    [225, 184, 156, 102, 180]
    """
    import cv2

    linear = (crop.astype(np.float32) / 255) ** 2.2
    side = max(3, round(WHITE_WINDOW * px_per_module) | 1)
    white = cv2.dilate(linear, np.ones((side, side), np.uint8))
    white = cv2.GaussianBlur(white, (0, 0), LIFT_SMOOTHING * px_per_module)
    inside = np.ones(crop.shape, bool)
    if paper is not None:
        mask = np.zeros(crop.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(paper).astype(np.int32), 1)
        inside = mask.astype(bool) if mask.any() else inside
    lift = np.maximum(white - float(np.median(white[inside])), 0)
    flat = np.clip(linear - lift, 0, 1)
    return np.asarray(255 * flat ** (1 / 2.2) + 0.5, np.uint8)


def _nothing_beside(flat: np.ndarray, short: np.ndarray, zone: Box, text: str) -> bool:
    """Whether the code ``text``, found again in ``zone`` of ``flat`` (the short frame with the
    highlight taken off), shows nothing lying beside it: its quiet zone clear
    (:func:`vision.table_edges.quiet_zone_is_clear`) on ``short`` as it came and on ``flat``,
    and no card's corner just beyond one of its corners on ``short``
    (:func:`vision.table_corners.card_corner_beside`):

    * taking a highlight off cannot tell it from a dark surface under it (a card's dark face
      beside the code comes out as paper on ``flat``): the band is judged where nothing was
      taken off;
    * on ``short`` as it came, a highlight beside the code lifts a covering card's thin outline
      in the band to the level of the paper that the band test fits to the code's own light
      modules (issue 19's glare sweep: a squared card's corner 2.2 modules off the code's
      corner shows 0.62 module² darker than paper without a highlight, 0.5 allowed, and 0.12
      under one of 0.6 × paper): the corner look compares the card's two edges with the paper
      right beside them, which the highlight lifts alike;
    * the band on ``flat`` is a caution: where a highlight lay over the code's edge and was
      taken off, the code's own dark modules spread into the band, and such a top card is not
      taken from the short frame (on DEV none was lost; docs/benchmarks.md, branch
      ``tshort``)."""
    import zxingcpp

    from vision.table_codes import code_corners, expected_modules
    from vision.table_corners import card_corner_beside
    from vision.table_edges import quiet_zone_is_clear

    left, top, right, bottom = zone
    crop = np.ascontiguousarray(flat[top:bottom, left:right])
    formats = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
    for barcode in zxingcpp.read_barcodes(crop, formats=formats, try_downscale=True):
        if barcode.valid and barcode.text == text:
            expected = expected_modules(barcode)
            if expected is None:
                return False
            corners = code_corners(barcode)
            plain = np.ascontiguousarray(short[top:bottom, left:right])
            return (all(quiet_zone_is_clear(frame, corners, expected) for frame in (plain, crop))
                    and not card_corner_beside(plain, corners, expected))
    return False  # not found again: nothing vouches for it


def _too_small(reader: TableReader, px_per_module: float | None) -> bool:
    """Whether a mat's stickers show modules under the reader's ``enlarge_below`` (the
    2×2-binned mode, a high camera): no top card is taken from the short frame there, the
    frame's own reading stands, and no short frame is asked for such a ferry alone.

    Why: at 2.3 px per module, taking a highlight off (:func:`without_highlight`) leaves a
    covering card's edge 1–2.2 modules beside the code too faint for the reader's quiet-zone
    test, and the band and corner tests of :func:`_nothing_beside` miss it too, even judged
    on the crop enlarged 2× as the reader judges (issue 19, the short sweep at 2.3 px: 4
    buried codes named, none at 3 px; docs/benchmarks.md, branch ``tshortbin``).

    >>> from vision.table import TableReader
    >>> [_too_small(TableReader(), px) for px in (2.3, 3.0, None)]
    [True, False, False]
    """
    return px_per_module is not None and px_per_module < reader.enlarge_below


def _same_place(view: FerryView, pose: MatPose) -> bool:
    if view.centre is None:
        return False
    shift = np.hypot(pose.centre[0] - view.centre[0], pose.centre[1] - view.centre[1])
    return bool(shift <= SAME_PLACE_MM * pose.px_per_mm)


@dataclass
class ShortLook:
    """The short-exposure look of a still table (see the module's docstring): ``camera`` gives
    the short frame, ``reader`` reads it (the ordinary :class:`~vision.table.TableReader`).
    ``asked`` counts the short frames taken, ``read`` the ferries whose top they gave."""

    camera: ShortExposureCamera
    settings: ShortExposure = field(default_factory=ShortExposure)
    reader: TableReader | None = None
    asked: int = 0
    read: int = 0

    def improve(self, frame: np.ndarray, reading: TableReading) -> TableReading:
        """``reading`` (of ``frame``, a still table's) with what a short exposure adds: the top
        cards of its ferries under a highlight, when the short frame shows them whole."""
        ferries = [k for k in under_highlight(frame, reading)
                   if not _too_small(self._reader(), reading.ferries[k].px_per_module)]
        if not ferries:
            return reading
        try:
            short = self.camera.short_exposure(self.settings)
        except VisionError as error:  # the camera cannot now: the ferries stay silent
            log.warning("no short exposure of the table: %s", error)
            return reading
        self.asked += 1
        if short.shape != frame.shape:
            log.warning("the short exposure is %s, the table's frames %s: not read",
                        short.shape, frame.shape)
            return reading
        better = read_short(self._reader(), short, reading, ferries)
        self.read += sum(better.ferries[k].top is not None for k in ferries)
        return better

    def _reader(self) -> TableReader:
        if self.reader is None:
            from vision.table import TableReader

            self.reader = TableReader()
        return self.reader


class SceneCamera:
    """A table source off the Pi: ``scenes`` of :mod:`vision.table_scenes` filmed by the scenes
    renderer, one still frame each, and a short exposure of the scene last read
    (:func:`vision.table_scenes_render.render_scene` with ``exposure``): the same table, the
    same camera, fresh sensor noise.

    >>> from vision.table_scenes import Camera, Scene
    >>> table = SceneCamera([Scene(ferries=(), camera=Camera())], scale=0.05)
    >>> table.open(); frame = table.read()
    >>> frame.full.shape, table.short_exposure(ShortExposure()).shape
    ((130, 230), (130, 230))
    >>> table.read() is None
    True
    """

    def __init__(self, scenes: Iterable[Scene], scale: float = 1.0,
                 name: str = "rendered table") -> None:
        self.scenes, self.scale, self.name = list(scenes), scale, name
        self._next = 0
        self._scene: Scene | None = None

    def open(self) -> None:
        self._next = 0

    def read(self) -> TableFrame | None:
        import cv2

        from vision.table_capture import SMALL_SIZE, TableFrame
        from vision.table_scenes_render import render_scene

        if self._next >= len(self.scenes):
            return None
        self._scene = self.scenes[self._next]
        self._next += 1
        full = render_scene(self._scene, self.scale).frame
        small = cv2.resize(full, SMALL_SIZE, interpolation=cv2.INTER_AREA)
        return TableFrame(full, small, f"scene {self._scene.seed}", float(self._next))

    def close(self) -> None:
        self._scene = None

    def short_exposure(self, settings: ShortExposure) -> np.ndarray:
        """The scene last read, at ``settings.fraction`` of its exposure."""
        from vision.sources import CAMERA_FIX, CameraMissing
        from vision.table_scenes_render import render_scene

        if self._scene is None:
            raise CameraMissing("No table was filmed yet: a short exposure needs one.",
                                CAMERA_FIX)
        return render_scene(self._scene, self.scale, noise_seed=self._scene.seed + 1,
                            exposure=settings.fraction).frame

