"""The corner look's sampling maps worked out once a version and corner, the same floats (issue
19 §4, branch tcost3; vision/table_corners.py): :func:`_leg_dips` against a written-out copy of
the code it replaced (main before tcost3), which worked the maps out on every call, on random
codes of both versions, as drawn and with a light card's corner laid beside one of their
corners; and the whole look's answer on each."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.table.test_fit_exact import random_code
from vision.table_corners import (
    _CORNERS,
    _MARGIN,
    CORNER_PX,
    LEG,
    SIDE,
    _candidates,
    _leg_dips,
    _leg_maps,
    card_corner_beside,
)
from vision.table_edges import code_grid

# -- the code as it was (main before branch tcost3) ---------------------------------------------


def leg_dips_as_they_were(grid: np.ndarray, n: int, corner: int) -> np.ndarray:
    x0, y0, sx, sy = _CORNERS[corner](n)
    points, directions = _candidates(sx, sy)
    dips = []
    for direction in directions:
        normal = np.stack([-direction[..., 1], direction[..., 0]], axis=-1)
        means = []
        for across in ((0.0,), SIDE, tuple(-s for s in SIDE)):
            at = (points[..., np.newaxis, np.newaxis, :]
                  + direction[..., np.newaxis, np.newaxis, :] * np.array(LEG)[:, None, None]
                  + normal[..., np.newaxis, np.newaxis, :] * np.array(across)[None, :, None])
            origin = np.array([x0 + _MARGIN, y0 + _MARGIN], float)
            pixels = ((at + origin) * CORNER_PX - 0.5).astype(np.float32)
            rows = pixels.reshape(-1, len(LEG) * len(across), 2)
            values = cv2.remap(grid, rows[..., 0], rows[..., 1], cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
            means.append(values.reshape(at.shape[:-1]).mean(axis=(-2, -1)))
        line, plus, minus = means
        dips.append(np.maximum(plus, minus) - line)
    return np.stack(dips)


# -- the cases ----------------------------------------------------------------------------------


def _with_a_card_corner(image: np.ndarray, corners: np.ndarray, n: int, corner: int
                        ) -> np.ndarray:
    """A light card's dark outline meeting 2 modules out from the code's ``corner``."""
    covered = image.copy()
    module = float(np.linalg.norm(corners[1] - corners[0])) / n
    _, _, sx, sy = _CORNERS[corner](n)
    x, y = (corners[corner] + 2 * module * np.array([sx, sy], np.float32)).round().astype(int)
    far_x, far_y = (0 if sx < 0 else covered.shape[1]), (0 if sy < 0 else covered.shape[0])
    xs, ys = sorted((x, far_x)), sorted((y, far_y))
    covered[ys[0]:ys[1], xs[0]:xs[1]] = 190
    covered[ys[0]:ys[1], x] = 60
    covered[y, xs[0]:xs[1]] = 60
    return covered


CASES = [(seed, card) for seed in (1, 2, 3, 4) for card in (None, seed % 4)]


@pytest.mark.parametrize(("seed", "card"), CASES)
def test_leg_dips_are_the_old_floats(seed: int, card: int | None) -> None:
    image, corners, expected, _ = random_code(seed)
    n = expected.shape[0]
    if card is not None:
        image = _with_a_card_corner(image, corners, n, card)
    grid = code_grid(image, corners, n, CORNER_PX, _MARGIN)
    for corner in range(4):
        new, old = _leg_dips(grid, n, corner), leg_dips_as_they_were(grid, n, corner)
        assert (new.dtype, new.shape) == (old.dtype, old.shape)
        assert new.tobytes() == old.tobytes()


def test_the_cases_cover_both_versions_and_both_answers() -> None:
    """The cases above reach codes of version 1 and 2, and the look says yes on some of them
    (a card's corner seen) and no on others: identity on both answers' dips."""
    versions, answers = set(), set()
    for seed, card in CASES:
        image, corners, expected, _ = random_code(seed)
        if card is not None:
            image = _with_a_card_corner(image, corners, expected.shape[0], card)
        versions.add(expected.shape[0])
        answers.add(card_corner_beside(image, corners, expected))
    assert versions == {21, 25}
    assert answers == {True, False}


def test_the_kept_maps_are_read_only_and_shared() -> None:
    maps = _leg_maps(21, 2)
    assert maps is _leg_maps(21, 2)
    for leg_maps in maps:
        for map_x, map_y, _ in leg_maps:
            assert not map_x.flags.writeable and not map_y.flags.writeable
            assert map_x.flags.c_contiguous and map_x.dtype == np.float32
