"""Issue 19: Noah's figure where a reader can know, and his silences by why (``bench table
--renderer scenes``), on small hand-made truths — no frame is drawn.

A reader is never wrong about Noah (TABLE-KIT.md): it stays silent when a mat shows no whole
marker (it could lie nearer) and when two mats are nearly as near. The knowable figure counts
only the frames where neither holds, so a silence there is one a reader could still end.
"""

from __future__ import annotations

from dataclasses import asdict, replace

import pytest

from vision.table import FerryView, TableReading
from vision.table_kit import FERRIES
from vision.table_scenes import Camera, Ferry, Scene
from vision.table_scenes_bench import (
    KNOWABLE_GAP_MM,
    Tally,
    _change_report,
    noah_knowable,
    noah_silence,
    score,
    summarise,
    text,
)
from vision.table_scenes_truth import FerryTruth, SceneTruth, nearest_two, truth_json

EVERY_MAT = {k: FerryTruth(True, 2, None, False) for k in FERRIES}
HIDDEN_MAT = {**EVERY_MAT, 4: FerryTruth(False, 0, None, False)}
CLEAR = SceneTruth(EVERY_MAT, 2, True, True, (), ("arc",), {}, noah_gap_mm=48.0)
TIE = replace(CLEAR, noah_gap_mm=0.6)
FORCED = replace(CLEAR, ferries=HIDDEN_MAT)
UNSEEN = replace(CLEAR, noah_visible=False)


def said(noah: int | None) -> TableReading:
    return TableReading({k: FerryView(seen=True) for k in FERRIES}, noah=noah)


def test_the_true_gap_is_between_the_two_nearest_mat_centres() -> None:
    """Mats end to end, 160 mm apart (centre to centre)."""
    row = Scene(tuple(Ferry(k, 160.0 * k, 0.0, 90.0) for k in FERRIES), Camera())
    ferry, gap = nearest_two(row, 200.0, 60.0)  # 72.1 mm from mat 1, 134.2 from mat 2
    assert ferry == 1
    assert gap == pytest.approx(62.0, abs=0.1)
    assert nearest_two(row, 240.0, 90.0)[1] == pytest.approx(0.0)  # half-way: a true tie


def test_the_split_needs_every_mat_and_a_gap_of_the_constant() -> None:
    assert KNOWABLE_GAP_MM == 15.0
    assert noah_knowable(CLEAR) and noah_silence(CLEAR) == "other"
    assert noah_silence(replace(CLEAR, noah_gap_mm=KNOWABLE_GAP_MM)) == "other"
    assert noah_silence(replace(CLEAR, noah_gap_mm=KNOWABLE_GAP_MM - 0.1)) == "near tie"
    assert noah_silence(TIE) == "near tie" and not noah_knowable(TIE)
    # a hidden mat forces silence whatever the gap: it could lie nearer than both
    assert noah_silence(FORCED) == "forced" and not noah_knowable(FORCED)
    assert noah_silence(replace(TIE, ferries=HIDDEN_MAT)) == "forced"
    # a truth with no gap (an old record, or no Noah) is never counted knowable
    assert not noah_knowable(replace(CLEAR, noah_gap_mm=None))
    assert not noah_knowable(UNSEEN) and not noah_knowable(replace(CLEAR, noah_mat_visible=False))


def test_every_silence_has_one_reason_and_the_old_figure_is_unchanged() -> None:
    frames = [(CLEAR, 2), (CLEAR, 3), (CLEAR, None), (TIE, None), (TIE, 2), (FORCED, None),
              (FORCED, None), (UNSEEN, 5)]
    tally = Tally()
    for truth, noah in frames:
        tally += score(truth, said(noah), [])
    # the figure over frames where his marker and mat show, as before
    assert (tally.noah_frames, tally.noah_right, tally.noah_wrong, tally.noah_silent) == (
        7, 2, 1, 4)
    assert tally.noah_wrong_any == 2  # the wrong answer where his marker is not seen counts
    # the silences by why: forced, near tie, other
    assert (tally.noah_silent_hidden_mat, tally.noah_silent_near_tie,
            tally.noah_knowable_silent) == (2, 1, 1)
    assert tally.noah_silent == (tally.noah_silent_hidden_mat + tally.noah_silent_near_tie
                                 + tally.noah_knowable_silent)
    # where a reader can know: the three CLEAR frames only (TIE's right answer is luck)
    assert (tally.noah_knowable, tally.noah_knowable_right, tally.noah_knowable_wrong) == (
        3, 1, 1)
    assert tally.rates()["noah_knowable_right"] == pytest.approx(33.3, abs=0.1)


def _record(truth: SceneTruth, noah: int | None, condition: str) -> dict[str, object]:
    seconds = {"seconds": 0.02, "bare_seconds": 0.02, "wall_seconds": 0.02,
               "bare_wall_seconds": 0.02}
    return {"seed": 1000, "conditions": [condition], "tally": asdict(score(truth, said(noah), [])),
            **seconds, "change": None}


def test_the_report_gives_the_knowable_figure_overall_and_by_condition() -> None:
    records = [_record(CLEAR, 2, "arc"), _record(TIE, None, "arc"), _record(FORCED, None, "row"),
               _record(CLEAR, None, "row")]
    report = summarise("dev", records, 0)
    assert (report["total"]["noah_knowable"], report["total"]["noah_knowable_right"]) == (2, 1)
    assert report["rates"]["noah_knowable_right"] == 50.0
    assert report["by_condition"]["arc"]["noah_knowable_right"] == 1
    assert report["by_condition"]["row"]["noah_knowable_silent"] == 1
    lines = text(report)
    assert "where a reader can know (every mat shows a whole marker, true gap 15 mm or more; 2 " \
           "frames): right 1 (50.0 %), wrong 0, nothing said 1" in lines
    assert "nothing said, by why: forced 1 (a mat shows no whole marker), near tie 1" in lines
    assert "other 1 (a reader could still name him)" in lines
    # the old figure, reported as before
    assert "right 1, wrong 0, nothing said 3 (1 with a mat that shows no whole marker)" in lines


def test_the_one_ferry_change_reports_the_knowable_figure() -> None:
    tally = Tally()
    tally += score(CLEAR, said(2), [])
    tally += score(TIE, said(None), [])
    timed = {"frames": 2, "cpu_ratio": 0.2, "wall_ratio": 0.3, "cpu_ms": 5.0}
    change = _change_report(timed, 1.0, tally, 2)
    assert (change["noah_knowable"], change["noah_knowable_right"],
            change["noah_knowable_wrong"], change["noah_knowable_silent"]) == (1, 1, 0, 0)
    assert change["noah_wrong_any"] == 0


def test_the_saved_truth_carries_the_gap_and_the_hidden_mat() -> None:
    saved = truth_json(replace(FORCED, noah_gap_mm=9.6999))
    assert saved["noah_gap_mm"] == 9.7 and saved["every_mat_locatable"] is False
    assert truth_json(replace(CLEAR, noah=None, noah_gap_mm=None))["noah_gap_mm"] is None


def test_the_report_names_the_seeds_worth_a_look() -> None:
    """A set nobody may open (held-out) still says which frames were silent where a reader
    can know, and which named a wrong ferry."""
    records = [_record(CLEAR, None, "arc"), _record(TIE, None, "arc"), _record(CLEAR, 2, "row"),
               _record(UNSEEN, 4, "row")]
    for seed, record in enumerate(records, start=900):
        record["seed"] = seed
    report = summarise("dev", records, 0)
    assert report["noah_seeds"] == {"other": [900], "wrong": [903]}
    lines = text(report)
    assert "Noah silent where a reader can know, seeds: 900" in lines
    assert "Noah at a wrong ferry, seeds: 903" in lines
