"""The quiet-zone band made cheaper, the same bits (issue 19, branch tband2;
vision/table_edges.py): the grid warped once for the band and the highlight look, the module
means as exact slice sums, the surfaces, shares and edge dips made in place. Each is checked
against a written-out copy of the code it replaced, on random codes lit from one side, with a
card's outline beside them, under a glow, and as a float image (whose means numpy still takes)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.table.test_fit_exact import random_code
from vision import table_edges
from vision.table_edges import (
    BAND_PX,
    MAX_DARK_AREA,
    MIN_CONTRAST,
    PAPER_SHARE,
    SHADE_REACH,
    _band_mask,
    _grid_axis,
    _least_squares,
    _margin,
    code_grid,
)
from vision.table_median import median

# -- the code as it was (main before branch tband2) --------------------------------------------


def surface_as_it_was(means: np.ndarray, mask: np.ndarray, n: int, margin: int) -> np.ndarray:
    c = _least_squares(mask.tobytes(), n) @ means[mask].astype(np.float64)
    at, squared, product = _grid_axis(n, margin)
    across = (c[0] + c[1] * at + c[3] * squared)[np.newaxis, :]
    down = (c[2] * at + c[4] * squared)[:, np.newaxis]
    return (across + down + c[5] * product).astype(np.float32)


def paper_shares_as_they_were(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray
                              ) -> np.ndarray | None:
    n, k, margin = expected.shape[0], BAND_PX, _margin()
    grid = code_grid(gray, corners, n, k, margin)
    inner = grid[margin * k:(margin + n) * k, margin * k:(margin + n) * k]
    means = inner.reshape(n, k, n, k)[:, 1:-1, :, 1:-1].mean(axis=(1, 3))
    if float(median(means[~expected]) - median(means[expected])) < MIN_CONTRAST:
        return None
    light, dark = (surface_as_it_was(means, mask, n, margin) for mask in (~expected, expected))
    shares = (grid - dark) / np.maximum(light - dark, MIN_CONTRAST / 2)
    return np.asarray(cv2.blur(shares, (k, k)))


def dips_as_they_were(shares: np.ndarray) -> np.ndarray:
    near, far = (round(m * BAND_PX) for m in SHADE_REACH)
    padded = np.pad(shares, far, mode="edge")
    rows, cols = shares.shape

    def shifted(down: int, across: int) -> np.ndarray:
        return padded[far + down:far + down + rows, far + across:far + across + cols]

    deepest = np.full(shares.shape, -np.inf, np.float32)
    for step in range(near, far + 1):
        for down, across in ((step, 0), (0, step)):
            sides = (shifted(-down, -across) + shifted(down, across)) / 2
            np.maximum(deepest, sides - shares, out=deepest)
    return deepest


def clear_as_it_was(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> bool:
    shares = paper_shares_as_they_were(gray, corners, expected)
    if shares is None:
        return False
    band = _band_mask(expected.shape[0])
    if float((shares < PAPER_SHARE)[band].sum()) / BAND_PX ** 2 <= MAX_DARK_AREA:
        return True
    grid = code_grid(gray, corners, expected.shape[0], BAND_PX, _margin())  # warped again
    return (table_edges._only_shade(shares, band)
            and not table_edges._under_a_highlight(grid, expected)
            and not table_edges._line_beside(gray, corners, expected))


# -- the cases ---------------------------------------------------------------------------------


def _lit(image: np.ndarray, corners: np.ndarray, look: str, seed: int) -> np.ndarray:
    """The code's image under ``look``: as drawn, lit from one side, a card's outline beside
    the code, or a glow over its band's corner."""
    rows, cols = np.mgrid[0:image.shape[0], 0:image.shape[1]]
    light = image.astype(np.float64)
    left, top = corners.min(axis=0)
    if look == "side light":
        light *= 0.45 + 0.55 * cols / cols.max()
    elif look == "outline":
        column = int(left) - 2 - seed % 4  # a module or so left of the code
        light[:, column:column + 2] *= 0.5
    elif look == "glow":
        light += 90 * np.exp(-((cols - left) ** 2 + (rows - top) ** 2) / 400.0)
    return np.clip(np.round(light), 0, 255).astype(np.uint8)


LOOKS = ("as drawn", "side light", "outline", "glow")


def _cases() -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    cases = []
    for seed in range(5):
        image, corners, expected, _ = random_code(seed)
        for look in LOOKS:
            lit = _lit(image, corners, look, seed)
            cases += [(lit, corners, expected), (lit.astype(np.float32) + 0.3, corners, expected)]
    return cases


CASES = _cases()


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_band_judges_as_it_did(case):
    """Issue 19: every verdict and every share the same bits as the code it replaced (8-bit
    images, whose means are slice sums now, and float ones, whose means numpy still takes)."""
    gray, corners, expected = CASES[case]
    theirs = paper_shares_as_they_were(gray, corners, expected)
    ours = table_edges.paper_shares(gray, corners, expected)
    assert (ours is None) == (theirs is None)
    if theirs is not None:
        assert ours is not None and ours.dtype == theirs.dtype
        assert ours.tobytes() == theirs.tobytes()
        assert table_edges._dips(ours).tobytes() == dips_as_they_were(theirs).tobytes()
    assert table_edges.quiet_zone_is_clear(gray, corners, expected) \
        == clear_as_it_was(gray, corners, expected)


def test_the_cases_reach_every_look():
    """The cases are not all the quick path: some bands are judged, some darker than paper
    (the shade, highlight and line looks run), some clear and some not."""
    judged = dark = shade_like = clear = 0
    for gray, corners, expected in CASES:
        shares = paper_shares_as_they_were(gray, corners, expected)
        if shares is None:
            continue
        judged += 1
        band = _band_mask(expected.shape[0])
        darker = float((shares < PAPER_SHARE)[band].sum()) / BAND_PX ** 2 > MAX_DARK_AREA
        dark += darker
        shade_like += darker and table_edges._only_shade(shares, band)  # the highlight look
        clear += clear_as_it_was(gray, corners, expected)
    assert judged == len(CASES)
    assert 0 < shade_like < dark < judged and 0 < clear < judged
