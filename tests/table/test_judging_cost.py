"""Judging a code cheaper, every verdict the same (issue 19, branch tbin2): the judgement's
medians (:func:`vision.table_median.median`) are ``np.median``'s very numbers, bit for bit and
of the same type, and the quiet-zone band's light surfaces, made from terms kept once, are the
straightforward ones to the last bit; so every verdict stays what it was."""

from __future__ import annotations

import numpy as np
import pytest

from vision.table_edges import _grid_axis, _least_squares, _margin, _surface
from vision.table_median import median


def same(ours: object, theirs: object) -> bool:
    return type(ours) is type(theirs) and np.asarray(ours).tobytes() == np.asarray(
        theirs).tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_median_is_numpys_bit_for_bit(dtype: type) -> None:
    """Odd and even counts (an even count's two middle values summed and halved in the values'
    own precision: the last bit of a float32 sum), ties, levels far apart and close."""
    rng = np.random.default_rng(19)
    for size in [1, 2, 3, 4, *rng.integers(5, 500, 300).tolist()]:
        spread = float(rng.choice([0.01, 5.0, 60.0]))
        values = rng.normal(120, spread, size).astype(dtype)
        if size % 3 == 0:
            values = np.round(values)  # ties
        assert same(median(values), np.median(values)), (size, spread)


def test_the_median_of_a_codes_modules_as_a_judgement_takes_it() -> None:
    """Module means (float32, 21 × 21) picked by the expected code's dark or light modules,
    and the quiet zone's float64 ring noise: the very numbers ``np.median`` gives."""
    rng = np.random.default_rng(7)
    for _ in range(50):
        means = rng.uniform(20, 240, (21, 21)).astype(np.float32)
        dark = rng.random((21, 21)) < 0.5
        for picked in (means[dark], means[~dark]):
            assert same(median(picked), np.median(picked))
        differences = rng.normal(0, 4, 176)
        assert same(median(np.abs(differences - median(differences))),
                    np.median(np.abs(differences - np.median(differences))))


def straightforward_surface(means: np.ndarray, mask: np.ndarray, n: int, margin: int
                            ) -> np.ndarray:
    """The band's quadratic surface as it was made before its terms were kept."""
    c = _least_squares(mask.tobytes(), n) @ means[mask].astype(np.float64)
    at = _grid_axis(n, margin)[0]
    across = (c[0] + c[1] * at + c[3] * at * at)[np.newaxis, :]
    down = (c[2] * at + c[4] * at * at)[:, np.newaxis]
    return (across + down + c[5] * np.multiply.outer(at, at)).astype(np.float32)


@pytest.mark.parametrize("n", [21, 25])
def test_the_bands_surfaces_are_the_straightforward_ones(n: int) -> None:
    """Light and dark surfaces of random module means (versions 1 and 2), bit for bit."""
    rng = np.random.default_rng(n)
    for _ in range(40):
        means = rng.uniform(20, 240, (n, n)).astype(np.float32)
        dark = rng.random((n, n)) < 0.5
        for mask in (dark, ~dark):
            ours = _surface(means, mask, n, _margin())
            theirs = straightforward_surface(means, mask, n, _margin())
            assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs)
