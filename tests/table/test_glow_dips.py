"""The band under a weak highlight's glow counts only the narrow dips that lie along a line
(issue 19 §3, branch ``tdips``; vision/table_edges.py, ``_dips_along_lines``): sensor noise
dips in specks a module across, which no longer refuse a top card's code; a covering card's
outline dips along its length, which still does — tshort's short-frame sweep's "corner −1.0",
the one buried code main's reader held only by counting every dip, stays silent."""

from __future__ import annotations

import numpy as np
import pytest

import vision.table_edges as edges
from tests.table.test_glare import PX, _sticker, _with_highlight
from tests.table.test_view import BURIED
from tests.table.test_weak_glare import _verdict
from vision.table import TableReader
from vision.table_sweeps_glare import SHORT

BAND_ROW = 10 * PX  # two modules above the code (the sticker's code starts 12 modules in)


def _under_a_weak_glow() -> np.ndarray:
    """A top card's code, a glow of 0.16 × paper over its lower right corner (nothing
    saturated): test_weak_glare's first scene."""
    return _with_highlight(_sticker(), (32.0, 32.0), (6.0, 4.0), 0.16).astype(np.float64)


def _every_dip_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Main's count before this branch: every narrow dip of the band, specks and lines alike."""
    monkeypatch.setattr(edges, "_dips_along_lines", edges._area)


def test_specks_of_dips_under_a_weak_glow_leave_the_code_whole(monkeypatch):
    """Dark specks half a module across, 40 grey levels deep, every 3 modules round the band
    (a dim side light's sensor noise, as on tdim4's and ttopcard2's weak-highlight top cards):
    more than half a module² of narrow dips, none along a line: whole. Counting every dip, as
    before: covered."""
    image = _under_a_weak_glow()
    low, high = 10 * PX, 35 * PX
    for along in range(low, high, 3 * PX):
        for row, col in ((low, along), (high, along), (along, low), (along, high)):
            image[row:row + PX // 2, col:col + PX // 2] -= 40
    specked = np.clip(image, 0, 255).astype(np.uint8)
    assert _verdict(specked) == "whole"
    _every_dip_counted(monkeypatch)
    assert _verdict(specked) == "covered"


def test_a_dark_line_beside_a_code_under_a_weak_glow_is_covered(monkeypatch):
    """A thin dark line 10 modules long two modules above the code, under the glow: its dips
    lie along it, and the band is refused even were the outline look blind to it. Without the
    dips' refusal (and the outline look), the code would be whole."""
    image = _under_a_weak_glow()
    image[BAND_ROW:BAND_ROW + 2, 14 * PX:24 * PX] -= 40
    lined = np.clip(image, 0, 255).astype(np.uint8)
    monkeypatch.setattr(edges, "card_outline_under_glow", lambda *args: False)
    assert _verdict(lined) == "covered"
    monkeypatch.setattr(edges, "_dips_along_lines", lambda *args: 0.0)
    assert _verdict(lined) == "whole"


def _short_sweeps_corner_card() -> np.ndarray:
    """tshort's short-frame sweep (``sweep4.py "-1.0,-2.2"``), "corner −1.0" highlight 3, its
    normal frame drawn as the sweep draws it: a card without a sticker turned −7°, its corner a
    module off the buried code's lower right one, room light 0.6, blur 1.1, a glow of 1.5 ×
    paper at that corner turned 135° on the buried card only, added in linear light (a 2.2 tone
    curve), sensor noise σ 2.5 from the sweep's own seed."""
    return SHORT.frame(SHORT.scene("corner", -1.0, -7.0, 3, "buried"))


def test_the_short_sweeps_card_corner_under_its_own_glow_is_not_the_top(monkeypatch):
    """Never wrong: the buried code's modules read right under the glow and the outline look
    misses the covering card's corner; its outline leaves two patches of dips 1.75 modules long
    in the band, which this count keeps: nothing named. Without the dips' refusal, the ferry
    named the buried code (tclear's measurement)."""
    frame = _short_sweeps_corner_card()
    assert TableReader().read(frame).ferries[3].top is None
    monkeypatch.setattr(edges, "_dips_along_lines", lambda *args: 0.0)
    assert TableReader().read(frame).ferries[3].top == BURIED
