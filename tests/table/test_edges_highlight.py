"""The quiet-zone band under a weak highlight (issue 19, branch thigh; vision/table_edges.py):
a sleeve's reflection over a code lifts a patch of its light modules, and the light surface
fitted to them bulges up beyond the code, so the sticker's paper there read darker than
paper. The band is judged again against the paper plane the highlight leaves out, and a
covering card's outline in the band is still seen under the same highlight."""

from __future__ import annotations

import numpy as np
import pytest

from tests.table.test_fit import PX, code_image
from vision.table_edges import _levels, paper_plane, quiet_zone_is_clear

GLOW = (4.0, 10.5, 3.0, 80.0)  # centre (modules from the code's corner), σ (modules), peak


def _under_glow(image: np.ndarray, glow: tuple[float, float, float, float] = GLOW
                ) -> np.ndarray:
    """The image a little dimmer, with a round highlight added (light only adds: a reflection
    in the sleeve, soft-edged, not saturating)."""
    x, y, sigma, peak = glow
    rows, cols = np.mgrid[0:image.shape[0], 0:image.shape[1]]
    r2 = (cols - (4 + x) * PX) ** 2 + (rows - (4 + y) * PX) ** 2
    lit = image * 0.85 + peak * np.exp(-r2 / (2 * (sigma * PX) ** 2))
    return np.clip(np.round(lit), 0, 255).astype(np.uint8)


def test_a_whole_code_under_a_weak_highlight_has_a_clear_quiet_zone():
    """Issue 19 (tmiss2's largest class: truth highlight="weak"): the quadratic fitted to the
    light modules puts the paper beside the highlight far above what it is, and main's band
    saw 7–53 module² of "dark" paper there; judged against the paper plane, it is clear."""
    image, corners, expected = code_image()
    lit = _under_glow(image)
    levels = _levels(lit, corners, expected)
    assert levels is not None
    assert paper_plane(levels.means, ~expected, levels.contrast) is not None
    assert quiet_zone_is_clear(lit, corners, expected)


@pytest.mark.parametrize("modules_out", [1.0, 1.8, 2.7])
@pytest.mark.parametrize("side", ["left", "right"])
def test_a_card_outline_under_the_same_highlight_is_seen(modules_out, side):
    """A covering card's outline in the band, on the highlight's side (left) or the far one,
    under the same highlight: the band is still not clear (the danger of a paper level that
    follows the highlight: a card's edge 1–3 modules out taken for paper)."""
    image, corners, expected = code_image(blur=0.01)
    n = expected.shape[0]
    if side == "left":
        edge = round((4 - modules_out) * PX)
        image[:, edge - 2:edge] = 60
    else:
        edge = round((4 + n + modules_out) * PX)
        image[:, edge:edge + 2] = 60
    assert not quiet_zone_is_clear(_under_glow(image), corners, expected)


def test_no_highlight_no_second_look():
    """Without a highlight's patch of lifted light modules (a plain code, one in side light)
    the paper plane is not made: the quadratic's verdict stands, as before this branch."""
    image, corners, expected = code_image()
    ramp = np.linspace(0.55, 1.0, image.shape[1])
    for lit in (image, np.round(image * ramp).astype(np.uint8)):
        levels = _levels(lit, corners, expected)
        assert levels is not None
        assert paper_plane(levels.means, ~expected, levels.contrast) is None
