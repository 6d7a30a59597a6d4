"""Reading the top cards' codes (issue 19: every visible top card, never a wrong one): what the
whole-code test is judged on."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import zxingcpp

from tests.table.test_fit import PX, code_image
from vision.table import visibility


def _overshoot(image: np.ndarray) -> np.ndarray:
    """The code's light modules lifted above the paper of its quiet zone, as a cubic
    enlargement of a 2.2 px-per-module code lifts them (:func:`vision.table.enlarged`)."""
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
