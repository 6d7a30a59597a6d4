"""Symbols located and not read (issue 19, branch tdecode): one whose outline cannot be a QR
code's (a sliver of finder-like marks on a card's art or a highlight's stripes) is no symbol,
so it no longer keeps silent a ferry whose top card was read whole; one shaped like a code
still does (the referee never guesses, TABLE-KIT.md)."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from tests.table.test_fit import code_image
from vision.table import TableReader, square_enough
from vision.table_codes import top_card

TEXT = "NOAH1/BOX1/CAF1"


def _located(corners: list[tuple[float, float]]) -> Any:
    """A symbol zxing-cpp located and could not read, at ``corners`` (its order)."""
    points = [SimpleNamespace(x=x, y=y) for x, y in corners]
    position = SimpleNamespace(top_left=points[0], top_right=points[1],
                               bottom_right=points[2], bottom_left=points[3])
    return SimpleNamespace(valid=False, text="", position=position)


SLIVER = _located([(10.0, 100.0), (118.0, 92.0), (121.0, 110.0), (12.0, 117.0)])  # 6 : 1
# beside the code (16–100 px), as another card's sticker would lie: one over the code's own
# outline is that code's finders seen again (vision.table_codes.own_phantom, branch ttopcard2)
SQUARE = _located([(110.0, 10.0), (160.0, 12.0), (158.0, 61.0), (109.0, 59.0)])


def _symbols(extra: Any) -> Any:
    """The symbols of a crop holding a whole code (4 px a module), as zxing-cpp gives them
    with ``extra`` located before it."""
    image, _, _ = code_image(TEXT)
    reader = TableReader()
    read = reader._read
    reader._read = lambda crop: [extra, *read(crop)]
    return reader._decode_crop(image, 0, 0, image.shape[1], image.shape[0], 1.0)


def test_a_sliver_located_and_not_read_is_no_symbol() -> None:
    """DEV 1179 ferry 5: the top card read whole in every look, and two slivers 4–6 times as
    long as wide located beside it kept the ferry silent. Dropped, the code left is judged
    as before, and it is the top card."""
    symbols = _symbols(SLIVER)
    assert [(code.text, code.readable) for code in symbols.unjudged] == [(TEXT, True)]
    judged = symbols.judged(0)  # the index of the code read, not of the sliver
    assert judged.fully_visible
    assert top_card([judged]) == TEXT


def test_a_symbol_shaped_like_a_code_still_keeps_the_ferry_silent() -> None:
    """A square located and not read may be the real top card's code (under glare, a hand):
    with a whole code beside it, the ferry still has no top card."""
    symbols = _symbols(SQUARE)
    assert [(code.text, code.readable) for code in symbols.unjudged] == [("", False),
                                                                        (TEXT, True)]
    assert top_card([symbols.unjudged[0], symbols.judged(1)]) is None


@pytest.mark.parametrize(("corners", "square"), [
    ([(0, 0), (100, 0), (100, 100), (0, 100)], True),
    ([(0, 0), (100, 0), (130, 90), (0, 100)], True),  # a fourth corner guessed far off
    ([(0, 0), (90, 0), (90, 30), (0, 30)], True),  # exactly 3 : 1, the bound: kept
    ([(0, 0), (100, 0), (100, 30), (0, 30)], False),
    ([(0, 0), (400, 0), (400, 20), (0, 20)], False),
])
def test_square_enough(corners: list[tuple[int, int]], square: bool) -> None:
    assert square_enough(np.array(corners, np.float32)) is square
