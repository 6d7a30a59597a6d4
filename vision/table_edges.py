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
below :data:`PAPER_SHARE` larger than :data:`MAX_DARK_AREA` is something lying there.

Unless it is shade: the paper round a code is lit as the code is only roughly, and where a
shade's edge or a side light falls off towards the sticker's edge faster than the code's
quadratic says, the band's outer modules lie below the light surface with nothing there.
Such a band is paper when it darkens smoothly (:func:`_only_shade`): nowhere below
:data:`SHADE_FLOOR`, no point a narrow dip below the mean of its neighbours either side
(:func:`_dips`: a card's outline is one, a slope is not), no highlight over the band (a
glow's fall-off is smooth too, and it can wash a card's outline out: :func:`_under_a_highlight`),
and no straight dark line beside the code for the line look
(:func:`vision.table_lines.card_edge_beside`, which sees a faint outline under noise by
averaging along it).

Or a weak highlight's glow (:func:`_only_glow`): a reflection over the code and its band, too
weak to saturate anything, bends the light surface upwards, and the band beyond lies below it
with nothing there. Such a band is paper when a highlight's patch shows on the code's light
modules (:func:`vision.table_glare.lit_patch`), nothing in it is washed out, it is nowhere far
darker than the code's light level (one level, or the light without the glow where it lies:
:data:`GLOW_BY_THE_LIGHT`), no narrow dip crosses it, and neither the line look at
tglare's outline depth nor the corner look sees a card beside the code
(:func:`card_outline_under_glow`): a glow lifts a card's outline and the paper beside it alike.
A *strong* highlight, one that saturates :data:`MIN_SATURATED` of the code's modules or more,
overshoots the band with nothing there and fails that shape test: its band is judged by the
outline look alone (:func:`_saturates`; issue 19 §3, branch ``tstrong2``).
"""

from __future__ import annotations

import functools
import math

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
SHADE_FLOOR = 0.7  # of the way from dark to light: a band darker anywhere is not only shade
SHADE_REACH = (0.75, 1.5)  # modules either side of a band point: its neighbours
SHADE_DIP = 0.08  # below its neighbours' mean: a card's outline, not a shade's fall-off
SHADE_LIFT = 0.1  # of the code's contrast: band paper lifted more above the paper is lit
GLOW_TOP = 250.0  # grey: a band this bright under a highlight is washed out
GLOW_FLOOR = 0.5  # of the way from the code's dark level to its light one: darker is not paper
GLOW_BY_THE_LIGHT = True
"""The band under a weak glow below :data:`GLOW_FLOOR` of the code's one level is judged again
against the light without the glow (:func:`vision.table_glare.levels_by_the_light`): a glow that
lifts most dark modules lifts the one dark level, and the paper beyond the glow, or down a side
light's fall-off, fell under the floor with nothing there (tclear's audit: 6 of the tuned sets'
weak-highlight top cards; issue 19 §3, branch ``tweak4``). Off: one level, main's reader before
it (the guards' A/B)."""
DIP_LINE = 1.5
"""Modules: a patch of touching narrow dips this long (its box's longer side) lies along a line,
a covering card's outline; sensor noise's dips are specks a module across. The band's strip is
2.3 modules wide, so a patch this long runs along a side or round a corner, as an outline does
(tshort's short-frame sweep, "corner −1.0": a card's outline under the buried card's own glow,
two patches 1.75 modules long; the noise of the weak highlights' top cards: specks up to 1.25;
issue 19 §3, branch ``tdips``)."""
DIP_NOISE = 8.0
"""Times the band's median dip (:func:`_dips`): a narrow dip no deeper than this is the sensor's
noise, not a card's outline (:func:`_outline_dips`). Where the light is dim, the band's median
dip is 0.012–0.033 of the code's contrast (0.005 in good light), and the band dips past
:data:`SHADE_DIP` over up to a fifth of its area in specks packed so close that they touch in
patches up to 8.75 modules long; their deepest dip is 7.6–8.8 times the band's median one, and
the few points past 8 times it are specks, where a covering card's outline under the buried
card's own glow dips 47 times it (tshort's short-frame sweep, "corner −1.0"; five top cards in
dim side light of tdim4's, tdim5's and ttopcard2's sets; issue 19 §3, branch ``tdips2``)."""
SATURATED = 250.0  # grey: a module's mean this bright is saturated (no sensor reads paper so)
MIN_SATURATED = 9
"""Saturated modules (:data:`SATURATED`) that make a highlight strong: its band under the glow
is judged by the outline beside the code alone (:func:`card_outline_under_glow`), not by its
shape (:func:`_only_glow`, built for a weak glow). A strong highlight's surface overshoots the
band, darker than the glow's shape allows with nothing there: tstrong's 47 strong-highlight top
cards bare zxing-cpp read and the reader did not had 9–182 saturated modules, and every one's
band failed :func:`_only_glow`; the buried codes of tglare's glare sweep whose band that test
refuses had none (a glow of 0.6 × paper lifts a buried code's modules, it saturates none), and
the outline look saw the covering card on every one (issue 19 §3, branches ``tstrong``,
``tstrong2``)."""


def quiet_zone_is_clear(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray, *,
                        under_glow: bool = False) -> bool:
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

    ``under_glow``: a highlight rule vouches for the code's modules
    (:func:`vision.table_glare.glare_verdict`): no covering card's outline may lie beside it
    under the glow (:func:`card_outline_under_glow`), and a band the glow darkens is judged by
    its shape (:func:`_only_glow`), or, under a glow that saturates modules
    (:func:`_saturates`), by that outline alone — while
    :data:`vision.table_glare.WEAK_HIGHLIGHTS` is on.
    """
    if under_glow:
        from vision import table_glare  # it builds on table_codes, which builds on this module

        under_glow = table_glare.WEAK_HIGHLIGHTS
    grid = code_grid(gray, corners, expected.shape[0], BAND_PX, _margin())
    shares = _shares_on(grid, expected, whole=gray.dtype == np.uint8)
    if shares is None:
        return False
    band = _band_mask(expected.shape[0])
    if _area(shares < PAPER_SHARE, band) <= MAX_DARK_AREA:
        if under_glow:
            return not card_outline_under_glow(gray, corners, expected)
        # a band washed out at full scale shows no card's edge in it: look where the edge runs
        # on beyond the code's ends (issue 19 §2/§3, branch tbeyond)
        return not (BEYOND_WASHED_BANDS and _washed_out(grid, band)
                    and card_edge_beyond_band(gray, corners, expected))
    # the paper below the code's light surface: a shade or a highlight's fall-off, smooth, or
    # something lying there, with an outline (issue 19, branch tband); the band's grid warped
    # once for both looks (branch tband2: the same grid, so the same verdicts)
    if _only_shade(shares, band) and not _under_a_highlight(grid, expected):
        return not _line_beside(gray, corners, expected)
    # a highlight's glow, asked only for a code the glare rule vouches for (issue 19 §3,
    # branches tweak2, tstrong2): a weak one's shape (a strong one's saturated modules are
    # counted first: the cheaper test), and no card's outline beside the code under it
    return under_glow and (_saturates(grid, expected) or _only_glow(grid, expected, band)) \
        and not card_outline_under_glow(gray, corners, expected)


BEYOND_WASHED_BANDS = True
"""A band washed out at full scale (:func:`_washed_out`) is taken for paper only when no card's
edge runs on beyond the code's ends through it (:func:`card_edge_beyond_band`; issue 19 §2/§3,
branch ``tbeyond``). Off: main's reader before it (the guards' A/B)."""
WASHED_SHARE = 0.5  # of the band's area at GLOW_TOP or above: the band says too little
BEYOND_MARGIN = 28  # modules round the code on the look's grid
BEYOND = tuple((4.5 + 4.5 * i, 9.0 + 4.5 * i) for i in range(5))  # modules past a code's end
# along its side, a stretch at a time: past the sticker's 4, on to where the glow ends
BEYOND_OFFSETS = (-0.5, 3.0)  # modules out from the code's side: a line through the band
BEYOND_ANGLES = tuple(range(-9, 10, 3))  # degrees to the side: a card turned a little
OUTLINE_FROM = 5.5  # modules past the code's end: past the sticker's own edge (4) and its reach
BEYOND_DIP = 0.3  # of the code's contrast: a card's outline below the lighter side of it


def card_edge_beyond_band(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> bool:
    """Whether a covering card's straight edge, carried on past the code's ends, runs through
    its band: a dark line in one of the stretches :data:`BEYOND` modules past an end of a
    side, at :data:`BEYOND_ANGLES` to it, lying :data:`BEYOND_OFFSETS` modules out from the
    side all along its stretch (so it would cross the band if carried on), below the lighter
    of its neighbourhoods by :data:`BEYOND_DIP` of the code's contrast. A stretch is looked at
    only short of the first outline crossing the band's run (:func:`_own_outline`): past it
    the code's own card has ended.

    Asked where the band is washed out (:func:`_washed_out`): a glow 24 mm across at 0.3–0.5 ×
    paper over both cards in a bright room lifts the band and a covering card's edge in it to
    full scale, where no share of it falls, but the edge runs on for the card's length, and
    past the sticker the buried card's face is darker than paper: the card's thin outline
    stays below its light border there (branch ``tbeyond``). A top card has only its own
    plain face and the sticker's label there; its own outline lies farther out.

    >>> n, k = 21, 4
    >>> modules = np.zeros((n, n), bool); modules[::2, ::3] = True
    >>> card = np.pad(np.where(modules, 150.0, 255.0), 4, constant_values=255.0)
    >>> face = np.pad(card, 8, constant_values=160.0)  # the card's face past the sticker
    >>> frame = np.kron(face, np.ones((k, k)))
    >>> corners = np.array([(12, 12), (33, 12), (33, 33), (12, 33)], np.float32) * k - 0.5
    >>> card_edge_beyond_band(frame, corners, modules)
    False
    >>> frame[:, : 11 * k] = 255.0  # a card's light border, a module left of the code
    >>> frame[:, 11 * k - 2: 11 * k + 1] = 90.0  # and its outline
    >>> card_edge_beyond_band(np.clip(frame, 0, 255), corners, modules)
    True
    """
    n, k, margin = expected.shape[0], BAND_PX, BEYOND_MARGIN
    grid = code_grid(gray, corners, n, k, margin)
    means = _code_means(grid, n, margin)
    contrast = float(median(means[~expected]) - median(means[expected]))
    if contrast < MIN_CONTRAST:
        return False
    rows, columns, reach, inside = _beyond_samples(n)
    starts = np.array([a for a, _ in BEYOND])
    for turn in range(4):  # each side of the code in turn as the left one
        side = np.rot90(grid, turn)
        lines = side[rows, columns].mean(axis=-1)  # end × stretch × angle × offset
        below = _below_the_lighter(lines, reach) >= BEYOND_DIP * contrast
        on_the_card = starts[None, :] < _own_outline(side, n, BEYOND_DIP * contrast)[:, None]
        if bool((below & inside & on_the_card[:, :, None, None]).any()):
            return True
    return False


def _own_outline(side: np.ndarray, n: int, depth: float) -> np.ndarray:
    """How far past each end of the code's left side (modules; ``side``: the look's grid
    turned so) the band's run first crosses a card's outline or a step down off a light
    face, :data:`OUTLINE_FROM` modules out or more: beyond it lies what the code's card does
    not show (the mat's printed lines, other cards), not a line through the band. A dark
    line across the run below the lighter side of it by ``depth``; ``inf`` where none is."""
    k = BAND_PX
    rows, columns = _along_samples(n)
    run = side[rows, columns].mean(axis=-1)  # end × along, a grid pixel apart
    reach = (round(0.75 * k), round(1.5 * k))
    crossed = _below_the_lighter(run, reach) >= depth
    crossed[:, :round(OUTLINE_FROM * k) - reach[1]] = False
    first = np.where(crossed.any(axis=1), crossed.argmax(axis=1) + reach[1], np.inf)
    return np.asarray(first / k)


@functools.cache
def _along_samples(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The grid pixels (rows, columns: end × along × offset) of the band's run past both ends
    of an n-module code's left side, :data:`BEYOND_OFFSETS` out, to the last stretch's end."""
    k, margin = BAND_PX, BEYOND_MARGIN
    along = np.arange(round(BEYOND[-1][1] * k))
    offsets = np.arange(round(BEYOND_OFFSETS[0] * k), round(BEYOND_OFFSETS[1] * k) + 1)
    column = margin * k - 1 - offsets
    rows = [end + sign * along for end, sign in ((margin * k - 1, -1), ((margin + n) * k, 1))]
    shape, size = (2, len(along), len(offsets)), (n + 2 * margin) * k
    return (np.broadcast_to(np.stack(rows)[:, :, None], shape).clip(0, size - 1),
            np.broadcast_to(column, shape).clip(0, size - 1))


def _below_the_lighter(lines: np.ndarray, reach: tuple[int, int]) -> np.ndarray:
    """How far each line (the last axis: offsets a grid pixel apart) lies below the lighter
    of its neighbourhoods, :data:`vision.table_lines.NEIGHBOURS` modules either side; the
    first and last ``reach[1]`` offsets are the neighbourhoods' only."""
    near, far = reach
    count = lines.shape[-1] - 2 * far
    middle = lines[..., far:far + count]
    inward = np.max([lines[..., far - s:far - s + count] for s in range(near, far + 1)], axis=0)
    outward = np.max([lines[..., far + s:far + s + count] for s in range(near, far + 1)], axis=0)
    below: np.ndarray = np.maximum(inward, outward) - middle
    return below


@functools.cache
def _beyond_samples(n: int) -> tuple[np.ndarray, np.ndarray, tuple[int, int], np.ndarray]:
    """The grid pixels (rows, columns: end × stretch × angle × offset × along) of the lines
    :func:`card_edge_beyond_band` averages beside the left side of an n-module code on its
    grid (the other sides: the grid turned; offsets a grid pixel apart, from the code's end,
    with the neighbourhoods' either side), the neighbourhoods' reach in grid pixels, and the
    lines (stretch × angle × offset) that stay :data:`BEYOND_OFFSETS` out all along: a steeper one
    runs into the sticker's own edge, 4 modules out (its label's, past the code's right
    end), or into the label's lines inside."""
    k, margin = BAND_PX, BEYOND_MARGIN
    near, far = round(0.75 * k), round(1.5 * k)
    # offsets out from the side at the code's end, a grid pixel apart, with the neighbourhoods
    offsets = np.arange(round(BEYOND_OFFSETS[0] * k) - far, round(BEYOND_OFFSETS[1] * k) + far + 1)
    # modules past the end: stretch × along
    along = np.array([(np.arange(round(a * k), round(b * k)) + 0.5) / k for a, b in BEYOND])
    slopes = np.tan(np.radians(BEYOND_ANGLES))
    rows, columns = [], []
    for end, sign in ((margin * k - 1, -1), ((margin + n) * k, 1)):
        row = end + sign * np.floor(along * k).astype(int)
        drift = np.rint(np.multiply.outer(along, slopes) * k).astype(int)  # stretch × along × angle
        column = (margin * k - 1 - offsets[None, None, :, None]
                  - np.moveaxis(drift, 1, -1)[:, :, None, :])  # stretch × angle × offset × along
        rows.append(np.broadcast_to(row[:, None, None, :], column.shape))
        columns.append(column)
    size = (n + 2 * margin) * k
    middle = offsets[far:len(offsets) - far] / k  # modules out at the code's end
    inside = np.ones((len(BEYOND), len(slopes), len(middle)), bool)
    for t in (along[:, 0], along[:, -1]):  # the line at both ends of its stretch
        out = middle[None, None, :] + slopes[None, :, None] * t[:, None, None]
        inside &= (out >= BEYOND_OFFSETS[0]) & (out <= BEYOND_OFFSETS[1])
    return (np.stack(rows).clip(0, size - 1), np.stack(columns).clip(0, size - 1), (near, far),
            inside)


def _washed_out(grid: np.ndarray, band: np.ndarray) -> bool:
    """Whether more than :data:`WASHED_SHARE` of the band lies at :data:`GLOW_TOP` or above,
    averaged over a module round each point: there the light clips at full scale, and a
    covering card's edge, a little darker than paper, clips with it (branch ``tbroad``'s
    measure). ``grid``: :func:`paper_shares`'s grid of the code and its band.

    >>> band = _band_mask(21)
    >>> grid = np.full(band.shape, 200.0, np.float32)
    >>> _washed_out(grid, band), _washed_out(grid + 55.0, band)
    (False, True)
    >>> grid[: grid.shape[0] // 3] = 255.0  # a third of the band clipped
    >>> _washed_out(grid, band)
    False
    """
    import cv2

    if float(grid.max()) < GLOW_TOP - 1.0:  # a module's mean is never above the grid's highest
        return False  # (the same answer without the blur, for nearly every band)
    around = np.asarray(cv2.blur(grid, (BAND_PX, BAND_PX)))
    return int(np.count_nonzero((around >= GLOW_TOP) & band)) > WASHED_SHARE * int(
        np.count_nonzero(band))


def _area(points: np.ndarray, band: np.ndarray) -> float:
    """The band's area (module²) where ``points`` holds."""
    return int(np.count_nonzero(points & band)) / BAND_PX ** 2


def _only_shade(shares: np.ndarray, band: np.ndarray) -> bool:
    """Whether the band's paper, darker than the code's light surface says, darkens smoothly:
    nowhere below :data:`SHADE_FLOOR`, and no point of it a narrow dip (:func:`_dips`) deeper
    than :data:`SHADE_DIP` over more than :data:`MAX_DARK_AREA`.

    >>> band = _band_mask(21)
    >>> across = np.linspace(1.0, 0.75, band.shape[1], dtype=np.float32)  # a shade's fall-off
    >>> shade = np.tile(across, (band.shape[0], 1))
    >>> _only_shade(shade, band)
    True
    >>> shade[:, 104:106] -= 0.2  # a card's outline a module right of the code
    >>> _only_shade(shade, band)
    False
    """
    if float(shares[band].min()) < SHADE_FLOOR:
        return False
    return _area(_dips(shares) > SHADE_DIP, band) <= MAX_DARK_AREA


def _dips(shares: np.ndarray) -> np.ndarray:
    """How far each point lies below the mean of its two neighbours :data:`SHADE_REACH`
    modules either side of it, across or down the grid, at the deepest: a card's outline (at a
    small angle to the code's sides) lies below the paper on both sides of it; a shade's or a
    highlight's fall-off is a slope, which the mean of both sides follows."""
    near, far = (round(m * BAND_PX) for m in SHADE_REACH)
    padded = np.pad(shares, far, mode="edge")
    rows, cols = shares.shape

    def shifted(down: int, across: int) -> np.ndarray:
        return padded[far + down:far + down + rows, far + across:far + across + cols]

    deepest = np.full(shares.shape, -np.inf, np.float32)
    sides = np.empty_like(deepest)  # the same float32 steps, into one array (branch tband2)
    for step in range(near, far + 1):
        for down, across in ((step, 0), (0, step)):
            np.add(shifted(-down, -across), shifted(down, across), out=sides)
            np.divide(sides, 2, out=sides)
            np.subtract(sides, shares, out=sides)
            np.maximum(deepest, sides, out=deepest)
    return deepest


def _under_a_highlight(grid: np.ndarray, expected: np.ndarray) -> bool:
    """Whether a highlight lies over the band (tglare's levels, :mod:`vision.table_glare`):
    the paper within :data:`~vision.table_glare.MIN_HEADROOM` of full scale (a white-out), or
    more than :data:`MAX_DARK_AREA` of the band lifted above the paper (the median of the
    code's light modules and the band) by tglare's bright level
    (:data:`~vision.table_glare.GLARE_RISE` of the headroom) or by :data:`SHADE_LIFT` of the
    code's contrast, whichever is less: a shade only darkens. A highlight's fall-off is smooth
    too, and it can wash a covering card's outline out of the band: under one, a darker band
    is never taken for shade (issue 19's glare sweeps without this: six buried codes named
    that main does not, a card's corner a module off the code's in a white-out, a card's edge
    2.2 modules beside it under a glow; three more under a weaker glow, drawn in linear
    light; branch tband). ``grid``: :func:`paper_shares`'s grid of the code and its band."""
    import cv2

    from vision.table_glare import GLARE_RISE, MIN_HEADROOM  # it builds on table_codes
    from vision.table_lines import light_modules

    n, k, margin = expected.shape[0], BAND_PX, _margin()
    light, contrast = light_modules(grid, expected, k, margin)
    band = np.asarray(cv2.blur(grid, (k, k)))[_band_mask(n)]  # a module round each point
    paper = float(median(np.concatenate([light.mean(axis=(1, 2)), band])))
    if 255.0 - paper < MIN_HEADROOM:
        return True
    lifted = paper + min(GLARE_RISE * (255.0 - paper), SHADE_LIFT * contrast)
    return float((band > lifted).sum()) / k ** 2 > MAX_DARK_AREA


def _only_glow(grid: np.ndarray, expected: np.ndarray, band: np.ndarray) -> bool:
    """Whether a weak highlight over the code (:func:`vision.table_glare.lit_patch`) explains
    the band's failing: the glow bends the light surface, so the band is judged by its shape
    instead of its level. Nothing in it saturated (:data:`GLOW_TOP`: a white-out washes a
    card's outline out), nowhere below :data:`GLOW_FLOOR` of the way from the code's dark
    level to its light one — the code's one level, or the unlit planes where the band lies
    (:data:`GLOW_BY_THE_LIGHT`) — and no narrow dips (:func:`_dips`, :data:`SHADE_DIP` of the
    code's contrast) lying along a line over more than :data:`MAX_DARK_AREA`
    (:func:`_dips_along_lines`): a glow adds light to a card's outline and to the paper beside
    it alike, so the outline still dips below its neighbours, along its length; sensor noise
    under a dim side light dips in specks, which are not counted (branch ``tdips``), and no
deeper than its own noise makes them (:func:`_outline_dips`, branch ``tdips2``)."""
    import cv2

    from vision.table_glare import levels_by_the_light, lit_patch  # it builds on table_codes

    n, k, margin = expected.shape[0], BAND_PX, _margin()
    means = _code_means(grid, n, margin)
    dark, contrast = _dark_and_contrast(means, expected)
    if contrast < MIN_CONTRAST or not lit_patch(means, expected, contrast):
        return False
    around = np.asarray(cv2.blur(grid, (k, k)))  # a module round each point
    if float(around[band].max()) >= GLOW_TOP:
        return False
    levels = ((around - dark) / contrast).astype(np.float32)
    floor = float(levels[band].min())
    if floor < GLOW_FLOOR and GLOW_BY_THE_LIGHT:  # a glow lifting the dark modules lifts `dark`
        floor = float(levels_by_the_light(around, means, expected, contrast, margin)[band].min())
    if floor < GLOW_FLOOR:
        return False
    return not _outline_along_lines(levels, band)


def outline_along_lines(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> bool:
    """Whether the band round the code holds a card's thin outline: :func:`_only_glow`'s last
    test (narrow dips along lines over more than :data:`MAX_DARK_AREA`) asked alone, on the
    levels between the code's dark and light modules; True where the code's contrast is too
    low to judge. :func:`vision.table_deglow` asks it on a frame whose glow was taken off,
    where the band's level alone may pass a covering card's outline.

    >>> n, k = 21, BAND_PX
    >>> expected = np.zeros((n, n), bool); expected[::2, ::3] = True
    >>> face = np.pad(np.where(expected, 60.0, 230.0), 8, constant_values=230.0)
    >>> frame = np.kron(face, np.ones((k, k), np.float32))
    >>> corners = np.array([(8, 8), (29, 8), (29, 29), (8, 29)], np.float32) * k - 0.5
    >>> outline_along_lines(frame, corners, expected)
    False
    >>> frame[:, 6 * k: 6 * k + 2] = 120.0  # a covering card's outline, 2 modules left
    >>> outline_along_lines(frame, corners, expected)
    True
    """
    import cv2

    n, k, margin = expected.shape[0], BAND_PX, _margin()
    grid = code_grid(gray, corners, n, k, margin)
    dark, contrast = _dark_and_contrast(_code_means(grid, n, margin), expected)
    if contrast < MIN_CONTRAST:
        return True
    levels = ((np.asarray(cv2.blur(grid, (k, k))) - dark) / contrast).astype(np.float32)
    return _outline_along_lines(levels, _band_mask(n))


def _outline_along_lines(levels: np.ndarray, band: np.ndarray) -> bool:
    """Whether narrow dips deep enough to be a card's outline (:func:`_outline_dips`) lie along
    lines (:func:`_dips_along_lines`) over more than :data:`MAX_DARK_AREA` of the band."""
    return _dips_along_lines(_outline_dips(_dips(levels), band), band) > MAX_DARK_AREA


def _code_means(grid: np.ndarray, n: int, margin: int) -> np.ndarray:
    """Each module's mean (its middle, a pixel off each side) on a code's ``grid``
    (:func:`code_grid`, :data:`BAND_PX` pixels a module, ``margin`` modules round it)."""
    k = BAND_PX
    inner = grid[margin * k:(margin + n) * k, margin * k:(margin + n) * k]
    return np.asarray(inner.reshape(n, k, n, k)[:, 1:-1, :, 1:-1].mean(axis=(1, 3)))


def _dark_and_contrast(means: np.ndarray, expected: np.ndarray) -> tuple[float, float]:
    """The code's dark level (the median of its dark modules' ``means``) and its contrast (the
    light modules' median above it)."""
    light, dark = float(median(means[~expected])), float(median(means[expected]))
    return dark, light - dark


def _dips_along_lines(dipping: np.ndarray, band: np.ndarray) -> float:
    """The band's area (module²) where narrow dips (``dipping``) lie along lines: each patch of
    touching dips at least :data:`DIP_LINE` long.

    >>> band = _band_mask(21)
    >>> specks = np.zeros(band.shape, bool); specks[2:110:6, 1:10:6] = True  # noise's dips
    >>> outline = np.zeros(band.shape, bool); outline[20:40, 5:7] = True  # 5 modules
    >>> _area(specks, band) > MAX_DARK_AREA, _dips_along_lines(specks, band)
    (True, 0.0)
    >>> _dips_along_lines(outline, band)
    2.5
    """
    import cv2

    patches = (dipping & band).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(patches, connectivity=8)
    length = np.maximum(stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT])
    along = stats[1:, cv2.CC_STAT_AREA][length >= DIP_LINE * BAND_PX]
    return int(along.sum()) / BAND_PX ** 2


def _outline_dips(dips: np.ndarray, band: np.ndarray) -> np.ndarray:
    """Where the narrow dips (``dips``, :func:`_dips`) are deep enough to be a card's outline:
    deeper than :data:`SHADE_DIP` of the code's contrast and than :data:`DIP_NOISE` times the
    band's median dip, the depth the sensor's noise gives every point of it. In good light that
    median is a few thousandths and :data:`SHADE_DIP` decides; in a dim side light the noise's
    own dips pass :data:`SHADE_DIP` over up to a fifth of the band, in patches that touch along
    several modules as an outline does, and only the dips that stand out of that noise count.

    >>> band = _band_mask(21)
    >>> noise = np.random.default_rng(19).normal(0.0, 0.06, band.shape).astype(np.float32)
    >>> dips = np.abs(noise)  # a dim light's noise: a tenth of the contrast per point
    >>> bool((dips[band] > SHADE_DIP).mean() > 0.1)  # past SHADE_DIP over a tenth of the band
    True
    >>> int(np.count_nonzero(_outline_dips(dips, band)))
    0
    >>> dips[20:40, 5:7] = 0.6  # a card's outline 5 modules long, standing out of that noise
    >>> _area(_outline_dips(dips, band), band)
    2.5
    """
    return dips > max(SHADE_DIP, DIP_NOISE * float(median(dips[band])))


def _saturates(grid: np.ndarray, expected: np.ndarray) -> bool:
    """Whether a highlight saturates :data:`MIN_SATURATED` of the code's modules or more (each
    module's middle on the band's ``grid``, :func:`code_grid`, at :data:`SATURATED` or above).

    >>> expected = np.zeros((21, 21), bool); expected[::2, ::2] = True
    >>> grid = np.full((29 * BAND_PX, 29 * BAND_PX), 200.0, np.float32)
    >>> inside = slice(_margin() * BAND_PX, (_margin() + 3) * BAND_PX)
    >>> grid[inside, inside] = 255.0  # 3 × 3 modules
    >>> _saturates(grid, expected), _saturates(grid.clip(0, 240), expected)
    (True, False)
    """
    means = _code_means(grid, expected.shape[0], _margin())
    return int(np.count_nonzero(means >= SATURATED)) >= MIN_SATURATED


def card_outline_under_glow(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> bool:
    """Whether a covering card's straight edge runs beside the code under a glow: the line look
    (:func:`vision.table_lines.line_dips`) with a line only
    :data:`~vision.table_glare.OUTLINE_DIP` of the code's contrast below its neighbourhoods
    (tglare's depth of an outline in a lit quiet zone: the glow's light flattens the outline
    as it nears full scale), or the corner look
    (:func:`vision.table_corners.card_corner_beside`) seeing a card's corner beyond one of the
    code's.

    Under a glow that saturates the code's modules (:func:`_saturates`), a shallow line past
    the sticker's edge (:func:`vision.table_lines.sticker_edge_lines`, and the steeper lines
    fanning out of it: :func:`vision.table_lines.sticker_edge_fan`) is that edge's own, seen
    askew, unless a card's corner lies out there
    (:func:`vision.table_corners.card_corner_beyond_sticker`): such a line alone refused 17 of
    the 21 strong-highlight tops bare zxing-cpp read and the reader did not (16 of them under
    saturated modules), while a card laid beyond the code's corner and turned puts its corner
    5–6 modules out, below the code's side, and a dim room's card edge may run as shallow
    that far out with no corner in view — where nothing saturates (issue 19 §3, branch
    tcorner)."""
    from vision.table_corners import card_corner_beside  # they build on this module's grid
    from vision.table_glare import OUTLINE_DIP
    from vision.table_lines import line_dips, sticker_edge_fan

    dips = line_dips(gray, corners, expected, depth=OUTLINE_DIP)
    dark = None if dips is None else dips > 0
    if dips is not None and (dark & ~sticker_edge_fan(gray, corners, expected, dips)).any():
        return True
    if card_corner_beside(gray, corners, expected):
        return True
    return dark is not None and bool(dark.any()) and (
        _card_beyond_sticker(gray, corners, expected)
        or (not _saturating_glow(gray, corners, expected)
            and not _the_sticker_edge(gray, corners, expected, dark)))


def _card_beyond_sticker(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> bool:
    """Whether a covering card's corner lies past the sticker's edge
    (:func:`vision.table_corners.card_corner_beyond_sticker`), asked only where the line look
    sees nothing but shallow lines out there (:func:`card_outline_under_glow`)."""
    from vision.table_corners import card_corner_beyond_sticker  # it builds on this module

    return card_corner_beyond_sticker(gray, corners, expected)


def _saturating_glow(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> bool:
    """Whether the glow saturates the code's modules (:func:`_saturates`, on the band's grid):
    where the sticker's edge may be told from a card's by a corner alone."""
    grid = code_grid(gray, corners, expected.shape[0], BAND_PX, _margin())
    return _saturates(grid, expected)


STICKER_EDGE_PARALLEL = True  # under a glow that saturates nothing, the sticker's edge by its angle


def _the_sticker_edge(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray,
                      dark: np.ndarray) -> bool:
    """Whether the shallow lines past the sticker's edge that the line look sees under a glow
    saturating nothing (``dark``: :func:`vision.table_lines.line_dips`' lines where the
    sticker's edge may lie, :func:`vision.table_lines.sticker_edge_fan`, and no other) are that
    edge's own, while
    :data:`STICKER_EDGE_PARALLEL` is on: each one dips no deeper than the line parallel to the
    code at its own offset on its side (:func:`vision.table_lines.line_depths`).

    The sticker's edge runs parallel to the code, 4 modules out: a line 3–4° off it, averaged
    across that edge, dips less than the parallel line through it. A covering card's edge turned
    3° or more is deepest at its own angle; the parallel line crosses its thin outline over a
    few modules of its 29 and hardly dips (tests/table/test_lines.py's quiet-zone scene, a card
    2.2 modules left turned −7°, light 0.4, σ 5: its −3° line 0.34 of the contrast deep, the
    parallel one −0.12; tcorner found that scene named when such lines were let pass under any
    vouched glow). A card laid square to the code past the sticker's edge lies beyond every
    look already (:data:`~vision.table_lines.PARALLEL_REACH`). Weak highlights over top cards
    in dim side light and head shadow: the lines the glow's line look sees 4.1–4.4 modules
    out at ±3°, 0.25–0.29 of the contrast deep, the parallel ones 0.28–0.54 (DEV 1074 ferry 4,
    1194 ferry 5; tdim4's 6304 ferry 1). Issue 19 §3, branch tverdict.
    """
    from vision.table_lines import ANGLES, line_depths  # it builds on this module's grid

    depths = line_depths(gray, corners, expected) if STICKER_EDGE_PARALLEL else None
    if depths is None:
        return False
    side, angle, offset = np.nonzero(dark)
    parallel = depths[side, ANGLES.index(0), offset]
    return bool((depths[side, angle, offset] <= parallel).all())


def _line_beside(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> bool:
    """Whether the line look (:func:`vision.table_lines.card_edge_beside`) sees a straight dark
    line beside the code: a card's outline the band's smoothness test could take for shade."""
    from vision.table_lines import card_edge_beside  # it builds on this module's grid

    return card_edge_beside(gray, corners, expected)


def paper_shares(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray
                 ) -> np.ndarray | None:
    """The code and its band on a grid of :data:`BAND_PX` pixels per module, each point's level
    as a share of the way from the dark surface to the light one (0: the code's ink, 1: its
    paper, lit where the point lies), averaged over a module round it; ``None`` when the code
    shows too little contrast to judge (washed out, or not a code at all)."""
    n = expected.shape[0]
    return _shares_on(code_grid(gray, corners, n, BAND_PX, _margin()), expected,
                      whole=gray.dtype == np.uint8)


def _shares_on(grid: np.ndarray, expected: np.ndarray, whole: bool) -> np.ndarray | None:
    """:func:`paper_shares` on the code's ``grid`` (:func:`code_grid`, :data:`BAND_PX` pixels
    per module, :func:`_margin` modules round it; ``whole``: its levels are whole numbers, an
    8-bit image warped)."""
    import cv2

    from vision.table_codes import _middle_means  # it builds on this module

    n, k, margin = expected.shape[0], BAND_PX, _margin()
    inner = grid[margin * k:(margin + n) * k, margin * k:(margin + n) * k]
    # whole numbers are summed exactly in any order: as slices, numpy's very means at a
    # fraction of its time (branch tband2); any other image's as numpy takes them
    means = (_middle_means(inner, n, k) if whole
             else inner.reshape(n, k, n, k)[:, 1:-1, :, 1:-1].mean(axis=(1, 3)))
    paper_modules = ~expected
    if float(median(means[paper_modules]) - median(means[expected])) < MIN_CONTRAST:
        return None
    light, dark = (_surface(means, mask, n, margin) for mask in (paper_modules, expected))
    # the same float32 operations in the same order, into one array instead of three
    spread = np.subtract(light, dark, out=light)
    np.maximum(spread, MIN_CONTRAST / 2, out=spread)
    shares = np.subtract(grid, dark, out=dark)
    np.divide(shares, spread, out=shares)
    return np.asarray(cv2.blur(shares, (k, k)))


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
    across = c[0] + c[1] * at + c[3] * squared
    down = c[2] * at + c[4] * squared
    # across + down + c₅·uv in float64 as before, the sum made in place: a float64 grid's
    # temporary less (branch tband2; 139 kB for a version 2 code, past glibc's mmap threshold,
    # where a fresh array can cost its pages' faults)
    plane = np.add.outer(down, across)
    plane += c[5] * product
    surface: np.ndarray = plane.astype(np.float32)
    return surface


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
