"""The table kit's geometry (TABLE-KIT.md, normative): the five ferry mats, their ArUco
markers and card zones in mat millimetres, Noah's marker and the size of a sticker's module.

Shared by the reader (:mod:`vision.table`), the kit's PDF and the renderers, so that what is
printed is what is looked for.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

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

    image = cv2.aruco.generateImageMarker(aruco_dictionary(), marker_id, 6)
    cells = (image < 128).astype(np.uint8)
    cells.setflags(write=False)
    return cells


@functools.cache
def aruco_dictionary() -> Any:
    import cv2

    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICTIONARY))
