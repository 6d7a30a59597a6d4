"""What a filmed scene truly shows (:mod:`vision.table_scenes_render`): the ground truth.

Taken from the frame as drawn, not from the scene's description: each pixel knows which object
it shows (``Canvas.ids``), so a code is *visible* only when every pixel of it and of one module
round it shows its own card, and a marker counts only when all of it and 95 % of a 1.5 mm white
margin round it show its own mat (a card's corner over the margin leaves it readable; over the
black square, not). A hand or a cup that hides a corner of a code is seen exactly as drawn, at
its height, through the tilted, distorted lens.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vision.table_kit import FERRIES, MARKER_MM, marker_corners_mm, marker_ids
from vision.table_scenes import MAT_THICK_MM, Card, Scene

if TYPE_CHECKING:
    from vision.table_scenes_render import Canvas

BOARD_ID, NOAH_ID, LOOSE_ID, SOLID_ID, HAND_ID = 1, 2000, 3000, 4000, 5000
MARKER_MARGIN_MM = 1.5  # of the kit's 2.5 mm of white round a marker, what must mostly show
MARGIN_SHARE = 0.95  # of the marker with that margin: the black square itself must all show
HAND_NEAR_MM = 25.0
STRONG_SHARE = 0.03  # a highlight saturating this share of a code's area is strong
DISC_Z = 0.4


def mat_id(ferry: int) -> int:
    return 10 + ferry


def card_id(ferry: int, index: int) -> int:
    return 100 * ferry + 100 + index


@dataclass(frozen=True)
class FerryTruth:
    """One ferry as the frame shows it.

    ``locatable``: one of its markers is wholly visible, with nearly all of its white margin,
    so a careful reader can find the mat; ``markers``: how many are; ``top``: the top card's
    sticker text (``None``: empty ferry or no sticker); ``top_visible``: that code and one module
    round it lie in the frame, hidden by nothing; ``highlight``: ``"strong"`` (a reflection
    saturates part of the code), ``"weak"`` or ``""``; ``hand_near``: a hand within 25 mm of
    the code; ``buried``: the texts of the cards below; ``px_per_module``: the code's module
    in pixels.
    """

    locatable: bool
    markers: int
    top: str | None
    top_visible: bool
    highlight: str = ""
    hand_near: bool = False
    buried: tuple[str, ...] = ()
    px_per_module: float = 0.0


@dataclass(frozen=True)
class SceneTruth:
    """The whole table: each ferry; Noah's ferry (the mat whose centre is nearest his marker),
    whether his marker and his ferry's mat can be seen; the foreign codes wholly visible; the
    scene's conditions; each visible marker's corners in the frame (ArUco's order); and
    ``noah_gap_mm``, how much farther from Noah's marker the second-nearest mat centre lies
    than his own (millimetres on the table; ``None`` without Noah): how clearly his mat is the
    nearest, whatever a reader sees."""

    ferries: dict[int, FerryTruth]
    noah: int | None
    noah_visible: bool
    noah_mat_visible: bool
    foreign: tuple[str, ...]
    conditions: tuple[str, ...]
    markers: dict[int, np.ndarray]
    noah_gap_mm: float | None = None

    @property
    def every_mat_locatable(self) -> bool:
        """Whether every mat shows a whole marker: else a mat could lie nearer to Noah than
        any a reader locates, and a single frame must leave him unnamed (TABLE-KIT.md)."""
        return all(f.locatable for f in self.ferries.values())


def scene_truth(scene: Scene, canvas: Canvas, gloss: np.ndarray) -> SceneTruth:
    """The truth of a drawn scene (``gloss``: the highlights' mask, see ``expose``)."""
    seen = _Seen(canvas, gloss, 0.5 if scene.camera.binned else 1.0)
    ferries: dict[int, FerryTruth] = {}
    markers: dict[int, np.ndarray] = {}
    for ferry in scene.ferries:
        visible = []
        for marker in marker_ids(ferry.ferry):
            corners = np.array([ferry.to_table(u, v) for u, v in marker_corners_mm(marker)])
            widened = _widened(corners, MARKER_MARGIN_MM / (MARKER_MM / 2))
            ident = mat_id(ferry.ferry)
            if seen.only(corners, MAT_THICK_MM, ident) and seen.share(
                    widened, MAT_THICK_MM, ident) >= MARGIN_SHARE:
                visible.append(marker)
                markers[marker] = seen.in_frame(corners, MAT_THICK_MM)
        top = ferry.top
        shown, highlight, near, px = _code_truth(seen, top, card_id(ferry.ferry,
                                                                    len(ferry.cards) - 1))
        ferries[ferry.ferry] = FerryTruth(
            bool(visible), len(visible), top.text if top else None, shown, highlight, near,
            tuple(c.text for c in ferry.cards[:-1] if c.text is not None), px)
    for k in FERRIES:
        ferries.setdefault(k, FerryTruth(False, 0, None, False))
    noah, noah_visible, gap = None, False, None
    if scene.noah is not None:
        nx, ny = scene.noah
        noah, gap = nearest_two(scene, nx, ny)
        half = MARKER_MM / 2 + MARKER_MARGIN_MM
        square = np.array([(nx - half, ny - half), (nx + half, ny - half),
                           (nx + half, ny + half), (nx - half, ny + half)])
        noah_visible = seen.only(square, DISC_Z, NOAH_ID)
    foreign = tuple(card.text for index, card in enumerate(scene.loose)
                    if card.text is not None and not card.ours
                    and seen.only(np.array(card.code_corners(1.0)), card.z, LOOSE_ID + index))
    return SceneTruth(ferries, noah, noah_visible, noah is not None and ferries[noah].locatable,
                      foreign, scene.conditions, markers, gap)


def nearest_two(scene: Scene, x: float, y: float) -> tuple[int, float]:
    """The ferry whose mat centre is nearest ``(x, y)`` (table mm) and how much nearer than
    the next.

    >>> from vision.table_scenes import Camera, Ferry
    >>> row = Scene(tuple(Ferry(k, 110.0 * k, 0.0, 0.0) for k in FERRIES), Camera())
    >>> nearest_two(row, 300.0, 100.0)  # 104.4 mm from mat 3's centre, 128.1 from mat 2's
    (3, 23.65...)
    """
    distances = sorted((math.dist((x, y), (f.x, f.y)), f.ferry) for f in scene.ferries)
    return distances[0][1], distances[1][0] - distances[0][0]


def _code_truth(seen: _Seen, card: Card | None, ident: int) -> tuple[bool, str, bool, float]:
    """(visible, highlight, hand near, px per module) of a top card's code."""
    if card is None or card.text is None:
        return False, "", False, 0.0
    code = np.array(card.code_corners())
    visible = seen.only(np.array(card.code_corners(1.0)), card.z, ident)
    px = seen.in_frame(code, card.z)
    side = float(np.mean([np.linalg.norm(px[i] - px[(i + 1) % 4]) for i in range(4)]))
    return visible, seen.highlight(code, card.z), seen.hand_near(code, card.z), side / 21


def _widened(corners: np.ndarray, share: float) -> np.ndarray:
    centre = corners.mean(axis=0)
    return np.asarray(centre + (corners - centre) * (1 + share))


class _Seen:
    """Questions about the drawn frame, asked with table polygons at a height."""

    def __init__(self, canvas: Canvas, gloss: np.ndarray, frame_scale: float) -> None:
        self.canvas, self.gloss, self.frame_scale = canvas, gloss, frame_scale

    def _pixels(self, polygon: np.ndarray, z: float) -> tuple[np.ndarray, bool, tuple[int, int]]:
        """The polygon's mask over its bounding box, whether it lies wholly in the frame, and
        the box's top left."""
        import cv2

        optics = self.canvas.optics
        px = optics.project(np.hstack([polygon, np.full((len(polygon), 1), z)]))
        inside = bool(((px >= 0) & (px <= (optics.width - 1, optics.height - 1))).all())
        left, top = np.maximum(np.floor(px.min(axis=0)).astype(int), 0)
        right = min(optics.width, int(np.ceil(px[:, 0].max())) + 1)
        bottom = min(optics.height, int(np.ceil(px[:, 1].max())) + 1)
        if right <= left or bottom <= top:  # wholly out of the frame
            return np.zeros((0, 0), bool), False, (0, 0)
        mask = np.zeros((max(bottom - top, 0), max(right - left, 0)), np.uint8)
        cv2.fillPoly(mask, [np.round((px - (left, top)) * 8).astype(np.int32)], 1, cv2.LINE_8, 3)
        return mask.astype(bool), inside, (int(left), int(top))

    def only(self, polygon: np.ndarray, z: float, ident: int) -> bool:
        """Whether the polygon lies wholly in the frame and shows object ``ident`` only."""
        mask, inside, (left, top) = self._pixels(polygon, z)
        h, w = mask.shape
        ids = self.canvas.ids[top : top + h, left : left + w]
        return inside and bool(mask.any()) and bool((ids[mask] == ident).all())

    def share(self, polygon: np.ndarray, z: float, ident: int) -> float:
        """The share of the polygon's pixels that show object ``ident``."""
        mask, _, (left, top) = self._pixels(polygon, z)
        h, w = mask.shape
        ids = self.canvas.ids[top : top + h, left : left + w][mask]
        return float((ids == ident).mean()) if ids.size else 0.0

    def highlight(self, polygon: np.ndarray, z: float) -> str:
        mask, _, (left, top) = self._pixels(polygon, z)
        h, w = mask.shape
        marks = self.gloss[top : top + h, left : left + w][mask]
        if not marks.size:
            return ""
        if (marks == 2).mean() >= STRONG_SHARE:
            return "strong"
        return "weak" if (marks > 0).any() else ""

    def hand_near(self, polygon: np.ndarray, z: float) -> bool:
        widened = _widened(polygon, HAND_NEAR_MM / (np.ptp(polygon[:, 0]) / 2 + 1e-6))
        mask, _, (left, top) = self._pixels(widened, z)
        h, w = mask.shape
        return bool((self.canvas.ids[top : top + h, left : left + w][mask] >= HAND_ID).any())

    def in_frame(self, polygon: np.ndarray, z: float) -> np.ndarray:
        """The polygon's corners in the output frame (the binned frame's pixels if binned)."""
        px = self.canvas.optics.project(np.hstack([polygon, np.full((len(polygon), 1), z)]))
        return np.asarray((px + 0.5) * self.frame_scale - 0.5, np.float32)


def truth_json(truth: SceneTruth) -> dict[str, object]:
    """The truth as one JSON object (``bench table --save``: beside each saved frame)."""
    return {
        "conditions": list(truth.conditions),
        "ferries": {str(k): {
            "locatable": f.locatable, "markers": f.markers, "top": f.top,
            "top_visible": f.top_visible, "highlight": f.highlight, "hand_near": f.hand_near,
            "buried": list(f.buried), "px_per_module": round(f.px_per_module, 2)}
            for k, f in sorted(truth.ferries.items())},
        "noah": truth.noah, "noah_visible": truth.noah_visible,
        "noah_mat_visible": truth.noah_mat_visible,
        "noah_gap_mm": None if truth.noah_gap_mm is None else round(truth.noah_gap_mm, 1),
        "every_mat_locatable": truth.every_mat_locatable, "foreign": list(truth.foreign),
    }
