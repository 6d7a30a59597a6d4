"""``cv2.remap``'s maps laid out in long rows, the same bytes (issue 19 §4, branch tcost4;
vision/table_codes.py :func:`remap_rows`): the grid fit's scores (:meth:`_GridFit._scored`),
the quiet-zone rings' samples (:func:`_sampled`, the noise test's rings and the glare rule's)
and the corner look's legs (:func:`vision.table_corners._leg_maps`), each against a written-out
copy of the code it replaced (main before tcost4), which laid the maps out in rows of one
module row's samples, in a column, and in rows of one leg's samples."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.table.test_fit_exact import random_code
from vision.table_codes import (
    FIT_BATCH,
    REMAP_MAX_COLUMNS,
    _GridFit,
    _rings,
    _sampled,
    _square_to_quad,
    remap_rows,
)
from vision.table_corners import _CORNERS, _MARGIN, CORNER_PX, LEG, SIDE, _candidates, _leg_maps
from vision.table_glare import _quiet_zone_rings

# -- the code as it was (main before branch tcost4) ---------------------------------------------


def scored_as_it_was(fit: _GridFit, quads: np.ndarray | list[list[float]]) -> np.ndarray:
    x, y = _square_to_quad(quads, fit.points)
    rows = (-1, 4 * fit.n)  # remap's maps: fewer than 32767 columns, whatever the version
    values = cv2.remap(fit.patch, x.reshape(rows), y.reshape(rows), cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    result: np.ndarray = values.reshape(len(quads), -1).astype(np.float32) @ fit.weights
    return result.astype(np.float64)


def sampled_as_it_was(gray: np.ndarray, corners: np.ndarray, points: np.ndarray, n: int
                      ) -> np.ndarray:
    square = np.array([(0, 0), (n, 0), (n, n), (0, n)], np.float32)
    to_frame = cv2.getPerspectiveTransform(square, np.asarray(corners, np.float32))
    xy = cv2.perspectiveTransform(points, to_frame).reshape(-1, 2)
    values = cv2.remap(gray, xy[:, 0].reshape(-1, 1), xy[:, 1].reshape(-1, 1),
                       cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(values).ravel().astype(float)


def leg_maps_as_they_were(n: int, corner: int) -> list[np.ndarray]:
    """Each map of the corner look as it was laid out (x then y, leg direction by direction)."""
    x0, y0, sx, sy = _CORNERS[corner](n)
    points, directions = _candidates(sx, sy)
    origin = np.array([x0 + _MARGIN, y0 + _MARGIN], float)
    maps = []
    for direction in directions:
        normal = np.stack([-direction[..., 1], direction[..., 0]], axis=-1)
        for across in ((0.0,), SIDE, tuple(-s for s in SIDE)):
            at = (points[..., np.newaxis, np.newaxis, :]
                  + direction[..., np.newaxis, np.newaxis, :] * np.array(LEG)[:, None, None]
                  + normal[..., np.newaxis, np.newaxis, :] * np.array(across)[None, :, None])
            pixels = ((at + origin) * CORNER_PX - 0.5).astype(np.float32)
            rows = pixels.reshape(-1, len(LEG) * len(across), 2)
            maps += [np.ascontiguousarray(rows[..., 0]), np.ascontiguousarray(rows[..., 1])]
    return maps


# -- the cases ----------------------------------------------------------------------------------


def _trial_grids(fit: _GridFit, count: int, seed: int) -> list[list[float]]:
    """``count`` grids round the fit's start, moved up to its limit (and some far past it, onto
    the patch's border), as plain floats: what the fit's rounds score."""
    rng = np.random.default_rng(seed)
    reach = np.where(rng.random((count, 1)) < 0.2, 6 * fit.limit, fit.limit)
    moves = rng.uniform(-1.0, 1.0, (count, 8)) * reach
    grids: list[list[float]] = (fit.start.reshape(1, 8) + moves).tolist()
    return grids


@pytest.mark.parametrize("seed", range(4))
def test_the_fits_scores_are_the_old_bytes(seed: int) -> None:
    """A round's batch of 16 grids, a single grid (the moves taken together, a fit's start),
    an odd batch and the shift's 121 grids in batches: every score the same to the bit."""
    image, corners, expected, _ = random_code(seed)
    fit = _GridFit(image, corners, expected)
    for count in (FIT_BATCH, 1, 9):
        grids = _trial_grids(fit, count, seed)
        new, old = fit.scores_of(grids), scored_as_it_was(fit, grids)
        assert (new.dtype, new.shape) == (old.dtype, old.shape)
        assert new.tobytes() == old.tobytes()
    quads = np.array(_trial_grids(fit, 121, seed)).reshape(-1, 4, 2)
    batches = np.split(quads, list(range(FIT_BATCH, len(quads) - 1, FIT_BATCH)))
    old = np.concatenate([scored_as_it_was(fit, part) for part in batches])
    assert fit.scores(quads).tobytes() == old.tobytes()


@pytest.mark.parametrize("seed", range(4))
def test_the_rings_samples_are_the_old_bytes(seed: int) -> None:
    """The noise test's two rings and the glare rule's three, on a code and past the image's
    edge (a code cut by the crop's border: remap's replicated border)."""
    image, corners, expected, _ = random_code(seed)
    n = expected.shape[0]
    for points in (_rings(n), _quiet_zone_rings(n)):
        for where in (corners, corners - np.float32(corners.min() + 6)):
            new, old = _sampled(image, where, points, n), sampled_as_it_was(image, where,
                                                                               points, n)
            assert (new.dtype, new.shape) == (old.dtype, old.shape)
            assert new.tobytes() == old.tobytes()


@pytest.mark.parametrize("n", (21, 25))
def test_the_corner_looks_maps_hold_the_old_floats_in_order(n: int) -> None:
    """The corner look's maps, laid out in longer rows, hold the very floats in the same order
    (so each leg's samples, reshaped to the leg's own shape, are the same; its dips are checked
    against the code before tcost3 in tests/table/test_corner_maps_exact.py)."""
    for corner in range(4):
        new = [array for leg_maps in _leg_maps(n, corner) for map_x, map_y, _ in leg_maps
               for array in (map_x, map_y)]
        old = leg_maps_as_they_were(n, corner)
        assert [a.size for a in new] == [a.size for a in old]
        for now, before in zip(new, old, strict=True):
            assert now.dtype == before.dtype and now.flags.c_contiguous
            assert now.tobytes() == before.tobytes()
            assert now.shape[1] <= REMAP_MAX_COLUMNS and now.shape[1] % before.shape[1] == 0


@pytest.mark.parametrize(("count", "unit"), [(16 * 1764, 84), (1764, 84), (16 * 2500, 100),
                                             (360, 1), (40000, 1), (1089 * 36, 36), (7, 7)])
def test_remap_rows_cover_the_samples_in_whole_units(count: int, unit: int) -> None:
    rows, columns = remap_rows(count, unit)
    assert rows * columns == count
    assert columns % unit == 0 and columns <= REMAP_MAX_COLUMNS
