"""The top-card rule's cheap parts (issue 19's speed work): the grid fitted to a code in one
batch per round, and the dark-border test before a marker is looked for again."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import segno

from vision.table_codes import EDGE_DIP, _expected_modules, _fitted_corners, edge_dips
from vision.table_kit import marker_cells
from vision.table_markers import has_dark_border

PX = 4  # pixels per module: the kit's 75 cm


def code_image(text: str = "NOAH1/BOX1/CAF1", blur: float = 0.8) -> tuple[np.ndarray, np.ndarray,
                                                                          np.ndarray]:
    """A version 1 code drawn at PX pixels per module with 4 modules of quiet zone, its true
    outer corners and its expected modules."""
    qr = segno.make_qr(text, error="q", version=1, boost_error=False)
    modules = np.array(qr.matrix, dtype=bool)
    n = modules.shape[0]
    image = np.where(np.kron(modules, np.ones((PX, PX))), 40, 210).astype(np.uint8)
    image = np.pad(image, 4 * PX, constant_values=210)
    image = cv2.GaussianBlur(image, (0, 0), blur)
    edge = 4 * PX + n * PX - 0.5
    start = 4 * PX - 0.5
    corners = np.array([(start, start), (edge, start), (edge, edge), (start, edge)], np.float32)
    expected = _expected_modules(text, "Q", "1", qr.mask)
    assert expected is not None and (expected == modules).all()
    return image, corners, expected


@pytest.mark.parametrize("shift", [((0, 0), 0.4), ((2, 1), -0.5), ((3, 0), 0.3)])
def test_the_fit_brings_a_corner_back_onto_the_code(shift):
    """zxing-cpp's estimated fourth corner may be off by half a module: the fit moves it back
    (each corner by at most FIT_LIMIT modules), the other corners staying put."""
    image, truth, expected = code_image()
    (corner, axis), modules = shift
    start = truth.copy()
    start[corner, axis] += modules * PX
    fitted = _fitted_corners(image, start, expected)
    assert np.abs(fitted - truth).max() <= 0.15 * PX + 0.5


def test_the_fit_never_moves_a_corner_past_its_limit():
    """A corner 1.5 modules off is moved by at most FIT_LIMIT (0.6) modules (of the size its
    corners give), and so stays off: the fit aligns a grid, it does not find a code."""
    image, truth, expected = code_image()
    start = truth.copy()
    start[1, 0] += 1.5 * PX
    fitted = _fitted_corners(image, start, expected)
    module = float(np.linalg.norm(start[1] - start[0])) / expected.shape[0]
    assert np.abs(fitted - start).max() <= 0.6 * module + 1e-3
    assert np.abs(fitted - truth).max() > 0.5 * PX


def test_a_markers_border_is_dark_and_a_stickers_code_is_not():
    """The test before a second search at full resolution: a marker (black border all round)
    passes, a QR code of the same size (its outer modules mixed) and a card's plain face don't."""
    cells = marker_cells(3)
    marker = np.pad(np.where(np.kron(cells, np.ones((12, 12))), 30, 220), 24,
                    constant_values=220).astype(np.uint8)
    square = np.array([(24, 24), (96, 24), (96, 96), (24, 96)], np.float32)
    assert has_dark_border(marker, square)
    code, corners, _ = code_image()
    assert not has_dark_border(code, corners)
    assert not has_dark_border(np.full((120, 120), 200, np.uint8), square)


def test_a_card_edge_along_a_side_shows_past_both_ends_and_a_shadow_does_not():
    """Issue 19's hole: a card's thin dark outline ¾ of a module inside the code's left edge,
    running on through the quiet zone above and below, is a dip on the left side only; a clean
    code and a soft shadow's slope across it are none."""
    image, corners, expected = code_image()
    assert (edge_dips(image, corners, expected) < 0.1).all()
    lined = image.copy()
    x = int(corners[0, 0] + 0.5 * PX)
    lined[:, x:x + 2] = 60
    dips = edge_dips(cv2.GaussianBlur(lined, (0, 0), 0.8), corners, expected)
    assert dips[0] > EDGE_DIP and (dips[1:] < 0.1).all()
    shadow = np.linspace(0.55, 1.0, image.shape[1])[None, :] * image
    assert (edge_dips(shadow.astype(np.uint8), corners, expected) < EDGE_DIP).all()
