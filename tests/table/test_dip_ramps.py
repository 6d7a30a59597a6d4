"""The band under a weak highlight's glow in a dim light: narrow dips count only where they
stand out of the band's own noise (issue 19 §3, branch ``tdips2``; vision/table_edges.py,
``_outline_dips``, ``DIP_NOISE``). In a dim side light the band dips past ``SHADE_DIP`` over up
to a fifth of its area, in specks packed so close that they touch in patches several modules
long, which ``tdips``'s length test took for a card's outline (five top cards of tdim4's,
tdim5's and ttopcard2's sets). A card's outline dips far deeper than that noise, and still
refuses the code."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.table_edges as edges
from tests.table.test_glare import PX, _sticker, _with_highlight
from tests.table.test_glow_dips import BAND_ROW
from tests.table.test_weak_glare import _verdict


def _dim_and_noisy(outline: float = 0.0) -> np.ndarray:
    """A top card's code in a dim light (its contrast about 50 grey levels), a glow of 0.16 ×
    paper over its lower right corner (test_weak_glare's first scene), and the sensor's noise:
    σ 5 grey levels, correlated over a pixel as a demosaiced frame's is. ``outline``: grey
    levels of a covering card's thin outline, 10 modules long, two modules above the code."""
    image = _with_highlight(_sticker() * 0.3, (32.0, 32.0), (6.0, 4.0), 0.16).astype(np.float64)
    noise = cv2.GaussianBlur(np.random.default_rng(19).normal(0, 1, image.shape), (0, 0), 1.0)
    image += 5.0 * noise / noise.std()
    image[BAND_ROW:BAND_ROW + 2, 14 * PX:24 * PX] -= outline
    return np.clip(image, 0, 255).astype(np.uint8)


def _every_dip_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Main's count before this branch: every dip past ``SHADE_DIP``, whatever the noise."""
    monkeypatch.setattr(edges, "_outline_dips", lambda dips, band: dips > edges.SHADE_DIP)


def test_a_dim_lights_noise_under_a_weak_glow_leaves_the_code_whole(monkeypatch):
    """The noise's dips touch in patches longer than ``DIP_LINE`` all round the band, none
    deeper than ``DIP_NOISE`` times its median dip: whole. Counting every dip past
    ``SHADE_DIP``, as before: not whole."""
    frame = _dim_and_noisy()
    assert _verdict(frame) == "whole"
    _every_dip_counted(monkeypatch)
    assert _verdict(frame) != "whole"


def test_a_cards_outline_in_that_noise_is_still_covered(monkeypatch):
    """A covering card's outline 30 grey levels deep (0.6 of the code's contrast, half a
    module wide) in the same noise and glow: its dips stand out of the noise along it, and the
    band is refused even were the outline look blind to it: the code is not whole. Without the
    dips' refusal (and the outline look) it would be, so the count is what holds it."""
    frame = _dim_and_noisy(outline=30.0)
    monkeypatch.setattr(edges, "card_outline_under_glow", lambda *args: False)
    assert _verdict(frame) != "whole"
    monkeypatch.setattr(edges, "_dips_along_lines", lambda *args: 0.0)
    assert _verdict(frame) == "whole"


def test_in_good_light_every_dip_past_shade_dip_still_counts():
    """Where the band's noise is low (its median dip a few thousandths), ``SHADE_DIP`` decides
    alone, as before this branch: a shallow outline's dips all count."""
    band = edges._band_mask(21)
    dips = np.zeros(band.shape, np.float32)
    dips[20:40, 5:7] = edges.SHADE_DIP + 0.01
    assert (edges._outline_dips(dips, band) == (dips > edges.SHADE_DIP)).all()
