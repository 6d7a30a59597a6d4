"""Reading the whole table from one overhead frame: the five ferry mats, their top cards, Noah.

The table kit (``../shared/TABLE-KIT.md``, normative; docs/table-view.md) puts each ferry on a
printed mat of 100 × 150 mm with two ArUco markers (``DICT_4X4_50``, ids 2k−2 and 2k−1 for
ferry k, 20 mm, centred on the long axis 13.5 mm from each short edge) and Noah on a disc with
marker id 10. :class:`TableReader` turns one grayscale frame (the camera's Y plane) into a
:class:`TableReading`: per ferry position 1–5 whether its mat was found and the text of the code
on its top card, and the ferry where Noah stands. No game rules here: texts in, texts out.

How a frame is read:

1. markers are found on a copy halved down to 1152–1536 px wide (a 20 mm marker still gets
   about 4 px per cell from 75 cm), their corners refined on the full frame;
2. each mat's pose (mat millimetres → frame pixels) comes from its markers' corners: a
   homography from both markers, or a similarity from one (a card or a hand may hide the other);
3. each mat's card zone, widened for cards that overhang or sit askew, is cut out of the
   full-resolution frame and read by zxing-cpp (QR codes only); overlapping crops are merged so
   that no pixel is decoded twice;
4. the top card (:func:`visibility` and :meth:`TableReader.read`): among the codes whose
   centre falls in a mat's zone, only a code that is *whole* can be a top card: on a grid
   fitted to the code's corners, its modules (each one's middle averaged, split by Otsu's
   threshold) match the code re-encoded from its text with its own mask (finder, timing and
   format patterns included) in all but a few isolated modules, and its white quiet zone is
   light all round. A card laid over a code breaks at least one of these. When exactly one
   code in a zone is whole, it is the top card; when none is, or two or more are (a fanned
   stack whose earlier sticker shows whole), or a code in the zone is *unsure* or was located
   but could not be read (it may be the real top card's, under glare or a hand), the reading
   says nothing for that ferry: the referee never guesses.
5. Noah is at the located mat whose centre is nearest to marker 10.
6. only when asked (``read(frame, loose=True)``: the round-end hand scan), the codes lying
   *beside* the mats (:class:`LooseCode`): the full-resolution frame is read once more with
   every mat's area painted over, and a code counts only when its centre lies outside every
   located mat's area (the zone of step 3 widened by :data:`LOOSE_MARGIN_MM` all round), so a
   ferry's card, top or buried, is never one of them. Not asked, or with a mat not located
   (the cards on it could not be told from loose ones), :attr:`TableReading.loose` is
   ``None``: unknown, not "none".

>>> reader = TableReader()
>>> blank = np.full((720, 1280), 200, np.uint8)
>>> reading = reader.read(blank)
>>> reading.noah, [reading.ferries[k].seen for k in FERRIES]
(None, [False, False, False, False, False])

Hands: a code partly under a hand is either not read or fails the fully-visible test, so a
hand over a ferry yields nothing for it. :func:`motion` and :func:`occluded_ferries` measure
change between small frames (the camera's low-resolution stream) so that the caller waits for a
still table before trusting a reading.
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from vision.errors import VisionError
from vision.table_zones import zone_is_blank

#: The kit's five ferry mats (TABLE-KIT.md), numbered on their stickers; the game's own count is
#: companion.game.sizes.FERRY_COUNT, which vision may not import (it never imports the companion).
FERRIES = (1, 2, 3, 4, 5)
NOAH_MARKER = 10
MARKER_DICTIONARY = "DICT_4X4_50"
MARKER_MM = 20.0
MARKER_WHITE_MM = 2.5
MAT_MM = (100.0, 150.0)  # width, height: portrait
MARKER_INSET_MM = 13.5  # a marker's centre from its short edge
CARD_ZONE_MM = (15.0, 27.0, 85.0, 123.0)  # left, top, right, bottom inside the mat
NOAH_DISC_MM = 36.0
QR_MODULES_MM = 20.0 / 21  # a sticker's module: 20 mm across 21 modules
ZONE_OVERHANG_MM = 28.0  # how far past the mat's long edges a top card's code may lie
LOOSE_MARGIN_MM = 10.0  # a code beside the mats lies at least this far outside a mat's zone
#: Where a ferry's top-card code may lie (left, top, right, bottom in mat mm): the mat,
#: widened at its long edges for cards that overhang or sit askew.
SEARCH_ZONE_MM = (-ZONE_OVERHANG_MM, 0.0, MAT_MM[0] + ZONE_OVERHANG_MM, MAT_MM[1])
#: A mat's area (left, top, right, bottom in mat mm): the zone where its cards' codes may lie,
#: widened all round by LOOSE_MARGIN_MM; a code beside the mats lies outside every mat's area.
MAT_AREA_MM = (-ZONE_OVERHANG_MM - LOOSE_MARGIN_MM, -LOOSE_MARGIN_MM,
               MAT_MM[0] + ZONE_OVERHANG_MM + LOOSE_MARGIN_MM, MAT_MM[1] + LOOSE_MARGIN_MM)
ARUCO_MAX_WIDTH = 1536
Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]
Box = tuple[int, int, int, int]  # left, top, right, bottom in frame pixels (right, bottom excluded)


def marker_ids(ferry: int) -> tuple[int, int]:
    """The two marker ids of ferry ``ferry``'s mat: the one near its top edge, then the other.

    >>> marker_ids(1), marker_ids(5)
    ((0, 1), (8, 9))
    """
    if ferry not in FERRIES:
        raise ValueError(f"ferry positions are 1 to 5, not {ferry}")
    return 2 * ferry - 2, 2 * ferry - 1


def marker_centre_mm(marker_id: int) -> Point:
    """Where a ferry marker's centre sits on its mat, in mat millimetres (origin top left).

    >>> marker_centre_mm(4), marker_centre_mm(5)
    ((50.0, 13.5), (50.0, 136.5))
    """
    width, height = MAT_MM
    y = MARKER_INSET_MM if marker_id % 2 == 0 else height - MARKER_INSET_MM
    return width / 2, y


def marker_corners_mm(marker_id: int) -> np.ndarray:
    """The four corners of a ferry marker's black square on its mat (mm), in ArUco's order
    (the marker's own top left, top right, bottom right, bottom left): markers are printed
    upright on the mat, their top toward the mat's top edge."""
    x, y = marker_centre_mm(marker_id)
    h = MARKER_MM / 2
    return np.array([(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)], np.float32)


@functools.cache
def marker_cells(marker_id: int) -> np.ndarray:
    """The marker's 6 × 6 cells (black border included), 1 = black, from OpenCV's dictionary.

    Shared by the kit's PDF and the synthetic camera, so both print exactly what is detected.

    >>> cells = marker_cells(10)
    >>> cells.shape, int(cells[0].sum()), int(cells[:, 0].sum())
    ((6, 6), 6, 6)
    """
    import cv2

    image = cv2.aruco.generateImageMarker(_dictionary(), marker_id, 6)
    cells = (image < 128).astype(np.uint8)
    cells.setflags(write=False)
    return cells


@functools.cache
def _dictionary() -> Any:
    import cv2

    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICTIONARY))


# -- what a reading is ---------------------------------------------------------------------------

@dataclass(frozen=True)
class FerryView:
    """One ferry position in one frame.

    ``seen``: its mat was located; ``top``: the text of its top card's code, or ``None`` (no
    readable top code, an empty ferry, or not sure); ``zone``: the card zone's corners in frame
    pixels (for occlusion checks and for drawing), ``px_per_module``: the size of a sticker's
    module there (2.5 or more reads well); ``codes``: every code text read in the zone, top or
    not (for diagnostics, never to be taken as the top card).
    """

    seen: bool = False
    top: str | None = None
    zone: Quad | None = None
    centre: Point | None = None
    px_per_module: float | None = None
    codes: tuple[str, ...] = ()


@dataclass(frozen=True)
class LooseCode:
    """A code read beside the mats (a card laid face up on the table, not on a ferry): its
    text, its centre in full-resolution frame pixels (whatever crop or enlargement it was read
    on) and the ferry whose mat centre is nearest to it."""

    text: str
    centre: Point
    near: int


@dataclass(frozen=True)
class TableReading:
    """What one frame shows: the five ferry positions and the ferry where Noah is, and (when
    asked) the codes beside the mats.

    ``loose``: the codes read outside every mat's area (:class:`LooseCode`), or ``None`` when
    they were not read (not asked, or a mat not located: a card on it could not be told from a
    loose one).

    >>> reading = TableReading({k: FerryView() for k in FERRIES}, noah=None)
    >>> reading.to_json()["ferries"]["3"]
    {'seen': False, 'top': None}
    >>> reading.loose_texts is None
    True
    """

    ferries: Mapping[int, FerryView]
    noah: int | None
    noah_at: Point | None = None
    ms: float = 0.0
    loose: tuple[LooseCode, ...] | None = None

    @property
    def loose_texts(self) -> frozenset[str] | None:
        """The texts of the codes beside the mats (``None``: not read)."""
        return None if self.loose is None else frozenset(c.text for c in self.loose)

    def to_json(self) -> dict[str, Any]:
        """The reading as ``table scan --json`` prints it (without the frame's name): the
        contract of issue 14, so the codes beside the mats are not in it."""
        return {
            "ferries": {str(k): {"seen": self.ferries[k].seen, "top": self.ferries[k].top}
                        for k in FERRIES},
            "noah": self.noah,
            "ms": round(self.ms, 1),
        }

    def agrees_with(self, other: TableReading) -> bool:
        """The same mats seen, the same top cards, Noah at the same ferry and the same codes
        beside the mats (or neither read them).

        >>> a = TableReading({k: FerryView() for k in FERRIES}, noah=2)
        >>> a.agrees_with(a), a.agrees_with(TableReading(a.ferries, noah=3))
        (True, False)
        >>> a.agrees_with(TableReading(a.ferries, noah=2, loose=()))
        False
        """
        return self.noah == other.noah and self.loose_texts == other.loose_texts and all(
            (self.ferries[k].seen, self.ferries[k].top) == (other.ferries[k].seen,
                                                            other.ferries[k].top)
            for k in FERRIES)


# -- markers and mats ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Marker:
    """One ArUco marker found in a frame: its id and its corners in full-frame pixels."""

    id: int
    corners: np.ndarray  # 4 × 2 float32, ArUco's order

    @property
    def centre(self) -> Point:
        x, y = self.corners.mean(axis=0)
        return float(x), float(y)

    @property
    def side_px(self) -> float:
        c = self.corners
        return float(np.mean([np.linalg.norm(c[i] - c[(i + 1) % 4]) for i in range(4)]))


@dataclass(frozen=True)
class MatPose:
    """Where one ferry's mat lies in the frame: mat millimetres → frame pixels."""

    ferry: int
    matrix: np.ndarray  # 3 × 3 homography
    px_per_mm: float
    markers: int = 2
    """How many of the mat's markers placed it (one gives a similarity: less exact)."""
    through_table: np.ndarray | None = field(default=None, compare=False)
    """For a mat placed by one marker, a second estimate of :attr:`matrix`: the marker fitted
    rigidly (millimetres, no scale) in the table plane of the nearest mat placed by two
    (:func:`table_plane_pose`), which carries the camera's lean that a similarity cannot."""

    def to_frame(self, points_mm: np.ndarray) -> np.ndarray:
        """Mat millimetres (N × 2) to frame pixels (N × 2)."""
        import cv2

        points = np.asarray(points_mm, np.float32).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(points, self.matrix)).reshape(-1, 2)

    def to_mat(self, points_px: np.ndarray) -> np.ndarray:
        """Frame pixels (N × 2) to mat millimetres (N × 2)."""
        import cv2

        points = np.asarray(points_px, np.float32).reshape(-1, 1, 2)
        inverse = np.linalg.inv(self.matrix)
        return np.asarray(cv2.perspectiveTransform(points, inverse)).reshape(-1, 2)

    @property
    def centre(self) -> Point:
        x, y = self.to_frame(np.array([[MAT_MM[0] / 2, MAT_MM[1] / 2]]))[0]
        return float(x), float(y)

    def quad(self, left: float, top: float, right: float, bottom: float) -> Quad:
        """A rectangle of the mat (mm) as its four corners in the frame."""
        points = self.to_frame(np.array([(left, top), (right, top), (right, bottom),
                                         (left, bottom)]))
        return tuple((float(x), float(y)) for x, y in points)  # type: ignore[return-value]

    def search_zone(self) -> Quad:
        """Where this ferry's top-card code may lie: the mat, widened at its long edges
        (:data:`SEARCH_ZONE_MM`)."""
        return self.quad(*SEARCH_ZONE_MM)

    def area(self) -> Quad:
        """The mat's area (:data:`MAT_AREA_MM`) in the frame. A code whose centre lies in it
        may be a ferry's card, so it is never read as a loose one."""
        return self.quad(*MAT_AREA_MM)

    def holds(self, point: Point) -> bool:
        """Whether ``point`` (frame pixels) lies in the mat's :meth:`area`."""
        x, y = self.to_mat(np.array([point]))[0]
        left, top, right, bottom = MAT_AREA_MM
        return bool(left <= x <= right and top <= y <= bottom)


def find_markers(gray: np.ndarray, max_width: int = ARUCO_MAX_WIDTH) -> list[Marker]:
    """The kit's markers (ids 0–10) in a grayscale frame, each id at most once.

    Detection runs on a copy at most ``max_width`` pixels wide; corners are refined on the
    full frame. An id found twice (two kits on one table, or a false detection) is dropped:
    better no mat than the wrong one. Ids 11–49 are foreign (TABLE-KIT.md) and ignored.
    (:meth:`TableReader.find_markers` also looks again at full resolution.)
    """
    scale = search_scale(gray.shape[1], max_width)
    markers, _ = detect_markers(gray, (0, 0, gray.shape[1], gray.shape[0]), scale)
    return unique_markers(markers)


def search_scale(width: int, max_width: int = ARUCO_MAX_WIDTH) -> float:
    """The scale of the copy markers are searched on: at most ``max_width`` wide, by halving
    when that leaves it at least ¾ of ``max_width`` wide.

    Halving is an exact average of 2 × 2 pixel blocks that OpenCV computes several times faster
    than any other shrink (0.8 ms for a 12 MP frame, against 5.7 ms for a third: issue 19's
    marker work, docs/benchmarks.md), and the copy it leaves is cheaper to search: the 4608 px
    frame is searched at 1152 px (¼, two halvings), the binned 2304 × 1296 mode at 1152 (½).
    On the DEV frames every mat and Noah's marker were found as at 1536 px, the corners,
    refined on the full frame (:func:`_refined`), as close to the drawn ones, and the marker
    search cost about half. A frame 1920 px wide (a USB camera) stays at 1536: half would
    leave its markers too few pixels.

    >>> search_scale(4608), search_scale(2304), search_scale(3072), search_scale(1920)
    (0.25, 0.5, 0.5, 0.8)
    >>> search_scale(1280)
    1.0
    """
    factor = 1
    while width / (2 * factor) >= 0.75 * max_width:
        factor *= 2
    if factor > 1:
        return 1.0 / factor
    return min(1.0, max_width / width)


def shrunk(gray: np.ndarray, scale: float) -> np.ndarray:
    """``gray`` scaled by ``scale`` ≤ 1 for the marker search: by halvings (each an exact
    2 × 2 average, the cheap shrink) when ``scale`` is a power of ½, else by area.

    >>> shrunk(np.zeros((2592, 4608), np.uint8), 0.25).shape
    (648, 1152)
    """
    import cv2

    if scale == 1.0:
        return gray
    halvings = -math.log2(scale)
    if not halvings.is_integer():
        return np.asarray(cv2.resize(gray, None, fx=scale, fy=scale,
                                     interpolation=cv2.INTER_AREA))
    small = gray
    for _ in range(int(halvings)):
        small = cv2.resize(small, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    return np.asarray(small)


def detect_markers(gray: np.ndarray, box: Box, scale: float
                   ) -> tuple[list[Marker], list[np.ndarray]]:
    """The kit's markers in one box of the frame searched on a copy scaled by ``scale``, and
    the candidates ArUco rejected there (square outlines it could not decode: 4 × 2 corners
    in full-frame pixels), for :func:`look_again`."""
    left, top, right, bottom = box
    crop = gray[top:bottom, left:right]
    small = shrunk(crop, scale)
    corners, ids, rejected = _aruco_detector(scale < 1.0).detectMarkers(small)
    origin = np.array([left, top], np.float32)
    markers = []
    for marker_id, quad in zip([] if ids is None else ids.ravel().tolist(), corners,
                               strict=True):
        if 0 <= marker_id <= NOAH_MARKER:
            points = quad.reshape(4, 2) / scale + origin
            markers.append(Marker(marker_id, _refined(gray, points, scale)))
    candidates = [quad.reshape(4, 2) / scale + origin for quad in rejected]
    return markers, candidates


def unique_markers(markers: Iterable[Marker]) -> list[Marker]:
    """The markers by id, an id found at two places dropped (two kits, or a false detection),
    the same marker found twice (overlapping searches) kept once.

    >>> square = np.array([(0, 0), (10, 0), (10, 10), (0, 10)], np.float32)
    >>> [m.id for m in unique_markers([Marker(3, square), Marker(3, square + 0.5),
    ...                                Marker(4, square), Marker(4, square + 300)])]
    [3]
    """
    by_id: dict[int, list[Marker]] = {}
    for marker in markers:
        by_id.setdefault(marker.id, []).append(marker)
    result = []
    for _, found in sorted(by_id.items()):
        first = found[0]
        if all(math.dist(m.centre, first.centre) < first.side_px / 2 for m in found):
            result.append(first)
    return result


#: Two mats' distances to Noah closer than this: which one is nearest is not clear, and the
#: reading says nothing for Noah. Margins were first set just above the dev frames' errors
#: (1.5 and 5 mm); a held-out frame (tilt 20-25°, lens distortion, mats in two rows) then put
#: Noah at a ferry 5.6 mm farther than the true one. A pose is measured where its markers are
#: and extrapolated to Noah 80-100 mm away, where the camera's lean and the lens bend it by
#: several millimetres, and a player's "just beside a mat" is no finer than a centimetre: so
#: the margins are set by that, not by the frames we have.
NOAH_TIE_MM = 10.0
NOAH_TIE_ONE_MARKER_MM = 15.0
LOOK_AGAIN_LIMIT = 10  # places looked at again, at most, per frame


def look_again(gray: np.ndarray, markers: list[Marker], candidates: Sequence[np.ndarray],
               known: Iterable[int] = ()) -> list[Marker]:
    """``markers`` with those found by a second look at full resolution: where a located
    mat's other marker should be, and at the candidates the scaled search rejected (a small,
    tilted or soft marker that the scaled copy blurred). Nothing is looked at again when every
    mat shows both markers and Noah's is found, nor where the place has no dark border all
    round (:func:`has_dark_border`: a card over the other marker, a sticker's code)."""
    found = {m.id for m in markers} | set(known)
    if len(found) == NOAH_MARKER + 1:
        return markers
    # A mat's other marker is looked for whatever its place shows: predicted from one marker
    # 123 mm away, the square may miss it by a cell under a lean (12 px on DEV frame 1004),
    # and the border test, made for the rejected candidates, then fails on a marker that is
    # there. The candidates are tested: 9 in 10 are a sticker's code.
    predicted = [m.corners for m in _other_markers(markers) if m.id not in found]
    places: Iterable[np.ndarray] = predicted
    if NOAH_MARKER not in found or any(not set(marker_ids(k)) & found for k in FERRIES):
        places = itertools.chain(predicted, (q for q in _plausible(markers, candidates)
                                             if has_dark_border(gray, q)))
    extra: list[Marker] = []
    for corners in itertools.islice(places, LOOK_AGAIN_LIMIT):
        place = Marker(-1, corners)
        (x, y), side = place.centre, place.side_px
        half = 1.6 * side
        box = (max(0, int(x - half)), max(0, int(y - half)),
               min(gray.shape[1], int(x + half) + 1), min(gray.shape[0], int(y + half) + 1))
        extra += [m for m in detect_markers(gray, box, _look_again_scale(side))[0]
                  if m.id not in found]
    return unique_markers(markers + extra) if extra else markers


def _look_again_scale(side: float) -> float:
    """The scale a place is searched at, from the side (pixels) of the marker looked for: a
    binned frame's small marker enlarged 2× to decode, a large one halved (still 32 px or more,
    as on the scaled search's copy; a quarter of the work).

    >>> _look_again_scale(30), _look_again_scale(50), _look_again_scale(70)
    (2.0, 1.0, 0.5)
    """
    if side < 40:
        return 2.0
    return 0.5 if side >= 64 else 1.0


MARKER_BORDER_DARK = 0.5  # of a marker's 20 border cells: fewer dark, no marker is there


def has_dark_border(gray: np.ndarray, corners: np.ndarray) -> bool:
    """Whether the square ``corners`` (4 × 2 frame pixels) may be a marker: at least half of the
    cells of its outer ring (a marker is 6 × 6 cells, its border black) darker than Otsu's
    threshold of the square. A cheap test before a second search at full resolution: on the
    dev frames 9 places in 10 looked at again were a sticker's code or a card over the other
    marker, and showed no dark border (the markers found there showed 85-100 %).

    >>> cells = np.pad(np.eye(4, dtype=bool), 1, constant_values=True)
    >>> gray = np.pad(np.where(np.kron(cells, np.ones((10, 10))), 20, 230), 20,
    ...               constant_values=230).astype(np.uint8)
    >>> square = np.array([(20, 20), (80, 20), (80, 80), (20, 80)], np.float32)
    >>> has_dark_border(gray, square), has_dark_border(255 - gray, square)
    (True, False)
    """
    import cv2

    size = 36  # 6 × 6 cells of 6 px
    target = np.array([(0, 0), (size, 0), (size, size), (0, size)], np.float32)
    warp = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), target)
    square = cv2.warpPerspective(gray, warp, (size, size), flags=cv2.INTER_AREA)
    threshold, _ = cv2.threshold(square, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    cells = square.reshape(6, 6, 6, 6)[:, 1:5, :, 1:5].mean(axis=(1, 3))
    ring = np.ones((6, 6), bool)
    ring[1:5, 1:5] = False
    return float((cells[ring] <= threshold).mean()) >= MARKER_BORDER_DARK


def _other_markers(markers: Sequence[Marker]) -> list[Marker]:
    """Where each mat seen by one marker has its other one (predicted from the first). Only
    those mats' poses are computed: a cold reading computes every pose once more after this.

    >>> square = np.array([(0, 0), (40, 0), (40, 40), (0, 40)], np.float32)
    >>> [m.id for m in _other_markers([Marker(2, square), Marker(4, square),
    ...                                Marker(5, square + (0, 246))])]
    [3]
    """
    found = {m.id for m in markers}
    alone = [m for m in markers if m.id < NOAH_MARKER
             and set(marker_ids(m.id // 2 + 1)) - {m.id} - found]
    predicted = []
    for ferry, pose in mat_poses(alone).items():
        for marker_id in set(marker_ids(ferry)) - found:
            corners = pose.to_frame(marker_corners_mm(marker_id)).astype(np.float32)
            predicted.append(Marker(marker_id, corners))
    return predicted


def _plausible(markers: Sequence[Marker], candidates: Sequence[np.ndarray]
               ) -> list[np.ndarray]:
    """The rejected candidates (4 × 2 corners) of a marker's size (that of the markers found,
    if any), the most alike first, none on a marker already found."""
    if not candidates:
        return []
    quads = np.asarray(candidates, np.float32).reshape(-1, 4, 2)
    centres = quads.mean(axis=1)
    sides = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2).mean(axis=1)
    keep = np.ones(len(quads), bool)
    for m in markers:  # none on a marker already found
        keep &= np.linalg.norm(centres - np.array(m.centre), axis=1) >= m.side_px
    likeness = np.zeros(len(quads))
    if markers:
        typical = float(np.median([m.side_px for m in markers]))
        keep &= (sides >= 0.6 * typical) & (sides <= 1.6 * typical)
        likeness = np.abs(np.log(np.maximum(sides, 1e-6) / typical))
    order = [i for i in np.argsort(likeness, kind="stable") if keep[i]]
    return [quads[i] for i in order]


def noah_marker(markers: Iterable[Marker]) -> Point | None:
    """The centre of Noah's marker (id 10) among ``markers``, or ``None``."""
    return next((m.centre for m in markers if m.id == NOAH_MARKER), None)


def noah_ferry(noah_at: Point | None, poses: Mapping[int, MatPose]) -> int | None:
    """The ferry where Noah is: the one whose mat centre is nearest to his marker, only when
    every mat's place is known (``poses``: located now, or known from an earlier still frame)
    and one mat is clearly the nearest.

    A mat not located could lie anywhere its markers are not seen, nearer to Noah than any
    known mat (its two markers under a hand, say): then Noah's place is not known and the
    answer is ``None``, never a wrong ferry (TABLE-KIT.md). Distances are measured on the
    table, in millimetres (each mat's pose maps the marker into that mat's own plane): a
    leaning camera shrinks the far side of the frame, so pixels would favour the far mats.
    Two mats within :data:`NOAH_TIE_MM` of the same distance (:data:`NOAH_TIE_ONE_MARKER_MM`
    when one of them is placed by a single marker, less exactly): not clear, ``None``. A mat
    placed by one marker has two estimates of its pose (:attr:`MatPose.through_table`): the
    answer must be the same with either, else ``None``.

    >>> everywhere = {k: MatPose(k, np.array([[1.0, 0, 110 * k], [0, 1, 0], [0, 0, 1]]), 1.0)
    ...               for k in FERRIES}
    >>> noah_ferry((385.0, 180.0), everywhere)
    3
    >>> noah_ferry((385.0, 180.0), {k: p for k, p in everywhere.items() if k != 4}) is None
    True
    >>> noah_ferry((435.5, 180.0), everywhere) is None  # as near to 3 as to 4
    True
    >>> noah_ferry((430.0, 180.0), everywhere) is None  # 3 is nearer, by less than the margin
    True
    >>> def one_marker(k, shift):  # mat k placed by one marker, its second estimate moved
    ...     second = np.array([[1.0, 0, 110 * k + shift], [0, 1, 0], [0, 0, 1]])
    ...     return {**everywhere, k: replace(everywhere[k], markers=1, through_table=second)}
    >>> noah_ferry((385.0, 180.0), one_marker(3, 10.0))  # both estimates: 3
    3
    >>> noah_ferry((385.0, 180.0), one_marker(3, 100.0)) is None  # they disagree
    True
    """
    if noah_at is None or set(poses) != set(FERRIES):
        return None
    ferry = _nearest_clearly(noah_at, poses)
    if any(pose.through_table is not None for pose in poses.values()):
        other = {k: replace(pose, matrix=pose.through_table)
                 if pose.through_table is not None else pose for k, pose in poses.items()}
        if _nearest_clearly(noah_at, other) != ferry:  # the two estimates disagree
            return None
    return ferry


def _nearest_clearly(noah_at: Point, poses: Mapping[int, MatPose]) -> int | None:
    """The ferry whose mat centre is nearest to ``noah_at`` (millimetres in each mat's plane)
    by the tie margins, else ``None`` (:func:`noah_ferry`)."""
    centre = np.array(MAT_MM) / 2
    distances = sorted((float(np.linalg.norm(pose.to_mat(np.array([noah_at]))[0] - centre)), k)
                       for k, pose in poses.items())
    (nearest, ferry), (second, other) = distances[0], distances[1]
    exact = poses[ferry].markers == 2 and poses[other].markers == 2
    return ferry if second - nearest >= (NOAH_TIE_MM if exact else NOAH_TIE_ONE_MARKER_MM) \
        else None


def _refined(gray: np.ndarray, corners: np.ndarray, scale: float) -> np.ndarray:
    """Corners found on a scaled copy, refined to sub-pixel accuracy on the full frame."""
    import cv2

    points = np.ascontiguousarray(corners, np.float32).reshape(-1, 1, 2)
    if scale < 1.0:
        window = max(2, round(1.5 / scale))
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 20, 0.05)
        cv2.cornerSubPix(gray, points, (window, window), (-1, -1), criteria)
    return points.reshape(4, 2)


@functools.cache
def _aruco_detector(scaled: bool = False) -> Any:
    """ArUco's detector for the kit's markers; ``scaled``: the one for a scaled-down copy of the
    whole frame, whose corners :func:`_refined` refines on the full frame anyway."""
    import cv2

    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # Two thresholding windows (3 and 23 px) instead of three (3, 13, 23): as many markers
    # found on the dev frames, in about 60 % of the time. Outlines shorter than 4 % of the
    # image's width are not markers at the kit's distances (a marker is at least 15 px wide
    # on the 1152 px copy from 100 cm, a perimeter of 5 %): the sticker's modules and the
    # mats' lettering are dropped early.
    parameters.adaptiveThreshWinSizeStep = 20
    parameters.minMarkerPerimeterRate = 0.04
    if scaled:  # corners refined on the scaled copy would be refined again on the full frame
        parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    return cv2.aruco.ArucoDetector(_dictionary(), parameters)


def mat_poses(markers: Iterable[Marker]) -> dict[int, MatPose]:
    """Each located mat's pose, from one or both of its markers.

    Two markers give a homography (tilt included); one gives a similarity (rotation, scale,
    position), accurate to a millimetre or two over the mat at 10° of tilt. Two markers that
    disagree with the mat's geometry (123 mm apart) leave that mat unlocated.
    """
    import cv2

    by_id = {m.id: m for m in markers}
    poses = {}
    for ferry in FERRIES:
        found = [by_id[i] for i in marker_ids(ferry) if i in by_id]
        if not found:
            continue
        mat_points = np.concatenate([marker_corners_mm(m.id) for m in found])
        frame_points = np.concatenate([m.corners for m in found]).astype(np.float32)
        px_per_mm = float(np.mean([m.side_px for m in found])) / MARKER_MM
        if len(found) == 2:
            matrix, _ = cv2.findHomography(mat_points, frame_points)
            apart = np.linalg.norm(np.subtract(found[0].centre, found[1].centre)) / px_per_mm
            expected = MAT_MM[1] - 2 * MARKER_INSET_MM
            if matrix is None or abs(apart - expected) > 0.15 * expected:
                continue
        else:
            affine, _ = cv2.estimateAffinePartial2D(mat_points, frame_points)
            if affine is None:
                continue
            matrix = np.vstack([affine, [0.0, 0.0, 1.0]])
        poses[ferry] = MatPose(ferry, matrix.astype(np.float64), px_per_mm, len(found))
    return _with_table_plane(poses, by_id)


def _with_table_plane(poses: dict[int, MatPose], by_id: Mapping[int, Marker]
                      ) -> dict[int, MatPose]:
    """``poses`` with each one-marker mat's second estimate (:attr:`MatPose.through_table`),
    when some mat is placed by two markers."""
    two = [pose for pose in poses.values() if pose.markers == 2]
    if not two:
        return poses
    result = dict(poses)
    for ferry, pose in poses.items():
        if pose.markers == 1:
            marker = next(by_id[i] for i in marker_ids(ferry) if i in by_id)
            reference = min(two, key=lambda p: math.dist(p.centre, marker.centre))
            result[ferry] = replace(pose, through_table=table_plane_pose(marker, reference))
    return result


def table_plane_pose(marker: Marker, reference: MatPose) -> np.ndarray:
    """A mat's pose (3 × 3, mat millimetres → frame pixels) from one of its markers, through
    the table plane of a mat placed by two (``reference``): the marker's corners taken into
    that mat's millimetres, where the mats share one flat table, and the kit's marker fitted
    there by a rotation and a shift (Kabsch: the millimetres need no scale).

    A similarity fitted in the frame, as :func:`mat_poses` does with one marker, cannot follow
    the camera's lean: on the DEV frames it put Noah up to 17 mm off his distance to a mat
    within 120 mm (p90 6 mm), this estimate 10 mm (p90 0.8), though it can be worse where the
    reference mat is far. :func:`noah_ferry` therefore answers only when both agree.

    >>> reference = MatPose(1, np.diag([2.0, 2.0, 1.0]), 2.0)  # 2 px a millimetre, no lean
    >>> corners = (marker_corners_mm(3) + (110.0, 0.0)) * 2  # ferry 2's mat 110 mm to the right
    >>> pose = table_plane_pose(Marker(3, corners.astype(np.float32)), reference)
    >>> np.round(pose @ (50.0, 75.0, 1.0)).tolist()  # its centre
    [320.0, 150.0, 1.0]
    """
    in_table = reference.to_mat(marker.corners).astype(np.float64)
    kit = marker_corners_mm(marker.id).astype(np.float64)
    kit_mean, table_mean = kit.mean(axis=0), in_table.mean(axis=0)
    u, _, vt = np.linalg.svd((kit - kit_mean).T @ (in_table - table_mean))
    sign = np.sign(np.linalg.det(vt.T @ u.T))
    rotation = vt.T @ np.diag([1.0, sign]) @ u.T
    rigid = np.eye(3)
    rigid[:2, :2], rigid[:2, 2] = rotation, table_mean - rotation @ kit_mean
    matrix = reference.matrix @ rigid
    return np.asarray(matrix / matrix[2, 2])


def nearest_ferry(point: Point, centres: Mapping[int, Point]) -> int | None:
    """The ferry whose mat centre is nearest to ``point`` (``None`` if no mat is located).

    >>> nearest_ferry((10, 0), {1: (0, 0), 2: (30, 0)})
    1
    """
    if not centres:
        return None
    return min(centres, key=lambda k: math.dist(point, centres[k]))


# -- codes and the top card ----------------------------------------------------------------------

@dataclass(frozen=True)
class Code:
    """One QR code read in a crop: its text, its corners in frame pixels and whether it is
    fully visible (see :func:`fully_visible`)."""

    text: str
    corners: Quad
    fully_visible: bool
    readable: bool = True
    """False for a symbol zxing-cpp located but could not decode (glare, a hand, a card)."""
    unsure: bool = False
    """Read, but neither whole nor clearly covered (see :func:`visibility`)."""

    @property
    def centre(self) -> Point:
        return (sum(x for x, _ in self.corners) / 4, sum(y for _, y in self.corners) / 4)


def top_card(codes: Sequence[Code]) -> str | None:
    """The text of the top card's code among the codes read in one ferry's zone, or ``None``.

    Exactly one text among the whole codes, and nothing else in the zone that could be the top
    card's: an unreadable symbol may be the true top card's (under glare, say), and so may a
    code read with a few too many errors (soft); then even a single whole-looking code could
    be a buried card's, so the answer is ``None``: the referee never guesses.

    >>> square = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    >>> top_card([Code("A", square, True), Code("B", square, False)])
    'A'
    >>> top_card([Code("A", square, True), Code("", square, False, readable=False)]) is None
    True
    """
    visible = {c.text for c in codes if c.fully_visible}
    unsure = any(not c.readable or c.unsure for c in codes)
    return next(iter(visible)) if len(visible) == 1 and not unsure else None


MAX_BIT_ERRORS = 8  # of 441 modules, isolated ones only: sensor noise, a soft focus
MAX_ERROR_CLUSTER = 3  # 4-connected wrong modules: a larger patch is something lying on the code
COVERED_BIT_ERRORS = 16  # more wrong modules than this: surely covered
COVERED_CLUSTER = 5  # a patch larger than this: surely covered
RING_TOLERANCE = 3  # quiet-zone samples allowed below RING_LEVEL (of 276)
RING_LEVEL = 0.85  # from the code's dark level to its light one: a card's edge dips below
OUTER_RING = 3.0  # modules out: the third ring, a module inside the sticker's 4-module quiet zone


def fully_visible(barcode: Any, gray: np.ndarray) -> bool:
    """Whether a code zxing-cpp read in ``gray`` is whole, with nothing lying over it
    (:func:`visibility` is ``"whole"``)."""
    return visibility(barcode, gray) == "whole"


def visibility(barcode: Any, gray: np.ndarray, plain: np.ndarray | None = None) -> str:
    """``"whole"``: a code zxing-cpp read in ``gray`` shows whole, with nothing lying over it;
    ``"covered"``: something clearly lies over part of it; ``"unsure"``: neither (a few more
    sampling errors than a whole code shows, e.g. a soft code of 3 px per module).

    A buried card's code that still decodes is partly covered by the card above: zxing-cpp's
    error correction fills in the hidden modules, but they show up (1) as modules that differ
    from the code re-encoded from its text with its own version, level and mask in a
    connected patch (finder, timing and format patterns included, which the error correction
    does not cover), or (2) as a quiet zone that is not light all round (the edge of the card
    above crosses it), or (3) as the card's straight edge running along one of the code's sides
    past both its ends (:func:`edge_dips`: a card a fraction of a module over the code, whose
    outline passes for the finder patterns' ring). The modules and the quiet zone are sampled
    here, not taken from zxing-cpp (one pixel per module, on corners it estimates): on a grid
    fitted to the code (:func:`sample_modules`), a top card's code, even tilted, blurred, dim
    and noisy, shows at most a few scattered wrong modules and a clean quiet zone. Checked by
    the overlap sweeps of tests/table/test_view.py and docs/table-view.md: no covered code
    passes.

    ``plain``: the same pixels as ``gray`` without its sharpening, where ``gray`` is a crop
    enlarged by cubic interpolation for zxing-cpp (:func:`enlarged`): the modules are sampled
    on ``gray``, whose sharper modules a soft code of 2.2 px per module needs, and the quiet
    zone is compared with the light modules on ``plain``, where no overshoot lifts them above
    the paper. ``gray`` itself by default.
    """
    extra = barcode.extra if isinstance(barcode.extra, dict) else {}
    expected = _expected_modules(barcode.text, str(extra.get("ECLevel", "")),
                                 str(extra.get("Version", "")), extra.get("DataMask"))
    if expected is None:
        return "unsure"
    # zxing-cpp samples one pixel per module on a grid estimated from three finder patterns:
    # at 3 px per module under tilt, soft focus or dim light a few of a whole code's modules
    # come out wrong, and a card edge over a fraction of the outer modules may not. The
    # modules are sampled again here, each one's middle averaged: first on zxing-cpp's own
    # corners (a sharp code is whole there already), else on a grid fitted to the code.
    # Fitting only raises the contrast with the expected code, so a code already whole on
    # the first grid would be whole on the fitted one too; but the fitted grid may reach a
    # card's corner in the quiet zone that zxing-cpp's stops short of (issue 19's dim sweep),
    # or miss a card's edge that zxing-cpp's grid shows (a card ¾ of a module over the code at
    # sensor noise σ 0–3): a whole code's quiet zone must be light on both, whichever grid
    # showed its modules whole.
    corners = _corners(barcode)
    verdict = _verdict(gray, gray if plain is None else plain, corners, expected)
    if verdict == "whole" and bool((edge_dips(gray, corners, expected) > EDGE_DIP).any()):
        return "unsure"  # a card's edge runs along a side: the hole of issue 19 (edge_dips)
    return verdict


def _verdict(gray: np.ndarray, plain: np.ndarray, corners: np.ndarray, expected: np.ndarray
             ) -> str:
    """:func:`visibility`'s verdict from the code's modules (on ``gray``) and its quiet zone
    (on ``plain``)."""
    if _too_noisy(gray, corners, expected):
        return _noisy_verdict(gray, plain, corners, expected)
    light_there = _quiet_zone_is_light(plain, corners, expected)
    if light_there and _module_errors(
            sample_modules(gray, corners, expected.shape[0]), expected) == "whole":
        fitted = _fitted_corners(gray, corners, expected)
        return "whole" if _quiet_zone_is_light(plain, fitted, expected) else "unsure"
    fitted = _fitted_corners(gray, corners, expected)
    if not _quiet_zone_is_light(plain, fitted, expected):
        return "covered"
    verdict = _module_errors(sample_modules(gray, fitted, expected.shape[0]), expected)
    return "unsure" if verdict == "whole" and not light_there else verdict


EDGE_DIP = 0.25  # of the code's contrast: a dip this deep along a side, beyond both its ends
EDGE_REACH = 2.0  # modules: how far either side of the code's edge a card's outline is looked for
EDGE_DEPTH = (0.6, 2.4)  # modules beyond the code's corners: the strips where it is looked for
EDGE_PX = 4  # grid pixels per module for that look


def edge_dips(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """How deep a dark line runs along each of the code's four sides (left, top, right,
    bottom) beyond both its ends, as a fraction of the code's contrast.

    A card laid a fraction of a module over a code has a straight edge, far longer than the
    code: its thin dark outline runs on past the code's corners, through the quiet zone on
    both sides. A top card's quiet zone (a sticker's paper, 4 modules wide) holds no line
    there. For each side, the two strips beyond its ends (``EDGE_DEPTH`` modules out) are
    averaged across their depth into profiles along the side's normal (±``EDGE_REACH``
    modules round the code's edge); a dip is how far a point lies below the lighter of its two
    neighbourhoods' brightest (so a shadow's slope is no dip), and a side's dip is the smaller
    of its two strips' deepest (a line must cross both).
    """
    import cv2

    n, k, margin = expected.shape[0], EDGE_PX, math.ceil(EDGE_DEPTH[1] + EDGE_REACH)
    size = (n + 2 * margin) * k
    lo, hi = margin * k - 0.5, (margin + n) * k - 0.5
    square = np.array([(lo, lo), (hi, lo), (hi, hi), (lo, hi)], np.float32)
    grid = cv2.warpPerspective(gray, cv2.getPerspectiveTransform(
        np.asarray(corners, np.float32), square), (size, size), flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    means = _module_means(gray, corners, n)
    contrast = max(float(np.median(means[~expected]) - np.median(means[expected])), 1.0)
    near, far = (round((margin - d) * k) for d in EDGE_DEPTH)  # rows above the code
    near_b, far_b = (round((margin + n + d) * k) for d in EDGE_DEPTH)
    reach = round(EDGE_REACH * k)
    dips = []
    for side in range(4):
        turned = np.rot90(grid, side)  # the side looked at becomes the left one
        edge = margin * k
        columns = slice(edge - reach, edge + reach + 1)
        strips = (turned[far:near, columns], turned[near_b:far_b, columns])
        dips.append(min(_deepest_dip(strip.mean(axis=0), k) for strip in strips) / contrast)
    return np.array(dips)


def _deepest_dip(profile: np.ndarray, k: int) -> float:
    """The deepest narrow dip of a profile: each point's depth below the lighter of the
    brightest points a module or more away on its left and on its right."""
    left = np.maximum.accumulate(profile)[: len(profile) - 2 * k]
    right = np.maximum.accumulate(profile[::-1])[::-1][2 * k:]
    middle = profile[k: len(profile) - k]
    return max(float((np.minimum(left, right) - middle).max()), 0.0)


def _noisy_verdict(gray: np.ndarray, plain: np.ndarray, corners: np.ndarray,
                   expected: np.ndarray) -> str:
    """``"whole"`` or ``"unsure"`` for a code too noisy for its quiet zone alone to show the edge
    of a card laid over it (:func:`_too_noisy`): whole only when nothing at all differs, on
    zxing-cpp's grid and on the fitted one, with the quiet zone light on both, and the code's
    one corner without a finder pattern holds a dark module.

    Where the noise may hide a card's edge in the quiet zone, the code itself must show no
    trace of one: no wrong module at all (a buried code whose edge the noise hid showed a few:
    the four dim sweep positions of tests/table/test_view.py), its quiet zone light on both
    grids (the grid fitted to a buried code may reach past the edge zxing-cpp's stops at, or
    the other way round), and a dark module in the fourth corner (a light card over a corner
    without one would flip nothing). Issue 19: the dev frames' dim, one-side-lit, shadowed or
    binned top cards that were unsure (docs/benchmarks.md); a dim overlap sweep at light
    0.35–0.6, noise σ 4–8, blur σ 0.7–1.5 took no more buried codes than without it.
    """
    if not expected[-2:, -2:].any():
        return "unsure"
    n = expected.shape[0]
    grids = (corners, lambda: _fitted_corners(gray, corners, expected))
    for grid in (g() if callable(g) else g for g in grids):  # the fit only when it may matter
        if not _quiet_zone_is_light(plain, grid, expected) or bool(
                (sample_modules(gray, grid, n) != expected).any()):
            return "unsure"
    return "whole"


def _module_errors(sampled: np.ndarray, expected: np.ndarray) -> str:
    """``"whole"``, ``"covered"`` or ``"unsure"`` from the modules that differ from the code's."""
    wrong = sampled != expected
    errors, cluster = int(wrong.sum()), _largest_cluster(wrong)
    if errors <= MAX_BIT_ERRORS and cluster <= MAX_ERROR_CLUSTER:
        return "whole"
    if errors > COVERED_BIT_ERRORS or cluster > COVERED_CLUSTER:
        return "covered"
    return "unsure"


@functools.cache
def _expected_modules(text: str, level: str, version: str, mask: Any) -> np.ndarray | None:
    """The code's modules (True = dark) re-encoded from its text with its own version, level
    and mask; ``None`` when it cannot be (a symbol this product never prints)."""
    import segno

    try:
        qr = segno.make_qr(text, error=level.lower(), version=int(version), mask=int(mask),
                           boost_error=False)
    except (ValueError, TypeError, segno.DataOverflowError):
        return None
    matrix = np.array(qr.matrix, dtype=bool)
    matrix.setflags(write=False)
    return matrix


MODULE_GRID_PX = 5  # each module warped onto 5 × 5 pixels; its middle 3 × 3 are averaged


def sample_modules(gray: np.ndarray, corners: np.ndarray, n: int) -> np.ndarray:
    """The code's n × n modules as read from ``gray`` (True = dark): the code's quadrilateral
    (``corners``: its outer corners, top left first, clockwise) warped onto a grid, each module's
    middle averaged, and the means split by Otsu's threshold.

    zxing-cpp samples one pixel per module, which at 3 px per module under soft focus, tilt or
    dim light flips a few modules of a whole code; a window's mean does not. A covered module
    shows what covers it (a card's border or artwork), which the split still tells from the
    code's own ink and paper where it differs from the re-encoded code.

    >>> code = np.kron(np.eye(3, dtype=np.uint8), np.ones((4, 4), np.uint8))
    >>> gray = np.pad(np.where(code > 0, 30, 220).astype(np.uint8), 8, constant_values=220)
    >>> corners = np.array([(8, 8), (20, 8), (20, 20), (8, 20)], np.float32)
    >>> sample_modules(gray, corners, 3).astype(int).tolist()
    [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    """
    means = _module_means(gray, corners, n)
    threshold = _otsu(means)
    return np.asarray(means < threshold)


FIT_LIMIT = 0.6  # modules: how far a corner of zxing-cpp's may move when the grid is fitted
FIT_STEPS = (0.2, 0.1)  # modules: the fit's moves, coarse then fine
FIT_ROUNDS = 12  # rounds per step at most (a fit moves each corner by a few steps)


def _fitted_corners(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """The code's corners moved (each by at most ``FIT_LIMIT`` modules along x and y) so that
    the modules' contrast with the expected code is greatest.

    zxing-cpp's corners of a version 1 code are estimated (its fourth corner has no finder
    pattern) and may be a pixel off under tilt; at 3 px per module that shifts the outer
    modules' windows onto their neighbours. Moving the grid cannot make a covered code look
    whole: what covers it does not match the code at any alignment.

    Each round tries the 16 moves (each corner's x or y by one step either way) at once, on one
    batch of samples (:class:`_GridFit`), and takes every move that raises the contrast when
    together they raise it more than the best one alone (corners far apart barely interact),
    else the best one: a few rounds, where trying the moves one at a time took about a hundred
    samplings of the grid (issue 19: the fit was most of a reading's time).
    """
    fit = _GridFit(gray, corners, expected)
    start = fit.start
    best, best_score = start, float(fit.scores(start[None])[0])
    for step in FIT_STEPS:
        step_px = step * fit.module_px
        for _ in range(FIT_ROUNDS):
            moves = np.concatenate([np.eye(8), -np.eye(8)]) * step_px
            trials = best.reshape(1, 8) + moves
            allowed = np.all(np.abs(trials - start.reshape(1, 8)) <= fit.limit + 1e-4, axis=1)
            if not allowed.any():
                break
            scores = np.where(allowed, fit.scores(trials.reshape(-1, 4, 2)), -np.inf)
            if scores.max() <= best_score:
                break
            gains = (scores - best_score).reshape(2, 8)  # + moves, then − moves, per coordinate
            sign = np.where(gains[0] >= gains[1], 1.0, -1.0)
            improving = gains.max(axis=0) > 0
            together = best.reshape(8) + np.where(improving, sign * step_px, 0.0)
            single = trials[int(np.argmax(scores))]
            together_score = float(fit.scores(together.reshape(1, 4, 2))[0]) \
                if improving.sum() > 1 else -np.inf
            if together_score > scores.max():
                best, best_score = together.reshape(4, 2), together_score
            else:
                best, best_score = single.reshape(4, 2), float(scores.max())
    fitted: np.ndarray = (best + fit.origin).astype(np.float32)
    return fitted


class _GridFit:
    """The contrast of a code's modules with the expected code, for many placings of its grid
    at once: four points in each module's middle (a quarter of a module from its centre),
    sampled on a copy of the code's neighbourhood."""

    def __init__(self, gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> None:
        self.n = n = expected.shape[0]
        self.module_px = float(np.linalg.norm(corners[1] - corners[0])) / n
        self.limit = FIT_LIMIT * self.module_px
        margin = 2 * self.module_px + 1
        left, top = np.maximum(np.floor(corners.min(axis=0) - margin), 0).astype(int)
        right, bottom = np.ceil(corners.max(axis=0) + margin).astype(int)
        self.patch = np.ascontiguousarray(gray[top:bottom, left:right])
        self.origin = np.array([left, top], np.float64)
        self.start = np.asarray(corners, np.float64) - self.origin
        offsets = np.array([(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)])
        centres = np.stack(np.meshgrid(np.arange(n) + 0.5, np.arange(n) + 0.5), axis=-1)
        unit = (centres.reshape(-1, 1, 2) + offsets).reshape(-1, 2) / n
        self.points = np.vstack([unit.T, np.ones(len(unit))]).astype(np.float32)
        self.weights = np.repeat(np.where(expected, -1.0, 1.0).ravel() / (n * n),
                                 len(offsets)).astype(np.float32)

    def scores(self, quads: np.ndarray) -> np.ndarray:
        """The contrast for each of ``quads`` (T × 4 × 2 corners in the patch's pixels)."""
        import cv2

        x, y = _square_to_quad(quads, self.points)
        rows = (-1, 4 * self.n)  # remap's maps: fewer than 32767 columns, whatever the version
        values = cv2.remap(self.patch, x.reshape(rows), y.reshape(rows), cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
        result: np.ndarray = values.reshape(len(quads), -1).astype(np.float32) @ self.weights
        return result.astype(np.float64)


def _square_to_quad(quads: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points of the unit square (3 × N: u, v, 1) mapped onto each quad (T × 4 × 2, corners
    from the square's (0, 0) clockwise) by the projective map between them (Heckbert's closed
    form, so that many quads take one pass): T × N arrays of x and y (float32).

    >>> square = np.array([[(0, 0), (2, 0), (2, 2), (0, 2)]], float)
    >>> x, y = _square_to_quad(square, np.array([[0.5], [0.25], [1.0]]))
    >>> float(x[0, 0]), float(y[0, 0])
    (1.0, 0.5)
    """
    x0, x1, x2, x3 = (quads[:, i, 0] for i in range(4))
    y0, y1, y2, y3 = (quads[:, i, 1] for i in range(4))
    dx1, dx2, dx3 = x1 - x2, x3 - x2, x0 - x1 + x2 - x3
    dy1, dy2, dy3 = y1 - y2, y3 - y2, y0 - y1 + y2 - y3
    det = dx1 * dy2 - dy1 * dx2
    g = (dx3 * dy2 - dy3 * dx2) / det
    h = (dx1 * dy3 - dy1 * dx3) / det
    one = np.ones_like(g)
    rows = np.stack([x1 - x0 + g * x1, x3 - x0 + h * x3, x0,
                     y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h, one], axis=1)
    mapped = (rows.reshape(-1, 3).astype(np.float32) @ points.astype(np.float32)
              ).reshape(len(quads), 3, -1)  # one product: many small ones are slower
    return mapped[:, 0] / mapped[:, 2], mapped[:, 1] / mapped[:, 2]


def _module_means(gray: np.ndarray, corners: np.ndarray, n: int) -> np.ndarray:
    """The mean grey level in the middle of each of the code's n × n modules (float32)."""
    import cv2

    k = MODULE_GRID_PX
    edge = n * k - 0.5  # pixel centres: the grid's pixel (0, 0) covers the code's corner
    square = np.array([(-0.5, -0.5), (edge, -0.5), (edge, edge), (-0.5, edge)], np.float32)
    to_grid = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), square)
    grid = cv2.warpPerspective(gray, to_grid, (n * k, n * k), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    cells = grid.reshape(n, k, n, k)[:, 1:-1, :, 1:-1].astype(np.float32)
    means: np.ndarray = cells.mean(axis=(1, 3))
    return means


def _otsu(values: np.ndarray) -> float:
    """Otsu's threshold of a set of grey levels (the level that best splits them in two)."""
    import cv2

    levels = np.clip(np.round(values), 0, 255).astype(np.uint8).reshape(1, -1)
    threshold, _ = cv2.threshold(levels, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(threshold) + 0.5


def _largest_cluster(wrong: np.ndarray) -> int:
    import cv2

    if not wrong.any():
        return 0
    count, _, stats, _ = cv2.connectedComponentsWithStats(wrong.astype(np.uint8), connectivity=4)
    return int(stats[1:count, cv2.CC_STAT_AREA].max())


def _corners(barcode: Any) -> np.ndarray:
    p = barcode.position
    return np.array([(c.x, c.y) for c in (p.top_left, p.top_right, p.bottom_right,
                                          p.bottom_left)], np.float32)


def _quiet_zone_is_light(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> bool:
    """The three rings of the quiet zone (1.2, 2.4 and :data:`OUTER_RING` modules out) are as
    light as the code's light modules.

    The third ring, a module inside the sticker's edge, sees a card laid over the quiet zone
    alone whose outline passes between the other two (issue 19: a card 1 to 2.2 modules from
    a buried code, at the binned mode's 2.3 px per module, was taken for whole in 60 of 720
    scenes with it, 99 without; docs/benchmarks.md)."""
    n = expected.shape[0]
    values = _sampled(gray, corners, _code_and_rings(n), n)
    code, outside = values[: n * n], values[n * n:]
    dark = expected.ravel()
    light_level, dark_level = np.median(code[~dark]), np.median(code[dark])
    if light_level - dark_level < 20:  # no contrast: washed out, or not a code at all
        return False
    threshold = dark_level + RING_LEVEL * (light_level - dark_level)
    return int((outside < threshold).sum()) <= RING_TOLERANCE


@functools.cache
def _code_and_rings(n: int) -> np.ndarray:
    """Where :func:`_quiet_zone_is_light` samples an n-module code, in module units (N × 1 × 2):
    each module's centre, then the quiet-zone rings (:func:`_rings`, then :data:`OUTER_RING`)."""
    inside = [(c + 0.5, r + 0.5) for r in range(n) for c in range(n)]
    outer = np.array(_ring(n, -OUTER_RING), np.float32)
    points = np.concatenate([np.array(inside, np.float32), _rings(n).reshape(-1, 2), outer])
    points = points.reshape(-1, 1, 2)
    points.setflags(write=False)
    return points


@functools.cache
def _rings(n: int) -> np.ndarray:
    """The two quiet-zone rings' sample points, 1.2 and 2.4 modules outside an n-module code,
    in module units (N × 1 × 2): the inner ring's, then the outer one's at the same places."""
    ring = np.array([(u, v) for d in (-1.2, -2.4) for u, v in _ring(n, d)], np.float32)
    ring = ring.reshape(-1, 1, 2)
    ring.setflags(write=False)
    return ring


def _sampled(gray: np.ndarray, corners: np.ndarray, points: np.ndarray, n: int
             ) -> np.ndarray:
    """Grey levels (bilinear, float) at ``points`` of an n-module code (module units, N × 1 ×
    2) whose outer corners in ``gray`` are ``corners``."""
    import cv2

    square = np.array([(0, 0), (n, 0), (n, n), (0, n)], np.float32)
    to_frame = cv2.getPerspectiveTransform(square, np.asarray(corners, np.float32))
    xy = cv2.perspectiveTransform(points, to_frame).reshape(-1, 2)
    values = cv2.remap(gray, xy[:, 0].reshape(-1, 1), xy[:, 1].reshape(-1, 1),
                       cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(values).ravel().astype(float)


MIN_SNR = 18.0  # the code's contrast over the sensor noise below which no edge can be seen


def _too_noisy(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> bool:
    """Whether the frame is too dim and noisy round the code for its quiet zone to show the
    edge of a card laid over it: the code's contrast (light modules' level minus dark ones')
    under :data:`MIN_SNR` times the sensor noise measured on the quiet zone. Such a code may
    be whole or covered: it is *unsure*. An overlap sweep in a dim room (light 0.35–0.6,
    sensor noise σ 4–8, blur σ 0.7–1.5: 378 scenes, 100 buried codes decoded) let a buried
    code pass the other tests 4 times without this guard, once with a bound of 15, never with
    18; on the dev frames 5 % of codes lie under 17.
    """
    n = expected.shape[0]
    means = _module_means(gray, corners, n)
    contrast = float(np.median(means[~expected]) - np.median(means[expected]))
    return contrast < MIN_SNR * _ring_noise(_ring_values(gray, corners, n))


def _ring_values(gray: np.ndarray, corners: np.ndarray, n: int) -> np.ndarray:
    """The grey levels on the two quiet-zone rings of :func:`_quiet_zone_is_light` (the inner
    ring's samples, then the outer one's, at the same places along the sides)."""
    return _sampled(gray, corners, _rings(n), n)


def _ring_noise(outside: np.ndarray) -> float:
    """The sensor noise on the quiet zone (a standard deviation in grey levels): from the
    differences between the two rings' samples at the same places along the code's sides
    (the paper's level and its slow gradients cancel out; a card edge touches few samples,
    which the median leaves out).

    >>> rng = np.random.default_rng(1)
    >>> round(_ring_noise(200 + rng.normal(0, 5, 400)))
    5
    """
    inner, outer = np.split(np.asarray(outside, float), 2)
    differences = inner - outer
    spread = np.median(np.abs(differences - np.median(differences)))
    return float(1.4826 * spread / math.sqrt(2))


def _ring(n: int, d: float) -> list[Point]:
    """Sample points along a square ring at distance ``-d`` outside an n-module code."""
    low, high = d, n - d
    steps = np.linspace(low, high, 2 * n + 4)
    return ([(float(s), low) for s in steps] + [(float(s), high) for s in steps]
            + [(low, float(s)) for s in steps[1:-1]] + [(high, float(s)) for s in steps[1:-1]])


# -- a second look -------------------------------------------------------------------------------

_HIGHLIGHTS_DOWN = np.clip(255.0 * (np.arange(256) / 255.0) ** 2.2, 0, 255).astype(np.uint8)


def highlights_down(crop: np.ndarray) -> np.ndarray:
    """The crop under a tone curve that spreads the light levels (a gamma of 2.2): a sticker's
    dark modules lifted by a glossy highlight part from its light ones again."""
    import cv2

    return np.asarray(cv2.LUT(np.ascontiguousarray(crop), _HIGHLIGHTS_DOWN))


def as_it_is(crop: np.ndarray) -> np.ndarray:
    """The crop unchanged (with :data:`SECOND_LOOKS`' enlargement: a soft or small code)."""
    return crop


#: The second looks, cheapest first: how the zone's crop is redrawn, and how much more it is
#: enlarged (on top of the reader's own enlargement, at most 2× in all). Local contrast
#: (CLAHE) was tried first and read nothing more on the dev frames: left out.
SECOND_LOOKS = ((highlights_down, 1.0), (as_it_is, 2.0))


def _moved_by(corners: Quad, dx: float, dy: float) -> Quad:
    (ax, ay), (bx, by), (cx, cy), (ex, ey) = corners
    return (ax + dx, ay + dy), (bx + dx, by + dy), (cx + dx, cy + dy), (ex + dx, ey + dy)


def merge_looks(looks: Sequence[Sequence[Code]], half_code_px: float) -> list[Code]:
    """The codes of several looks at one zone as one list, one code per place: a symbol
    unreadable in one look and read in another at the same place is that code; a code judged
    covered in any look is covered, else whole if whole in any look, else unsure.

    >>> a = ((0.0, 0.0), (20.0, 0.0), (20.0, 20.0), (0.0, 20.0))
    >>> merged = merge_looks([[Code("", a, False, readable=False)], [Code("X", a, True)]], 10)
    >>> [(c.text, c.fully_visible) for c in merged]
    [('X', True)]
    """
    places: list[list[Code]] = []
    for code in (c for look in looks for c in look):
        place = next((p for p in places if math.dist(p[0].centre, code.centre) < half_code_px),
                     None)
        if place is None:
            places.append([code])
        else:
            place.append(code)
    return [_one_code(place) for place in places]


def _one_code(place: Sequence[Code]) -> Code:
    read = [c for c in place if c.readable]
    if not read:
        return place[0]
    if len({c.text for c in read}) > 1:  # two texts at one place: not sure of either
        return replace(read[0], fully_visible=False, unsure=True)
    covered = any(not c.fully_visible and not c.unsure for c in read)
    whole = not covered and any(c.fully_visible for c in read)
    return replace(read[0], fully_visible=whole, unsure=not covered and not whole)


# -- the reader ----------------------------------------------------------------------------------

@dataclass
class TableReader:
    """Reads tables, one frame at a time (it keeps only its zxing-cpp options between frames).

    ``marker_width``: the widest copy markers are searched on (PLATFORM-NOTES: ≤ 1536 px finds
    96–97 % of 20 mm markers at 75 cm; :func:`search_scale` halves the frame down to between ¾
    of it and it, 1152 px for the 4608 px sensor, and the look again at full resolution finds
    the rest); ``enlarge_below``: crops whose modules are smaller than this many
    pixels are enlarged 2× before decoding (for the 2×2-binned mode or a high camera).
    """

    marker_width: int = ARUCO_MAX_WIDTH
    enlarge_below: float = 2.6
    _read: Any = field(default=None, init=False, repr=False)
    _read_closer: Any = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        import zxingcpp

        self._read = functools.partial(
            zxingcpp.read_barcodes, formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode),
            try_rotate=False,
            try_invert=False, try_downscale=False, text_mode=zxingcpp.TextMode.Plain,
            return_errors=True)
        # The second look also lets zxing-cpp search scaled-down copies of the zone, as a bare
        # whole-frame reading does: a dim, soft code it misses at full size (issue 19: 5 more
        # DEV top cards; on every zone it cost 5 % of a reading's time for the same 5).
        self._read_closer = functools.partial(self._read, try_downscale=True)

    def read(self, frame: np.ndarray, *, loose: bool = False) -> TableReading:
        """The reading of one frame: grayscale (H × W, uint8), or BGR (converted first).

        ``loose``: also read the codes beside the mats (one more pass over the whole frame:
        the round-end hand scan asks for it; an ordinary reading does not pay for it)."""
        started = time.perf_counter()
        gray = _gray(frame)
        markers = self.find_markers(gray)
        poses = mat_poses(markers)
        ferries = self.read_ferries(gray, poses)
        noah_at = noah_marker(markers)
        noah = noah_ferry(noah_at, poses)
        beside = self.loose_codes(gray, poses) if loose else None
        ms = (time.perf_counter() - started) * 1000
        return TableReading(ferries, noah, noah_at, ms, beside)

    def find_markers(self, gray: np.ndarray, boxes: Sequence[Box] | None = None,
                     known: Iterable[int] = ()) -> list[Marker]:
        """The kit's markers in the frame (or only in ``boxes``, full-frame pixels): found on a
        copy at most :attr:`marker_width` wide, then looked for again at full resolution
        (:func:`look_again`) where a mat's marker is missing; the ids ``known`` (placed by a
        caller that remembers them) are not looked for again."""
        if boxes is None:
            boxes = [(0, 0, gray.shape[1], gray.shape[0])]
        scale = search_scale(gray.shape[1], self.marker_width)
        found: list[Marker] = []
        candidates: list[np.ndarray] = []
        for box in boxes:
            markers, rejected = detect_markers(gray, box, scale)
            found += markers
            candidates += rejected
        return look_again(gray, unique_markers(found), candidates, known)

    def read_ferries(self, gray: np.ndarray, poses: Mapping[int, MatPose],
                     which: Iterable[int] = FERRIES) -> dict[int, FerryView]:
        """The views of the ferries ``which`` (their mats' places: ``poses``, which may hold
        other mats too: a code is given to the mat whose zone holds it)."""
        wanted = [k for k in which if k in poses]
        codes = self._codes(gray, poses, wanted)
        views = {k: self._ferry_view(poses.get(k), codes.get(k, [])) for k in which}
        for k in wanted:
            zone = views[k].zone
            blank = functools.partial(zone_is_blank, gray, zone) if zone else lambda: True
            if views[k].top is None and _may_hide_the_top(codes.get(k, []), blank):
                views[k] = self._look_closer(gray, poses, k, codes.get(k, [])) or views[k]
        return views

    def _ferry_view(self, pose: MatPose | None, codes: Sequence[Code]) -> FerryView:
        if pose is None:
            return FerryView()
        return FerryView(
            seen=True, top=top_card(codes), zone=pose.quad(*CARD_ZONE_MM), centre=pose.centre,
            px_per_module=pose.px_per_mm * QR_MODULES_MM,
            codes=tuple(sorted({c.text for c in codes if c.readable})))

    def _codes(self, gray: np.ndarray, poses: Mapping[int, MatPose], which: Sequence[int]
               ) -> dict[int, list[Code]]:
        """Every code read in the zones of the mats ``which``, each given to the mat it lies on
        (among all of ``poses``)."""
        zones = [np.array(poses[k].search_zone(), np.float32) for k in which]
        boxes = merge_boxes([_box(zone, gray.shape) for zone in zones])
        enlarge = self._enlargement(poses)
        found: dict[int, list[Code]] = {}
        seen: set[tuple[str, int, int]] = set()
        for left, top, right, bottom in boxes:
            for code in self._decode_crop(gray, left, top, right, bottom, enlarge):
                key = (code.text, round(code.centre[0] / 16), round(code.centre[1] / 16))
                ferry = _zone_of(code.centre, poses)
                if ferry is not None and ferry in which and key not in seen:
                    seen.add(key)
                    found.setdefault(ferry, []).append(code)
        return found

    def _look_closer(self, gray: np.ndarray, poses: Mapping[int, MatPose], ferry: int,
                     codes: list[Code]) -> FerryView | None:
        """A second look at one ferry that gave no top card while its zone holds an unsure
        code or a symbol located but not read, or no code in a zone that is not bare mat
        (:func:`_may_hide_the_top`: glare over part of a code, a soft or small code): its zone
        decoded again with
        the highlights pulled down, then enlarged 2× (when the reader did not enlarge it
        already), each look's codes judged on the image it was read in and all looks merged
        (:func:`merge_looks`). The top-card test alone
        decides, so a second look can only read what is there: never a guess."""
        pose = poses[ferry]
        left, top, right, bottom = _box(np.array(pose.search_zone(), np.float32), gray.shape)
        crop = gray[top:bottom, left:right]
        enlarge = self._enlargement(poses)
        looks = [codes]
        for enhance, more in SECOND_LOOKS:
            if enlarge * more > 2.0:
                continue
            image = enhance(crop)
            found = self._decode_crop(image, 0, 0, image.shape[1], image.shape[0],
                                      enlarge * more, read=self._read_closer)
            shifted = [replace(c, corners=_moved_by(c.corners, left, top)) for c in found]
            looks.append([c for c in shifted if _zone_of(c.centre, poses) == ferry])
            merged = merge_looks(looks, pose.px_per_mm * QR_MODULES_MM * 10.5)
            if top_card(merged) is not None:
                return self._ferry_view(pose, merged)
        return None

    def _enlargement(self, poses: Mapping[int, MatPose]) -> float:
        """2 when the stickers' modules are too small for zxing-cpp as they are, else 1."""
        px_per_module = min((p.px_per_mm * QR_MODULES_MM for p in poses.values()), default=0)
        return 2.0 if 0 < px_per_module < self.enlarge_below else 1.0

    def loose_codes(self, gray: np.ndarray, poses: Mapping[int, MatPose]
                     ) -> tuple[LooseCode, ...] | None:
        """The codes whose centre lies outside every mat's area, from the whole frame with the
        mats' areas painted over (their codes are the ferries' and were read already); ``None``
        unless all five mats are located."""
        import cv2

        if len(poses) < len(FERRIES):
            return None
        beside = gray.copy()
        level = int(gray[::16, ::16].mean())  # a flat patch: nothing there to decode
        for pose in poses.values():
            area = np.round(np.array(pose.area(), np.float32)).astype(np.int32)
            cv2.fillConvexPoly(beside, area, level)
        height, width = gray.shape
        centres = {k: pose.centre for k, pose in poses.items()}
        found: dict[str, LooseCode] = {}
        for code in self._decode_crop(beside, 0, 0, width, height, self._enlargement(poses),
                                      judge=False):
            if code.readable and not any(p.holds(code.centre) for p in poses.values()):
                near = min(centres, key=lambda k: math.dist(code.centre, centres[k]))
                found.setdefault(code.text, LooseCode(code.text, code.centre, near))
        return tuple(sorted(found.values(), key=lambda c: c.text))

    def _decode_crop(self, gray: np.ndarray, left: int, top: int, right: int, bottom: int,
                     enlarge: float, *, judge: bool = True, read: Any = None) -> list[Code]:
        """The codes in a crop, corners in frame pixels; ``judge``: classify each one as whole,
        covered or unsure (:func:`visibility`; only a top card needs it); ``read``: zxing-cpp
        with other options than the reader's own."""
        source = gray[top:bottom, left:right]
        crop = enlarged(source, enlarge, sharp=True)
        plain: np.ndarray | None = None  # the unsharpened copy, made when a code is judged
        codes = []
        for barcode in (read or self._read)(crop):
            corners = _corners(barcode) / enlarge + np.array([left, top], np.float32)
            quad = tuple((float(x), float(y)) for x, y in corners)
            if not barcode.valid:
                codes.append(Code("", quad, False, readable=False))  # type: ignore[arg-type]
                continue
            if judge and plain is None:
                plain = enlarged(source, enlarge, sharp=False)
            seen = visibility(barcode, crop, plain) if judge else "whole"
            codes.append(Code(barcode.text, quad, seen == "whole",  # type: ignore[arg-type]
                              unsure=seen == "unsure"))
        return codes


def enlarged(crop: np.ndarray, factor: float, *, sharp: bool) -> np.ndarray:
    """A crop enlarged ``factor`` times (contiguous; the crop itself when ``factor`` is 1):
    ``sharp`` by cubic interpolation, for zxing-cpp, else by linear interpolation, for judging
    a code (:func:`visibility`).

    Cubic interpolation overshoots at edges: at the 2.2 px per module of the binned mode it
    lifts a light module's middle between dark ones above the plain paper of the quiet zone,
    by up to a tenth of the code's contrast, and whole codes failed the quiet-zone test (issue
    19: 64 of the 138 DEV top cards missed, 41 binned, 23 dim ones that the second look
    enlarges; docs/benchmarks.md). Linear interpolation never
    overshoots, but zxing-cpp decodes fewer small codes on it (291 against 502 in a binned
    overlap sweep) and a soft code's modules blur into their neighbours: a code is decoded
    and its modules judged on the sharp copy, its quiet zone on the plain one
    (:func:`visibility`).

    >>> module = np.array([[40, 40, 40, 220, 220, 40, 40, 40]], np.uint8)  # one light module
    >>> int(enlarged(module, 2.0, sharp=True).max()), int(enlarged(module, 2.0, sharp=False).max())
    (245, 220)
    >>> enlarged(module, 1.0, sharp=True) is module
    True
    """
    import cv2

    if factor == 1.0:
        return np.ascontiguousarray(crop)
    interpolation = cv2.INTER_CUBIC if sharp else cv2.INTER_LINEAR
    return np.ascontiguousarray(cv2.resize(crop, None, fx=factor, fy=factor,
                                           interpolation=interpolation))


def _may_hide_the_top(codes: Sequence[Code], blank: Callable[[], bool]) -> bool:
    """Whether a ferry without a top card is worth a second look (:meth:`TableReader.
    _look_closer`): one of its codes is unsure or a symbol was located but not read, or no
    code was read at all in a zone that is not bare mat (``blank``: whether it is).

    A zone whose codes were all judged covered was looked at again too until issue 19's speed
    work: on 120 dev frames that read no top card in 38 looks (a quarter of the second looks'
    time); the second looks' top cards came from zones with an unsure code, or with no code
    read (soft codes that the enlarged look reads).

    >>> square = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    >>> _may_hide_the_top([Code("A", square, False)], lambda: False)
    False
    >>> _may_hide_the_top([], lambda: False), _may_hide_the_top([], lambda: True)
    (True, False)
    """
    if not codes:
        return not blank()
    return any(c.unsure or not c.readable for c in codes)


def _zone_of(point: Point, poses: Mapping[int, MatPose]) -> int | None:
    """The mat whose search zone holds ``point``; the nearest centre (in mat units) if two do."""
    width, height = MAT_MM
    best: tuple[float, int] | None = None
    for ferry, pose in poses.items():
        x, y = pose.to_mat(np.array([point]))[0]
        if -ZONE_OVERHANG_MM <= x <= width + ZONE_OVERHANG_MM and 0 <= y <= height:
            distance = math.hypot((x - width / 2) / width, (y - height / 2) / height)
            if best is None or distance < best[0]:
                best = (distance, ferry)
    return None if best is None else best[1]


def _box(quad: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    height, width = shape[:2]
    left, top = np.floor(quad.min(axis=0)).astype(int)
    right, bottom = np.ceil(quad.max(axis=0)).astype(int)
    return max(0, int(left)), max(0, int(top)), min(width, int(right)), min(height, int(bottom))


def merge_boxes(boxes: Iterable[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Boxes ``(left, top, right, bottom)`` with every overlapping pair merged into its union.

    >>> merge_boxes([(0, 0, 10, 10), (5, 5, 20, 20), (30, 30, 40, 40)])
    [(0, 0, 20, 20), (30, 30, 40, 40)]
    """
    merged = [b for b in boxes if b[2] > b[0] and b[3] > b[1]]
    changed = True
    while changed:
        changed = False
        for i in range(len(merged)):
            for j in range(i + 1, len(merged)):
                a, b = merged[i], merged[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    merged[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]),
                                 max(a[3], b[3]))
                    del merged[j]
                    changed = True
                    break
            if changed:
                break
    return sorted(merged)


def _gray(frame: np.ndarray) -> np.ndarray:
    image = np.asarray(frame)
    if image.ndim == 3:
        import cv2

        image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if image.ndim != 2 or image.dtype != np.uint8:
        raise VisionError("A table frame must be an 8-bit grayscale or BGR image.",
                          "Give the camera's Y plane or a BGR frame.")
    return np.ascontiguousarray(image)
