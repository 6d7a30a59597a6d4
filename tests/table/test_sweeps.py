"""The guard sweeps' runner and comparison (issue 19: ``noah-companion bench sweeps``,
vision/table_sweeps.py), on a stand-in sweep and on a few real scenes; the overlap family's scene
counts (docs/benchmarks.md) with the renderer and the reader stubbed. A sweep's full run belongs
in the benchmark, not here."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import numpy as np
import pytest

import vision.table_sweeps as sweeps
import vision.table_sweeps_overlap as overlap
from companion.cli import main
from vision.table import FerryView, TableReader, TableReading
from vision.table_kit import FERRIES
from vision.table_sweeps import SweepResult, compare, overlap_positions, read_log, run_sweeps

pytestmark = pytest.mark.usefixtures("no_user_config")

NAMES_SCENE_B = False
"""The stand-in sweep names its scene ``b`` when this is set: a reader that got worse."""


def stand_in(reader: TableReader, px: float) -> Iterator[SweepResult]:
    """Three scenes, no rendering: a control read, a buried code decoded and not named, and
    ``b``, named only when :data:`NAMES_SCENE_B` is set."""
    yield SweepResult("control", "control", True, True)
    yield SweepResult("a", "buried", True, False, {"band": "<3"})
    yield SweepResult("b", "buried", True, NAMES_SCENE_B, {"band": ">=4"})


SWEEPS = {"stand-in": stand_in}
DOCUMENTED_NAMED: dict[str, dict[float, int]] = {}


@pytest.fixture
def only_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sweeps, "SWEEP_MODULES", (__name__,))


def test_the_log_has_one_line_per_scene_and_reads_back(only_stand_in, tmp_path):
    path = tmp_path / "run.log"
    with path.open("w") as log:
        (summary,) = run_sweeps(["stand-in"], [3.0], log=log)
    assert (summary.scenes, summary.decoded, summary.named) == (2, 2, 0)
    assert (summary.controls, summary.controls_read, summary.passed) == (1, 1, True)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["key"] for line in lines] == ["control", "a", "b"]
    assert set(lines[1]) == {"sweep", "px", "key", "kind", "decoded", "named", "detail"}
    assert read_log(path)[("stand-in", 3.0, "a")].detail == {"band": "<3"}


def test_a_comparison_finds_a_scene_named_here_and_not_in_the_baseline(
        only_stand_in, monkeypatch, tmp_path, capsys):
    """The judgement of a change: the baseline names nothing; a reader that names ``b`` fails
    the comparison (exit 1) and the scene is listed; the other way round it is a gain."""
    baseline = tmp_path / "main.log"
    assert main(["bench", "sweeps", "-q", "--log", str(baseline)]) == 0
    monkeypatch.setattr(sys.modules[__name__], "NAMES_SCENE_B", True)
    worse = tmp_path / "worse.log"
    assert main(["bench", "sweeps", "-q", "--px", "3", "--log", str(worse),
                 "--compare", str(baseline)]) == 1
    out = capsys.readouterr().out
    assert "named here and not there: 1" in out and "stand-in 3 b" in out
    assert "MORE NAMED THAN DOCUMENTED" in out  # and without a baseline it fails too
    comparison = compare(read_log(baseline), read_log(worse))
    assert comparison.no_longer_named == [("stand-in", 3.0, "b")]
    assert comparison.newly_named == [] and comparison.not_compared == [("stand-in", 2.3)]


def test_a_sweep_with_a_documented_limit_passes_at_that_count(only_stand_in, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "NAMES_SCENE_B", True)
    monkeypatch.setitem(DOCUMENTED_NAMED, "stand-in", {3.0: 1})
    (at_3,) = run_sweeps(["stand-in"], [3.0])
    (at_2_3,) = run_sweeps(["stand-in"], [2.3])
    assert (at_3.named, at_3.passed, at_3.named_by) == (1, True, {">=4": 1})
    assert (at_2_3.documented, at_2_3.passed) == (0, False)


def test_json_report(only_stand_in, capsys):
    assert main(["bench", "sweeps", "--json", "--px", "2.3"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["passed"] is True
    assert [(s["sweep"], s["px"], s["scenes"], s["named"]) for s in report["sweeps"]] == [
        ("stand-in", 2.3, 2, 0)]


@pytest.mark.parametrize(("options", "said"), [
    (["--sweep", "nope"], "no sweep named nope"),
    (["--compare", "{missing}"], "cannot read the log"),
    (["--compare", "{garbled}"], "line 2: not a sweep's scene"),
    (["--log", "{tmp}/no/such/folder/run.log"], "cannot write the log"),
])
def test_bad_input_is_said_without_a_traceback(only_stand_in, tmp_path, capsys, options, said):
    garbled = tmp_path / "garbled.log"
    garbled.write_text('{"sweep": "dim", "px": 3, "key": "a", "kind": "buried", '
                       '"decoded": true, "named": false}\nnot json\n')
    paths = {"missing": tmp_path / "missing.log", "garbled": garbled, "tmp": tmp_path}
    options = [option.format(**paths) for option in options]
    assert main(["bench", "sweeps", "-q", *options]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_a_scale_not_offered_is_refused(only_stand_in, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "sweeps", "--px", "4"])
    assert exit_.value.code == 2 and "invalid choice" in capsys.readouterr().err


def test_the_real_sweeps_run_a_few_scenes_each(tmp_path):
    """``--quick`` on the overlap family: each sweep's control reads the code, its first
    buried scenes are not named, and the 2.3 px scale goes through the enlarged path."""
    (dim,) = run_sweeps(["dim"], [3.0], limit=3)
    assert (dim.controls, dim.controls_read, dim.scenes, dim.named) == (1, 1, 2, 0)
    assert dim.decoded >= 1  # the first scene: a card ¾ of a module over the code's left edge
    results: dict = {}
    (qz,) = run_sweeps(["qz"], [2.3], limit=2, results=results)
    assert qz.controls_read == 1 and qz.named == 0
    assert results[("qz", 2.3, "left/-0.4/0/light1/noise2.5/blur0.7")].detail == {
        "distance": 0.4, "band": "<3"}


class _Stub:
    """A frame for a scene, read as a ferry 3 that shows nothing: the sweeps' scenes counted
    without rendering or reading one."""

    frame = np.zeros((4, 4), np.uint8)

    def read(self, frame: np.ndarray) -> TableReading:
        return TableReading({k: FerryView(seen=True) for k in FERRIES}, noah=None)


@pytest.mark.parametrize(("name", "scenes", "controls"), [
    ("dim", 1134, 27), ("noise", 448, 16), ("draws", 360, 9), ("qz", 720, 12)])
def test_the_overlap_sweeps_have_the_documented_scene_counts(monkeypatch, name, scenes,
                                                             controls):
    """docs/benchmarks.md: dim 1,134 scenes, noise 448, draws 360, qz 720; every key unique."""
    monkeypatch.setattr(overlap, "render_table", lambda scene, camera: _Stub())
    results = list(overlap.SWEEPS[name](_Stub(), 3.0))  # type: ignore[arg-type]
    kinds = [r.kind for r in results]
    assert (kinds.count("buried"), kinds.count("control")) == (scenes, controls)
    assert len({r.key for r in results}) == len(results)


def test_the_quiet_zone_sweeps_cards_lie_where_its_bands_say():
    """The card's measured distance (tcodes' table): squared, the depth outside the code (the
    corner's the diagonal); turned, 0 to about 6 modules; off the sticker, the band ">=4"."""
    squared = [overlap.outline_distance(dx, dy, 0.0)
               for _, _, dx, dy in overlap_positions((-2.2,))]
    assert squared == pytest.approx([2.2] * 4 + [2.2 * 2**0.5])
    turned = [overlap.outline_distance(dx, dy, angle)
              for _, _, dx, dy in overlap_positions(overlap.BESIDE_THE_CODE)
              for angle in (5.0, -7.0)]
    assert min(turned) >= 0.0 and max(turned) < 7.0
    assert overlap.distance_detail(0.0, 70.0, 0.0)["band"] == ">=4"
