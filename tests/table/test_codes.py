"""Reading the top cards' codes (issue 19: every visible top card, never a wrong one): what the
whole-code test is judged on."""

from __future__ import annotations

import numpy as np
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
