"""The marker search cheaper (issue 19, branch tmark): a box searched follows only outlines a
marker could make, a whole frame searched with both windows in turn is shrunk once, and a
marker's sides are worked out as an array — each gives the very markers (corners to the bit) of
the code it replaced; and a small marker looked at again is found where it lies."""
from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

import vision.table_markers
from vision.table_kit import NOAH_MARKER, Box, marker_cells
from vision.table_markers import (
    Marker,
    _look_again_scale,
    _other_squares,
    detect_markers,
    search_scale,
    whole_frame_markers,
)
from vision.table_render import OverheadCamera, TableScene, render_table, row_layout

CAMERA = OverheadCamera(width=1280, height=720, hfov_deg=40.0)


@functools.cache
def _table(noah: bool) -> np.ndarray:
    """The five mats in a row (Noah beside ferry 3, or not on the table), with sensor noise:
    its specks are the outlines a box's search used to follow."""
    mats = row_layout(gap_mm=5)
    spot = (mats[2].x_mm, mats[2].y_mm + 100.0) if noah else None
    frame = render_table(TableScene(mats, noah=spot), CAMERA).frame.astype(np.float32)
    noise = np.random.default_rng(19).normal(0.0, 6.0, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def _bits(markers: list[Marker]) -> list[tuple[int, bytes]]:
    return [(m.id, np.asarray(m.corners, np.float32).tobytes()) for m in markers]


def test_a_small_marker_looked_at_again_is_found_where_it_lies() -> None:
    """A marker under 40 px (a binned frame's) is looked at again on a copy enlarged 2×; its
    corners come back in the frame's pixels. (The copy by halvings once left such a place at
    its own size and halved its corners: the marker then lay 0.8 of a side off.)"""
    cells = np.kron(marker_cells(4), np.ones((5, 5)))  # 6 cells of 5 px: a 30 px marker
    gray = np.pad(np.where(cells > 0, 25, 225), 60, constant_values=225).astype(np.uint8)
    assert _look_again_scale(30.0) == 2.0
    markers, _ = detect_markers(gray, (10, 10, 140, 140), 2.0)
    assert [m.id for m in markers] == [4]
    drawn = np.array([(60, 60), (90, 60), (90, 90), (60, 90)], np.float32)
    assert np.abs(markers[0].corners - drawn).max() < 1.5


def _boxes(gray: np.ndarray) -> list[Box]:
    """Boxes a play searches: round each marker (a push's room), and a wide change."""
    markers, _ = detect_markers(gray, (0, 0, gray.shape[1], gray.shape[0]), 1.0)
    boxes = []
    for marker in markers:
        (x, y), half = marker.centre, 2 * marker.side_px
        boxes.append((max(0, int(x - half)), max(0, int(y - half)),
                      min(gray.shape[1], int(x + half)), min(gray.shape[0], int(y + half))))
    return [*boxes, (0, 0, gray.shape[1] // 3, gray.shape[0])]


def test_a_box_follows_only_outlines_a_marker_could_make() -> None:
    """A box's search with the whole frame's floor finds the very markers (corners to the bit)
    that ArUco's floor for the box's own size found, and follows fewer outlines: the specks
    of sensor noise are not candidates any more."""
    gray = _table(noah=True)
    fewer = 0
    for box in _boxes(gray):
        side = max(box[2] - box[0], box[3] - box[1])
        markers, candidates = detect_markers(gray, box, 1.0)
        old_markers, old_candidates = detect_markers(gray, box, 1.0, shortest=0.04 * side)
        assert _bits(markers) == _bits(old_markers)
        assert len(candidates) <= len(old_candidates)
        fewer += len(candidates) < len(old_candidates)
    assert fewer >= 1


def test_a_look_again_box_keeps_a_marker_of_the_size_looked_for() -> None:
    """The look again's floor (half the side looked for) keeps a marker of that side."""
    cells = np.kron(marker_cells(7), np.ones((8, 8)))  # a 48 px marker
    gray = np.pad(np.where(cells > 0, 25, 225), 60, constant_values=225).astype(np.uint8)
    shortest = 4 * vision.table_markers.LOOK_AGAIN_LEAST_SIDE * 48
    markers, _ = detect_markers(gray, (0, 0, 168, 168), 1.0, shortest=shortest)
    assert [m.id for m in markers] == [7]
    assert detect_markers(gray, (0, 0, 168, 168), 1.0, shortest=4 * 60.0)[0] == []


def test_the_whole_frame_is_shrunk_once_for_both_windows(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """Noah not on the table: both windows search the whole frame, on one copy, and find what
    two searches, each on its own copy, found."""
    gray = _table(noah=False)
    scale = search_scale(gray.shape[1])
    box = (0, 0, gray.shape[1], gray.shape[0])
    quick, quick_rejected = detect_markers(gray, box, scale, quick=True)
    wide, _ = detect_markers(gray, box, scale, wide=True)
    shrinks: list[tuple[int, ...]] = []
    real = vision.table_markers.shrunk

    def counting(image: np.ndarray, factor: float) -> Any:
        shrinks.append(image.shape)
        return real(image, factor)

    monkeypatch.setattr(vision.table_markers, "shrunk", counting)
    markers, candidates = whole_frame_markers(gray, scale)
    assert shrinks == [gray.shape]
    assert NOAH_MARKER not in {m.id for m in markers}
    assert _bits(markers) == _bits(quick + wide)
    assert [c.tobytes() for c in candidates[:len(quick_rejected)]] == [
        c.tobytes() for c in quick_rejected]


def _side_as_first_written(corners: np.ndarray) -> float:
    return float(np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 4])
                          for i in range(4)]))


def _other_squares_as_first_written(squares: list[np.ndarray], seen: list[np.ndarray]
                                    ) -> list[np.ndarray]:
    if not seen:
        return list(squares)
    centres = np.array([s.mean(axis=0) for s in seen])
    kept = []
    for square in squares:
        side = float(np.linalg.norm(square[1] - square[0]))
        if float(np.linalg.norm(centres - square.mean(axis=0), axis=1).min()) >= side / 4:
            kept.append(square)
    return kept


@pytest.mark.parametrize("seed", range(3))
def test_sides_and_squares_as_arrays_give_the_same_bits(seed: int) -> None:
    """A marker's side and centre and the squares both windows found, worked out as arrays,
    equal the first code's values in every bit for float32 corners (every marker's: ArUco's,
    refined, predicted), whole and quarter pixels and any float."""
    rng = np.random.default_rng(seed)
    for _ in range(300):
        corners = rng.uniform(0, 4608, (4, 2)).astype(np.float32)
        if rng.random() < 0.5:
            corners = (np.round(corners * 4) / 4).astype(np.float32)
        marker = Marker(1, corners)
        assert marker.side_px == _side_as_first_written(corners)
        assert marker.centre == tuple(float(v) for v in corners.mean(axis=0))
    for _ in range(40):
        centres = rng.uniform(0, 1000, (30, 2))
        squares = [(c + rng.uniform(-30, 30, (4, 2))).astype(np.float32) for c in centres[:15]]
        seen = [(c + rng.uniform(-30, 30, (4, 2))).astype(np.float32) for c in centres[15:]]
        seen += [(s + rng.uniform(-4, 4, (4, 2))).astype(np.float32) for s in squares[:6]]
        kept = _other_squares(squares, seen)
        assert [id(s) for s in kept] == [
            id(s) for s in _other_squares_as_first_written(squares, seen)]
