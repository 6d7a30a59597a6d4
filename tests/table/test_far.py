"""Far, dim, noisy codes (issue 19, branch tfar): zxing-cpp's grid off by a shift as a whole."""

from __future__ import annotations

import numpy as np
import pytest

from tests.table.test_lines import _corners, _frame, _modules
from vision import table_codes

SHIFT = 0.3 * 3.0  # pixels: zxing-cpp's grid 0.3 of a module off along x and y, at 3 px a module
NOISY_SEEDS = (0, 2)  # noise draws whose code is judged on the noisy path (too noisy for the band)


def _noisy_verdict(frame: np.ndarray, corners: np.ndarray) -> str:
    return table_codes._noisy_verdict(frame, frame, corners, _modules())


@pytest.mark.parametrize("seed", NOISY_SEEDS)
def test_a_noisy_whole_code_on_a_shifted_grid_is_whole(seed: int,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19 (DEV 90–100 cm, dim side light, head shadow): zxing-cpp's whole grid 0.3 of a
    module off shows several wrong modules on a whole code; moved back by the shift that best
    matches the decoded code, none: whole. Without the shift (main before it), unsure."""
    frame, shifted = _frame(light=0.45, noise=4.0, blur=0.8, seed=seed), _corners() + SHIFT
    assert table_codes._too_noisy(frame, shifted, _modules())
    assert _noisy_verdict(frame, shifted) == "whole"
    monkeypatch.setattr(table_codes, "SHIFT_MIN_ERRORS", 10 ** 9)
    assert _noisy_verdict(frame, shifted) == "unsure"


@pytest.mark.parametrize("seed", NOISY_SEEDS[:1])
def test_a_card_edge_beside_a_noisy_code_on_a_shifted_grid_still_refuses(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same code with a covering card's edge 3.4 modules beside it, turned −7° (issue 19's
    hole, branch tnoisy), the band blinded as the noise blinds it in the quiet-zone sweep: the
    line look still refuses the shifted grid's verdict."""
    frame = _frame(light=0.45, noise=4.0, blur=0.8, card=(3.4, -7.0), seed=seed)
    shifted = _corners() + SHIFT
    monkeypatch.setattr(table_codes, "quiet_zone_is_clear", lambda *args: True)
    assert _noisy_verdict(frame, shifted) == "unsure"
    monkeypatch.setattr(table_codes, "card_edge_beside", lambda *args: False)
    assert _noisy_verdict(frame, shifted) == "whole"  # the line look is what holds it


@pytest.mark.parametrize(("seed", "off"), [(0, (0.36, 0.2))])
def test_one_wrong_module_on_zxing_cpps_grid_is_not_taken_for_a_shift(
        seed: int, off: tuple[float, float], monkeypatch: pytest.MonkeyPatch) -> None:
    """A single wrong module may be a card's trace as well as the grid's (the quiet-zone sweep at
    2.3 px: a card 4.3–6.3 modules off the code's corner): with one wrong module on zxing-cpp's
    grid and none on the fitted one, the shift is not tried; it would make the code whole."""
    frame = _frame(light=0.45, noise=4.0, blur=0.8, seed=seed)
    corners = _corners() + np.array(off, np.float32) * 3.0
    assert int((table_codes.sample_modules(frame, corners, 21) != _modules()).sum()) == 1
    assert _noisy_verdict(frame, corners) == "unsure"
    monkeypatch.setattr(table_codes, "SHIFT_MIN_ERRORS", 1)
    assert _noisy_verdict(frame, corners) == "whole"
