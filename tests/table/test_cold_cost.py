"""A cold frame cheaper (issue 19, branch tcost): each faster piece gives the very values of
the code it replaced, so no verdict, pose or reading can change."""
from __future__ import annotations

import numpy as np
import pytest

from vision.table_glare import LOCAL_WINDOW, _window_median


def _nanmedian_windows(means: np.ndarray, which: np.ndarray) -> np.ndarray:
    """The glare rule's window medians as first written, with ``np.nanmedian``."""
    r = LOCAL_WINDOW
    padded = np.pad(np.where(which, means, np.nan), r, constant_values=np.nan)
    windows = np.lib.stride_tricks.sliding_window_view(padded, (2 * r + 1, 2 * r + 1))
    flat = windows.reshape(*means.shape, -1)
    result = np.full(means.shape, np.nan, np.float32)
    has = ~np.isnan(flat).all(axis=-1)
    result[has] = np.nanmedian(flat[has], axis=-1)
    return result


@pytest.mark.parametrize("seed", range(8))
def test_window_median_is_nanmedian_to_the_bit(seed: int) -> None:
    """Random module means (integers, fractions, many ties) and masks from empty to full:
    the sorted windows' medians equal ``np.nanmedian``'s in every bit, NaN where a window has
    no module of the kind."""
    rng = np.random.default_rng(seed)
    for n in (21, 25, 29):
        means = (rng.random((n, n)) * 255).astype(np.float32)
        if seed % 2:
            means = np.round(means / 40) * 40  # ties: the two middle values equal
        for share in (0.0, 0.05, 0.5, 0.95, 1.0):
            which = rng.random((n, n)) < share
            fast, slow = _window_median(means, which), _nanmedian_windows(means, which)
            assert fast.dtype == slow.dtype == np.float32
            assert np.array_equal(fast.view(np.uint32), slow.view(np.uint32))
