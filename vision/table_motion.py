"""Where the table moved: the pixel work that says when the table is still and what changed.

Two questions, both answered on small grayscale frames (the camera's low-resolution stream,
or :func:`thumbnail` of a full frame), never on a reading's codes:

* *is the table still?* :class:`StillnessWatch` compares each small frame with the one
  before it and with the card zones of the last reading: a hand over a ferry, or a card being
  laid, keeps the table "moving" (the referee waits for a still table, docs/table-view.md);
* *what changed since the last reading?* :func:`motion` of two thumbnails, :func:`changed_boxes`
  in full-frame pixels: the table reader (:class:`vision.table_tracker.TableTracker`) re-reads
  only the ferries there.

No game rules here.

>>> a = np.zeros((90, 160), np.uint8); b = a.copy(); b[10:40, 10:40] = 200
>>> watch = StillnessWatch()
>>> watch.moving(a), watch.moving(a), watch.moving(b)
(True, False, True)
>>> changed_boxes(motion(a, b), (1600, 900))
[(58, 58, 442, 442)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from vision.table_kit import Box

MOTION_LEVEL = 18  # grey levels: a change larger than noise and flicker
STILL_FRACTION = 0.002  # of a small frame: more changed than this is motion
ZONE_FRACTION = 0.02  # of a card zone: more changed than this is a hand over it (or a card)
THUMBNAIL_STEP = 8  # a full frame's thumbnail keeps every 8th pixel along each axis
Quad = tuple[tuple[float, float], ...]
Bounds = tuple[float, float, float, float]  # least x, least y, greatest x, greatest y


def motion(previous: np.ndarray, current: np.ndarray, level: int = MOTION_LEVEL) -> np.ndarray:
    """Where two small grayscale frames differ (a boolean mask), after a light blur that keeps
    sensor noise out: :func:`difference` of their :func:`smoothed` copies.

    >>> a = np.zeros((90, 160), np.uint8); b = a.copy(); b[10:40, 10:40] = 200
    >>> round(float(motion(a, b).mean()), 3)
    0.071
    """
    if previous.shape != current.shape:
        raise ValueError("motion needs two frames of the same size")
    return difference(smoothed(previous), smoothed(current), level)


def smoothed(small: np.ndarray) -> np.ndarray:
    """A small frame's light blur, as :func:`motion` compares it: a caller that compares each
    frame with the next keeps this of the last one instead of blurring it twice.

    >>> smoothed(np.full((9, 16), 7, np.uint8)).shape
    (9, 16)
    """
    import cv2

    return np.asarray(cv2.GaussianBlur(small, (5, 5), 0))


def difference(previous: np.ndarray, current: np.ndarray, level: int = MOTION_LEVEL
               ) -> np.ndarray:
    """Where two :func:`smoothed` small frames differ by more than ``level`` grey levels.

    >>> a = smoothed(np.zeros((90, 160), np.uint8))
    >>> bool(difference(a, a).any()), bool(difference(a, a + 19).all())
    (False, True)
    """
    import cv2

    if previous.shape != current.shape:
        raise ValueError("motion needs two frames of the same size")
    return np.asarray(cv2.absdiff(previous, current) > level)


def still(previous: np.ndarray, current: np.ndarray, fraction: float = STILL_FRACTION) -> bool:
    """Whether nothing moved between two small frames (at most ``fraction`` of them changed).

    >>> a = np.zeros((90, 160), np.uint8)
    >>> still(a, a)
    True
    """
    return float(motion(previous, current).mean()) <= fraction


def thumbnail(gray: np.ndarray, step: int = THUMBNAIL_STEP) -> np.ndarray:
    """A full frame's small copy for :func:`motion`: every ``step``-th pixel (a fraction of a
    millisecond on 12 MP; :func:`motion` blurs it, which keeps sensor noise out).

    >>> thumbnail(np.zeros((2592, 4608), np.uint8)).shape
    (324, 576)
    """
    return np.ascontiguousarray(gray[::step, ::step])


def changed_boxes(changed: np.ndarray, frame_size: tuple[int, int], grow: float = 0.02,
                  smallest: float = 0.0) -> list[Box]:
    """The changed areas of a :func:`motion` mask as boxes in full-frame pixels (``frame_size``:
    the full frame's width and height), each widened by ``grow`` of the frame's width all
    round (a change's blurred edge, and the marker beside it), overlapping boxes merged;
    ``smallest``: areas whose bounding box holds fewer changed pixels are left out (specks).

    >>> changed = np.zeros((90, 160), bool); changed[10:40, 10:40] = changed[60, 150] = True
    >>> changed_boxes(changed, (1600, 900)), changed_boxes(changed, (1600, 900), smallest=2)
    ([(68, 68, 432, 432), (1468, 568, 1542, 642)], [(68, 68, 432, 432)])
    """
    import cv2

    from vision.table import merge_boxes

    outlines, _ = cv2.findContours(changed.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    rects = [cv2.boundingRect(outline) for outline in outlines]
    if smallest:
        rects = [(x, y, w, h) for x, y, w, h in rects
                 if np.count_nonzero(changed[y:y + h, x:x + w]) >= smallest]
    return merge_boxes(_grown(rect, changed.shape, frame_size, grow) for rect in rects)


def changed_extent(changed: np.ndarray, frame_size: tuple[int, int], grow: float = 0.02, *,
                   rect: Box | None = None) -> Box | None:
    """The one box that holds every box of :func:`changed_boxes` (``None``: nothing changed),
    for much less work: the merged boxes never overlap, so their area is at most this one's.
    ``rect``: :func:`changed_rect` of ``changed``, when the caller has it already.

    >>> changed = np.zeros((90, 160), bool); changed[10:40, 10:40] = changed[60, 150] = True
    >>> changed_boxes(changed, (1600, 900)), changed_extent(changed, (1600, 900))
    ([(68, 68, 432, 432), (1468, 568, 1542, 642)], (68, 68, 1542, 642))
    """
    rect = changed_rect(changed) if rect is None else rect
    if rect is None:
        return None
    left, top, right, bottom = rect
    return _grown((left, top, right - left, bottom - top), changed.shape, frame_size, grow)


def changed_rect(changed: np.ndarray) -> Box | None:
    """The bounding box of a change mask's changed pixels, in its own pixels (``None``: none).

    >>> changed = np.zeros((9, 16), bool); changed[2:4, 5] = changed[6, 7] = True
    >>> changed_rect(changed), changed_rect(np.zeros((9, 16), bool))
    ((5, 2, 8, 7), None)
    """
    import cv2

    left, top, width, height = cv2.boundingRect(changed.astype(np.uint8))
    return (left, top, left + width, top + height) if width else None


def quad_bounds(quad: Quad) -> Bounds:
    """A quadrilateral's least and greatest x and y (frame pixels), for :func:`may_touch`.

    >>> quad_bounds(((3.5, 1.0), (9.0, 2.0), (8.0, 7.5), (2.0, 6.0)))
    (2.0, 1.0, 9.0, 7.5)
    """
    xs, ys = [x for x, _ in quad], [y for _, y in quad]
    return min(xs), min(ys), max(xs), max(ys)


def may_touch(bounds: Bounds, rect: Box, shape: tuple[int, ...], frame_size: tuple[int, int]
              ) -> bool:
    """Whether a quadrilateral whose :func:`quad_bounds` are ``bounds`` can hold a changed
    pixel of a mask (``shape``) whose changed pixels all lie in ``rect`` (:func:`changed_rect`):
    ``False`` is :func:`occluded_ferries`' answer for it, found without the mask. The same
    pixels as there (truncated, and truncation keeps the order, so the least pixel is the
    least corner's): a quad tested on every play (a mat's marker squares, its zone) is
    settled by four comparisons instead of its pixels (issue 19, a play's own work).

    >>> shape, size = (90, 160), (1600, 900)  # thumbnail pixels are 10 frame pixels
    >>> rect = (10, 10, 40, 40)  # frame pixels 100 to 399 changed
    >>> may_touch((395.0, 0.0, 600.0, 200.0), rect, shape, size)
    True
    >>> may_touch((400.0, 0.0, 600.0, 200.0), rect, shape, size)
    False
    """
    height, width = shape[:2]
    sx, sy = width / frame_size[0], height / frame_size[1]
    left, top, right, bottom = bounds
    return (int(left * sx) < rect[2] and int(right * sx) >= rect[0]
            and int(top * sy) < rect[3] and int(bottom * sy) >= rect[1])


def _grown(rect: Sequence[int], shape: tuple[int, ...],
           frame_size: tuple[int, int], grow: float) -> Box:
    """A rectangle of a small frame (left, top, width, height) in full-frame pixels, widened
    by ``grow`` of the frame's width all round and clipped to the frame."""
    left, top, w, h = rect
    sx, sy = frame_size[0] / shape[1], frame_size[1] / shape[0]
    margin = grow * frame_size[0]
    return (max(0, round(left * sx - margin)), max(0, round(top * sy - margin)),
            min(frame_size[0], round((left + w) * sx + margin)),
            min(frame_size[1], round((top + h) * sy + margin)))


def quad_touches(quad: Quad, boxes: Iterable[Box]) -> bool:
    """Whether a quadrilateral (frame pixels) overlaps any of the boxes (by bounding box:
    cheap, and a little generous, which is the safe side for "it may have changed").

    >>> quad_touches(((0, 0), (10, 0), (10, 10), (0, 10)), [(5, 5, 20, 20)])
    True
    """
    xs, ys = [p[0] for p in quad], [p[1] for p in quad]
    return any(left < max(xs) and min(xs) < right and top < max(ys) and min(ys) < bottom
               for left, top, right, bottom in boxes)


def occluded_ferries(changed: np.ndarray, zones: Mapping[int, Quad | None],
                     frame_size: tuple[int, int], fraction: float = ZONE_FRACTION) -> set[int]:
    """The ferries whose card zone changed by more than ``fraction`` of its area.

    ``changed`` is a :func:`motion` mask of small frames; ``zones`` gives each ferry's card
    zone in full-frame pixels (``None``: mat not located); ``frame_size`` is the full frame's
    (width, height). A hand over a ferry, or a card being laid, changes its zone: such a ferry
    says nothing until it is still again. Only the part of a zone inside the frame counts.

    >>> changed = np.zeros((90, 160), bool); changed[0:10, 0:10] = True
    >>> zones = {1: ((-80, -80), (80, 0), (80, 80), (-80, 80)),  # half out of the frame
    ...          2: ((400, 400), (800, 400), (800, 800), (400, 800)),
    ...          3: ((-900, 0), (-100, 0), (-100, 90), (-900, 90))}  # wholly out
    >>> sorted(occluded_ferries(changed, zones, (1600, 900)))
    [1]
    """
    import cv2

    height, width = changed.shape
    sx, sy = width / frame_size[0], height / frame_size[1]
    busy = set()
    for ferry, quad in zones.items():
        if quad is None:
            continue
        # only the zone's bounding box is drawn and counted (a card zone is a small part of
        # the thumbnail, and the tracker asks this for every marker too), and nothing at all
        # where nothing changed in that box (most zones): thumbnail pixels, truncated as the
        # polygon's are
        xs, ys = [int(x * sx) for x, _ in quad], [int(y * sy) for _, y in quad]
        left, top = max(min(xs), 0), max(min(ys), 0)
        right, bottom = min(max(xs) + 1, width), min(max(ys) + 1, height)
        if right <= left or bottom <= top or not changed[top:bottom, left:right].any():
            continue
        polygon = np.array(list(zip(xs, ys, strict=True)), np.int32)
        zone = np.zeros((bottom - top, right - left), np.uint8)
        cv2.fillConvexPoly(zone, polygon - (left, top), 1)
        area = int(np.count_nonzero(zone))
        inside = changed[top:bottom, left:right][zone > 0]
        if area and int(np.count_nonzero(inside)) > fraction * area:
            busy.add(ferry)
    return busy


class StillnessWatch:
    """Says, small frame after small frame, whether the table is moving.

    A frame is *moving* when it is the first, differs in size from the one before, differs
    from it by more than :data:`STILL_FRACTION` of its pixels, or differs over more than
    :data:`ZONE_FRACTION` of a card zone (:meth:`watch_zones`: a hand over a ferry moves little
    of the whole frame but hides a top card).
    """

    def __init__(self) -> None:
        self._previous: np.ndarray | None = None
        self._zones: dict[int, Quad | None] = {}
        self._size: tuple[int, int] | None = None

    def watch_zones(self, zones: dict[int, Quad | None], frame_size: tuple[int, int]) -> None:
        """The card zones (full-frame pixels) of the last reading, and that frame's size."""
        self._zones, self._size = dict(zones), frame_size

    def moving(self, small: np.ndarray) -> bool:
        """Whether the table moved between the previous small frame and ``small``."""
        previous, self._previous = self._previous, smoothed(small)
        if previous is None or previous.shape != small.shape:
            return True
        changed = difference(previous, self._previous)
        if float(changed.mean()) > STILL_FRACTION:
            return True
        return self._size is not None and bool(
            occluded_ferries(changed, self._zones, self._size))
