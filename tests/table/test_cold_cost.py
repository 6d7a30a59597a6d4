"""A cold frame cheaper (issue 19, branch tcost): each faster piece gives the very values of
the code it replaced, so no verdict, pose or reading can change."""
from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

import vision.table_markers
from vision.table_glare import LOCAL_WINDOW, _window_median
from vision.table_kit import NOAH_MARKER, Box
from vision.table_markers import (
    detect_markers,
    search_scale,
    unique_markers,
    whole_frame_markers,
)
from vision.table_render import OverheadCamera, TableScene, render_table, row_layout

CAMERA = OverheadCamera(width=1280, height=720, hfov_deg=40.0)


def _nanmedian_windows(means: np.ndarray, which: np.ndarray) -> np.ndarray:
    """The glare rule's window medians as first written, with ``np.nanmedian``."""
    r = LOCAL_WINDOW
    padded = np.pad(np.where(which, means, np.nan), r, constant_values=np.nan)
    windows = np.lib.stride_tricks.sliding_window_view(padded, (2 * r + 1, 2 * r + 1))
    flat = windows.reshape(*means.shape, -1)
    result = np.full(means.shape, np.nan, np.float32)
    has = ~np.isnan(flat).all(axis=-1)
    result[has] = np.nanmedian(flat[has], axis=-1).astype(np.float32)  # float32 already
    return result


@pytest.mark.parametrize("seed", range(4))
def test_window_median_is_nanmedian_to_the_bit(seed: int) -> None:
    """Random module means (integers, fractions, many ties) and masks from empty to full:
    the sorted windows' medians equal ``np.nanmedian``'s in every bit, NaN where a window has
    no module of the kind."""
    rng = np.random.default_rng(seed)
    for n in (21, 25, 29):
        means = (rng.random((n, n)) * 255).astype(np.float32)
        if seed % 2:
            means = (np.round(means / 40) * 40).astype(np.float32)  # ties: equal middles
        for share in (0.0, 0.05, 0.5, 0.95, 1.0):
            which = rng.random((n, n)) < share
            fast, slow = _window_median(means, which), _nanmedian_windows(means, which)
            assert fast.dtype == slow.dtype == np.float32
            assert np.array_equal(fast.view(np.uint32), slow.view(np.uint32))


@functools.cache
def _kit_frame(noah: bool) -> np.ndarray:
    """The five mats in a row, and Noah beside ferry 3 (or not on the table)."""
    mats = row_layout(gap_mm=5)
    spot = (mats[2].x_mm, mats[2].y_mm + 100.0) if noah else None
    return render_table(TableScene(mats, noah=spot), CAMERA).frame


def _searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The thresholding windows of each marker search from now on: "3 px", "23 px" or "both"."""
    calls: list[str] = []
    real = vision.table_markers.detect_markers

    def counting(gray: np.ndarray, box: Box, scale: float, *, quick: bool = False,
                 wide: bool = False, **more: Any) -> Any:  # more: the copy made once (tmark)
        calls.append("3 px" if quick else "23 px" if wide else "both")
        return real(gray, box, scale, quick=quick, wide=wide, **more)

    monkeypatch.setattr(vision.table_markers, "detect_markers", counting)
    return calls


def test_a_whole_kit_is_found_by_the_quick_search_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every mat and Noah show a marker in the one-window search: no second search, and the
    same markers as the two-window search finds."""
    gray = _kit_frame(noah=True)
    scale = search_scale(gray.shape[1])
    both = {m.id for m in detect_markers(gray, (0, 0, gray.shape[1], gray.shape[0]), scale)[0]}
    searches = _searches(monkeypatch)
    markers, _ = whole_frame_markers(gray, scale)
    assert searches == ["3 px"]
    assert {m.id for m in markers} == both == set(range(NOAH_MARKER + 1))


def test_a_missing_marker_brings_the_second_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Noah not on the table (or a mat with no marker in sight): the quick search cannot say
    that nothing more is there, so the 23 px window searches too, unless the caller knows
    Noah; each marker comes out once, as from one search with both windows."""
    gray = _kit_frame(noah=False)
    scale = search_scale(gray.shape[1])
    both = detect_markers(gray, (0, 0, gray.shape[1], gray.shape[0]), scale)[0]
    searches = _searches(monkeypatch)
    markers, _ = whole_frame_markers(gray, scale)
    assert searches == ["3 px", "23 px"]
    assert sorted(m.id for m in unique_markers(markers)) == sorted(m.id for m in both)
    assert NOAH_MARKER not in {m.id for m in markers}
    searches.clear()
    whole_frame_markers(gray, scale, known=[NOAH_MARKER])
    assert searches == ["3 px"]
