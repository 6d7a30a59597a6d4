"""Markers, mats and Noah in one overhead frame: ArUco markers found (and looked for again
where a mat is missing), each mat's pose from its markers, and the ferry where Noah stands
(TABLE-KIT.md; the reader is :mod:`vision.table`).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from vision.table_kit import (
    ARUCO_MAX_WIDTH,
    FERRIES,
    MARKER_INSET_MM,
    MARKER_MM,
    MAT_AREA_MM,
    MAT_MM,
    NOAH_MARKER,
    SEARCH_ZONE_MM,
    Box,
    Point,
    Quad,
    aruco_dictionary,
    marker_corners_mm,
    marker_ids,
)

# -- markers and mats ----------------------------------------------------------------------------

#: The shortest outline a search of the whole frame looks at, a share of its copy's longer side
#: (ArUco's ``minMarkerPerimeterRate``; :func:`_aruco_detector` says why this much).
LEAST_PERIMETER = 0.04
#: The shortest outline the look again looks at: a marker half as wide as the one looked for
#: (:func:`look_again`; the rate of its box, 3.2 markers wide, would let every speck through).
LOOK_AGAIN_LEAST_SIDE = 0.5

@dataclass(frozen=True)
class Marker:
    """One ArUco marker found in a frame: its id and its corners in full-frame pixels."""

    id: int
    corners: np.ndarray  # 4 × 2 float32, ArUco's order

    # Both kept once computed (a marker's corners are not changed after it is found): a cold
    # frame asked them about 35 times a frame, a third of the mats' poses' time. A sum over
    # four, as ``mean`` works it out (the same bits), without ``mean``'s machinery: half the
    # time of these two, which each marker and each place looked at again needs.
    @functools.cached_property
    def centre(self) -> Point:
        x, y = np.add.reduce(self.corners, axis=0) / 4
        return float(x), float(y)

    @functools.cached_property
    def side_px(self) -> float:
        return float(np.add.reduce(_sides(self.corners)) / 4)


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
        return np.asarray(cv2.perspectiveTransform(points, self._inverse)).reshape(-1, 2)

    @functools.cached_property
    def _inverse(self) -> np.ndarray:
        """Frame pixels → mat millimetres: each code read is placed on every mat with it."""
        return np.asarray(np.linalg.inv(self.matrix))

    @functools.cached_property  # kept: a pose's matrix is not changed (``replace`` makes anew)
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
    """``gray`` scaled by ``scale`` for the marker search: by halvings (each an exact
    2 × 2 average, the cheap shrink) when ``scale`` is a power of ½, else by area (the look
    again enlarges a small marker 2×: :func:`_look_again_scale`).

    >>> shrunk(np.zeros((2592, 4608), np.uint8), 0.25).shape
    (648, 1152)
    >>> shrunk(np.zeros((60, 90), np.uint8), 2.0).shape
    (120, 180)
    """
    import cv2

    if scale == 1.0:
        return gray
    halvings = -math.log2(scale)
    if scale > 1.0 or not halvings.is_integer():  # an enlargement is no halving
        return np.asarray(cv2.resize(gray, None, fx=scale, fy=scale,
                                     interpolation=cv2.INTER_AREA))
    small = gray
    for _ in range(int(halvings)):
        small = cv2.resize(small, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    return np.asarray(small)


def detect_markers(gray: np.ndarray, box: Box, scale: float, *, quick: bool = False,
                   wide: bool = False, shortest: float | None = None,
                   copy: np.ndarray | None = None) -> tuple[list[Marker], list[np.ndarray]]:
    """The kit's markers in one box of the frame searched on a copy scaled by ``scale``, and
    the candidates ArUco rejected there (square outlines it could not decode: 4 × 2 corners
    in full-frame pixels), for :func:`look_again`. ``quick``, ``wide``: with only the first or
    only the second of the two thresholding windows (:func:`whole_frame_markers`).

    ``shortest``: the shortest outline looked at (a perimeter in frame pixels); by default
    that of a search of the whole frame (:data:`LEAST_PERIMETER` of its longer side), wherever
    the box. ArUco's own floor is a share of the image it is given: in a small box every speck
    of the thresholded image is an outline to follow, approximate and test, which cost a box
    searched several times what its pixels did (issue 19, docs/benchmarks.md, branch
    ``tmark``); a box's marker shorter than the whole frame's floor would not be found on a
    cold frame either. ``copy``: the box's scaled copy, when the caller has it already (a
    whole frame searched with each window in turn shrinks it once: a full-resolution frame's
    shrink is a 12 MP read, a quarter of a search).
    """
    left, top, right, bottom = box
    small = shrunk(gray[top:bottom, left:right], scale) if copy is None else copy
    least = _least_rate(gray.shape, small.shape, scale, shortest)
    if least > MOST_PERIMETER:  # no marker that long fits in the box
        return [], []
    corners, ids, rejected = _aruco_detector(scale < 1.0, quick, wide, least).detectMarkers(small)
    origin = np.array([left, top], np.float32)
    markers = []
    for marker_id, quad in zip([] if ids is None else ids.ravel().tolist(), corners,
                               strict=True):
        if 0 <= marker_id <= NOAH_MARKER:
            points = quad.reshape(4, 2) / scale + origin
            markers.append(Marker(marker_id, _refined(gray, points, scale)))
    candidates = list(np.asarray(rejected).reshape(-1, 4, 2) / scale + origin)
    return markers, candidates


#: ArUco's longest outline, a share of the image's longer side (its default,
#: ``maxMarkerPerimeterRate``).
MOST_PERIMETER = 4.0


def _least_rate(frame: tuple[int, ...], copy: tuple[int, ...], scale: float,
                shortest: float | None) -> float:
    """ArUco's ``minMarkerPerimeterRate`` for a box's ``copy`` (its shape) of a ``frame`` (its
    shape) scaled by ``scale``, for outlines ``shortest`` frame pixels long or longer (``None``:
    a whole frame search's, :data:`LEAST_PERIMETER` of the frame's copy).

    >>> _least_rate((2592, 4608), (648, 1152), 0.25, None)  # the whole frame: ArUco's own rate
    0.04
    >>> _least_rate((2592, 4608), (60, 90), 0.25, None)  # a box: the whole frame's 46 px
    0.512
    >>> _least_rate((2592, 4608), (200, 200), 1.0, 160.0)
    0.8
    """
    longer = max(copy[:2])
    if shortest is None:
        if longer == round(max(frame[:2]) * scale):  # the whole frame: ArUco's rate as it is
            return LEAST_PERIMETER
        shortest = LEAST_PERIMETER * max(frame[:2])
    return shortest * scale / max(1, longer)


def whole_frame_markers(gray: np.ndarray, scale: float, known: Iterable[int] = ()
                        ) -> tuple[list[Marker], list[np.ndarray]]:
    """:func:`detect_markers` over the whole frame, first with ArUco's 3 px thresholding
    window alone (about 40 % of the two windows' time). That is enough when every mat and Noah
    show a marker there (or are ``known``): :func:`look_again` then looks for each mat's other
    marker at full resolution where it should be. Otherwise the 23 px window searches too,
    and its markers are added (:func:`unique_markers` keeps a marker both found once, and
    drops an id found at two places, as after one search with both windows).

    Issue 19 (docs/benchmarks.md, branch ``tcost``): the 3 px window alone misses about 1
    marker in 20 that the 23 px window finds (a soft or dim one), which the look again finds
    beside its mat's other marker; a mat or Noah with no marker at all is what the second
    window is for. On the 200 DEV frames 128 were settled by the quick search, and every
    frame's markers were those of the two-window search (100 fresh frames: one true marker
    more).
    """
    box, small = (0, 0, gray.shape[1], gray.shape[0]), shrunk(gray, scale)
    markers, candidates = detect_markers(gray, box, scale, quick=True, copy=small)
    found = {m.id for m in markers} | set(known)
    if NOAH_MARKER in found and all(set(marker_ids(k)) & found for k in FERRIES):
        return markers, candidates
    more, rejected = detect_markers(gray, box, scale, wide=True, copy=small)
    # the caller's unique_markers keeps each marker once; a square both windows rejected is
    # kept once too, or it would take two of look_again's places
    return markers + more, candidates + _other_squares(rejected, candidates)


def _other_squares(squares: Sequence[np.ndarray], seen: Sequence[np.ndarray]
                   ) -> list[np.ndarray]:
    """The ``squares`` (4 × 2 corners each) whose centre is not within a quarter of their side
    of the centre of one of ``seen``: the same outline found on two thresholdings.

    >>> square = np.array([(0, 0), (40, 0), (40, 40), (0, 40)], np.float32)
    >>> len(_other_squares([square + 2, square + 100], [square]))
    1
    """
    if not seen or not squares:
        return list(squares)
    quads = np.asarray(squares)
    offsets = quads.mean(axis=1)[:, None] - np.asarray(seen).mean(axis=1)[None]
    nearest = np.sqrt((offsets * offsets).sum(axis=2)).min(axis=1)
    first = quads[:, 1] - quads[:, 0]
    side = np.sqrt((first * first).sum(axis=1))
    return [square for square, keep in zip(squares, nearest >= side / 4, strict=True) if keep]


def _sides(corners: np.ndarray) -> np.ndarray:
    """The four sides' lengths of a quadrilateral (4 × 2 corners), each as
    ``np.linalg.norm`` gives it, in the corners' own precision.

    >>> _sides(np.array([(0, 0), (3, 0), (3, 4), (0, 4)], np.float32)).tolist()
    [3.0, 4.0, 3.0, 4.0]
    """
    steps = corners - corners[[1, 2, 3, 0]]
    return np.asarray(np.sqrt((steps * steps).sum(axis=1)))


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
#: The margins hold for mats up to this far from Noah; farther, they grow as the square of the
#: distance. Issue 19's Noah sweep (docs/benchmarks.md, branch ``tnoah``; two-marker mats,
#: twice the measured corner noise) put Noah's lead of one mat over another off by at most
#: 6.0 mm where the farther mat lies 100-120 mm from Noah, 7.6 at 120-140, 10.5 at 140-160,
#: 12.0 at 160-200: a flat 10 mm once named a wrong ferry 148 mm from both mats.
NOAH_TIE_REACH_MM = 120.0
#: The margin when no mat shows both markers (every pose a similarity, none through the table
#: plane: :func:`_table_plane_known`). Issue 19's Noah sweep (docs/benchmarks.md, branch
#: ``tnoah``: every mat placed by one marker, 6,000 Noah spots on 300 scene cameras up to 25° of
#: lean, twice the measured corner noise) found a wrong mat looking nearer by up to 30-40 mm,
#: never 40: 60 leaves half as much again.
NOAH_TIE_NO_PLANE_MM = 60.0
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
        shortest = 4 * LOOK_AGAIN_LEAST_SIDE * side
        extra += [m for m in detect_markers(gray, box, _look_again_scale(side),
                                            shortest=shortest)[0]
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
    when one of them is placed by a single marker, less exactly; wider for mats farther than
    :data:`NOAH_TIE_REACH_MM`, and :data:`NOAH_TIE_NO_PLANE_MM` when no mat shows both
    markers): not clear, ``None``. A mat
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


def _table_plane_known(poses: Mapping[int, MatPose]) -> bool:
    """Whether every mat placed by one marker has its second estimate through the table plane
    (:attr:`MatPose.through_table`): not so when no mat shows both markers.

    A similarity alone cannot follow the camera's lean: with every mat placed by one marker,
    a camera leaning 25° put Noah 21 mm off his distance to a mat, beyond the 15 mm margin, and
    at a wrong ferry (issue 19's Noah sweep, docs/benchmarks.md, branch ``tnoah``); such a
    table gets the wide margin :data:`NOAH_TIE_NO_PLANE_MM`.
    """
    return all(pose.markers == 2 or pose.through_table is not None for pose in poses.values())


def _nearest_clearly(noah_at: Point, poses: Mapping[int, MatPose]) -> int | None:
    """The ferry whose mat centre is nearest to ``noah_at`` (millimetres in each mat's plane)
    by the tie margins from every other mat, else ``None`` (:func:`noah_ferry`)."""
    centre = np.array(MAT_MM) / 2
    distances = sorted((float(np.linalg.norm(pose.to_mat(np.array([noah_at]))[0] - centre)), k)
                       for k, pose in poses.items())
    nearest, ferry = distances[0]
    clear = all(farther - nearest >= _tie_margin(poses, ferry, other, farther)
                for farther, other in distances[1:])
    return ferry if clear else None


def _tie_margin(poses: Mapping[int, MatPose], ferry: int, other: int, farther: float) -> float:
    """How much nearer ``ferry``'s mat must be than ``other``'s, ``farther`` mm from Noah, for
    Noah to be placed there (millimetres): by how exactly the poses are known, and wider with
    the distance beyond :data:`NOAH_TIE_REACH_MM` (a pose's error grows as the square of how
    far past its markers it is carried).

    >>> two = {k: MatPose(k, np.eye(3), 1.0) for k in (1, 2)}
    >>> _tie_margin(two, 1, 2, 100.0), _tie_margin(two, 1, 2, 180.0)
    (10.0, 22.5)
    """
    if not _table_plane_known(poses):
        return NOAH_TIE_NO_PLANE_MM
    exact = poses[ferry].markers == 2 and poses[other].markers == 2
    margin = NOAH_TIE_MM if exact else NOAH_TIE_ONE_MARKER_MM
    return margin * max(1.0, farther / NOAH_TIE_REACH_MM) ** 2


def _refined(gray: np.ndarray, corners: np.ndarray, scale: float) -> np.ndarray:
    """Corners found on a scaled copy, refined to sub-pixel accuracy on the full frame."""
    import cv2

    points = np.ascontiguousarray(corners, np.float32).reshape(-1, 1, 2)
    if scale < 1.0:
        window = max(2, round(1.5 / scale))
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 20, 0.05)
        cv2.cornerSubPix(gray, points, (window, window), (-1, -1), criteria)
    return points.reshape(4, 2)


@functools.lru_cache(maxsize=64)  # a box's floor differs with its size: a few dozen a play
def _aruco_detector(scaled: bool = False, quick: bool = False, wide: bool = False,
                    least: float = LEAST_PERIMETER) -> Any:
    """ArUco's detector for the kit's markers; ``scaled``: the one for a scaled-down copy of the
    whole frame, whose corners :func:`_refined` refines on the full frame anyway; ``quick``,
    ``wide``: with the 3 px or the 23 px thresholding window only (:func:`whole_frame_markers`);
    ``least``: the shortest outline, a share of the image's longer side (:func:`_least_rate`).
    """
    import cv2

    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # Two thresholding windows (3 and 23 px) instead of three (3, 13, 23): as many markers
    # found on the dev frames, in about 60 % of the time. Outlines shorter than 4 % of the
    # image's width are not markers at the kit's distances (a marker is at least 15 px wide
    # on the 1152 px copy from 100 cm, a perimeter of 5 %): the sticker's modules and the
    # mats' lettering are dropped early.
    parameters.adaptiveThreshWinSizeStep = 20
    parameters.minMarkerPerimeterRate = least
    parameters.maxMarkerPerimeterRate = MOST_PERIMETER
    if quick:
        parameters.adaptiveThreshWinSizeMax = parameters.adaptiveThreshWinSizeMin
    if wide:
        parameters.adaptiveThreshWinSizeMin = parameters.adaptiveThreshWinSizeMax
    if scaled:  # corners refined on the scaled copy would be refined again on the full frame
        parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    return cv2.aruco.ArucoDetector(aruco_dictionary(), parameters)


def mat_poses(markers: Iterable[Marker], table: Iterable[MatPose] = ()
              ) -> dict[int, MatPose]:
    """Each located mat's pose, from one or both of its markers.

    Two markers give a homography (tilt included); one gives a similarity (rotation, scale,
    position), accurate to a millimetre or two over the mat at 10° of tilt. Two markers that
    disagree with the mat's geometry (123 mm apart) leave that mat unlocated. ``table``: poses
    of this frame's other mats, known already (a tracker's kept ones), whose table plane a mat
    placed by one marker may be fitted in too (:attr:`MatPose.through_table`).
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
    return _with_table_plane(poses, by_id, table)


def _with_table_plane(poses: dict[int, MatPose], by_id: Mapping[int, Marker],
                      table: Iterable[MatPose] = ()) -> dict[int, MatPose]:
    """``poses`` with each one-marker mat's second estimate (:attr:`MatPose.through_table`),
    when some mat (of ``poses`` or ``table``) is placed by two markers."""
    others = [pose for pose in table if pose.ferry not in poses]  # placed now: the new pose
    two = [pose for pose in itertools.chain(poses.values(), others) if pose.markers == 2]
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
