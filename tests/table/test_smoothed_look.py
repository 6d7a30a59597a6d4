"""The smoothed look (issue 19, branches tfar and tlook): a last second look that decodes a
smoothed crop round the symbols the looks before it located and could not read, and judges
its codes on the crop as it is, with the line look."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.table.test_fit import code_image
from vision import table_codes
from vision.table import FerryView, TableReader, unread_symbols_box
from vision.table_codes import Code, enlarged, smoothed
from vision.table_kit import QR_MODULES_MM, Box, Quad
from vision.table_markers import MatPose

PX_PER_MM = 3.2  # 3 px a module: the reader does not enlarge the zone (enlarge_below 2.6)
CODE_PX = PX_PER_MM * QR_MODULES_MM * 21


def _square(x: float, y: float, side: float = CODE_PX) -> Quad:
    return (x, y), (x + side, y), (x + side, y + side), (x, y + side)


def _pose(px_per_mm: float = PX_PER_MM) -> MatPose:
    """Ferry 3's mat, its top left corner at (200, 40) in the frame, seen straight down."""
    matrix = np.array([[px_per_mm, 0, 200], [0, px_per_mm, 40], [0, 0, 1]], np.float64)
    return MatPose(3, matrix, px_per_mm)


class _LooksRecorded(TableReader):
    """A reader whose second looks are only recorded: (box, how the crop is redrawn,
    enlargement); none names a top card."""

    def __init__(self) -> None:
        super().__init__()
        self.looks: list[tuple[Box, Any, float]] = []

    def _look_again(self, gray: np.ndarray, poses: Any, ferry: int, looks: Any, box: Box,
                    enhance: Any, enlarge: float) -> FerryView | None:
        self.looks.append((box, enhance, enlarge))
        return None


def _second_looks(codes: list[Code], px_per_mm: float = PX_PER_MM) -> list[tuple[Box, Any, float]]:
    reader = _LooksRecorded()
    gray = np.full((720, 1280), 180, np.uint8)
    reader._look_closer(gray, {3: _pose(px_per_mm)}, 3, codes)
    return reader.looks


def test_no_smoothed_look_where_every_symbol_was_read() -> None:
    """A zone whose looks read every symbol they located (codes judged covered or unsure), or
    located none (a hand, a strong highlight), gets the two second looks, not the smoothed
    one: 57 of DEV's 75 smoothed looks read nothing that way."""
    for codes in ([], [Code("NOAH1/BOX1/CAF1", _square(400, 200), False, unsure=True)]):
        assert [enhance for _, enhance, _ in _second_looks(codes)] == [
            table_codes.highlights_down, table_codes.as_it_is]


def test_the_smoothed_look_sees_round_the_symbol_not_read() -> None:
    """A symbol located and not read: the smoothed look, enlarged 2×, on a box a code's width
    round it (a sixth of the zone's pixels), not on the whole zone."""
    unread = Code("", _square(400, 200), False, readable=False)
    looks = _second_looks([unread])
    assert [enhance for _, enhance, _ in looks][-1] is smoothed
    box, _, enlarge = looks[-1]
    margin = round(CODE_PX)
    assert enlarge == 2.0
    assert box == pytest.approx((400 - margin, 200 - margin, 400 + 2 * margin,
                                 200 + 2 * margin), abs=1)
    zone = looks[0][0]
    box_px = (box[2] - box[0]) * (box[3] - box[1])
    assert box_px < (zone[2] - zone[0]) * (zone[3] - zone[1]) / 4


def test_no_smoothed_look_at_a_place_judged_covered() -> None:
    """A symbol not read where a look read a code judged covered: the place stays covered
    whatever the smoothed look reads there (verdict_settled), so it is not smoothed."""
    square = _square(400, 200)
    codes = [Code("", square, False, readable=False), Code("NOAH1/BOX1/CAF1", square, False)]
    assert smoothed not in [e for _, e, _ in _second_looks(codes)]
    assert smoothed in [e for _, e, _ in _second_looks(codes[:1])]


def test_no_smoothed_look_on_a_zone_already_enlarged() -> None:
    """A binned frame's zone is enlarged 2× already: the smoothed look (2× more) is not
    made, as the enlarged second look is not."""
    unread = Code("", _square(400, 200, 40), False, readable=False)
    assert [e for _, e, _ in _second_looks([unread], px_per_mm=2.0)] == [
        table_codes.highlights_down]


def test_the_box_is_clipped_to_the_frame() -> None:
    pose = _pose()
    unread = Code("", _square(-10, 690), False, readable=False)
    left, top, right, bottom = unread_symbols_box([[unread]], pose, (720, 1280))  # type: ignore[misc]
    assert (left, bottom) == (0, 720) and right < 1280 and top > 0


def test_the_smoothed_look_is_decoded_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The smoothed crop is only decoded: its codes are judged on the crop as it is, enlarged as
    the look enlarges it (the blur would soften a covering card's outline too), and by the line
    look as well (a buried code no other look read, its card 3.2–3.8 modules off: the
    quiet-zone sweep at 3 px, branch tfar)."""
    image, _, _ = code_image()
    judged_on: list[np.ndarray] = []
    beside: list[bool] = []

    def card_edge_beside(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> bool:
        judged_on.append(gray)
        return beside[-1]

    monkeypatch.setattr(table_codes, "card_edge_beside", card_edge_beside)
    symbols = TableReader()._decode_crop(smoothed(image), 0, 0, image.shape[1],
                                         image.shape[0], 2.0)
    assert [code.text for code in symbols.unjudged] == ["NOAH1/BOX1/CAF1"]
    seen = symbols.seen_in(image)
    beside.append(False)
    assert seen.judged(0).fully_visible
    assert np.array_equal(judged_on[-1], enlarged(image, 2.0, sharp=False))
    beside.append(True)
    assert seen.judged(0).unsure  # a card's edge beside it: not the top card
    assert symbols.judged(0).fully_visible  # judged on the smoothed image, no line look
