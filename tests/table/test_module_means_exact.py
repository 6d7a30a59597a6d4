"""A code's module means summed as strided slices, the same floats (issue 19, branch tjudge3):
``vision.table_codes._middle_means`` against numpy's mean over each module's middle pixels, as
``_warped_module_means`` took it before."""

from __future__ import annotations

import numpy as np
import pytest

from tests.table.test_fit_exact import random_code
from vision.table_codes import MODULE_GRID_PX, _middle_means, _warped_module_means


def means_as_they_were(grid: np.ndarray, n: int, k: int) -> np.ndarray:
    return grid.reshape(n, k, n, k)[:, 1:-1, :, 1:-1].astype(np.float32).mean(axis=(1, 3))


def test_every_possible_sum_gives_numpys_mean():
    """A module's mean depends on its nine 8-bit levels' sum alone (whole numbers, summed
    exactly): each of the 2,296 sums, laid out in a 5-pixel grid, gives numpy's very float."""
    k = MODULE_GRID_PX
    sums = np.arange(9 * 255 + 1)
    levels = np.minimum(np.maximum(sums[:, None] - 255 * np.arange(9), 0), 255)  # sum each
    modules = np.zeros((len(sums), k, k), np.uint8)
    modules[:, 1:-1, 1:-1] = levels.reshape(-1, 3, 3)
    side = 48  # 2,304 modules, the last 8 of them blank
    grid = np.zeros((side * side, k, k), np.uint8)
    grid[:len(sums)] = modules
    grid = grid.reshape(side, side, k, k).transpose(0, 2, 1, 3).reshape(side * k, side * k)
    ours, theirs = _middle_means(grid, side, k), means_as_they_were(grid, side, k)
    assert ours.dtype == theirs.dtype == np.float32 and np.array_equal(ours, theirs)
    assert np.array_equal(ours.ravel()[:len(sums)] * 9, sums.astype(np.float32))  # laid out


@pytest.mark.parametrize("seed", range(6))
def test_a_codes_means_are_numpys(seed):
    """On random codes' warped grids (versions 1 and 2, noisy), every module's mean is the
    same float32 as numpy's."""
    image, corners, expected, _ = random_code(seed)
    n, k = expected.shape[0], MODULE_GRID_PX
    rng = np.random.default_rng(seed)
    grid = rng.integers(0, 256, (n * k, n * k)).astype(np.uint8)
    assert np.array_equal(_middle_means(grid, n, k), means_as_they_were(grid, n, k))
    warped = _warped_module_means(image, corners, n)
    assert warped.dtype == np.float32 and not warped.flags.writeable
