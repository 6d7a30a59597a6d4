"""Is a ferry's card zone bare mat? A small rule-free helper beside :mod:`vision.table`.

A reading says ``top = None`` both for an empty ferry and for one whose top code cannot be read
(glare, a hand, a card laid face down). The referee needs to tell the two apart before it calls
a ferry empty (a take-back, a departure, cards missing), so it also looks at the zone itself:
bare mat is light paper with a few thin printed lines (the ferry's number and drawing); a
card's artwork, or part of a hand or its shadow, darkens a large share of the zone.

>>> import numpy as np
>>> gray = np.full((100, 100), 230, np.uint8)
>>> zone = ((20.0, 20.0), (80.0, 20.0), (80.0, 80.0), (20.0, 80.0))
>>> zone_is_blank(gray, zone)
True
>>> gray[40:60, 40:60] = 90
>>> zone_is_blank(gray, zone)
False
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

INNER = 0.8  # of the zone, around its centre: the printed outline of the zone stays out
PAPER_SHARE = 0.9  # the brightest pixels are the paper's level, whatever the light
DARK = 0.75  # a pixel darker than this share of the paper's level is ink, artwork or a hand
MAX_DARK = 0.12  # the mat's own printing darkens about 5 % of the zone


def zone_is_blank(gray: np.ndarray, zone: Sequence[tuple[float, float]],
                  max_dark: float = MAX_DARK) -> bool:
    """Whether the quadrilateral ``zone`` (frame pixels) of a grayscale frame is bare paper."""
    import cv2

    points = np.asarray(zone, np.float32)
    centre = points.mean(axis=0)
    inner = (centre + INNER * (points - centre)).astype(np.int32)
    # Only the zone's bounding box: a mask of the whole 12 MP frame costs more than the test.
    height, width = gray.shape[:2]
    left, top = np.clip(inner.min(axis=0), 0, (width, height))
    right, bottom = np.clip(inner.max(axis=0) + 1, 0, (width, height))
    mask = np.zeros((bottom - top, right - left), np.uint8)
    cv2.fillConvexPoly(mask, inner - np.array([left, top], np.int32), 1)
    if not mask.any():
        return False
    # the zone's grey levels counted (a fifth of the time of sorting a few hundred thousand
    # of them: the referee asks this of every ferry without a top card)
    counts = cv2.calcHist([gray[top:bottom, left:right]], [0], mask, [256], [0, 256])
    levels = np.cumsum(counts.ravel().astype(np.int64))
    paper = level_quantile(levels, PAPER_SHARE)
    below = math.ceil(DARK * paper)  # the levels darker than DARK × paper: 0 … below − 1
    dark = int(levels[below - 1]) if below > 0 else 0
    return bool(dark / int(levels[-1]) <= max_dark)


def level_quantile(cumulative: np.ndarray, share: float) -> float:
    """The ``share`` quantile of 8-bit grey levels given by their cumulative counts
    (``cumulative[v]``: how many are ``v`` or darker), exactly as ``numpy.quantile`` gives it
    from the levels themselves (its default, linear method: between the two nearest ranks).

    >>> values = np.array([10, 10, 20, 200, 30], np.uint8)
    >>> cumulative = np.cumsum(np.bincount(values, minlength=256))
    >>> level_quantile(cumulative, 0.9) == float(np.quantile(values, 0.9))
    True
    """
    total = int(cumulative[-1])
    rank = (total - 1) * share
    below = math.floor(rank)
    weight = rank - below
    low, high = (int(np.searchsorted(cumulative, i, side="right"))
                 for i in (below, min(below + 1, total - 1)))
    step = float(high - low)
    return low + step * weight if weight < 0.5 else high - step * (1 - weight)
