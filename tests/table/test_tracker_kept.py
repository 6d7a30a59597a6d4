"""What the tracker works out once and keeps while nothing it depends on changed (issue 19 §4:
a one-ferry play's cost): a kept mat's search zone and marker squares, and Noah's ferry while
his marker and every mat's pose are the same. Kept only for the same objects, so a play's
reading is the one worked out afresh (TABLE-KIT.md: Noah never at a wrong ferry)."""

from dataclasses import replace

import numpy as np

import vision.table_tracker as tracking
from tests.table.test_tracking import frame, scene
from vision.table_kit import FERRIES, NOAH_MARKER
from vision.table_markers import Marker, MatPose, noah_ferry
from vision.table_render import CardOnMat
from vision.table_tracker import TableTracker, _MatShapes, _Memory, _noah_ferry

POSES = {k: MatPose(k, np.array([[1.0, 0, 110 * k], [0, 1, 0], [0, 0, 1]]), 1.0)
         for k in FERRIES}


def noah_at(x: float, y: float) -> Marker:
    square = np.array([(x - 5, y - 5), (x + 5, y - 5), (x + 5, y + 5), (x - 5, y + 5)],
                      np.float32)
    return Marker(NOAH_MARKER, square)


def memory(noah: Marker | None, poses: dict[int, MatPose]) -> _Memory:
    shapes = {k: _MatShapes.of(pose, {}) for k, pose in poses.items()}
    return _Memory(np.zeros((9, 16), np.uint8), dict(poses), {}, noah, shapes,
                   noah_ferry(None if noah is None else noah.centre, poses))


def test_a_kept_pose_keeps_its_shapes_a_new_pose_gets_its_own():
    known = {k: _MatShapes.of(pose, {}) for k, pose in POSES.items()}
    assert _MatShapes.of(POSES[3], known) is known[3]
    pushed = replace(POSES[3], matrix=np.array([[1.0, 0, 336], [0, 1, 0], [0, 0, 1]]))
    fresh = _MatShapes.of(pushed, known)
    assert fresh is not known[3] and fresh.zone == _MatShapes.of(pushed, {}).zone
    assert fresh.zone[0][0] == known[3].zone[0][0] + 6  # worked out for the pushed mat


def test_noahs_ferry_is_kept_only_for_the_same_marker_and_poses():
    """TABLE-KIT.md: Noah at the nearest mat, never a wrong one. The kept
    answer is used only when nothing it depends on is another object; otherwise worked out."""
    noah = noah_at(385.0, 180.0)
    before = memory(noah, POSES)
    assert before.noah_ferry == 3
    before.noah_ferry = -1  # a marker: shows whether the kept answer was used
    assert _noah_ferry(noah, dict(POSES), before) == -1
    assert _noah_ferry(noah_at(385.0, 180.0), dict(POSES), before) == 3  # found again
    moved = {**POSES, 3: replace(POSES[3], matrix=np.array(
        [[1.0, 0, 2000], [0, 1, 0], [0, 0, 1]]))}  # mat 3 carried away: 2 and 4 as near
    assert _noah_ferry(noah, moved, before) is noah_ferry(noah.centre, moved) is None
    assert _noah_ferry(noah, {k: p for k, p in POSES.items() if k != 5}, before) is None
    assert _noah_ferry(None, dict(POSES), before) is None


def test_a_play_reuses_the_kept_mats_shapes_and_noahs_ferry(monkeypatch):
    """A card laid on ferry 2 (no marker touched): every mat kept, their shapes the same
    objects, Noah's ferry not worked out again, and the reading still says 4."""
    tracker = TableTracker()
    assert tracker.read(frame(scene())).noah == 4
    kept = tracker._memory.shapes if tracker._memory else {}
    calls = []
    monkeypatch.setattr(tracking, "noah_ferry", lambda *a: calls.append(a))
    played = tracker.read(frame(scene(extra={2: (CardOnMat("NOAH1/BOX1/GIF2"),)})))
    assert tracker._memory is not None and tracker._memory.shapes == kept
    assert all(tracker._memory.shapes[k] is kept[k] for k in kept) and calls == []
    assert played.noah == 4 and played.ferries[2].top == "NOAH1/BOX1/GIF2"
