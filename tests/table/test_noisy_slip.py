"""A noisy code with one module off on the grid fitted to it (issue 19, branch tnoisy2): the
sensor noise's, judged whole when both bands are light and no card's edge runs beside it."""

from __future__ import annotations

import numpy as np
import pytest

from tests.table.test_lines import BEYOND, QUIET, _corners, _frame, _modules
from vision import table_codes

SPECK = (8, 8)  # a light module in the code's middle, darkened (a speck of dust, a hot pixel)
OTHER = (11, 11)  # a second module turned to the other colour
BESIDE = (8, 9)  # a second module next to SPECK


def _turned(frame: np.ndarray, *modules: tuple[int, int], px: int = 3) -> np.ndarray:
    """``frame`` with each module of ``modules`` (row, column) painted the other colour."""
    painted = frame.copy()
    for row, column in modules:
        y, x = ((QUIET + BEYOND + i) * px for i in (row, column))
        painted[y:y + px, x:x + px] = 240 if _modules()[row, column] else 40
    return painted


def _fitted_slips(frame: np.ndarray) -> int:
    fitted = table_codes._fitted_corners(frame, _corners(), _modules())
    return int((table_codes.sample_modules(frame, fitted, 21) != _modules()).sum())


def _noisy_verdict(frame: np.ndarray) -> str:
    assert table_codes._too_noisy(frame, _corners(), _modules())  # the path under test
    return table_codes._noisy_verdict(frame, frame, _corners(), _modules())


@pytest.mark.parametrize("seed", [0, 1])
def test_one_module_off_on_the_fitted_grid_is_the_noise(seed: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19 (DEV 1080 ferry 3, fresh 2016 ferry 5 and 2060 ferry 4: dim, noisy top cards
    that bare zxing-cpp reads): one isolated module of 441 off on the fitted grid, both bands
    light, no card's edge beside the code: whole. Main before this branch: unsure."""
    frame = _turned(_frame(seed=seed), SPECK)
    assert _fitted_slips(frame) == 1
    assert _noisy_verdict(frame) == "whole"
    monkeypatch.setattr(table_codes, "NOISY_SLIPS", 0)
    assert _noisy_verdict(frame) == "unsure"


def test_two_modules_off_on_the_fitted_grid_side_by_side_stay_unsure() -> None:
    """Two modules off side by side may be a covering card's trace (the dim sweep's buried
    codes showed a few): the noisy path still refuses them (two apart: branch tdim5,
    tests/table/test_one_band.py)."""
    frame = _turned(_frame(seed=0), SPECK, BESIDE)
    assert _fitted_slips(frame) == 2
    assert _noisy_verdict(frame) == "unsure"


def test_a_card_edge_beside_a_code_one_module_off_refuses(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The same code with a covering card's edge 3.4 modules beside it, turned −7° (the
    quiet-zone sweep's hole, branch tnoisy), the band blinded as noise blinds it there: the
    line look refuses the code; without the line look it would be whole."""
    frame = _turned(_frame(card=(3.4, -7.0), seed=0), SPECK)
    assert _fitted_slips(frame) == 1
    assert _noisy_verdict(frame) == "unsure"  # the band sees this card already
    monkeypatch.setattr(table_codes, "quiet_zone_is_clear", lambda *args: True)
    assert _noisy_verdict(frame) == "unsure"
    monkeypatch.setattr(table_codes, "card_edge_beside", lambda *args: False)
    assert _noisy_verdict(frame) == "whole"  # the line look is what holds it
