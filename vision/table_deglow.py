"""A weak highlight's glow taken off a code and its quiet zone before the code is judged again
(issue 19 §3, branch ``tglow2``; docs/table-view.md, "Under a glossy sleeve's highlight").

A sleeve's reflection *adds* a smooth glow to a code and its quiet zone. The top-card test's
judgements (:func:`vision.table_codes.visibility`: the modules against one threshold, the band
against the light surface, the line and corner looks, the noisy path) were each tuned on codes
without one, and a weak glow bends the levels they compare; earlier rounds excused it test by
test. Here the glow is modelled instead: the paper round and inside the code (the light modules
the decoded grid names, and the band's cells, each a module's mean) is smoothed into the paper's
light surface (:func:`paper_surface`: a normalised Gaussian blur, :data:`GLOW_SIGMA` modules
wide, fitted again without the cells that lie below it — a card's outline, a shadow, a dark
art's edge; a glow only adds light), the surface's rise above its lowest level over the code is
the glow, and it is subtracted from the pixels (:func:`deglowed`). The code is then judged again
as if unlit, by the *same* judgements, and only their "whole" counts.

A card's edge is a step, a glow is smooth: the surface is fitted without the cells below it, and
where the paper cells it kept still scatter round it more than :data:`SMOOTH_SCATTER` of the
code's contrast (a step it bent to follow, a second card's paper at another level) the glow is
not taken off (:func:`glow_field` says ``None``). A subtracted glow never lightens anything:
what was darker than the paper stays so, and the glow a covering card does not carry (a
reflection lies on one card only) darkens that card's paper further.

Asked only where the code was not judged whole and no highlight rule found an outline under the
glow, and only for a weak glow: fewer than :data:`vision.table_edges.MIN_SATURATED` saturated
modules, a rise of at least :data:`MIN_GLOW` of the contrast.
"""

from __future__ import annotations

import numpy as np

from vision.table_median import median, robust_sigma

DEGLOW = True
"""The glow taken off before a refused code is judged again (the A/B switch; off: main's
reader)."""
MARGIN = 3  # modules round the code whose cells are the band's paper (the sticker's zone is 4)
GLOW_SIGMA = 2.5  # modules: the blur's σ — wider than a card's outline, narrower than a glow
BELOW = 0.12  # of the code's contrast below the surface: a cell that is not paper, left out
FITS = 3  # surfaces, each without the cells below the last
SMOOTH_SCATTER = 0.06  # of the contrast: the kept cells' robust σ round the surface, at most
MIN_GLOW = 0.15  # of the contrast: a glow rising less is not worth taking off
INK_LIFT = 0.5  # of the glow's rise: how much of it the dark modules under it must show
MIN_CONTRAST = 20.0  # grey levels between the light and dark modules: else not judged
MIN_AMONG_DARK = 20  # paper cells beside dark modules: fewer, and the blur's slope is not fitted
GAMMA = 2.2  # the tone curve between light and grey (vision.table_codes.highlights_down's)
UNLIT_ABOVE = 0.05  # of the contrast above the plane: a cell the glow lifts, left out of it
UNLIT_FITS = 5  # planes, each without the cells above the last
TAPER = 4  # modules past the fitted cells over which the subtracted glow falls to nothing


def linear(gray: np.ndarray | float) -> np.ndarray:
    """Grey levels as the light that made them (0–1): a glow adds light before the camera's
    tone curve (:data:`GAMMA`), so it lifts a dark module far more grey levels than a light one.

    >>> round(float(linear(255.0)), 3), round(float(linear(0.0)), 3)
    (1.0, 0.0)
    """
    return np.power(np.asarray(gray, np.float64) / 255.0, GAMMA)


def paper_cells(plain: np.ndarray, corners: np.ndarray, expected: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Each cell's light (a module's mean, :func:`linear`, :data:`MARGIN` modules round the
    code: (n + 2m)²), the cells that should be paper (the code's light modules and the band),
    each paper cell's share of dark modules among its eight neighbours (the blur darkens a
    light module among dark ones), and the code's contrast in light."""
    import cv2

    from vision.table_edges import code_grid

    n, m, k = expected.shape[0], MARGIN, 4
    grid = code_grid(plain, corners, n, k, m)
    size = n + 2 * m
    cells = linear(grid.reshape(size, k, size, k)[:, 1:-1, :, 1:-1].mean(axis=(1, 3)))
    dark = np.zeros((size, size), np.float64)
    dark[m:m + n, m:m + n] = expected
    share = (np.asarray(cv2.blur(dark, (3, 3), borderType=cv2.BORDER_CONSTANT)) * 9 - dark) / 8
    code = cells[m:m + n, m:m + n]
    contrast = float(median(code[~expected]) - median(code[expected]))
    return cells, dark == 0, share, contrast


def paper_surface(cells: np.ndarray, paper: np.ndarray, share: np.ndarray, contrast: float
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The paper's light surface over the cells (a normalised Gaussian blur of the ``paper``
    cells, :data:`GLOW_SIGMA` wide, each lightened by the blur's term: the ``share`` of dark
    neighbours times its slope, fitted with the surface), fitted :data:`FITS` times, each
    without the cells more than :data:`BELOW` of the ``contrast`` below the last; and the cells
    kept.

    >>> cells = np.full((27, 27), 0.6); cells[:, 20] = 0.3  # a card's outline
    >>> paper, share = np.ones((27, 27), bool), np.zeros((27, 27))
    >>> surface, kept = paper_surface(cells, paper, share, 0.5)
    >>> round(float(surface[10, 20]), 2), bool(kept[10, 20])
    (0.6, False)
    """
    import cv2

    kept, slope = paper.copy(), 0.0
    surface = cells
    for _ in range(FITS):
        lifted = cells + slope * share
        weight = kept.astype(np.float64)
        blurred = cv2.GaussianBlur(lifted * weight, (0, 0), GLOW_SIGMA,
                                   borderType=cv2.BORDER_REPLICATE)
        norm = cv2.GaussianBlur(weight, (0, 0), GLOW_SIGMA, borderType=cv2.BORDER_REPLICATE)
        surface = np.asarray(blurred) / np.maximum(np.asarray(norm), 1e-9)
        kept = paper & (lifted >= surface - BELOW * contrast)
        among_dark = paper & (share > 0)
        if int(among_dark.sum()) >= MIN_AMONG_DARK:  # the blur's slope: the darkening per share
            slope = max(float(median((surface - cells)[among_dark] / share[among_dark])), 0.0)
    return surface, kept


def glow_field(plain: np.ndarray, corners: np.ndarray, expected: np.ndarray,
               means: np.ndarray) -> np.ndarray | None:
    """The glow over the code's cells (light to subtract, (n + 2m)²: the paper's surface above
    the plane under it, :func:`_unlit`), or ``None`` where there is none worth taking off, it
    is strong (saturated modules), or the paper is not smooth round its surface (a step: see
    the module's docstring). ``means``: the code's module means (the saturated ones counted)."""
    from vision.table_edges import MIN_SATURATED, SATURATED

    if int(np.count_nonzero(means >= SATURATED)) >= MIN_SATURATED:
        return None  # a strong highlight: its own rule's
    cells, paper, share, contrast = paper_cells(plain, corners, expected)
    if contrast < linear(MIN_CONTRAST):
        return None
    surface, kept = paper_surface(cells, paper, share, contrast)
    if robust_sigma((cells - surface)[kept & (share == 0)]) > SMOOTH_SCATTER * contrast:
        return None  # the paper is not one smooth surface: a step, a second card's paper
    glow: np.ndarray = np.maximum(surface - _unlit(surface, kept, contrast), 0.0)
    if float(glow.max()) < MIN_GLOW * contrast or not _lifts_the_ink(cells, glow, expected):
        return None
    return glow


def _lifts_the_ink(cells: np.ndarray, glow: np.ndarray, expected: np.ndarray) -> bool:
    """Whether the ``glow`` lifts the code's dark modules as it lifts its paper: a reflection
    adds light to ink and paper alike, where a step in the paper's level (a covering card's
    paper beside the sticker's, a shade's edge) leaves the ink as dark as it was. The dark
    modules where the glow is above its midway level are lifted above the others by
    :data:`INK_LIFT` of the glow's own difference between the two (medians) or more.

    >>> expected = np.zeros((21, 21), bool); expected[::2, ::2] = True
    >>> glow = np.zeros((27, 27)); glow[3:13, 3:24] = 0.2
    >>> cells = np.full((27, 27), 0.6); cells[3:24, 3:24][expected] = 0.01
    >>> _lifts_the_ink(cells, glow, expected), _lifts_the_ink(cells + glow, glow, expected)
    (False, True)
    """
    m = MARGIN
    n = expected.shape[0]
    ink, over = cells[m:m + n, m:m + n][expected], glow[m:m + n, m:m + n][expected]
    high = over > (float(over.min()) + float(over.max())) / 2
    if high.all() or not high.any():
        return False  # no glow varying over the ink: nothing to tell it from a step by
    gap = float(median(over[high])) - float(median(over[~high]))
    lift = float(median(ink[high])) - float(median(ink[~high]))
    return gap > 0 and lift >= INK_LIFT * gap


def _unlit(surface: np.ndarray, kept: np.ndarray, contrast: float) -> np.ndarray:
    """The plane under the paper's ``surface`` (over the ``kept`` cells): fitted, then
    :data:`UNLIT_FITS` times again without the cells more than :data:`UNLIT_ABOVE` of the
    ``contrast`` above the last fit — a side light's gradient, without the glow's bump."""
    rows, cols = np.nonzero(kept)
    every = np.indices(surface.shape).reshape(2, -1)
    terms = np.stack([np.ones(len(rows)), rows, cols], axis=1).astype(np.float64)
    values = surface[kept]
    plane = np.linalg.lstsq(terms, values, rcond=None)[0]
    for _ in range(UNLIT_FITS):
        calm = values - terms @ plane <= UNLIT_ABOVE * contrast
        plane = np.linalg.lstsq(terms[calm], values[calm], rcond=None)[0]
    return np.asarray((plane[0] + plane[1] * every[0] + plane[2] * every[1]).reshape(surface.shape))


def deglowed(image: np.ndarray, corners: np.ndarray, n: int, glow: np.ndarray) -> np.ndarray:
    """``image`` with the ``glow`` (light, :func:`linear`; cells of an n-module code and
    :data:`MARGIN` modules round it) subtracted from its light: bilinear between the cells'
    centres, held at the outer cells' values and falling to nothing over :data:`TAPER` modules
    past them (no step of its own). The same dtype; only the box round the code and its taper
    is changed (a copy).

    >>> image = np.full((60, 60), 200, np.uint8)
    >>> corners = np.array([(20, 20), (41, 20), (41, 41), (20, 41)], np.float32)
    >>> out = deglowed(image, corners, 21, np.full((27, 27), 0.1))  # light: see linear
    >>> int(out[30, 30]), int(out[0, 0])
    (184, 200)
    """
    import cv2

    m, t = MARGIN, TAPER
    padded = np.pad(glow, t, mode="edge")
    index = np.arange(padded.shape[0])
    ramp = np.minimum(index, padded.shape[0] - 1 - index) / t
    padded = padded * np.minimum(np.clip(ramp, 0, 1)[:, None], np.clip(ramp, 0, 1)[None, :])
    # cell (i, j) of the padded field is centred on module (j − m − t + 0.5, i − m − t + 0.5)
    lo, hi = -(m + t), n + m + t
    square = np.array([(lo, lo), (hi, lo), (hi, hi), (lo, hi)], np.float32)
    module_to_frame = cv2.getPerspectiveTransform(
        np.array([(0, 0), (n, 0), (n, n), (0, n)], np.float32), np.asarray(corners, np.float32))
    frame_box = cv2.perspectiveTransform(square.reshape(-1, 1, 2), module_to_frame).reshape(-1, 2)
    x0, y0 = np.maximum(np.floor(frame_box.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(frame_box.max(axis=0)).astype(int) + 1,
                        (image.shape[1], image.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return image
    size = padded.shape[0]
    cells = np.array([(-0.5, -0.5), (size - 0.5, -0.5), (size - 0.5, size - 0.5),
                      (-0.5, size - 0.5)], np.float32)
    cells_to_box = cv2.getPerspectiveTransform(
        cells, (frame_box - np.array([x0, y0], np.float32)).astype(np.float32))
    field = cv2.warpPerspective(padded.astype(np.float32), cells_to_box,
                                (int(x1 - x0), int(y1 - y0)), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0.0)
    out = image.copy()
    light = np.maximum(linear(out[y0:y1, x0:x1]) - field, 0.0)
    region = 255.0 * np.power(light, 1.0 / GAMMA)
    if image.dtype == np.uint8:
        region = np.clip(np.rint(region), 0, 255)
    out[y0:y1, x0:x1] = region.astype(image.dtype)
    return out

