"""Varied test tables, described as 3D scenes: what lies on the table and how it is filmed.

A second, independent source of overhead frames for the table view (the first is
:mod:`vision.table_render`). It shares only the kit's contract (``TABLE-KIT.md``: the mats'
size, marker ids and places, the Noah disc, the 20 mm version-1 stickers, from
:mod:`vision.table`); everything else is its own: cards are objects of real thickness in table
millimetres (not offsets on a mat), stacks are fanned, askew and turned; cups, phones, dice and
loose cards with foreign codes lie about; hands hover above the table; the camera is a posed
pinhole with lens distortion; light comes from one side, rooms are dim, glossy sleeves shine.
:mod:`vision.table_scenes_render` films a scene and says what a perfect reader would see.

A scene is a pure description, drawn at random from a seed and the sticker texts it is given
(vision never imports companion: the caller passes the product's payloads, e.g. every card of
the default deck). The same seed and texts always give the same scene.

>>> scene = scene_for_seed(1000, [f"NOAH1/BOX1/CAM{n}" for n in range(1, 10)])
>>> scene == scene_for_seed(1000, [f"NOAH1/BOX1/CAM{n}" for n in range(1, 10)])
True
>>> sorted(f.ferry for f in scene.ferries), scene.conditions[0] in CAMERA_CONDITIONS
([1, 2, 3, 4, 5], True)

Coordinates: table millimetres, z up from the table top; angles in degrees.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from vision.table_kit import FERRIES, MAT_MM, NOAH_DISC_MM, marker_centre_mm, marker_ids

Point = tuple[float, float]

DEV_SEEDS = range(1000, 1200)
"""The development set: tune and look at these freely."""
HELDOUT_SEEDS = range(900000, 900120)
"""The held-out set. Nobody tunes on it: run it to report, never to choose a threshold or to
look for what fails. Its figures are reported apart from the development set's."""
HELDOUT2_SEEDS = range(910000, 910120)
"""A second held-out set, drawn after the first one's report had been looked into (one frame
with Noah at a wrong ferry): its figures are the ones of a set nobody has seen."""
HELDOUT3_SEEDS = range(920000, 920120)
"""A third held-out set, drawn for issue 19's speed work once the second had been reported:
run once at the end of that work, never looked into frame by frame."""
HELDOUT4_SEEDS = range(930000, 930120)
"""A fourth held-out set, drawn once the third had been run twice: the figures of a set nobody
has seen for the last round of issue 19's work, run by the lead once the branches are merged."""
HELDOUT5_SEEDS = range(940000, 940120)
"""A fifth held-out set, drawn once the fourth had been run (2026-11-26): run by the lead once
the next round's branches are merged, never looked into frame by frame."""
HELDOUT6_SEEDS = range(950000, 950120)
"""A sixth held-out set, drawn once the fifth had been run (2026-11-27): run by the lead once
the next round's branches are merged, never looked into frame by frame."""
HELDOUT7_SEEDS = range(960000, 960120)
"""A seventh held-out set, drawn once the sixth had been run (2026-11-27, the session after):
run by the lead once that session's branches are merged, never looked into frame by frame."""
HELDOUT8_SEEDS = range(970000, 970120)
"""An eighth held-out set, drawn once the seventh had been run and the renderer made
deterministic (2026-11-27): run by the lead once that round's branches are merged, never
looked into frame by frame."""
HELDOUT9_SEEDS = range(980000, 980120)
"""A ninth held-out set, drawn once the eighth had been run three times and its figures by
condition had guided a round (2026-11-27, the session after): run by the lead once that
session's branches are merged, never looked into frame by frame."""
HELDOUT10_SEEDS = range(990000, 990120)
"""A tenth held-out set, drawn once the ninth had been run three times and its misses audited
by cause on development frames only (2026-11-27, the session after): run by the lead once that
session's branches are merged, never looked into frame by frame."""
HELDOUT11_SEEDS = range(1000000, 1000120)
"""An eleventh held-out set, drawn once the tenth had been run on two mains and the strong
highlights' refusals audited on development frames only (2026-11-27, the session after): run by
the lead on the session's starting code and on its merged main, never looked into frame by
frame."""
HELDOUT12_SEEDS = range(1010000, 1010120)
"""A twelfth held-out set, drawn once the eleventh had been run on two mains and the clear tops'
misses audited by cause on development frames only (2026-11-27, the session after): run by the
lead on the session's starting code and on its merged main, never looked into frame by frame."""
HELDOUT13_SEEDS = range(1020000, 1020120)
"""A thirteenth held-out set, drawn once the twelfth had been run on two mains (2026-11-27, the
session after, whose guard sweeps were rebuilt and shipped): run by the lead on the session's
starting code and on its merged main, never looked into frame by frame."""
HELDOUT14_SEEDS = range(1030000, 1030120)
"""A fourteenth held-out set, drawn once the thirteenth had been run on two mains (2026-11-27,
the session after, the guard sweeps on main): run by the lead on the session's starting code
and on its merged main, never looked into frame by frame."""
HELDOUT15_SEEDS = range(1040000, 1040120)
"""A fifteenth held-out set, drawn once the fourteenth had been run on two mains (2026-11-27,
the session after): run by the lead on the session's starting code and on its merged main,
never looked into frame by frame."""
HELDOUT16_SEEDS = range(1050000, 1050120)
"""A sixteenth held-out set, drawn once the fifteenth had been run on two mains (2026-11-28, the
session after): run by the lead on the session's starting code and on its merged main, never
looked into frame by frame."""
HELDOUT17_SEEDS = range(1060000, 1060120)
"""A seventeenth held-out set, drawn once the sixteenth had been run on two mains (2026-11-28,
the session after): run by the lead on the session's starting code and on its merged main, never
looked into frame by frame."""
SCENE_SETS = {"dev": DEV_SEEDS, "heldout": HELDOUT_SEEDS, "heldout2": HELDOUT2_SEEDS,
              "heldout3": HELDOUT3_SEEDS, "heldout4": HELDOUT4_SEEDS, "heldout5": HELDOUT5_SEEDS,
              "heldout6": HELDOUT6_SEEDS, "heldout7": HELDOUT7_SEEDS,
              "heldout8": HELDOUT8_SEEDS, "heldout9": HELDOUT9_SEEDS,
              "heldout10": HELDOUT10_SEEDS, "heldout11": HELDOUT11_SEEDS,
              "heldout12": HELDOUT12_SEEDS, "heldout13": HELDOUT13_SEEDS,
              "heldout14": HELDOUT14_SEEDS, "heldout15": HELDOUT15_SEEDS,
              "heldout16": HELDOUT16_SEEDS, "heldout17": HELDOUT17_SEEDS}
"""Every named set of seeds: the development set, then the held-out ones, oldest first."""

CAMERA_CONDITIONS = ("70-80 cm", "binned", "60-70 cm", "90-100 cm", "tilt 20-25°")
"""Each scene has exactly one of these (the camera clause of TABLE-KIT.md)."""
TABLE_CONDITIONS = ("highlights", "dim side light", "head shadow", "motion blur", "defocus",
                    "clutter", "marker hidden", "mat out of line", "noah by hidden mat",
                    "hand near code", "hand over ferry", "jpeg")
"""Each scene has two or three of these."""

CARD_MM = (63.0, 88.0)
SLEEVE_MM = (66.0, 91.0)
CARD_THICK_MM = 0.32
SLEEVED_THICK_MM = 0.55
MAT_THICK_MM = 0.25
STICKER_CODE_MM = 20.0
STICKER_MM = (55.2, 27.6)
"""A sticker (docs/tags.md): the 20 mm code with its 4-module quiet zone, and a label beside it
as wide; it is stuck anywhere on the card face."""

FOREIGN_TEXTS = (
    "https://boardgamegeek.com/boardgame/123540/noah",
    "WIFI:S:Maison;T:WPA;P:correct horse battery;;",
    "4006381333931",
    "https://example.com/menu?table=7",
    "BEGIN:VCARD\nN:Lovelace;Ada\nEND:VCARD",
    "Ticket 00231 - Gate B",
    "noah1 box1 caf2",
    "http://qr.ly/ZOO7",
)
"""Codes that are not stickers of ours: a reader must never report one as a ferry's top card."""


@dataclass(frozen=True)
class Card:
    """A card lying on the table: its centre, turn and height (of its face), its sticker.

    ``text`` is the sticker's text (``None``: no sticker); ``ours``: a product sticker (version 1,
    level Q, 20 mm) or a foreign code (any version, ``code_mm`` across); ``sticker`` is where the
    code's centre sits on the card face (mm from its top left); ``sleeved``: in a glossy sleeve.
    """

    text: str | None
    x: float
    y: float
    angle: float
    z: float = MAT_THICK_MM + CARD_THICK_MM
    sticker: Point = (17.8, 17.8)
    code_mm: float = STICKER_CODE_MM
    ours: bool = True
    sleeved: bool = False
    art: int = 0

    @property
    def size(self) -> tuple[float, float]:
        return SLEEVE_MM if self.sleeved else CARD_MM

    def to_table(self, u: float, v: float) -> Point:
        """A point of the card face (mm from its top left, as printed) on the table."""
        w, h = self.size
        return _turn(self.x, self.y, self.angle, u - w / 2, h / 2 - v)

    def code_corners(self, margin_modules: float = 0.0) -> list[Point]:
        """The code's square (widened by ``margin_modules`` modules) on the table."""
        half = self.code_mm / 2 * (1 + 2 * margin_modules / 21)
        offset = (self.size[0] - CARD_MM[0]) / 2, (self.size[1] - CARD_MM[1]) / 2
        sx, sy = self.sticker[0] + offset[0], self.sticker[1] + offset[1]
        return [self.to_table(sx + dx, sy + dy) for dx, dy in
                ((-half, -half), (half, -half), (half, half), (-half, half))]

    def corners(self) -> list[Point]:
        w, h = self.size
        return [self.to_table(u, v) for u, v in ((0, 0), (w, 0), (w, h), (0, h))]


@dataclass(frozen=True)
class Ferry:
    """A ferry's mat (centre, turn) and its cards from the bottom of the stack to the top."""

    ferry: int
    x: float
    y: float
    angle: float
    cards: tuple[Card, ...] = ()

    def to_table(self, u: float, v: float) -> Point:
        """A point of the mat (mm from its top left, as printed) on the table."""
        return _turn(self.x, self.y, self.angle, u - MAT_MM[0] / 2, MAT_MM[1] / 2 - v)

    def marker_centres(self) -> list[Point]:
        return [self.to_table(*marker_centre_mm(i)) for i in marker_ids(self.ferry)]

    @property
    def top(self) -> Card | None:
        return self.cards[-1] if self.cards else None


@dataclass(frozen=True)
class Solid:
    """Something standing on the table: a cup (``kind`` "cup": a cylinder of radius ``w / 2``),
    a phone or a die (a box ``w`` × ``d``), the Noah figure ("figure": a cylinder); ``h`` tall."""

    kind: str
    x: float
    y: float
    w: float
    d: float
    h: float
    angle: float = 0.0
    shade: float = 0.5


@dataclass(frozen=True)
class Hand:
    """A hand (and forearm) held ``z`` mm above the table: its outline on its own plane (mm)."""

    outline: tuple[Point, ...]
    z: float
    shade: float = 0.55


@dataclass(frozen=True)
class Shadow:
    """A soft shadow on the table (a head, an arm out of the frame): outline, depth 0–1, blur."""

    outline: tuple[Point, ...]
    depth: float
    soft_mm: float


@dataclass(frozen=True)
class Highlight:
    """A lamp's reflection in a glossy sleeve: an ellipse (table mm) on card ``card`` of ferry
    ``ferry`` (0: a loose card, by index ``card``); ``peak`` over paper white (> 1 saturates)."""

    ferry: int
    card: int
    x: float
    y: float
    a: float
    b: float
    angle: float
    peak: float


@dataclass(frozen=True)
class Light:
    """The room: overall level (1 bright, 0.15 a dim room), light from ``azimuth`` (degrees on
    the table) falling off by ``gradient`` per metre, the lamp's elevation (for cast shadows)."""

    level: float = 1.0
    azimuth: float = 0.0
    gradient: float = 0.2
    elevation: float = 60.0


@dataclass(frozen=True)
class Camera:
    """The camera's pose, lens and capture settings.

    It stands ``height`` mm above the table, looking at ``target`` with its axis ``tilt``
    degrees off vertical (leaning toward ``toward``), the frame turned ``turn`` degrees on the
    table. ``hfov``: horizontal field of view; ``k1``, ``k2``: radial distortion; ``vignette``:
    the light lost in the frame's corners. ``binned``: the 2×2-binned 2304 × 1296 mode;
    ``defocus``: disk radius (full-resolution px); ``motion``: blur length (px) at ``motion_angle``;
    ``gain``: the analogue gain the exposure needed (noise grows with it); ``jpeg``: quality of
    a JPEG round trip (0: none).
    """

    target: Point = (0.0, 0.0)
    height: float = 750.0
    tilt: float = 0.0
    toward: float = 0.0
    turn: float = 0.0
    hfov: float = 66.0
    k1: float = 0.0
    k2: float = 0.0
    vignette: float = 0.2
    binned: bool = False
    defocus: float = 0.6
    motion: float = 0.0
    motion_angle: float = 0.0
    gain: float = 1.0
    jpeg: int = 0
    width: int = 4608
    sensor_height: int = 2592


@dataclass(frozen=True)
class Scene:
    """A whole table and how it is filmed; ``conditions`` name what makes it hard."""

    ferries: tuple[Ferry, ...]
    camera: Camera
    light: Light = Light()
    noah: Point | None = None
    loose: tuple[Card, ...] = ()
    solids: tuple[Solid, ...] = ()
    hands: tuple[Hand, ...] = ()
    shadows: tuple[Shadow, ...] = ()
    highlights: tuple[Highlight, ...] = ()
    board: tuple[float, float, float, float] | None = None
    """A game board (centre x, y, side, turn) lying under the mats' middle."""
    surface: str = "wood"
    conditions: tuple[str, ...] = ()
    seed: int = 0

    def ferry(self, k: int) -> Ferry:
        return next(f for f in self.ferries if f.ferry == k)

    def played(self, k: int, text: str, seed: int) -> Scene:
        """The same table after a play: a card with sticker ``text`` laid on ferry ``k``'s
        stack (a little askew, like the cards below it); nothing else moves."""
        rng = random.Random(seed)
        ferry = self.ferry(k)
        below = ferry.top
        x, y = ferry.to_table(MAT_MM[0] / 2 + rng.uniform(-4, 4),
                              MAT_MM[1] / 2 + rng.uniform(-5, 5))
        card = Card(text, x, y, ferry.angle + rng.gauss(0, 5) + rng.choice((0.0, 180.0)),
                    z=(below.z if below else MAT_THICK_MM) + SLEEVED_THICK_MM,
                    sticker=below.sticker if below else (17.8, 17.0),
                    sleeved=below.sleeved if below else False, art=rng.randrange(1 << 30))
        ferries = tuple(replace(f, cards=(*f.cards, card)) if f.ferry == k else f
                        for f in self.ferries)
        return replace(self, ferries=ferries)

    def texts(self) -> set[str]:
        """Every sticker text of ours on the table."""
        return {c.text for f in self.ferries for c in f.cards if c.text is not None}


def _turn(x: float, y: float, angle: float, du: float, dv: float) -> Point:
    """(x, y) moved by (du, dv) turned ``angle`` degrees (counter-clockwise seen from above;
    a printed thing's "down" is its -dv: the table's y axis points away from the reader)."""
    a = math.radians(angle)
    return x + du * math.cos(a) - dv * math.sin(a), y + du * math.sin(a) + dv * math.cos(a)


# -- drawing a scene from a seed ------------------------------------------------------------------

def scene_set(name: str) -> range:
    """The seeds of a named set (:data:`SCENE_SETS`): ``"dev"``, or a held-out set ``"heldout"``,
    ``"heldout2"``, … ``"heldout17"``.

    >>> len(scene_set("heldout")), scene_set("dev")[0], scene_set("heldout6")[0]
    (120, 1000, 950000)
    """
    if name not in SCENE_SETS:
        raise ValueError(f"unknown set {name!r}: {', '.join(SCENE_SETS)}")
    return SCENE_SETS[name]


def scene_for_seed(seed: int, texts: Sequence[str]) -> Scene:
    """A random table: one camera condition and two or three table conditions, the stickers
    drawn from ``texts`` (at least 5 distinct texts; each card of a scene has its own)."""
    if len(set(texts)) < 5:
        raise ValueError("a scene needs at least 5 distinct sticker texts")
    rng = random.Random(seed)
    conditions = (rng.choice(CAMERA_CONDITIONS),
                  *rng.sample(TABLE_CONDITIONS, rng.choice((2, 2, 3))))
    camera = _camera(rng, conditions)
    ferries = _layout(rng, camera, "mat out of line" in conditions)
    for _ in range(12):  # a layout that fits the frame at this height, else a higher camera
        if _fits(ferries, camera):
            break
        ferries = _layout(rng, camera, "mat out of line" in conditions)
    while not _fits(ferries, camera) and camera.height < 1000:
        camera = replace(camera, height=camera.height + 20)
    pool = sorted(set(texts))
    rng.shuffle(pool)
    sleeved = rng.random() < (0.9 if "highlights" in conditions else 0.3)
    style = _sticker_style(rng)
    ferries = tuple(replace(f, cards=_stack(rng, f, pool, sleeved, style)) for f in ferries)
    scene = Scene(ferries=ferries, camera=camera, light=_light(rng, conditions),
                  surface=rng.choice(("wood", "cloth", "laminate")), seed=seed,
                  conditions=conditions, board=_board(rng, ferries))
    scene = replace(scene, noah=_noah_spot(rng, scene.ferries, None))
    for condition in conditions[1:]:
        scene = _ADD[condition](rng, scene)
    return replace(scene, solids=(*scene.solids, _figure(rng, scene)))


def _camera(rng: random.Random, conditions: Sequence[str]) -> Camera:
    kind = conditions[0]
    height = {"60-70 cm": (600, 700), "90-100 cm": (900, 1000)}.get(kind, (700, 800))
    tilt = rng.uniform(20, 25) if kind == "tilt 20-25°" else rng.uniform(0, 12)
    dim = "dim side light" in conditions
    return Camera(
        target=(rng.uniform(-20, 20), rng.uniform(-20, 20)), height=rng.uniform(*height),
        tilt=tilt, toward=rng.uniform(0, 360), turn=rng.uniform(0, 360),
        hfov=rng.uniform(64.5, 67.5), k1=rng.uniform(-0.03, 0.03), k2=rng.uniform(-0.01, 0.01),
        vignette=rng.uniform(0.1, 0.35), binned=kind == "binned",
        defocus=rng.uniform(1.3, 2.4) if "defocus" in conditions else rng.uniform(0.3, 0.9),
        motion=rng.uniform(2.0, 4.5) if "motion blur" in conditions else rng.uniform(0, 0.8),
        motion_angle=rng.uniform(0, 180), gain=rng.uniform(8, 16) if dim else rng.uniform(1, 2.5),
        jpeg=rng.randint(60, 85) if "jpeg" in conditions else 0)


def _light(rng: random.Random, conditions: Sequence[str]) -> Light:
    if "dim side light" in conditions:
        return Light(level=rng.uniform(0.15, 0.3), azimuth=rng.uniform(0, 360),
                     gradient=rng.uniform(0.6, 1.1), elevation=rng.uniform(25, 45))
    return Light(level=rng.uniform(0.6, 1.0), azimuth=rng.uniform(0, 360),
                 gradient=rng.uniform(0.05, 0.4), elevation=rng.uniform(45, 80))


def _frame_axes(camera: Camera) -> tuple[Point, Point]:
    """The table directions of the frame's x and y axes (unit vectors)."""
    a = math.radians(camera.turn)
    return (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))


def _layout(rng: random.Random, camera: Camera, out_of_line: bool) -> tuple[Ferry, ...]:
    """The five mats, in a row, an arc, two rows or round a board, in the frame's axes."""
    kind = rng.choice(("row", "row", "arc", "two rows", "board"))
    pitch = MAT_MM[0] + rng.uniform(12, 40)
    places: list[tuple[float, float, float]]
    if kind == "row":
        places = [((i - 2) * pitch, rng.uniform(-6, 6), rng.uniform(-5, 5)) for i in range(5)]
    elif kind == "arc":
        radius = rng.uniform(380, 600)
        step = math.degrees(pitch / radius)
        places = [(radius * math.sin(math.radians(a)), radius * (1 - math.cos(math.radians(a)))
                   - 60, a) for a in ((i - 2) * step for i in range(5))]
    elif kind == "two rows":
        places = [((i - 1) * pitch, -90.0, 180.0) for i in range(3)] + [
            ((i - 0.5) * pitch, 90.0, 0.0) for i in range(2)]
    else:
        places = [(-65.0, -125.0, 180.0), (65.0, -125.0, 180.0), (190.0, 0.0, 270.0),
                  (0.0, 125.0, 0.0), (-190.0, 0.0, 90.0)]
    order = list(FERRIES)
    if rng.random() < 0.5:
        rng.shuffle(order)
    flip = rng.choice((0.0, 180.0))
    ex, ey = _frame_axes(camera)
    tx, ty = camera.target
    ferries = []
    for k, (u, v, a) in zip(order, places, strict=True):
        u, v = u + rng.uniform(-4, 4), v + rng.uniform(-4, 4)
        x, y = tx + u * ex[0] + v * ey[0], ty + u * ex[1] + v * ey[1]
        turn = camera.turn + a + flip + rng.uniform(-4, 4) + rng.choice((0.0, 0.0, 0.0, 180.0))
        ferries.append(Ferry(k, x, y, turn % 360))
    if out_of_line:
        index = rng.randrange(5)
        for _ in range(20):  # pushed along its own axis and turned, clear of the other mats
            f = ferries[index]
            pushed = replace(f, angle=f.angle + rng.choice((-1, 1)) * rng.uniform(15, 70))
            pushed = replace(pushed, x=0.0, y=0.0)
            dx, dy = pushed.to_table(MAT_MM[0] / 2, MAT_MM[1] / 2 + rng.choice((-1, 1))
                                     * rng.uniform(40, 90))
            pushed = replace(pushed, x=f.x + dx, y=f.y + dy)
            if not any(_overlap(pushed, other) for other in ferries if other is not f):
                ferries[index] = pushed
                break
    return tuple(ferries)


def _overlap(a: Ferry, b: Ferry) -> bool:
    """Whether two mats overlap on the table."""
    import cv2
    import numpy as np

    def outline(f: Ferry) -> np.ndarray:
        return np.array([f.to_table(u, v) for u, v in ((0, 0), (100, 0), (100, 150), (0, 150))],
                        np.float32)

    area, _ = cv2.intersectConvexConvex(outline(a), outline(b))
    return bool(area > 0)


def _fits(ferries: Sequence[Ferry], camera: Camera) -> bool:
    """Whether every mat, and room for Noah beside it, lies well inside the frame (the field
    at the camera's height, less a margin for tilt and distortion)."""
    ex, ey = _frame_axes(camera)
    tx, ty = camera.target
    half_u = 0.58 * camera.height
    half_v = half_u * camera.sensor_height / camera.width
    reach = MAT_MM[1] / 2 + NOAH_DISC_MM + 16  # Noah's disc past a short edge
    for f in ferries:
        u = (f.x - tx) * ex[0] + (f.y - ty) * ex[1]
        v = (f.x - tx) * ey[0] + (f.y - ty) * ey[1]
        a = math.radians(f.angle - camera.turn)
        du = abs(math.sin(a)) * reach + abs(math.cos(a)) * MAT_MM[0] / 2
        dv = abs(math.cos(a)) * reach + abs(math.sin(a)) * MAT_MM[0] / 2
        if abs(u) + du > half_u or abs(v) + dv > half_v:
            return False
    return True


def _board(rng: random.Random, ferries: Sequence[Ferry]) -> tuple[float, float, float, float]:
    """A board under the middle of the table, or a placemat: something printed to look past."""
    x = sum(f.x for f in ferries) / 5
    y = sum(f.y for f in ferries) / 5
    return x + rng.uniform(-50, 50), y + rng.uniform(-50, 50), rng.uniform(200, 320), \
        rng.uniform(0, 90)


def _sticker_style(rng: random.Random) -> Point:
    """Where this deck's stickers sit on the face (the code's centre): top, middle or bottom."""
    return rng.uniform(15.8, 19.6), rng.choice((17.0, 44.0, 70.0))


def _stack(rng: random.Random, ferry: Ferry, pool: list[str], sleeved: bool,
           style: Point) -> tuple[Card, ...]:
    """0–5 cards on a mat, newest on top: squared, or fanned down the mat (earlier cards peek
    out, their stickers partly hidden; the newest may lie over the lower marker), askew, some
    turned round."""
    count = rng.choice((0, 1, 1, 2, 2, 3, 3, 4, 5))
    fan = rng.uniform(5.0, 9.0) if rng.random() < 0.3 else 0.0
    down = rng.choice((-1.0, 1.0))  # which end of the mat is "down" for this player
    thick = SLEEVED_THICK_MM if sleeved else CARD_THICK_MM
    cards = []
    for index in range(count):
        along = down * min(14.0, index * fan - 4.0 if fan else 0.0) + rng.uniform(-3, 3)
        x, y = ferry.to_table(MAT_MM[0] / 2 + rng.uniform(-4, 4), MAT_MM[1] / 2 + along)
        angle = ferry.angle + rng.gauss(0, 5) + (180.0 if rng.random() < 0.3 else 0.0)
        sticker = (style[0] + rng.uniform(-1.5, 1.5), style[1] + rng.uniform(-2, 2))
        cards.append(Card(pool.pop() if pool else None, x, y, angle,
                          z=MAT_THICK_MM + (index + 1) * thick, sticker=sticker,
                          sleeved=sleeved, art=rng.randrange(1 << 30)))
    return tuple(cards)


def _noah_spot(rng: random.Random, ferries: Sequence[Ferry], ferry: int | None) -> Point:
    """Just in front of or behind a mat (past a short edge), clearly nearest to it."""
    mat = next((f for f in ferries if f.ferry == ferry), None) or rng.choice(list(ferries))
    side = rng.choice((-1.0, 1.0))
    past = MAT_MM[1] / 2 + NOAH_DISC_MM / 2 + rng.uniform(4, 12)
    return mat.to_table(MAT_MM[0] / 2 + rng.uniform(-15, 15), MAT_MM[1] / 2 + side * past)


def _figure(rng: random.Random, scene: Scene) -> Solid:
    """The Noah figure standing beside its disc: mostly on the side away from the camera (a
    figure between the two may hide the marker from a lens off to the side)."""
    assert scene.noah is not None
    nx, ny = scene.noah
    away = math.atan2(ny - scene.camera.target[1], nx - scene.camera.target[0])
    a = away + rng.uniform(-1.2, 1.2) if rng.random() < 0.75 else rng.uniform(0, 2 * math.pi)
    reach = NOAH_DISC_MM / 2 + rng.uniform(14, 22)
    return Solid("figure", nx + reach * math.cos(a), ny + reach * math.sin(a), 22.0, 22.0,
                 rng.uniform(35, 55), shade=rng.uniform(0.35, 0.6))


# -- conditions -----------------------------------------------------------------------------------

def _highlights(rng: random.Random, scene: Scene) -> Scene:
    """Reflections in sleeves: on 1–3 top cards, over or near the code, some saturating."""
    tops = [f for f in scene.ferries if f.top is not None and f.top.sleeved]
    spots = []
    for ferry in rng.sample(tops, min(len(tops), rng.randint(1, 3))):
        card = ferry.top
        assert card is not None
        cx, cy = _centre(card.code_corners())
        reach = rng.uniform(0, 14)
        a = rng.uniform(0, 2 * math.pi)
        spots.append(Highlight(ferry.ferry, len(ferry.cards) - 1, cx + reach * math.cos(a),
                               cy + reach * math.sin(a), rng.uniform(6, 16), rng.uniform(3, 8),
                               rng.uniform(0, 180), rng.uniform(0.5, 2.2)))
    return replace(scene, highlights=tuple(spots))


def _dim_side_light(rng: random.Random, scene: Scene) -> Scene:
    return _head_shadow(rng, scene) if rng.random() < 0.6 else scene


def _head_shadow(rng: random.Random, scene: Scene) -> Scene:
    """A head's (an ellipse) or an arm's (a long strip) shadow falling over part of the mats."""
    ferry = rng.choice(scene.ferries)
    a = math.radians(rng.uniform(0, 360))
    if rng.random() < 0.5:
        outline = tuple(_turn(ferry.x, ferry.y, math.degrees(a), 110 * math.cos(t),
                              140 * math.sin(t)) for t in _steps(24))
    else:
        outline = tuple(_turn(ferry.x, ferry.y, math.degrees(a), u, v)
                        for u, v in ((-45, -60), (45, -60), (55, 700), (-55, 700)))
    shadow = Shadow(outline, rng.uniform(0.3, 0.6), rng.uniform(15, 45))
    conditions = scene.conditions if "head shadow" in scene.conditions else (
        *scene.conditions, "head shadow")
    return replace(scene, shadows=(*scene.shadows, shadow), conditions=conditions)


def _steps(n: int) -> list[float]:
    return [2 * math.pi * i / n for i in range(n)]


def _clutter(rng: random.Random, scene: Scene) -> Scene:
    """Cups, a phone, dice and loose cards with foreign codes, between and beside the mats."""
    solids = list(scene.solids)
    loose = list(scene.loose)
    for _ in range(rng.randint(3, 6)):
        x, y = _free_spot(rng, scene, 60)
        kind = rng.choice(("cup", "phone", "die", "die", "foreign", "foreign"))
        if kind == "foreign":
            loose.append(_foreign_card(rng, x, y, len(loose)))
        else:
            solids.append(_solid(rng, kind, x, y))
    return replace(scene, solids=tuple(solids), loose=tuple(loose))


def _foreign_card(rng: random.Random, x: float, y: float, index: int) -> Card:
    return Card(rng.choice(FOREIGN_TEXTS), x, y, rng.uniform(0, 360), z=MAT_THICK_MM + 1.0
                + 0.4 * index, sticker=(rng.uniform(18, 45), rng.uniform(18, 60)),
                code_mm=rng.uniform(16, 26), ours=False, art=rng.randrange(1 << 30))


def _solid(rng: random.Random, kind: str, x: float, y: float) -> Solid:
    if kind == "cup":
        w = rng.uniform(70, 90)
        return Solid("cup", x, y, w, w, rng.uniform(80, 110), shade=rng.uniform(0.3, 0.9))
    if kind == "phone":
        return Solid("phone", x, y, 72, 150, 8, rng.uniform(0, 180), rng.uniform(0.05, 0.2))
    side = rng.uniform(14, 18)
    return Solid("die", x, y, side, side, side, rng.uniform(0, 90), rng.uniform(0.6, 0.95))


def _free_spot(rng: random.Random, scene: Scene, clear: float) -> Point:
    """A place near the mats but ``clear`` mm from every mat's centre line and from Noah."""
    xs = [f.x for f in scene.ferries]
    ys = [f.y for f in scene.ferries]
    best: Point = (min(xs) - 150, min(ys) - 150)
    for _ in range(60):
        spot = (rng.uniform(min(xs) - 160, max(xs) + 160), rng.uniform(min(ys) - 160,
                                                                      max(ys) + 160))
        if all(math.dist(spot, (f.x, f.y)) > 80 + clear for f in scene.ferries) and (
                scene.noah is None or math.dist(spot, scene.noah) > 40 + clear):
            return spot
        best = spot
    return best


def _marker_hidden(rng: random.Random, scene: Scene) -> Scene:
    """One marker of one mat under a phone, a loose card or a die."""
    ferry = rng.choice(scene.ferries)
    x, y = rng.choice(ferry.marker_centres())
    return _cover(rng, scene, x, y, ferry)


def _cover(rng: random.Random, scene: Scene, x: float, y: float, ferry: Ferry,
           sideways: bool = False) -> Scene:
    """Something over the point (x, y) of ``ferry``'s mat, sticking out past its nearer short
    edge (``sideways``: past a long edge, leaving the ends clear for Noah)."""
    if sideways:
        out = math.radians(ferry.angle + rng.choice((0.0, 180.0)))
    else:
        bottom = math.dist((x, y), ferry.to_table(50, 150)) < 50
        out = math.radians(ferry.angle - 90 if bottom else ferry.angle + 90)
    kind = rng.choice(("phone", "card", "die", "cup"))
    if kind == "card":
        reach = rng.uniform(20, 35)
        card = replace(_foreign_card(rng, x + reach * math.cos(out), y + reach * math.sin(out),
                                     len(scene.loose)), text=None)
        return replace(scene, loose=(*scene.loose, card))
    reach = {"phone": rng.uniform(55, 68), "die": 0.0, "cup": rng.uniform(5, 15)}[kind]
    solid = _solid(rng, kind, x + reach * math.cos(out), y + reach * math.sin(out))
    if kind == "phone":  # lying along ``out``, its near end over the marker
        solid = replace(solid, angle=math.degrees(out) - 90 + rng.uniform(-15, 15))
    if kind == "die":
        solid = replace(solid, w=24.0, d=24.0, h=24.0)  # a big die, or a stack of tokens
    return replace(scene, solids=(*scene.solids, solid))


def _mat_out_of_line(rng: random.Random, scene: Scene) -> Scene:
    return scene  # done by the layout itself, before the cards are stacked


def _noah_by_hidden_mat(rng: random.Random, scene: Scene) -> Scene:
    """Noah beside a mat whose two markers are both hidden (a phone, a card, a cup)."""
    ferry = rng.choice(scene.ferries)
    for x, y in ferry.marker_centres():
        scene = _cover(rng, scene, x, y, ferry, sideways=True)
    return replace(scene, noah=_noah_spot(rng, scene.ferries, ferry.ferry))


def _hand_near_code(rng: random.Random, scene: Scene) -> Scene:
    """A hand resting near a top card's code, fingertips a few millimetres short of it."""
    tops = [f for f in scene.ferries if f.top is not None and f.top.text is not None]
    if not tops:
        return scene
    card = rng.choice(tops).top
    assert card is not None
    cx, cy = _centre(card.code_corners())
    toward = rng.uniform(0, 360)
    gap = card.code_mm / 2 * (1 + 8 / 21) * 1.45 + rng.uniform(4, 18)
    return replace(scene, hands=(*scene.hands, _hand(rng, cx, cy, toward, gap,
                                                     rng.uniform(4, 25))))


def _hand_over_ferry(rng: random.Random, scene: Scene) -> Scene:
    ferry = rng.choice(scene.ferries)
    return replace(scene, hands=(*scene.hands, _hand(rng, ferry.x, ferry.y, rng.uniform(0, 360),
                                                     -40.0, rng.uniform(30, 120))))


def _hand(rng: random.Random, x: float, y: float, toward: float, gap: float, z: float) -> Hand:
    """A hand whose fingertips stop ``gap`` mm from (x, y), the arm reaching away toward
    ``toward`` degrees, held ``z`` mm above the table."""
    fingers = [(-38, 0), (-34, -62), (-22, -66), (-17, -28), (-10, -82), (4, -84), (6, -34),
               (16, -76), (29, -70), (24, -26), (48, -44), (56, -33), (36, 12), (34, 60),
               (36, 420), (-36, 420), (-40, 50)]
    turn = toward - 90  # the outline's arm points down its +v axis
    tip = 84.0
    centre = _turn(x, y, turn, 0, gap + tip)
    outline = tuple(_turn(centre[0], centre[1], turn, u * 1.05, v) for u, v in fingers)
    return Hand(outline, z, shade=rng.uniform(0.4, 0.7))


def _motion_blur(rng: random.Random, scene: Scene) -> Scene:
    return scene  # in the camera's settings


def _jpeg(rng: random.Random, scene: Scene) -> Scene:
    return scene  # in the camera's settings


_ADD = {
    "highlights": _highlights, "dim side light": _dim_side_light, "head shadow": _head_shadow,
    "motion blur": _motion_blur, "defocus": _motion_blur, "clutter": _clutter,
    "marker hidden": _marker_hidden, "mat out of line": _mat_out_of_line,
    "noah by hidden mat": _noah_by_hidden_mat, "hand near code": _hand_near_code,
    "hand over ferry": _hand_over_ferry, "jpeg": _jpeg,
}


def _centre(points: Sequence[Point]) -> Point:
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
