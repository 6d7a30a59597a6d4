"""A covering card's straight edge beside a code, seen under sensor noise by averaging the image
along lines (issue 19; the top-card test is :func:`vision.table_codes.visibility`).

A card laid over a buried card's sticker has a long straight edge; where it passes 3–4 modules
from the code, beyond the band that :func:`vision.table_edges.quiet_zone_is_clear` looks at (the
band stops at 3 modules: the sticker's label starts at 4), and the room is dim and noisy, no
point sample shows it. Averaged along its own direction, though, the edge's thin dark outline
stands far out of the noise: a line of 20 modules at 4 grid pixels a module averages some 80
pixels, dividing the noise by about 8 (by less where the grid oversamples the frame), where a
module's mean divides it by 4.

So, for each side of the code, the strip beside it (:data:`STRIP` modules out, running
:data:`ALONG` modules past both ends) is warped onto a grid of :data:`LINE_PX` pixels a module,
and averaged along every line at :data:`ANGLES` degrees to the side (a card lies at any small
angle to the code), offset by a quarter of a module at a time: one profile across the strip per
angle, the discrete Radon transform of the strip. A line is *dark* when its mean lies below
the lighter of its two neighbourhoods (:data:`NEIGHBOURS` modules either side: a card's
outline is narrow, a shadow's slope is not a dip) by :data:`EDGE_LINE` of the code's own
contrast, and by :data:`NOISE_Z` times the noise of such a mean (:func:`line_noise`; measured on
the code's light modules): a step out of the noise, never noise.

The sticker's own outer edge lies 4 modules out, parallel to the code, with the card's artwork
beyond it: a narrow strip of artwork between the sticker and a card's light border is a dark
line too. So a dark line counts only where no sticker edge can be: within
:data:`PARALLEL_REACH` modules at any angle, and out to :data:`ANGLED_REACH` modules only when
it runs :data:`MIN_ANGLE` degrees or more off the code's sides (a covering card's edge, never the
sticker's; a card laid exactly square to the code past 3.5 modules stays unseen: it lies where
the sticker's edge does). Even so, a strip of dark artwork right beyond the sticker still shows
through lines at 3–4° on about 3 % of the DEV top cards: the look is asked only where it earns
that (the noisy verdict, :func:`vision.table_codes._noisy_verdict`; docs/benchmarks.md).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from vision.table_edges import MIN_CONTRAST, code_grid
from vision.table_median import median

LINE_PX = 4  # grid pixels per module
STRIP = (0.5, 5.5)  # modules out from the code's edge: the pixels the lines average
ALONG = 4  # modules the strip runs past each end of a side (a card's edge runs on past the code)
ANGLES = tuple(range(-12, 13))  # degrees to the side: a card's edge at a small angle to the code
NEIGHBOURS = (0.75, 1.5)  # modules either side of a line: where the paper's level is taken
PARALLEL_REACH = 3.5  # modules out: a dark line this close is a card's edge at any angle
ANGLED_REACH = 4.5  # modules out: a dark line up to here is a card's edge if it runs at an angle
MIN_ANGLE = 3  # degrees off the code's sides: not the sticker's own edge
EDGE_LINE = 0.3  # of the code's contrast: how far a line's mean lies below its neighbourhoods
NOISE_Z = 6.0  # standard errors of a line's mean: a dip smaller than this may be noise
MIN_LINE = 6  # modules: a shorter line (one crossing the strip) is not averaged
STICKER_EDGE = 4.0  # modules out: the sticker's own edge; a shallow line past it may be that edge
STICKER_ANGLE = 4  # degrees off the code's sides: a line this shallow past STICKER_EDGE may be it
_MARGIN = math.ceil(STRIP[1])


def card_edge_beside(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray, *,
                     depth: float = EDGE_LINE) -> bool:
    """Whether a straight dark line, a covering card's edge, runs beside the code (``corners``:
    its outer corners in ``gray``, top left first, clockwise; ``expected``: its modules, True
    = dark), under noise that hides it from point samples (see the module's docstring).

    >>> n, k = 21, 3
    >>> modules = np.zeros((n, n), bool); modules[::2, ::3] = True
    >>> sticker = np.pad(np.where(modules, 30.0, 90.0), 4, constant_values=90.0)
    >>> card = np.pad(sticker, 4, constant_values=60.0)  # the card's artwork round the sticker
    >>> rng = np.random.default_rng(5)
    >>> frame = np.kron(card, np.ones((k, k))) + rng.normal(0, 5, (3 * 37, 3 * 37))
    >>> corners = np.array([(8, 8), (29, 8), (29, 29), (8, 29)], np.float32) * k - 0.5
    >>> card_edge_beside(frame, corners, modules)  # the sticker's edge 4 modules out: no card
    False
    >>> covered = np.kron(card, np.ones((k, k)))
    >>> ys, xs = np.mgrid[0:3 * 37, 0:3 * 37] / k
    >>> edge = 4.6 - 0.1 * (ys - 8)  # a card turned 6°, 3.4 to 5.5 modules left of the code
    >>> covered[xs < edge] = 85
    >>> covered[np.abs(xs - edge) < 0.25] = 40  # its outline
    >>> card_edge_beside(covered + rng.normal(0, 5, covered.shape), corners, modules)
    True
    """
    dips = line_dips(gray, corners, expected, depth=depth)
    if dips is None:
        return False
    return bool((dips > 0).any())


def line_dips(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray, *,
              depth: float = EDGE_LINE) -> np.ndarray | None:
    """How far each line beside the code (4 sides × :data:`ANGLES` × offsets a quarter of a
    module apart, from the code's edge outwards) lies below both its neighbourhoods, less the
    larger of ``depth`` (:data:`EDGE_LINE` unless told) of the code's contrast and
    :data:`NOISE_Z` standard errors of its mean: positive where a card's edge is seen; ``-inf``
    where a line is not looked at. ``None`` when the code shows too little contrast to judge (a
    washed-out code)."""
    n, k = expected.shape[0], LINE_PX
    grid = code_grid(gray, corners, n, k, _MARGIN)
    light, contrast = light_modules(grid, expected, k, _MARGIN)
    if contrast < MIN_CONTRAST:
        return None
    _, lengths = _lines(n)
    below = _below_neighbours(_line_means(_strip_blocks(grid, n), n))
    noise = line_noise(light, lengths * k, oversampling(corners, n, k))
    floor = np.maximum(depth * contrast, NOISE_Z * noise)[:, :, np.newaxis]
    return np.where(_looked_at(n)[:, :, np.newaxis], below - floor, -np.inf).transpose(2, 0, 1)


def line_noise(light: np.ndarray, pixels: np.ndarray, oversampling: float) -> np.ndarray:
    """The standard error of a line's mean of ``pixels`` grid pixels (any shape), from the
    sensor noise on the code's light modules (``light``: each module's middle, M × h × w grid
    pixels; its own mean taken out, so print and light gradients do not count). Neighbouring
    grid pixels along a line share the frame pixel they were interpolated from: a line holds
    about ``pixels / oversampling`` independent samples (``oversampling``: grid pixels per
    frame pixel, at least 1).

    >>> rng = np.random.default_rng(2)
    >>> light = 200 + rng.normal(0, 5, (300, 2, 2))
    >>> round(float(line_noise(light, np.array(100.0), 1.0)), 1)  # 5 / √100
    0.5
    """
    residuals = light - light.mean(axis=(1, 2), keepdims=True)
    free = residuals.size - len(residuals)  # each module's mean took one degree of freedom
    sigma = math.sqrt(float((residuals ** 2).sum()) / max(free, 1))
    independent = np.maximum(np.asarray(pixels, float) / max(oversampling, 1.0), 1.0)
    result: np.ndarray = sigma / np.sqrt(independent)
    return result


def light_modules(grid: np.ndarray, expected: np.ndarray, k: int, margin: int
                  ) -> tuple[np.ndarray, float]:
    """The middles of the code's light modules in ``grid`` (:func:`code_grid` at ``k`` pixels
    a module, ``margin`` modules round the code; M × (k − 2) × (k − 2)) and the code's
    contrast: the light modules' median mean less the dark ones'."""
    n = expected.shape[0]
    inner = grid[margin * k:(margin + n) * k, margin * k:(margin + n) * k]
    cells = inner.reshape(n, k, n, k)[:, 1:-1, :, 1:-1].transpose(0, 2, 1, 3)
    light = cells[~expected]
    contrast = float(median(light.mean(axis=(1, 2))) - median(cells[expected].mean(axis=(1, 2))))
    return light, contrast


def oversampling(corners: np.ndarray, n: int, k: int) -> float:
    """Grid pixels per frame pixel: ``k`` grid pixels a module over the code's frame pixels a
    module."""
    sides = np.linalg.norm(np.asarray(corners, float) - np.roll(corners, -1, axis=0), axis=1)
    return k / max(float(sides.mean()) / n, 1e-6)


def _strip_blocks(grid: np.ndarray, n: int) -> np.ndarray:
    """Each side's strip as blocks one module long (the grid's rows averaged by module along
    the side), the side turned to the left and its columns ordered outwards from the code's
    edge: ((n + 2 ALONG) · margin · LINE_PX) × 4, one column per side."""
    k, rows = LINE_PX, n + 2 * ALONG
    sides = []
    for side in range(4):
        turned = np.rot90(grid, side)  # left, top, right, bottom in turn become the left side
        strip = turned[(_MARGIN - ALONG) * k:(_MARGIN + n + ALONG) * k, _MARGIN * k - 1::-1]
        sides.append(strip.reshape(rows, k, -1).mean(axis=1).ravel())
    return np.stack(sides, axis=1)


@functools.cache
def _lines(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The strip's blocks (:func:`_strip_blocks`) each line passes through, one a block along
    the side (rows: angle by offset, its offset taken at the strip's middle; the index past the
    last block where the line is off the strip), and each line's length in blocks (modules; 0:
    not averaged, shorter than :data:`MIN_LINE` within :data:`STRIP`). The same for every code
    of a version: made once.

    >>> through, lengths = _lines(21)
    >>> through.shape, int(lengths.max()), int(lengths[len(ANGLES) // 2, 2])
    ((600, 29), 29, 29)
    """
    k, rows, columns = LINE_PX, n + 2 * ALONG, _MARGIN * LINE_PX
    out = (np.arange(columns) + 0.5) / k  # modules from the code's edge
    inside = (out >= STRIP[0]) & (out <= STRIP[1])
    along = np.arange(rows) - (rows - 1) / 2
    through = np.full((len(ANGLES), columns, rows), rows * columns)  # off the strip
    lengths = np.zeros((len(ANGLES), columns), int)
    for a, degrees in enumerate(ANGLES):
        shift = np.round(math.tan(math.radians(degrees)) * along * k).astype(int)
        for start in range(columns):  # a line may cross the strip from beyond its ends
            column = start + shift
            on = (column >= 0) & (column < columns)
            on[on] &= inside[column[on]]
            if on.sum() >= MIN_LINE:
                through[a, start, on] = np.flatnonzero(on) * columns + column[on]
                lengths[a, start] = on.sum()
    by_line = through.reshape(len(ANGLES) * columns, rows)
    by_line.setflags(write=False)
    lengths.setflags(write=False)
    return by_line, lengths


def _line_means(blocks: np.ndarray, n: int) -> np.ndarray:
    """Each line's mean (angle × offset × side) over the blocks it passes through; NaN for a
    line not averaged (no line, nor a neighbour)."""
    _, lengths = _lines(n)
    # each side's blocks in a row, gathered block by block along the lines (the line's blocks
    # on the middle axis): numpy sums a middle axis block after block, as it summed the
    # ``padded[through]`` gather's, so the same sums, at a sixth of the time (contiguous rows
    # instead of a row of 4 sides per block; issue 19 §4, branch tcost5)
    sides = np.zeros((blocks.shape[1], blocks.shape[0] + 1), blocks.dtype)  # + the line's end
    sides[:, :-1] = blocks.T
    sums = np.take(sides, _lines_by_block(n), axis=1).sum(axis=1)
    sums = sums.T.reshape(len(ANGLES), -1, blocks.shape[1])
    with np.errstate(invalid="ignore", divide="ignore"):
        means: np.ndarray = np.where(lengths[:, :, np.newaxis] > 0,
                                     sums / lengths[:, :, np.newaxis], np.nan)
    return means


@functools.cache
def _lines_by_block(n: int) -> np.ndarray:
    """:func:`_lines`' blocks, block by block along the side (rows) for every line (columns)."""
    through, _ = _lines(n)
    by_block = np.ascontiguousarray(through.T)
    by_block.setflags(write=False)
    return by_block


def _below_neighbours(means: np.ndarray) -> np.ndarray:
    """How far each line's mean (angle × offset × side) lies below the lighter of the brightest
    lines :data:`NEIGHBOURS` modules inward and outward of it at the same angle; ``-inf`` where
    a neighbourhood holds no line."""
    near, far = (round(m * LINE_PX) for m in NEIGHBOURS)
    count = means.shape[1]
    # np.pad's result (the lines past both ends of the strip: none), without its Python
    padded = np.full((means.shape[0], count + 2 * far, means.shape[2]), -np.inf, means.dtype)
    padded[:, far:far + count] = np.nan_to_num(means, nan=-np.inf)
    # the largest of a few shifted views, pairwise (a maximum is exact in any order), without
    # stacking them into one array first
    inward = functools.reduce(np.maximum, (padded[:, far - s:far - s + count]
                                           for s in range(near, far + 1)))
    outward = functools.reduce(np.maximum, (padded[:, far + s:far + s + count]
                                            for s in range(near, far + 1)))
    below: np.ndarray = np.minimum(inward, outward) - np.nan_to_num(means, nan=np.inf)
    return below


@functools.cache
def _looked_at(n: int) -> np.ndarray:
    """Where a dark line counts (angle × offset): averaged, and within :data:`PARALLEL_REACH`
    modules, or within :data:`ANGLED_REACH` at :data:`MIN_ANGLE` degrees or more."""
    _, lengths = _lines(n)
    out = (np.arange(lengths.shape[1]) + 0.5) / LINE_PX
    angled = np.abs(np.array(ANGLES))[:, np.newaxis] >= MIN_ANGLE
    reach = np.where(angled, out <= ANGLED_REACH, out <= PARALLEL_REACH)
    looked: np.ndarray = (lengths > 0) & reach & (out >= NEIGHBOURS[0])
    looked.setflags(write=False)
    return looked


@functools.cache
def sticker_edge_lines(n: int) -> np.ndarray:
    """The lines (angle × offset, as :func:`line_dips`' last two axes) that may be the sticker's
    own edge seen askew: past :data:`STICKER_EDGE` modules, within :data:`STICKER_ANGLE` degrees
    of the code's sides. A 3° line 4.4 modules out crosses the edge within 7 modules of the
    side's middle and runs along its dark side for the rest (issue 19 §3, branch tglow: 17 of
    21 strong-highlight tops refused under the glow, by such a line alone).

    >>> edge = sticker_edge_lines(21)
    >>> out = (np.arange(edge.shape[1]) + 0.5) / LINE_PX
    >>> bool(edge[ANGLES.index(3), out == 4.375]), bool(edge[ANGLES.index(5), out == 4.375])
    (True, False)
    """
    _, lengths = _lines(n)
    out = (np.arange(lengths.shape[1]) + 0.5) / LINE_PX
    shallow = np.abs(np.array(ANGLES))[:, np.newaxis] <= STICKER_ANGLE
    edge: np.ndarray = shallow & (out > STICKER_EDGE)
    edge.setflags(write=False)
    return edge


STICKER_FAN = True
"""Whether the sticker's own edge is also seen in the steeper lines fanning out of it
(:func:`sticker_edge_fan`). A line crossing the edge's dark side at 5–8° dips less the steeper
it runs: 2 of the 32 strong-highlight tops bare zxing-cpp read and the reader did not (fresh10
10086 f3, tstrong's 11048 f1: 62 and 61 saturated modules, no card's corner out there) were
refused under the glow by such lines alone, 4.1–4.4 modules out (one at 3.9), 5–8° off the
side, each below a 3–4° line at 4.4 on the same side that is no card's outline in plain light
(:data:`EDGE_LINE`). Where a card's light border lies beyond the sticker, the artwork's strip
between them dips three to five times deeper: its lines are still a card's (issue 19 §3,
branch tstrong3)."""
FAN_WIDTH = 0.5  # modules: how far in or out of the sticker's line the fan's lines lie


def sticker_edge_fan(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray,
                     dips: np.ndarray) -> np.ndarray:
    """Which lines (side × angle × offset: ``dips``, :func:`line_dips` of the code ``corners``
    in ``gray``) may be the sticker's own edge: the lines :func:`sticker_edge_lines` names and,
    where :data:`STICKER_FAN` is on, the fan out of a side's deepest line (:func:`_fan`) when
    that line is one of them and no darker than a card's outline in plain light
    (:data:`EDGE_LINE`: a strip of artwork between the sticker and a card's light border is)."""
    edge = sticker_edge_lines(expected.shape[0])
    excused = np.broadcast_to(edge, dips.shape).copy()
    if not STICKER_FAN:
        return excused
    fans = np.array([_fan(side, edge) for side in dips])
    if not (fans & (dips > 0) & ~excused).any():
        return excused
    plain = line_dips(gray, corners, expected)
    for side in np.flatnonzero(fans.any(axis=(1, 2))):
        peak = np.unravel_index(int(np.argmax(dips[side])), edge.shape)
        if plain is not None and plain[side][peak] <= 0:
            excused[side] |= fans[side]
    return excused


def _fan(dips: np.ndarray, edge: np.ndarray) -> np.ndarray:
    """One side's fan (angle × offset, as ``dips``): where its deepest line is the sticker's
    edge (``edge``, :func:`sticker_edge_lines`), the steeper lines turning the same way within
    :data:`FAN_WIDTH` of its offset (past :data:`PARALLEL_REACH`), as long as their depth,
    angle by angle, falls as they turn further from the code's side — the edge smeared across
    angles, where a card's edge dips deepest at its own angle; none otherwise.

    >>> edge = sticker_edge_lines(21)
    >>> dips = np.full(edge.shape, -1.0)
    >>> four = (np.arange(dips.shape[1]) + 0.5) / LINE_PX == 4.375
    >>> for angle, depth in ((3, 8.0), (5, 5.0), (6, 3.0)):
    ...     dips[ANGLES.index(angle), four] = depth
    >>> bool((_fan(dips, edge) | edge | (dips <= 0)).all())
    True
    >>> dips[ANGLES.index(7), four] = 4.0  # deeper than the 6° line: a card's edge at 7°
    >>> bool(_fan(dips, edge).any())
    False
    """
    none = np.zeros(dips.shape, bool)
    angle, offset = np.unravel_index(int(np.argmax(dips)), dips.shape)
    if not edge[angle, offset] or dips[angle, offset] <= 0:
        return none
    out = (np.arange(dips.shape[1]) + 0.5) / LINE_PX
    turn = np.sign(ANGLES[angle]) * np.array(ANGLES)  # > 0: turning the peak's way
    near = (np.abs(out - out[offset]) <= FAN_WIDTH) & (out > PARALLEL_REACH)
    fan = (turn[:, np.newaxis] > STICKER_ANGLE) & near
    depth = np.where(fan, dips.clip(0.0), 0.0).max(axis=1)[np.argsort(turn)]
    steeper = depth[np.sort(turn) > STICKER_ANGLE]
    return fan if bool(np.all(np.diff(steeper) <= 0)) else none


def line_depths(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray
                ) -> np.ndarray | None:
    """How far each line beside the code (side × angle × offset, as :func:`line_dips`) lies
    below both its neighbourhoods, in the code's contrast, whether it is looked at or not (the
    lines parallel to the code past :data:`PARALLEL_REACH` included: where the sticker's own
    edge lies); NaN-free but ``-inf`` where a neighbourhood holds no line. ``None`` when the code
    shows too little contrast to judge."""
    n, k = expected.shape[0], LINE_PX
    grid = code_grid(gray, corners, n, k, _MARGIN)
    _, contrast = light_modules(grid, expected, k, _MARGIN)
    if contrast < MIN_CONTRAST:
        return None
    below = _below_neighbours(_line_means(_strip_blocks(grid, n), n))
    depths: np.ndarray = (below / contrast).transpose(2, 0, 1)
    return depths
