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
* Noah's marker, unless the change covers where it was.

What changed is the difference between the thumbnail of the frame read last and this one's
(:mod:`vision.table_motion`): markers are looked for only in the changed boxes (and around
the mats whose markers changed), not at all when every marker of the kit is known and none
changed (a play), and only the ferries whose zones they touch are decoded again. A change
over more than :attr:`TableTracker.cold_share` of the frame (a light switched on, the camera
knocked) makes the whole frame be searched; the mats away from the change are still kept.

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

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from vision.table import FerryView, LooseCode, TableReader, TableReading, _gray, merge_boxes
from vision.table_kit import (
    FERRIES,
    MARKER_MM,
    MARKER_WHITE_MM,
    NOAH_MARKER,
    SEARCH_ZONE_MM,
    Box,
    Point,
    marker_centre_mm,
    marker_ids,
)
from vision.table_markers import Marker, MatPose, mat_poses, noah_ferry, noah_marker
from vision.table_motion import Quad, changed_boxes, motion, occluded_ferries, thumbnail

RETRIES = 2  # still frames on which a ferry showing a code but no top card is read again
MARKER_SURROUNDINGS_MM = MARKER_MM / 2 + 8.0  # a moved mat's marker is looked for this far round
MARKER_SQUARE_MM = MARKER_MM / 2 + MARKER_WHITE_MM  # a change inside this: the marker changed
MOVED_MM = 1.5  # a mat located again this far from its known place has been moved
ZONE_CHANGE = 0.002  # of a ferry's search zone: a change this large may have changed its top


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


@dataclass
class _Memory:
    """What the tracker knows of the table after its last reading."""

    small: np.ndarray
    poses: dict[int, MatPose]
    views: dict[int, FerryView]
    noah_at: Point | None
    retries: dict[int, int] = field(default_factory=dict)
    loose: tuple[LooseCode, ...] | None = None


@dataclass
class TableTracker:
    """Reads the frames of one table in order (a camera, a recording), re-reading only what
    changed since the frame read before (see the module's docstring).

    ``reader``: the frame reader it uses (its decoder, its marker search; any other reader of
    whole frames, :class:`FrameReader`, is simply called for each frame); ``cold_share``: a
    change over more than this share of the frame searches the whole frame for markers.
    :attr:`decoded_ferries` says which ferries the last :meth:`read` decoded (for tests and
    benchmarks: the work done, not the time taken).
    """

    reader: TableReader | FrameReader = field(default_factory=_default_reader)
    cold_share: float = 0.35
    decoded_ferries: tuple[int, ...] = ()
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
        small = thumbnail(gray)
        memory = self._memory
        if memory is not None and memory.small.shape != small.shape:
            memory = None
        changed = self._changes(memory, small, gray.shape)
        if memory is not None and changed is not None and not changed.any():
            memory.small = small
            reading = self._still(reader, gray, memory, loose)
        else:
            reading = self._changed(reader, gray, small, memory, changed, loose)
        return _timed(reading, started)

    def _changes(self, memory: _Memory | None, small: np.ndarray, shape: tuple[int, ...]
                 ) -> np.ndarray | None:
        """Where the frame changed since the last reading (a thumbnail mask; ``None``: all)."""
        return None if memory is None else motion(memory.small, small)

    def _still(self, reader: TableReader, gray: np.ndarray, memory: _Memory, loose: bool
               ) -> TableReading:
        """Nothing changed: the same reading, with the ferries that showed a code but no top
        card read once more (at most :data:`RETRIES` times)."""
        again = [k for k, view in memory.views.items() if view.seen and view.top is None
                 and view.codes and memory.retries.get(k, 0) < RETRIES]
        self.decoded_ferries = tuple(again)
        if again:
            fresh = reader.read_ferries(gray, memory.poses, again)
            for k in again:
                memory.retries[k] = memory.retries.get(k, 0) + 1
                memory.views[k] = fresh[k]
        if loose and memory.loose is None:
            memory.loose = reader.loose_codes(gray, memory.poses)
        return self._reading(memory, loose)

    def _changed(self, reader: TableReader, gray: np.ndarray, small: np.ndarray,
                 memory: _Memory | None, changed: np.ndarray | None, loose: bool
                 ) -> TableReading:
        height, width = gray.shape
        size = (width, height)
        boxes = [(0, 0, width, height)] if changed is None else changed_boxes(changed, size)
        known = memory.poses if memory is not None else {}
        moved = {k for k, pose in known.items() if _markers_changed(pose, changed, size)}
        if memory is None or _share(boxes, width * height) > self.cold_share:
            search = None
        else:  # the changes, and each marker of a mat that may have moved, whole
            search = _inside(boxes + [_marker_box(pose, i) for k in sorted(moved)
                                      for pose in (known[k],) for i in marker_ids(k)], size)
        kept = [i for k in known if k not in moved for i in marker_ids(k)]
        if memory is not None and memory.noah_at is not None and not _inside_any(
                memory.noah_at, boxes):
            kept.append(NOAH_MARKER)
        markers = [] if _nothing_to_find(kept, search) else reader.find_markers(
            gray, search, kept)
        poses = {k: p for k, p in known.items() if k not in moved}
        found = mat_poses(markers, table=poses.values())
        poses.update({k: found[k] for k in moved if k in found})
        for k, pose in found.items():
            poses.setdefault(k, pose)  # a mat not known before
        views = dict(memory.views) if memory is not None else {}
        zones = {k: pose.quad(*SEARCH_ZONE_MM) for k, pose in poses.items()}
        touched = set(zones) if changed is None else occluded_ferries(
            changed, dict(zones), size, ZONE_CHANGE)
        reread = [k for k in FERRIES if k not in views or k in touched
                  or _moved(views.get(k), poses.get(k))]
        views.update(reader.read_ferries(gray, poses, reread))
        self.decoded_ferries = tuple(k for k in reread if k in poses)
        self._memory = _Memory(small, poses, views, _noah(markers, memory, boxes))
        if loose:
            self._memory.loose = reader.loose_codes(gray, poses)
        return self._reading(self._memory, loose)

    @staticmethod
    def _reading(memory: _Memory, loose: bool) -> TableReading:
        views = {k: memory.views.get(k, FerryView()) for k in FERRIES}
        return TableReading(views, noah_ferry(memory.noah_at, memory.poses), memory.noah_at,
                            loose=memory.loose if loose else None)


def _nothing_to_find(kept: Sequence[int], search: Sequence[Box] | None) -> bool:
    """Whether a search of the changed boxes could find nothing new: every marker of the kit
    is known and unchanged (``kept``), so what changed is a card or a hand.

    A mat that moves moves its markers, and Noah leaving his place changes it: either would
    have taken its id out of ``kept``. A one-ferry play then costs no marker search at all.

    >>> _nothing_to_find(list(range(11)), [(0, 0, 10, 10)]), _nothing_to_find([0, 1], [])
    (True, False)
    >>> _nothing_to_find(list(range(11)), None)  # the whole frame searched: a cold reading
    False
    """
    return search is not None and set(kept) >= set(range(NOAH_MARKER + 1))


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


def _markers_changed(pose: MatPose, changed: np.ndarray | None, size: tuple[int, int]
                     ) -> bool:
    """Whether the thumbnails differ over one of the mat's markers (its black square and white
    margin): a mat pushed moves its markers, a hand or a card over one changes it; a card laid
    on the mat's card zone does not (the zone starts 1 mm past a marker's white margin), so a
    play keeps the mat's pose (unless the card overhangs a marker's white margin, or its
    edge's blur reaches it: then the marker is looked for again). ``changed``: a
    :func:`vision.table_motion.motion` mask, or ``None`` (everything may have changed)."""
    if changed is None:
        return True
    half = MARKER_SQUARE_MM
    squares: dict[int, Quad | None] = {}
    for marker_id in marker_ids(pose.ferry):
        x, y = marker_centre_mm(marker_id)
        squares[marker_id] = pose.quad(x - half, y - half, x + half, y + half)
    return bool(occluded_ferries(changed, squares, size, 0.0))


def _moved(view: FerryView | None, pose: MatPose | None) -> bool:
    """Whether a ferry's mat was found, lost or moved since its view was read."""
    if view is None or pose is None or view.centre is None:
        return (view is not None and view.seen) != (pose is not None)
    return math.dist(view.centre, pose.centre) > MOVED_MM * pose.px_per_mm


def _noah(markers: Sequence[Marker], memory: _Memory | None, boxes: Sequence[Box]
          ) -> Point | None:
    """Noah's marker: found now, else where it was unless a change covers that place."""
    now = noah_marker(markers)
    if now is not None or memory is None or memory.noah_at is None:
        return now
    return None if _inside_any(memory.noah_at, boxes) else memory.noah_at


def _inside_any(point: Point, boxes: Sequence[Box]) -> bool:
    x, y = point
    return any(left <= x < right and top <= y < bottom for left, top, right, bottom in boxes)

