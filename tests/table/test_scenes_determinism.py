"""The scenes renderer is deterministic: a seed's frame is the same whatever was rendered
before it in the process (issue 19 §6: a held-out figure is reproducible only if its frames are).

``bench table --renderer scenes`` renders, for each seed, the frame, a second frame of the same
table after a play (fresh noise) and, for the short look, a third at a shorter exposure; the
frame of a seed must be the one it is rendered alone (docs/benchmarks.md, branch ``tdet``).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision import table_scenes_render
from vision.table_exposure import ShortExposure
from vision.table_scenes import Scene, scene_for_seed
from vision.table_scenes_render import render_scene

TEXTS = [f"NOAH1/BOX1/{s}{g}{c}" for s in ("CA", "LI", "EL", "GI", "BE") for g in "MF"
         for c in (1, 2)]
SCALE = 0.1  # tiny frames (461 × 259): quick, and every table still has its board and cards
CAMERA = scene_for_seed(1012, TEXTS).camera


def _table(seed: int) -> Scene:
    """A DEV seed's table, small and quick: its top cards only, a small board, no highlight,
    and the camera at one height and tilt for every seed, so that the element images of all
    the tables are filtered at one scale (as one seed's three renders are in the bench) and
    meet in the filtered images' cache."""
    scene = scene_for_seed(seed, TEXTS)
    assert scene.board is not None
    x, y, _, turn = scene.board
    return replace(scene, camera=replace(scene.camera, height=CAMERA.height, tilt=CAMERA.tilt),
                   highlights=(), board=(x, y, 80.0, turn),
                   ferries=tuple(replace(f, cards=f.cards[-1:]) for f in scene.ferries))


def _as_the_bench_renders(seed: int) -> list[np.ndarray]:
    """The three frames ``bench table`` renders of one table: the frame, the table after a
    play (a new card, fresh noise) and the short look's (shorter exposure, fresh noise)."""
    scene = _table(seed)
    return [render_scene(scene, SCALE).frame,
            render_scene(scene.played(3, TEXTS[seed % len(TEXTS)], seed), SCALE,
                         noise_seed=seed + 1).frame,
            render_scene(scene, SCALE, noise_seed=seed + 2,
                         exposure=ShortExposure().fraction).frame]


def test_a_frame_is_the_same_after_other_tables_and_their_plays_and_short_looks() -> None:
    """Two tables rendered as the bench renders them, then both again: every frame is bit for
    bit the one rendered first (on main before branch ``tdet``, 2 to 6 of the 6 frames were
    not: a board or a new card took the ``id`` of an element image gone, and was drawn with
    that image's pixels)."""
    seeds = (1004, 1005)
    first = [frame for seed in seeds for frame in _as_the_bench_renders(seed)]
    again = [frame for seed in seeds for frame in _as_the_bench_renders(seed)]
    assert [np.array_equal(a, b) for a, b in zip(first, again, strict=True)] == [True] * 6


def test_an_element_image_is_never_filtered_as_one_gone_before_it() -> None:
    """An element image made after another one was freed may get its ``id`` (CPython reuses
    the address at once): its filtered image is its own, not the cache's entry for the other."""
    dark = np.full((40, 30), 0.2, np.float32)
    table_scenes_render._filtered(dark, 4.0)
    gone = id(dark)
    del dark
    kept = []  # arrays that did not take the freed id stay alive, so the next one may
    for _ in range(1000):
        light = np.full((40, 30), 0.8, np.float32)
        if id(light) == gone:
            break
        kept.append(light)
    else:
        pytest.skip("this Python never gave a new array the freed id")
    filtered, px_per_mm = table_scenes_render._filtered(light, 4.0)
    assert px_per_mm == 10.0
    assert filtered.shape == light.shape
    assert np.allclose(filtered, 0.8)
