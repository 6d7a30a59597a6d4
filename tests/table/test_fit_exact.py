"""Judging a code cheaper, every verdict identical (issue 19, branch tfit): the fit's points and
weights made once per version and code, and each grid's module means sampled once per
judgement, give exactly what the straightforward computation gives, on random codes."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest
import segno

from vision.table_codes import (
    _fit_points,
    _fit_weights,
    _GridFit,
    _means_kept_during,
    _module_means,
    _square_to_quad,
    _warped_module_means,
    visibility,
)

PX = 4  # pixels per module


def reference_points_and_weights(expected: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The fit's points and weights as they were built for every fit before they were kept."""
    n = expected.shape[0]
    offsets = np.array([(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)])
    centres = np.stack(np.meshgrid(np.arange(n) + 0.5, np.arange(n) + 0.5), axis=-1)
    unit = (centres.reshape(-1, 1, 2) + offsets).reshape(-1, 2) / n
    points = np.vstack([unit.T, np.ones(len(unit))]).astype(np.float32)
    weights = np.repeat(np.where(expected, -1.0, 1.0).ravel() / (n * n),
                        len(offsets)).astype(np.float32)
    return points, weights


def reference_square_to_quad(quads: np.ndarray, points: np.ndarray
                             ) -> tuple[np.ndarray, np.ndarray]:
    """The fit's projective maps as they were written before, coordinate by coordinate."""
    x0, x1, x2, x3 = (quads[:, i, 0] for i in range(4))
    y0, y1, y2, y3 = (quads[:, i, 1] for i in range(4))
    dx1, dx2, dx3 = x1 - x2, x3 - x2, x0 - x1 + x2 - x3
    dy1, dy2, dy3 = y1 - y2, y3 - y2, y0 - y1 + y2 - y3
    det = dx1 * dy2 - dy1 * dx2
    g = (dx3 * dy2 - dy3 * dx2) / det
    h = (dx1 * dy3 - dy1 * dx3) / det
    rows = np.stack([x1 - x0 + g * x1, x3 - x0 + h * x3, x0,
                     y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h, np.ones_like(g)], axis=1)
    mapped = (rows.reshape(-1, 3).astype(np.float32) @ points.astype(np.float32)
              ).reshape(len(quads), 3, -1)
    return mapped[:, 0] / mapped[:, 2], mapped[:, 1] / mapped[:, 2]


def random_code(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, SimpleNamespace]:
    """A random text's code, drawn tilted and blurred with sensor noise: the image, zxing-cpp's
    corners a little off, the expected modules, and a barcode as zxing-cpp returns one."""
    rng = np.random.default_rng(seed)
    text = f"NOAH1/BOX{rng.integers(1, 9)}/C{rng.integers(0, 10**6)}"
    version = int(rng.integers(1, 3))
    qr = segno.make_qr(text, error="l", version=version, boost_error=False)
    modules = np.array(qr.matrix, dtype=bool)
    n = modules.shape[0]
    flat = np.pad(np.where(np.kron(modules, np.ones((PX, PX))), 40, 210).astype(np.uint8),
                  4 * PX, constant_values=210)
    side = flat.shape[0]
    square = np.array([(0, 0), (side, 0), (side, side), (0, side)], np.float32)
    tilted = square + rng.uniform(-6, 6, (4, 2)).astype(np.float32) + 10
    to_image = cv2.getPerspectiveTransform(square, tilted)
    image = cv2.warpPerspective(flat, to_image, (side + 20, side + 20), borderValue=210)
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    image = np.clip(image + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)
    code = np.array([(4 * PX, 4 * PX), ((4 + n) * PX, 4 * PX), ((4 + n) * PX, (4 + n) * PX),
                     (4 * PX, (4 + n) * PX)], np.float32)
    corners = cv2.perspectiveTransform(code[None], to_image)[0]
    corners += rng.uniform(-0.5, 0.5, corners.shape).astype(np.float32)
    position = SimpleNamespace(**{name: SimpleNamespace(x=float(x), y=float(y)) for name, (x, y)
                                  in zip(("top_left", "top_right", "bottom_right",
                                          "bottom_left"), corners, strict=True)})
    barcode = SimpleNamespace(text=text, position=position, extra={
        "ECLevel": "L", "Version": str(version), "DataMask": qr.mask})
    return image, corners, modules, barcode


@pytest.mark.parametrize("seed", range(4))
def test_the_fits_kept_points_and_weights_are_the_straightforward_ones(seed):
    """The points made once per version and the weights once per code are, value for value,
    the ones each fit built for itself (so every fitted grid, hence every verdict, is the
    same)."""
    image, corners, expected, _ = random_code(seed)
    fit = _GridFit(image, corners, expected)
    points, weights = reference_points_and_weights(expected)
    assert np.array_equal(fit.points, points) and fit.points.dtype == points.dtype
    assert np.array_equal(fit.weights, weights) and fit.weights.dtype == weights.dtype
    assert _fit_points(expected.shape[0]) is _fit_points(expected.shape[0])
    assert _fit_weights(expected.tobytes(), expected.shape[0]).flags.writeable is False


@pytest.mark.parametrize("trials", [1, 16])
def test_the_fits_maps_are_bit_for_bit_the_straightforward_ones(trials):
    """The fit's maps computed for x and y together are, bit for bit, the ones computed
    coordinate by coordinate (the fit compares contrasts: a last bit could change a move)."""
    rng = np.random.default_rng(trials)
    square = np.array([(0, 0), (84, 0), (84, 84), (0, 84)], float)
    points = _fit_points(21)
    for _ in range(50):
        quads = square + rng.normal(0, 6, (trials, 4, 2)) + rng.uniform(0, 400, (1, 1, 2))
        for ours, theirs in zip(_square_to_quad(quads, points),
                                reference_square_to_quad(quads, points), strict=True):
            assert np.array_equal(ours, theirs) and ours.dtype == theirs.dtype


@pytest.mark.parametrize("seed", range(4))
def test_a_judgement_samples_each_grid_once_and_gives_the_same_means(seed):
    """Inside a judgement the same grid's means are sampled once and are exactly the warped
    ones; another image, or the same corners after the judgement, are sampled again."""
    image, corners, expected, _ = random_code(seed)
    n = expected.shape[0]
    other = 255 - image

    @_means_kept_during
    def judge() -> tuple[np.ndarray, ...]:
        return (_module_means(image, corners, n), _module_means(image, corners, n),
                _module_means(other, corners, n))

    first, again, on_other = judge()
    assert again is first  # sampled once
    assert np.array_equal(first, _warped_module_means(image, corners, n))
    assert np.array_equal(on_other, _warped_module_means(other, corners, n))
    assert not np.array_equal(on_other, first)
    assert _module_means(image, corners, n) is not first  # nothing kept past the judgement


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("card", [None, 1.5, 3.0], ids=["alone", "card-1.5", "card-3"])
def test_a_verdict_is_the_same_with_the_means_sampled_once(seed, card):
    """visibility's verdict on a random code, tilted, blurred and noisy, alone (whole) or with a
    light card over it from ``card`` modules past its top left corner (covered or unsure), with
    each grid's means sampled once is the one it gives sampling them at every use."""
    image, corners, _, barcode = random_code(seed)
    if card is not None:
        left, top = corners[0] + card * PX
        image[int(top):, int(left):] = 225
    verdict = visibility(barcode, image)
    assert verdict == visibility.__wrapped__(barcode, image)  # type: ignore[attr-defined]
    assert verdict == "whole" or card is not None
