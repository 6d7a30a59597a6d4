"""A lit quiet zone's outline is a line, not one noisy sample (issue 19 §3, branch tring).

Under a weak highlight the glare rule calls a code *unsure* when a card's outline dips across
its lit quiet zone (:func:`vision.table_glare._outline_in_light`). On tclear's class H frames
9 of 29 such calls rested on a single quiet-zone sample of 540, a hair past
:data:`~vision.table_glare.OUTLINE_DIP`: the sensor's noise. A card's outline crosses the
quiet zone's rings, or lies along one of them; only dips shaped so count now
(:data:`~vision.table_glare.OUTLINE_SHAPED`).
"""

from __future__ import annotations

import numpy as np
import pytest

import vision.table_glare
from vision.table_glare import OUTER_RING, _like_an_outline, _outline_in_light

N = 21
ACROSS, DOWN = 2 * N + 4, 2 * N + 2  # samples along a ring's top (and bottom), down its sides
SIZE = 2 * ACROSS + 2 * DOWN  # one ring's samples; three rings: 1.2, 2.4 and OUTER_RING out
PAPER, CONTRAST = 180.0, 100.0
AT = 20  # a place along the top run, well inside it


def _lit_rings(seed: int) -> np.ndarray:
    """Three quiet-zone rings under a weak highlight over the code's top: each ring's top run
    lifted along the glow's smooth rim, a little sensor noise on every sample (far from the
    outline's depth), the rest of each ring the unlit paper."""
    rng = np.random.default_rng(seed)
    ring = np.full(3 * SIZE, PAPER) + rng.normal(0.0, 1.0, 3 * SIZE)
    rim = PAPER + 40.0 * np.sin(np.linspace(0.0, np.pi, ACROSS))
    for k in range(3):
        ring[k * SIZE:k * SIZE + ACROSS] += rim - PAPER
    return ring


@pytest.mark.parametrize("ring_index", range(3))
def test_one_noisy_sample_in_a_lit_quiet_zone_is_not_an_outline(ring_index, monkeypatch):
    """One sample 0.23 of the contrast below its shoulders on one ring (class H's noise:
    0.20-0.27) no longer makes the code unsure; with the rule off (main's reader before) it
    did."""
    assert OUTER_RING == 3.0  # three rings, as the frames' 540 samples of a 21-module code
    ring = _lit_rings(ring_index)
    assert not _outline_in_light(ring, N, PAPER, CONTRAST)
    ring[ring_index * SIZE + AT] -= 0.25 * CONTRAST
    assert not _outline_in_light(ring, N, PAPER, CONTRAST)
    monkeypatch.setattr(vision.table_glare, "OUTLINE_SHAPED", False)
    assert _outline_in_light(ring, N, PAPER, CONTRAST)


def test_an_outline_across_the_rings_still_makes_the_code_unsure():
    """A card's edge crossing the lit quiet zone dips every ring at the same place: an
    outline, however shallow its dip past OUTLINE_DIP; two rings of the three are enough."""
    ring = _lit_rings(10)
    ring[[AT, SIZE + AT, 2 * SIZE + AT]] -= 0.25 * CONTRAST
    assert _outline_in_light(ring, N, PAPER, CONTRAST)
    ring = _lit_rings(11)
    ring[[SIZE + AT, 2 * SIZE + AT]] -= 0.25 * CONTRAST  # the inner ring's sample under the code
    assert _outline_in_light(ring, N, PAPER, CONTRAST)


def test_an_outline_along_a_ring_still_makes_the_code_unsure():
    """A card's edge lying along the quiet zone dips neighbouring samples of one run: an
    outline. Two dips far apart on one ring are not (two noisy samples)."""
    ring = _lit_rings(20)
    ring[[AT, AT + 1]] -= 0.25 * CONTRAST
    assert _outline_in_light(ring, N, PAPER, CONTRAST)
    ring = _lit_rings(21)
    ring[[AT - 12, AT + 12]] -= 0.25 * CONTRAST
    assert not _outline_in_light(ring, N, PAPER, CONTRAST)


def test_neighbours_across_a_runs_end_are_not_a_line():
    """The last sample of a ring's top run and the first of its bottom run are consecutive in
    the samples but a sticker's width apart: two noisy samples, not a line."""
    def dips(*at: int) -> np.ndarray:
        return np.isin(np.arange(3 * SIZE), at)

    assert not _like_an_outline(dips(ACROSS - 1, ACROSS), N)
    assert _like_an_outline(dips(ACROSS - 2, ACROSS - 1), N)
    assert not _like_an_outline(dips(ACROSS - 1), N)
