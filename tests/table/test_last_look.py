"""The last look (issue 19, branch tboth): a zone where no look decoded any code is decoded
once more with its highlights pulled down, smoothed and enlarged 2× (vision/table_retry.py);
its codes are judged by the same verdict as every look's, on the crop as it is."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.table.test_fit import PX, code_image
from vision import table, table_codes
from vision.table import FerryView, TableReader
from vision.table_codes import Code, smoothed
from vision.table_kit import QR_MODULES_MM, Box, Quad
from vision.table_markers import MatPose
from vision.table_retry import washed_redrawn

PX_PER_MM = PX / QR_MODULES_MM  # the drawn code's 4 px a module: nothing enlarged first
TEXT = "NOAH1/BOX1/CAF1"


def _pose() -> MatPose:
    """Ferry 3's mat, its top left corner at (200, 40) in the frame, seen straight down."""
    matrix = np.array([[PX_PER_MM, 0, 200], [0, PX_PER_MM, 40], [0, 0, 1]], np.float64)
    return MatPose(3, matrix, PX_PER_MM)


def _square(x: float, y: float, side: float = 84.0) -> Quad:
    return (x, y), (x + side, y), (x + side, y + side), (x, y + side)


class _LooksRecorded(TableReader):
    """A reader whose second looks are only recorded (how the crop is redrawn); none reads."""

    def __init__(self) -> None:
        super().__init__()
        self.enhanced: list[Any] = []

    def _look_again(self, gray: np.ndarray, poses: Any, ferry: int, looks: Any, box: Box,
                    enhance: Any, enlarge: float) -> FerryView | None:
        self.enhanced.append(enhance)
        return None


def _looks_asked(codes: list[Code]) -> list[Any]:
    reader = _LooksRecorded()
    reader._look_closer(np.full((720, 1280), 180, np.uint8), {3: _pose()}, 3, codes)
    return reader.enhanced


def test_the_last_look_only_where_no_code_was_decoded() -> None:
    """No code decoded in the zone (nothing located, or a symbol located and not read): the
    last look comes after every other; a code decoded there (here unsure) has its answer."""
    unread = Code("", _square(400, 300), False, readable=False)
    unsure = Code(TEXT, _square(400, 300), False, unsure=True)
    assert _looks_asked([])[-1] is washed_redrawn
    assert _looks_asked([unread])[-2:] == [smoothed, washed_redrawn]
    assert washed_redrawn not in _looks_asked([unsure])


def _frame_with_a_code() -> np.ndarray:
    """A 720 × 1280 frame with a whole code in ferry 3's card zone (4 px a module)."""
    image, _, _ = code_image(TEXT)
    frame = np.full((720, 1280), 210, np.uint8)
    left, top = 200 + round(35 * PX_PER_MM), 40 + round(45 * PX_PER_MM)
    frame[top:top + image.shape[0], left:left + image.shape[1]] = image
    return frame


@pytest.fixture
def only_the_last_look_decodes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """zxing-cpp blind to every look but the last: what the audit's missed tops looked like
    (dim codes half washed out by a weak highlight that no other look decodes). Returns the
    looks' names in the order asked."""
    asked: list[str] = []
    real = washed_redrawn

    def last(crop: np.ndarray) -> np.ndarray:
        asked.append("last")
        return real(crop)

    monkeypatch.setattr(table, "washed_redrawn", last)
    reader_init = TableReader.__post_init__

    def blind_init(self: TableReader) -> None:
        reader_init(self)
        read = self._read_closer

        def closer(image: np.ndarray) -> list[Any]:
            if asked and asked[-1] == "last":
                asked.append("decoded")
                return list(read(image))
            asked.append("blind")
            return []

        self._read_closer = closer

    monkeypatch.setattr(TableReader, "__post_init__", blind_init)
    return asked


def test_a_code_only_the_last_look_decodes_is_read_and_judged(
        only_the_last_look_decodes: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole code that only the last look decodes is the top card, judged on the crop as it
    is by the line look too: with a card's edge beside it, the same code stays silent."""
    frame = _frame_with_a_code()
    view = TableReader()._look_closer(frame, {3: _pose()}, 3, [])
    assert view is not None and view.top == TEXT
    assert only_the_last_look_decodes[-2:] == ["last", "decoded"]
    monkeypatch.setattr(table_codes, "card_edge_beside", lambda *args, **kwargs: True)
    assert TableReader()._look_closer(frame, {3: _pose()}, 3, []) is None


def test_the_last_look_is_not_asked_where_a_zone_code_was_decoded(
        only_the_last_look_decodes: list[str]) -> None:
    """A code the first look decoded and judged unsure: the last look is not asked."""
    frame = _frame_with_a_code()
    unsure = Code(TEXT, _square(200 + 35 * PX_PER_MM, 40 + 45 * PX_PER_MM), False, unsure=True)
    assert TableReader()._look_closer(frame, {3: _pose()}, 3, [unsure]) is None
    assert "last" not in only_the_last_look_decodes
