"""The binned mode's cheaper judging (issue 19, branch tbinned): the unsharpened copy made
only round the judged codes, and a second look's code left unjudged where the merge's verdict
is settled, each the same as the work it replaces."""
from __future__ import annotations

import numpy as np
import pytest

import vision.table
from tests.table.test_view import BURIED
from vision.table import PART_FACTOR, TableReader, plain_part
from vision.table_codes import (
    Code,
    enlarged,
    merge_looks,
    moved_by,
    top_card,
    verdict_settled,
    visibility,
)
from vision.table_kit import QR_MODULES_MM, Quad
from vision.table_render import (
    CARD_MM,
    STICKER_AT,
    STICKER_CODE_MM,
    CardOnMat,
    MatOnTable,
    OverheadCamera,
    TableScene,
    render_table,
)


@pytest.mark.parametrize("seed", range(6))
def test_plain_parts_equal_the_whole_copy(seed: int) -> None:
    """Any box, at the source's edges or inside it, gets the whole copy's pixels exactly,
    and nothing outside the box is written."""
    rng = np.random.default_rng(seed)
    source = rng.integers(0, 256, (int(rng.integers(8, 60)), int(rng.integers(8, 60))), np.uint8)
    whole = enlarged(source, PART_FACTOR, sharp=False)
    height, width = source.shape
    for _ in range(20):
        left, right = sorted(int(v) for v in rng.integers(-5, width + 5, 2))
        top, bottom = sorted(int(v) for v in rng.integers(-5, height + 5, 2))
        plain = np.zeros_like(whole)
        plain_part(source, plain, (left, top, right, bottom))
        x0, y0 = max(left, 0) * 2, max(top, 0) * 2
        x1, y1 = min(right, width) * 2, min(bottom, height) * 2
        inside = np.zeros(whole.shape, bool)
        if x1 > x0 and y1 > y0:
            inside[y0:y1, x0:x1] = True
        assert (plain[inside] == whole[inside]).all()
        assert not plain[~inside].any()


def test_plain_part_of_a_strided_view() -> None:
    """A crop of the frame (a view with the frame's stride) is enlarged as a copy would be."""
    frame = np.random.default_rng(7).integers(0, 256, (50, 80), np.uint8)
    view = frame[5:45, 10:70]
    plain = np.zeros((80, 120), np.uint8)
    plain_part(view, plain, (0, 0, 60, 40))
    assert (plain == enlarged(view.copy(), 2.0, sharp=False)).all()


_SQUARE: Quad = ((0.0, 0.0), (20.0, 0.0), (20.0, 20.0), (0.0, 20.0))


def _at(x: float) -> Quad:
    return moved_by(_SQUARE, x, 0.0)


@pytest.mark.parametrize("texts", [("X", "X"), ("X", "Y")])
def test_a_settled_code_merges_alike_whatever_its_verdict(texts: tuple[str, str]) -> None:
    """TABLE-KIT.md (never a buried code for the top card): a buried card's code judged covered
    in the first look stays covered (or unsure, for another text at its place) whatever a
    second look would judge it, so leaving it unjudged changes neither the merge nor the top
    card."""
    first = [Code(texts[0], _SQUARE, False), Code("T", _at(100), True)]
    again = Code(texts[1], _at(1), False)
    assert verdict_settled([first, []], again, 10)
    merges = {tuple(merge_looks([first, [Code(again.text, again.corners, whole, unsure=unsure)]],
                                10))
              for whole, unsure in ((False, False), (True, False), (False, True))}
    assert len(merges) == 1
    assert top_card(list(next(iter(merges)))) == ("T" if texts == ("X", "X") else None)


def test_an_unsettled_code_is_judged() -> None:
    """A place whose earlier codes are whole or unsure, or no earlier code: the verdict
    decides, so the code must be judged."""
    whole, unsure = Code("X", _SQUARE, True), Code("X", _SQUARE, False, unsure=True)
    for earlier in ([whole], [unsure], [], [Code("", _SQUARE, False, readable=False)]):
        assert not verdict_settled([earlier], Code("X", _at(1), False), 10)


# 2.3 px per module, the binned mode's scale: the reader enlarges the zone 2× (tdim's sweep camera)
_BINNED_CAMERA = OverheadCamera(width=491, height=552, height_mm=750.0 * 491 / (3072 * 2.3 / 3))


def test_the_reader_judges_alike_on_the_copy_in_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A binned-scale frame's codes (a clear top card, a buried one under a card 1.5 modules
    deep, a card over the quiet zone alone) get the same verdicts, and the ferry the same
    reading, from the copy made in parts as from the whole copy (``PART_FACTOR`` off); and
    the copy in parts is what the reader used (zeros away from the codes)."""
    verdicts: list[str] = []
    planes: list[np.ndarray] = []

    def recorded(barcode: object, gray: np.ndarray, plain: np.ndarray | None = None) -> str:
        verdict = visibility(barcode, gray, plain)
        verdicts.append(verdict)
        planes.append(plain if plain is not None else gray)
        return verdict

    monkeypatch.setattr(vision.table, "visibility", recorded)
    card_w = CARD_MM[0] / 2
    code_left = STICKER_AT[0] - card_w - STICKER_CODE_MM / 2
    readings = []
    for factor in (PART_FACTOR, -1.0):
        monkeypatch.setattr(vision.table, "PART_FACTOR", factor)
        for depth in (None, 1.5, -1.0):
            cards = [CardOnMat(BURIED)]
            if depth is not None:
                dx = code_left + depth * QR_MODULES_MM - card_w
                cards.append(CardOnMat(None, dx, 0.0, 0.0))
            scene = TableScene((MatOnTable(3, 0.0, 0.0, 20.0, tuple(cards)),), blur=0.7)
            readings.append(TableReader().read(render_table(scene, _BINNED_CAMERA).frame)
                            .ferries[3])
    half = len(verdicts) // 2
    assert verdicts[:half] == verdicts[half:] and "covered" in verdicts[:half]
    assert readings[:3] == readings[3:] and readings[0].top == BURIED
    assert not planes[0].all() and planes[-1].all()  # in parts: zeros away from the codes
