"""The quiet-zone band in shade (issue 19, branch tband; vision/table_edges.py): paper that
darkens smoothly towards the sticker's edge, faster than the code's own light surface says (a
shade's or a side light's fall-off), is paper; a card's outline in the same shade, or something
dark lying there, is still seen."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import zxingcpp

from tests.table.test_fit import PX, code_image
from vision.table_codes import visibility
from vision.table_edges import (
    MAX_DARK_AREA,
    PAPER_SHARE,
    SHADE_FLOOR,
    _band_mask,
    paper_shares,
    quiet_zone_is_clear,
)


def _shaded(image: np.ndarray, drop: float, noise: float = 0.0, seed: int = 0) -> np.ndarray:
    """The image with its paper darkening from the code's right edge outwards, by ``drop`` of
    its light at the sticker's edge 4 modules out (flat over the code: its light modules do not
    show it), with sensor noise of σ ``noise``."""
    code_edge = image.shape[1] - 4 * PX
    out = np.clip((np.arange(image.shape[1]) - code_edge) / (4 * PX), 0.0, None)
    fall = 1.0 - drop * out ** 1.5
    lit = image.astype(np.float64) * fall + np.random.default_rng(seed).normal(
        0.0, noise, image.shape)
    return np.clip(np.round(lit), 0, 255).astype(np.uint8)


def _band(image: np.ndarray, corners: np.ndarray, expected: np.ndarray
          ) -> tuple[float, float]:
    """The band's area darker than paper against the code's light surface (module²), and its
    darkest share."""
    shares = paper_shares(image, corners, expected)
    assert shares is not None
    band = _band_mask(expected.shape[0])
    return float(((shares < PAPER_SHARE) & band).sum()) / 16, float(shares[band].min())


@pytest.mark.parametrize("noise", [0.0, 2.0, 4.0])
def test_paper_darkening_towards_the_stickers_edge_is_paper(noise):
    """Issue 19 (tmiss2's table: whole top cards bare zxing-cpp reads, lost to their band): the
    paper's light falls by a fifth from the code's edge to the band's outer edge, 3 modules
    out; the code's quadratic light surface, fitted on the code, stands above the paper
    beyond, so against it several module² of the band are darker than paper. A smooth fall-off
    with no outline is shade: the band is clear and the code whole (main: covered)."""
    image, corners, expected = code_image(blur=0.8)
    shaded = _shaded(image, 0.3, noise)
    assert _band(shaded, corners, expected)[0] > MAX_DARK_AREA  # the first test fails it
    assert quiet_zone_is_clear(shaded, corners, expected)
    (barcode,) = zxingcpp.read_barcodes(shaded)
    assert visibility(barcode, shaded) == "whole"


@pytest.mark.parametrize("modules_out", [1.2, 2.0, 2.7])
def test_a_faint_card_outline_in_the_shade_is_seen(modules_out):
    """A covering card's edge in the same shade, its light border a little darker than the
    sticker's paper and its outline faint (blurred, 40 grey levels under the border): nowhere
    as dark as the band's floor, but a narrow dip below the paper on both sides of it, which a
    shade's fall-off is not: the code is not clear."""
    image, corners, expected = code_image(blur=0.01)
    edge = image.shape[1] - 4 * PX + round(modules_out * PX)
    image[:, edge:] = 205  # the card's border, right of its edge
    image[:, edge:edge + 2] = 170  # its outline
    shaded = _shaded(cv2.GaussianBlur(image, (0, 0), 0.8), 0.3, 2.0)
    dark, darkest = _band(shaded, corners, expected)
    assert dark > MAX_DARK_AREA and darkest >= SHADE_FLOOR  # the dips must see it
    assert not quiet_zone_is_clear(shaded, corners, expected)


def test_a_soft_dark_patch_is_seen():
    """A hand's soft shadow from a module out, its edge blurred over one and a half modules:
    no narrow dip anywhere (it is smooth), but far darker than any shade's fall-off over the
    quiet zone (below the band's floor): not clear."""
    image, corners, expected = code_image(blur=0.8)
    patch = np.zeros(image.shape, np.float32)
    patch[:, image.shape[1] - 3 * PX:] = 1.0  # from 1 module out to the sticker's edge
    patch = cv2.GaussianBlur(patch, (0, 0), 1.5 * PX)
    darkened = (image * (1 - patch) + image * (140 / 210) * patch).astype(np.uint8)
    shaded = _shaded(darkened, 0.1)
    assert _band(shaded, corners, expected)[1] < SHADE_FLOOR
    assert not quiet_zone_is_clear(shaded, corners, expected)


@pytest.mark.parametrize("peak", [0.2, 0.3])
def test_no_shade_under_a_highlight_over_the_band(peak):
    """Issue 19's glare sweeps (a covering card's corner a module off the buried code's, or
    its edge 2.2 modules beside it, a glow over it): a highlight's fall-off is as smooth as a
    shade's and can wash a card's outline out of the band, so under one a darker band is never
    taken for shade. Here a glow of 0.2 or 0.3 of the paper's light 2 modules out, over the
    shaded band of the first test: the band lifted above its paper by more than a tenth of
    the code's contrast (0.2), or above tglare's bright level too (0.3)."""
    image, corners, expected = code_image(blur=0.8)
    dim = _shaded(np.asarray(image * (150 / 210), np.uint8), 0.3).astype(float)
    ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]]
    across, down = (xs - (image.shape[1] - 2 * PX)) / (3 * PX), (ys - image.shape[0] / 2) / (8 * PX)
    glow = peak * 150 * np.exp(-0.7 * (across ** 2 + down ** 2) ** 1.5)
    lit = np.clip(dim + glow + np.random.default_rng(0).normal(0, 2, dim.shape), 0, 255)
    lit = lit.astype(np.uint8)
    dark, darkest = _band(lit, corners, expected)
    assert dark > MAX_DARK_AREA and darkest >= SHADE_FLOOR  # smooth, and not below the floor
    assert not quiet_zone_is_clear(lit, corners, expected)


def test_no_shade_in_a_white_out():
    """The paper within 20 grey levels of full scale (a bright room under a lamp's
    reflection): a highlight may have washed a card's outline out anywhere round the code,
    so the same smooth darkening is not taken for shade there."""
    image, corners, expected = code_image(blur=0.8)
    bright = _shaded(np.asarray(np.clip(image * (240 / 210), 0, 255), np.uint8), 0.3, 2.0)
    assert not quiet_zone_is_clear(bright, corners, expected)
