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
SOFT_DARK = 0.85  # a code too soft or dim to pass DARK still lays its dark modules below this
MAX_SOFT_DARK = 0.2  # bare mat: 3–4 % below SOFT_DARK, a shadow's edge up to about a fifth


def zone_is_blank(gray: np.ndarray, zone: Sequence[tuple[float, float]],
                  max_dark: float = MAX_DARK) -> bool:
    """Whether the quadrilateral ``zone`` (frame pixels) of a grayscale frame is bare paper."""
    return dark_shares(gray, zone, (DARK,))[0] <= max_dark


def zone_may_hold_a_code(gray: np.ndarray, zone: Sequence[tuple[float, float]]) -> bool:
    """Whether the zone is worth a second look for a top card none of the reader's looks
    decoded: it is not bare mat (:func:`zone_is_blank`), or a fifth of it or more lies below
    :data:`SOFT_DARK` of the paper's level.

    Why the second test: a far, blurred or dim code whose dark modules are washed towards the
    paper (a weak highlight across it, motion blur at 90–100 cm) darkens only 10–12 % of the
    zone below :data:`DARK` — bare mat's share under :data:`MAX_DARK` — yet 29–43 % below
    :data:`SOFT_DARK`, where bare mat darkens 3–4 % (issue 19: three such top cards on the
    tuned sets, each read by the second looks once asked). A second look only reads what is
    there, judged like every other look: the test costs looks, never a wrong top.

    >>> gray = np.full((100, 100), 200, np.uint8)
    >>> zone = ((20.0, 20.0), (80.0, 20.0), (80.0, 80.0), (20.0, 80.0))
    >>> zone_may_hold_a_code(gray, zone)
    False
    >>> gray[30:50, 30:60] = 165  # a washed-out code: 0.82 of the paper's level
    >>> zone_is_blank(gray, zone), zone_may_hold_a_code(gray, zone)
    (True, True)
    """
    dark, soft = dark_shares(gray, zone, (DARK, SOFT_DARK))
    return dark > MAX_DARK or soft > MAX_SOFT_DARK


def dark_shares(gray: np.ndarray, zone: Sequence[tuple[float, float]],
                darks: Sequence[float]) -> tuple[float, ...]:
    """For each of ``darks``, the share of the zone's inner part (:data:`INNER`) darker than
    that share of the paper's level (the zone's :data:`PAPER_SHARE` quantile); 1 each (not bare
    mat) for a zone wholly outside the frame."""
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
        return tuple(1.0 for _ in darks)
    # the zone's grey levels counted (a fifth of the time of sorting a few hundred thousand
    # of them: the referee asks this of every ferry without a top card)
    counts = cv2.calcHist([gray[top:bottom, left:right]], [0], mask, [256], [0, 256])
    levels = np.cumsum(counts.ravel().astype(np.int64))
    paper = level_quantile(levels, PAPER_SHARE)
    return tuple(_share_below(levels, math.ceil(dark * paper)) for dark in darks)


def _share_below(levels: np.ndarray, below: int) -> float:
    """The share of the counted levels (cumulative ``levels``) under ``below``: 0 … below − 1."""
    return int(levels[below - 1]) / int(levels[-1]) if below > 0 else 0.0


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
