"""A code's quiet zone judged against the light where it lies: whether anything darker than
the sticker's paper shows in the band round a code, under a side light's gradient and a dim
room's sensor noise (issue 19; the top-card test is :func:`vision.table_codes.visibility`).

The quiet zone tells a top card's code from a buried one whose modules all show but over whose
sticker a covering card's edge passes. Point samples compared with one light level for the
whole code fail a top card under a light from one side (the paper on the far side is darker
than the code's median light module) and under noise (at a contrast of 8–18 times the noise a
tenth of the samples fall below any useful threshold). Here the band is looked at as the
sticker's paper lit as the code is lit: the code's own light and dark modules give the light
over the code as smooth surfaces (a side light is a slow gradient over 30 modules), extended
over the band, and the band's levels are taken as a share of the way from the dark surface to
the light one; each point of the band is then the mean of a module round it (noise divided by
the pixels a module holds, a card's thin outline still darker than the paper), and a patch
below :data:`PAPER_SHARE` larger than :data:`MAX_DARK_AREA` is something lying there. A sleeve's
weak highlight over the code bends the light surface up beyond it: there the band is judged
once more against the paper the highlight leaves out (:func:`paper_plane`).
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np

from vision.table_median import median

BAND = (0.7, 3.0)
"""Modules out from the code's edge. The sticker's quiet zone is 4 modules wide and its label
starts right after it: averaged over a module, a band reaching 3.3 modules touched the label's
first line on a grid a fifth of a module off (the examples' recording, a DEV frame)."""
BAND_PX = 4  # grid pixels per module
PAPER_SHARE = 0.85  # of the way from the dark surface to the light one: paper is above it
MAX_DARK_AREA = 0.5  # module²: more of the band darker than paper is a card's edge or corner
MIN_CONTRAST = 20.0  # grey levels between the code's light and dark modules: else not judged
PAPER_LIFT = 0.15  # of the code's contrast: a light module this far above the paper plane is lit
PAPER_ROUNDS = 5  # fits of the paper plane at most
HIGHLIGHT_PATCH = 12  # lit light modules touching one another: a highlight's patch, not noise


def quiet_zone_is_clear(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> bool:
    """Whether the band :data:`BAND` modules round the code (``corners``: its outer corners in
    ``gray``, top left first, clockwise; ``expected``: its modules, True = dark) shows only
    paper, judged against the light where it lies (see the module's docstring).

    >>> n, k = 21, 6
    >>> modules = np.zeros((n, n), bool); modules[::2, ::3] = True
    >>> code = np.pad(np.where(modules, 40, 230), 5, constant_values=230).astype(float)
    >>> ramp = np.linspace(0.55, 1.0, code.shape[1])  # light from the right
    >>> lit = np.kron(code * ramp, np.ones((k, k))).astype(np.uint8)
    >>> corners = np.array([(5 * k, 5 * k), (26 * k, 5 * k), (26 * k, 26 * k), (5 * k, 26 * k)],
    ...                    np.float32) - 0.5
    >>> quiet_zone_is_clear(lit, corners, modules)
    True
    >>> lit[:, 3 * k:3 * k + 3] = 60  # a card's outline two modules left of the code
    >>> quiet_zone_is_clear(lit, corners, modules)
    False
    """
    levels = _levels(gray, corners, expected)
    if levels is None:
        return False
    if _band_is_paper(levels.shares(levels.light)):
        return True
    # A sleeve's highlight over the code lifts a patch of its light modules, and the quadratic
    # fitted to them bulges up beyond the code: the paper there, lit as before, reads darker
    # than that bulge (issue 19: the weak highlights, 7-53 module² of the band). A highlight
    # only adds light: under one, the band is judged again against the paper beside it, where
    # that lies below the quadratic.
    paper = paper_plane(levels.means, ~expected, levels.contrast)
    return paper is not None and _band_is_paper(levels.shares(np.minimum(levels.light, paper)))


def paper_shares(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray
                 ) -> np.ndarray | None:
    """The code and its band on a grid of :data:`BAND_PX` pixels per module, each point's level
    as a share of the way from the dark surface to the light one (0: the code's ink, 1: its
    paper, lit where the point lies), averaged over a module round it; ``None`` when the code
    shows too little contrast to judge (washed out, or not a code at all)."""
    levels = _levels(gray, corners, expected)
    return None if levels is None else levels.shares(levels.light)


class _Levels(NamedTuple):
    """A code and its band on the band's grid, with the light over them."""

    grid: np.ndarray  # the code and its band, BAND_PX pixels a module
    means: np.ndarray  # the code's module means (n × n)
    contrast: float  # the median light module's level above the median dark one's
    light: np.ndarray  # the surface fitted to the light modules, over the grid
    dark: np.ndarray  # the surface fitted to the dark modules, over the grid

    def shares(self, light: np.ndarray) -> np.ndarray:
        """Each point's level as a share of the way from the dark surface to ``light``,
        averaged over a module round it."""
        import cv2

        shares = (self.grid - self.dark) / np.maximum(light - self.dark, MIN_CONTRAST / 2)
        return np.asarray(cv2.blur(shares, (BAND_PX, BAND_PX)))


def _levels(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> _Levels | None:
    """The code's grid, module means and fitted light and dark surfaces; ``None`` when the code
    shows too little contrast to judge."""
    n, k, margin = expected.shape[0], BAND_PX, _margin()
    grid = code_grid(gray, corners, n, k, margin)
    inner = grid[margin * k:(margin + n) * k, margin * k:(margin + n) * k]
    means = inner.reshape(n, k, n, k)[:, 1:-1, :, 1:-1].mean(axis=(1, 3))
    contrast = float(median(means[~expected]) - median(means[expected]))
    if contrast < MIN_CONTRAST:
        return None
    light, dark = (_surface(means, mask, n, margin) for mask in (~expected, expected))
    return _Levels(grid, means, contrast, light, dark)


def _band_is_paper(shares: np.ndarray) -> bool:
    """Whether no more than :data:`MAX_DARK_AREA` of the band lies below :data:`PAPER_SHARE`."""
    n = shares.shape[0] // BAND_PX - 2 * _margin()
    dark = (shares < PAPER_SHARE) & _band_mask(n)
    return float(dark.sum()) / BAND_PX ** 2 <= MAX_DARK_AREA


def code_grid(gray: np.ndarray, corners: np.ndarray, n: int, k: int, margin: int
              ) -> np.ndarray:
    """An n-module code and ``margin`` modules round it warped onto a square grid of ``k``
    pixels per module (float32; the code's outer corners ``corners`` land on the edges of the
    grid's pixels ``margin * k`` and ``(margin + n) * k - 1``).

    >>> image = np.zeros((40, 40), np.uint8); image[10:30, 10:30] = 200
    >>> square = np.array([(9.5, 9.5), (29.5, 9.5), (29.5, 29.5), (9.5, 29.5)], np.float32)
    >>> grid = code_grid(image, square, 4, 5, 1)
    >>> grid.shape, float(grid[5, 5]), float(grid[4, 4])
    ((30, 30), 200.0, 0.0)
    """
    import cv2

    size = (n + 2 * margin) * k
    lo, hi = margin * k - 0.5, (margin + n) * k - 0.5
    square = np.array([(lo, lo), (hi, lo), (hi, hi), (lo, hi)], np.float32)
    to_grid = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), square)
    grid = cv2.warpPerspective(gray, to_grid, (size, size), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(grid, np.float32)


def _surface(means: np.ndarray, mask: np.ndarray, n: int, margin: int) -> np.ndarray:
    """A quadratic surface fitted to the module means where ``mask`` holds, over the whole
    grid (code and band, :data:`BAND_PX` pixels per module)."""
    c = _least_squares(mask.tobytes(), n) @ means[mask].astype(np.float64)
    at, squared, product = _grid_axis(n, margin)  # the same along x and y: the grid is square
    across = (c[0] + c[1] * at + c[3] * squared)[np.newaxis, :]
    down = (c[2] * at + c[4] * squared)[:, np.newaxis]
    surface: np.ndarray = (across + down + c[5] * product).astype(np.float32)
    return surface


def paper_plane(means: np.ndarray, light: np.ndarray, contrast: float) -> np.ndarray | None:
    """The sticker's paper level over the band's grid as a plane, fitted to the code's light
    modules (``light``: n × n, True where a module is light; ``means``: the modules' means)
    with their blur taken into account, the modules a highlight lifts left out; ``None`` when
    no highlight lifts them: no patch of :data:`HIGHLIGHT_PATCH` light modules touching one
    another (side by side or corner to corner) lies more than :data:`PAPER_LIFT` of the
    ``contrast`` above the plane fitted to all of them.

    A light module's mean is the paper's level less what the blur brings in from its dark
    neighbours: each is fitted as ``a + b·u + c·v + d·f``, ``f`` the share of light modules
    among it and its eight neighbours (the quiet zone round the code counts as light); the
    paper is the level where ``f`` is 1. Light modules more than :data:`PAPER_LIFT` of the
    contrast above the fit are left out and the plane fitted again, until none is (at most
    :data:`PAPER_ROUNDS` fits, never on fewer than half the modules): a highlight only adds
    light. A plane, not a quadratic: the modules a broad highlight lifts a little stay in the
    fit, and a quadratic fitted with them bends up beyond the code.

    >>> n = 21; u = (np.arange(n) + 0.5) / n - 0.5
    >>> light = np.random.default_rng(1).random((n, n)) < 0.5
    >>> f = _light_share(light)
    >>> means = 40 * u[np.newaxis, :] + 40 + 150 * (0.4 + 0.6 * f)  # lit from the right
    >>> means[3:9, 3:9] += 30  # a highlight's bump
    >>> plane = paper_plane(means, light, 100.0)
    >>> at = BAND_PX * _margin()  # the grid's first pixel inside the code: u = -0.494
    >>> round(float(plane[at, at]), 1), round(float(plane[-at - 1, -at - 1]), 1)
    (170.2, 209.8)
    >>> means[3:9, 3:9] -= 30; print(paper_plane(means, light, 100.0))  # no highlight
    None
    """
    n, margin = means.shape[0], _margin()
    rows, cols = np.nonzero(light)
    u, v = (cols + 0.5) / n - 0.5, (rows + 0.5) / n - 0.5
    terms = np.stack([np.ones_like(u), u, v, _light_share(light)[light]], axis=-1)
    values = means[light].astype(np.float64)
    kept = np.ones(len(values), bool)
    for round_ in range(PAPER_ROUNDS):
        fit = np.linalg.lstsq(terms[kept], values[kept], rcond=None)[0]
        calm = values - terms @ fit < PAPER_LIFT * contrast
        if round_ == 0 and _largest_patch(light, rows[~calm], cols[~calm]) < HIGHLIGHT_PATCH:
            return None
        if calm.sum() < len(values) / 2 or bool((calm == kept).all()):
            break
        kept = calm
    at = _grid_axis(n, margin)[0]
    plane = fit[0] + fit[3] + fit[1] * at[np.newaxis, :] + fit[2] * at[:, np.newaxis]
    return np.asarray(plane, np.float32)


def _largest_patch(light: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> int:
    """The most modules at (``rows``, ``cols``) touching one another, side by side or corner to
    corner, in a code of ``light``'s shape."""
    import cv2

    lit = np.zeros(light.shape, np.uint8)
    lit[rows, cols] = 1
    count, _, stats, _ = cv2.connectedComponentsWithStats(lit, connectivity=8)
    return int(stats[1:, cv2.CC_STAT_AREA].max()) if count > 1 else 0


def _light_share(light: np.ndarray) -> np.ndarray:
    """Each module's share of light modules among itself and its eight neighbours, the quiet
    zone round the code light.

    >>> _light_share(np.eye(3, dtype=bool) == 0)[1].round(2).tolist()
    [0.78, 0.67, 0.78]
    """
    n = light.shape[0]
    padded = np.pad(light.astype(np.float64), 1, constant_values=1.0)
    total = sum(padded[1 + dy:1 + dy + n, 1 + dx:1 + dx + n]
                for dy in (-1, 0, 1) for dx in (-1, 0, 1))
    return np.asarray(total, np.float64) / 9


@functools.lru_cache(maxsize=256)
def _least_squares(mask: bytes, n: int) -> np.ndarray:
    """The matrix taking the module means where an n × n ``mask`` (its bytes) holds to the
    quadratic's six coefficients, by least squares (a code's light or dark modules: the same
    for every reading of one sticker)."""
    rows, cols = np.nonzero(np.frombuffer(mask, bool).reshape(n, n))
    u, v = (cols + 0.5) / n - 0.5, (rows + 0.5) / n - 0.5
    terms = np.stack([np.ones_like(u), u, v, u * u, v * v, u * v], axis=-1)
    solution: np.ndarray = np.linalg.solve(terms.T @ terms, terms.T)
    solution.setflags(write=False)
    return solution


@functools.cache
def _grid_axis(n: int, margin: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The grid's pixel centres along one axis, in code widths from the code's middle (u), with
    u² and the grid's u·v: the quadratic's terms, the same for every surface of a version
    (made once: each surface took a third of its time to make them again, issue 19, branch
    tbin2; the same products, so the same surfaces to the last bit)."""
    k = BAND_PX
    at = ((np.arange((n + 2 * margin) * k) + 0.5) / k - margin) / n - 0.5
    terms = at, at * at, np.multiply.outer(at, at)
    for term in terms:
        term.setflags(write=False)
    return terms


@functools.cache
def _band_mask(n: int) -> np.ndarray:
    """The grid's pixels :data:`BAND` modules out from an n-module code (Chebyshev distance:
    the band is a square ring)."""
    k, margin = BAND_PX, _margin()
    size = (n + 2 * margin) * k
    at = (np.arange(size) + 0.5) / k - margin  # module units from the code's corner
    out = np.maximum(-at, at - n)  # how far outside the code, along one axis
    distance = np.maximum.outer(out, out)
    mask = (distance >= BAND[0]) & (distance <= BAND[1])
    mask.setflags(write=False)
    return mask


def _margin() -> int:
    return math.ceil(BAND[1] + 0.5)
