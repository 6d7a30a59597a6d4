"""The glare rule's and the line look's CPU cut, the same bytes (issue 19 §4, branch tcost5):
the neighbours' window medians taken only at the modules a highlight lifts
(:func:`vision.table_glare._glare_errors`, :func:`~vision.table_glare._window_median`), the lit
quiet zone's shoulders gathered for all its runs at once
(:func:`~vision.table_glare._outline_in_light`), and the line look's sums gathered side by
side (:func:`vision.table_lines._line_means`) and their neighbourhoods padded without
``np.pad`` (:func:`~vision.table_lines._below_neighbours`) — each against a written-out copy
of the code it replaced (main 576ce03), on random codes' levels and on random numbers."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import vision.table_glare
from tests.table.test_fit_exact import random_code
from vision.table_codes import _otsu
from vision.table_edges import code_grid
from vision.table_glare import (
    GLARE_REACH,
    LOCAL_CONTRAST,
    LOCAL_WINDOW,
    OUTLINE_DIP,
    OUTLINE_REACH,
    _glare_errors,
    _grown,
    _outline_in_light,
    _ring_runs,
    _shoulder_samples,
    _window_median,
)
from vision.table_lines import (
    _MARGIN,
    ANGLES,
    LINE_PX,
    NEIGHBOURS,
    _below_neighbours,
    _line_means,
    _lines,
    _strip_blocks,
)

# -- the code as it was (main 576ce03) ------------------------------------------------------------


def window_median_as_it_was(means: np.ndarray, which: np.ndarray) -> np.ndarray:
    r = LOCAL_WINDOW
    padded = np.pad(np.where(which, means, np.nan), r, constant_values=np.nan)
    windows = np.lib.stride_tricks.sliding_window_view(padded, (2 * r + 1, 2 * r + 1))
    ordered = np.sort(windows.reshape(*means.shape, -1), axis=-1)
    count = np.count_nonzero(~np.isnan(ordered), axis=-1)
    high = count // 2
    low = np.where(count % 2 == 1, high, high - 1)
    middle = np.take_along_axis(ordered, np.stack([np.maximum(low, 0), high], axis=-1),
                                axis=-1)
    median = (middle[..., 0] + middle[..., 1]) / 2
    return np.where(count > 0, median, np.nan).astype(np.float32)


def glare_errors_as_they_were(means: np.ndarray, expected: np.ndarray, lifted: np.ndarray,
                              contrast: float) -> tuple[np.ndarray, np.ndarray]:
    wrong = (means < _otsu(means[~lifted])) != expected
    light_ref = window_median_as_it_was(means, ~expected)
    dark_ref = window_median_as_it_was(means, expected)
    local = light_ref - dark_ref
    washed = lifted & ~(local >= LOCAL_CONTRAST * contrast)
    locally_dark = means < (light_ref + dark_ref) / 2
    wrong = np.where(lifted, (locally_dark != expected) & ~washed, wrong)
    return wrong, washed


def shoulders_as_they_were(ring: np.ndarray, n: int) -> np.ndarray:
    r, shoulders = OUTLINE_REACH, []
    for run in _ring_runs(ring, n):
        padded = np.pad(run, r, mode="edge")
        windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * r + 1)
        left, right = windows[:, :r].max(axis=1), windows[:, r + 1:].max(axis=1)
        shoulders.append(np.minimum(left, right))
    return np.concatenate(shoulders)


def outline_in_light_as_it_was(ring: np.ndarray, n: int, paper: float, contrast: float) -> bool:
    r = OUTLINE_REACH
    for run in _ring_runs(ring, n):
        padded = np.pad(run, r, mode="edge")
        windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * r + 1)
        left, right = windows[:, :r].max(axis=1), windows[:, r + 1:].max(axis=1)
        shoulder = np.minimum(left, right)
        if bool(((shoulder - run > OUTLINE_DIP * contrast) & (shoulder > paper)).any()):
            return True
    return False


def line_means_as_they_were(blocks: np.ndarray, n: int) -> np.ndarray:
    through, lengths = _lines(n)
    padded = np.vstack([blocks, np.zeros((1, blocks.shape[1]), blocks.dtype)])
    sums = np.take(padded, through, axis=0).sum(axis=1).reshape(len(ANGLES), -1,
                                                                blocks.shape[1])
    with np.errstate(invalid="ignore", divide="ignore"):
        means: np.ndarray = np.where(lengths[:, :, np.newaxis] > 0,
                                     sums / lengths[:, :, np.newaxis], np.nan)
    return means


def below_neighbours_as_it_was(means: np.ndarray) -> np.ndarray:
    near, far = (round(m * LINE_PX) for m in NEIGHBOURS)
    padded = np.pad(np.nan_to_num(means, nan=-np.inf), ((0, 0), (far, far), (0, 0)),
                    constant_values=-np.inf)
    count = means.shape[1]
    inward = functools.reduce(np.maximum, (padded[:, far - s:far - s + count]
                                           for s in range(near, far + 1)))
    outward = functools.reduce(np.maximum, (padded[:, far + s:far + s + count]
                                            for s in range(near, far + 1)))
    below: np.ndarray = np.minimum(inward, outward) - np.nan_to_num(means, nan=np.inf)
    return below


# -- helpers ------------------------------------------------------------------------------------


def same_bytes(ours: np.ndarray, theirs: np.ndarray) -> bool:
    return (ours.dtype == theirs.dtype and ours.shape == theirs.shape
            and ours.tobytes() == theirs.tobytes())


def highlit_levels(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray,
                                                              np.ndarray]:
    """A code's module means (float32) under a highlight's patch, its modules, and the
    modules the highlight lifts (grown as the rule grows them)."""
    expected = rng.random((n, n)) < 0.5
    means = np.where(expected, 40.0, 200.0) + rng.normal(0, 12, (n, n))
    top, left = rng.integers(0, n - 3, 2)
    size = int(rng.integers(2, n))
    flipped = rng.random((n, n)) < 0.03  # a card's white, or a lifted dark module
    means[flipped] = np.where(expected[flipped], 200.0, 40.0)
    means[top:top + size, left:left + size] += rng.uniform(20, 210)  # up to washing out
    means = np.clip(means, 0, 255).astype(np.float32)
    if rng.random() < 0.3:
        means = np.round(means)  # whole levels: ties in the windows
    bright = means > 235
    if not bright.any():
        bright[top, left] = True
    return means, expected, _grown(bright, GLARE_REACH)


# -- the tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_window_medians_at_some_modules_are_those_of_all(seed):
    """Each module's window median is the same bytes asked alone, with others, or for the
    whole code (issue 19 §4, branch tcost5): every window is sorted by itself."""
    rng = np.random.default_rng(seed)
    for n in (21, 25, 29):
        means = rng.uniform(0, 255, (n, n)).astype(np.float32)
        if seed % 2:
            means = np.round(means)
        for share in (0.0, 0.1, 0.5, 0.9, 1.0):
            which = rng.random((n, n)) < share
            at = rng.random((n, n)) < rng.uniform(0, 1)
            whole = window_median_as_it_was(means, which)
            assert same_bytes(_window_median(means, which), whole)
            assert same_bytes(_window_median(means, which, at=at), whole[at])


@pytest.mark.parametrize("seed", range(6))
def test_the_glare_errors_are_the_ones_they_were(seed):
    """The modules read wrong and those washed out under a highlight: the same arrays with
    the neighbours' medians taken only where the highlight lifts (issue 19 §4, branch
    tcost5)."""
    rng = np.random.default_rng(100 + seed)
    for n in (21, 25):
        for _ in range(8):
            means, expected, lifted = highlit_levels(rng, n)
            contrast = float(rng.uniform(20, 160))
            ours = _glare_errors(means, expected, lifted, contrast)
            theirs = glare_errors_as_they_were(means, expected, lifted, contrast)
            assert all(same_bytes(a, b) for a, b in zip(ours, theirs, strict=True))


@pytest.mark.parametrize("seed", range(4))
def test_the_lit_quiet_zones_shoulders_are_the_ones_they_were(seed, monkeypatch):
    """The quiet-zone samples' shoulders gathered for all runs at once are the run-by-run
    ones, and the outline verdict the same at thresholds that split the samples (issue 19 §4,
    branch tcost5; any one dipping sample counting, as it did then: OUTLINE_SHAPED off)."""
    monkeypatch.setattr(vision.table_glare, "OUTLINE_SHAPED", False)
    rng = np.random.default_rng(200 + seed)
    for n, rings in ((21, 2), (21, 3), (25, 3), (29, 3)):
        count = rings * (8 * n + 12)
        ring = rng.uniform(60, 255, count)
        ring[rng.integers(0, count, 6)] -= 50  # a few outline-like dips
        left, right = _shoulder_samples(n, count)
        shoulder = np.minimum(ring[left].max(axis=1), ring[right].max(axis=1))
        assert same_bytes(shoulder, shoulders_as_they_were(ring, n))
        for paper in (100.0, 180.0, 240.0, 260.0):
            for contrast in (20.0, 80.0, 200.0):
                assert _outline_in_light(ring, n, paper, contrast) \
                    == outline_in_light_as_it_was(ring, n, paper, contrast)


@pytest.mark.parametrize("seed", range(6))
def test_the_line_looks_sums_are_the_ones_they_were(seed):
    """Every line's mean beside a random code (versions 1 and 2) and over random blocks, and
    its depth below its neighbourhoods: the same bytes, NaN and -inf where they were (issue 19
    §4, branch tcost5)."""
    image, corners, expected, _ = random_code(seed)
    n = expected.shape[0]
    blocks = _strip_blocks(code_grid(image, corners, n, LINE_PX, _MARGIN), n)
    rng = np.random.default_rng(300 + seed)
    for sample in (blocks, rng.uniform(0, 255, blocks.shape).astype(np.float32),
                   np.round(rng.uniform(0, 255, blocks.shape)).astype(np.float32)):
        means = _line_means(sample, n)
        assert same_bytes(means, line_means_as_they_were(sample, n))
        assert same_bytes(_below_neighbours(means), below_neighbours_as_it_was(means))


def test_the_cases_reach_washed_and_wrong_modules():
    """The glare cases are not all trivial: some modules come out washed out, some wrong
    under the highlight, some outlines dip in a lit quiet zone."""
    rng = np.random.default_rng(100)
    washed_seen = wrong_seen = 0
    for _ in range(16):
        means, expected, lifted = highlit_levels(rng, 21)
        wrong, washed = _glare_errors(means, expected, lifted, 100.0)
        washed_seen += int(washed.sum())
        wrong_seen += int((wrong & lifted).sum())
    assert washed_seen > 0 and wrong_seen > 0
    ring = rng.uniform(200, 220, 3 * (8 * 21 + 12))
    ring[[40, 180 + 40]] = 150.0  # a line across the first two rings
    assert _outline_in_light(ring, 21, 190.0, 100.0)
