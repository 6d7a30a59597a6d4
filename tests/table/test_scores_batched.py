"""A grid fit's scores taken at most 16 grids a product, the same bits (issue 19, branch
tjudge3): scored in one product, the shift's 121 grids made OpenBLAS share the work with
worker threads that cost 10–40 times what they did (``vision.table_codes.FIT_BATCH``). Checked
here against the one product written out as it was."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.table.test_fit_exact import random_code
from vision.table_codes import _GridFit, _square_to_quad, shifted_corners


def scores_in_one_product(fit: _GridFit, quads: np.ndarray) -> np.ndarray:
    """``_GridFit.scores`` as it was: every grid's maps, samples and score in one product."""
    x, y = _square_to_quad(quads, fit.points)
    rows = (-1, 4 * fit.n)
    values = cv2.remap(fit.patch, x.reshape(rows), y.reshape(rows), cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    result: np.ndarray = values.reshape(len(quads), -1).astype(np.float32) @ fit.weights
    return result.astype(np.float64)


@pytest.mark.parametrize("seed", range(8))
def test_scores_in_batches_are_the_one_products_bits(seed):
    """121 grids (the shift's), 33 and 17 (a last batch of one joined to the one before: on
    this machine's OpenBLAS a product of one row is summed otherwise than the same row among
    others), on version 1 and 2 codes: every score the same float64 as in one product."""
    image, corners, expected, _ = random_code(seed)
    fit = _GridFit(image, corners, expected)
    rng = np.random.default_rng(seed)
    for count in (121, 33, 17):
        quads = fit.start[None] + rng.uniform(-1.5, 1.5, (count, 4, 2))
        batched, whole = fit.scores(quads), scores_in_one_product(fit, quads)
        assert batched.dtype == whole.dtype and np.array_equal(batched, whole)


@pytest.mark.parametrize("seed", range(4))
def test_the_shift_chooses_the_same_grid(seed, monkeypatch):
    """``shifted_corners`` (the only caller with more than 16 grids) picks the very corners it
    picked on one product of its 121 grids."""
    image, corners, expected, _ = random_code(seed)
    batched = shifted_corners(image, corners, expected)
    monkeypatch.setattr(_GridFit, "scores", scores_in_one_product)
    assert np.array_equal(batched, shifted_corners(image, corners, expected))
