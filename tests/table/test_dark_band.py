"""A top card's code whose quiet-zone band a hand or a phone darkens: the frame a buried code
makes when a covering card lies wholly under the same hand is the same frame, so the reader
must stay silent on both (issue 19, branch tdark; TABLE-KIT.md: "a frame with a hand over a
ferry says nothing about that ferry").

The census behind it (docs/benchmarks.md, branch tdark): the clear top cards main decodes
whole and refuses with the band dark on every grid are a hand by the code (DEV 1072 ferry 4:
the scene re-rendered without the hand reads it), a phone over the band (1140 ferry 3: without
the phone) and a binned frame's sensor noise at gain 15 (1052 ferry 5: at gain 1). A hand
(80 × 180 mm and its arm), a phone (72 × 150 mm) are larger than a card (63 × 88 mm): a
covering card whose corner reaches into the band can lie wholly under either, and nothing of
it shows. These tests hold that limit for any rule that would read such a band."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tests.table.test_lines import (
    BEYOND,
    CARD,
    FINE,
    INK,
    OUTLINE,
    PAPER,
    QUIET,
    SIDE,
    _corners,
    _modules,
)
from vision import table_codes

PX = 3.0  # frame pixels a module
REACH = 2.0  # modules: the dark object's edge crosses the band's corner this far out (dx + dy)
HAND, PHONE = 0.55, 0.12  # of the paper's level: a hand's skin, a phone's black glass


def _picture(*, dark: float | None, card_turn: float | None) -> np.ndarray:
    """The sticker of tests/table/test_lines.py drawn at :data:`FINE` pixels a module, with a
    covering card (its light face, its dark outline) whose corner lies 1.5 modules out past the
    code's bottom right corner, turned ``card_turn`` degrees (``None``: no card), then a dark
    object of ``dark`` × paper (``None``: none) over everything more than :data:`REACH`
    modules out past that corner along the diagonal (dx + dy), where the card lies whole."""
    code = np.pad(np.where(_modules(), INK, PAPER), QUIET, constant_values=PAPER)
    picture = np.kron(np.pad(code, BEYOND, constant_values=120.0), np.ones((FINE, FINE)))
    y, x = (np.mgrid[0:picture.shape[0], 0:picture.shape[1]] + 0.5) / FINE
    corner = QUIET + BEYOND + _modules().shape[0]  # the code's right and bottom sides, modules
    dx, dy = x - corner, y - corner
    if card_turn is not None:
        turn = math.radians(card_turn)
        u = (dx - 1.5) * math.cos(turn) + (dy - 1.5) * math.sin(turn)  # along the card's edges
        v = -(dx - 1.5) * math.sin(turn) + (dy - 1.5) * math.cos(turn)
        picture[(u > 0) & (v > 0)] = CARD
        edge = ((np.abs(u) < 0.2) & (v > -0.2)) | ((np.abs(v) < 0.2) & (u > -0.2))
        picture[edge] = OUTLINE
    if dark is not None:
        picture[dx + dy > REACH] = dark * PAPER
    return picture


def _frame(picture: np.ndarray, seed: int = 3) -> np.ndarray:
    """The picture shrunk to :data:`PX` pixels a module, a sharp lens, sensor noise σ 1."""
    size = round(SIDE * PX)
    small = cv2.resize(picture.astype(np.float32), (size, size), interpolation=cv2.INTER_AREA)
    blurred = cv2.GaussianBlur(small, (0, 0), 0.7)
    rng = np.random.default_rng(seed)
    return np.clip(np.round(blurred + rng.normal(0.0, 1.0, blurred.shape)), 0, 255).astype(
        np.uint8)


def _verdict(frame: np.ndarray) -> str:
    return table_codes._verdict(frame, frame, _corners(), _modules())


@pytest.mark.parametrize("card_turn", [0.0, 15.0, 40.0])
def test_the_scene_as_built(card_turn: float) -> None:
    """The plain sticker is whole; the covering card alone, its corner in the band, is seen
    (covered); the dark object's edge crosses the band and never the code."""
    assert _verdict(_frame(_picture(dark=None, card_turn=None))) == "whole"
    assert _verdict(_frame(_picture(dark=None, card_turn=card_turn))) == "covered"
    sampled = table_codes.sample_modules(_frame(_picture(dark=HAND, card_turn=None)),
                                         _corners(), 21)
    assert not (sampled != _modules()).any()  # the code's modules all show


@pytest.mark.parametrize("shade", [HAND, PHONE])
@pytest.mark.parametrize("card_turn", [0.0, 15.0, 40.0])
def test_a_card_wholly_under_a_dark_object_makes_the_same_frame(shade: float,
                                                                card_turn: float) -> None:
    """A hand or a phone over the band's corner of a top card's code, and the same object
    over a covering card whose corner lies in that band: the same pixels, so whatever the
    reader says of one it says of the other — and the second is a buried code. Silent on both
    (not whole). A rule that read the first would name the buried code: this test fails."""
    top = _frame(_picture(dark=shade, card_turn=None))
    buried = _frame(_picture(dark=shade, card_turn=card_turn))
    assert np.array_equal(top, buried)
    assert _verdict(top) != "whole"
