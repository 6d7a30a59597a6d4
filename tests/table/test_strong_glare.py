"""A code under a STRONG highlight (issue 19 §3; vision/table_glare.py, vision/table_edges.py): a
sleeve's reflection that saturates modules, reaching the code's outer modules and its quiet
zone, is judged by the outline beside the code — not by where it reaches, nor by its band's
shape. The code is whole when its modules read right against their neighbours, and never when
a card's outline lies beside it under the glow (tstrong's audit: 47 strong-highlight top cards
bare zxing-cpp read and the reader did not, every one refused for where its highlight reached
or for its band's shape; docs/benchmarks.md, branches ``tstrong``, ``tstrong2``)."""

from __future__ import annotations

import numpy as np
import pytest
import zxingcpp

import vision.table_edges as edges
import vision.table_glare as glare
from tests.table.test_fit import PX
from tests.table.test_glare import CODE_CENTRE, MARGIN, PAPER, _judged, _sticker, _with_highlight
from tests.table.test_view import BURIED
from tests.table.test_weak_glare import sweep_frame
from vision.table import TableReader
from vision.table_codes import _expected_modules, code_corners

CODE_RIGHT = MARGIN + 4 * PX + 21 * PX  # the code's right edge, pixels from the image's left


def _over_the_right_edge() -> np.ndarray:
    """A highlight of 1.2 × paper centred on the code's right edge, 4 × 2.5 modules: it
    saturates the code's right-hand modules and lights its quiet zone there."""
    return _with_highlight(_sticker(), (CODE_CENTRE[0] + 10.5, CODE_CENTRE[1]), (4.0, 2.5), 1.2)


def _by_where_it_reaches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(glare, "BY_THE_OUTLINE", False)


def test_a_lit_quiet_zone_is_unsure_only_with_an_outline(monkeypatch):
    """Part 2: the highlight over the code's right edge lights its quiet zone, and a module
    round it is washed out: tglare's rule called the code unsure for that alone, the top-card
    test found the lifted modules covered. No outline dips across the lit quiet zone, every
    module reads right against its neighbours: whole (with the band under the glow clear)."""
    image = _over_the_right_edge()
    assert _judged(image) == ("whole", "whole")
    _by_where_it_reaches(monkeypatch)
    assert _judged(image) == ("covered", "unsure")


def test_a_highlight_reaching_the_codes_outer_modules_leaves_it_whole(monkeypatch):
    """Part 1: a highlight of 1.2 × paper, 3 modules round, over the code's lower right that
    reaches its outermost modules: tglare's rule vouched only for a highlight inside the code
    and kept silent; the top-card test found the lifted modules covered. Read against their
    neighbours they are right: whole."""
    image = _with_highlight(_sticker(), (CODE_CENTRE[0] + 7, CODE_CENTRE[1] + 5), (3.0, 3.0), 1.2)
    assert _judged(image) == ("whole", "whole")
    _by_where_it_reaches(monkeypatch)
    assert _judged(image) == ("covered", None)


def test_a_saturated_band_is_judged_by_the_outline_not_its_shape(monkeypatch):
    """Part 3: under the highlight over the code's right edge the band falls below the light
    surface (the glow's overshoot) and its shape is not a weak glow's (``_only_glow``); the
    highlight saturates 9 modules or more, so the band is judged by the outline look alone,
    which sees none: whole. Asked for the shape as for a weak glow: covered."""
    image = _over_the_right_edge()
    assert _judged(image) == ("whole", "whole")
    monkeypatch.setattr(edges, "MIN_SATURATED", 10 ** 6)
    assert _judged(image) == ("covered", "whole")


def _card_beside(gap: float) -> np.ndarray:
    """A covering card (paper-white, its dark outline) whose edge runs ``gap`` modules right of
    the code, over its quiet zone, under a highlight of 1.2 × paper centred 1.5 modules right
    of the code's right edge: it saturates the code's right-hand modules and lifts the card's
    outline with the quiet zone round it."""
    image = _sticker()
    edge = round(CODE_RIGHT + gap * PX)
    image[:, edge:] = int(PAPER)
    image[:, edge - 1:edge + 1] = 90
    return _with_highlight(image, (CODE_CENTRE[0] + 12, CODE_CENTRE[1]), (4.0, 2.5), 1.2)


def test_a_card_two_modules_beside_a_code_under_a_saturated_glow_is_seen(monkeypatch):
    """Never wrong: a card's edge 2 modules right of the code under the saturating highlight.
    The rule vouches for the modules (they are the code's own, and the lifted outline leaves
    the quiet zone's samples light), the band under the glow is judged by the outline beside
    the code, and the outline look sees the card's edge: not whole. Without the outline look
    the code would be whole — it is what holds here."""
    image = _card_beside(2.0)
    verdict, rule = _judged(image)
    assert rule == "whole" and verdict == "covered"
    monkeypatch.setattr(edges, "card_outline_under_glow", lambda *args: False)
    assert _judged(image)[0] == "whole"


def test_a_card_one_module_beside_a_code_under_a_saturated_glow_is_not_whole():
    """Never wrong: the card's edge one module right of the code, under the same highlight."""
    assert _judged(_card_beside(1.0))[0] != "whole"


def _saturates(image: np.ndarray) -> bool:
    (barcode,) = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    expected = _expected_modules(barcode.text, barcode.extra["ECLevel"],
                                 barcode.extra["Version"], barcode.extra["DataMask"])
    assert expected is not None
    grid = edges.code_grid(image, code_corners(barcode), expected.shape[0], edges.BAND_PX,
                           edges._margin())
    return edges._saturates(grid, expected)


def test_a_weak_glow_saturates_nothing():
    """``_saturates``: the highlight over the code's right edge saturates 9 modules or more; a
    glow of 0.16 × paper (tweak2's weak highlight) saturates none, and its band stays judged
    by its shape (whole: ``test_weak_glare``)."""
    assert _saturates(_over_the_right_edge())
    weak = _with_highlight(_sticker(), (32.0, 32.0), (6.0, 4.0), 0.16)
    assert not _saturates(weak)
    assert _judged(weak)[0] == "whole"


SWEEP_DEPTHS = (-1.0, -2.2)  # modules beside the code: two of tglare's glare sweep's depths


def _beside_under_a_saturating_glow(side: str, depth: float, spot: int,
                                    at: tuple[float, float], turn: float) -> np.ndarray:
    """A scene drawn as tglare's glare sweep draws its scenes (its card positions and seeds for
    these two depths; its 1.5 × paper glows): a card without a sticker, square to the mat, its
    edge ``-depth`` modules beside the buried code on ``side``; blur 1.1."""
    return sweep_frame(side, depth, spot, at, turn, depths=SWEEP_DEPTHS, peak=1.5, blur=1.1,
                       card_turn=0.0)


@pytest.mark.parametrize(("side", "depth", "at", "turn"), [
    ("left", -1.0, (6.847619047619048, 19.8), 180.0),
    ("below", -2.2, (17.8, 31.895238095238096), 90.0),
])
def test_a_card_beside_a_code_under_a_saturating_glow_is_not_the_top(monkeypatch, side, depth,
                                                                     at, turn):
    """Never wrong, on the renderer's tables: a card's edge 1 module left of the buried code,
    or 2.2 modules below it, a glow of 1.5 × paper over the code's edge and the card's. The
    glow saturates the code's modules and the
    band under it is judged by the outline beside the code: the outline look sees the card's
    edge, and the ferry says nothing. Without that look the reader named the buried code
    (through the saturated band: judged by its shape, it is refused)."""
    frame = _beside_under_a_saturating_glow(side, depth, 1, at, turn)
    assert TableReader().read(frame).ferries[3].top is None
    monkeypatch.setattr(edges, "card_outline_under_glow", lambda *args: False)
    assert TableReader().read(frame).ferries[3].top == BURIED
    monkeypatch.setattr(edges, "MIN_SATURATED", 10 ** 6)  # the band judged by its shape
    assert TableReader().read(frame).ferries[3].top is None
