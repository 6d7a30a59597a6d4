"""The top-card rule and the symbols zxing-cpp located and could not read (issue 19, branches
ttopcard and ttopcard2): a symbol not read that is the zone's one whole code's own finder
patterns grouped with a mark beside them (a phantom) no longer keeps the ferry silent, nor
does a "symbol" with no position; the true top card's sticker, unread beside a whole buried
code, still does (the referee never guesses, TABLE-KIT.md "Cards").

The outlines are those of the refused top cards in ttopcard's audit (frame pixels, zxing-cpp's
corners in its order), docs/benchmarks.md."""
from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import vision.table as table
import vision.table_codes as codes
from tests.table.test_fit import code_image
from tests.table.test_view import BURIED, SWEEP_CAMERA
from vision.table_codes import Code, top_card
from vision.table_kit import Quad
from vision.table_render import CardOnMat, MatOnTable, TableScene, render_table


def _quad(points: list[tuple[float, float]]) -> Quad:
    return tuple(points)  # type: ignore[return-value]


def _zone(whole: list[tuple[float, float]], *unread: list[tuple[float, float]]) -> list[Code]:
    """A zone's codes: the top card's code judged whole, and symbols located and not read."""
    return [Code("NOAH1/BOX1/DOF1", _quad(whole), True),
            *(Code("", _quad(q), False, readable=False) for q in unread)]


# (P) 10009 ferry 2: a square on two of the code's finders, two corners on or in its outline,
# a quarter of its area covered, its other two corners on the label beside it
SQUARE_ON_TWO_FINDERS = _zone([(1465.0, 1400.0), (1582.0, 1394.0), (1588.0, 1508.0),
                               (1474.0, 1514.0)],
                              [(1504.0, 1398.0), (1510.0, 1489.0), (1417.0, 1496.0),
                               (1410.0, 1404.0)])
# (K) 9027 ferry 5: a kite along one finder column and a mark 1½ codes away on the card: one
# corner on the code's edge, a third of its area covered
KITE_ON_A_FINDER_COLUMN = _zone([(3174.0, 1205.0), (3059.5, 1186.5), (3076.5, 1074.5),
                                 (3189.0, 1090.5)],
                                [(3136.0, 1199.0), (3167.0, 963.0), (3260.0, 979.0),
                                 (3228.0, 1212.0)])
# (S) 30294 ferry 3: a square on one finder, the rest over the card's edge: 0.11 of the area
SQUARE_ON_ONE_FINDER = _zone([(2462.0, 1610.5), (2340.5, 1616.5), (2337.5, 1496.5),
                              (2456.0, 1492.0)],
                             [(2418.0, 1533.0), (2412.0, 1433.0), (2514.0, 1427.0),
                              (2516.0, 1528.0)])


def test_a_phantom_on_two_of_the_codes_finders_is_no_other_card() -> None:
    """Two corners on or inside the whole code's outline (within a module): the code's own
    finders, seen again; the top card is named."""
    assert top_card(SQUARE_ON_TWO_FINDERS) == "NOAH1/BOX1/DOF1"


def test_two_corners_alone_lift_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corners' rule does it alone (the share of the area switched off); switched off
    too, the ferry is silent again, as before."""
    monkeypatch.setattr(codes, "PHANTOM_SHARE", 2.0)
    assert top_card(SQUARE_ON_TWO_FINDERS) == "NOAH1/BOX1/DOF1"
    monkeypatch.setattr(codes, "PHANTOM_CORNERS", 5)
    assert top_card(SQUARE_ON_TWO_FINDERS) is None


def test_a_kite_over_a_third_of_the_code_is_lifted_by_the_share_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One corner only on the code's edge: the share of the code's area it covers (0.34)
    lifts it; with that rule switched off it keeps the ferry silent."""
    assert top_card(KITE_ON_A_FINDER_COLUMN) == "NOAH1/BOX1/DOF1"
    monkeypatch.setattr(codes, "PHANTOM_SHARE", 2.0)
    assert top_card(KITE_ON_A_FINDER_COLUMN) is None


def test_a_symbol_on_one_finder_only_still_keeps_the_ferry_silent() -> None:
    """30294 ferry 3: one corner inside, 0.11 of the area: not taken for a phantom (a share
    of 0.10 would take it in; not proposed), so the ferry stays silent."""
    assert top_card(SQUARE_ON_ONE_FINDER) is None


def test_a_phantom_lifts_nothing_where_a_code_is_unsure() -> None:
    """Only a symbol not read is ever excused: an unsure code still keeps the ferry silent."""
    unsure = Code("NOAH1/BOX1/BEF1", SQUARE_ON_TWO_FINDERS[0].corners, False, unsure=True)
    assert top_card([*SQUARE_ON_TWO_FINDERS, unsure]) is None


def _no_position() -> Any:
    """What zxing-cpp returns when its detector fails before placing a symbol ("Invalid
    symbol size", a format error): not valid, all four corners at (0, 0)."""
    origin = SimpleNamespace(x=0, y=0)
    position = SimpleNamespace(top_left=origin, top_right=origin, bottom_right=origin,
                               bottom_left=origin)
    return SimpleNamespace(valid=False, text="", position=position)


def _zone_with_a_positionless_symbol() -> list[Code]:
    """tdim4's 6355 ferry 1: the second look read the top card whole and zxing-cpp gave a
    failure with no position, which the crop's offset put on the cloth."""
    image, _, _ = code_image()
    reader = table.TableReader()
    read = reader._read
    reader._read = lambda crop: [_no_position(), *read(crop)]
    symbols = reader._decode_crop(image, 0, 0, image.shape[1], image.shape[0], 1.0)
    return [code if not code.readable else symbols.judged(i)
            for i, code in enumerate(symbols.unjudged)]


def test_a_result_with_no_position_is_no_symbol(monkeypatch: pytest.MonkeyPatch) -> None:
    assert top_card(_zone_with_a_positionless_symbol()) == "NOAH1/BOX1/CAF1"
    monkeypatch.setattr(table, "NO_SIZE_PX", 0.0)  # switched off: kept, and silent as before
    kept = _zone_with_a_positionless_symbol()
    assert [c.readable for c in kept] == [False, True]
    assert top_card(kept) is None


TOP = "NOAH1/BOX1/DOF1"


def test_the_top_cards_sticker_unread_beside_a_whole_buried_code_keeps_it_silent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The danger sweep's nearest case (3 px a module; the top card 36 mm right, 6 mm down,
    turned −15°, its sticker at its corner): the buried card's code is judged whole and the
    top card's sticker located 2.9 modules beside it. Were that sticker not read (a hand,
    glare), even with one corner of its outline guessed 4 modules toward the buried code
    (one corner then lies inside it), it is no phantom of the buried code: the ferry stays
    silent. "Any overlap", or one corner within reach, would name the buried code here."""
    calls: list[list[Code]] = []

    def recorded(found: list[Code]) -> str | None:
        calls.append(list(found))
        return top_card(found)

    monkeypatch.setattr(table, "top_card", recorded)
    cards = (CardOnMat(BURIED), CardOnMat(TOP, 36.0, 6.0, -15.0, sticker_at=(14.0, 14.0)))
    scene = TableScene((MatOnTable(3, 0.0, 0.0, 20.0, cards),), blur=0.9, seed=7646, noise=2.5)
    reading = table.TableReader().read(render_table(scene, SWEEP_CAMERA).frame)
    assert reading.ferries[3].top != BURIED  # both whole here: two texts, nothing said
    zone = next(found for found in calls
                if any(c.fully_visible and c.text == BURIED for c in found)
                and any(c.text == TOP for c in found))
    whole = next(c for c in zone if c.fully_visible and c.text == BURIED)
    sticker = next(c for c in zone if c.text == TOP)
    others = [c for c in zone if c.text != TOP]
    centre = np.mean(whole.corners, axis=0)
    module = float(np.linalg.norm(np.subtract(whole.corners[1], whole.corners[0]))) / 21
    outlines = [sticker.corners]
    for corner in range(4):  # each corner in turn guessed 4 modules toward the buried code
        strayed = np.array(sticker.corners)
        toward = centre - strayed[corner]
        strayed[corner] += 4 * module * toward / np.linalg.norm(toward)
        outlines.append(_quad([(float(x), float(y)) for x, y in strayed]))
    for corners in outlines:
        unread = replace(sticker, text="", corners=corners, readable=False,
                         fully_visible=False, unsure=False)
        assert top_card([*others, unread]) is None
