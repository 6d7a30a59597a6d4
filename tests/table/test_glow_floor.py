"""The band under a weak highlight's glow judged against the light without the glow (issue 19
§3, branch ``tweak4``; vision/table_edges.py, ``_only_glow``, and
vision/table_glare.py, ``levels_by_the_light``): a glow that lifts most of a code's dark
modules lifts the one dark level the band was judged by, and the paper beyond the glow fell
below :data:`~vision.table_edges.GLOW_FLOOR` with nothing there (tdim4's 6143 f3, 6430 f1: dim
side light and a weak highlight). Judged against planes of the code's unlit light and dark
modules it is paper; a card's dark art lying in the band is still far below them."""

from __future__ import annotations

import numpy as np
import pytest

import vision.table_edges as edges
from vision.table_edges import BAND_PX, GLOW_FLOOR, _band_mask, _margin, _only_glow

N_MODULES = 21
EXPECTED = np.random.default_rng(5).random((N_MODULES, N_MODULES)) < 0.5  # dark = True


def _grid(dark_in_the_band: tuple[float, float, float, float] | None = None) -> np.ndarray:
    """The band's grid (:func:`vision.table_edges.code_grid`'s shape) of a code on paper of
    grey 160, its ink 80, a side light from the lower right (one grey level a module) and a
    weak glow of 70 over the code's upper half (a Gaussian 12 modules wide: it lifts most dark
    modules, saturates nothing). ``dark_in_the_band``: rows and columns (modules from the
    code's corner) where a card's dark art lies, grey 90 under the same light."""
    k, margin = BAND_PX, _margin()
    size = N_MODULES + 2 * margin
    modules = np.full((size, size), 160.0)
    modules[margin:-margin, margin:-margin] -= 80 * EXPECTED
    y, x = (np.mgrid[0:size * k, 0:size * k] + 0.5) / k - margin
    light = (x + y) + 70 * np.exp(-(((x - 10.5) / 12) ** 2 + ((y - 6) / 12) ** 2))
    grid = np.kron(modules, np.ones((k, k))) + light
    if dark_in_the_band is not None:
        top, bottom, left, right = (round((at + margin) * k) for at in dark_in_the_band)
        grid[top:bottom, left:right] = 90 + light[top:bottom, left:right]
    return grid.astype(np.float32)


def _one_level(grid: np.ndarray) -> float:
    """The band's lowest level against the code's one dark level and contrast (main's floor)."""
    k, margin, n = BAND_PX, _margin(), N_MODULES
    inner = grid[margin * k:(margin + n) * k, margin * k:(margin + n) * k]
    means = inner.reshape(n, k, n, k)[:, 1:-1, :, 1:-1].mean(axis=(1, 3))
    light, dark = np.median(means[~EXPECTED]), np.median(means[EXPECTED])
    return float(((grid - dark) / (light - dark))[_band_mask(n)].min())


def test_paper_beyond_a_glow_that_lifts_the_dark_modules_is_paper(monkeypatch):
    """The glow lifts the code's dark level: the paper below the code, beyond the glow, lies
    under GLOW_FLOOR of the one level's way. Against the planes of the unlit light it is
    paper: the band is the glow's. Judged by the one level (the rule off): refused."""
    grid = _grid()
    assert _one_level(grid) < GLOW_FLOOR
    assert _only_glow(grid, EXPECTED, _band_mask(N_MODULES))
    monkeypatch.setattr(edges, "GLOW_BY_THE_LIGHT", False)
    assert not _only_glow(grid, EXPECTED, _band_mask(N_MODULES))


@pytest.mark.parametrize("where", [
    (-3.0, -0.7, 0.0, 21.0),    # along the top, under the glow
    (-3.0, -0.7, 5.0, 12.0),    # a part of it, under the glow's peak
    (21.7, 24.0, 0.0, 21.0),    # along the bottom, beyond the glow
    (-3.0, 24.0, 21.7, 24.0),   # down the right side
    (21.7, 24.0, -3.0, 3.0),    # round the lower left corner, the band's darkest paper
])
def test_a_cards_dark_art_in_the_band_is_not_glow(monkeypatch, where):
    """A covering card's dark art lying in the band, under the glow or beyond it: far below
    the unlit planes too, so refused — even were no dip counted (the floor holds it)."""
    grid = _grid(where)
    monkeypatch.setattr(edges, "_dips_along_lines", lambda *args: 0.0)
    assert not _only_glow(grid, EXPECTED, _band_mask(N_MODULES))
