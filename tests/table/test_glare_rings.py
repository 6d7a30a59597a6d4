"""The glare rule's quiet-zone samples without the module centres once sampled beside them and
never looked at (issue 19, branch tjudge3): each point is sampled alone, so the rings' samples
are the very values they were."""

from __future__ import annotations

import numpy as np
import pytest

from tests.table.test_fit_exact import random_code
from vision.table_codes import _ring, _rings, _sampled
from vision.table_glare import OUTER_RING, _quiet_zone_rings


def rings_sampled_as_they_were(gray: np.ndarray, corners: np.ndarray, n: int) -> np.ndarray:
    """The glare rule's samples as they were taken: every module's centre, then the rings."""
    inside = [(c + 0.5, r + 0.5) for r in range(n) for c in range(n)]
    outer = np.array(_ring(n, -OUTER_RING), np.float32)
    points = np.concatenate([np.array(inside, np.float32), _rings(n).reshape(-1, 2), outer])
    return _sampled(gray, corners, points.reshape(-1, 1, 2), n)[n * n:]


@pytest.mark.parametrize("seed", range(8))
def test_the_rings_samples_are_the_ones_taken_with_the_centres(seed):
    """Random codes (versions 1 and 2), on zxing-cpp's corners and corners two pixels off:
    every quiet-zone sample the same float."""
    image, corners, expected, _ = random_code(seed)
    n = expected.shape[0]
    rng = np.random.default_rng(seed)
    for grid in (corners, corners + rng.uniform(-2, 2, corners.shape).astype(np.float32)):
        ours = _sampled(image, grid, _quiet_zone_rings(n), n)
        assert np.array_equal(ours, rings_sampled_as_they_were(image, grid, n))
