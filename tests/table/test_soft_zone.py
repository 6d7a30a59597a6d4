"""A zone where no look decoded a code but a soft one may lie (issue 19 §3: far, blurred or dim
codes washed towards the paper) gets the reader's second looks; bare mat does not. The second
looks judge what they read like every other look, so the test decides only where to look."""

import functools
from dataclasses import replace

import numpy as np
import pytest

import vision.table_zones
from vision.table import TableReader
from vision.table_markers import mat_poses
from vision.table_render import CardOnMat, OverheadCamera, TableScene, render_table, row_layout
from vision.table_zones import zone_is_blank, zone_may_hold_a_code

CAMERA = OverheadCamera(width=1920, height=1080, hfov_deg=40.0)
SOFT, BARE = 2, 4  # two ferries with no card: one gets a washed-out pattern, one stays bare


@functools.cache
def soft_frame() -> np.ndarray:
    """Five mats in a row, a card on each but ferries 2 and 4; ferry 2's card zone overlaid
    with modules only a sixth as dark as ink, as a code washed by a weak highlight lies."""
    mats = tuple(replace(mat, cards=() if mat.ferry in (SOFT, BARE) else
                         (CardOnMat(f"NOAH1/BOX1/CAM{mat.ferry}"),))
                 for mat in row_layout(gap_mm=5))
    gray = render_table(TableScene(mats), CAMERA).frame.copy()
    zone = _zone(gray, SOFT)
    left, top = np.min(zone, axis=0).astype(int) + 20
    right, bottom = np.max(zone, axis=0).astype(int) - 20
    rng = np.random.default_rng(19)
    modules = rng.random(((bottom - top) // 4 + 1, (right - left) // 4 + 1)) < 0.5
    soft = np.kron(modules, np.ones((4, 4), bool))[: bottom - top, : right - left]
    patch = gray[top:bottom, left:right]
    patch[soft] = (patch[soft] * 0.8).astype(np.uint8)  # below SOFT_DARK, above DARK
    return gray


def _zone(gray: np.ndarray, ferry: int) -> np.ndarray:
    reader = TableReader()
    view = reader.read_ferries(gray, mat_poses(reader.find_markers(gray)), [ferry])[ferry]
    assert view.zone is not None
    return np.asarray(view.zone, np.float64)


def looked_closer(monkeypatch: pytest.MonkeyPatch, gray: np.ndarray) -> list[int]:
    """The ferries the reader gives a second look, in order (the looks themselves skipped)."""
    asked: list[int] = []

    def recording(self, gray, poses, ferry, codes):
        asked.append(ferry)
        return None

    monkeypatch.setattr(TableReader, "_look_closer", recording)
    reader = TableReader()
    reader.read_ferries(gray, mat_poses(reader.find_markers(gray)))
    return asked


def test_a_zone_darkened_as_a_washed_code_darkens_it_is_not_bare_mat_for_the_reader() -> None:
    gray = soft_frame()
    soft, bare = (tuple(map(tuple, _zone(gray, k))) for k in (SOFT, BARE))
    assert zone_is_blank(gray, soft) and zone_is_blank(gray, bare)  # the referee's test
    assert zone_may_hold_a_code(gray, soft) and not zone_may_hold_a_code(gray, bare)


def test_the_reader_looks_again_at_a_soft_zone_and_not_at_bare_mat(monkeypatch) -> None:
    asked = looked_closer(monkeypatch, soft_frame())
    assert SOFT in asked and BARE not in asked


def test_without_the_soft_test_the_soft_zone_is_taken_for_bare_mat(monkeypatch) -> None:
    monkeypatch.setattr(vision.table_zones, "MAX_SOFT_DARK", 1.0)
    asked = looked_closer(monkeypatch, soft_frame())
    assert SOFT not in asked and BARE not in asked
