"""A synthetic overhead camera: renders a whole Noah table as the table view's camera sees it.

Frames the product never sees are checked against frames rendered to ``TABLE-KIT.md``: the five
ferry mats with their real ArUco markers (OpenCV's dictionary,
:func:`vision.table_kit.marker_cells`), stacks of cards carrying real QR stickers (segno: version 1,
level Q, 20 mm), the Noah marker disc, hands, glare, a tilted camera, soft focus, sensor noise and
dim light. No game rules: a card is the text of its sticker. Everything is deterministic for a given
seed.

Coordinates: table millimetres, origin under the camera, x to the right and y down the frame.
:class:`OverheadCamera` fixes the scale (Camera Module 3: 66° across; 4608 px at 75 cm give
4.73 px/mm, 4.5 px per sticker module).

>>> scene = TableScene(mats=row_layout(), noah=(0.0, 110.0))
>>> shot = render_table(scene, OverheadCamera(width=1536, height=864))
>>> shot.frame.shape, shot.frame.dtype.name, shot.truth.noah
((864, 1536), 'uint8', 3)
"""

from __future__ import annotations

import functools
import math
import random
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from vision.synthetic import focal_px
from vision.table_kit import (
    CARD_ZONE_MM,
    FERRIES,
    MARKER_MM,
    MAT_MM,
    NOAH_DISC_MM,
    NOAH_MARKER,
    marker_cells,
    marker_centre_mm,
    marker_ids,
)

Point = tuple[float, float]
CARD_MM = (63.0, 88.0)
STICKER_CODE_MM = 20.0
QUIET_MODULES = 4
STICKER_AT = (17.8, 19.8)
"""Where a card's QR code centre sits on the card face by default (mm from its top left): the
sticker (code and label, 55 × 28 mm) along the card's top edge."""
PAPER = 236
INK = 22
CLOTH = 92


@dataclass(frozen=True)
class OverheadCamera:
    """The camera: frame size, height above the table and horizontal field of view.

    >>> round(OverheadCamera().px_per_mm, 2), round(OverheadCamera().px_per_module, 2)
    (4.73, 4.51)
    """

    width: int = 4608
    height: int = 2592
    height_mm: float = 750.0
    hfov_deg: float = 66.0

    @property
    def focal_px(self) -> float:
        return focal_px(self.width, self.hfov_deg)

    @property
    def px_per_mm(self) -> float:
        return self.focal_px / self.height_mm

    @property
    def px_per_module(self) -> float:
        return self.px_per_mm * STICKER_CODE_MM / 21


@dataclass(frozen=True)
class CardOnMat:
    """One card of a ferry's stack: its sticker text (``None``: no sticker) and how it lies.

    ``dx_mm``/``dy_mm`` move the card from the card zone's centre along the mat's axes (a fanned
    stack moves each newer card down the mat), ``angle_deg`` turns it askew on the mat,
    ``sticker_at`` is the code's centre on the card face (mm from its top left).
    """

    text: str | None
    dx_mm: float = 0.0
    dy_mm: float = 0.0
    angle_deg: float = 0.0
    sticker_at: Point = STICKER_AT


@dataclass(frozen=True)
class MatOnTable:
    """A ferry mat on the table: which ferry, its centre (table mm), its turn, and its cards
    from the bottom of the stack to the top."""

    ferry: int
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    cards: tuple[CardOnMat, ...] = ()


@dataclass(frozen=True)
class CardOnTable:
    """A card lying face up on the table, off the mats (a hand laid out at round end): its
    sticker text, its centre (table mm), how far it is turned and where its code sits on it."""

    text: str | None
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    sticker_at: Point = STICKER_AT


@dataclass(frozen=True)
class Glare:
    """A lamp's reflection: a soft bright spot (table mm; strength 0–1)."""

    x_mm: float
    y_mm: float
    radius_mm: float = 25.0
    strength: float = 0.6


@dataclass(frozen=True)
class TableScene:
    """Everything on the table and how the camera sees it.

    ``noah``: the Noah marker disc's centre (table mm), or ``None``; ``loose``: cards lying
    face up off the mats, in the order they were laid (e.g. from :func:`laid_out`);
    ``hands``: polygons (table mm, e.g. from :func:`hand_polygon`); ``tilt_deg``: the camera
    leans this far from vertical, toward ``tilt_toward_deg`` (0 = the frame's right);
    ``blur``: Gaussian sigma in pixels (soft focus; 0.7 is a sharp lens); ``noise``: sensor
    noise (grey levels); ``light``: 1 normal, 0.4 a dim room.
    """

    mats: tuple[MatOnTable, ...]
    noah: Point | None = None
    loose: tuple[CardOnTable, ...] = ()
    hands: tuple[tuple[Point, ...], ...] = ()
    glare: tuple[Glare, ...] = ()
    tilt_deg: float = 0.0
    tilt_toward_deg: float = 0.0
    blur: float = 0.7
    noise: float = 2.5
    light: float = 1.0
    seed: int = 0

    def with_cards(self, stacks: Mapping[int, Sequence[CardOnMat]]) -> TableScene:
        """A copy with these ferries' stacks replaced."""
        mats = tuple(replace(m, cards=tuple(stacks.get(m.ferry, m.cards))) for m in self.mats)
        return replace(self, mats=mats)


@dataclass(frozen=True)
class FerryTruth:
    """What a perfect reader would say of one ferry, and whether its top code can be seen."""

    mat_in_view: bool
    top: str | None
    top_visible: bool
    """The top card has a code, wholly in the frame and under no hand."""
    hand_over: bool
    """A hand covers part of the mat's card zone or of the top card's code."""


@dataclass(frozen=True)
class TableTruth:
    ferries: dict[int, FerryTruth]
    noah: int | None
    """The ferry whose mat centre is nearest to Noah's marker (``None`` without the marker)."""
    noah_visible: bool
    loose_visible: tuple[str, ...] = ()
    """The texts of the cards off the mats whose code is wholly in the frame, under no hand and
    under no card laid after it."""


@dataclass(frozen=True)
class RenderedTable:
    frame: np.ndarray
    truth: TableTruth
    px_per_module: float


# -- layouts ---------------------------------------------------------------------------------------

def row_layout(gap_mm: float = 25.0, y_mm: float = 0.0, turn_deg: float = 0.0) -> tuple[
        MatOnTable, ...]:
    """Five mats side by side, ferry 1 on the left.

    >>> [round(m.x_mm) for m in row_layout()]
    [-250, -125, 0, 125, 250]
    """
    pitch = MAT_MM[0] + gap_mm
    return tuple(MatOnTable(k, (k - 3) * pitch, y_mm, turn_deg) for k in FERRIES)


def arc_layout(radius_mm: float = 520.0, spread_deg: float = 64.0) -> tuple[MatOnTable, ...]:
    """Five mats on an arc around a point below the frame, each turned to face it."""
    mats = []
    for index, ferry in enumerate(FERRIES):
        angle = math.radians(-spread_deg / 2 + spread_deg * index / 4)
        x, y = radius_mm * math.sin(angle), radius_mm * (1 - math.cos(angle)) - 60
        mats.append(MatOnTable(ferry, x, y, math.degrees(angle)))
    return tuple(mats)


def board_layout() -> tuple[MatOnTable, ...]:
    """Five mats around a game board in the middle, in a shuffled order, facing outward."""
    places = ((-75.0, -150.0, 180.0), (75.0, -150.0, 180.0), (215.0, 0.0, 270.0),
              (0.0, 150.0, 0.0), (-215.0, 0.0, 90.0))
    order = (3, 5, 1, 4, 2)
    return tuple(MatOnTable(k, x, y, a) for k, (x, y, a) in zip(order, places, strict=True))


LAYOUTS: dict[str, Callable[[], tuple[MatOnTable, ...]]] = {
    "row": row_layout, "arc": arc_layout, "board": board_layout}


def hand_polygon(x_mm: float, y_mm: float, toward_deg: float = 90.0,
                 arm_mm: float = 400.0) -> tuple[Point, ...]:
    """A hand whose palm is centred at (x, y), its arm reaching out toward ``toward_deg``
    (90 = the bottom of the frame), fingers spread the other way."""
    outline = [(-45.0, -10.0), (-40.0, -75.0), (-25.0, -80.0), (-20.0, -45.0), (-12.0, -95.0),
               (4.0, -97.0), (6.0, -50.0), (18.0, -88.0), (32.0, -82.0), (25.0, -35.0),
               (55.0, -55.0), (62.0, -42.0), (40.0, 10.0), (35.0, 45.0), (38.0, arm_mm),
               (-38.0, arm_mm), (-40.0, 40.0)]
    turn = math.radians(toward_deg - 90)
    cos, sin = math.cos(turn), math.sin(turn)
    return tuple((x_mm + u * cos - v * sin, y_mm + u * sin + v * cos) for u, v in outline)


def random_stacks(rng: random.Random, texts: Sequence[str], *, fanned: float = 0.3,
                  askew_deg: float = 12.0, max_cards: int = 4) -> dict[int, tuple[CardOnMat,
                                                                                  ...]]:
    """Stacks of 0–``max_cards`` cards per ferry, with distinct texts from ``texts``: squared
    or fanned down the mat, some askew, some turned round."""
    pool = list(texts)
    rng.shuffle(pool)
    stacks: dict[int, tuple[CardOnMat, ...]] = {}
    for ferry in FERRIES:
        count = rng.randint(0, max_cards)
        fan = rng.uniform(5.0, 9.0) if rng.random() < fanned else 0.0
        cards = []
        for index in range(count):
            text = pool.pop() if pool else None
            angle = rng.uniform(-askew_deg, askew_deg) + (180.0 if rng.random() < 0.25 else 0)
            dy = fan * index - 4.0 if fan else 0.0  # the newest lowest: earlier cards peek out
            cards.append(CardOnMat(text, rng.uniform(-3, 3), dy + rng.uniform(-3, 3), angle))
        stacks[ferry] = tuple(cards)
    return stacks


def laid_out(texts: Sequence[str | None], start: Point, end: Point, rng: random.Random, *,
             angle_deg: float = 0.0, askew_deg: float = 8.0) -> tuple[CardOnTable, ...]:
    """A hand laid face up on the table: the cards' centres spread evenly from ``start`` to
    ``end`` (table mm), each turned ``angle_deg`` and askew by up to ``askew_deg`` either way,
    a little off the line. Spaced when the cards are a card's width apart or more; closer, each
    card lies over part of the one before.

    >>> hand = laid_out(["A", "B", "C"], (-100.0, 120.0), (100.0, 120.0), random.Random(1))
    >>> [int(round(card.x_mm, -1)) for card in hand], [card.text for card in hand]
    ([-100, 0, 100], ['A', 'B', 'C'])
    """
    count = len(texts)
    cards = []
    for index, text in enumerate(texts):
        share = index / (count - 1) if count > 1 else 0.5
        x = start[0] + share * (end[0] - start[0]) + rng.uniform(-2, 2)
        y = start[1] + share * (end[1] - start[1]) + rng.uniform(-2, 2)
        cards.append(CardOnTable(text, x, y, angle_deg + rng.uniform(-askew_deg, askew_deg)))
    return tuple(cards)


def noah_beside(mat: MatOnTable, rng: random.Random) -> Point:
    """A spot just in front of or behind ``mat`` (past one of its short edges)."""
    side = rng.choice((-1.0, 1.0))
    return _on_table(mat, rng.uniform(-20, 20), side * (MAT_MM[1] / 2 + rng.uniform(22, 32)))


# -- rendering ------------------------------------------------------------------------------------

def render_table(scene: TableScene, camera: OverheadCamera | None = None) -> RenderedTable:
    """The grayscale frame (``camera.height`` × ``camera.width``, uint8) and what it shows."""
    import cv2

    camera = camera or OverheadCamera()
    to_frame = _table_to_frame(scene, camera)
    frame = _cloth(camera.width, camera.height, scene.seed).astype(np.float32)
    scale = camera.px_per_mm * 2.4  # element images: finer than the frame, then averaged down
    for mat in scene.mats:
        place = to_frame @ _placement(mat.x_mm, mat.y_mm, mat.angle_deg, MAT_MM)
        _paste(frame, _mat_image(mat.ferry, scale), place, scale)
        for card in mat.cards:
            _paste(frame, _card_image(card.text, card.sticker_at, scale),
                   place @ _card_on_mat(card), scale)
    for loose in scene.loose:
        _paste(frame, _card_image(loose.text, loose.sticker_at, scale),
               to_frame @ _placement(loose.x_mm, loose.y_mm, loose.angle_deg, CARD_MM), scale)
    if scene.noah is not None:
        side = NOAH_DISC_MM
        place = to_frame @ _placement(scene.noah[0], scene.noah[1], 0.0, (side, side))
        _paste(frame, _noah_image(scale), place, scale)
    for spot in scene.glare:
        _add_glare(frame, to_frame, spot, camera.px_per_mm)
    hand_mask = _hands(frame, scene.hands, to_frame)
    frame *= _light(camera.width, camera.height, scene.light)
    if scene.blur > 0:
        frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), scene.blur), np.float32)
    if scene.noise > 0:
        rng = np.random.default_rng(scene.seed + 7)
        frame += rng.normal(0, scene.noise, frame.shape).astype(np.float32)
    image = np.clip(frame, 0, 255).astype(np.uint8)
    truth = _truth(scene, to_frame, hand_mask, camera)
    return RenderedTable(image, truth, camera.px_per_module)


def _table_to_frame(scene: TableScene, camera: OverheadCamera) -> np.ndarray:
    """Table mm → frame px: a pinhole camera ``height_mm`` above the origin, leaning by
    ``tilt_deg``; the table's origin kept at the frame's centre."""
    f, cx, cy = camera.focal_px, camera.width / 2, camera.height / 2
    k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1]], np.float64)
    plane = np.diag([1.0, 1.0, camera.height_mm])  # (x, y, 1) → camera coordinates, untilted
    tilt = math.radians(scene.tilt_deg)
    axis_angle = math.radians(scene.tilt_toward_deg + 90)  # the axis the camera turns about
    axis = np.array([math.cos(axis_angle), math.sin(axis_angle), 0.0])
    rotation = _rotation(axis, tilt)
    h = k @ rotation @ plane
    centre = h @ np.array([0.0, 0.0, 1.0])
    shift = np.array([[1, 0, cx - centre[0] / centre[2]], [0, 1, cy - centre[1] / centre[2]],
                      [0, 0, 1]])
    matrix: np.ndarray = shift @ h
    return matrix


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    x, y, z = axis
    c, s, t = math.cos(angle), math.sin(angle), 1 - math.cos(angle)
    return np.array([[t * x * x + c, t * x * y - s * z, t * x * z + s * y],
                     [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
                     [t * x * z - s * y, t * y * z + s * x, t * z * z + c]])


def _placement(x: float, y: float, angle_deg: float, size: tuple[float, float]) -> np.ndarray:
    """Element mm (origin at its top left) → table mm: centred at (x, y), turned."""
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    w, h = size
    return np.array([[c, -s, x - c * w / 2 + s * h / 2], [s, c, y - s * w / 2 - c * h / 2],
                     [0, 0, 1]])


def _card_on_mat(card: CardOnMat) -> np.ndarray:
    """Card mm → mat mm."""
    left, top, right, bottom = CARD_ZONE_MM
    x = (left + right) / 2 + card.dx_mm
    y = (top + bottom) / 2 + card.dy_mm
    return _placement(x, y, card.angle_deg, CARD_MM)


def _on_table(mat: MatOnTable, dx: float, dy: float) -> Point:
    a = math.radians(mat.angle_deg)
    return (mat.x_mm + dx * math.cos(a) - dy * math.sin(a),
            mat.y_mm + dx * math.sin(a) + dy * math.cos(a))


def _paste(frame: np.ndarray, image: np.ndarray, element_to_frame: np.ndarray,
           scale: float) -> None:
    """Draw an element image (``scale`` px per mm, 8-bit) onto the float frame: warped into a
    twice-finer box around its place, then averaged down, as a sensor averages light."""
    import cv2

    h, w = image.shape[:2]
    pixel_to_frame = element_to_frame @ np.diag([1 / scale, 1 / scale, 1.0])
    corners = cv2.perspectiveTransform(
        np.array([[(0, 0), (w, 0), (w, h), (0, h)]], np.float32), pixel_to_frame)[0]
    left, top = np.floor(corners.min(axis=0)).astype(int) - 2
    right, bottom = np.ceil(corners.max(axis=0)).astype(int) + 2
    left, top = max(left, 0), max(top, 0)
    right, bottom = min(right, frame.shape[1]), min(bottom, frame.shape[0])
    if right <= left or bottom <= top:
        return
    fine = 2
    to_box = np.array([[fine, 0, -fine * left], [0, fine, -fine * top], [0, 0, 1]]) @ \
        pixel_to_frame
    size = (int(right - left) * fine, int(bottom - top) * fine)
    warped = cv2.warpPerspective(image, to_box, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(np.full((h, w), 255, np.uint8), to_box, size,
                                flags=cv2.INTER_LINEAR)
    box = (int(right - left), int(bottom - top))
    warped_small = cv2.resize(warped, box, interpolation=cv2.INTER_AREA).astype(np.float32)
    alpha_small = cv2.resize(alpha, box, interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    region = frame[top:bottom, left:right]
    region += alpha_small * (warped_small - region)


@functools.cache
def _mat_image(ferry: int, scale: float) -> np.ndarray:
    """A ferry mat as printed: white paper, its two markers, its number, a ferry, the zone."""
    import cv2

    w, h = (round(v * scale) for v in MAT_MM)
    image = np.full((h, w), PAPER, np.uint8)

    def px(mm: float) -> int:
        return round(mm * scale)

    left, top, right, bottom = CARD_ZONE_MM
    cv2.rectangle(image, (px(left), px(top)), (px(right), px(bottom)), 175, max(1, px(0.5)))
    cv2.putText(image, str(ferry), (px(40), px(70)), cv2.FONT_HERSHEY_SIMPLEX, scale * 0.9,
                170, max(1, px(2.5)))
    hull = np.array([(px(28), px(88)), (px(72), px(88)), (px(64), px(100)), (px(36), px(100))])
    cv2.polylines(image, [hull], True, 150, max(1, px(1)))
    cv2.rectangle(image, (px(40), px(79)), (px(58), px(88)), 150, max(1, px(1)))
    for marker_id in marker_ids(ferry):
        _draw_marker(image, marker_id, marker_centre_mm(marker_id), scale)
    cv2.rectangle(image, (0, 0), (w - 1, h - 1), 200, max(1, px(0.4)))
    image.setflags(write=False)
    return image


def _draw_marker(image: np.ndarray, marker_id: int, centre: Point, scale: float) -> None:
    import cv2

    cells = marker_cells(marker_id)
    side = round(MARKER_MM * scale)
    marker = cv2.resize(np.where(cells > 0, INK, PAPER).astype(np.uint8), (side, side),
                        interpolation=cv2.INTER_NEAREST)
    x, y = round(centre[0] * scale - side / 2), round(centre[1] * scale - side / 2)
    image[y : y + side, x : x + side] = marker


@functools.cache
def _noah_image(scale: float) -> np.ndarray:
    import cv2

    side = round(NOAH_DISC_MM * scale)
    image = np.full((side, side), CLOTH, np.uint8)
    cv2.circle(image, (side // 2, side // 2), side // 2 - 1, PAPER, -1, cv2.LINE_AA)
    _draw_marker(image, NOAH_MARKER, (NOAH_DISC_MM / 2, NOAH_DISC_MM / 2), scale)
    image.setflags(write=False)
    return image


@functools.cache
def _card_image(text: str | None, sticker_at: Point, scale: float) -> np.ndarray:
    """A card face: a light border, artwork, and (with a text) the sticker: code and label."""
    import cv2

    w, h = (round(v * scale) for v in CARD_MM)
    rng = np.random.default_rng(zlib.crc32(repr(text).encode()))  # hash() varies by process
    art = cv2.resize(rng.uniform(70, 190, (8, 6)).astype(np.float32), (w, h),
                     interpolation=cv2.INTER_CUBIC)
    art += rng.normal(0, 14, (h, w)).astype(np.float32)
    image = np.clip(art, 40, 220).astype(np.uint8)
    edge = round(3 * scale)
    image[:edge], image[-edge:], image[:, :edge], image[:, -edge:] = 225, 225, 225, 225
    cv2.rectangle(image, (0, 0), (w - 1, h - 1), 70, max(1, round(0.4 * scale)))
    if text is not None:
        _draw_sticker(image, text, sticker_at, scale)
    image.setflags(write=False)
    return image


def _draw_sticker(image: np.ndarray, text: str, centre: Point, scale: float) -> None:
    import cv2
    import segno

    dark = np.array(segno.make_qr(text, error="q", version=1, boost_error=True).matrix,
                    np.uint8)
    n = dark.shape[0] + 2 * QUIET_MODULES
    module = STICKER_CODE_MM / dark.shape[0]
    side_mm = n * module
    code = np.pad(np.where(dark > 0, INK, 245).astype(np.uint8), QUIET_MODULES,
                  constant_values=245)
    side = round(side_mm * scale)
    code = np.asarray(cv2.resize(code, (side, side), interpolation=cv2.INTER_NEAREST), np.uint8)
    x0, y0 = round((centre[0] - side_mm / 2) * scale), round((centre[1] - side_mm / 2) * scale)
    label_w = side
    x1, y1 = min(image.shape[1], x0 + side + label_w), min(image.shape[0], y0 + side)
    image[max(0, y0):y1, max(0, x0):x1] = 245
    for line in range(5):  # the label's five lines, as grey bars
        y = y0 + round((0.2 + 0.14 * line) * side)
        cv2.line(image, (x0 + side, y), (x0 + side + round(label_w * (0.8 - 0.1 * line)), y),
                 110, max(1, round(0.9 * scale)))
    ys, xs = slice(max(0, y0), max(0, y0 + side)), slice(max(0, x0), max(0, x0 + side))
    image[ys, xs] = code[max(0, -y0):, max(0, -x0):][: image[ys, xs].shape[0],
                                                    : image[ys, xs].shape[1]]


@functools.cache
def _cloth(width: int, height: int, seed: int) -> np.ndarray:
    """A table cloth in grey: a fine weave and soft blotches (cached per size and seed)."""
    import cv2

    rng = np.random.default_rng(seed + 1)
    weave = rng.normal(0, 7, (height, width)).astype(np.float32)
    blotches = cv2.resize(rng.normal(0, 10, (max(2, height // 80), max(2, width // 80))).astype(
        np.float32), (width, height), interpolation=cv2.INTER_CUBIC)
    cloth: np.ndarray = np.clip(CLOTH + weave + blotches, 0, 255).astype(np.uint8)
    cloth.setflags(write=False)
    return cloth


@functools.cache
def _light(width: int, height: int, level: float) -> np.ndarray:
    """Uneven light: brightest near one corner (a lamp), ``level`` overall."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    distance = np.hypot(xs / width - 0.3, ys / height - 0.2)
    light: np.ndarray = (level * (1.1 - 0.3 * distance)).astype(np.float32)
    light.setflags(write=False)
    return light


def _add_glare(frame: np.ndarray, to_frame: np.ndarray, spot: Glare, px_per_mm: float) -> None:
    import cv2

    x, y, w = to_frame @ np.array([spot.x_mm, spot.y_mm, 1.0])
    radius = spot.radius_mm * px_per_mm
    reach = round(radius * 2.5)
    cx, cy = round(x / w), round(y / w)
    top, left = max(0, cy - reach), max(0, cx - reach)
    bottom, right = min(frame.shape[0], cy + reach), min(frame.shape[1], cx + reach)
    if bottom <= top or right <= left:
        return
    ys, xs = np.mgrid[top:bottom, left:right].astype(np.float32)
    glow = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * (radius / 1.6) ** 2))
    region = frame[top:bottom, left:right]
    region += spot.strength * glow * (255 - region)
    del cv2


def _hands(frame: np.ndarray, hands: Sequence[Sequence[Point]], to_frame: np.ndarray
           ) -> np.ndarray:
    """Draw each hand (skin in grey, a soft shadow beside it); the mask of all hands."""
    import cv2

    mask = np.zeros(frame.shape, np.uint8)
    for index, polygon in enumerate(hands):
        points = cv2.perspectiveTransform(np.array([polygon], np.float64), to_frame)[0]
        shadow = np.zeros(frame.shape, np.uint8)
        cv2.fillPoly(shadow, [np.round(points + np.array([25.0, 30.0])).astype(np.int32)], 255)
        shadow_f = cv2.GaussianBlur(shadow, (0, 0), 20).astype(np.float32) / 255
        frame *= 1 - 0.35 * shadow_f
        hand = np.zeros(frame.shape, np.uint8)
        cv2.fillPoly(hand, [np.round(points).astype(np.int32)], 255)
        shade = 150 + 25 * math.sin(index)
        frame[hand > 0] = shade
        mask |= hand
    return mask


def _truth(scene: TableScene, to_frame: np.ndarray, hands: np.ndarray,
           camera: OverheadCamera) -> TableTruth:
    import cv2

    def covered(points_mm: np.ndarray) -> tuple[bool, bool]:
        """(wholly in the frame, touched by a hand)."""
        px = cv2.perspectiveTransform(points_mm.reshape(1, -1, 2).astype(np.float64),
                                      to_frame)[0]
        inside = bool(((px >= 0) & (px < (camera.width, camera.height))).all())
        polygon = np.zeros(hands.shape, np.uint8)
        cv2.fillPoly(polygon, [np.round(px).astype(np.int32)], 255)
        return inside, bool((polygon & hands).any())

    ferries: dict[int, FerryTruth] = {}
    centres: dict[int, Point] = {}
    for mat in scene.mats:
        place = _placement(mat.x_mm, mat.y_mm, mat.angle_deg, MAT_MM)
        mat_px = _transform(place, _rect(0, 0, *MAT_MM))
        mat_in_view, _ = covered(mat_px)
        _, zone_hand = covered(_transform(place, _rect(*CARD_ZONE_MM)))
        centres[mat.ferry] = (mat.x_mm, mat.y_mm)
        top = mat.cards[-1] if mat.cards else None
        top_visible, code_hand = False, False
        if top is not None and top.text is not None:
            code = _transform(place @ _card_on_mat(top), _code_square(top.sticker_at))
            in_frame, code_hand = covered(code)
            top_visible = in_frame and not code_hand
        ferries[mat.ferry] = FerryTruth(mat_in_view, top.text if top else None, top_visible,
                                        zone_hand or code_hand)
    noah, noah_visible = None, False
    if scene.noah is not None:
        noah = min(centres, key=lambda k: math.dist(scene.noah or (0, 0), centres[k]))
        r = MARKER_MM / 2 + 1
        nx, ny = scene.noah
        in_frame, hand = covered(_rect(nx - r, ny - r, nx + r, ny + r))
        noah_visible = in_frame and not hand
    for ferry in FERRIES:
        ferries.setdefault(ferry, FerryTruth(False, None, False, False))
    return TableTruth(ferries, noah, noah_visible, _loose_visible(scene, covered))


def _loose_visible(scene: TableScene,
                   covered: Callable[[np.ndarray], tuple[bool, bool]]) -> tuple[str, ...]:
    """The texts of the loose cards whose code (and one module around it) is wholly in the
    frame, under no hand and under no card laid after it (table mm, so :func:`_overlaps`
    compares shapes on the table itself)."""
    visible = []
    places = [_placement(c.x_mm, c.y_mm, c.angle_deg, CARD_MM) for c in scene.loose]
    for index, card in enumerate(scene.loose):
        if card.text is None:
            continue
        code = _transform(places[index], _code_square(card.sticker_at))
        in_frame, hand = covered(code)
        later = [_transform(place, _rect(0, 0, *CARD_MM)) for place in places[index + 1:]]
        if in_frame and not hand and not any(_overlaps(code, other) for other in later):
            visible.append(card.text)
    return tuple(visible)


def _code_square(sticker_at: Point) -> np.ndarray:
    """A sticker's code and one module around it, on the card (mm)."""
    half = (STICKER_CODE_MM / 21) * (21 + 2) / 2
    sx, sy = sticker_at
    return _rect(sx - half, sy - half, sx + half, sy + half)


def _overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two convex quadrilaterals (table mm) overlap."""
    import cv2

    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return bool(area > 0)


def _rect(left: float, top: float, right: float, bottom: float) -> np.ndarray:
    return np.array([(left, top), (right, top), (right, bottom), (left, bottom)], np.float64)


def _transform(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    homogeneous = np.hstack([points, np.ones((len(points), 1))]) @ matrix.T
    result: np.ndarray = homogeneous[:, :2] / homogeneous[:, 2:]
    return result


# -- a whole varied set ---------------------------------------------------------------------------

SAMPLE_TEXTS = tuple(f"NOAH1/BOX1/{s}{g}{c}" for s in ("CA", "LI", "EL", "GI", "BE", "PA",
                                                       "KA", "RH") for g in "MF" for c in (1, 2))


@dataclass(frozen=True)
class Variation:
    """What makes one scene of a varied set hard (see :func:`varied_scene`)."""

    layout: str = "row"
    hand: bool = False
    glare: bool = False
    tilt_deg: float = 0.0
    blur: float = 0.7
    light: float = 1.0
    noise: float = 2.5
    beside: int = 0
    """Cards of a hand laid face up beside the mats (round end), in a free part of the table."""
    extras: dict[str, Any] = field(default_factory=dict)


def varied_scene(seed: int, variation: Variation) -> TableScene:
    """A random table of one layout (turned by a random angle), random stacks, Noah beside a
    random mat, and the difficulties ``variation`` asks for; deterministic in ``seed``."""
    rng = random.Random(seed)
    base = LAYOUTS[variation.layout]()
    turn = rng.uniform(-8, 8) if variation.layout != "board" else rng.choice((0.0, 180.0))
    mats = tuple(_turned(m, turn) for m in base)
    mats = tuple(replace(m, angle_deg=m.angle_deg + rng.choice((0.0, 0.0, 180.0))
                         + rng.uniform(-6, 6)) for m in mats)
    scene = TableScene(mats=mats, seed=seed, tilt_deg=variation.tilt_deg,
                       tilt_toward_deg=rng.uniform(0, 360), blur=variation.blur,
                       light=variation.light, noise=variation.noise)
    scene = scene.with_cards(random_stacks(rng, SAMPLE_TEXTS))
    noah_mat = rng.choice(mats)
    scene = replace(scene, noah=noah_beside(noah_mat, rng))
    if variation.hand:
        target = rng.choice(mats)
        x, y = _on_table(target, rng.uniform(-20, 20), rng.uniform(-30, 30))
        scene = replace(scene, hands=(hand_polygon(x, y, rng.uniform(45, 135)),))
    if variation.beside:
        scene = replace(scene, loose=_hand_beside(scene, variation, turn, rng))
    if variation.glare:
        target = rng.choice([m for m in mats if m.cards] or list(mats))
        x, y = _on_table(target, rng.uniform(-25, 25), rng.uniform(-45, 0))
        scene = replace(scene, glare=(Glare(x, y, rng.uniform(12, 25), rng.uniform(0.4, 0.7)),))
    return scene


#: Where each layout leaves room for a hand laid out (before the layout is turned): the first
#: and last cards' centres (table mm) and how the cards are turned.
HAND_ROOM: dict[str, tuple[Point, Point, float]] = {
    "row": ((-380.0, 205.0), (380.0, 205.0), 90.0),
    "arc": ((-380.0, -225.0), (380.0, -225.0), -90.0),
    "board": ((-410.0, -190.0), (-410.0, 190.0), 0.0),
}


def _hand_beside(scene: TableScene, variation: Variation, turn_deg: float,
                 rng: random.Random) -> tuple[CardOnTable, ...]:
    """``variation.beside`` cards no ferry holds, laid out in the layout's free room."""
    on_mats = {card.text for mat in scene.mats for card in mat.cards}
    texts = [t for t in SAMPLE_TEXTS if t not in on_mats][: variation.beside]
    start, end, angle = HAND_ROOM[variation.layout]
    hand = laid_out(texts, start, end, rng, angle_deg=angle)
    a = math.radians(turn_deg)
    return tuple(replace(card, x_mm=card.x_mm * math.cos(a) - card.y_mm * math.sin(a),
                         y_mm=card.x_mm * math.sin(a) + card.y_mm * math.cos(a),
                         angle_deg=card.angle_deg + turn_deg) for card in hand)


def _turned(mat: MatOnTable, turn_deg: float) -> MatOnTable:
    a = math.radians(turn_deg)
    x = mat.x_mm * math.cos(a) - mat.y_mm * math.sin(a)
    y = mat.x_mm * math.sin(a) + mat.y_mm * math.cos(a)
    return replace(mat, x_mm=x, y_mm=y, angle_deg=mat.angle_deg + turn_deg)
