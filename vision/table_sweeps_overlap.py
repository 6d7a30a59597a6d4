"""The overlap family of guard sweeps (issue 19; docs/benchmarks.md, branches treader3, treader4,
tcodes): one mat under :func:`vision.table_sweeps.sweep_camera`, a buried card, and a card with
no visible sticker laid over its code (``dim``, ``noise``, ``draws``) or beside it, over its quiet
zone alone (``qz``). Each was a scratch script, lost; each is rebuilt here from the figures and
prose of docs/benchmarks.md, and gives the documented scene counts (docs/table-view.md, "The
guard sweeps").

Every sweep yields, for each light, noise and blur, a control first — the same card laid 6
modules clear of the code, which the reader should name — then its buried scenes. A scene's
seed is the one the tests' slices of the sweep give it (:func:`seeded_positions`).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Iterator, Mapping

import numpy as np

from vision.table import FerryView, TableReader
from vision.table_kit import QR_MODULES_MM
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
from vision.table_sweeps import BURIED, Kind, Sweep, SweepResult, overlap_positions, sweep_camera

OVER_THE_CODE = (0.75, 1.5, 3.0)
"""The overlap sweeps' depths (modules into the code): 14 positions with the corners."""
BESIDE_THE_CODE = (-0.4, -1.0, -1.6, -2.2)
"""The quiet-zone sweep's: the card's edge this many modules outside the code (20 positions)."""
CLEAR_BY = 6.0
"""The controls' card lies this many modules clear of the code, left of it (the tests')."""


def covered_scene(dx: float, dy: float, angle: float, *, light: float, noise: float,
                  blur: float, seed: int) -> TableScene:
    """Ferry 3 with the buried card and, over it, a card with no sticker moved by (dx, dy) mm
    from the card zone's centre and turned ``angle`` degrees about its own centre."""
    cards = (CardOnMat(BURIED), CardOnMat(None, dx, dy, angle))
    return TableScene((MatOnTable(3, 0.0, 0.0, 20.0, cards),), blur=blur, seed=seed,
                      light=light, noise=noise)


def clear_offset() -> float:
    """The controls' dx: the covering card's right edge :data:`CLEAR_BY` modules left of the
    code (tests/table/test_view.py, the overlap sweep's control)."""
    card_w = CARD_MM[0] / 2
    code_left = STICKER_AT[0] - card_w - STICKER_CODE_MM / 2
    return code_left - CLEAR_BY * QR_MODULES_MM - card_w


def ferry_result(key: str, kind: Kind, view: FerryView,
                 detail: Mapping[str, object] | None = None) -> SweepResult:
    """The buried code decoded on ferry 3, and named its top card or not."""
    extra = {} if view.seen else {"seen": False}
    return SweepResult(key, kind, BURIED in view.codes, view.top == BURIED,
                       {**extra, **(detail or {})})


def conditions(light: float, noise: float, blur: float) -> str:
    """A key's tail.

    >>> conditions(0.45, 6.0, 1.1)
    'light0.45/noise6/blur1.1'
    """
    return f"light{light:g}/noise{noise:g}/blur{blur:g}"


def swept_positions(reader: TableReader, px: float, *, lights: Iterable[float],
                    noises: Iterable[float], blurs: Iterable[float],
                    angles: tuple[float, ...], depths: tuple[float, ...] = OVER_THE_CODE,
                    measure: bool = False) -> Iterator[SweepResult]:
    """Every position of ``depths`` at every angle, light, noise and blur, a control first for
    each light, noise and blur; ``measure``: each scene's ``detail`` gives the card's distance
    from the code (:func:`outline_distance`) and its band."""
    camera = sweep_camera(px)
    positions = seeded_positions(depths, per_depth=measure)
    for light, noise, blur in itertools.product(lights, noises, blurs):
        tail = conditions(light, noise, blur)

        def read(scene: TableScene) -> FerryView:
            return reader.read(render_table(scene, camera).frame).ferries[3]

        control = covered_scene(clear_offset(), 0.0, 0.0, light=light, noise=noise, blur=blur,
                                seed=0)
        yield ferry_result(f"control/{tail}", "control", read(control))
        for (seed, (side, depth, dx, dy)), angle in itertools.product(positions, angles):
            scene = covered_scene(dx, dy, angle, light=light, noise=noise, blur=blur,
                                  seed=seed)
            detail = distance_detail(dx, dy, angle) if measure else None
            yield ferry_result(f"{side}/{depth:g}/{angle:g}/{tail}", "buried", read(scene),
                               detail)


def seeded_positions(depths: tuple[float, ...], *, per_depth: bool = False
                     ) -> list[tuple[int, tuple[str, float, float, float]]]:
    """Each position of ``depths`` with its scene's seed, as the tests' slices of the sweeps
    seed them: ``round(10 × |depth|)`` plus the position's index among all of ``depths``' (the
    overlap sweeps: tests/table/test_view.py ``dim_overlap_view``) or, ``per_depth``, among its
    own depth's (the quiet-zone sweep: tests/table/test_codes.py; docs/benchmarks.md, branch
    tsweeps: the seeding that comes nearest to the lost script's figures).

    >>> [seed for seed, _ in seeded_positions((0.75, 1.5))]
    [8, 9, 10, 11, 19, 20, 21, 22, 23]
    >>> [seed for seed, _ in seeded_positions((-0.4, -1.0), per_depth=True)]
    [4, 5, 6, 7, 8, 10, 11, 12, 13, 14]
    """
    if per_depth:
        return [(seed, position) for depth in depths
                for seed, position in seeded_positions((depth,))]
    return [(round(10 * abs(depth)) + index, (side, depth, dx, dy))
            for index, (side, depth, dx, dy) in enumerate(overlap_positions(depths))]


def dim_sweep(reader: TableReader, px: float) -> Iterator[SweepResult]:
    """treader3's dim overlap sweep: light 0.35 / 0.45 / 0.6 × noise σ 4 / 6 / 8 × blur σ
    0.7 / 1.1 / 1.5 × the 14 positions × 0°, 5°, −7°: 1,134 scenes."""
    return swept_positions(reader, px, lights=(0.35, 0.45, 0.6), noises=(4.0, 6.0, 8.0),
                           blurs=(0.7, 1.1, 1.5), angles=(0.0, 5.0, -7.0))


def noise_sweep(reader: TableReader, px: float) -> Iterator[SweepResult]:
    """treader3's noise sweep (the hole treader4 closed): light 0.8 / 1 × noise σ 0–3 × blur σ
    0.7 / 1.1 × the 14 positions × 0°, −7°: 448 scenes."""
    return swept_positions(reader, px, lights=(0.8, 1.0), noises=(0.0, 1.0, 2.0, 3.0),
                           blurs=(0.7, 1.1), angles=(0.0, -7.0))


def qz_sweep(reader: TableReader, px: float) -> Iterator[SweepResult]:
    """tcodes' quiet-zone sweep: the card's edge 0.4 / 1 / 1.6 / 2.2 modules outside the code,
    each side and the corner (20 positions) × 0°, 5°, −7° × light 1 / 0.6 / 0.4 × noise σ
    2.5 / 5 × blur σ 0.7 / 1.1: 720 scenes. Beyond 3 modules no quiet-zone test can see the
    card (docs/table-view.md, "Limits"): each scene's ``detail`` says how far it really lies."""
    return swept_positions(reader, px, lights=(1.0, 0.6, 0.4), noises=(2.5, 5.0),
                           blurs=(0.7, 1.1), angles=(0.0, 5.0, -7.0), depths=BESIDE_THE_CODE,
                           measure=True)


DRAW_SIDES = ("left", "above")
DRAWS = 20


def draws_sweep(reader: TableReader, px: float) -> Iterator[SweepResult]:
    """treader4's Gaussian-noise draws of the hole's positions: a card ¾ of a module over the
    code's left or top edge (blur σ 1.1, squared), rendered without noise, then given sensor
    noise σ 2 / 4 / 6 drawn afresh 20 times (numpy's generator seeded 0–19), at light 1 / 0.8 /
    0.6: 360 scenes (tests/table/test_view.py keeps two draws)."""
    camera = sweep_camera(px)
    positions = [(index, position) for index, position in enumerate(overlap_positions())
                 if position[0] in DRAW_SIDES and position[1] == 0.75]
    for light in (1.0, 0.8, 0.6):
        control = clean_frame(camera, clear_offset(), 0.0, light, 0)
        frames = [(side, clean_frame(camera, dx, dy, light, round(10 * depth) + index))
                  for index, (side, depth, dx, dy) in positions]
        for sigma in (2.0, 4.0, 6.0):
            tail = f"light{light:g}/noise{sigma:g}"
            view = reader.read(noisy(control, sigma, 0)).ferries[3]
            yield ferry_result(f"control/{tail}", "control", view)
            for (side, frame), draw in itertools.product(frames, range(DRAWS)):
                view = reader.read(noisy(frame, sigma, draw)).ferries[3]
                yield ferry_result(f"{side}/0.75/draw{draw}/{tail}", "buried", view)


def clean_frame(camera: OverheadCamera, dx: float, dy: float, light: float,
                seed: int) -> np.ndarray:
    """The draws' scene rendered without noise (blur σ 1.1, the card squared), as floats."""
    scene = covered_scene(dx, dy, 0.0, light=light, noise=0.0, blur=1.1, seed=seed)
    return render_table(scene, camera).frame.astype(np.float32)


def noisy(clean: np.ndarray, sigma: float, draw: int) -> np.ndarray:
    """A clean float frame with Gaussian sensor noise of draw ``draw``, rounded to 8 bits."""
    frame = clean + np.random.default_rng(draw).normal(0.0, sigma, clean.shape)
    return np.clip(np.round(frame), 0, 255).astype(np.uint8)


# -- how far the covering card really lies from the code (the quiet-zone sweep's detail) -------

BANDS = ((3.0, "<3"), (4.0, "3-4"), (math.inf, ">=4"))
"""The card's distance from the code, in modules: within the band the quiet zone is judged on,
over the outer edge of the sticker's quiet zone, off the sticker (tcodes' table)."""


def outline_distance(dx: float, dy: float, angle: float) -> float:
    """Modules between the covering card's outline and the buried code's (0 where they
    overlap), the card moved by (dx, dy) mm and turned ``angle`` degrees as the renderer lays it.

    >>> [round(outline_distance(dx, dy, 0.0), 2) for _, _, dx, dy in overlap_positions((-1.6,))]
    [1.6, 1.6, 1.6, 1.6, 2.26]
    >>> outline_distance(*overlap_positions((0.75,))[0][2:], 0.0)
    0.0
    """
    a = math.radians(angle)
    turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    signs = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], np.float64)
    card = (signs * np.array(CARD_MM) / 2) @ turn.T + (dx, dy)
    centre = np.array(STICKER_AT) - np.array(CARD_MM) / 2
    code = signs * STICKER_CODE_MM / 2 + centre
    if _overlap(card, code):
        return 0.0
    gaps = [_point_to_polygon(p, q) for p, q in ((card, code), (code, card))]
    return float(min(min(gap) for gap in gaps)) / QR_MODULES_MM


@functools.cache
def distance_detail(dx: float, dy: float, angle: float) -> Mapping[str, object]:
    """The card's distance from the code (modules) and its band (:data:`BANDS`); the sweep's 60
    placements, each worked out once."""
    distance = outline_distance(dx, dy, angle)
    band = next(name for upper, name in BANDS if distance < upper)
    return {"distance": round(distance, 2), "band": band}


def _overlap(first: np.ndarray, second: np.ndarray) -> bool:
    """Two convex polygons overlap unless an edge's normal separates them."""
    for polygon in (first, second):
        for start, end in zip(polygon, np.roll(polygon, -1, axis=0), strict=True):
            normal = np.array([start[1] - end[1], end[0] - start[0]])
            a, b = first @ normal, second @ normal
            if a.max() <= b.min() or b.max() <= a.min():
                return False
    return True


def _point_to_polygon(points: np.ndarray, polygon: np.ndarray) -> list[float]:
    """Each of ``points``' distance to the nearest of ``polygon``'s edges."""
    gaps = []
    for point in points:
        for start, end in zip(polygon, np.roll(polygon, -1, axis=0), strict=True):
            along = end - start
            t = float(np.clip((point - start) @ along / (along @ along), 0.0, 1.0))
            gaps.append(float(np.hypot(*(point - start - t * along))))
    return gaps


SWEEPS: Mapping[str, Sweep] = {"dim": dim_sweep, "noise": noise_sweep, "draws": draws_sweep,
                               "qz": qz_sweep}
DOCUMENTED_NAMED: Mapping[str, Mapping[float, int]] = {"qz": {3.0: 119, 2.3: 57}}
"""The quiet-zone sweep's known limit: the buried codes this rebuilt sweep names on main (at
bb4f0d2 as at e6dfe37), 119 / 57 at 3 / 2.3 px a module, none with the card within 3 modules of
the code (3–4 modules: 25 / 11; 4 or more: 94 / 46). The lost script named 121 / 55 (26 / 11,
95 / 44); its seeds are not known exactly (docs/benchmarks.md, branch tsweeps). Every other
sweep names none."""
