"""The work a reading does (issue 19 point 4, a cold frame cheaper than bare zxing-cpp): a code is
judged only when its verdict is used, and the bare-mat test counts grey levels instead of
sorting them, with the same answers. The work is counted, never timed."""

import functools
import random
from dataclasses import replace

import numpy as np

import vision.table
from vision.table import TableReader
from vision.table_markers import mat_poses
from vision.table_render import (
    CardOnMat,
    CardOnTable,
    MatOnTable,
    OverheadCamera,
    TableScene,
    render_table,
    row_layout,
)
from vision.table_zones import zone_is_blank

CAMERA = OverheadCamera(width=1920, height=1080, hfov_deg=40.0)
STACK = (CardOnMat("NOAH1/BOX1/CAM3"), CardOnMat("NOAH1/BOX1/LIF3", 6, 9, 4))
BESIDE = "NOAH1/BOX1/ELF1"


@functools.cache
def turned_frame() -> np.ndarray:
    """Ferry 3's mat turned 45° (its zone's bounding box reaches far past the zone at its
    corners), two cards on it, and a card laid beside it inside that box."""
    mats = (MatOnTable(3, 0.0, 0.0, 45.0, STACK),)
    return render_table(TableScene(mats, loose=(CardOnTable(BESIDE, 95, 95),)), CAMERA).frame


@functools.cache
def row_frame() -> np.ndarray:
    """Five mats in a row, two cards on each, and a card laid beside them."""
    mats = tuple(replace(mat, cards=(CardOnMat(f"NOAH1/BOX1/CAM{mat.ferry}"),
                                     CardOnMat(f"NOAH1/BOX1/LIF{mat.ferry}", 6, 9, 4)))
                 for mat in row_layout(gap_mm=5))
    return render_table(TableScene(mats, loose=(CardOnTable(BESIDE, 0, 150),)), CAMERA).frame


def judging(monkeypatch) -> list[str]:
    """The texts of the codes judged from now on (in order)."""
    judged: list[str] = []
    real = vision.table.visibility

    def counting(barcode, *args):
        judged.append(barcode.text)
        return real(barcode, *args)

    monkeypatch.setattr(vision.table, "visibility", counting)
    return judged


def test_a_code_decoded_in_a_zones_crop_but_outside_the_zone_is_not_judged(monkeypatch) -> None:
    gray = turned_frame()
    reader = TableReader()
    poses = mat_poses(reader.find_markers(gray))
    judged = judging(monkeypatch)
    views = reader.read_ferries(gray, poses, [3])
    assert views[3].top == "NOAH1/BOX1/LIF3"
    assert judged and BESIDE not in judged  # decoded in the crop, judged by main's reader
    assert reader.loose_codes(gray, poses) is None  # one mat: beside it is not known


def test_each_code_is_judged_once_and_only_for_the_ferries_asked_for(monkeypatch) -> None:
    gray = row_frame()
    reader = TableReader()
    poses = mat_poses(reader.find_markers(gray))
    judged = judging(monkeypatch)
    everything = reader.read_ferries(gray, poses)
    assert len(judged) == len(set(judged)) >= 5 and BESIDE not in judged
    judged.clear()
    one = reader.read_ferries(gray, poses, [3])
    assert judged and all(text.endswith("3") for text in judged)
    assert one[3] == everything[3] and one[3].top == "NOAH1/BOX1/LIF3"


def test_the_codes_beside_the_mats_are_not_judged(monkeypatch) -> None:
    reader = TableReader()
    gray = row_frame()
    poses = mat_poses(reader.find_markers(gray))
    judged = judging(monkeypatch)
    assert [code.text for code in reader.loose_codes(gray, poses) or ()] == [BESIDE]
    assert judged == []


def test_the_bare_mat_test_answers_as_a_sort_of_the_zones_levels() -> None:
    """zone_is_blank counts grey levels; its answers are those of numpy's quantile over the
    zone's pixels (the definition it replaced), on zones of every brightness and size."""
    rng = random.Random(19)
    gray = row_frame()
    for _ in range(60):
        x, y = rng.uniform(0, 1800), rng.uniform(0, 1000)
        w, h = rng.uniform(4, 300), rng.uniform(4, 400)
        zone = ((x, y), (x + w, y + 0.1 * h), (x + w, y + h), (x - 0.1 * w, y + h))
        max_dark = rng.choice([0.12, rng.uniform(0.0, 0.6)])
        assert zone_is_blank(gray, zone, max_dark) == by_sorting(gray, zone, max_dark)


def by_sorting(gray: np.ndarray, zone, max_dark: float) -> bool:
    """The bare-mat test as first written: the zone's pixels sorted for their 90th percentile."""
    import cv2

    points = np.asarray(zone, np.float32)
    centre = points.mean(axis=0)
    inner = (centre + 0.8 * (points - centre)).astype(np.int32)
    mask = np.zeros(gray.shape, np.uint8)
    cv2.fillConvexPoly(mask, inner, 1)
    values = gray[mask > 0]
    if values.size == 0:
        return False
    paper = float(np.quantile(values, 0.9))
    return bool(float((values < 0.75 * paper).mean()) <= max_dark)
