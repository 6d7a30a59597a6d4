"""The table view's reader on varied tables (:mod:`vision.table_scenes`), by condition.

``noah-companion bench table --renderer scenes --set dev|heldout``. Each seed of the set is a
table filmed under one camera condition and two or three table conditions; the reader
(:meth:`vision.table.TableReader.read`, one frame alone) and bare whole-frame zxing-cpp read the
same frame, back to back, on one core. Counted, overall and for each condition:

* **top cards read**: of the top-card codes that are visible (:class:`FerryTruth`) on a mat a
  reader can locate, those the reading names for their ferry; bare zxing-cpp's count is its best
  case (the text found anywhere in the frame: it cannot tell top from buried), split into codes
  that no strong highlight covers and codes under one;
* **wrong tops**: a text named for a ferry that is not its true top card (a buried card's, a
  foreign code, another ferry's): the worst error; **foreign codes taken** among them;
* **mats** located of those locatable (and located though truth says not: no error);
* **Noah**, on frames where his marker and his ferry's mat are visible: right, wrong, or nothing
  said; and wrong on *any* frame (a reading that names a ferry while his own mat is hidden);
  the same **where a reader can know** (:func:`noah_knowable`: every mat shows a whole marker
  and his mat is the nearest by :data:`KNOWABLE_GAP_MM` or more); and the silences by why
  (:func:`noah_silence`: forced, near tie, other — the only ones a reader could still end);
* **time**: the reader's time per frame over bare zxing-cpp's on the same frame, the median of
  these paired ratios; and, when the reader has a frame-to-frame API
  (:class:`vision.table_tracker.TableTracker`), the same for a **one-ferry change**: the table
  read once, then the same table with one card played (fresh sensor noise). Each is given for
  all frames, by resolution (full, binned) and by condition (:func:`time_groups`).

Time is first the **CPU time of the process** (``time.process_time``: the reading's thread and
any worker a library starts for it; the command turns OpenCV's threads off and runs nothing
else beside the reading, see :class:`vision.table_bench.Clocks`): on a machine shared with
other jobs a reading's wall time counts the others' turns too, its CPU time only its own work. Each
frame's reader and bare zxing-cpp run back to back in the same process, so the ratio is paired
frame by frame; wall time is the second column, what one would wait on an idle machine.

Rendering is not timed. Benchmarks report; they never pass or fail.
"""

from __future__ import annotations

import importlib
import json
import math
import random
import statistics
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from vision.bench import _ms
from vision.table import TableReader, TableReading
from vision.table_bench import PI_FACTORS, Clocks, _pct, timed
from vision.table_kit import FERRIES
from vision.table_scenes import FOREIGN_TEXTS, Scene, scene_for_seed, scene_set
from vision.table_scenes_render import render_scene
from vision.table_scenes_truth import SceneTruth, truth_json


@dataclass
class Tally:
    """Counts over frames (see the module's docstring); ``+=`` adds another tally."""

    frames: int = 0
    visible: int = 0
    read: int = 0
    bare: int = 0
    clear: int = 0
    clear_read: int = 0
    clear_bare: int = 0
    glare: int = 0
    glare_read: int = 0
    glare_bare: int = 0
    hidden_mat_tops: int = 0
    wrong: int = 0
    wrong_buried: int = 0
    foreign_taken: int = 0
    foreign_visible: int = 0
    locatable: int = 0
    located: int = 0
    located_extra: int = 0
    noah_frames: int = 0
    noah_right: int = 0
    noah_wrong: int = 0
    noah_silent: int = 0
    noah_silent_hidden_mat: int = 0
    """Of :attr:`noah_silent`, the frames where a mat shows no marker whole: no reader can
    locate it, so a single frame must leave Noah unnamed (TABLE-KIT.md): the silences
    :func:`noah_silence` calls ``"forced"``."""
    noah_silent_near_tie: int = 0
    """Of :attr:`noah_silent`, the frames where every mat shows a whole marker but the true
    gap is under :data:`KNOWABLE_GAP_MM`; the rest, :attr:`noah_knowable_silent`, are the
    silences a reader could still end (:func:`noah_silence`)."""
    noah_wrong_any: int = 0
    noah_knowable: int = 0
    """Frames where a reader can know Noah's ferry (:func:`noah_knowable`), and on them:"""
    noah_knowable_right: int = 0
    noah_knowable_wrong: int = 0
    noah_knowable_silent: int = 0

    def __iadd__(self, other: Tally) -> Tally:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        return self

    def rates(self) -> dict[str, float | None]:
        """The shares worth reading, in per cent."""
        return {"read": _pct(self.read, self.visible), "bare": _pct(self.bare, self.visible),
                "clear_read": _pct(self.clear_read, self.clear),
                "clear_bare": _pct(self.clear_bare, self.clear),
                "glare_read": _pct(self.glare_read, self.glare),
                "glare_bare": _pct(self.glare_bare, self.glare),
                "located": _pct(self.located, self.locatable),
                "noah_right": _pct(self.noah_right, self.noah_frames),
                "noah_knowable_right": _pct(self.noah_knowable_right, self.noah_knowable)}


#: The true gap (millimetres on the table) between the nearest and the second-nearest mat
#: centre to Noah's marker from which a reader can be asked to name his ferry. The reader's
#: tie margins (:mod:`vision.table_markers`) are 10 mm between two mats placed by two markers
#: and 15 mm when one is placed by one marker — which of its markers a mat shows is up to the
#: players' hands, not the reader — each 1.7-2.3 times the worst error of a pose measured
#: where Noah stands (issue 19's Noah sweep, docs/benchmarks.md, branches ``tnoah`` and
#: ``tmats``); and a player's "just beside a mat" is no finer than a centimetre. Under 15 mm
#: a reader that is never wrong may have to stay silent; at 15 mm or more, with every mat in
#: view, it should not. (The margins also grow past 120 mm from Noah, and with no mat placed
#: by two markers; the scenes put Noah 97-105 mm from his mat, so a 15 mm gap leaves the
#: second mat within 120 mm: those silences count as "other" and are explained apart.)
KNOWABLE_GAP_MM = 15.0


def noah_knowable(truth: SceneTruth) -> bool:
    """Whether a reader can know Noah's ferry on this frame: his marker and his mat visible,
    every mat showing a whole marker, and his mat the nearest by :data:`KNOWABLE_GAP_MM`.

    >>> from dataclasses import replace
    >>> from vision.table_scenes_truth import FerryTruth
    >>> ferries = {k: FerryTruth(True, 2, None, False) for k in FERRIES}
    >>> clear = SceneTruth(ferries, 1, True, True, (), (), {}, noah_gap_mm=40.0)
    >>> noah_knowable(clear), noah_knowable(replace(clear, noah_gap_mm=9.7))
    (True, False)
    >>> noah_knowable(replace(clear, ferries={**ferries, 4: FerryTruth(False, 0, None, False)}))
    False
    """
    return (truth.noah_visible and truth.noah_mat_visible and truth.every_mat_locatable
            and truth.noah_gap_mm is not None and truth.noah_gap_mm >= KNOWABLE_GAP_MM)


def noah_silence(truth: SceneTruth) -> str:
    """Why Noah may go unnamed on a frame where his marker and his mat are visible:
    ``"forced"`` (a mat shows no whole marker: it could lie nearer, TABLE-KIT.md), ``"near
    tie"`` (the true gap is under :data:`KNOWABLE_GAP_MM`) or ``"other"`` (a reader can know:
    :func:`noah_knowable`).

    >>> from dataclasses import replace
    >>> from vision.table_scenes_truth import FerryTruth
    >>> ferries = {k: FerryTruth(True, 2, None, False) for k in FERRIES}
    >>> tie = SceneTruth(ferries, 1, True, True, (), (), {}, noah_gap_mm=0.6)
    >>> hidden = replace(tie, ferries={**ferries, 3: FerryTruth(False, 0, None, False)})
    >>> noah_silence(tie), noah_silence(hidden), noah_silence(replace(tie, noah_gap_mm=15.0))
    ('near tie', 'forced', 'other')
    """
    if not truth.every_mat_locatable:
        return "forced"
    return "other" if noah_knowable(truth) else "near tie"


def score(truth: SceneTruth, reading: TableReading, bare_texts: Iterable[str]) -> Tally:
    """One frame's counts: the truth against the reader's reading and bare zxing-cpp's texts.

    >>> from vision.table import FerryView
    >>> from vision.table_scenes_truth import FerryTruth
    >>> ferries = {k: FerryTruth(True, 2, f"T{k}", True) for k in FERRIES}
    >>> truth = SceneTruth(ferries, 1, True, True, (), ("binned",), {})
    >>> views = {k: FerryView(seen=True, top=f"T{k}" if k < 3 else None) for k in FERRIES}
    >>> tally = score(truth, TableReading(views, noah=2), ["T1", "T4"])
    >>> tally.read, tally.bare, tally.visible, tally.noah_wrong, tally.wrong
    (2, 2, 5, 1, 0)
    >>> hidden = SceneTruth({**ferries, 3: FerryTruth(False, 0, "T3", True)}, 1, True, True,
    ...                     (), (), {})
    >>> tally = score(hidden, TableReading(views, noah=None), [])
    >>> tally.noah_silent, tally.noah_silent_hidden_mat
    (1, 1)
    """
    bare = set(bare_texts)
    tally = Tally(frames=1, foreign_visible=len(truth.foreign))
    for k in FERRIES:
        _score_ferry(tally, truth, k, reading.ferries[k].seen, reading.ferries[k].top, bare)
    _score_noah(tally, truth, reading.noah)
    return tally


def _score_noah(tally: Tally, truth: SceneTruth, said: int | None) -> None:
    """Noah's counts: right, wrong or silent where his marker and mat show, the silences by
    why (:func:`noah_silence`), the same where a reader can know, and wrong on any frame."""
    wrong = said is not None and said != truth.noah
    tally.noah_wrong_any += wrong
    if not (truth.noah_visible and truth.noah_mat_visible):
        return
    tally.noah_frames += 1
    tally.noah_right += said == truth.noah
    tally.noah_wrong += wrong
    tally.noah_silent += said is None
    why = noah_silence(truth)
    tally.noah_silent_hidden_mat += said is None and why == "forced"
    tally.noah_silent_near_tie += said is None and why == "near tie"
    if why == "other":
        tally.noah_knowable += 1
        tally.noah_knowable_right += said == truth.noah
        tally.noah_knowable_wrong += wrong
        tally.noah_knowable_silent += said is None


def _score_ferry(tally: Tally, truth: SceneTruth, k: int, seen: bool, top: str | None,
                 bare: set[str]) -> None:
    t = truth.ferries[k]
    tally.locatable += t.locatable
    tally.located += seen and t.locatable
    tally.located_extra += seen and not t.locatable
    if top is not None and top != t.top:
        tally.wrong += 1
        tally.wrong_buried += top in t.buried
        tally.foreign_taken += top in FOREIGN_TEXTS or top in truth.foreign
    if t.top is None or not t.top_visible:
        return
    if not t.locatable:
        tally.hidden_mat_tops += 1
        return
    got, found = top == t.top, t.top in bare
    tally.visible += 1
    tally.read += got
    tally.bare += found
    if t.highlight == "strong":
        tally.glare, tally.glare_read, tally.glare_bare = (
            tally.glare + 1, tally.glare_read + got, tally.glare_bare + found)
    else:
        tally.clear, tally.clear_read, tally.clear_bare = (
            tally.clear + 1, tally.clear_read + got, tally.clear_bare + found)


def bare_zxing() -> Callable[[np.ndarray], set[str]]:
    """Bare whole-frame zxing-cpp, QR codes only: the texts it finds in a gray frame."""
    import zxingcpp

    formats = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
    return lambda frame: {b.text for b in zxingcpp.read_barcodes(frame, formats=formats)}


def _tracker() -> Any | None:
    """The reader's frame-to-frame API, when it has one (``vision.table_tracker``)."""
    try:
        module = importlib.import_module("vision.table_tracker")
    except ImportError:
        return None
    return getattr(module, "TableTracker", None)


def measure(set_name: str, texts: Sequence[str], *, frames: int | None = None,
            changes: int = 0, save: Path | None = None, log: Path | None = None,
            scale: float = 1.0, clocks: Clocks | None = None) -> dict[str, Any]:
    """The figures of one set (its first ``frames`` seeds), with ``changes`` one-ferry changes
    timed (when the reader has a frame-to-frame API); ``save``: also write each frame (PNG) and
    its truth (``truth.jsonl``) there; ``log``: also append each frame's figures to this JSON
    lines file as they come (a run cut short keeps them: :func:`summarise` them); ``scale``: a
    smaller sensor, same field (tests only: the stickers then get too few pixels to be read);
    ``clocks``: what times the readings (:class:`Clocks`)."""
    records = []
    for record in frame_records(set_name, texts, frames=frames, changes=changes, save=save,
                                scale=scale, clocks=clocks or Clocks()):
        records.append(record)
        if log is not None:
            with log.open("a", encoding="utf-8") as out:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return summarise(set_name, records, changes)


def frame_records(set_name: str, texts: Sequence[str], *, frames: int | None = None,
                  changes: int = 0, save: Path | None = None, scale: float = 1.0,
                  clocks: Clocks | None = None) -> Iterator[dict[str, Any]]:
    """Each frame's figures, in the order of the set's seeds: its seed, conditions, counts
    (:class:`Tally`), the reader's and bare zxing-cpp's seconds (CPU; ``wall_``: wall time),
    and the one-ferry change's."""
    clocks = clocks or Clocks()
    reader, bare = TableReader(), bare_zxing()
    for index, seed in enumerate(list(scene_set(set_name))[:frames]):
        scene = scene_for_seed(seed, texts)
        shot = render_scene(scene, scale)
        if index == 0:  # warm up (lazy imports, the decoders' first allocations): not timed
            reader.read(shot.frame)
            bare(shot.frame)
        reading, took = timed(reader.read, shot.frame, clocks)
        texts_found, bare_took = timed(bare, shot.frame, clocks)
        if save is not None:
            _save(save, seed, shot.frame, shot.truth)
        changed = _one_ferry_change(scene, texts, shot.frame, bare, scale, clocks) \
            if index < changes else None
        yield {"seed": seed, "conditions": list(shot.truth.conditions),
               "tally": asdict(score(shot.truth, reading, texts_found)),
               **_seconds(took, bare_took), "change": changed,
               "short": _short_look(reader, scene, scale, shot, reading, texts_found, clocks)}


def _short_look(reader: TableReader, scene: Scene, scale: float, shot: Any,
                reading: TableReading, texts_found: set[str], clocks: Clocks
                ) -> dict[str, Any] | None:
    """The app's short look on this still table (:mod:`vision.table_exposure`): the ferries
    left unread under a highlight read again on a frame of the same table at the short
    exposure (fresh sensor noise: another capture); its counts and CPU seconds, or ``None``
    when no ferry asks for it."""
    from vision.table_exposure import ShortExposure, read_short, under_highlight

    ferries = under_highlight(shot.frame, reading)
    if not ferries:
        return None
    short = render_scene(scene, scale, noise_seed=scene.seed + 2,
                         exposure=ShortExposure().fraction).frame
    again, took = timed(lambda frame: read_short(reader, frame, reading, ferries), short, clocks)
    return {"tally": asdict(score(shot.truth, again, texts_found)), "cpu_s": took[0]}


def summarise(set_name: str, records: Sequence[dict[str, Any]], changes: int
              ) -> dict[str, Any]:
    """The report of a set from its frames' figures (:func:`frame_records`)."""
    total, by_condition = Tally(), dict[str, Tally]()
    change_tally = Tally()
    for record in records:
        tally = Tally(**record["tally"])
        total += tally
        for condition in record["conditions"]:
            by_condition.setdefault(condition, Tally())
            by_condition[condition] += tally
        if record["change"] is not None:
            change_tally += Tally(**record["change"]["tally"])
    short = _short_report(records)
    cold = time_groups([(r["conditions"], r) for r in records])
    plays = time_groups([(r["conditions"], r["change"]) for r in records
                         if r["change"] is not None])
    seeds = [r["seed"] for r in records]
    overall = cold.get(ALL, {})
    return {
        "set": set_name, "seeds": [seeds[0], seeds[-1]] if seeds else [],
        "total": asdict(total), "rates": total.rates(),
        "by_condition": {c: {**asdict(t), "rates": t.rates()}
                         for c, t in sorted(by_condition.items())},
        "median_ms": overall.get("cpu_ms"), "bare_median_ms": overall.get("bare_cpu_ms"),
        "ratio_to_bare": overall.get("cpu_ratio"),
        "wall_ratio_to_bare": overall.get("wall_ratio"),
        "time": {"cold": cold, "one_ferry": plays},
        "short_look": short,
        "noah_seeds": noah_seeds(records),
        "one_ferry_change": {**_change_report(plays.get(ALL), _still_ms(records), change_tally,
                                              changes), **_play_work(records)},
    }


def noah_seeds(records: Sequence[dict[str, Any]]) -> dict[str, list[int]]:
    """The seeds worth a look for Noah, so that a set nobody may open still says which frames:
    ``other``, silent where a reader can know (:func:`noah_silence`); ``wrong``, a ferry named
    that is not his, on any frame.

    >>> silent, wrong = Tally(noah_knowable_silent=1), Tally(noah_wrong_any=1)
    >>> noah_seeds([{"seed": 7, "tally": asdict(silent)}, {"seed": 8, "tally": asdict(Tally())},
    ...             {"seed": 9, "tally": asdict(wrong)}])
    {'other': [7], 'wrong': [9]}
    """
    def where(field: str) -> list[int]:
        return [r["seed"] for r in records if r["tally"].get(field)]

    return {"other": where("noah_knowable_silent"), "wrong": where("noah_wrong_any")}


def _short_report(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The set's counts as the app reads a still table, the short look included (a frame
    that took none counts its ordinary reading), how many frames took one, and its median CPU
    milliseconds."""
    total, looks = Tally(), [r["short"] for r in records if r.get("short")]
    for record in records:
        total += Tally(**(record.get("short") or record)["tally"])
    return {"frames": len(looks), "total": asdict(total), "rates": total.rates(),
            "cpu_ms": _ms(statistics.median(look["cpu_s"] for look in looks)) if looks else None}


ALL, FULL, BINNED = "all", "full resolution", "binned"
#: The full-resolution stream's frame period on a Pi: the Camera Module 3's 4608 × 2592 mode
#: runs at up to 14.35 frames a second (``rpicam-hello --list-cameras``)
FULL_FRAME_S = 1 / 14.35


def pi4_settle_ms(play_ms: float, still_ms: float | None) -> list[float] | None:
    """The reading's share of *still table to verdict* on a Raspberry Pi 4, from this
    machine's CPU milliseconds of a one-ferry change and of the still frame after it: the
    referee reads both once the second frame has come (:class:`companion.session.
    table_observer.StillTable`), so one frame period, then both readings at a Pi 4 core's
    3–5× (PLATFORM-NOTES). The session's verdict comes on top (docs/benchmarks.md).

    >>> pi4_settle_ms(7.0, 1.0)
    [93.69, 109.69]
    """
    if still_ms is None:
        return None
    low, high = PI_FACTORS["Pi 4"]
    return [_ms(FULL_FRAME_S + low * (play_ms + still_ms) / 1000),
            _ms(FULL_FRAME_S + high * (play_ms + still_ms) / 1000)]


def _play_work(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The plays' work: how many searched for markers, and the ferries each decoded again
    (records of a reader that does not say: nothing).

    >>> _play_work([{"change": {"decoded": 1, "searches": 0}},
    ...             {"change": {"decoded": 3, "searches": 2}}, {"change": None}])
    {'searched_plays': 1, 'decoded_per_play': 2.0}
    """
    plays = [r["change"] for r in records if r["change"] is not None and "decoded" in r["change"]]
    if not plays:
        return {}
    return {"searched_plays": sum(1 for p in plays if p["searches"]),
            "decoded_per_play": round(float(statistics.mean(p["decoded"] for p in plays)), 2)}


def _still_ms(records: Sequence[dict[str, Any]]) -> float | None:
    """The median CPU milliseconds of reading the still frame after a play."""
    still = [r["change"]["still_seconds"] for r in records
             if r["change"] is not None and "still_seconds" in r["change"]]
    return _ms(statistics.median(still)) if still else None


def time_groups(samples: Sequence[tuple[Sequence[str], Mapping[str, float]]]
                ) -> dict[str, dict[str, Any]]:
    """Readings' times against bare zxing-cpp's, for all readings, by resolution (full, or the
    binned mode) and by condition: the number of frames, the median of the per-frame ratios in
    CPU time (``cpu_ratio``) and in wall time (``wall_ratio``), and the medians of the
    reader's and bare zxing-cpp's CPU milliseconds. ``samples``: each reading's conditions and
    seconds (``seconds``, ``bare_seconds``, ``wall_seconds``, ``bare_wall_seconds``).

    >>> fast = {"seconds": 0.01, "bare_seconds": 0.02, "wall_seconds": 0.03,
    ...         "bare_wall_seconds": 0.02}
    >>> slow = dict(fast, seconds=0.04, bare_seconds=0.01)
    >>> groups = time_groups([(["binned", "jpeg"], slow), (["70-80 cm", "jpeg"], fast)])
    >>> list(groups)
    ['all', 'full resolution', 'binned', '70-80 cm', 'jpeg']
    >>> groups["binned"]["cpu_ratio"], groups["full resolution"]["cpu_ratio"]
    (4.0, 0.5)
    >>> groups["jpeg"]["frames"], groups["jpeg"]["cpu_ratio"], groups["jpeg"]["wall_ratio"]
    (2, 2.25, 1.5)
    """
    groups: dict[str, list[Mapping[str, float]]] = {ALL: [], FULL: [], BINNED: []}
    for conditions, seconds in samples:
        groups[ALL].append(seconds)
        groups[BINNED if BINNED in conditions else FULL].append(seconds)
        for condition in sorted(set(conditions) - {BINNED}):
            groups.setdefault(condition, []).append(seconds)
    named = sorted(set(groups) - {ALL, FULL, BINNED})
    return {name: _time_group(groups[name]) for name in [ALL, FULL, BINNED, *named]
            if groups[name]}


def _time_group(times: Sequence[Mapping[str, float]]) -> dict[str, Any]:
    def median_ratio(reader: str, bare: str) -> float:  # a clock too coarse to see bare: ∞
        return round(statistics.median(t[reader] / t[bare] if t[bare] > 0 else math.inf
                                       for t in times), 2)

    return {"frames": len(times),
            "cpu_ratio": median_ratio("seconds", "bare_seconds"),
            "wall_ratio": median_ratio("wall_seconds", "bare_wall_seconds"),
            "cpu_ms": _ms(statistics.median(t["seconds"] for t in times)),
            "bare_cpu_ms": _ms(statistics.median(t["bare_seconds"] for t in times))}


def _one_ferry_change(scene: Scene, texts: Sequence[str], before: np.ndarray,
                      bare: Callable[[np.ndarray], set[str]], scale: float, clocks: Clocks
                      ) -> dict[str, Any] | None:
    """The seconds (as in :func:`frame_records`) and counts of the same table with one card
    played, read by the frame-to-frame reader after it read the table before the play."""
    tracker_class = _tracker()
    if tracker_class is None:
        return None
    rng = random.Random(scene.seed)
    unused = sorted(set(texts) - scene.texts())
    if not unused:
        return None
    ferry = rng.choice(list(FERRIES))
    after = render_scene(scene.played(ferry, rng.choice(unused), scene.seed), scale,
                         noise_seed=scene.seed + 1)
    tracker = tracker_class()
    tracker.read(before)
    reading, took = timed(tracker.read, after.frame, clocks)
    # the work done (not the time): ferries decoded again, marker searches made
    work = {"decoded": len(getattr(tracker, "decoded_ferries", ())),
            "searches": getattr(tracker, "marker_searches", 0)}
    found, bare_took = timed(bare, after.frame, clocks)
    # the next frame of a still table, which the referee reads too before it settles
    _, still_took = timed(tracker.read, after.frame, clocks)
    return {**_seconds(took, bare_took), "still_seconds": still_took[0], **work,
            "tally": asdict(score(after.truth, reading, found))}


def _change_report(timed: dict[str, Any] | None, still_ms: float | None, tally: Tally,
                   asked: int) -> dict[str, Any]:
    if not asked:
        return {"measured": 0}
    if timed is None:
        return {"measured": 0, "why": "the reader has no frame-to-frame API "
                                      "(vision.table_tracker.TableTracker)"}
    return {"measured": timed["frames"], "ratio_to_bare": timed["cpu_ratio"],
            "wall_ratio_to_bare": timed["wall_ratio"], "cpu_ms": timed["cpu_ms"],
            "still_cpu_ms": still_ms, "pi4_ms": pi4_settle_ms(timed["cpu_ms"], still_ms),
            "read": tally.read, "visible": tally.visible, "wrong": tally.wrong,
            "noah_wrong_any": tally.noah_wrong_any, "noah_knowable": tally.noah_knowable,
            "noah_knowable_right": tally.noah_knowable_right,
            "noah_knowable_wrong": tally.noah_knowable_wrong,
            "noah_knowable_silent": tally.noah_knowable_silent}


def _seconds(took: tuple[float, float], bare_took: tuple[float, float]) -> dict[str, float]:
    """A record's times: the reader's and bare zxing-cpp's, CPU and wall."""
    return {"seconds": took[0], "bare_seconds": bare_took[0],
            "wall_seconds": took[1], "bare_wall_seconds": bare_took[1]}


def _time_lines(time_report: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """The time table: a cold frame and a one-ferry change over bare zxing-cpp, by resolution
    and condition (CPU ratio, then wall ratio)."""
    cold, plays = time_report["cold"], time_report["one_ferry"]
    lines = ["Time over bare zxing-cpp, median of per-frame ratios, CPU / wall (frames; a "
             "cold frame, then a one-ferry change):"]
    for name, row in cold.items():
        play = plays.get(name)
        played = (f"{play['cpu_ratio']}× / {play['wall_ratio']}× ({play['frames']})"
                  if play else "-")
        lines.append(f"  {name:<18} cold {row['cpu_ratio']}× / {row['wall_ratio']}× "
                     f"({row['frames']}, {row['cpu_ms']} ms against {row['bare_cpu_ms']})  "
                     f"one ferry {played}")
    return lines


def _save(folder: Path, seed: int, frame: np.ndarray, truth: SceneTruth) -> None:
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    name = f"{seed}.png"
    cv2.imwrite(str(folder / name), frame)
    with (folder / "truth.jsonl").open("a", encoding="utf-8") as out:
        out.write(json.dumps({"frame": name, "seed": seed, **truth_json(truth)},
                             ensure_ascii=False) + "\n")


def _noah_lines(t: Mapping[str, Any], r: Mapping[str, Any], seeds: Mapping[str, list[int]]
                ) -> list[str]:
    """Noah where a reader can know, his silences by why (:func:`noah_silence`), and the
    seeds of the frames worth a look (:func:`noah_seeds`)."""
    said = {"other": "silent where a reader can know", "wrong": "at a wrong ferry"}
    named = [f"  Noah {said[why]}, seeds: {', '.join(map(str, found))}"
             for why, found in seeds.items() if found]
    return [
        f"  where a reader can know (every mat shows a whole marker, true gap "
        f"{KNOWABLE_GAP_MM:g} mm or more; {t['noah_knowable']} frames): right "
        f"{t['noah_knowable_right']} ({r['noah_knowable_right']} %), wrong "
        f"{t['noah_knowable_wrong']}, nothing said {t['noah_knowable_silent']}",
        f"  nothing said, by why: forced {t['noah_silent_hidden_mat']} (a mat shows no whole "
        f"marker), near tie {t['noah_silent_near_tie']} (true gap under {KNOWABLE_GAP_MM:g} "
        f"mm), other {t['noah_knowable_silent']} (a reader could still name him)",
        *named,
    ]


def text(report: dict[str, Any]) -> str:
    """The report as lines for a terminal."""
    t, r = report["total"], report["rates"]
    lines = [
        f"Set {report['set']} (seeds {report['seeds'][0]}–{report['seeds'][-1]}), "
        f"{t['frames']} frames",
        f"Top cards read: {t['read']}/{t['visible']} ({r['read']} %); bare zxing-cpp "
        f"{t['bare']}/{t['visible']} ({r['bare']} %)",
        f"  no strong highlight: {t['clear_read']}/{t['clear']} ({r['clear_read']} %), bare "
        f"{t['clear_bare']}/{t['clear']}; under one: {t['glare_read']}/{t['glare']}, bare "
        f"{t['glare_bare']}/{t['glare']}",
        f"  visible tops on mats no reader can locate (not counted): {t['hidden_mat_tops']}",
        f"Wrong tops: {t['wrong']} ({t['wrong_buried']} buried cards', {t['foreign_taken']} "
        f"foreign codes of {t['foreign_visible']} in view)",
        f"Mats located: {t['located']}/{t['locatable']} locatable ({r['located']} %); "
        f"{t['located_extra']} more where truth saw no whole marker",
        f"Noah (his marker and mat visible, {t['noah_frames']} frames): right {t['noah_right']}, "
        f"wrong {t['noah_wrong']}, nothing said {t['noah_silent']} "
        f"({t['noah_silent_hidden_mat']} with a mat that shows no whole marker); "
        f"wrong on any frame: {t['noah_wrong_any']}",
        *_noah_lines(t, r, report.get("noah_seeds", {})),
        f"Time per frame (CPU of the process): reader {report['median_ms']} ms, bare "
        f"zxing-cpp {report['bare_median_ms']} ms; ratio {report['ratio_to_bare']}× (median "
        f"of per-frame ratios; wall time {report['wall_ratio_to_bare']}×)",
    ]
    short = report.get("short_look")
    if short and short["frames"]:
        s, sr = short["total"], short["rates"]
        lines.append(
            f"With the short look (as the app reads a still table; {short['frames']} "
            f"{'frame' if short['frames'] == 1 else 'frames'} took one, {short['cpu_ms']} ms "
            f"CPU each): read {s['read']}/{s['visible']} "
            f"({sr['read']} %); no strong highlight {s['clear_read']}/{s['clear']}; under one "
            f"{s['glare_read']}/{s['glare']}; wrong {s['wrong']}")
    change = report["one_ferry_change"]
    if change.get("measured"):
        plays = f"{change['measured']} play{'' if change['measured'] == 1 else 's'}"
        lines.append(f"One-ferry change ({plays}): ratio "
                     f"{change['ratio_to_bare']}× bare zxing-cpp (wall time "
                     f"{change['wall_ratio_to_bare']}×); read {change['read']}/"
                     f"{change['visible']}, wrong {change['wrong']}; Noah wrong on any frame "
                     f"{change['noah_wrong_any']}, where a reader can know "
                     f"{change['noah_knowable_right']}/{change['noah_knowable_wrong']}/"
                     f"{change['noah_knowable_silent']} of {change['noah_knowable']}")
        if "searched_plays" in change:
            lines.append(f"  marker search on {change['searched_plays']} of {plays}; "
                         f"ferries decoded per play {change['decoded_per_play']}")
        if change.get("pi4_ms"):
            low, high = change["pi4_ms"]
            lines.append(f"  the still frame after it: {change['still_cpu_ms']} ms; on a Pi 4, "
                         f"one frame period and both readings: {low:.0f}–{high:.0f} ms (estimate, "
                         "the session's verdict on top)")
    elif "why" in change:
        lines.append(f"One-ferry change: not measured ({change['why']})")
    lines += _time_lines(report["time"])
    lines.append("By condition (top cards read / visible, bare; no strong highlight; wrong; "
                 "Noah right/wrong/silent; wrong on any frame; where a reader can know):")
    for condition, c in report["by_condition"].items():
        lines.append(
            f"  {condition:<18} {c['frames']:>3} fr  read {c['read']}/{c['visible']} bare "
            f"{c['bare']}  clear {c['clear_read']}/{c['clear']} bare {c['clear_bare']}  "
            f"wrong {c['wrong']}  Noah {c['noah_right']}/{c['noah_wrong']}/{c['noah_silent']}"
            f" any-wrong {c['noah_wrong_any']}  knowable {c['noah_knowable_right']}/"
            f"{c['noah_knowable_wrong']}/{c['noah_knowable_silent']}")
    return "\n".join(lines)
