"""A weak highlight's glow taken off a code before it is judged again (vision.table_deglow; issue
19 §3, branch tglow2): tests/table/test_lines.py's sticker under a sleeve's reflection added to
the light before the tone curve, as the scenes renderer adds it, with and without a covering
card's edge beside the code."""

from __future__ import annotations

import math

import numpy as np
import pytest
import zxingcpp

from tests.table.test_lines import BEYOND, QUIET, SIDE, _clean
from vision import table_codes, table_deglow

PX = 3.0  # frame pixels a module


def _glowing(*, light: float = 0.45, blur: float = 0.7, glow: float = 0.3,
             at: tuple[float, float] = (0.0, 10.0), size: float = 8.0,
             card: tuple[float, float] | None = None, on_the_card: bool = True,
             noise: float = 2.0) -> np.ndarray:
    """The sticker (``card``: a covering card's edge, as :func:`_clean`) under an elliptic glow
    ``size`` modules across centred ``at`` (modules from the code's top-left corner), adding
    ``glow`` of the paper's light; ``on_the_card``: the glow on the covering card too (else on
    the buried card only, as a reflection lies on one card)."""
    clean = _clean(PX, light, blur, card)
    y, x = (np.mgrid[0:clean.shape[0], 0:clean.shape[1]] + 0.5) / PX
    du, dv = x - QUIET - BEYOND - at[0], y - QUIET - BEYOND - at[1]
    spot = glow * light ** 2.2 * np.exp(-0.7 * ((du / size) ** 2 + (dv / (0.7 * size)) ** 2) ** 1.5)
    if card is not None and not on_the_card:
        distance, degrees = card
        across = (QUIET + BEYOND - distance - x) * math.cos(math.radians(degrees)) \
            - (y - SIDE / 2) * math.sin(math.radians(degrees))
        spot = spot * (across <= 0)
    lit = 255.0 * np.clip((clean / 255.0) ** 2.2 + spot, 0.0, 1.0) ** (1 / 2.2)
    rng = np.random.default_rng(0)
    return np.clip(np.round(lit + rng.normal(0.0, noise, lit.shape)), 0, 255).astype(np.uint8)


def _judged(frame: np.ndarray) -> str:
    codes = [code for code in zxingcpp.read_barcodes(frame) if code.valid]
    assert codes, "the sticker's code decodes"
    return table_codes.visibility(codes[0], frame)


@pytest.mark.parametrize("blur, glow, at, size", [(0.7, 0.3, (21.0, 10.0), 5.0),
                                                   (0.7, 0.45, (-3.0, -3.0), 8.0),
                                                   (1.1, 0.2, (5.0, 3.0), 12.0)])
def test_a_weak_glow_over_a_top_card_code_is_taken_off(monkeypatch: pytest.MonkeyPatch,
                                                        blur: float, glow: float,
                                                        at: tuple[float, float],
                                                        size: float) -> None:
    """A glow at 0.2–0.45 of the paper's light over the code's side or corner and its quiet
    zone: a few lifted modules, and the code is unsure; without the glow it is whole.
    **Fails with the rule switched off** (:data:`vision.table_deglow.DEGLOW`): unsure."""
    frame = _glowing(blur=blur, glow=glow, at=at, size=size)
    assert _judged(frame) == "whole"
    monkeypatch.setattr(table_deglow, "DEGLOW", False)
    assert _judged(frame) == "unsure"


@pytest.mark.parametrize("distance", [1.0, 2.0, 2.6])
@pytest.mark.parametrize("on_the_card", [True, False])
def test_a_covering_card_under_the_glow_is_still_refused(distance: float,
                                                         on_the_card: bool) -> None:
    """A covering card's edge 1–2.6 modules left of a buried code, the glow over both cards or
    over the buried one alone: never whole."""
    for at in ((0.0, 10.0), (-2.0, 10.0), (5.0, 3.0)):
        frame = _glowing(at=at, card=(distance, 0.0), on_the_card=on_the_card)
        assert _judged(frame) != "whole", (distance, on_the_card, at)


def test_a_step_in_the_paper_is_no_glow() -> None:
    """A covering card's paper a little darker than the sticker's, a module beside the code and
    no glow: the paper's surface is not flat (the step), but the ink shows no lift, so nothing
    is taken off (the fit alone called the sticker's paper a glow, and the band, flattened,
    hid the card's edge: the aimed probe's first draft)."""
    frame = _glowing(glow=0.0, card=(1.0, 0.0))
    codes = [code for code in zxingcpp.read_barcodes(frame) if code.valid]
    expected = table_codes.expected_modules(codes[0])
    assert expected is not None
    corners = table_codes.code_corners(codes[0])
    means = table_codes._module_means(frame, corners, expected.shape[0])
    assert table_deglow.glow_field(frame, corners, expected, means) is None
