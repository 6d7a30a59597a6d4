"""A code clean on both its grids whose band is light on one and dark on the other, judged by
the line look (issue 19, branch tdim5: binned top cards in dim side light and head shadow,
2.1–2.3 px a module, that bare zxing-cpp reads and the band refused by 0.06 module²)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tests.table import test_noisy_grids as noisy_grids
from tests.table import test_noisy_slip as noisy_slip
from tests.table.test_lines import _corners, _frame, _modules
from vision import table_codes
from vision.table_edges import quiet_zone_is_clear

FITTED_NUDGE = 0.05  # pixels: the fitted grid, told apart from zxing-cpp's, the same modules


def _fitted() -> np.ndarray:
    return _corners() + FITTED_NUDGE


def _is_fitted(grid: np.ndarray) -> bool:
    return bool(np.allclose(grid, _fitted(), atol=1e-3))


def _is_zxing(grid: np.ndarray) -> bool:
    return bool(np.allclose(grid, _corners(), atol=1e-3))


_SAMPLE, _CLEAR = table_codes.sample_modules, quiet_zone_is_clear


def _judged(monkeypatch: pytest.MonkeyPatch, frame: np.ndarray, *,
            dark_band: Callable[[np.ndarray], bool],
            wrong_on: Callable[[np.ndarray], bool] = lambda grid: False,
            blind: bool = False) -> str:
    """``_verdict`` of a code that is not too noisy, with the fit's answer fixed
    (:func:`_fitted`), the band dark on the grids ``dark_band`` names (light on every other
    when ``blind``: as if the band missed a card's edge), and one module of the code's middle
    turned on the grids ``wrong_on`` names."""
    assert not table_codes._too_noisy(frame, _corners(), _modules())  # the path under test

    def sampled(gray: np.ndarray, grid: np.ndarray, n: int) -> np.ndarray:
        modules = np.array(_SAMPLE(gray, grid, n))
        if wrong_on(np.asarray(grid, np.float32)):
            modules.flat[220] ^= True
        return modules

    def clear(gray: np.ndarray, grid: np.ndarray, expected: np.ndarray) -> bool:
        return not dark_band(np.asarray(grid)) and (blind or _CLEAR(gray, grid, expected))

    monkeypatch.setattr(table_codes, "_fitted_corners", lambda *args: _fitted())
    monkeypatch.setattr(table_codes, "sample_modules", sampled)
    monkeypatch.setattr(table_codes, "quiet_zone_is_clear", clear)
    return table_codes._verdict(frame, frame, _corners(), _modules())


def _calm(card: tuple[float, float] | None = None) -> np.ndarray:
    """A bright sticker under little noise (the quiet-zone path, not the noisy one)."""
    return _frame(light=1.0, noise=1.0, seed=3, card=card)


@pytest.mark.parametrize("dark", [_is_fitted, _is_zxing], ids=["fitted", "zxing"])
def test_one_band_dark_the_other_light_is_whole(dark: Callable[[np.ndarray], bool],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Fresh seeds 9173 ferry 3 and 6742 ferry 2 (the fitted grid's band 0.56 module² dark,
    zxing-cpp's light) and 6468 ferry 5 (the other way round): no module off on either grid,
    no card's edge for the line look: whole. Without the rule: unsure, as on main."""
    frame = _calm()
    assert table_codes._verdict(frame, frame, _corners(), _modules()) == "whole"  # both light
    assert _judged(monkeypatch, frame, dark_band=dark) == "whole"
    monkeypatch.setattr(table_codes, "ONE_BAND_LIGHT", False)
    assert _judged(monkeypatch, frame, dark_band=dark) == "unsure"


@pytest.mark.parametrize("dark", [_is_fitted, _is_zxing], ids=["fitted", "zxing"])
@pytest.mark.parametrize("wrong", [_is_fitted, _is_zxing], ids=["on-fitted", "on-zxing"])
def test_one_band_dark_and_a_module_off_stays_unsure(
        dark: Callable[[np.ndarray], bool], wrong: Callable[[np.ndarray], bool],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One band dark: a single module off on either grid (a whole code's, without the dark
    band) and the code is unsure, as on main."""
    frame = _calm()
    assert _judged(monkeypatch, frame, dark_band=lambda grid: False, wrong_on=wrong) == "whole"
    assert _judged(monkeypatch, frame, dark_band=dark, wrong_on=wrong) == "unsure"


def test_both_bands_dark_stays_covered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both bands dark: covered, as on main (the rule asks one light band)."""
    assert _judged(monkeypatch, _calm(), dark_band=lambda grid: True) == "covered"


@pytest.mark.parametrize("dark", [_is_fitted, _is_zxing], ids=["fitted", "zxing"])
def test_one_band_dark_with_a_card_edge_beside_refuses(dark: Callable[[np.ndarray], bool],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A covering card's edge 3.4 modules beside the code, turned −7° (the quiet-zone sweep's
    card beside a code), the other band blinded to it: the line look refuses; without the
    line look the code would be whole."""
    frame = _calm((3.4, -7.0))
    assert _judged(monkeypatch, frame, dark_band=dark, blind=True) == "unsure"
    monkeypatch.setattr(table_codes, "card_edge_beside", lambda *args: False)
    assert _judged(monkeypatch, frame, dark_band=dark, blind=True) == "whole"


# The noisy path: the fitted grid's band dark, zxing-cpp's grid off and the agreed one whole.

def _noisy_judged(monkeypatch: pytest.MonkeyPatch, frame: np.ndarray, zxing: np.ndarray, *,
                  agreed_dark: bool = False, agreed_wrong: int = 0,
                  blind: bool = False) -> str:
    """``_noisy_verdict`` (tests/table/test_noisy_grids.py's harness): the fitted grid clean
    with its band dark, zxing-cpp's grid 5 modules off, the agreed grid ``agreed_wrong`` off
    and its band dark when ``agreed_dark``."""
    agreed = noisy_grids._agreed(zxing)

    def is_agreed(grid: np.ndarray) -> bool:
        return noisy_grids._same(grid, agreed) and not noisy_grids._same(grid, zxing)

    def wrong(grid: np.ndarray) -> int:
        return 5 if noisy_grids._same(grid, zxing) else agreed_wrong * int(is_agreed(grid))

    def dark(grid: np.ndarray) -> bool:
        fitted = noisy_grids._same(grid, noisy_grids._fitted())
        return fitted or (agreed_dark and is_agreed(grid))

    return noisy_grids._judged(monkeypatch, frame, zxing, dark_band=dark, wrong_on=wrong,
                               blind=blind)


@pytest.mark.parametrize("agreed_wrong", [0, 1])
def test_fitted_band_dark_agreed_grid_whole_is_whole(agreed_wrong: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Fresh 6203 ferry 5 and 6314 ferry 5 (binned or 90–100 cm, dim side light): the fitted
    grid clean, its band dark; zxing-cpp's fourth corner 0.6 module off, its grid 5 modules
    off; the agreed grid clean or one module off, its band light, no card's edge: whole.
    Without the rule: unsure, as on main."""
    frame, zxing = noisy_grids._frame(seed=0), noisy_grids._zxing(noisy_grids.FOURTH_OFF)
    assert _noisy_judged(monkeypatch, frame, zxing, agreed_wrong=agreed_wrong) == "whole"
    monkeypatch.setattr(table_codes, "NOISY_AGREED_BAND", False)
    assert _noisy_judged(monkeypatch, frame, zxing, agreed_wrong=agreed_wrong) == "unsure"


def test_fitted_band_dark_agreed_grid_short_stays_unsure(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """The agreed grid's band dark too, or two modules off there, or zxing-cpp's fourth corner
    only 0.2 module off (the agreed grid is then zxing-cpp's own): unsure."""
    frame, zxing = noisy_grids._frame(seed=1), noisy_grids._zxing(noisy_grids.FOURTH_OFF)
    assert _noisy_judged(monkeypatch, frame, zxing, agreed_dark=True) == "unsure"
    assert _noisy_judged(monkeypatch, frame, zxing, agreed_wrong=2) == "unsure"
    near = noisy_grids._zxing(0.6)
    assert _noisy_judged(monkeypatch, frame, near) == "unsure"


def test_fitted_band_dark_agreed_grid_with_a_card_edge_refuses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The card's edge 3.4 modules beside, −7°, the bands blinded but the fitted one's: the
    line look refuses; without it the code would be whole."""
    frame = noisy_grids._frame(card=(3.4, -7.0), seed=0)
    zxing = noisy_grids._zxing(noisy_grids.FOURTH_OFF)
    assert _noisy_judged(monkeypatch, frame, zxing, blind=True) == "unsure"
    monkeypatch.setattr(table_codes, "card_edge_beside", lambda *args: False)
    assert _noisy_judged(monkeypatch, frame, zxing, blind=True) == "whole"


# The noisy path: two scattered modules off on the fitted grid (NOISY_SLIPS 2).

def test_two_scattered_modules_off_on_the_fitted_grid_are_the_noise(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """tdim4's seeds 6101 ferry 3 and 6602 ferry 3 (90–100 cm, dim side light, head shadow,
    defocus; bare zxing-cpp reads them): two modules of 441 off on the fitted grid, apart, both
    bands light, no card's edge beside the code: whole. With one slip allowed (main): unsure."""
    frame = noisy_slip._turned(_frame(seed=0), noisy_slip.SPECK, noisy_slip.OTHER)
    assert noisy_slip._fitted_slips(frame) == 2
    assert noisy_slip._noisy_verdict(frame) == "whole"
    monkeypatch.setattr(table_codes, "NOISY_SLIPS", 1)
    assert noisy_slip._noisy_verdict(frame) == "unsure"


def test_three_scattered_modules_off_on_the_fitted_grid_stay_unsure() -> None:
    """Three modules off, apart: unsure."""
    frame = noisy_slip._turned(_frame(seed=0), noisy_slip.SPECK, noisy_slip.OTHER, (14, 8))
    assert noisy_slip._fitted_slips(frame) == 3
    assert noisy_slip._noisy_verdict(frame) == "unsure"
