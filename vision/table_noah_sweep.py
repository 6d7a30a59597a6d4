"""``noah-companion bench noah``: is Noah ever placed at a wrong ferry? A sweep of Noah's spots
round the mats of varied scene cameras (TABLE-KIT.md: "Noah is never placed at a wrong ferry").

No frame is drawn: the kit's marker corners are projected through the cameras of
:mod:`vision.table_scenes` (60-100 cm, a lean up to 25°, lens distortion, the binned mode; the
mats in rows, arcs, round a board, turned and pushed out of line) and jittered by a share of a
marker's side (the DEV frames' detected corners lie 0.6 % of a side from the drawn ones, per
coordinate, median 0.5 px); some mats are seen by one marker only. Noah stands anywhere off the
mats, 60-170 mm from a mat centre, within ``within`` mm of a tie between two mats; the answer is
what :func:`vision.table_markers.noah_ferry` says from :func:`vision.table_markers.mat_poses`,
counted right, wrong or silent against the true nearest mat, by the true gap between the two
nearest. Thousands of spots a minute, where the rendered sets give one Noah a frame: the margins
of :mod:`vision.table_markers` are checked here (docs/benchmarks.md, branch ``tnoah``).

Benchmarks report; they never pass or fail.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

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
from vision.table_scenes_truth import nearest_two

TEXTS = [f"NOAH1/BOX1/T{i:02d}" for i in range(20)]  # the sweep lays no card: any 5 texts
CORNER_NOISE = 0.006  # of a marker's side, per coordinate: the DEV frames' detected corners
GAP_BINS = (0.0, 2.0, 5.0, 10.0, 15.0, 25.0)


class Projected:
    """One scene's camera and its mats' marker corners in the frame (pixels, the binned
    frame's when binned)."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.optics = optics(scene)
        self.corners = {i: self.project(np.array([f.to_table(u, v)
                                                  for u, v in marker_corners_mm(i)]),
                                        MAT_THICK_MM)
                        for f in scene.ferries for i in marker_ids(f.ferry)}

    def project(self, table_mm: np.ndarray, z: float) -> np.ndarray:
        """Table points (N × 2, mm) at height ``z`` to frame pixels (N × 2)."""
        px = self.optics.project(np.hstack([table_mm, np.full((len(table_mm), 1), z)]))
        return np.asarray((px + 0.5) * (0.5 if self.scene.camera.binned else 1.0) - 0.5)

    def noah(self, x: float, y: float, turn: float) -> np.ndarray:
        """The corners of Noah's marker (pixels) on his disc at ``(x, y)``, turned by ``turn``."""
        h, c, s = MARKER_MM / 2, math.cos(turn), math.sin(turn)
        square = [(x + c * dx - s * dy, y + s * dx + c * dy)
                  for dx, dy in ((-h, -h), (h, -h), (h, h), (-h, h))]
        return self.project(np.array(square), DISC_Z)


def off_every_mat(scene: Scene, x: float, y: float) -> bool:
    """Whether Noah's disc at ``(x, y)`` lies off every mat (he stands beside one)."""
    return all(not _on_mat(f, x, y, NOAH_DISC_MM / 2) for f in scene.ferries)


def _on_mat(ferry: Ferry, x: float, y: float, pad: float) -> bool:
    origin = np.array(ferry.to_table(MAT_MM[0] / 2, MAT_MM[1] / 2))
    across = np.array(ferry.to_table(MAT_MM[0] / 2 + 1, MAT_MM[1] / 2)) - origin
    along = np.array(ferry.to_table(MAT_MM[0] / 2, MAT_MM[1] / 2 - 1)) - origin
    offset = np.array((x, y)) - origin
    return bool(abs(offset @ across) < MAT_MM[0] / 2 + pad
                and abs(offset @ along) < MAT_MM[1] / 2 + pad)


def spots(scene: Scene, rng: random.Random, count: int, within: float
          ) -> Iterator[tuple[float, float, int, float]]:
    """Up to ``count`` spots for Noah (table mm), each with its true ferry and gap: off every
    mat, 60-170 mm from a mat centre, within ``within`` mm of a tie."""
    made = 0
    for _ in range(count * 40):
        if made == count:
            return
        mat = rng.choice(scene.ferries)
        reach, angle = rng.uniform(60, 170), rng.uniform(0, 2 * math.pi)
        x, y = mat.x + reach * math.cos(angle), mat.y + reach * math.sin(angle)
        ferry, gap = nearest_two(scene, x, y)
        if gap <= within and off_every_mat(scene, x, y):
            made += 1
            yield x, y, ferry, gap


def sweep(seeds: Iterable[int], spots_each: int, *, hidden: float, within: float,
          noise: float = CORNER_NOISE, seed: int = 19) -> dict[str, Counter[str]]:
    """Noah right / wrong / silent over ``spots_each`` spots a scene, by true gap (the bins of
    :data:`GAP_BINS`, and ``"all"``); each mat seen by one marker with probability ``hidden``,
    every corner jittered by ``noise`` of its marker's side."""
    rng, jitter = random.Random(seed), np.random.default_rng(seed)
    said: dict[str, Counter[str]] = {}
    for scene_seed in seeds:
        table = Projected(scene_for_seed(scene_seed, TEXTS))
        for x, y, truth, gap in spots(table.scene, rng, spots_each, within):
            markers = [Marker(NOAH_MARKER, _jittered(table.noah(x, y, rng.uniform(0, 6.3)),
                                                     noise, jitter))]
            for ferry in FERRIES:
                ids = marker_ids(ferry)
                for i in ((rng.choice(ids),) if rng.random() < hidden else ids):
                    markers.append(Marker(i, _jittered(table.corners[i], noise, jitter)))
            answer = noah_ferry(markers[0].centre, mat_poses(markers))
            verdict = "silent" if answer is None else "right" if answer == truth else "wrong"
            for key in ("all", _gap_bin(gap)):
                said.setdefault(key, Counter())[verdict] += 1
    return said


def _jittered(corners: np.ndarray, noise: float, jitter: np.random.Generator) -> np.ndarray:
    side = float(np.mean(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)))
    return (corners + jitter.normal(0.0, noise * side, corners.shape)).astype(np.float32)


def _gap_bin(gap: float) -> str:
    """The gap's bin, as text.

    >>> _gap_bin(0.5), _gap_bin(12.0), _gap_bin(40.0)
    ('0-2 mm', '10-15 mm', '25+ mm')
    """
    low = max(b for b in GAP_BINS if b <= gap)
    if low == GAP_BINS[-1]:
        return f"{low:g}+ mm"
    return f"{low:g}-{GAP_BINS[GAP_BINS.index(low) + 1]:g} mm"


# -- the bench target ----------------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--first-seed", type=int, default=2000,
                        help="the first scene seed (default 2000: not the DEV set, 1000-1199, "
                             "nor a held-out one)")
    parser.add_argument("--scenes", type=int, default=200, help="scene cameras (default 200)")
    parser.add_argument("--spots", type=int, default=20, help="Noah spots a scene (default 20)")
    parser.add_argument("--hidden", type=float, default=0.4,
                        help="each mat seen by one marker with this probability (default 0.4)")
    parser.add_argument("--within", type=float, default=25.0,
                        help="spots within this many mm of a tie (default 25)")
    parser.add_argument("--noise", type=float, default=2 * CORNER_NOISE,
                        help="corner jitter, a share of a marker's side (default 0.012: twice "
                             "the DEV frames')")


def run(args: argparse.Namespace) -> int:
    seeds = range(args.first_seed, args.first_seed + args.scenes)
    said = sweep(seeds, args.spots, hidden=args.hidden, within=args.within, noise=args.noise)
    report: dict[str, Any] = {"seeds": [seeds[0], seeds[-1]], "spots": args.spots,
                              "hidden": args.hidden, "within": args.within,
                              "noise": args.noise, "said": {k: dict(v) for k, v in said.items()}}
    if getattr(args, "json", False):
        print(json.dumps(report, indent=2))
        return 0
    print(f"Noah sweep: scenes {seeds[0]}-{seeds[-1]}, {args.spots} spots each within "
          f"{args.within:g} mm of a tie, one-marker mats {args.hidden:.0%}, corner noise "
          f"{args.noise:.1%} of a side")
    for key in ["all", *(_gap_bin(low) for low in GAP_BINS)]:
        counts = said.get(key, Counter())
        print(f"  {key:>9}: right {counts['right']:5d}  wrong {counts['wrong']:3d}  "
              f"silent {counts['silent']:5d}")
    return 0
