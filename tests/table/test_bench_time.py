"""The table bench's time arithmetic (issue 19 point 4): CPU time of the reading thread paired
frame by frame with bare zxing-cpp, as ratios by resolution and condition, wall time beside it.
Fake clocks only: no test here reads a real clock."""

from dataclasses import asdict

import numpy as np

from vision.table_bench import Clocks, timed
from vision.table_scenes_bench import Tally, summarise, text


class FakeClock:
    """A clock that returns the next of the values it was given."""

    def __init__(self, *values: float) -> None:
        self._values = iter(values)

    def __call__(self) -> float:
        return next(self._values)


def record(seed: int, conditions: list[str], cpu: tuple[float, float],
           wall: tuple[float, float], change: tuple[float, float] | None = None) -> dict:
    """One frame's figures as `frame_records` writes them (reader, bare zxing-cpp)."""
    played = None if change is None else {
        "seconds": change[0], "bare_seconds": change[1], "wall_seconds": change[0] * 3,
        "bare_wall_seconds": change[1], "still_seconds": change[0] / 10,
        "tally": asdict(Tally(frames=1, visible=1, read=1))}
    return {"seed": seed, "conditions": conditions, "tally": asdict(Tally(frames=1)),
            "seconds": cpu[0], "bare_seconds": cpu[1], "wall_seconds": wall[0],
            "bare_wall_seconds": wall[1], "change": played}


def test_a_timing_reads_the_thread_cpu_clock_and_the_wall_clock_around_the_call() -> None:
    clocks = Clocks(cpu=FakeClock(10.0, 10.25), wall=FakeClock(100.0, 101.0))
    result, (cpu, wall) = timed(lambda frame: frame.sum(), np.ones((2, 2)), clocks)
    assert (result, cpu, wall) == (4.0, 0.25, 1.0)


def test_the_real_clocks_are_the_processs_cpu_time_and_a_wall_clock() -> None:
    import time

    assert Clocks().cpu is time.process_time and Clocks().wall is time.perf_counter


def test_ratios_are_paired_frame_by_frame_and_split_by_resolution_and_condition() -> None:
    records = [
        # full resolution: the reader 0.8×, 1.0× and 0.6× bare on its own frames
        record(1, ["70-80 cm", "jpeg"], (0.040, 0.050), (0.090, 0.050), (0.010, 0.050)),
        record(2, ["70-80 cm", "dim side light"], (0.030, 0.030), (0.030, 0.060)),
        record(3, ["90-100 cm", "jpeg"], (0.060, 0.100), (0.060, 0.100), (0.020, 0.050)),
        # binned: 4× a much faster bare reading (a per-code cost on a small frame)
        record(4, ["binned", "jpeg"], (0.040, 0.010), (0.080, 0.010), (0.005, 0.010)),
    ]
    report = summarise("dev", records, changes=3)
    cold, plays = report["time"]["cold"], report["time"]["one_ferry"]
    assert list(cold)[:3] == ["all", "full resolution", "binned"]
    # a median of the four ratios (0.6, 0.8, 1.0, 4.0), not the ratio of the medians (1.0)
    assert cold["all"] == {"frames": 4, "cpu_ratio": 0.9, "wall_ratio": 1.2,
                           "cpu_ms": 40.0, "bare_cpu_ms": 40.0}
    assert (cold["full resolution"]["frames"], cold["full resolution"]["cpu_ratio"]) == (3, 0.8)
    assert (cold["binned"]["frames"], cold["binned"]["cpu_ratio"]) == (1, 4.0)
    assert cold["jpeg"]["frames"] == 3 and cold["jpeg"]["cpu_ratio"] == 0.8
    assert set(cold) >= {"70-80 cm", "90-100 cm", "jpeg"}
    assert plays["all"]["frames"] == 3 and plays["all"]["cpu_ratio"] == 0.4  # 0.2, 0.4, 0.5
    assert plays["binned"]["cpu_ratio"] == 0.5 and plays["full resolution"]["frames"] == 2
    assert plays["all"]["wall_ratio"] == 1.2  # the wall time column is its own median
    assert (report["ratio_to_bare"], report["wall_ratio_to_bare"]) == (0.9, 1.2)
    assert report["one_ferry_change"]["ratio_to_bare"] == 0.4
    assert report["one_ferry_change"]["wall_ratio_to_bare"] == 1.2
    # a Pi 4: one frame period (1/14.35 s) and the play's and the still frame's readings
    # (medians 10 and 1 ms here) at 3–5× this machine's CPU time
    change = report["one_ferry_change"]
    assert (change["cpu_ms"], change["still_cpu_ms"]) == (10.0, 1.0)
    assert change["pi4_ms"] == [102.69, 124.69]
    lines = text(report)
    assert "cold 0.9× / 1.2× (4, 40.0 ms against 40.0)  one ferry 0.4× / 1.2× (3)" in lines
    assert "binned             cold 4.0× / 8.0× (1" in lines


def test_a_set_without_plays_reports_no_one_ferry_time() -> None:
    report = summarise("dev", [record(1, ["60-70 cm"], (0.02, 0.04), (0.02, 0.04))], 0)
    assert report["time"]["one_ferry"] == {} and report["one_ferry_change"] == {"measured": 0}
    assert "one ferry -" in text(report)
