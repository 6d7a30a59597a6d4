"""The glare family of the "never wrong" guard sweeps (issue 19; the seam: vision/table_sweeps.py):
a buried card's code with a card without a sticker laid into it or beside it, under a glossy
sleeve's highlight that may wash the covering card's edge out. Rebuilt from docs/benchmarks.md
(their scripts were lost with /tmp):

- ``glare``: tglare's glare sweep (``sweep2.py "1.5,0.75,0.0,-1.0,-2.2"``): the card 1½, ¾, 0
  modules into the code or 1 and 2.2 beside it, from each side and the corner, squared and
  turned −7°; a highlight of 8 × 4 mm at 0.6 or 1.5 × paper, added in grey levels: 1,104 scenes
  with a highlight, 92 without, 69 controls;
- ``short``: tshort's short-frame sweep (``sweep4.py "-1.0,-2.2"``): the same scenes beside the
  code, the highlight added in linear light, read as the app's observer reads a still table — the
  frame, then the short exposure's look (:class:`vision.table_exposure.ShortLook`);
- ``broad``: tbroad's broad-glow sweep (``SIZES=24x24 PEAKS=0.3,0.5 sweep2.py "0.0,-1.0,-2.2"``):
  a round glow 24 mm across at 0.3 or 0.5 × paper: 672 scenes, 56 without it, 42 controls;
- ``dimshort``: tdips2's dim, noisy short-frame sweep (``LIGHTS=0.45,0.3 NOISE=6 sweep4n.py
  "-1.0,-2.2"``);
- ``spot``: tweak5's spot sweep (``spotsweep.py 0.4,0.8``): the glare sweep's card positions
  turned −7°, a weak glow centred on each corner and side of the code's quiet zone
  (:class:`ZoneSpot`).

How a scene is drawn (:class:`GlareScene`; reconstructed from every scene docs/benchmarks.md and
the tests print — branch ``tsweeps2``'s section there says which): the card
positions are :func:`~vision.table_sweeps.overlap_positions` of the sweep's depths, each turned
0° and −7°; the position's index is the renderer's seed, and its highlight number ``spot`` (0–11)
gives the sensor noise's seed ``1000 × index + spot``. A spot is a place × an orientation × a
peak: ``spot = 4 × place + 2 × across + strong`` (:class:`Spot`); the strong peak comes with the
softer blur (0.6 × paper at blur 0.7, 1.5 at 1.1), and the room light alternates with
``index + spot`` (the first light when even). Each spot lies on both cards (one reflection in
two sleeves) or on the buried card only. So each position has 24 scenes with a highlight, and
two without (one per light and blur it meets); a control is the code alone under the three
places' first highlights.

>>> spot = Spot.numbered(6)
>>> spot.place, spot.across, spot.strong
(1, True, False)
>>> [GLARE.light_blur_peak(22, s) for s in (Spot.numbered(6), Spot.numbered(3))]
[(1.0, 0.7, 0.6), (0.6, 1.1, 1.5)]
>>> len(GLARE.scenes()), len(GLARE.plain_scenes()), len(GLARE.controls())
(1104, 92, 69)
>>> len(BROAD.scenes()), len(BROAD.plain_scenes()), len(BROAD.controls())
(672, 56, 42)
>>> len(SHORT.scenes()), len(SHORT.controls())
(480, 30)
>>> len(SPOT.scenes()), len(SPOT.plain_scenes()), len(SPOT.controls())
(736, 23, 69)
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

import numpy as np

from vision.table import TableReader, TableReading
from vision.table_exposure import ShortExposure, ShortLook
from vision.table_kit import MAT_MM, QR_MODULES_MM
from vision.table_render import (
    CARD_MM,
    STICKER_AT,
    STICKER_CODE_MM,
    CardOnMat,
    MatOnTable,
    OverheadCamera,
    TableScene,
    render_table,
)
from vision.table_sweeps import (
    BURIED,
    SWEEP_CAMERA,
    Sweep,
    SweepResult,
    overlap_positions,
    sweep_camera,
)

FERRY = 3  # the sweep mat's ferry
CARD_TURNS = (0.0, -7.0)  # degrees: the covering card squared, and turned as a hand lays it
On = Literal["both", "buried"]
ON: tuple[On, ...] = ("both", "buried")


# -- the highlight ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Glow:
    """A sleeve's highlight of the scenes renderer's kind: peak ``peak`` × paper (2.2: the
    renderer's strongest), semi-axes
    ``axes`` mm (8 × 4 by default) turned ``turn`` degrees, a flat saturating core falling off
    as exp(−0.7 q^1.5), centred ``at`` (mm on the first card); on every card, or on the first
    card only (``first_card_only``: the covering card's own sleeve does not catch the lamp)."""

    at: tuple[float, float]
    peak: float = 2.2
    turn: float = 0.0
    first_card_only: bool = False
    axes: tuple[float, float] = (8.0, 4.0)


def card_to_frame(scene: TableScene, card: CardOnMat,
                  camera: OverheadCamera = SWEEP_CAMERA) -> np.ndarray:
    """The homography from ``card``'s millimetres (on the scene's one mat) to frame pixels."""
    import vision.table_render as tr

    mat = scene.mats[0]
    return np.asarray(tr._table_to_frame(scene, camera)
                      @ tr._placement(mat.x_mm, mat.y_mm, mat.angle_deg, MAT_MM)
                      @ tr._card_on_mat(card))


def glow_share(to_frame: np.ndarray, glow: Glow, shape: tuple[int, ...]) -> np.ndarray:
    """``glow`` on the card ``to_frame`` maps, in shares of paper over a frame of ``shape``.

    >>> share = glow_share(np.eye(3), Glow((0.0, 0.0), peak=0.5, axes=(24.0, 24.0)), (1, 25))
    >>> float(share[0, 0]), math.isclose(share[0, 24], 0.5 * math.exp(-0.7))
    (0.5, True)
    """
    ys, xs = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float64)
    u, v, w = np.linalg.inv(to_frame) @ np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)])
    turn = math.radians(glow.turn)
    du, dv = u / w - glow.at[0], v / w - glow.at[1]
    along = du * math.cos(turn) + dv * math.sin(turn)
    across = -du * math.sin(turn) + dv * math.cos(turn)
    q = (along / glow.axes[0]) ** 2 + (across / glow.axes[1]) ** 2
    return np.asarray((glow.peak * np.exp(-0.7 * q ** 1.5)).reshape(shape))


def card_covers(to_frame: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The frame pixels the card ``to_frame`` maps covers."""
    import cv2

    (w, h), mask = CARD_MM, np.zeros(shape, np.uint8)
    corners = to_frame @ np.array([(0, 0, 1), (w, 0, 1), (w, h, 1), (0, h, 1)], float).T
    cv2.fillConvexPoly(mask, np.round((corners[:2] / corners[2]).T).astype(np.int32), 1)
    return mask.astype(bool)


def _lift(scene: TableScene, cards: tuple[CardOnMat, ...], glow: Glow,
          shape: tuple[int, ...], camera: OverheadCamera) -> np.ndarray:
    """The glow's share of paper over the frame, taken off the covering cards when it lies on
    the first card only."""
    lift = glow_share(card_to_frame(scene, cards[0], camera), glow, shape)
    if glow.first_card_only:
        for card in cards[1:]:
            lift[card_covers(card_to_frame(scene, card, camera), shape)] = 0.0
    return lift


def frame_in_grey_levels(cards: tuple[CardOnMat, ...], glow: Glow | None, *, light: float,
                         blur: float, seed: int, noise: float, noise_seed: int,
                         camera: OverheadCamera = SWEEP_CAMERA) -> np.ndarray:
    """The glare and broad sweeps' frame: the first renderer's clean table, the glow added in
    grey levels (its share × the frame's 90th percentile, the paper), then sensor noise σ
    ``noise`` from ``noise_seed``."""
    scene = TableScene((MatOnTable(FERRY, 0.0, 0.0, 20.0, cards),), blur=blur, seed=seed,
                       light=light, noise=0.0)
    clean = render_table(scene, camera).frame.astype(np.float32)
    paper = float(np.percentile(clean, 90))
    lift = 0.0 if glow is None else _lift(scene, cards, glow, clean.shape, camera)
    frame = clean + lift * paper
    frame = frame + np.random.default_rng(noise_seed).normal(0, noise, clean.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)


class PairedCamera:
    """A still table drawn by the first renderer, its grey levels taken as a 2.2 tone curve of
    linear light, with a sleeve's highlight added to that light; the frame clips it, the
    short exposure scales it first (the scenes renderer's physics, vision/table_scenes_light.py),
    with the first renderer's sensor noise drawn once into the light, or (``noise``: its σ in
    grey levels on the frame; shot noise at the same gain on the short one) drawn afresh on
    each frame, as a camera's would be. A :class:`~vision.table_exposure.ShortExposureCamera`
    for the short look (``asked`` counts its short frames)."""

    def __init__(self, cards: tuple[CardOnMat, ...], glow: Glow, *, light: float = 0.8,
                 seed: int = 3, noise: float = 0.0, noise_seed: int = 0, blur: float = 0.7,
                 camera: OverheadCamera = SWEEP_CAMERA) -> None:
        scene = TableScene((MatOnTable(FERRY, 0.0, 0.0, 20.0, cards),), blur=blur, seed=seed,
                           light=light, noise=0.0 if noise else TableScene.noise)
        clean = (render_table(scene, camera).frame / 255.0) ** 2.2
        paper = float(np.percentile(clean, 90))
        self.light = clean + paper * _lift(scene, cards, glow, clean.shape, camera)
        rng = np.random.default_rng(noise_seed)
        self.frame = self._film(1.0, noise, rng)
        self._short = {0.4: self._film(0.4, noise * 0.4 ** (1 / 2.2 - 0.5), rng)}
        self.asked = 0

    def short_exposure(self, settings: ShortExposure) -> np.ndarray:
        self.asked += 1
        return self._short[settings.fraction]

    def _film(self, fraction: float, noise: float, rng: np.random.Generator) -> np.ndarray:
        grey = 255 * np.clip(self.light * fraction, 0, 1) ** (1 / 2.2)
        if noise:
            grey = grey + rng.normal(0, noise, grey.shape)
        return np.asarray(np.clip(grey, 0, 255), np.uint8)


# -- the scenes ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Spot:
    """One of a position's twelve highlights: ``place`` 0 on the covering card's edge level with
    the code's middle (at the corner: the card's corner), 1 on that edge's line at one end of
    the code, 2 over the code's middle; ``across`` the edge (else along it); ``strong``: the
    sweep's second peak, with its second blur."""

    place: int
    across: bool
    strong: bool

    @property
    def number(self) -> int:
        return 4 * self.place + 2 * self.across + self.strong

    @property
    def name(self) -> str:
        return f"spot{self.number}"

    def noise_number(self, index: int) -> int:
        """Added to ``1000 × index`` (the position's): the sensor noise's seed."""
        return self.number

    @classmethod
    def numbered(cls, number: int) -> Spot:
        return cls(number // 4, bool(number // 2 % 2), bool(number % 2))


SPOTS = tuple(Spot.numbered(n) for n in range(12))

ZONE_PLACES = ("ul", "ur", "lr", "ll", "l", "r", "t", "b")
"""The spot sweep's glow centres: each corner of the buried code's quiet zone (upper left …),
then each side's middle (left, right, top, bottom)."""
ZONE_STEPS = {"ul": (-1, -1), "ur": (1, -1), "lr": (1, 1), "ll": (-1, 1), "l": (-1, 0),
              "r": (1, 0), "t": (0, -1), "b": (0, 1)}
ZONE_REACH_MM = 11.0
"""How far from the code's centre the spot sweep's glow is centred (across and down): the quiet
zone, a module and a half beyond the code's 9.6 mm half."""


@dataclass(frozen=True)
class ZoneSpot:
    """One of a position's 32 glows in the spot sweep (tweak5's ``spotsweep.py``): centred on
    the quiet zone's corner or side ``place`` (of :data:`ZONE_PLACES`), the ``strong`` peak or
    not, turned 90° (``across``) or 0°. Unlike :class:`Spot` it does not depend on where the
    covering card lies.

    >>> spot = ZoneSpot.numbered(19)
    >>> spot.name, spot.at
    ('zone-l/strong/90', (6.8..., 19.8))
    """

    place: int
    strong: bool
    across: bool

    @property
    def number(self) -> int:
        return 4 * self.place + 2 * self.strong + self.across

    @property
    def name(self) -> str:
        return (f"zone-{ZONE_PLACES[self.place]}/{'strong' if self.strong else 'weak'}/"
                f"{90 * self.across}")

    @property
    def at(self) -> tuple[float, float]:
        """The glow's centre, mm on the buried card."""
        dx, dy = ZONE_STEPS[ZONE_PLACES[self.place]]
        return STICKER_AT[0] + dx * ZONE_REACH_MM, STICKER_AT[1] + dy * ZONE_REACH_MM

    def noise_number(self, index: int) -> int:
        """tweak5's script seeded the noise with its running scene count modulo 11 (32 scenes a
        position): kept, so the sweep is that script's scene for scene."""
        return (len(ZONE_SPOTS) * index + self.number) % 11

    def glow(self, peak: float, on: On) -> Glow:
        return Glow(self.at, peak=peak, turn=90.0 * self.across,
                    first_card_only=on == "buried")

    @classmethod
    def numbered(cls, number: int) -> ZoneSpot:
        return cls(number // 4, bool(number // 2 % 2), bool(number % 2))


ZONE_SPOTS = tuple(ZoneSpot.numbered(n) for n in range(32))
AnySpot = Spot | ZoneSpot


def spot_glow(side: str, depth: float, spot: Spot, peak: float, on: On,
              axes: tuple[float, float]) -> Glow:
    """Where ``spot`` lies for a card ``depth`` modules into the code from ``side`` (mm on the
    buried card), and how it is turned: along a side's edge (0° above and below, 90° left and
    right, 45° at the corner), or across it. The end of an edge (place 1) is the one reached
    going clockwise round the code (left: its top; right: its bottom; above: its right; below:
    its left); at the corner, the lower edge's line level with the code's right side.

    >>> spot_glow("left", -2.2, Spot.numbered(4), 0.6, "both", (8.0, 4.0)).at
    (5.70476..., 9.8)
    """
    (cx, cy), half, d = STICKER_AT, STICKER_CODE_MM / 2, depth * QR_MODULES_MM
    left, right, top, bottom = cx - half + d, cx + half - d, cy - half + d, cy + half - d
    places = {
        "left": ((left, cy), (left, cy - half), 90.0),
        "right": ((right, cy), (right, cy + half), 90.0),
        "above": ((cx, top), (cx + half, top), 0.0),
        "below": ((cx, bottom), (cx - half, bottom), 0.0),
        "corner": ((right, bottom), (cx + half, bottom), 45.0),
    }
    edge, end, along = places[side]
    at = (edge, end, (cx, cy))[spot.place]
    return Glow(at, peak=peak, turn=along + 90.0 * spot.across, first_card_only=on == "buried",
                axes=axes)


@dataclass(frozen=True)
class GlareScene:
    """One scene of a glare-family sweep, and everything needed to draw it again."""

    side: str
    depth: float
    card_turn: float | None  # None: a control, nothing over the code
    index: int  # the card position's index: the renderer's seed
    spot: AnySpot | None  # None: the position without a highlight
    on: On
    light: float
    blur: float
    peak: float

    @property
    def noise_seed(self) -> int:
        # a table without a highlight: seeds of its own, one per blur (chosen: the docs do
        # not give them)
        return 1000 * self.index + (self.spot.noise_number(self.index) if self.spot
                                    else 100 + round(10 * self.blur))

    @property
    def key(self) -> str:
        what = "control" if self.card_turn is None else f"{self.card_turn:g}"
        glow = "plain" if self.spot is None else f"{self.spot.name}/{self.on}"
        return (f"{self.side}/{self.depth:g}/{what}/{glow}/light{self.light:g}/blur{self.blur:g}"
                + ("" if self.spot is None else f"/peak{self.peak:g}"))


@dataclass(frozen=True)
class GlareFamily:
    """A glare-family sweep's parameters: the card ``depths`` (modules into the code; negative:
    beside it), room ``lights``, the two ``peaks`` (× paper) and their ``blurs``, the glow's
    semi-axes ``axes`` (mm), the sensor's ``noise`` σ, and whether the glow is added in
    ``linear`` light (the short-frame sweeps) or in grey levels; the covering card's
    ``card_turns``, the glows of each position (``spots``), the cards they lie on (``on``) and
    the ``control_spots`` (the code alone under them)."""

    depths: tuple[float, ...]
    lights: tuple[float, float] = (1.0, 0.6)
    peaks: tuple[float, float] = (0.6, 1.5)
    blurs: tuple[float, float] = (0.7, 1.1)
    axes: tuple[float, float] = (8.0, 4.0)
    noise: float = 2.5
    linear: bool = False
    card_turns: tuple[float, ...] = CARD_TURNS
    spots: tuple[AnySpot, ...] = SPOTS
    on: tuple[On, ...] = ON
    control_spots: tuple[AnySpot, ...] = tuple(Spot(place, False, False) for place in range(3))

    def light_blur_peak(self, index: int, spot: AnySpot) -> tuple[float, float, float]:
        """The room light, blur and peak of position ``index``'s ``spot``: the strong peak
        with the second blur; the light alternating with ``index + spot`` (inferred: the one
        rule that fits every scene whose light docs/benchmarks.md prints)."""
        return (self.lights[(index + spot.number) % 2], self.blurs[spot.strong],
                self.peaks[spot.strong])

    def positions(self) -> list[tuple[int, str, float, float, float]]:
        return [(i, side, depth, dx, dy)
                for i, (side, depth, dx, dy) in enumerate(overlap_positions(self.depths))]

    def scenes(self) -> list[GlareScene]:
        """The scenes with a highlight, in the sweep's order."""
        return [GlareScene(side, depth, turn, i, spot, on, *self.light_blur_peak(i, spot))
                for i, side, depth, _, _ in self.positions() for turn in self.card_turns
                for spot in self.spots for on in self.on]

    def scene(self, side: str, depth: float, card_turn: float | None, spot: int,
              on: On = "both") -> GlareScene:
        """The sweep's scene by its card position, card turn (``None``: the control), highlight
        number and the cards the highlight lies on.

        >>> SHORT.scene("corner", -1.0, -7.0, 3, "buried").key
        'corner/-1/-7/spot3/buried/light0.6/blur1.1/peak1.5'
        """
        scenes = self.scenes() if card_turn is not None else self.controls()
        (found,) = [s for s in scenes if (s.side, s.depth, s.card_turn, s.on) ==
                    (side, depth, card_turn, on if card_turn is not None else "both")
                    and s.spot is not None and s.spot.number == spot]
        return found

    def plain_scenes(self) -> list[GlareScene]:
        """Each position without a highlight, in each light and blur its scenes meet."""
        return [GlareScene(side, depth, turn, i, None, "both", light, blur, 0.0)
                for i, side, depth, _, _ in self.positions() for turn in self.card_turns
                for light, blur in dict.fromkeys(self.light_blur_peak(i, spot)[:2]
                                                 for spot in self.spots)]

    def controls(self) -> list[GlareScene]:
        """The code alone under each of ``control_spots`` (the glare family's: each place's
        first highlight, along, the first peak)."""
        return [GlareScene(side, depth, None, i, spot, "both", *self.light_blur_peak(i, spot))
                for i, side, depth, _, _ in self.positions() for spot in self.control_spots]

    def cards(self, scene: GlareScene) -> tuple[CardOnMat, ...]:
        buried = CardOnMat(BURIED)
        if scene.card_turn is None:
            return (buried,)
        (_, _, _, dx, dy), = [p for p in self.positions() if p[0] == scene.index]
        return buried, CardOnMat(None, dx, dy, scene.card_turn)

    def glow(self, scene: GlareScene) -> Glow | None:
        if scene.spot is None:
            return None
        if isinstance(scene.spot, ZoneSpot):
            return scene.spot.glow(scene.peak, scene.on)
        return spot_glow(scene.side, scene.depth, scene.spot, scene.peak, scene.on, self.axes)

    def frame(self, scene: GlareScene, camera: OverheadCamera = SWEEP_CAMERA) -> np.ndarray:
        """The scene's frame at the camera's automatic exposure."""
        return self.camera(scene, camera).frame if self.linear else frame_in_grey_levels(
            self.cards(scene), self.glow(scene), light=scene.light, blur=scene.blur,
            seed=scene.index, noise=self.noise, noise_seed=scene.noise_seed, camera=camera)

    def camera(self, scene: GlareScene, camera: OverheadCamera = SWEEP_CAMERA) -> PairedCamera:
        """The scene as a camera that also gives its short exposure (the glow in linear
        light; a scene without one under a glow of nothing)."""
        glow = self.glow(scene) or Glow(STICKER_AT, peak=0.0)
        return PairedCamera(self.cards(scene), glow, light=scene.light, seed=scene.index,
                            noise=self.noise, noise_seed=scene.noise_seed, blur=scene.blur,
                            camera=camera)


GLARE = GlareFamily((1.5, 0.75, 0.0, -1.0, -2.2))
BROAD = GlareFamily((0.0, -1.0, -2.2), peaks=(0.3, 0.5), axes=(24.0, 24.0))
SHORT = GlareFamily((-1.0, -2.2), linear=True)
DIMSHORT = GlareFamily((-1.0, -2.2), lights=(0.45, 0.3), noise=6.0, linear=True)
SPOT = GlareFamily((1.5, 0.75, 0.0, -1.0, -2.2), lights=(0.6, 0.6), peaks=(0.4, 0.8),
                   blurs=(0.7, 0.7), card_turns=(-7.0,), spots=ZONE_SPOTS, on=("both",),
                   control_spots=(ZoneSpot(1, False, False), ZoneSpot(4, False, False),
                                  ZoneSpot(4, True, True)))


# -- reading them ----------------------------------------------------------------------------------

@contextlib.contextmanager
def without_the_glare_rule() -> Iterator[None]:
    """The reader with ``vision.table_glare.glare_verdict`` saying nothing (the sweeps'
    ``named_base``: what the reader names without the glare rule)."""
    import vision.table_glare as glare

    rule = glare.glare_verdict
    glare.glare_verdict = lambda *args, **kwargs: None
    try:
        yield
    finally:
        glare.glare_verdict = rule


def _decoded(reading: TableReading) -> bool:
    return BURIED in reading.ferries[FERRY].codes


def _named(reading: TableReading) -> bool:
    return reading.ferries[FERRY].top == BURIED


def _kind(scene: GlareScene) -> Literal["buried", "control"]:
    return "control" if scene.card_turn is None else "buried"


def read_both_ways(family: GlareFamily, reader: TableReader, px_per_module: float,
                   scenes: list[GlareScene] | None = None) -> Iterator[SweepResult]:
    """The glare and broad sweeps (``scenes``: all, else these and the controls among them):
    each scene read by the reader, and again without the glare rule (``named_base``); a scene
    with a highlight says whether the same table without it (same light and blur) was named
    (``plain_named``; those tables are read first, and are results too): a scene named only
    under the highlight is a ``GLARE FAIL``, one named only through the rule a ``RULE-ONLY
    FAIL``."""
    camera = sweep_camera(px_per_module)
    lit = family.scenes() + family.controls() if scenes is None else scenes
    needed = {(s.index, s.card_turn, s.blur) for s in lit}
    plain: dict[tuple[int, float | None, float], bool] = {}
    for scene in family.plain_scenes():
        if (scene.index, scene.card_turn, scene.blur) in needed:
            reading = reader.read(family.frame(scene, camera))
            plain[scene.index, scene.card_turn, scene.blur] = _named(reading)
            yield SweepResult(scene.key, "buried", _decoded(reading), _named(reading),
                              {"highlight": False})
    for scene in lit:
        frame = family.frame(scene, camera)
        reading = reader.read(frame)
        with without_the_glare_rule():
            base = reader.read(frame)
        detail: dict[str, object] = {"named_base": _named(base)}
        if scene.card_turn is not None:
            detail["plain_named"] = plain[scene.index, scene.card_turn, scene.blur]
        yield SweepResult(scene.key, _kind(scene), _decoded(reading) or _decoded(base),
                          _named(reading), detail)


def read_with_the_short_look(family: GlareFamily, reader: TableReader, px_per_module: float,
                             scenes: list[GlareScene] | None = None) -> Iterator[SweepResult]:
    """The short-frame sweeps: each scene read as the app's observer reads a still table — the
    frame, then the short look on a ferry left unread under a clipped highlight. ``named`` is
    the end of it (what the app shows); ``named_normal`` the frame's own reading."""
    camera = sweep_camera(px_per_module)
    for scene in family.scenes() + family.controls() if scenes is None else scenes:
        table = family.camera(scene, camera)
        normal = reader.read(table.frame)
        after = ShortLook(table, reader=reader).improve(table.frame, normal)
        yield SweepResult(scene.key, _kind(scene), _decoded(normal) or _decoded(after),
                          _named(after), {"named_normal": _named(normal),
                                          "short_asked": table.asked})


def glare(reader: TableReader, px_per_module: float) -> Iterator[SweepResult]:
    """tglare's glare sweep: 1,104 scenes with a highlight, 92 without, 69 controls. On main
    (2026-11-27): 1 buried code named, 2 without the glare rule, no ``GLARE FAIL``."""
    return read_both_ways(GLARE, reader, px_per_module)


def broad(reader: TableReader, px_per_module: float) -> Iterator[SweepResult]:
    """tbroad's broad-glow sweep: 672 scenes with the glow, 56 without, 42 controls. On main:
    36 named (38 without the glare rule), each a table named without the glow too; 42 controls
    read."""
    return read_both_ways(BROAD, reader, px_per_module)


def short(reader: TableReader, px_per_module: float) -> Iterator[SweepResult]:
    """tshort's short-frame sweep: 480 scenes, 30 controls. On main: 7 named by the frame
    alone, 16 after the short look."""
    return read_with_the_short_look(SHORT, reader, px_per_module)


def dimshort(reader: TableReader, px_per_module: float) -> Iterator[SweepResult]:
    """tdips2's dim, noisy short-frame sweep: 480 scenes, 30 controls. On main: 7 named, all
    by the frame alone."""
    return read_with_the_short_look(DIMSHORT, reader, px_per_module)


def spot(reader: TableReader, px_per_module: float) -> Iterator[SweepResult]:
    """tweak5's spot sweep (``spotsweep.py 0.4,0.8``): the glare sweep's card positions turned
    −7°, light 0.6, blur 0.7, a glow of 0.4 or 0.8 × paper centred on each corner and side of
    the code's quiet zone, turned 0° or 90°: 736 scenes, 23 without the glow, 69 controls (the
    code alone under the weak glow on the quiet zone's upper right corner and on its left side,
    and under the strong one on its left side turned 90°: the glow of the two scenes tweak5's
    unmerged rule named). On main: 10 buried codes named at 3 px (tweak5's count, scene for
    scene), 8 at 2.3, each under the weak glow and on a table named without it."""
    return read_both_ways(SPOT, reader, px_per_module)


SWEEPS: Mapping[str, Sweep] = {"glare": glare, "short": short, "broad": broad,
                               "dimshort": dimshort, "spot": spot}
DOCUMENTED_NAMED: Mapping[str, Mapping[float, int]] = {
    "glare": {3.0: 7, 2.3: 5}, "short": {3.0: 16, 2.3: 5}, "broad": {3.0: 42, 2.3: 29},
    "dimshort": {3.0: 7, 2.3: 0}, "spot": {3.0: 13, 2.3: 11}}
"""Buried codes each sweep names on main (2026-11-27, docs/benchmarks.md, branch ``tsweeps2``),
the tables without a highlight counted too (glare: 1 under a highlight + 6 without at 3 px,
2 + 3 at 2.3; broad: 36 + 6, 25 + 4; spot: 10 + 3, 8 + 3, branch ``tspot``): every one a
table the reader names without the highlight — the "card beside a code" limit
(docs/table-view.md). The short sweep named 11 at 2.3 px, 4
of them only after the short look (a hole); since branch ``tshortbin`` the short look takes no
top card where the reader enlarges the zone, and 5 are named there, all by the frame alone. A
change must name none that main does not (``--compare``)."""


def summary(results: list[SweepResult]) -> dict[str, int]:
    """The figures the docs give for a glare-family sweep: buried codes named with a highlight
    (the reader, and without the glare rule for the glare and broad sweeps; the frame alone and
    after the short look for the short-frame sweeps), the ``GLARE FAIL`` scenes (named where the
    same table without the highlight is not), ``RULE-ONLY FAIL`` (named only through the glare
    rule), the tables named without a highlight, and the controls read."""
    lit = [r for r in results if r.kind == "buried" and r.detail.get("highlight") is not False]
    plain = [r for r in results if r.detail.get("highlight") is False]
    controls = [r for r in results if r.kind == "control"]
    figures = {"scenes": len(lit), "decoded": sum(r.decoded for r in lit),
               "named": sum(r.named for r in lit), "plain": len(plain),
               "plain_named": sum(r.named for r in plain), "controls": len(controls),
               "controls_read": sum(r.named for r in controls)}
    if any("named_base" in r.detail for r in lit):
        figures |= {"named_base": sum(bool(r.detail["named_base"]) for r in lit),
                    "glare_fail": sum(r.named and not r.detail["plain_named"] for r in lit),
                    "rule_only_fail": sum(r.named and not r.detail["named_base"] for r in lit),
                    "controls_read_base": sum(bool(r.detail["named_base"]) for r in controls)}
    if any("named_normal" in r.detail for r in lit):
        figures |= {"named_normal": sum(bool(r.detail["named_normal"]) for r in lit),
                    "short_fail": sum(r.named and not r.detail["named_normal"] for r in lit),
                    "controls_read_normal": sum(bool(r.detail["named_normal"])
                                                for r in controls)}
    return figures
