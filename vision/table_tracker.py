"""Following a table frame after frame: mats kept while nothing moves near them, only the
ferries that changed read again.

:class:`vision.table.TableReader` reads one frame alone. A camera or a recording gives frames
of one table, which changes only where someone touched it: :class:`TableTracker` keeps, from
one reading to the next,

* each mat's pose (:class:`vision.table_markers.MatPose`): mats move only when touched, so a mat
  whose markers did not change keeps its place, even when a frame's search misses them (TABLE-
  KIT.md: such a mat still counts for "nearest" when placing Noah); a mat one of whose markers
  changed (moved, covered, uncovered) is forgotten unless it is located again — a card laid on its
  card zone leaves it in place;
* each ferry's view (:class:`vision.table.FerryView`): an unchanged ferry keeps its reading;
* Noah's marker, unless the change reaches its square.

What changed is the difference between the thumbnail of the frame read last and this one's
(:mod:`vision.table_motion`). A mat or Noah whose marker changed is looked for round where it
was first, and in the whole change only when it is not found there; a marker not known at all
only where something changed off the mats kept (:class:`_Locating`); nothing at all when every
marker of the kit is known and none changed (a play). Only the ferries whose zones the change
touches are decoded again. A change over more than :attr:`TableTracker.cold_share` of the
frame (a light switched on, the camera knocked) makes the whole frame be searched; the mats
away from the change are still kept.

While the table is still, a ferry whose zone shows a code but no top card (glare, an unsure
code) is read again on the next still frames, at most :data:`RETRIES` times: fresh sensor noise
and the reader's second look sometimes make it readable; never a guess.

>>> tracker = TableTracker()
>>> blank = np.full((720, 1280), 200, np.uint8)
>>> tracker.read(blank).noah, tracker.read(blank).ferries[1].seen
(None, False)
>>> tracker.decoded_ferries  # the second frame changed nothing: nothing decoded again
()
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from vision.table import FerryView, LooseCode, TableReader, TableReading, _gray, merge_boxes
from vision.table_kit import (
    FERRIES,
    MARKER_MM,
    MARKER_WHITE_MM,
    MAT_MM,
    NOAH_MARKER,
    SEARCH_ZONE_MM,
    Box,
    Point,
    marker_centre_mm,
    marker_ids,
)
from vision.table_markers import Marker, MatPose, mat_poses, noah_ferry, unique_markers
from vision.table_motion import (
    Bounds,
    Quad,
    changed_boxes,
    changed_extent,
    changed_rect,
    difference,
    may_touch,
    occluded_ferries,
    quad_bounds,
    smoothed,
    thumbnail,
)

RETRIES = 2  # still frames on which a ferry showing a code but no top card is read again
MARKER_SURROUNDINGS_MM = MARKER_MM / 2 + 8.0  # a moved mat's marker is looked for this far round
MARKER_SQUARE_MM = MARKER_MM / 2 + MARKER_WHITE_MM  # a change inside this: the marker changed
#: A change off the mats smaller than this (mm², about 6 × 6 mm) cannot have uncovered a
#: marker of the kit: a marker hidden by something is uncovered by taking that thing away,
#: and ArUco needs the whole 20 mm square. Sensor noise leaves such specks in a thumbnail's
#: difference (DEV plays: up to 8 thumbnail pixels, 24 mm², in dark, noisy areas); each
#: would otherwise be searched when a mat or Noah is not known.
UNCOVERED_MM2 = 40.0
MOVED_MM = 1.5  # a mat located again this far from its known place has been moved
ZONE_CHANGE = 0.002  # of a ferry's search zone: a change this large may have changed its top
ZONE_KEY = -1  # the search zone's key among a mat's shapes' bounds (the markers' are their ids)


class FrameReader(Protocol):
    """A reader of whole frames (:meth:`vision.table.TableReader.read`'s signature): a tracker
    given one reads every frame with it, remembering nothing (a stand-in in tests)."""

    def read(self, frame: np.ndarray, *, loose: bool = False) -> TableReading: ...


def _default_reader() -> TableReader | FrameReader:
    """A new :class:`vision.table.TableReader`, looked up when called (so that a caller who
    stands a reader of its own in for it is followed)."""
    import vision.table

    reader: TableReader | FrameReader = vision.table.TableReader()
    return reader


@dataclass(frozen=True)
class _MatShapes:
    """The quadrilaterals of one mat's pose that the tracker tests on every frame (frame
    pixels): its search zone and each marker's square with its white margin
    (:data:`MARKER_SQUARE_MM`). Worked out once per pose: a mat kept from frame to frame keeps
    the same :class:`~vision.table_markers.MatPose`, whose matrix is never changed, so its
    shapes are the same (a play re-derived them for all five mats: a tenth of a millisecond
    each). ``bounds``: each shape's :func:`~vision.table_motion.quad_bounds` (the zone's under
    :data:`ZONE_KEY`, no marker's id), so a play settles the shapes far from its change
    without their pixels (:func:`_touched`)."""

    pose: MatPose
    zone: Quad
    squares: dict[int, Quad]
    bounds: dict[int, Bounds]

    @classmethod
    def of(cls, pose: MatPose, known: Mapping[int, _MatShapes]) -> _MatShapes:
        """``pose``'s shapes: those ``known`` for the same pose object, else worked out."""
        kept = known.get(pose.ferry)
        if kept is not None and kept.pose is pose:
            return kept
        half = MARKER_SQUARE_MM
        squares: dict[int, Quad] = {}
        for marker_id in marker_ids(pose.ferry):
            x, y = marker_centre_mm(marker_id)
            squares[marker_id] = pose.quad(x - half, y - half, x + half, y + half)
        zone = pose.quad(*SEARCH_ZONE_MM)
        bounds = {i: quad_bounds(quad) for i, quad in [(ZONE_KEY, zone), *squares.items()]}
        return cls(pose, zone, squares, bounds)


@dataclass
class _Memory:
    """What the tracker knows of the table after its last reading (``smooth``: the last
    frame's thumbnail, :func:`vision.table_motion.smoothed`; ``noah``: Noah's marker, found
    then or kept from before)."""

    smooth: np.ndarray
    poses: dict[int, MatPose]
    views: dict[int, FerryView]
    noah: Marker | None
    shapes: dict[int, _MatShapes]
    noah_ferry: int | None
    retries: dict[int, int] = field(default_factory=dict)
    loose: tuple[LooseCode, ...] | None = None

    @property
    def noah_at(self) -> Point | None:
        return None if self.noah is None else self.noah.centre


@dataclass
class TableTracker:
    """Reads the frames of one table in order (a camera, a recording), re-reading only what
    changed since the frame read before (see the module's docstring).

    ``reader``: the frame reader it uses (its decoder, its marker search; any other reader of
    whole frames, :class:`FrameReader`, is simply called for each frame); ``cold_share``: a
    change over more than this share of the frame searches the whole frame for markers.
    :attr:`decoded_ferries` says which ferries the last :meth:`read` decoded and
    :attr:`marker_searches` how many marker searches it made (for tests and benchmarks: the
    work done, not the time taken).
    """

    reader: TableReader | FrameReader = field(default_factory=_default_reader)
    cold_share: float = 0.35
    decoded_ferries: tuple[int, ...] = ()
    marker_searches: int = 0
    _memory: _Memory | None = field(default=None, repr=False)

    def forget(self) -> None:
        """Forget the table (another table, or the camera moved): the next frame is read whole."""
        self._memory = None

    def read(self, frame: np.ndarray, *, loose: bool = False) -> TableReading:
        """The reading of the next frame (grayscale or BGR), from what changed since the last.

        ``loose``: also the codes beside the mats (:meth:`TableReader.read`)."""
        reader = self.reader
        if not isinstance(reader, TableReader):  # a reader of whole frames only: no memory
            return reader.read(frame, loose=loose)
        started = time.perf_counter()
        gray = _gray(frame)
        smooth = smoothed(thumbnail(gray))
        memory = self._memory
        if memory is not None and memory.smooth.shape != smooth.shape:
            memory = None
        changed = None if memory is None else difference(memory.smooth, smooth)
        if memory is not None and changed is not None and not changed.any():
            memory.smooth = smooth
            reading = self._still(reader, gray, memory, loose)
        else:
            reading = self._changed(reader, gray, smooth, memory, changed, loose)
        return _timed(reading, started)

    def _still(self, reader: TableReader, gray: np.ndarray, memory: _Memory, loose: bool
               ) -> TableReading:
        """Nothing changed: the same reading, with the ferries that showed a code but no top
        card read once more (at most :data:`RETRIES` times)."""
        again = [k for k, view in memory.views.items() if view.seen and view.top is None
                 and view.codes and memory.retries.get(k, 0) < RETRIES]
        self.decoded_ferries, self.marker_searches = tuple(again), 0
        if again:
            fresh = reader.read_ferries(gray, memory.poses, again)
            for k in again:
                memory.retries[k] = memory.retries.get(k, 0) + 1
                memory.views[k] = fresh[k]
        if loose and memory.loose is None:
            memory.loose = reader.loose_codes(gray, memory.poses)
        return self._reading(memory, loose)

    def _changed(self, reader: TableReader, gray: np.ndarray, smooth: np.ndarray,
                 memory: _Memory | None, changed: np.ndarray | None, loose: bool
                 ) -> TableReading:
        height, width = gray.shape
        size = (width, height)
        locating = _Locating(reader, gray, memory, changed, self.cold_share)
        poses, noah = locating.located()
        self.marker_searches = locating.searches
        views = dict(memory.views) if memory is not None else {}
        known = memory.shapes if memory is not None else {}
        shapes = {k: _MatShapes.of(pose, known) for k, pose in poses.items()}
        zones = {k: shape.zone for k, shape in shapes.items()}
        touched = set(zones) if changed is None else occluded_ferries(
            changed, _touched(zones, {k: shape.bounds[ZONE_KEY] for k, shape in shapes.items()},
                              changed, locating.rect, size), size, ZONE_CHANGE)
        reread = [k for k in FERRIES if k not in views or k in touched
                  or _moved(views.get(k), poses.get(k))]
        views.update(reader.read_ferries(gray, poses, reread))
        self.decoded_ferries = tuple(k for k in reread if k in poses)
        self._memory = _Memory(smooth, poses, views, noah, shapes, _noah_ferry(noah, poses, memory))
        if loose:
            self._memory.loose = reader.loose_codes(gray, poses)
        return self._reading(self._memory, loose)

    @staticmethod
    def _reading(memory: _Memory, loose: bool) -> TableReading:
        views = {k: memory.views.get(k, FerryView()) for k in FERRIES}
        return TableReading(views, memory.noah_ferry, memory.noah_at,
                            loose=memory.loose if loose else None)


class _Locating:
    """Where the mats and Noah lie in a frame that changed since the tracker's last reading.

    A mat whose markers did not change keeps its pose, Noah his marker if its square did not
    change; what may have moved is looked for where it was first (the boxes round its
    markers: a push, a card askew over a marker's margin, sensor noise), and only when it is
    not found there in the whole change. Markers not known at all (a mat or Noah never seen,
    or forgotten) can appear only where something changed off the mats known to lie still (a
    mat's own face holds no other marker of the kit): those changes are searched. With every
    marker of the kit known and none changed, nothing is searched (an ordinary play). A change
    over more than ``cold_share`` of the frame, or no memory, searches the whole frame.
    """

    def __init__(self, reader: TableReader, gray: np.ndarray, memory: _Memory | None,
                 changed: np.ndarray | None, cold_share: float) -> None:
        height, width = gray.shape
        self.reader, self.gray, self.changed, self.size = reader, gray, changed, (width, height)
        known = memory.poses if memory is not None else {}
        shapes = memory.shapes if memory is not None else {}
        self.rect = None if changed is None else changed_rect(changed)
        self.moved = {k: p for k, p in known.items()
                      if _markers_changed(shapes[k], changed, self.rect, self.size)}
        self.kept = {k: p for k, p in known.items() if k not in self.moved}
        self.noah_was = memory.noah if memory is not None else None
        self.noah_kept = self.noah_was if self.noah_was is not None and not _square_changed(
            self.noah_was.corners, changed, self.size) else None
        self.cold = memory is None or self._over(cold_share)
        self.searches = 0  # marker searches made (:attr:`TableTracker.marker_searches`)

    @functools.cached_property
    def boxes(self) -> list[Box]:
        """The changed areas (:func:`vision.table_motion.changed_boxes`)."""
        width, height = self.size
        return [(0, 0, width, height)] if self.changed is None else changed_boxes(
            self.changed, self.size)

    def _over(self, share: float) -> bool:
        """Whether the changed areas cover more than ``share`` of the frame (their extent
        first: on a play it settles this without the areas themselves)."""
        area = self.size[0] * self.size[1]
        extent = None if self.changed is None else changed_extent(self.changed, self.size,
                                                                  rect=self.rect)
        if extent is not None and _share([extent], area) <= share:
            return False
        return _share(self.boxes, area) > share

    def located(self) -> tuple[dict[int, MatPose], Marker | None]:
        """Every mat's pose known now, and Noah's marker (``None``: not known)."""
        markers = self._markers()
        poses = dict(self.kept)
        found = mat_poses(markers, table=poses.values())
        poses.update({k: found[k] for k in self.moved if k in found})
        for k, pose in found.items():
            poses.setdefault(k, pose)  # a mat not known before
        noah = next((m for m in markers if m.id == NOAH_MARKER), None)
        return poses, noah or self.noah_kept

    def _markers(self) -> list[Marker]:
        kept = [i for k in self.kept for i in marker_ids(k)]
        kept += [NOAH_MARKER] if self.noah_kept is not None else []
        if self.cold:
            return self._search(None, kept)
        first = _inside(self._where_they_were() + self._where_new_ones_may_be(), self.size)
        markers = self._search(first, kept) if first else []
        if not self._lost(markers):
            return markers
        everywhere = _inside(self.boxes + self._where_they_were(), self.size)
        return unique_markers(markers + self._search(everywhere, kept))

    def _search(self, boxes: list[Box] | None, kept: list[int]) -> list[Marker]:
        self.searches += 1
        return self.reader.find_markers(self.gray, boxes, kept)

    def _where_they_were(self) -> list[Box]:
        """Boxes round the markers that may have moved: a moved mat's both, Noah's."""
        boxes = [_marker_box(pose, i) for k, pose in sorted(self.moved.items())
                 for i in marker_ids(k)]
        if self.noah_was is not None and self.noah_kept is None:
            boxes.append(_box_round(self.noah_was))
        return boxes

    def _where_new_ones_may_be(self) -> list[Box]:
        """The changes off the mats kept, when a marker of the kit is not known at all (but
        not the specks of sensor noise: :data:`UNCOVERED_MM2`)."""
        known = {i for k in [*self.kept, *self.moved] for i in marker_ids(k)}
        known |= {NOAH_MARKER} if self.noah_was is not None else set()
        if self.changed is None or known >= set(range(NOAH_MARKER + 1)):
            return []
        off_mats = _off(self.changed, [p.quad(0.0, 0.0, *MAT_MM) for p in self.kept.values()],
                        self.size)
        scales = [p.px_per_mm for p in [*self.kept.values(), *self.moved.values()]]
        # a thumbnail pixel's side in mm (no mat known: no specks told from changes)
        mm = self.size[0] / self.changed.shape[1] / float(np.median(scales)) if scales else 0
        return changed_boxes(off_mats, self.size, smallest=UNCOVERED_MM2 / (mm * mm)
                             if mm else 0.0) if off_mats.any() else []

    def _lost(self, markers: Sequence[Marker]) -> bool:
        """Whether a mat or Noah that may have moved was not found round its old place."""
        ids = {m.id for m in markers}
        lost_mat = any(not set(marker_ids(k)) & ids for k in self.moved)
        return lost_mat or (self.noah_was is not None and self.noah_kept is None
                            and NOAH_MARKER not in ids)


def _timed(reading: TableReading, started: float) -> TableReading:
    from dataclasses import replace

    return replace(reading, ms=(time.perf_counter() - started) * 1000)


def _share(boxes: Iterable[Box], area: int) -> float:
    return sum((r - left) * (b - top) for left, top, r, b in boxes) / max(1, area)


def _marker_box(pose: MatPose, marker_id: int) -> Box:
    """A box round one of a mat's markers with room for a small push (frame pixels)."""
    x, y = marker_centre_mm(marker_id)
    half = MARKER_SURROUNDINGS_MM + 10.0
    quad = pose.quad(x - half, y - half, x + half, y + half)
    xs, ys = [p[0] for p in quad], [p[1] for p in quad]
    return math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)), math.ceil(max(ys))


def _inside(boxes: list[Box], size: tuple[int, int]) -> list[Box]:
    """The boxes kept inside the frame and merged where they overlap."""
    width, height = size
    return merge_boxes((max(0, left), max(0, top), min(width, right), min(height, bottom))
                       for left, top, right, bottom in boxes)


def _markers_changed(shapes: _MatShapes, changed: np.ndarray | None, rect: Box | None,
                     size: tuple[int, int]) -> bool:
    """Whether the thumbnails differ over one of the mat's markers (its black square and white
    margin): a mat pushed moves its markers, a hand or a card over one changes it; a card laid
    on the mat's card zone does not (the zone starts 1 mm past a marker's white margin), so a
    play keeps the mat's pose (unless the card overhangs a marker's white margin, or its
    edge's blur reaches it: then the marker is looked for again). ``changed``: a
    :func:`vision.table_motion.motion` mask, or ``None`` (everything may have changed);
    ``rect``: its changed pixels' bounding box (:func:`vision.table_motion.changed_rect`)."""
    if changed is None or rect is None:
        return changed is None
    near = _touched(shapes.squares, shapes.bounds, changed, rect, size)
    return bool(near) and bool(occluded_ferries(changed, near, size, 0.0))


def _touched(quads: Mapping[int, Quad], bounds: Mapping[int, Bounds], changed: np.ndarray,
             rect: Box | None, size: tuple[int, int]) -> dict[int, Quad]:
    """The ``quads`` that may hold a changed pixel (:func:`vision.table_motion.may_touch`; all
    of them when ``rect`` is ``None``): the others are not changed for
    :func:`~vision.table_motion.occluded_ferries`, which is asked about these only."""
    if rect is None:
        return dict(quads)
    return {k: quad for k, quad in quads.items()
            if may_touch(bounds[k], rect, changed.shape, size)}


def _noah_ferry(noah: Marker | None, poses: dict[int, MatPose], before: _Memory | None
                ) -> int | None:
    """Noah's ferry (:func:`vision.table_markers.noah_ferry`), the one ``before`` worked out
    when his marker and every mat's pose are the same objects as then (a play beside him: it
    depends on nothing else)."""
    if before is not None and noah is before.noah and poses.keys() == before.poses.keys() \
            and all(pose is before.poses[k] for k, pose in poses.items()):
        return before.noah_ferry
    return noah_ferry(None if noah is None else noah.centre, poses)


def _moved(view: FerryView | None, pose: MatPose | None) -> bool:
    """Whether a ferry's mat was found, lost or moved since its view was read."""
    if view is None or pose is None or view.centre is None:
        return (view is not None and view.seen) != (pose is not None)
    return math.dist(view.centre, pose.centre) > MOVED_MM * pose.px_per_mm


def _square_changed(corners: np.ndarray, changed: np.ndarray | None, size: tuple[int, int]
                    ) -> bool:
    """Whether the thumbnails differ over a marker (``corners``, frame pixels) or its white
    margin (:data:`MARKER_SQUARE_MM` from its centre); ``changed``: a
    :func:`vision.table_motion.difference` mask (``None``: everything may have changed).

    >>> square = np.array([(80, 80), (120, 80), (120, 120), (80, 120)], np.float32)
    >>> changed = np.zeros((90, 160), bool); changed[15, 15] = True  # frame pixels 120-128
    >>> _square_changed(square, changed, (1280, 720)), _square_changed(square, None, (9, 9))
    (True, True)
    >>> changed[15, 15] = False; changed[20, 20] = True
    >>> _square_changed(square, changed, (1280, 720))
    False
    """
    if changed is None:
        return True
    centre = corners.mean(axis=0)
    quad = centre + (corners - centre) * (MARKER_SQUARE_MM / (MARKER_MM / 2))
    return bool(occluded_ferries(changed, {0: tuple(map(tuple, quad))}, size, 0.0))


def _box_round(marker: Marker) -> Box:
    """A box round a marker with room for a small push, as :func:`_marker_box` (frame pixels)."""
    (x, y), half = marker.centre, (MARKER_SURROUNDINGS_MM + 10.0) * marker.side_px / MARKER_MM
    return math.floor(x - half), math.floor(y - half), math.ceil(x + half), math.ceil(y + half)


def _off(changed: np.ndarray, quads: Sequence[Quad], size: tuple[int, int]) -> np.ndarray:
    """The change mask with the quadrilaterals (frame pixels; ``size``: the frame's) taken out,
    worked out over the changes' bounding box only (a play's is a small part of the thumbnail).

    >>> changed = np.zeros((9, 16), bool); changed[1:8, 2:14] = changed[0, 15] = True
    >>> mat = ((0, 0), (800, 0), (800, 900), (0, 900))  # the left half of the frame
    >>> int(_off(changed, [mat], (1600, 900)).sum())
    36
    """
    import cv2

    left, top, w, h = cv2.boundingRect(changed.astype(np.uint8))
    part = changed[top:top + h, left:left + w]
    scale = np.array([changed.shape[1] / size[0], changed.shape[0] / size[1]])
    inside = np.zeros(part.shape, np.uint8)
    for quad in quads:
        corners = np.round(np.array(quad) * scale).astype(np.int32) - (left, top)
        cv2.fillConvexPoly(inside, corners, 1)
    off = np.zeros_like(changed)
    off[top:top + h, left:left + w] = part & (inside == 0)
    return off
