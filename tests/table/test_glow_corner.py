"""Under a highlight's glow, a shallow line past the sticker's edge is the sticker's own, unless a
card's corner lies out there too (issue 19 §3, branch tcorner; vision/table_edges.py
``card_outline_under_glow``, vision/table_corners.py ``card_corner_beyond_sticker``).

tglow's audit: 17 of the 21 strong-highlight tops bare zxing-cpp read and the reader missed were
refused by one kind of line alone — 4.38 modules out, 3–4° off the code's side: the sticker's
own edge with the artwork's dark strip beyond it. Leaving those lines to the sticker named 6
buried codes of the glare sweep (the card laid 1 module beyond the code's corner, turned −7°),
which the reader had kept silent only by that same line: turned about its own middle, the card
puts its corner some 5 modules below the code's side, where neither look reached."""

from __future__ import annotations

import numpy as np
import pytest

import vision.table_edges as edges
import vision.table_lines as lines
from tests.table.test_fit import PX
from tests.table.test_glare import CODE_CENTRE, MARGIN, _judged, _sticker, _with_highlight
from tests.table.test_view import BURIED
from tests.table.test_weak_glare import sweep_frame
from vision.table import TableReader
from vision.table_kit import QR_MODULES_MM
from vision.table_render import STICKER_AT, STICKER_CODE_MM

BEYOND_THE_CORNER = (STICKER_AT[0] + STICKER_CODE_MM / 2 + QR_MODULES_MM,
                     STICKER_AT[1] + STICKER_CODE_MM / 2 + QR_MODULES_MM)  # mm on the buried card


def _sticker_edge_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The line look under the glow as it was: a shallow line past the sticker's edge a card's."""
    monkeypatch.setattr(lines, "sticker_edge_lines",
                        lambda n: np.zeros_like(lines._looked_at(n)))


def _top(frame: np.ndarray) -> str | None:
    return TableReader().read(frame).ferries[3].top


def test_a_card_turned_beyond_the_codes_corner_is_refused_by_its_corner(monkeypatch):
    """The glare sweep's scene "corner −1.0, −7°, spot 0": the card laid 1 module beyond the
    buried code's lower right corner and turned −7°, a glow of 0.6 × paper over that corner.
    The line look under the glow sees one line only, the buried code's own sticker edge 4.38
    modules left of it — which alone kept it silent before this branch. With that line left
    to the sticker (as under a glow that saturates modules) the code is still silent: the
    card's corner, 5–6 modules below the code's side, is seen. With the far corner look
    blind as well, the buried code is named."""
    frame = sweep_frame("corner", -1.0, 0, BEYOND_THE_CORNER, 45.0)
    assert _top(frame) is None
    monkeypatch.setattr(edges, "_saturating_glow", lambda *args: True)
    assert _top(frame) is None
    monkeypatch.setattr(edges, "_card_beyond_sticker", lambda *args: False)
    assert _top(frame) == BURIED


def test_a_strong_top_beside_its_own_sticker_edge_is_read(monkeypatch):
    """A top card's code under a strong highlight (1.2 × paper, its core saturating modules),
    the artwork beyond its sticker's left edge turned 2.5° with a dark strip along that edge:
    the line look under the glow sees a 3–4° line past 4 modules — the sticker's own edge —
    and no card's corner lies out there: whole. Counted as a card's edge, as before: covered."""
    image = _sticker().astype(np.float64)
    ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]].astype(np.float64)
    edge = MARGIN - (ys - image.shape[0] / 2) * np.tan(np.radians(2.5))  # the sticker's left edge
    image[xs < edge] = 170.0  # the card's artwork
    image[(xs < edge) & (xs >= edge - PX)] = 130.0  # a dark strip along the sticker's edge
    lit = _with_highlight(image, (CODE_CENTRE[0] + 7, CODE_CENTRE[1] + 5), (4.0, 2.5), 1.2)
    noisy = lit + np.random.default_rng(3).normal(0, 2.0, lit.shape)
    frame = np.clip(noisy, 0, 255).astype(np.uint8)
    assert _judged(frame) == ("whole", "whole")
    _sticker_edge_counted(monkeypatch)
    assert _judged(frame) == ("covered", "whole")


def test_a_card_square_beyond_the_codes_corner_stays_silent(monkeypatch):
    """The same card laid 1 module beyond the buried code's corner, square to it: its corner
    lies in the code's quiet zone, under the glow: the buried code is never named, the far
    shallow lines left to the sticker or not."""
    frame = sweep_frame("corner", -1.0, 0, BEYOND_THE_CORNER, 45.0, card_turn=0.0)
    assert _top(frame) is None
    monkeypatch.setattr(edges, "_saturating_glow", lambda *args: True)
    assert _top(frame) is None
