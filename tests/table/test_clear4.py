"""A code whose modules are whole on zxing-cpp's grid while its band is dark there and on the
fitted grid, judged on the agreed grid and by the line look (issue 19, branch tclear: binned top
cards in dim side light and head shadow, 2.2–2.3 px a module, that bare zxing-cpp reads; the
two bands 0.6–1.6 module² dark, the agreed one light)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tests.table import test_one_band as one_band
from tests.table.test_lines import _corners, _frame, _modules
from vision import table_codes

FOURTH_OFF = 0.35  # modules: the fitted grid's fourth corner, away from zxing-cpp's estimate
PX = 3.0  # frame pixels a module (tests/table/test_lines.py's default)


FINDER_NUDGE = 0.05  # pixels: the fitted grid's finder corners, told apart from zxing-cpp's


def _fitted(off: float = FOURTH_OFF) -> np.ndarray:
    """The fitted grid: zxing-cpp's finder corners nudged, its fourth corner ``off`` modules
    in (the agreed grid: zxing-cpp's finder corners and this fourth one)."""
    fitted = _corners() + FINDER_NUDGE
    fitted[2] = _corners()[2] - off * PX / np.sqrt(2)
    return fitted


def _is(grid: np.ndarray, corners: np.ndarray) -> bool:
    return bool(np.allclose(grid, corners, atol=1e-3))


def _is_agreed(grid: np.ndarray) -> bool:
    return _is(grid, table_codes.agreed_corners(_corners(), _fitted(), 21))


_SAMPLE = table_codes.sample_modules


def _judged(monkeypatch: pytest.MonkeyPatch, frame: np.ndarray, *,
            light: Callable[[np.ndarray], bool] = _is_agreed,
            wrong_on: Callable[[np.ndarray], bool] = lambda grid: False,
            fitted: np.ndarray | None = None, blind: bool = False) -> str:
    """``_verdict`` of a code that is not too noisy (tests/table/test_one_band.py's harness),
    the fit's answer fixed (:func:`_fitted`), the band light only on the grids ``light`` names
    (as they really are, or light whatever lies there when ``blind``: as if the band missed a
    card's edge), and one module of the code's middle turned on the grids ``wrong_on``
    names."""
    fit = _fitted() if fitted is None else fitted
    monkeypatch.setattr(one_band, "_fitted", lambda: fit)
    return one_band._judged(monkeypatch, frame, dark_band=lambda grid: not light(grid),
                            wrong_on=wrong_on, blind=blind)


def _calm(card: tuple[float, float] | None = None) -> np.ndarray:
    """A bright sticker under little noise (the quiet-zone path, not the noisy one)."""
    return _frame(light=1.0, noise=1.0, seed=3, card=card)


def test_the_grids_as_built() -> None:
    """The harness's grids: the fourth corner 0.35 module off (over ``GRIDS_AGREE``), so the
    agreed grid is neither zxing-cpp's nor the fitted one, and every grid shows the code whole
    on the calm frame."""
    frame = _calm()
    agreed = table_codes.agreed_corners(_corners(), _fitted(), 21)
    assert not _is(agreed, _corners()) and not _is(agreed, _fitted())
    for grid in (_corners(), _fitted(), agreed):
        assert not (_SAMPLE(frame, grid, 21) != _modules()).any()


def test_agreed_band_light_where_both_others_are_dark_is_whole(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """tdim5's seed 9163 ferry 4 and ttopcard2's 31421 ferry 2: zxing-cpp's band and the fitted
    one dark, the agreed grid's light, no module off, no card's edge for the line look: whole.
    Without the rule: covered, as on main."""
    frame = _calm()
    assert _judged(monkeypatch, frame) == "whole"
    monkeypatch.setattr(table_codes, "AGREED_BAND_ALONE", False)
    assert _judged(monkeypatch, frame) == "covered"


def test_every_band_dark_stays_covered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The agreed band dark too: covered (the rule asks one light band)."""
    assert _judged(monkeypatch, _calm(), light=lambda grid: False) == "covered"


@pytest.mark.parametrize("on", ["fitted", "agreed"])
def test_a_module_off_stays_covered(on: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """One module off on the fitted grid or on the agreed one: covered."""
    wrong = (lambda grid: _is(grid, _fitted())) if on == "fitted" else _is_agreed
    assert _judged(monkeypatch, _calm(), wrong_on=wrong) == "covered"


def test_the_fourth_corner_where_zxing_put_it_stays_covered(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The fitted fourth corner only 0.2 module from zxing-cpp's (under ``GRIDS_AGREE``): the
    agreed grid is zxing-cpp's own, whose band is dark, so the rule does not apply, even were
    a grid with the fitted fourth corner light: covered."""
    near = _fitted(0.2)
    assert _is(table_codes.agreed_corners(_corners(), near, 21), _corners())
    between = _corners().copy()
    between[2] = near[2]
    assert _judged(monkeypatch, _calm(), fitted=near,
                   light=lambda grid: _is(grid, between)) == "covered"


def test_a_card_edge_beside_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    """A covering card's edge 3.4 modules beside the code, turned −7° (the quiet-zone sweep's
    card beside a code), the agreed band blinded to it: the line look refuses (covered);
    without the line look the code would be whole."""
    frame = _calm((3.4, -7.0))
    assert _judged(monkeypatch, frame, blind=True) == "covered"
    monkeypatch.setattr(table_codes, "card_edge_beside", lambda *args: False)
    assert _judged(monkeypatch, frame, blind=True) == "whole"
