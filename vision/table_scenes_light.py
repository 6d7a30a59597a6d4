"""The light of a filmed scene (:mod:`vision.table_scenes_render`), in linear units.

Albedo × the room's light (a lamp on one side: brighter toward it, ``Light.gradient`` per metre)
× soft shadows (those cast by cups, phones, dice, the Noah figure and hands away from the lamp,
and heads or arms out of the frame) × the lens's vignetting, scaled by the camera's automatic
exposure (paper white at a fixed level; a dim room is exposed lower and at a higher gain), plus
the specular reflections of glossy sleeves, which may exceed full scale and saturate. Shading
is smooth, so it is worked on a grid of every :data:`STEP` pixels and interpolated.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from vision.table_scenes import Hand, Highlight, Scene, Shadow, Solid
from vision.table_scenes_truth import LOOSE_ID, card_id

if TYPE_CHECKING:
    from vision.table_scenes_render import Canvas

STEP = 8
PAPER_LEVEL, DIM_PAPER_LEVEL = 0.6, 0.28
"""Where the automatic exposure puts a mat's white paper (linear, full scale 1)."""
GLOSS = 0.15
"""A reflection adding this much (of paper white) counts as a highlight over a code."""


def expose(canvas: Canvas, scene: Scene) -> tuple[np.ndarray, np.ndarray]:
    """The linear frame (before the lens blur and the sensor) and the mask of highlights
    (``2``: saturated by a reflection, ``1``: a weaker reflection)."""
    import cv2

    shade = _lamp(canvas, scene) * _vignette(canvas, scene.camera.vignette)
    for solid in scene.solids:
        shade *= 1 - 0.55 * _mask(canvas, _cast_by_solid(solid, scene), 2 + solid.h * 0.06)
    for hand in scene.hands:
        shade *= 1 - 0.45 * _mask(canvas, _cast_by_hand(hand, scene), 3 + hand.z * 0.08)
    for shadow in scene.shadows:
        shade *= 1 - shadow.depth * _mask(canvas, _flat(shadow), shadow.soft_mm)
    paper = DIM_PAPER_LEVEL if scene.light.level < 0.5 else PAPER_LEVEL
    exposure = paper / float(np.median(shade))
    full = cv2.resize(shade * exposure, (canvas.optics.width, canvas.optics.height),
                      interpolation=cv2.INTER_LINEAR)
    linear = canvas.albedo / 0.82 * full  # paper albedo → its exposed level
    gloss = np.zeros(linear.shape, np.uint8)
    for spot in scene.highlights:
        _reflect(canvas, scene, spot, linear, gloss, paper)
    return linear, gloss


def _grid(canvas: Canvas) -> tuple[np.ndarray, np.ndarray]:
    """Table (x, y) under every STEP-th pixel."""
    return canvas.rays.on_plane((0, 0, canvas.optics.width + STEP, canvas.optics.height + STEP),
                                0.0, STEP)


def _grid_shape(canvas: Canvas) -> tuple[int, int]:
    return (len(range(0, canvas.optics.height + STEP, STEP)),
            len(range(0, canvas.optics.width + STEP, STEP)))


def _lamp(canvas: Canvas, scene: Scene) -> np.ndarray:
    x, y = _grid(canvas)
    a = math.radians(scene.light.azimuth)
    toward = (x * math.cos(a) + y * math.sin(a)) / 1000
    light = scene.light.level * (1 + scene.light.gradient * toward)
    return np.maximum(light, 0.1 * scene.light.level).astype(np.float32)


def _vignette(canvas: Canvas, amount: float) -> np.ndarray:
    w, h = canvas.optics.width, canvas.optics.height
    ys, xs = np.mgrid[0 : h + STEP : STEP, 0 : w + STEP : STEP].astype(np.float32)
    r2 = ((xs - w / 2) ** 2 + (ys - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    return np.asarray((1 - amount * r2) ** 2, np.float32)


def _away(scene: Scene, height: float) -> tuple[float, float]:
    """How far, and which way, a point ``height`` mm up casts its shadow on the table."""
    reach = height / math.tan(math.radians(scene.light.elevation))
    a = math.radians(scene.light.azimuth)
    return -reach * math.cos(a), -reach * math.sin(a)


def _cast_by_solid(solid: Solid, scene: Scene) -> np.ndarray:
    import cv2

    dx, dy = _away(scene, solid.h)
    if solid.kind in ("cup", "figure"):
        t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        ring = np.stack([solid.x + solid.w / 2 * np.cos(t), solid.y + solid.w / 2 * np.sin(t)],
                        axis=1)
    else:
        a = math.radians(solid.angle)
        c, s = math.cos(a), math.sin(a)
        ring = np.array([(solid.x + u * c - v * s, solid.y + u * s + v * c) for u, v in
                         ((-solid.w / 2, -solid.d / 2), (solid.w / 2, -solid.d / 2),
                          (solid.w / 2, solid.d / 2), (-solid.w / 2, solid.d / 2))])
    points = np.vstack([ring, ring + np.array([dx, dy])]).astype(np.float32)
    hull = cv2.convexHull(points).reshape(-1, 2)
    return np.hstack([hull, np.zeros((len(hull), 1))])


def _cast_by_hand(hand: Hand, scene: Scene) -> np.ndarray:
    dx, dy = _away(scene, hand.z + 10)
    return np.array([(x + dx, y + dy, 0.0) for x, y in hand.outline])


def _flat(shadow: Shadow) -> np.ndarray:
    return np.array([(x, y, 0.0) for x, y in shadow.outline])


def _mask(canvas: Canvas, points: np.ndarray, soft_mm: float) -> np.ndarray:
    """A polygon on the table, on the STEP grid, blurred by ``soft_mm``."""
    import cv2

    shape = _grid_shape(canvas)
    px = canvas.optics.project(points) / STEP
    mask = np.zeros(shape, np.float32)
    cv2.fillPoly(mask, [np.round(px * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    sigma = soft_mm * canvas.optics.px_per_mm(np.array([*points[:, :2].mean(axis=0), 0.0])) / STEP
    return np.asarray(cv2.GaussianBlur(mask, (0, 0), max(sigma, 0.5)))


def _reflect(canvas: Canvas, scene: Scene, spot: Highlight, linear: np.ndarray,
             gloss: np.ndarray, paper: float) -> None:
    """A sleeve's reflection: an elliptic glow with a flat, saturating core, on that card only."""
    if spot.ferry:
        card = scene.ferry(spot.ferry).cards[spot.card]
        ident = card_id(spot.ferry, spot.card)
    else:
        card, ident = scene.loose[spot.card], LOOSE_ID + spot.card
    reach = 3 * max(spot.a, spot.b)
    corners = np.array([(spot.x + dx, spot.y + dy, card.z) for dx, dy in
                        ((-reach, -reach), (reach, -reach), (reach, reach), (-reach, reach))])
    box = canvas.box_of(corners)
    if box is None:
        return
    wx, wy = canvas.rays.on_plane(box, card.z)
    a = math.radians(spot.angle)
    du = (wx - spot.x) * math.cos(a) + (wy - spot.y) * math.sin(a)
    dv = -(wx - spot.x) * math.sin(a) + (wy - spot.y) * math.cos(a)
    q = (du / spot.a) ** 2 + (dv / spot.b) ** 2
    glow = spot.peak * paper * np.exp(-0.7 * q ** 1.5)
    left, top, right, bottom = box
    on_card = canvas.ids[top:bottom, left:right] == ident
    glow *= on_card
    region = linear[top:bottom, left:right]
    region += glow
    marks = gloss[top:bottom, left:right]
    marks[glow > GLOSS * paper] = np.maximum(marks[glow > GLOSS * paper], 1)
    marks[(region >= 0.98) & (glow > GLOSS * paper)] = 2
