"""A code under a glossy sleeve's highlight (issue 19.3, TABLE-KIT.md: "a highlight may lie over
part of a code"; vision/table_glare.py): whole when only the highlight changed it, never when a
card lies over it or its outline crosses the lit quiet zone."""

from __future__ import annotations

import numpy as np
import zxingcpp

from tests.table.test_fit import PX, code_image
from vision.table_codes import _expected_modules, _verdict, code_corners, visibility
from vision.table_glare import _outline_in_light, glare_verdict

MARGIN = 8 * PX  # more paper round the sticker's quiet zone, for a highlight to reach into
PAPER = 210.0


def _with_highlight(image: np.ndarray, centre: tuple[float, float], axes: tuple[float, float],
                    peak: float) -> np.ndarray:
    """``image`` (modules from its own top left) with a sleeve's highlight added: the scenes
    renderer's glow, ``peak`` × paper at its core, flat and saturating, soft at its rim
    (vision/table_scenes_light.py), an ellipse of semi-axes ``axes`` (in modules)."""
    ys, xs = np.mgrid[0:image.shape[0], 0:image.shape[1]].astype(np.float64) / PX
    q = ((xs - centre[0]) / axes[0]) ** 2 + ((ys - centre[1]) / axes[1]) ** 2
    glow = peak * PAPER * np.exp(-0.7 * q ** 1.5)
    return np.clip(image + glow, 0, 255).astype(np.uint8)


def _sticker() -> np.ndarray:
    image, _, _ = code_image(blur=0.7)
    return np.pad(image, MARGIN, mode="edge")


def _judged(image: np.ndarray) -> tuple[str, str | None]:
    (barcode,) = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    assert barcode.text == "NOAH1/BOX1/CAF1"
    extra = barcode.extra
    expected = _expected_modules(barcode.text, extra["ECLevel"], extra["Version"],
                                 extra["DataMask"])
    assert expected is not None
    return visibility(barcode, image), glare_verdict(image, image, code_corners(barcode),
                                                     expected)


CODE_CENTRE = (8 + 4 + 10.5, 8 + 4 + 10.5)  # modules from the image's top left


def test_a_highlight_over_part_of_a_code_leaves_it_whole():
    """A saturating highlight over the middle of a top card's code lifts its dark modules to
    grey: zxing-cpp decodes it, the one-threshold test finds a patch of wrong modules, and each
    module read against its neighbours is right: the code is whole (DEV: 0 of 48 codes under a
    strong highlight read before the rule, 16 after)."""
    image = _with_highlight(_sticker(), CODE_CENTRE, (4.0, 2.5), 1.2)
    assert _judged(image) == ("whole", "whole")
    (barcode,) = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    expected = _expected_modules("NOAH1/BOX1/CAF1", "Q", "1", barcode.extra["DataMask"])
    assert _verdict(image, image, code_corners(barcode), expected) == "covered"  # without it


def test_a_card_over_a_corner_beside_a_highlight_is_covered():
    """A card (paper-white, its dark outline) over the code's bottom right corner, four modules
    deep, beside the highlight: zxing-cpp still decodes the code, whose covered modules are not
    brighter than the paper: the highlight excuses none of them."""
    image = _sticker()
    corner = MARGIN + 4 * PX + 17 * PX
    image[corner:, corner:] = int(PAPER)
    image[corner - 1:corner + 1, corner:] = 90
    image[corner:, corner - 1:corner + 1] = 90
    image = _with_highlight(image, CODE_CENTRE, (4.0, 2.5), 1.2)
    verdict, glare = _judged(image)
    assert verdict == "covered" and glare != "whole"


def test_a_card_outline_lifted_by_a_highlight_in_the_quiet_zone_is_seen():
    """A card's corner over a buried code's quiet zone (its outline 1 to 2 modules out, off the
    code's top left corner) under a highlight that lifts the outline above the quiet-zone
    test's threshold where it crosses the rings: the lit rings dip at the outline, so the
    code is not whole (without the outline test it was)."""
    image = _sticker()
    corner_x, corner_y = MARGIN + 2 * PX, MARGIN + 3 * PX  # 2 and 1 modules out
    image[:corner_y, :corner_x] = int(PAPER)  # the card's border, paper-white
    image[:corner_y, corner_x - 1:corner_x + 1] = 90  # its outline
    image[corner_y - 1:corner_y + 1, :corner_x] = 90
    image = _with_highlight(image, (10.0, 11.0), (3.0, 3.0), 0.5)
    assert _judged(image) == ("unsure", "unsure")


def test_the_outline_test_sees_a_dip_in_light_not_a_highlights_slope():
    """A lit run of quiet-zone samples with a narrow dip is an outline; the slope of a
    highlight's rim, or a dip in a part of the ring the highlight does not lift, is not."""
    n = 21
    across, down = 2 * n + 4, 2 * n + 2
    size = 2 * across + 2 * down  # one ring's samples
    ring = np.full(2 * size, 200.0)
    for top in (slice(0, across), slice(size, size + across)):
        ring[top] = np.linspace(200, 250, across)  # the rim's slope along each ring's top
    assert not _outline_in_light(ring, n, 200.0, 150.0)
    ring[[20, size + 20]] = 180.0  # a thin line across both rings, lifted above the paper
    assert _outline_in_light(ring, n, 200.0, 150.0)
    ring[:across] = ring[size:size + across] = 200.0
    ring[across + 5] = 150.0  # an unlit dip: the quiet-zone test's own business
    assert not _outline_in_light(ring, n, 200.0, 150.0)


def _bright(image: np.ndarray) -> np.ndarray:
    """The sticker in a bright room: its paper at 248 of 255, 7 levels short of full scale."""
    return np.clip(image.astype(np.float64) * 248 / PAPER, 0, 255).astype(np.uint8)


def test_a_bright_rooms_clean_code_is_whole_and_a_white_out_at_its_edge_is_not():
    """Paper near full scale leaves a highlight no room to show on it (the first renderer's
    frames, a bright day): a clean code is judged as without the rule, whole. A highlight
    washing out the code's corner there lifts its dark edge modules and would hide a card's
    outline in the quiet zone beyond (the glare sweep: a card's corner 1½ modules into the
    code under a white-out passed as whole on main): unsure."""
    assert _judged(_bright(_sticker())) == ("whole", None)
    corner = 8 + 4 + 20.0  # the code's last module, from the image's top left
    image = _bright(_with_highlight(_sticker(), (corner, corner), (3.0, 3.0), 0.6))
    assert _judged(image) == ("unsure", "unsure")
