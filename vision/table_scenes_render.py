"""Filming a :class:`vision.table_scenes.Scene`: a posed pinhole camera, light, sensor and ISP.

Independent of :mod:`vision.table_render` by construction: no homography of a flat table and
no pasted, resized element images. Each output pixel is a ray of a calibrated camera (OpenCV's
pinhole with radial distortion, ``cv2.projectPoints`` / ``cv2.undistortPoints``) that meets the
plane of each object at its own height (a card 2 mm up a stack lies where a real camera sees
it); tall things (cups, phones, dice, the Noah figure, hands) are solids projected corner by
corner. Light is worked in linear units: albedo × a lamp from one side × cast and soft shadows ×
lens vignetting, plus the specular reflections of glossy sleeves (saturating), then the lens
(defocus disk, motion streak), the sensor (2×2 binning, shot and read noise scaled by gain,
clipping), a tone curve, the ISP's sharpening and, if asked, a JPEG round trip.

Every pixel also records which object it shows, so the ground truth (:class:`SceneTruth`) is what
the frame really shows: a top code is *visible* when its code and one module round it are in the
frame and no other object hides any of it; a mat is *locatable* when one of its markers shows
whole, and nearly all of its white margin; a highlight is *strong* over a code when it
saturates part of it.

>>> from vision.table_scenes import Camera
>>> camera = optics(Scene(ferries=(), camera=Camera(height=750.0)))  # straight down, 75 cm
>>> [round(float(v), 1) for v in camera.project(np.array([[0.0, 0.0, 0.0]]))[0]]
[2303.5, 1295.5]
>>> round(camera.px_per_mm(np.array([0.0, 0.0, 0.0])), 2)  # 4.5 px per 0.95 mm sticker module
4.73

``render_scene(scene)`` gives the frame and its :class:`SceneTruth` (tests/table/test_scenes.py).
"""

from __future__ import annotations

import functools
import math
import weakref
from dataclasses import dataclass, replace

import numpy as np

from vision.table_kit import (
    CARD_ZONE_MM,
    MARKER_MM,
    MAT_MM,
    NOAH_DISC_MM,
    NOAH_MARKER,
    marker_cells,
    marker_centre_mm,
    marker_ids,
)
from vision.table_scenes import (
    CARD_MM,
    MAT_THICK_MM,
    STICKER_MM,
    Card,
    Hand,
    Scene,
    Solid,
)
from vision.table_scenes_light import expose
from vision.table_scenes_truth import (
    BOARD_ID,
    HAND_ID,
    LOOSE_ID,
    NOAH_ID,
    SOLID_ID,
    SceneTruth,
    card_id,
    mat_id,
    scene_truth,
)

Point = tuple[float, float]
PX_PER_MM = 10.0  # element images (mats, cards) are drawn this fine, then sampled per ray
PAPER, INK, STICKER_WHITE = 0.82, 0.045, 0.86  # albedos
TEXTURE_PX_PER_MM = 0.5  # the table top's texture
COARSE = 4  # the ray map is computed every COARSE pixels and interpolated
DISC_Z = 0.4
NOISE_SHOT, NOISE_READ = 1 / 5000, 1 / 1200  # linear units at gain 1 (full scale = 1)


# -- the camera ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class SceneShot:
    """A rendered frame and what it truly shows."""

    frame: np.ndarray
    truth: SceneTruth


@dataclass(frozen=True)
class Optics:
    """A posed, calibrated camera (full sensor resolution, before binning)."""

    matrix: np.ndarray
    dist: np.ndarray
    rotation: np.ndarray  # world → camera
    centre: np.ndarray  # the camera's position, world mm
    width: int
    height: int

    @property
    def rvec(self) -> np.ndarray:
        import cv2

        vector, _ = cv2.Rodrigues(self.rotation)
        return np.asarray(vector)

    @property
    def tvec(self) -> np.ndarray:
        return np.asarray(-self.rotation @ self.centre)

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N × 3, mm) → sensor pixels (N × 2)."""
        import cv2

        px, _ = cv2.projectPoints(np.asarray(points, np.float64).reshape(-1, 1, 3), self.rvec,
                                  self.tvec, self.matrix, self.dist)
        return np.asarray(px).reshape(-1, 2)

    def px_per_mm(self, point: np.ndarray) -> float:
        """About how many sensor pixels a millimetre spans at a world point."""
        return float(self.matrix[0, 0] / np.linalg.norm(np.asarray(point) - self.centre))


def optics(scene: Scene, scale: float = 1.0) -> Optics:
    """The scene's camera; ``scale`` shrinks the sensor (for quick tests), field unchanged."""
    cam = scene.camera
    width, height = round(cam.width * scale), round(cam.sensor_height * scale)
    f = width / (2 * math.tan(math.radians(cam.hfov) / 2))
    matrix = np.array([[f, 0, width / 2 - 0.5], [0, f, height / 2 - 0.5], [0, 0, 1]])
    tilt, toward = math.radians(cam.tilt), math.radians(cam.toward)
    target = np.array([*cam.target, 0.0])
    distance = cam.height / math.cos(tilt)
    centre = target + distance * np.array([math.sin(tilt) * math.cos(toward),
                                           math.sin(tilt) * math.sin(toward), math.cos(tilt)])
    forward = (target - centre) / distance
    turn = math.radians(cam.turn)
    hint = np.array([math.cos(turn), math.sin(turn), 0.0])
    x_axis = hint - (hint @ forward) * forward
    x_axis /= np.linalg.norm(x_axis)
    y_axis = np.cross(forward, x_axis)
    rotation = np.array([x_axis, y_axis, forward])
    return Optics(matrix, np.array([cam.k1, cam.k2, 0.0, 0.0]), rotation, centre, width, height)


class Rays:
    """Each sensor pixel's viewing ray: the undistorted direction, computed on a coarse grid
    (lens distortion is smooth) and interpolated per pixel."""

    def __init__(self, optics: Optics) -> None:
        import cv2

        self.optics = optics
        ys, xs = np.mgrid[0 : optics.height + COARSE : COARSE,
                          0 : optics.width + COARSE : COARSE].astype(np.float64)
        points = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
        normal = cv2.undistortPoints(points, optics.matrix, optics.dist).reshape((*xs.shape, 2))
        self.xn = normal[..., 0].astype(np.float32)
        self.yn = normal[..., 1].astype(np.float32)

    def on_plane(self, box: tuple[int, int, int, int], z: float, step: int = 1
                 ) -> tuple[np.ndarray, np.ndarray]:
        """World (x, y) where the rays of the pixels in ``box`` (left, top, right, bottom; every
        ``step``-th pixel) meet the horizontal plane at height ``z``."""
        import cv2

        left, top, right, bottom = box
        gx, gy = np.meshgrid(np.arange(left, right, step, dtype=np.float32) / COARSE,
                             np.arange(top, bottom, step, dtype=np.float32) / COARSE)
        xn = cv2.remap(self.xn, gx, gy, cv2.INTER_LINEAR)
        yn = cv2.remap(self.yn, gx, gy, cv2.INTER_LINEAR)
        r = self.optics.rotation.T.astype(np.float32)  # camera → world
        dx = r[0, 0] * xn + r[0, 1] * yn + r[0, 2]
        dy = r[1, 0] * xn + r[1, 1] * yn + r[1, 2]
        dz = r[2, 0] * xn + r[2, 1] * yn + r[2, 2]
        c = self.optics.centre
        t = (z - c[2]) / dz
        return (c[0] + t * dx).astype(np.float32), (c[1] + t * dy).astype(np.float32)


# -- drawing -------------------------------------------------------------------------------------

@dataclass
class Canvas:
    """The frame being drawn: linear albedo, which object each pixel shows, sleeve gloss."""

    albedo: np.ndarray
    ids: np.ndarray
    rays: Rays
    optics: Optics

    def box_of(self, points: np.ndarray, pad: int = 2) -> tuple[int, int, int, int] | None:
        px = self.optics.project(points)
        left, top = np.floor(px.min(axis=0)).astype(int) - pad
        right, bottom = np.ceil(px.max(axis=0)).astype(int) + pad
        left, top = max(0, left), max(0, top)
        right, bottom = min(self.optics.width, right), min(self.optics.height, bottom)
        return None if right <= left or bottom <= top else (left, top, right, bottom)


@dataclass(frozen=True)
class Flat:
    """A flat printed thing lying at height ``z``: its image (albedo, PX_PER_MM px/mm), its
    centre and turn on the table, its outline (rounded rectangle or disc) and object id."""

    image: np.ndarray
    x: float
    y: float
    angle: float
    z: float
    size: tuple[float, float]
    ident: int
    corner_mm: float = 0.0
    disc: bool = False


def draw_flat(canvas: Canvas, flat: Flat) -> None:
    """Each pixel's ray meets the flat's plane; the flat's image is sampled there."""
    import cv2

    w, h = flat.size
    a = math.radians(flat.angle)
    c, s = math.cos(a), math.sin(a)
    corners = np.array([[flat.x + u * c - v * s, flat.y + u * s + v * c, flat.z]
                        for u, v in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2),
                                     (-w / 2, h / 2))])
    box = canvas.box_of(corners)
    if box is None:
        return
    wx, wy = canvas.rays.on_plane(box, flat.z)
    du, dv = wx - flat.x, wy - flat.y
    u = du * c + dv * s + w / 2  # table → the flat's own mm (origin top left)
    v = h / 2 - (-du * s + dv * c)  # the image's rows run down, the table's y up
    scale = canvas.optics.px_per_mm(corners.mean(axis=0))
    image, px_per_mm = _filtered(flat.image, scale)
    sample = cv2.remap(image, u * px_per_mm - 0.5, v * px_per_mm - 0.5, cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    alpha = np.clip(0.5 - _outside(u, v, flat) * scale, 0, 1)
    left, top, right, bottom = box
    region = canvas.albedo[top:bottom, left:right]
    region += alpha * (sample - region)
    canvas.ids[top:bottom, left:right][alpha > 0.5] = flat.ident


def _outside(u: np.ndarray, v: np.ndarray, flat: Flat) -> np.ndarray:
    """Signed distance (mm) from the flat's outline: negative inside."""
    w, h = flat.size
    if flat.disc:
        return np.asarray(np.hypot(u - w / 2, v - h / 2) - w / 2)
    r = flat.corner_mm
    qx = np.abs(u - w / 2) - (w / 2 - r)
    qy = np.abs(v - h / 2) - (h / 2 - r)
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0)
    return np.asarray(outside - r)


_FILTERED: dict[tuple[int, int, float], tuple[weakref.ref[np.ndarray], np.ndarray]] = {}
"""The filtered element images, by (``id`` of the image, factor, sigma), each with a weak
reference to its image: an ``id`` names an object only while it lives, and a board's image is
made afresh for each render, so a later image (another table's board, a new card) may take the
``id`` of one gone. The entry leaves with its image (the reference's callback), and is used
only for the very image it was made from: a frame never depends on what was rendered before."""


def _filtered(image: np.ndarray, frame_px_per_mm: float) -> tuple[np.ndarray, float]:
    """The element image pre-filtered to the footprint of a frame pixel (so that sampling it
    at each ray is an average over the pixel, not a point): reduced by a whole factor while it
    is over twice as fine as the frame, then blurred. Returns it and its pixels per mm."""
    import cv2

    factor = max(1, int(PX_PER_MM / (2 * frame_px_per_mm)))
    px_per_mm = PX_PER_MM / factor
    sigma = round(0.42 * px_per_mm / frame_px_per_mm, 1)
    key = (id(image), factor, sigma)
    entry = _FILTERED.get(key)
    if entry is None or entry[0]() is not image:
        if len(_FILTERED) > 256:
            _FILTERED.clear()
        small = image if factor == 1 else cv2.resize(
            image, (image.shape[1] // factor, image.shape[0] // factor),
            interpolation=cv2.INTER_AREA)
        entry = (weakref.ref(image, lambda _: _FILTERED.pop(key, None)),
                 cv2.GaussianBlur(small, (0, 0), sigma) if sigma > 0.3 else small)
        _FILTERED[key] = entry
    return entry[1], px_per_mm


def fill_polygon(canvas: Canvas, points: np.ndarray, albedo: float, ident: int) -> None:
    """A polygon of world points (N × 3), projected, filled with one albedo."""

    fill_pixels(canvas, canvas.optics.project(points), albedo, ident)


def fill_pixels(canvas: Canvas, px: np.ndarray, albedo: float, ident: int) -> None:
    """A polygon of sensor pixels (N × 2, subpixel), filled with one albedo."""
    import cv2

    left, top = np.maximum(np.floor(px.min(axis=0)).astype(int), 0)
    right, bottom = np.minimum(np.ceil(px.max(axis=0)).astype(int) + 1,
                               (canvas.optics.width, canvas.optics.height))
    if right <= left or bottom <= top:
        return
    mask = np.zeros((bottom - top, right - left), np.uint8)
    cv2.fillPoly(mask, [np.round((px - (left, top)) * 8).astype(np.int32)], 1, cv2.LINE_8, 3)
    inside = mask > 0
    canvas.albedo[top:bottom, left:right][inside] = albedo
    canvas.ids[top:bottom, left:right][inside] = ident


# -- element images (albedo, PX_PER_MM) ----------------------------------------------------------

def _px(mm: float) -> int:
    return round(mm * PX_PER_MM)


@functools.cache
def mat_image(ferry: int) -> np.ndarray:
    """A ferry mat as the kit prints it: paper, two markers, the number, a ferry, the zone."""
    import cv2

    image = np.full((_px(MAT_MM[1]), _px(MAT_MM[0])), PAPER, np.float32)
    left, top, right, bottom = CARD_ZONE_MM
    cv2.rectangle(image, (_px(left), _px(top)), (_px(right), _px(bottom)), 0.55, _px(0.6))
    cv2.putText(image, str(ferry), (_px(8), _px(40)), cv2.FONT_HERSHEY_DUPLEX, 2.2, 0.5, _px(1.5))
    hull = np.array([(_px(25), _px(95)), (_px(75), _px(95)), (_px(66), _px(108)),
                     (_px(34), _px(108))])
    cv2.polylines(image, [hull], True, 0.45, _px(1.0))
    cv2.line(image, (_px(50), _px(95)), (_px(50), _px(70)), 0.45, _px(0.8))
    for marker_id in marker_ids(ferry):
        _marker(image, marker_id, marker_centre_mm(marker_id))
    cv2.rectangle(image, (0, 0), (image.shape[1] - 1, image.shape[0] - 1), 0.6, _px(0.5))
    return image


def _marker(image: np.ndarray, marker_id: int, centre: Point) -> None:
    import cv2

    side = _px(MARKER_MM)
    cells = cv2.resize(np.where(marker_cells(marker_id) > 0, INK, PAPER).astype(np.float32),
                       (side, side), interpolation=cv2.INTER_NEAREST)
    x, y = _px(centre[0]) - side // 2, _px(centre[1]) - side // 2
    image[y : y + side, x : x + side] = cells


@functools.cache
def noah_image() -> np.ndarray:
    """The Noah disc: white, marker 10 in the middle, a printed ring."""
    import cv2

    side = _px(NOAH_DISC_MM)
    image = np.full((side, side), PAPER, np.float32)
    cv2.circle(image, (side // 2, side // 2), side // 2 - _px(1.0), 0.5, _px(0.5))
    _marker(image, NOAH_MARKER, (NOAH_DISC_MM / 2, NOAH_DISC_MM / 2))
    return image


@functools.cache
def card_image(card: Card) -> np.ndarray:
    """A card face (in its sleeve): border, painted animal, title, and the sticker."""
    import cv2

    rng = np.random.default_rng(card.art)
    w, h = card.size
    image = np.full((_px(h), _px(w)), 0.78, np.float32)  # a sleeve's clear rim
    inset = ((w - CARD_MM[0]) / 2, (h - CARD_MM[1]) / 2)
    face = np.full((_px(CARD_MM[1]), _px(CARD_MM[0])), rng.uniform(0.7, 0.85), np.float32)
    background = rng.uniform(0.25, 0.7)
    cv2.rectangle(face, (_px(3), _px(3)), (_px(60), _px(85)), background, -1)
    for _ in range(rng.integers(3, 7)):  # the animal: blobs with dark outlines
        centre = (_px(rng.uniform(12, 51)), _px(rng.uniform(20, 75)))
        axes = (_px(rng.uniform(5, 20)), _px(rng.uniform(4, 15)))
        angle = float(rng.uniform(0, 180))
        cv2.ellipse(face, centre, axes, angle, 0, 360, float(rng.uniform(0.1, 0.9)), -1,
                    cv2.LINE_AA)
        cv2.ellipse(face, centre, axes, angle, 0, 360, 0.08, _px(0.5), cv2.LINE_AA)
    cv2.putText(face, str(rng.integers(1, 6)), (_px(5), _px(13)), cv2.FONT_HERSHEY_SIMPLEX,
                1.6, 0.1, _px(0.8))
    if card.text is not None:
        _sticker(face, card)
    y0, x0 = _px(inset[1]), _px(inset[0])
    image[y0 : y0 + face.shape[0], x0 : x0 + face.shape[1]] = face
    return image


def _sticker(face: np.ndarray, card: Card) -> None:
    """The sticker: the code (with its quiet zone) and, for ours, the label beside it."""
    import cv2
    import segno

    assert card.text is not None
    if card.ours:
        qr = segno.make_qr(card.text, error="q", version=1, boost_error=True)
    else:
        qr = segno.make(card.text, error="m", micro=False)
    modules = np.array(qr.matrix, np.uint8)
    n = modules.shape[0]
    module_mm = card.code_mm / n
    quiet = 4 if card.ours else 2
    code = np.pad(np.where(modules > 0, INK, STICKER_WHITE).astype(np.float32), quiet,
                  constant_values=STICKER_WHITE)
    side = _px(module_mm * (n + 2 * quiet))
    code = np.asarray(cv2.resize(code, (side, side), interpolation=cv2.INTER_NEAREST))
    x0, y0 = _px(card.sticker[0]) - side // 2, _px(card.sticker[1]) - side // 2
    label = _px(STICKER_MM[0]) - side if card.ours else 0
    sx1, sy1 = min(face.shape[1], x0 + side + label), min(face.shape[0], y0 + side)
    face[max(0, y0):sy1, max(0, x0):sx1] = STICKER_WHITE
    for line, words in enumerate([*card.text.split("/")[-1:], "weight 3", "tears 2", "NOAH"]):
        cv2.putText(face, words, (x0 + side + _px(1), y0 + _px(6 + 5.5 * line)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.9, 0.2, _px(0.4))
    ys, xs = slice(max(0, y0), max(0, y0 + side)), slice(max(0, x0), max(0, x0 + side))
    face[ys, xs] = code[max(0, -y0):, max(0, -x0):][: face[ys, xs].shape[0],
                                                    : face[ys, xs].shape[1]]


@functools.cache
def board_image(seed: int, side_mm: float) -> np.ndarray:
    """A printed game board (3 px/mm): colour fields, a track of squares, lettering."""
    import cv2

    rng = np.random.default_rng(seed)
    n = round(side_mm * 3)
    image = cv2.resize(rng.uniform(0.15, 0.7, (6, 6)).astype(np.float32), (n, n),
                       interpolation=cv2.INTER_CUBIC)
    step = n // 10
    for i in range(10):
        for j in (0, 9):
            for x, y in ((i, j), (j, i)):
                cv2.rectangle(image, (x * step, y * step), ((x + 1) * step, (y + 1) * step),
                              float(rng.uniform(0.2, 0.8)), -1)
                cv2.rectangle(image, (x * step, y * step), ((x + 1) * step, (y + 1) * step),
                              0.05, 2)
    cv2.putText(image, "ARCHE", (n // 4, n // 2), cv2.FONT_HERSHEY_TRIPLEX, n / 300, 0.9, 3)
    return np.clip(image, 0, 1)


@functools.cache
def surface_texture(kind: str, seed: int) -> np.ndarray:
    """The table top, 0.5 px/mm over 2 × 2 m (centred): wood grain, cloth or laminate."""
    import cv2

    rng = np.random.default_rng(seed)
    n = 1000
    warp = cv2.resize(rng.normal(0, 1, (12, 12)).astype(np.float32), (n, n),
                      interpolation=cv2.INTER_CUBIC)
    if kind == "wood":  # planks of fine, low-contrast streaks along x
        base = rng.uniform(0.25, 0.5)
        streaks = cv2.resize(rng.normal(0, 1, (n, 20)).astype(np.float32), (n, n),
                             interpolation=cv2.INTER_CUBIC)
        planks = np.repeat(rng.uniform(0.9, 1.1, n // 60 + 1), 60)[:n, None]
        texture: np.ndarray = base * planks * (1 + 0.06 * streaks + 0.05 * warp)
    elif kind == "cloth":  # a weave and soft folds
        base = rng.uniform(0.08, 0.3)
        weave = _grain(rng, n)
        texture = base * (1 + 0.08 * weave + 0.1 * warp)
    else:
        texture = rng.uniform(0.5, 0.75) * (1 + 0.04 * warp)
    texture += 0.015 * _grain(rng, n)
    return np.asarray(np.clip(texture, 0.02, 0.95), np.float32)


def _grain(rng: np.random.Generator, n: int, tile: int = 250) -> np.ndarray:
    """Fine random grain over n × n px (a random tile repeated: quick, and no eye sees it)."""
    grain = rng.standard_normal((tile, tile), dtype=np.float32)
    return np.tile(grain, (n // tile + 1, n // tile + 1))[:n, :n]


# -- the scene, drawn ----------------------------------------------------------------------------

def flats(scene: Scene) -> list[Flat]:
    """Every flat thing on the table, from the lowest up."""
    items = []
    if scene.board is not None:
        x, y, side, turn = scene.board
        items.append(Flat(board_image(scene.seed, side), x, y, turn, 0.05, (side, side), BOARD_ID))
        items[-1] = replace(items[-1], image=_rescaled(items[-1].image, side))
    for f in scene.ferries:
        items.append(Flat(mat_image(f.ferry), f.x, f.y, f.angle, MAT_THICK_MM, MAT_MM,
                          mat_id(f.ferry)))
        for index, card in enumerate(f.cards):
            items.append(_card_flat(card, card_id(f.ferry, index)))
    for index, card in enumerate(scene.loose):
        items.append(_card_flat(card, LOOSE_ID + index))
    if scene.noah is not None:
        items.append(Flat(noah_image(), *scene.noah, 0.0, DISC_Z,
                          (NOAH_DISC_MM, NOAH_DISC_MM), NOAH_ID, disc=True))
    return sorted(items, key=lambda item: item.z)


def _rescaled(image: np.ndarray, side_mm: float) -> np.ndarray:
    import cv2

    n = _px(side_mm)
    return np.asarray(cv2.resize(image, (n, n), interpolation=cv2.INTER_LINEAR))


def _card_flat(card: Card, ident: int) -> Flat:
    return Flat(card_image(card), card.x, card.y, card.angle, card.z, card.size, ident,
                corner_mm=3.0)


def render_scene(scene: Scene, scale: float = 1.0, noise_seed: int | None = None,
                 exposure: float = 1.0) -> SceneShot:
    """The frame the scene's camera takes (grayscale uint8; 2304 × 1296 when binned) and its
    ground truth. ``scale`` shrinks the sensor (tests); ``noise_seed`` gives fresh sensor noise
    for the same table (a second still frame); ``exposure``: the exposure time as a fraction of
    the automatic exposure's, at the same gain (a short exposure of the same still table,
    :mod:`vision.table_exposure`): the scene's light is scaled before the sensor clips it and
    adds its noise, so a highlight that clipped may no longer, and the paper is darker and
    noisier. The lens blur is kept as it is (a still table; a shorter exposure would only
    shorten a motion streak)."""
    cam = optics(scene, scale)
    canvas = Canvas(np.zeros((cam.height, cam.width), np.float32),
                    np.zeros((cam.height, cam.width), np.int16), Rays(cam), cam)
    _draw_surface(canvas, scene)
    for flat in flats(scene):
        draw_flat(canvas, flat)
    for index, solid in sorted(enumerate(scene.solids),
                               key=lambda s: -np.linalg.norm(cam.centre[:2] - (s[1].x, s[1].y))):
        _draw_solid(canvas, solid, SOLID_ID + index)
    for index, hand in enumerate(scene.hands):
        _draw_hand(canvas, hand, HAND_ID + index)
    linear, gloss = expose(canvas, scene)
    if exposure != 1.0:  # the default frame is left exactly as it was
        linear = linear * np.float32(exposure)
    frame = _sensor(linear, scene, scale, scene.seed if noise_seed is None else noise_seed)
    truth = scene_truth(scene, canvas, gloss)
    return SceneShot(frame, truth)


def _draw_surface(canvas: Canvas, scene: Scene) -> None:
    """The table top (its map from pixels to the table is smooth: worked every COARSE px)."""
    import cv2

    texture = surface_texture(scene.surface, scene.seed % 16)  # 16 tables of each kind
    w, h = canvas.optics.width, canvas.optics.height
    wx, wy = canvas.rays.on_plane((0, 0, w + COARSE, h + COARSE), 0.0, COARSE)
    half = texture.shape[0] / 2
    size = (wx.shape[1] * COARSE, wx.shape[0] * COARSE)
    full = [cv2.resize(m * TEXTURE_PX_PER_MM + half, size, interpolation=cv2.INTER_LINEAR)
            [:h, :w] for m in (wx, wy)]
    cv2.remap(texture, full[0], full[1], cv2.INTER_LINEAR, dst=canvas.albedo,
              borderMode=cv2.BORDER_REFLECT)


def _draw_solid(canvas: Canvas, solid: Solid, ident: int) -> None:
    if solid.kind in ("cup", "figure"):
        _draw_cylinder(canvas, solid, ident)
    else:
        _draw_box(canvas, solid, ident)


def _circle(x: float, y: float, r: float, z: float, n: int = 40) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([x + r * np.cos(t), y + r * np.sin(t), np.full(n, z)], axis=1)


def _draw_cylinder(canvas: Canvas, solid: Solid, ident: int) -> None:
    """A cup (dark drink inside its rim) or the Noah figure: the body's silhouette, its top."""
    import cv2

    r = solid.w / 2
    bottom, top = _circle(solid.x, solid.y, r, 0.0), _circle(solid.x, solid.y, r, solid.h)
    hull = cv2.convexHull(canvas.optics.project(np.vstack([bottom, top])).astype(np.float32))
    fill_pixels(canvas, hull.reshape(-1, 2), solid.shade * 0.8, ident)
    fill_polygon(canvas, top, min(0.95, solid.shade * 1.15), ident)
    if solid.kind == "cup":
        fill_polygon(canvas, _circle(solid.x, solid.y, r - 4, solid.h - 15), 0.06, ident)


def _draw_box(canvas: Canvas, solid: Solid, ident: int) -> None:
    """A phone (dark glass, a lit edge) or a die (pips): the sides facing the camera, the top."""
    a = math.radians(solid.angle)
    c, s = math.cos(a), math.sin(a)
    corners = [(solid.x + u * c - v * s, solid.y + u * s + v * c) for u, v in
               ((-solid.w / 2, -solid.d / 2), (solid.w / 2, -solid.d / 2),
                (solid.w / 2, solid.d / 2), (-solid.w / 2, solid.d / 2))]
    sides = []
    for i in range(4):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
        face = np.array([(x0, y0, 0), (x1, y1, 0), (x1, y1, solid.h), (x0, y0, solid.h)])
        sides.append((float(np.linalg.norm(face.mean(axis=0) - canvas.optics.centre)), face))
    for _, face in sorted(sides, key=lambda item: -item[0]):
        fill_polygon(canvas, face, solid.shade * 0.7, ident)
    top = np.array([(x, y, solid.h) for x, y in corners])
    fill_polygon(canvas, top, solid.shade, ident)
    if solid.kind == "die":
        for u, v in ((0, 0), (-0.27, -0.27), (0.27, 0.27)):
            pip = _circle(solid.x + solid.w * (u * c - v * s), solid.y + solid.w * (u * s + v * c),
                          solid.w * 0.08, solid.h, 12)
            fill_polygon(canvas, pip, 0.05, ident)
    else:
        glass = top.copy()
        glass[:, :2] = (glass[:, :2] - (solid.x, solid.y)) * 0.92 + (solid.x, solid.y)
        fill_polygon(canvas, glass, 0.03, ident)


def _draw_hand(canvas: Canvas, hand: Hand, ident: int) -> None:
    points = np.array([(x, y, hand.z) for x, y in hand.outline])
    fill_polygon(canvas, points, hand.shade, ident)


def _sensor(linear: np.ndarray, scene: Scene, scale: float, seed: int) -> np.ndarray:
    """Lens blur, binning, noise, clipping, the tone curve, sharpening, JPEG."""
    import cv2

    cam = scene.camera
    kernel = _blur_kernel(cam.defocus * scale, cam.motion * scale, cam.motion_angle)
    linear = cv2.filter2D(linear, -1, kernel, borderType=cv2.BORDER_REFLECT)
    if cam.binned:
        linear = cv2.resize(linear, (linear.shape[1] // 2, linear.shape[0] // 2),
                            interpolation=cv2.INTER_AREA)
    rng = np.random.default_rng(seed + 17)
    gain = cam.gain / (2.0 if cam.binned else 1.0)  # four pixels averaged: half the noise
    sigma = np.sqrt(np.maximum(linear, 0) * NOISE_SHOT * gain + (NOISE_READ * gain) ** 2)
    linear = linear + sigma * rng.standard_normal(linear.shape, dtype=np.float32)
    lut = (255 * np.linspace(0, 1, 4096) ** (1 / 2.2)).astype(np.uint8)
    frame = lut[(np.clip(linear, 0, 1) * 4095).astype(np.uint16)]
    amount = 0.25 + 0.3 * ((seed * 7919) % 100) / 100
    soft = cv2.GaussianBlur(frame, (0, 0), 1.2)
    frame = np.asarray(cv2.addWeighted(frame, 1 + amount, soft, -amount, 0), np.uint8)
    if cam.jpeg:
        _, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, cam.jpeg])
        frame = np.asarray(cv2.imdecode(data, cv2.IMREAD_GRAYSCALE), np.uint8)
    return np.ascontiguousarray(frame)


def _blur_kernel(defocus: float, motion: float, angle: float) -> np.ndarray:
    """A defocus disk of radius ``defocus`` convolved with a streak ``motion`` long."""
    import cv2

    r = max(defocus, 0.35)
    size = 2 * math.ceil(r + motion / 2) + 3
    centre = size // 2
    big = 8  # drawn 8× finer, then averaged down: soft edges
    disk = np.zeros((size * big, size * big), np.float32)
    cv2.circle(disk, (centre * big + big // 2, centre * big + big // 2), round(r * big), 1.0, -1,
               cv2.LINE_AA)
    disk = np.asarray(cv2.resize(disk, (size, size), interpolation=cv2.INTER_AREA), np.float32)
    if motion > 0.5:
        streak = np.zeros((size, size), np.float32)
        dx, dy = motion / 2 * math.cos(math.radians(angle)), motion / 2 * math.sin(
            math.radians(angle))
        cv2.line(streak, (round((centre - dx) * 16), round((centre - dy) * 16)),
                 (round((centre + dx) * 16), round((centre + dy) * 16)), 1.0, 1, cv2.LINE_AA, 4)
        disk = np.asarray(cv2.filter2D(disk, -1, streak / max(streak.sum(), 1e-6)), np.float32)
    result: np.ndarray = disk / disk.sum()
    return result
