"""Under a saturating highlight, the sticker's own edge seen in the steeper lines fanning out of
it (issue 19 §3, branch tstrong3; vision/table_lines.py ``sticker_edge_fan``, called by
vision/table_edges.py ``card_outline_under_glow``).

The census of the strong-highlight tops bare zxing-cpp reads and the reader did not: two
(fresh10 10086 f3, tstrong's 11048 f1) were refused under the glow only by lines 4.1–4.4 modules
out at 5–8° — past tcorner's 3–4° sticker lines, dipping less the steeper they run, below a
3–4° line on the same side. Where a card's light border lies beyond the sticker, the artwork's
strip between them is a dark line three to five times deeper: a card's, as before."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import vision.table_lines as lines
from tests.table.test_fit import PX
from tests.table.test_glare import CODE_CENTRE, MARGIN, _judged, _sticker, _with_highlight


def _lit_top(draw_beyond: Callable[[np.ndarray, np.ndarray, np.ndarray], None]) -> np.ndarray:
    """A top card's code under a strong highlight (1.2 × paper, its core saturating modules),
    the artwork beyond its sticker's left edge turned 4° with a dark strip a module wide along
    that edge; ``draw_beyond(image, ys, xs)`` draws what else lies out there."""
    image = _sticker().astype(np.float64)
    ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]].astype(np.float64)
    edge = MARGIN - (ys - image.shape[0] / 2) * np.tan(np.radians(4.0))  # the sticker's edge
    image[xs < edge] = 170.0  # the card's artwork
    image[(xs < edge) & (xs >= edge - PX)] = 130.0  # a dark strip along the sticker's edge
    draw_beyond(image, ys, xs)
    lit = _with_highlight(image, (CODE_CENTRE[0] + 7, CODE_CENTRE[1] + 5), (4.0, 2.5), 1.2)
    noisy = lit + np.random.default_rng(3).normal(0, 2.0, lit.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def _nothing(image: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> None:
    """Only the artwork beyond the sticker."""


def _a_card_at_7_degrees(image: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> None:
    """A covering card's light border, its edge 5 modules out from the code, turned 7°, with a
    thin outline: the artwork's strip left between it and the sticker."""
    edge = MARGIN - PX - (ys - image.shape[0] / 2) * np.tan(np.radians(7.0))
    image[xs < edge] = 225.0
    image[(xs < edge) & (xs >= edge - 0.3 * PX)] = 120.0


def test_a_strong_top_whose_sticker_edge_fans_out_is_read(monkeypatch):
    """The line look under the glow sees the sticker's edge at 3–4°, 4.4 modules out, and the
    same edge, less deep, at 5°: the fan (whole). Without it the 5° line is a card's edge:
    covered, as fresh10 10086 f3 and 11048 f1 were."""
    frame = _lit_top(_nothing)
    assert _judged(frame) == ("whole", "whole")
    monkeypatch.setattr(lines, "STICKER_FAN", False)
    assert _judged(frame) == ("covered", "whole")


def test_a_card_beyond_the_sticker_is_no_fan(monkeypatch):
    """The same top with a card's light border 5 modules out at 7° (the buried code of a card
    laid beside it): the strip between the sticker and the card dips below a card's outline in
    plain light, so its fan stays a card's edge: covered, the rule on or off. Were the fan
    given without that test (the plain-light look blind), the buried code would be whole."""
    frame = _lit_top(_a_card_at_7_degrees)
    assert _judged(frame)[0] == "covered"
    monkeypatch.setattr(lines, "STICKER_FAN", False)
    assert _judged(frame)[0] == "covered"
    monkeypatch.setattr(lines, "STICKER_FAN", True)
    looked = lines.line_dips

    def blind_in_plain_light(gray, corners, expected, *, depth=lines.EDGE_LINE):
        dips = looked(gray, corners, expected, depth=depth)
        return np.full_like(dips, -np.inf) if depth == lines.EDGE_LINE else dips

    monkeypatch.setattr(lines, "line_dips", blind_in_plain_light)
    assert _judged(frame)[0] == "whole"
