"""A broad glow over both cards (issue 19 §2/§3 "never wrong"; vision/table_edges.py,
``card_edge_beyond_band``): a highlight 24 mm across at 0.3–0.5 × paper lifts a buried code's
light modules and its band to full scale, and the covering card's edge, a little darker than
paper, clips with them — the band showed paper and main's reader named the buried code
(tweak4's broad sweep: 54 of 672 scenes the same table without the glow leaves silent). Where
the band is washed out, the covering card's edge is looked for beyond the code's ends, where
it runs on through the band's line; a top card under the same glow, which has nothing there
but its own face, is read in a dim room and in a bright one.

The scenes are the broad sweep's (tglare's glare sweep, ``SIZES=24x24 PEAKS=0.3,0.5``), drawn
as it draws them: the buried card, a card without a sticker laid beside its code, room light
1.0, the glow added in grey levels on both cards, sensor noise σ 2.5 from the sweep's seeds."""
from __future__ import annotations

import numpy as np
import pytest

import vision.table_edges as edges
from tests.table.test_view import BURIED, overlap_positions
from vision.table import TableReader
from vision.table_render import CardOnMat
from vision.table_sweeps_glare import BROAD, Glow, frame_in_grey_levels


def _broad_frame(side: str, depth: float, spot: int, at: tuple[float, float], peak: float, *,
                 blur: float, light: float = 1.0, covered: bool = True) -> np.ndarray:
    """The broad sweep's scene (vision/table_sweeps_glare.py, ``BROAD``): a card square to the
    buried one ``depth`` modules into its code from ``side`` (negative: beside it; none when not
    ``covered``), the glow number ``spot`` (24 mm round) at ``at`` of ``peak`` × paper on both
    cards, room light ``light``."""
    positions = overlap_positions(BROAD.depths)
    index = positions.index(next(p for p in positions if p[:2] == (side, depth)))
    _, _, dx, dy = positions[index]
    buried = CardOnMat(BURIED)
    cards = (buried, CardOnMat(None, dx, dy, 0.0)) if covered else (buried,)
    return frame_in_grey_levels(cards, Glow(at, peak=peak, axes=BROAD.axes), light=light,
                                blur=blur, seed=index, noise=2.5, noise_seed=1000 * index + spot)


def _top(frame: np.ndarray) -> str | None:
    return TableReader().read(frame).ferries[3].top


@pytest.mark.parametrize(("side", "depth", "spot", "at", "peak", "blur"), [
    ("left", -1.0, 4, (6.848, 9.8), 0.3, 0.7),  # the card's edge a module left of the code
    ("below", 0.0, 1, (17.8, 29.8), 0.5, 1.1),  # the card's edge at the code's lower edge
])
def test_a_buried_code_under_a_broad_glow_stays_silent(monkeypatch, side, depth, spot, at,
                                                       peak, blur):
    """The band lies at full scale round the code (its light modules at 250–255, its dark ones
    at 100–190): the card's edge beside it is washed out, but it runs on past the code's ends
    and is seen there. Main's reader, without the look, names the buried code (its band's
    lowest share 0.85 and 0.98 on the grid that passed)."""
    frame = _broad_frame(side, depth, spot, at, peak, blur=blur)
    assert _top(frame) is None
    monkeypatch.setattr(edges, "BEYOND_WASHED_BANDS", False)
    assert _top(frame) == BURIED


@pytest.mark.parametrize("light", [0.6, 1.0])
def test_a_top_card_under_the_same_glow_is_read(light):
    """The same glow (0.3 × paper, over the code's lower right corner) on a card nothing
    covers: in room light 0.6 the band stays under full scale; in room light 1.0 it clips as
    the buried code's did, and the look beyond it finds only the card's own face and sticker
    (tbroad's rule, a washed-out band refused, left every light-1.0 control silent)."""
    assert _top(_broad_frame("right", 0.0, 4, (27.8, 29.8), 0.3, blur=0.7, light=light,
                             covered=False)) == BURIED


def test_the_sweeps_scenes_are_these():
    """The two buried scenes above are the sweep's own (its light, blur and seeds)."""
    ours = _broad_frame("below", 0.0, 1, (17.8, 29.8), 0.5, blur=1.1)
    assert np.array_equal(ours, BROAD.frame(BROAD.scene("below", 0.0, 0.0, 1)))
