"""The second table renderer (vision.table_scenes, issue 19.6): deterministic per seed, its ground
truth consistent with the frame it draws, and the varied-table benchmark's report."""

import functools
import json
import math
from dataclasses import replace

import numpy as np
import pytest

from vision.table import FerryView, TableReading
from vision.table_kit import FERRIES
from vision.table_markers import find_markers
from vision.table_scenes import (
    HELDOUT_SEEDS,
    SCENE_SETS,
    Card,
    Highlight,
    Scene,
    Solid,
    scene_for_seed,
    scene_set,
)
from vision.table_scenes_bench import measure, score, summarise, text
from vision.table_scenes_render import render_scene
from vision.table_scenes_truth import FerryTruth, SceneTruth

TEXTS = [f"NOAH1/BOX1/{s}{g}{c}" for s in ("CA", "LI", "EL", "GI", "BE") for g in "MF"
         for c in (1, 2)]
SCALE = 0.3  # a 1382 × 778 sensor, same field: quick, markers still found


@functools.cache
def plain_scene() -> Scene:
    """A scene with nothing over the mats or codes and a clean, sharp camera: every mat's
    markers and every top code show (checked below), so changes made by a test are its own."""
    scene = scene_for_seed(1012, TEXTS)
    camera = replace(scene.camera, tilt=8.0, height=720.0, motion=0.0, defocus=0.4, jpeg=0,
                     binned=False, gain=1.0)
    return replace(scene, camera=camera, hands=(), solids=(), loose=(), shadows=(),
                   highlights=())


@functools.cache
def plain_shot():
    return render_scene(plain_scene(), SCALE)


def test_a_seed_always_gives_the_same_scene_and_frame() -> None:
    assert scene_for_seed(1001, TEXTS) == scene_for_seed(1001, TEXTS)
    assert scene_for_seed(1001, TEXTS) != scene_for_seed(1002, TEXTS)
    one, two = plain_shot(), render_scene(plain_scene(), SCALE)
    assert np.array_equal(one.frame, two.frame)
    assert one.truth.ferries == two.truth.ferries
    fresh = render_scene(plain_scene(), SCALE, noise_seed=7)  # the same table, fresh noise
    assert not np.array_equal(one.frame, fresh.frame)
    assert fresh.truth.ferries == one.truth.ferries


def test_the_held_out_sets_are_apart_from_each_other_and_from_the_development_set() -> None:
    assert scene_set("heldout") == HELDOUT_SEEDS
    names = list(SCENE_SETS)
    assert names[0] == "dev" and len(names) == 18
    for i, name in enumerate(names):
        for other in names[:i]:
            assert not set(scene_set(name)) & set(scene_set(other)), (name, other)
    with pytest.raises(ValueError, match="dev, heldout, heldout2, heldout3, heldout4, heldout5, "
                                         "heldout6, heldout7, heldout8, heldout9, heldout10, "
                                         "heldout11, heldout12, heldout13, heldout14, heldout15, "
                                         "heldout16, heldout17"):
        scene_set("test")


def test_every_scene_names_one_camera_condition_and_two_or_three_more() -> None:
    for seed in range(1000, 1040):
        conditions = scene_for_seed(seed, TEXTS).conditions
        assert 3 <= len(conditions) <= 5  # "dim side light" may bring its head shadow


def test_the_truth_places_markers_where_aruco_finds_them() -> None:
    """Ten markers, two per mat, all visible in the plain scene; the projected corners (through
    the tilted, distorted lens) match ArUco's to within 1.5 pixels (1 mm here)."""
    shot = plain_shot()
    assert all(shot.truth.ferries[k].markers == 2 for k in FERRIES)
    found = {m.id: m.corners for m in find_markers(shot.frame, max_width=10_000)}
    assert set(shot.truth.markers) == set(range(10))
    for marker, corners in shot.truth.markers.items():
        assert marker in found
        assert np.abs(found[marker] - corners).max() < 1.5


def test_a_code_under_a_phone_is_not_visible_and_its_mat_still_is() -> None:
    scene = plain_scene()
    ferry = next(f for f in scene.ferries if f.top is not None and f.top.text is not None)
    assert plain_shot().truth.ferries[ferry.ferry].top_visible
    card = ferry.top
    assert card is not None
    x, y = np.mean(card.code_corners(), axis=0)
    phone = Solid("phone", float(x), float(y) + 60, 72, 150, 8, angle=card.angle)
    truth = render_scene(replace(scene, solids=(phone,)), SCALE).truth.ferries[ferry.ferry]
    assert not truth.top_visible
    assert truth.top == card.text


def test_a_foreign_code_counts_only_when_it_shows() -> None:
    scene = plain_scene()
    across = math.radians(scene.camera.turn - 90)  # the frame's y axis: away from the mats' arc
    x, y = (scene.camera.target[0] + 200 * math.cos(across),
            scene.camera.target[1] + 200 * math.sin(across))
    inside = Card("https://example.com/menu?table=7", x, y, 20.0, z=1.0, ours=False)
    outside = replace(inside, text="http://qr.ly/ZOO7", x=5000.0)  # far out of the frame
    truth = render_scene(replace(scene, loose=(inside, outside)), SCALE).truth
    assert truth.foreign == (inside.text,)


def test_a_mat_with_both_markers_covered_is_not_locatable_and_noah_beside_it_is_not_counted(
        ) -> None:
    scene = plain_scene()
    ferry = scene.ferries[0]
    dice = tuple(Solid("die", x, y, 26, 26, 26) for x, y in ferry.marker_centres())
    noah = ferry.to_table(50, -30)  # just past its bottom edge
    truth = render_scene(replace(scene, solids=dice, noah=noah), SCALE).truth
    assert truth.ferries[ferry.ferry].markers == 0
    assert not truth.ferries[ferry.ferry].locatable
    assert truth.noah == ferry.ferry and truth.noah_visible and not truth.noah_mat_visible


def test_a_saturating_reflection_over_a_code_is_strong_and_a_faint_one_is_not() -> None:
    scene = plain_scene()
    index, ferry = next((i, f) for i, f in enumerate(scene.ferries)
                        if f.top is not None and f.top.text is not None)
    card = ferry.top
    assert card is not None
    sleeved = replace(ferry, cards=(*ferry.cards[:-1], replace(card, sleeved=True)))
    ferries = (*scene.ferries[:index], sleeved, *scene.ferries[index + 1:])
    x, y = (float(v) for v in np.mean(card.code_corners(), axis=0))

    def seen(peak: float) -> FerryTruth:
        spot = Highlight(ferry.ferry, len(ferry.cards) - 1, x, y, 9.0, 5.0, 30.0, peak)
        return render_scene(replace(scene, ferries=ferries, highlights=(spot,)),
                            SCALE).truth.ferries[ferry.ferry]

    strong = seen(2.5)
    assert strong.highlight == "strong"
    assert strong.top_visible  # glare hides nothing: the code is there to be read
    assert seen(0.25).highlight == "weak"


def test_the_score_counts_a_buried_card_and_a_foreign_code_as_wrong_tops() -> None:
    ferries = {k: FerryTruth(True, 2, f"T{k}", True, buried=(f"B{k}",)) for k in FERRIES}
    ferries[5] = FerryTruth(True, 2, "T5", True, highlight="strong")
    truth = SceneTruth(ferries, 3, True, True, ("https://example.com/menu?table=7",),
                       ("70-80 cm",), {})
    views = {1: FerryView(True, "T1"), 2: FerryView(True, "B2"),
             3: FerryView(True, "https://example.com/menu?table=7"), 4: FerryView(False),
             5: FerryView(True, None)}
    tally = score(truth, TableReading(views, noah=None), {"T1", "B2", "T4", "T5"})
    assert (tally.visible, tally.read, tally.bare) == (5, 1, 3)
    assert (tally.wrong, tally.wrong_buried, tally.foreign_taken) == (2, 1, 1)
    assert (tally.glare, tally.glare_read, tally.glare_bare) == (1, 0, 1)
    assert (tally.locatable, tally.located) == (5, 4)
    assert (tally.noah_frames, tally.noah_silent, tally.noah_wrong_any) == (1, 1, 0)


def test_the_benchmark_reports_a_tiny_set_by_condition(tmp_path) -> None:
    log = tmp_path / "frames.jsonl"
    report = measure("heldout", TEXTS, frames=1, scale=0.15, save=tmp_path, log=log)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert summarise("heldout", records, 0) == report  # a run cut short keeps its figures
    assert report["total"]["frames"] == 1
    assert report["seeds"] == [HELDOUT_SEEDS[0], HELDOUT_SEEDS[0]]
    conditions = set(scene_for_seed(HELDOUT_SEEDS[0], TEXTS).conditions)
    assert set(report["by_condition"]) == conditions
    assert report["ratio_to_bare"] > 0
    lines = text(report)
    assert "Top cards read" in lines and "Noah" in lines and "By condition" in lines
    saved = [json.loads(line) for line in (tmp_path / "truth.jsonl").read_text().splitlines()]
    assert [entry["seed"] for entry in saved] == [HELDOUT_SEEDS[0]]
    assert all((tmp_path / entry["frame"]).is_file() for entry in saved)
    assert set(saved[0]["ferries"]) == {"1", "2", "3", "4", "5"}


def test_the_short_look_counts_a_frame_as_the_app_reads_it() -> None:
    """Issue 19 §3: a frame that took the short look counts its reading after the look; one
    that took none counts its ordinary reading; the look's CPU is reported apart."""
    from dataclasses import asdict

    from vision.table_scenes_bench import Tally, _short_report

    plain = Tally(frames=1, visible=3, read=2, glare=1)
    looked = Tally(frames=1, visible=2, read=1, glare=1)
    after_look = Tally(frames=1, visible=2, read=2, glare=1, glare_read=1)
    records = [{"tally": asdict(plain), "short": None},
               {"tally": asdict(looked), "short": {"tally": asdict(after_look), "cpu_s": 0.04}}]
    report = _short_report(records)
    assert report["frames"] == 1 and report["cpu_ms"] == 40.0
    assert (report["total"]["read"], report["total"]["visible"]) == (4, 5)
    assert (report["total"]["glare_read"], report["total"]["glare"]) == (1, 2)
    assert _short_report([{"tally": asdict(plain)}])["frames"] == 0  # a log from before the look
