"""A play's own work cut, its answers the same (issue 19 §4: a one-ferry play's cost): the
shapes far from a change (a mat's marker squares, the ferries' zones) are settled by their
bounds against the changed pixels' bounding box (:func:`vision.table_motion.may_touch`), and
:func:`~vision.table_motion.occluded_ferries` is asked about the others only. Checked to
give its very answers on random masks and quadrilaterals, in and out of the frame."""

import random

import numpy as np

from vision.table_kit import FERRIES, marker_ids
from vision.table_markers import MatPose
from vision.table_motion import (
    changed_extent,
    changed_rect,
    may_touch,
    occluded_ferries,
    quad_bounds,
)
from vision.table_tracker import ZONE_KEY, _markers_changed, _MatShapes, _touched

SIZE = (1280, 720)  # frame pixels: a thumbnail pixel is 8 of them
SHAPE = (90, 160)


def random_mask(rng: random.Random) -> np.ndarray:
    changed = np.zeros(SHAPE, bool)
    for _ in range(rng.randint(1, 3)):  # a play's blob or two, a speck
        x, y = rng.randrange(SHAPE[1]), rng.randrange(SHAPE[0])
        changed[y:y + rng.randint(1, 30), x:x + rng.randint(1, 40)] = True
    return changed


def random_quad(rng: random.Random) -> tuple[tuple[float, float], ...]:
    x, y = rng.uniform(-200, SIZE[0] + 100), rng.uniform(-200, SIZE[1] + 100)
    w, h, skew = rng.uniform(0.5, 300), rng.uniform(0.5, 300), rng.uniform(-30, 30)
    return ((x, y), (x + w, y + skew), (x + w - skew, y + h), (x - skew, y + h - skew))


def test_settled_shapes_change_nothing_in_occluded_ferries():
    rng = random.Random(19)
    for _ in range(400):
        changed = random_mask(rng)
        rect = changed_rect(changed)
        assert rect is not None
        quads = {k: random_quad(rng) for k in range(6)}
        bounds = {k: quad_bounds(quad) for k, quad in quads.items()}
        for fraction in (0.0, 0.002, 0.3):
            near = _touched(quads, bounds, changed, rect, SIZE)
            assert occluded_ferries(changed, near, SIZE, fraction) == occluded_ferries(
                changed, quads, SIZE, fraction)
        for k, quad in quads.items():  # a quad settled has no changed pixel at all
            if not may_touch(bounds[k], rect, SHAPE, SIZE):
                assert not occluded_ferries(changed, {k: quad}, SIZE, 0.0)


def test_changed_rect_holds_every_changed_pixel_and_extent_is_unchanged():
    rng = random.Random(5)
    for _ in range(100):
        changed = random_mask(rng)
        left, top, right, bottom = changed_rect(changed)
        ys, xs = np.nonzero(changed)
        assert (left, top, right, bottom) == (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)
        assert changed_extent(changed, SIZE) == changed_extent(changed, SIZE, rect=(
            left, top, right, bottom))
    assert changed_rect(np.zeros(SHAPE, bool)) is None
    assert changed_extent(np.zeros(SHAPE, bool), SIZE) is None


def test_every_mats_shapes_have_their_own_bounds():
    """Mat 1's markers include id 0: the zone's bounds are kept under their own key, so a
    play on mat 1 still decodes it (a zone filed under a marker's id would be settled by that
    marker's square, and the new top card never read)."""
    for k in FERRIES:
        pose = MatPose(k, np.array([[2.0, 0, 150 * k], [0, 2.0, 40], [0, 0, 1]]), 2.0)
        shapes = _MatShapes.of(pose, {})
        assert ZONE_KEY not in marker_ids(k)
        assert shapes.bounds[ZONE_KEY] == quad_bounds(shapes.zone)
        assert {i: shapes.bounds[i] for i in shapes.squares} == {
            i: quad_bounds(quad) for i, quad in shapes.squares.items()}


def test_a_mats_markers_changed_as_before():
    rng = random.Random(7)
    pose = MatPose(1, np.array([[2.0, 0, 300], [0, 2.0, 200], [0, 0, 1]]), 2.0)
    shapes = _MatShapes.of(pose, {})
    answers = set()
    for _ in range(300):
        changed = random_mask(rng)
        before = bool(occluded_ferries(changed, shapes.squares, SIZE, 0.0))
        assert _markers_changed(shapes, changed, changed_rect(changed), SIZE) is before
        answers.add(before)
    assert answers == {True, False}  # both answers were met
    assert _markers_changed(shapes, None, None, SIZE) is True
