"""A code's edge dips taken for its eight strips in one pass, the same floats (issue 19, branch
tjudge3): ``vision.table_codes.edge_dips`` averages the eight strips beyond a code's sides
together and finds their dips together; checked here against the strip-by-strip code it
replaced, written out as it was."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tests.table.test_fit_exact import random_code
from vision.table_codes import (
    EDGE_DEPTH,
    EDGE_PX,
    EDGE_REACH,
    _means_kept_during,
    _module_means,
    edge_dips,
)
from vision.table_edges import code_grid
from vision.table_median import median


def deepest_dip_as_it_was(profile: np.ndarray, k: int) -> float:
    left = np.maximum.accumulate(profile)[: len(profile) - 2 * k]
    right = np.maximum.accumulate(profile[::-1])[::-1][2 * k:]
    middle = profile[k: len(profile) - k]
    return max(float((np.minimum(left, right) - middle).max()), 0.0)


def edge_dips_as_they_were(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray, *,
                           both_ends: bool = True) -> np.ndarray:
    """``edge_dips`` as it was: each side's two strips averaged and looked at one by one."""
    n, k, margin = expected.shape[0], EDGE_PX, math.ceil(EDGE_DEPTH[1] + EDGE_REACH)
    grid = code_grid(gray, corners, n, k, margin)
    means = _module_means(gray, corners, n)
    contrast = max(float(median(means[~expected]) - median(means[expected])), 1.0)
    near, far = (round((margin - d) * k) for d in EDGE_DEPTH)
    near_b, far_b = (round((margin + n + d) * k) for d in EDGE_DEPTH)
    reach = round(EDGE_REACH * k)
    dips = []
    for side in range(4):
        turned = np.rot90(grid, side)
        edge = margin * k
        columns = slice(edge - reach, edge + reach + 1)
        strips = (turned[far:near, columns], turned[near_b:far_b, columns])
        ends = [deepest_dip_as_it_was(strip.mean(axis=0), k) for strip in strips]
        dips.append((min(ends) if both_ends else max(ends)) / contrast)
    return np.array(dips)


def with_a_card_edge(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The image with a dark line (a card's outline) at a random place and angle."""
    lined = image.copy()
    height, width = image.shape
    start = (int(rng.integers(0, width)), 0)
    end = (int(rng.integers(0, width)), height - 1)
    cv2.line(lined, start, end, int(rng.integers(20, 120)), int(rng.integers(1, 4)))
    return lined


@pytest.mark.parametrize("seed", range(12))
def test_the_edge_dips_are_the_ones_strip_by_strip(seed):
    """Random codes (versions 1 and 2, tilted, blurred, noisy), bare and crossed by a card's
    outline, on zxing-cpp's corners and corners a pixel off: every side's dip the same
    float64, with both ends asked for and with either."""
    image, corners, expected, _ = random_code(seed)
    rng = np.random.default_rng(seed)
    for gray in (image, with_a_card_edge(image, rng)):
        for grid in (corners, corners + rng.uniform(-1, 1, corners.shape).astype(np.float32)):
            for both_ends in (True, False):
                ours = _means_kept_during(edge_dips)(gray, grid, expected, both_ends=both_ends)
                theirs = edge_dips_as_they_were(gray, grid, expected, both_ends=both_ends)
                assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs)
