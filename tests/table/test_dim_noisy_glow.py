"""A weak glow in a dim, noisy room (issue 19 §2/§3, branch ``tdimshort``; vision/table_glare.py,
``_out_of_the_noise``, ``WEAK_OUT_OF_NOISE``): where the sensor's noise is too great for a code's
quiet zone to show a covering card's edge (``vision.table_codes._too_noisy``), the weak path
vouches for the code only when the glow's patch stands out of the light modules' own scatter.
tshort's short-frame sweep drawn at room light 0.3–0.45 and noise σ 6 named 10 buried codes
more than in its own light through that path, a card's edge 1–2.2 modules beside each, lost in
the noise; a top card whose glow stands clear of the noise is still read, and so is one whose
glow lies over the code and falls off before its band (branch ``tdimback``:
``_falls_off_by_the_band``, ``WEAK_FALLS_OFF``), which the sweep's buried codes never show."""

from __future__ import annotations

import cv2
import numpy as np

import vision.table_codes as codes
import vision.table_glare as glare
from tests.table.test_dip_ramps import _dim_and_noisy
from tests.table.test_glare import PX, _sticker, _with_highlight
from tests.table.test_view import BURIED
from tests.table.test_weak_glare import _verdict
from vision.table import TableReader
from vision.table_sweeps_glare import DIMSHORT, PairedCamera


def _beside_a_card_in_a_dim_noisy_room() -> PairedCamera:
    """The dim, noisy sweep's "left −2.2" scene, highlight 4: a card without a sticker turned
    −7°, its edge 2.2 modules left of the buried code; the sweep's spot glow (0.6 × paper,
    8 × 4 mm, along that edge) centred where the edge meets the code's top, on both cards, added
    in linear light; room light 0.3, sensor noise σ 6 (the sweep's seeds)."""
    return DIMSHORT.camera(DIMSHORT.scene("left", -2.2, -7.0, 4, "both"))


def test_a_buried_code_beside_a_card_in_a_dim_noisy_room_under_a_spot_glow_is_not_the_top(
        monkeypatch):
    """Never wrong: the noise lifts a sixth of the code's light modules past the weak path's
    rise in patches that touch, the band shows paper (the covering card is white) and the
    card's edge is lost in the noise; the glow's patch stands no more than 1.3 times the light
    modules' scatter above their plane: the ferry says nothing. Without the rule (main's
    reader before it) the weak path vouched for the code and the ferry named it."""
    frame = _beside_a_card_in_a_dim_noisy_room().frame
    assert TableReader().read(frame).ferries[3].top is None
    monkeypatch.setattr(glare, "WEAK_OUT_OF_NOISE", 0.0)
    assert TableReader().read(frame).ferries[3].top == BURIED


def test_a_dim_noisy_top_card_whose_glow_stands_out_is_still_whole(monkeypatch):
    """tdips2's top card in a dim light (contrast about 45 grey levels, noise σ 5: too noisy for
    its quiet zone to show an edge) under a glow of 0.16 × paper over its corner: the glow's
    patch stands out of the noise, the rule lets the weak path vouch, and the code is whole."""
    asked: list[tuple[bool, bool]] = []
    rule = glare._out_of_the_noise

    def watched(gray, corners, means, expected):
        answer = rule(gray, corners, means, expected)
        asked.append((codes._too_noisy(gray, corners, expected), answer))
        return answer

    monkeypatch.setattr(glare, "_out_of_the_noise", watched)
    assert _verdict(_dim_and_noisy()) == "whole"
    assert asked == [(True, True)]


def _glow_over_a_dim_noisy_code() -> np.ndarray:
    """A top card's code in a dim light (its contrast about 50 grey levels) under a glow of
    0.16 × paper centred on it (semi-axes 8 × 6 modules) and the sensor's noise, σ 5 grey
    levels correlated over a pixel: the glow's patch stands less than twice the light modules'
    scatter above their plane, and the band, 1–3 modules out, lies below the lifted light
    modules on every side."""
    image = _sticker() * 0.3
    centre = image.shape[0] / PX / 2
    lit = _with_highlight(image, (centre, centre), (8.0, 6.0), 0.16).astype(np.float64)
    noise = cv2.GaussianBlur(np.random.default_rng(19).normal(0, 1, lit.shape), (0, 0), 1.0)
    return np.clip(lit + 5.0 * noise / noise.std(), 0, 255).astype(np.uint8)


def test_a_dim_noisy_top_card_whose_glow_falls_off_before_the_band_is_whole(monkeypatch):
    """Issue 19 §3 (branch ``tdimback``): the glow's patch does not stand out of the noise, but
    the glow lies over the code and falls off before its band (``_falls_off_by_the_band``): the
    weak path vouches, the code is whole. With the noise rule alone (``WEAK_FALLS_OFF`` 0:
    main's reader before it) the code is unsure, as 22 dim weak-highlight top cards were."""
    asked: list[tuple[bool, bool]] = []
    rule, patch = glare._out_of_the_noise, glare.lit_patch

    def watched(gray, corners, means, expected):
        answer = rule(gray, corners, means, expected)
        contrast = float(np.median(means[~expected]) - np.median(means[expected]))
        asked.append((patch(means, expected, contrast, out_of_noise=True), answer))
        return answer

    monkeypatch.setattr(glare, "_out_of_the_noise", watched)
    frame = _glow_over_a_dim_noisy_code()
    assert _verdict(frame) == "whole"
    assert asked == [(False, True)]  # the patch lost in the noise, the fall-off seen
    monkeypatch.setattr(glare, "WEAK_FALLS_OFF", 0.0)
    assert _verdict(frame) == "unsure"


def test_the_sweeps_buried_code_shows_no_fall_off(monkeypatch):
    """The dim, noisy sweep's "left −2.2" buried code (above): its spot glow lies beside the
    code, and the band, averaged along each side, lies above its light modules as unlit paper
    does: the fall-off rule does not let the weak path through (the ferry says nothing with
    the rule on, above)."""
    seen: list[bool] = []
    falls = glare._falls_off_by_the_band

    def watched(gray, corners, means, expected):
        seen.append(falls(gray, corners, means, expected))
        return seen[-1]

    monkeypatch.setattr(glare, "_falls_off_by_the_band", watched)
    assert TableReader().read(_beside_a_card_in_a_dim_noisy_room().frame).ferries[3].top is None
    assert seen and not any(seen)
