"""Noah is never placed at a wrong ferry (TABLE-KIT.md: "Noah is never placed at a wrong
ferry"; issue 19): a slice of :mod:`vision.table_noah_sweep`, Noah's spots round the mats of
varied scene cameras (a lean up to 25°, lens distortion, the binned mode), the kit's corners
projected and jittered by twice the DEV frames' corner noise, some or all mats seen by one
marker. ``noah-companion bench noah`` runs the large sweep (docs/benchmarks.md, branch
``tnoah``)."""

import math

import numpy as np
import pytest

from vision.table_kit import FERRIES, NOAH_MARKER
from vision.table_markers import Marker, mat_poses, noah_ferry
from vision.table_noah_sweep import (
    CORNER_NOISE,
    TEXTS,
    Projected,
    nearest_two,
    off_every_mat,
    sweep,
)
from vision.table_scenes import scene_for_seed

SEEDS = range(2000, 2016)  # fresh seeds (DEV is 1000-1199): 4 lean 20-25°, 3 binned


@pytest.mark.parametrize(("hidden", "within"), [(0.4, 25.0), (1.0, 120.0)])
def test_noah_never_at_a_wrong_ferry_near_ties(hidden, within):
    """Near ties, tilted cameras, one-marker mats (all of them at ``hidden`` = 1, where only a
    wide gap names Noah): never wrong, and not all silence (Noah clearly nearer one mat is
    named)."""
    said = sweep(SEEDS, 5, hidden=hidden, within=within, noise=2 * CORNER_NOISE)["all"]
    assert said["wrong"] == 0, said
    assert said["right"] >= 0.1 * sum(said.values()), said


@pytest.mark.parametrize("seed", [2004, 2020])
def test_a_leaning_table_of_one_marker_mats_keeps_the_wide_margin(seed):
    """The sweep's hole: a camera leaning 24.7°, every mat placed by one marker (its top one),
    no corner noise at all. Noah within 25 mm of a tie: the similarities, 15 mm margin, put him
    at a wrong ferry on 176 of 2,780 spots round the mats of table 2004 and 170 of 2,644 of
    table 2020 (the same scan, finer; 2 and 1 of this one); with no mat placed by two markers
    the margin is now ``NOAH_TIE_NO_PLANE_MM``, and none is wrong."""
    table = Projected(scene_for_seed(seed, TEXTS))
    assert table.scene.camera.tilt > 20
    said = {"right": 0, "wrong": 0, "silent": 0}
    for mat in table.scene.ferries:
        for angle in np.linspace(0, 2 * math.pi, 36, endpoint=False):
            for reach in (90.0, 120.0, 150.0):
                x, y = mat.x + reach * math.cos(angle), mat.y + reach * math.sin(angle)
                ferry, gap = nearest_two(table.scene, x, y)
                if ferry != mat.ferry or gap > 25 or not off_every_mat(table.scene, x, y):
                    continue
                markers = [Marker(NOAH_MARKER, table.noah(x, y, 0.0).astype(np.float32))]
                markers += [Marker(2 * k - 2, table.corners[2 * k - 2].astype(np.float32))
                            for k in FERRIES]
                answer = noah_ferry(markers[0].centre, mat_poses(markers))
                said["silent" if answer is None else "right" if answer == ferry
                     else "wrong"] += 1
    assert said["wrong"] == 0 and sum(said.values()) > 20, said
