"""The grid fit's arithmetic on plain floats, the same bits (issue 19, branch tjudge3):
``vision.table_codes._square_to_quad`` builds each quad's map rows with Python's floats
instead of numpy's arrays of 1–16 quads (the same IEEE double operations, in the same order),
and a round's trials are checked against the fit's limit on their moved coordinate alone
(``_moves_allowed``); both checked against the arrays' code as it was. The fitted corners
themselves are checked whole in tests/table/test_judging_order.py."""

from __future__ import annotations

import numpy as np
import pytest

from tests.table.test_fit_exact import reference_square_to_quad
from vision.table_codes import (
    _UNIT_MOVES,
    _fit_points,
    _moves_allowed,
    _square_to_quad,
    _trials,
)


@pytest.mark.parametrize("trials", [1, 16, 17])
def test_the_maps_on_plain_floats_are_numpys_bits(trials):
    """Tilted, skewed and far-off quads (the fit's single grid, its round of 16, and the
    shift's last batch of 17): every x and y the same float32 as numpy's arrays gave."""
    rng = np.random.default_rng(trials)
    square = np.array([(0, 0), (84, 0), (84, 84), (0, 84)], float)
    points = _fit_points(21)
    for spread in (0.5, 6.0, 20.0):
        for _ in range(120):
            quads = (square * rng.uniform(0.3, 3.0) + rng.normal(0, spread, (trials, 4, 2))
                     + rng.uniform(0, 2000, (1, 1, 2)))
            for ours, theirs in zip(_square_to_quad(quads, points),
                                    reference_square_to_quad(quads, points), strict=True):
                assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs)


def test_a_rounds_allowed_trials_are_the_ones_numpy_allowed():
    """``_moves_allowed`` checks each trial's moved coordinate alone: for a best grid within
    the limit (as every grid the fit moves to is), the very trials numpy's check of all eight
    coordinates allowed, at the limit's edge too."""
    rng = np.random.default_rng(7)
    for _ in range(2000):
        reach, step = rng.uniform(0.5, 3.0), rng.uniform(0.05, 1.0)
        start = rng.uniform(0, 400, 8)
        best = start + rng.uniform(-1, 1, 8) * reach * rng.choice([0.0, 0.5, 1.0, 1.0], 8)
        trials = best.reshape(1, 8) + _UNIT_MOVES * step
        theirs = (np.abs(trials - start.reshape(1, 8)) <= reach).all(axis=1).tolist()
        assert _moves_allowed(best.tolist(), start.tolist(), step, reach) == theirs


def test_a_rounds_trials_on_plain_floats_are_numpys():
    """``_trials``: the round's 16 grids as plain floats, the very floats of numpy's
    ``best + _UNIT_MOVES * step`` (coordinates in a patch: positive)."""
    rng = np.random.default_rng(8)
    for _ in range(500):
        best, step = rng.uniform(0.5, 400, 8), rng.uniform(0.05, 1.0)
        assert _trials(best.tolist(), step) == (best.reshape(1, 8) + _UNIT_MOVES * step).tolist()
