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
    values = gray[top:bottom, left:right][mask > 0]
    if values.size == 0:
        return False
    paper = float(np.quantile(values, PAPER_SHARE))
    return bool(float((values < DARK * paper).mean()) <= max_dark)
