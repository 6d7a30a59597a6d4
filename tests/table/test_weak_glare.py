"""A code under a weak highlight (issue 19 §3; vision/table_glare.py, vision/table_edges.py): a
sleeve's reflection too weak to saturate anything, over a top card's code and its quiet zone,
bends the light surface the band is judged against; the code is whole when its modules read
right against their neighbours and the band shows a glow's shape only — never when a covering
card's outline, lifted by the glow, lies beside the code (tglare's glare sweep, "corner −1.0"),
nor when the top-card test judged the modules covered (tshort's glare sweep with short frames)."""

from __future__ import annotations

import numpy as np
import pytest
import zxingcpp

import vision.table_deglow as table_deglow
import vision.table_edges as edges
import vision.table_glare as glare
from tests.table.test_glare import _sticker, _with_highlight
from tests.table.test_view import BURIED, overlap_positions
from vision.table import TableReader
from vision.table_codes import visibility
from vision.table_render import STICKER_AT, CardOnMat
from vision.table_sweeps_glare import SHORT, Glow, frame_in_grey_levels


def _verdict(image: np.ndarray) -> str:
    (barcode,) = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    assert barcode.text == "NOAH1/BOX1/CAF1"
    return visibility(barcode, image)


def _without_the_weak_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(edges, "_only_glow", lambda *args: False)
    monkeypatch.setattr(glare, "_weakly_lit_whole", lambda *args: False)
    monkeypatch.setattr(table_deglow, "DEGLOW", False)  # the glow taken off reads it too


def test_a_code_under_a_weak_glow_over_its_corner_is_whole(monkeypatch):
    """A glow of 0.16 × paper (nothing saturated) over the code's lower right corner and its
    quiet zone: the one-threshold test finds a few lifted dark modules wrong and is unsure;
    each module read against its neighbours is right, and the band shows paper with no
    outline: whole. Without the rule: unsure (DEV's weak highlights: 0 of 10 top cards read)."""
    image = _with_highlight(_sticker(), (32.0, 32.0), (6.0, 4.0), 0.16)
    assert image.max() < 250
    assert _verdict(image) == "whole"
    _without_the_weak_rule(monkeypatch)
    assert _verdict(image) == "unsure"


def test_a_weak_patch_needs_a_lift_not_a_gradient():
    """``lit_patch``: a side light's plane lifts no light module above the plane fitted to them;
    a glow's bump lifts a patch."""
    expected = np.zeros((21, 21), bool)
    expected[::2, ::3] = True
    ramp = np.tile(np.linspace(120.0, 220.0, 21), (21, 1)) - 100 * expected
    assert not glare.lit_patch(ramp, expected, 100.0)
    ys, xs = np.mgrid[0:21, 0:21]
    bump = 30.0 * np.exp(-((xs - 15) ** 2 + (ys - 15) ** 2) / 12.0)
    assert glare.lit_patch(ramp + bump, expected, 100.0)


SWEEP_DEPTHS = (1.5, 0.75, 0.0, -1.0, -2.2)  # modules: tglare's glare sweep's card positions


def sweep_frame(side: str, depth: float, spot: int, at: tuple[float, float], turn: float, *,
                depths: tuple[float, ...] = SWEEP_DEPTHS, peak: float = 0.6, blur: float = 0.7,
                card_turn: float = -7.0) -> np.ndarray:
    """One scene of tglare's glare sweep, drawn as the sweep draws it
    (vision/table_sweeps_glare.py): a card without a sticker turned ``card_turn`` degrees laid
    ``depth`` modules into the buried code from ``side`` (negative: beside it), room light 0.6,
    blur ``blur``, a glow of ``peak`` × paper (8 × 4 mm turned ``turn`` degrees, centred ``at``,
    mm on the buried card: the sweep's highlight number ``spot`` at that position), added in grey
    levels on both cards, sensor noise σ 2.5 from the sweep's own seeds (the order of the card
    positions of ``depths`` gives them)."""
    positions = list(overlap_positions(depths))
    index = positions.index(next(p for p in positions if p[:2] == (side, depth)))
    _, _, dx, dy = positions[index]
    cards = (CardOnMat(BURIED), CardOnMat(None, dx, dy, card_turn))
    return frame_in_grey_levels(cards, Glow(at, peak=peak, turn=turn), light=0.6, blur=blur,
                                seed=index, noise=2.5, noise_seed=1000 * index + spot)


def _card_into_the_code() -> np.ndarray:
    """The glare sweep's scene this rule first named: the card ¾ of a module into the code from
    the left, the glow over the code's middle, along the card's edge."""
    return sweep_frame("left", 0.75, 8, STICKER_AT, 90.0)


def _asked_for_covered_modules_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The weak path asked wherever the top-card test's verdict is not whole (as first built),
    whether or not the highlight washed a module out: the reader's later safeguards then stand
    alone."""
    rule = glare.glare_verdict
    monkeypatch.setattr(glare, "glare_verdict",
                        lambda gray, plain, corners, expected, judged="unsure":
                        rule(gray, plain, corners, expected, "unsure"))


def _without_the_outline_look(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(edges, "card_outline_under_glow", lambda *args: False)


def test_a_card_into_a_code_under_a_weak_glow_is_not_the_top(monkeypatch):
    """Never wrong: under the glow every module of the buried code reads right against its
    neighbours on the reader's second look, and its band passes; the covering card's edge
    beside the code (the line look at tglare's outline depth) keeps the weak path from
    vouching for it: the ferry says nothing. Without that look, the ferry named the buried
    code."""
    frame = _card_into_the_code()
    assert TableReader().read(frame).ferries[3].top is None
    _asked_for_covered_modules_too(monkeypatch)  # the test judges these modules covered
    assert TableReader().read(frame).ferries[3].top is None
    # the glow lies inside the code, which the weak path leaves to the rule (the test below);
    # without that, the outline look alone keeps the code from the top
    monkeypatch.setattr(glare, "_inside_the_code", lambda *args: False)
    assert TableReader().read(frame).ferries[3].top is None
    _without_the_outline_look(monkeypatch)
    assert TableReader().read(frame).ferries[3].top == BURIED


def test_a_cards_corner_off_a_code_under_a_glow_inside_it_is_not_the_top(monkeypatch):
    """Never wrong: a card's corner a module off the buried code's lower right corner (the band
    does not see it: main's reader names the same table without any highlight, tcodes' "card
    beside a code" limit), a glow over the code's middle that keeps clear of its edge. The
    glare rule judges such a highlight itself and says nothing; the weak path, reading every
    module against its neighbours, would have vouched for the code (the glare sweep's "corner
    −1.0", highlight 10). It leaves a highlight inside the code to the rule: nothing named."""
    frame = sweep_frame("corner", -1.0, 10, STICKER_AT, 135.0)
    assert TableReader().read(frame).ferries[3].top is None
    _asked_for_covered_modules_too(monkeypatch)  # the test judges these modules covered
    assert TableReader().read(frame).ferries[3].top is None
    monkeypatch.setattr(glare, "_inside_the_code", lambda *args: False)
    assert TableReader().read(frame).ferries[3].top == BURIED


def test_a_weak_glow_never_excuses_modules_judged_covered(monkeypatch):
    """Never wrong: tshort's glare sweep with short frames, "left −2.2" highlight 2 — a card
    without a sticker turned −7°, its edge 2.2 modules left of the buried code, a glow of 0.6 ×
    paper along that edge on the buried card only, added in linear light (room light 0.6). The
    glow leaves the top-card test judging the modules covered and the band clear; the weak path,
    reading each module against its neighbours, would call them whole, and the card's edge lies
    past the band, too faint for the outline look. This glow washes no module out, and a
    highlight that washes nothing out never excuses modules judged covered: the ferry says
    nothing. Asked for them all the same, the ferry named the buried code."""
    table = SHORT.camera(SHORT.scene("left", -2.2, -7.0, 2, "buried"))
    assert TableReader().read(table.frame).ferries[3].top is None
    _asked_for_covered_modules_too(monkeypatch)
    assert TableReader().read(table.frame).ferries[3].top == BURIED
