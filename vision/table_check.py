"""Is the overhead camera set up well? What the app's calibration screen shows, without words.

The table kit (``../shared/TABLE-KIT.md``) fixes two sizes the camera's detail can be measured
with: every marker's black square is 20 mm, and a card sticker's QR code is 20 mm across 21
modules. A mat's markers, found in a frame, therefore say how many pixels a sticker's module
gets on that mat (the reader's :attr:`~vision.table.FerryView.px_per_module`): the reader
needs about 2.5, and reads with a margin from 3 (docs/table-view.md).

:func:`check_table` turns one frame into a :class:`TableCheck`: for each ferry 1–5 whether its
mat was found, the pixels per module there and whether a lamp's reflection lies on it; whether
Noah's marker was found; and the advice, most important first (:data:`ADVICE`), as plain codes
the app words in each language. :func:`draw_check` draws the mats found on a small copy of the
frame. No game rules here.

>>> from vision.table_render import OverheadCamera, TableScene, render_table, row_layout
>>> camera = OverheadCamera(width=1920, height=1080, hfov_deg=40.0)
>>> mats = tuple(m for m in row_layout(gap_mm=5) if m.ferry != 4)  # ferry 4's mat is away
>>> frame = render_table(TableScene(mats=mats, noah=(0.0, 110.0)), camera).frame
>>> check = check_table(frame)
>>> [k for k, ferry in check.ferries.items() if ferry.found], check.noah
([1, 2, 3, 5], 3)
>>> round(camera.px_per_module, 1), round(check.ferries[3].px_per_module, 1)
(3.3, 3.3)
>>> check.ferries[3].detail, check.advice
('good', ('missing',))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.table import TableReader, TableReading
from vision.table_kit import (
    CARD_ZONE_MM,
    FERRIES,
    MARKER_MM,
    MAT_MM,
    QR_MODULES_MM,
    marker_centre_mm,
    marker_ids,
)
from vision.table_markers import nearest_ferry

#: Pixels per sticker module: below the first the reader misses codes, below the second it has
#: little margin (a soft focus, a tilt); from the second on it reads well (docs/table-view.md).
TOO_FEW_PX = 2.5
ENOUGH_PX = 3.0
#: So many pixels per module, with mats missing: the camera is close and sees too little.
CLOSE_PX = 6.0
#: A camera that leans gives the far mats fewer pixels: this ratio between the best and the
#: worst ferry (about 10° over a 60 cm row) calls for pointing it straight down.
TILT_RATIO = 1.3
#: Glare: a share of a mat's pixels brighter than its paper by this part of the way to white.
GLARE_LIFT = 0.4
GLARE_SHARE = 0.01

#: The advice codes, in the order they matter. ``no_mats``: nothing of the kit is seen;
#: ``close``: mats missing and the camera close (raise it); ``missing``: mats not found;
#: ``too_few``: some mat has fewer than :data:`TOO_FEW_PX` (lower the camera);
#: ``tilted``: the mats' detail differs by more than :data:`TILT_RATIO`; ``glare``: a
#: reflection on a mat; ``little_margin``: under :data:`ENOUGH_PX` somewhere; ``noah``: Noah's
#: marker not found; ``ready``: nothing to do.
ADVICE = ("no_mats", "close", "missing", "too_few", "tilted", "glare", "little_margin", "noah",
          "ready")


@dataclass(frozen=True)
class FerryCheck:
    """One ferry position: its mat ``found``, the pixels per sticker module there, whether a
    reflection lies on it (``glare``), and ``detail``: ``good``, ``little_margin``,
    ``too_few`` or ``glare`` (what the app says after the figure), or ``missing``."""

    found: bool = False
    px_per_module: float | None = None
    glare: bool = False
    outline: tuple[tuple[float, float], ...] = ()
    """The mat's four corners in frame pixels (for drawing)."""

    @property
    def detail(self) -> str:
        if not self.found or self.px_per_module is None:
            return "missing"
        if self.px_per_module < TOO_FEW_PX:
            return "too_few"
        if self.glare:
            return "glare"
        return "little_margin" if self.px_per_module < ENOUGH_PX else "good"


@dataclass(frozen=True)
class TableCheck:
    """What the calibration screen shows of one frame (see the module's docstring).

    ``noah``: the ferry Noah's marker is beside, or ``None`` when it is not found;
    ``advice``: codes of :data:`ADVICE`, most important first (``("ready",)`` when all is
    well); ``size``: the frame's (width, height).
    """

    ferries: Mapping[int, FerryCheck]
    noah: int | None
    noah_at: tuple[float, float] | None
    advice: tuple[str, ...]
    size: tuple[int, int]

    @property
    def missing(self) -> tuple[int, ...]:
        return tuple(k for k in FERRIES if not self.ferries[k].found)

    def ferries_with(self, detail: str) -> tuple[int, ...]:
        """The ferries whose :attr:`FerryCheck.detail` is ``detail`` (``glare``, ``too_few``…).

        >>> TableCheck({k: FerryCheck() for k in FERRIES}, None, None, (), (0, 0)
        ...            ).ferries_with("missing")
        (1, 2, 3, 4, 5)
        """
        return tuple(k for k in FERRIES if self.ferries[k].detail == detail)

    def extremes(self) -> tuple[tuple[int, float], tuple[int, float]] | None:
        """The ferries with the fewest and the most pixels per module, with their figures."""
        found = [(k, f.px_per_module) for k, f in self.ferries.items()
                 if f.found and f.px_per_module is not None]
        if not found:
            return None
        return min(found, key=lambda kf: kf[1]), max(found, key=lambda kf: kf[1])


def check_table(frame: np.ndarray, reading: TableReading | None = None,
                reader: TableReader | None = None) -> TableCheck:
    """The check of one frame (grayscale or BGR); ``reading`` is the frame's reading if the
    caller has one already (else ``reader``, or a new :class:`TableReader`, reads it).

    The pixels per module are the reader's (:attr:`vision.table.FerryView.px_per_module`:
    the mat's markers' side in pixels over their 20 mm, times a module's 20/21 mm).
    """
    from vision.table import _gray

    gray = _gray(frame)
    reading = reading if reading is not None else (reader or TableReader()).read(gray)
    ferries = {}
    for k in FERRIES:
        view = reading.ferries[k]
        if not view.seen or view.zone is None:
            ferries[k] = FerryCheck()
            continue
        to_frame = _mat_to_frame(view.zone)
        outline = _to_frame(to_frame, _MAT_CORNERS)
        ferries[k] = FerryCheck(True, view.px_per_module,
                                _glare(gray, outline, _paper_level(gray, to_frame, k)),
                                tuple((float(x), float(y)) for x, y in outline))
    height, width = gray.shape
    noah = _noah_beside(reading)
    check = TableCheck(ferries, noah, reading.noah_at, (), (width, height))
    return TableCheck(ferries, noah, reading.noah_at, advice(check), (width, height))


def _noah_beside(reading: TableReading) -> int | None:
    """The ferry Noah's marker is beside, for the calibration picture: the reading's, or
    with a mat missing (the reading then says nothing for Noah: the mat not found could be
    nearer) the nearest mat found, so that the screen still shows the marker is seen."""
    if reading.noah is not None or reading.noah_at is None:
        return reading.noah
    centres = {k: view.centre for k, view in reading.ferries.items() if view.centre is not None}
    return nearest_ferry(reading.noah_at, centres)


def advice(check: TableCheck) -> tuple[str, ...]:
    """What to do about ``check``, most important first (codes of :data:`ADVICE`).

    >>> good = FerryCheck(True, 4.4)
    >>> advice(TableCheck({k: good for k in FERRIES}, 2, (0.0, 0.0), (), (0, 0)))
    ('ready',)
    >>> advice(TableCheck({**{k: good for k in FERRIES}, 5: FerryCheck(True, 2.2)}, None, None,
    ...                   (), (0, 0)))
    ('too_few', 'tilted', 'noah')
    """
    if not any(f.found for f in check.ferries.values()):
        return ("no_mats",)
    found: list[str] = []
    extremes = check.extremes()
    assert extremes is not None
    (_, fewest), (_, most) = extremes
    if check.missing:
        found.append("close" if most >= CLOSE_PX else "missing")
    if fewest < TOO_FEW_PX:
        found.append("too_few")
    if most / fewest > TILT_RATIO:
        found.append("tilted")
    if check.ferries_with("glare"):
        found.append("glare")
    if TOO_FEW_PX <= fewest < ENOUGH_PX:
        found.append("little_margin")
    if check.noah is None:
        found.append("noah")
    return tuple(found) or ("ready",)


_MAT_CORNERS = np.array([(0, 0), (MAT_MM[0], 0), MAT_MM, (0, MAT_MM[1])], np.float32)


def _mat_to_frame(zone: tuple[tuple[float, float], ...]) -> np.ndarray:
    """Mat millimetres → frame pixels, from the card zone's four corners in the frame."""
    import cv2

    left, top, right, bottom = CARD_ZONE_MM
    zone_mm = np.array([(left, top), (right, top), (right, bottom), (left, bottom)], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(zone_mm, np.asarray(zone, np.float32)))


def _to_frame(matrix: np.ndarray, points_mm: np.ndarray) -> np.ndarray:
    import cv2

    points = np.asarray(points_mm, np.float32).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(points, matrix)).reshape(-1, 2)


def _paper_level(gray: np.ndarray, to_frame: np.ndarray, ferry: int) -> float | None:
    """The mat's paper: a ring in the white margin round each of its markers, 1.5 mm outside
    the black square (a marker under a card gives a darker ring: the lighter one is taken)."""
    levels = []
    half = MARKER_MM / 2 + 1.5
    for marker_id in marker_ids(ferry):
        x, y = marker_centre_mm(marker_id)
        corners = [(x - half, y - half), (x + half, y - half), (x + half, y + half),
                   (x - half, y + half)]
        ring = np.concatenate([np.linspace(corners[i], corners[(i + 1) % 4], 12, endpoint=False)
                               for i in range(4)])
        xs, ys = np.round(_to_frame(to_frame, ring)).astype(int).T
        inside = (xs >= 0) & (xs < gray.shape[1]) & (ys >= 0) & (ys < gray.shape[0])
        if inside.any():
            levels.append(float(np.median(gray[ys[inside], xs[inside]])))
    return max(levels) if levels else None


def _glare(gray: np.ndarray, outline: np.ndarray, paper: float | None) -> bool:
    """Whether a share of the mat is much brighter than its paper: a lamp's reflection."""
    import cv2

    if paper is None:
        return False
    mask = np.zeros(gray.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(np.asarray(outline)).astype(np.int32), 1)
    values = gray[mask > 0]
    if not values.size:
        return False
    bright = max(paper + 12.0, paper + GLARE_LIFT * (255.0 - paper))
    if bright > 254.0:  # the paper itself is (nearly) white: no reflection can show above it
        return False
    return bool(float((values >= bright).mean()) > GLARE_SHARE)


# -- the picture ----------------------------------------------------------------------------------

FOUND_BGR = (60, 200, 60)
WEAK_BGR = (0, 170, 255)
NOAH_BGR = (0, 220, 255)


def draw_check(frame: np.ndarray, check: TableCheck, width: int = 800) -> np.ndarray:
    """A BGR picture of ``frame`` at most ``width`` pixels wide with each mat found outlined
    (green, orange when it needs attention) and numbered, and a ring round Noah's marker.

    >>> picture = draw_check(np.zeros((720, 1280), np.uint8),
    ...                      TableCheck({k: FerryCheck() for k in FERRIES}, None, None,
    ...                                 ("no_mats",), (1280, 720)))
    >>> picture.shape
    (450, 800, 3)
    """
    import cv2

    height = frame.shape[0]
    scale = min(1.0, width / frame.shape[1])
    size = (round(frame.shape[1] * scale), round(height * scale))
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    picture = small if small.ndim == 3 else cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    line = max(2, round(size[0] / 300))
    for k, ferry in check.ferries.items():
        if not ferry.found:
            continue
        colour = FOUND_BGR if ferry.detail == "good" else WEAK_BGR
        points = np.round(np.asarray(ferry.outline) * scale).astype(np.int32)
        cv2.polylines(picture, [points], True, colour, line, cv2.LINE_AA)
        _label(picture, str(k), points[0], colour, size[0])  # its top corner: no code there
    if check.noah_at is not None:
        centre = tuple(round(v * scale) for v in check.noah_at)
        radius = max(6, round(_noah_radius(check) * scale))
        cv2.circle(picture, centre, radius, NOAH_BGR, line, cv2.LINE_AA)
    return np.asarray(picture)


def _noah_radius(check: TableCheck) -> float:
    """Noah's disc radius in frame pixels, from the mats' scale (18 mm)."""
    extremes = check.extremes()
    if extremes is None:
        return 20.0
    px_per_mm = extremes[1][1] / QR_MODULES_MM
    return 18.0 * px_per_mm


def _label(picture: np.ndarray, text: str, at: Any, colour: tuple[int, int, int],
           width: int) -> None:
    """The ferry's number, big, on a dark patch centred on ``at`` (kept in the picture)."""
    import cv2

    scale = max(0.8, width / 500)
    thickness = max(2, round(scale * 2))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    x = min(max(round(float(at[0]) - w / 2), 6), picture.shape[1] - w - 6)
    y = min(max(round(float(at[1]) + h / 2), h + 6), picture.shape[0] - 6)
    cv2.rectangle(picture, (x - 6, y - h - 6), (x + w + 6, y + 6), (30, 30, 30), -1)
    cv2.putText(picture, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness,
                cv2.LINE_AA)
