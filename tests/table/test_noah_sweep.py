"""Noah is never placed at a wrong ferry (TABLE-KIT.md: "Noah is never placed at a wrong
ferry"; issue 19): a sweep of Noah spots round the mats of varied scene cameras.

No frame is drawn: the kit's marker corners are projected through each scene's camera (its lean
up to 25°, its lens distortion, the binned mode) and jittered by twice the corner noise measured
on the DEV frames (0.6 % of a marker's side, per coordinate), some mats seen by one marker only,
every mat on some tables. Noah stands anywhere 60–170 mm from a mat centre, off every mat, most
spots within 25 mm of a tie between two mats. The reader's answer is then what
:func:`vision.table_markers.noah_ferry` says from :func:`vision.table_markers.mat_poses`.
docs/benchmarks.md (branch ``tnoah``) gives the large sweep this one is a slice of.
"""

import math
import random
from collections import Counter

import numpy as np
import pytest

from vision.table_kit import (
    FERRIES,
    MARKER_MM,
    MAT_MM,
    NOAH_DISC_MM,
    NOAH_MARKER,
    marker_corners_mm,
    marker_ids,
)
from vision.table_markers import Marker, mat_poses, noah_ferry
from vision.table_scenes import MAT_THICK_MM, Ferry, Scene, scene_for_seed
from vision.table_scenes_render import DISC_Z, optics

TEXTS = [f"NOAH1/BOX1/T{i:02d}" for i in range(20)]
CORNER_NOISE = 0.012  # of a marker's side, per coordinate: twice the DEV frames' corners
SEEDS = range(2000, 2024)  # fresh seeds (the DEV set is 1000-1199); 3 of them lean 20-25°


class Projected:
    """One scene's camera and its mats' marker corners in the frame (pixels)."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.optics = optics(scene)
        self.binned = scene.camera.binned
        self.corners = {i: self.project(np.array([f.to_table(u, v)
                                                  for u, v in marker_corners_mm(i)]),
                                        MAT_THICK_MM)
                        for f in scene.ferries for i in marker_ids(f.ferry)}

    def project(self, table_mm: np.ndarray, z: float) -> np.ndarray:
        px = self.optics.project(np.hstack([table_mm, np.full((len(table_mm), 1), z)]))
        return (px + 0.5) * (0.5 if self.binned else 1.0) - 0.5

    def noah(self, x: float, y: float, turn: float) -> np.ndarray:
        h, c, s = MARKER_MM / 2, math.cos(turn), math.sin(turn)
        square = [(x + c * dx - s * dy, y + s * dx + c * dy)
                  for dx, dy in ((-h, -h), (h, -h), (h, h), (-h, h))]
        return self.project(np.array(square), DISC_Z)


def _jittered(corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    side = float(np.mean(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)))
    return (corners + rng.normal(0.0, CORNER_NOISE * side, corners.shape)).astype(np.float32)


def _off_every_mat(scene: Scene, x: float, y: float) -> bool:
    """Whether Noah's disc there lies off every mat (he stands beside one, never on it)."""
    return all(not _on_mat(f, x, y, NOAH_DISC_MM / 2) for f in scene.ferries)


def _on_mat(ferry: Ferry, x: float, y: float, pad: float) -> bool:
    ox, oy = ferry.to_table(MAT_MM[0] / 2, MAT_MM[1] / 2)
    ux = np.subtract(ferry.to_table(MAT_MM[0] / 2 + 1, MAT_MM[1] / 2), (ox, oy))
    vy = np.subtract(ferry.to_table(MAT_MM[0] / 2, MAT_MM[1] / 2 - 1), (ox, oy))
    u, v = np.dot((x - ox, y - oy), ux), np.dot((x - ox, y - oy), vy)
    return bool(abs(u) < MAT_MM[0] / 2 + pad and abs(v) < MAT_MM[1] / 2 + pad)


def _spots(scene: Scene, rng: random.Random, count: int, within: float):
    """Noah's spots round the mats (table mm) and his true ferry: each within ``within`` mm of
    a tie between two mats."""
    made = 0
    for _ in range(count * 40):
        if made == count:
            return
        mat = rng.choice(scene.ferries)
        reach, angle = rng.uniform(60, 170), rng.uniform(0, 2 * math.pi)
        x, y = mat.x + reach * math.cos(angle), mat.y + reach * math.sin(angle)
        distances = sorted((math.dist((x, y), (f.x, f.y)), f.ferry) for f in scene.ferries)
        if not _off_every_mat(scene, x, y) or distances[1][0] - distances[0][0] > within:
            continue
        made += 1
        yield x, y, distances[0][1]


def _sweep(seeds, spots: int, hidden: float, within: float, seed: int = 19) -> Counter:
    """Noah right / wrong / silent over ``spots`` spots a scene (:func:`_spots`), each mat seen
    by one marker with probability ``hidden``."""
    rng, noise = random.Random(seed), np.random.default_rng(seed)
    said = Counter()
    for scene_seed in seeds:
        table = Projected(scene_for_seed(scene_seed, TEXTS))
        for x, y, truth in _spots(table.scene, rng, spots, within):
            markers = [Marker(NOAH_MARKER, _jittered(table.noah(x, y, rng.uniform(0, 6.3)),
                                                     noise))]
            for ferry in FERRIES:
                ids = marker_ids(ferry)
                for i in ((rng.choice(ids),) if rng.random() < hidden else ids):
                    markers.append(Marker(i, _jittered(table.corners[i], noise)))
            answer = noah_ferry(markers[0].centre, mat_poses(markers))
            said["silent" if answer is None else "right" if answer == truth else "wrong"] += 1
    return said


@pytest.mark.parametrize(("hidden", "within"), [(0.4, 25.0), (1.0, 120.0)])
def test_noah_never_at_a_wrong_ferry_near_ties_R_kit(hidden, within):
    """Near ties, tilted cameras, one-marker mats (all of them at ``hidden`` = 1, where only a
    wide gap names Noah): never wrong, and not all silence (Noah clearly nearer one mat is
    named)."""
    said = _sweep(SEEDS, spots=5, hidden=hidden, within=within)
    assert said["wrong"] == 0, said
    assert said["right"] >= 0.2 * sum(said.values()), said


@pytest.mark.parametrize("seed", [2004, 2020])
def test_a_leaning_table_of_one_marker_mats_keeps_the_wide_margin(seed):
    """The sweep's hole: a camera leaning 24.7°, every mat placed by one marker (its top one),
    no corner noise at all. Noah within 25 mm of a tie: the similarities, 15 mm margin, put him
    at a wrong ferry on 176 of 2,780 spots round the mats of table 2004 and 170 of 2,644 of
    table 2020 (the same scan, finer); with no mat placed by two markers the margin is now
    :data:`NOAH_TIE_NO_PLANE_MM`, and none is wrong."""
    table = Projected(scene_for_seed(seed, TEXTS))
    assert table.scene.camera.tilt > 20
    said = Counter()
    for mat in table.scene.ferries:
        for angle in np.linspace(0, 2 * math.pi, 36, endpoint=False):
            for reach in (90.0, 120.0, 150.0):
                x, y = mat.x + reach * math.cos(angle), mat.y + reach * math.sin(angle)
                distances = sorted((math.dist((x, y), (f.x, f.y)), f.ferry)
                                   for f in table.scene.ferries)
                if (distances[0][1] != mat.ferry or distances[1][0] - distances[0][0] > 25
                        or not _off_every_mat(table.scene, x, y)):
                    continue
                markers = [Marker(NOAH_MARKER, table.noah(x, y, 0.0).astype(np.float32))]
                markers += [Marker(2 * k - 2, table.corners[2 * k - 2].astype(np.float32))
                            for k in FERRIES]
                answer = noah_ferry(markers[0].centre, mat_poses(markers))
                said["silent" if answer is None else "right" if answer == mat.ferry
                     else "wrong"] += 1
    assert said["wrong"] == 0 and sum(said.values()) > 20, said
