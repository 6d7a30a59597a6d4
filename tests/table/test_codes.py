"""Reading the top cards' codes (issue 19: every visible top card, never a wrong one): what the
whole-code test is judged on."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import zxingcpp

from tests.table.test_fit import PX, code_image
from tests.table.test_view import BURIED, READER, SWEEP_CAMERA, overlap_positions
from vision.table_codes import _verdict, visibility
from vision.table_render import CardOnMat, MatOnTable, TableScene, render_table


def _overshoot(image: np.ndarray) -> np.ndarray:
    """The code's light modules lifted above the paper of its quiet zone, as a cubic
    enlargement of a 2.2 px-per-module code lifts them (:func:`vision.table_codes.enlarged`)."""
    lifted = image.copy()
    code = lifted[4 * PX:-4 * PX, 4 * PX:-4 * PX]
    code[code > 150] = 250
    return lifted


def test_the_quiet_zone_is_judged_on_the_plain_copy():
    """Issue 19 (binned frames): the quiet zone is compared with the light modules on the copy
    without sharpening; judged on the sharpened one alone, a whole code's paper looks darker
    than its light modules, as a card's edge would."""
    image, _, _ = code_image()
    sharp = _overshoot(image)
    (barcode,) = zxingcpp.read_barcodes(sharp)
    assert visibility(barcode, sharp) != "whole"
    assert visibility(barcode, sharp, image) == "whole"
    assert visibility(barcode, image) == "whole"


@pytest.mark.parametrize("modules_out", [1.8, 2.7])
def test_a_card_over_the_quiet_zone_alone_is_seen(modules_out):
    """Issue 19: a sticker-less card whose edge lies over a buried code's quiet zone but not
    over the code (its outline 1.8 or 2.7 modules out) leaves the modules whole: the quiet
    zone's rings must see it, the outer one (3 modules out) where it passes between the
    inner two (2.7: taken for whole before it)."""
    image, _, _ = code_image(blur=0.01)
    edge = round((4 - modules_out) * PX)  # the card covers everything left of its edge
    image[:, :edge] = 200  # its light border
    image[:, edge - 2:edge] = 60  # its outline
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    (barcode,) = zxingcpp.read_barcodes(image)
    assert visibility(barcode, image) != "whole"


def test_a_card_beside_a_code_over_its_quiet_zone_is_never_taken_for_the_top():
    """Issue 19's quiet-zone sweep, a slice of it: a card without a visible sticker whose edge
    lies 1.6 modules outside a buried card's code, on its right, below it and off its corner
    (main named the buried code in all three). zxing-cpp decodes the code, so the test can
    fail."""
    decoded = 0
    for index, (side, _, dx, dy) in enumerate(overlap_positions((-1.6,))):
        if side not in ("right", "below", "corner"):
            continue
        cards = (CardOnMat(BURIED), CardOnMat(None, dx, dy, 0.0))
        scene = TableScene((MatOnTable(3, 0.0, 0.0, 20.0, cards),), blur=1.1, seed=16 + index)
        view = READER.read(render_table(scene, SWEEP_CAMERA).frame).ferries[3]
        assert view.top is None, f"the card 1.6 modules off the code's {side}"
        decoded += BURIED in view.codes
    assert decoded >= 2


@pytest.mark.parametrize("off", [(0.6, -0.6), (-0.6, 0.6)])
def test_a_whole_code_is_whole_when_zxing_cpps_fourth_corner_is_off(off):
    """Issue 19 (DEV: top cards unsure): zxing-cpp estimates the corner without a finder
    pattern from the other three; 0.6 of a module off along each axis, its band lies over the
    code's modules. The fitted grid corrects that corner, and the whole code is whole."""
    image, corners, expected = code_image()
    corners[2] += np.array(off, np.float32) * PX
    assert _verdict(image, image, corners, expected) == "whole"


@pytest.mark.parametrize("over", [0.5, 0.75, 1.0])
@pytest.mark.parametrize("off", [(0.0, 0.0), (0.6, -0.6), (-0.6, 0.6)])
def test_a_covered_code_stays_covered_when_zxing_cpps_fourth_corner_is_off(over, off):
    """A card ½–1 module over the code, its outline in the code's left modules (issue 19's
    overlap sweep), is never whole, with zxing-cpp's fourth corner off or not."""
    image, corners, expected = code_image()
    edge = round((4 + over) * PX)
    image[:, :edge] = 200  # the card's light border
    image[:, edge - 2:edge] = 60  # its outline
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    corners[2] += np.array(off, np.float32) * PX
    assert _verdict(image, image, corners, expected) != "whole"
