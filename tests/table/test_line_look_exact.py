"""The line look beside a noisy code a third cheaper, the same numbers (issue 19, branch
tjudge3): ``vision.table_lines`` gathers the lines' blocks with ``np.take`` and takes the
neighbourhoods' maxima pairwise; checked here against the code they replaced, written out as
it was, on the blocks and means of random codes and of random numbers."""

from __future__ import annotations

import numpy as np
import pytest

from tests.table.test_fit_exact import random_code
from vision.table_edges import code_grid
from vision.table_lines import (
    _MARGIN,
    ANGLES,
    LINE_PX,
    NEIGHBOURS,
    _below_neighbours,
    _line_means,
    _lines,
    _strip_blocks,
)


def line_means_as_they_were(blocks: np.ndarray, n: int) -> np.ndarray:
    through, lengths = _lines(n)
    padded = np.vstack([blocks, np.zeros((1, blocks.shape[1]), blocks.dtype)])
    sums = padded[through].sum(axis=1).reshape(len(ANGLES), -1, blocks.shape[1])
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(lengths[:, :, np.newaxis] > 0, sums / lengths[:, :, np.newaxis], np.nan)


def below_neighbours_as_it_was(means: np.ndarray) -> np.ndarray:
    near, far = (round(m * LINE_PX) for m in NEIGHBOURS)
    padded = np.pad(np.nan_to_num(means, nan=-np.inf), ((0, 0), (far, far), (0, 0)),
                    constant_values=-np.inf)
    count = means.shape[1]
    inward = np.max([padded[:, far - s:far - s + count] for s in range(near, far + 1)], axis=0)
    outward = np.max([padded[:, far + s:far + s + count] for s in range(near, far + 1)], axis=0)
    return np.minimum(inward, outward) - np.nan_to_num(means, nan=np.inf)


@pytest.mark.parametrize("seed", range(6))
def test_the_lines_means_and_dips_are_the_ones_they_were(seed):
    """A random code's strip blocks (versions 1 and 2), and random float blocks: every line's
    mean and every depth below its neighbours the same float, NaN and -inf where they were."""
    image, corners, expected, _ = random_code(seed)
    n = expected.shape[0]
    grid = code_grid(image, corners, n, LINE_PX, _MARGIN)
    rng = np.random.default_rng(seed)
    for blocks in (_strip_blocks(grid, n),
                   rng.uniform(0, 255, _strip_blocks(grid, n).shape).astype(np.float32)):
        ours, theirs = _line_means(blocks, n), line_means_as_they_were(blocks, n)
        assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs, equal_nan=True)
        below = _below_neighbours(ours)
        assert np.array_equal(below, below_neighbours_as_it_was(theirs), equal_nan=True)
