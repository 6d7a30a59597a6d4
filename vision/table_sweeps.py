"""The table view's "never wrong" guard sweeps (issue 19): scenes built so that a buried card's
code shows, whole or nearly, beside or under the card that covers it — in dim light, noise, glare,
a short exposure — and read by the reader as the app reads a frame. A sweep passes when no buried
code is named the top card; its controls (the same scenes with nothing over the code) say the
sweep reaches codes the reader does read, so it can fail.

Until this module, the sweeps lived in scratch scripts outside the repository and were lost with
them; each is now a function of this seam, run by ``noah-companion bench sweeps``, whose JSON lines
compare two versions of the reader scene by scene.

The seam (python-chess's variants are the model: one small type, many siblings):

- a sweep is a function ``(reader, px_per_module) -> Iterator[SweepResult]``, registered by name
  in a module's ``SWEEPS`` mapping;
- :data:`SWEEP_MODULES` lists the modules that hold sweeps, imported when a sweep runs; a module
  may also say, in ``DOCUMENTED_NAMED``, how many buried codes a sweep is known to name (a known
  limit, docs/table-view.md "Limits"; 0 when it does not say).

How a change is judged: run the sweeps on main and on the change with ``--log``, then compare the
change's log with main's (``--compare``): **no scene may be named that main does not name**.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import itertools
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TextIO

from vision.table import TableReader
from vision.table_kit import QR_MODULES_MM
from vision.table_render import CARD_MM, STICKER_AT, STICKER_CODE_MM, OverheadCamera

Kind = Literal["buried", "control"]


@dataclass(frozen=True)
class SweepResult:
    """One scene of a sweep, read.

    ``key``: the scene's name, stable across versions of the reader and unique in its sweep (its
    parameters, e.g. ``"left/0.75/-7/light0.45/noise6/blur1.1"``): two runs are compared key by
    key. ``kind``: ``"buried"`` — a card lies over (or beside) the code, which must never be named
    the top; ``"control"`` — nothing covers the code, which the reader should name.
    ``decoded``: the code's text was decoded somewhere on its ferry (the scene reached the
    top-card test). ``named``: the code was named the ferry's top card — for a buried scene, a
    wrong top. ``detail``: anything a reader of the log needs (measured distances, which look
    named it), JSON-serialisable.
    """

    key: str
    kind: Kind
    decoded: bool
    named: bool
    detail: Mapping[str, object] = field(default_factory=dict)

    @property
    def wrong(self) -> bool:
        """A buried code named the top card."""
        return self.kind == "buried" and self.named


Sweep = Callable[[TableReader, float], Iterator[SweepResult]]
"""A guard sweep: its scenes rendered at ``px_per_module`` (3: the reader's normal path; 2.3: the
binned mode's, enlarged before decoding) and read by ``reader``."""

SWEEP_MODULES: tuple[str, ...] = ("vision.table_sweeps_overlap", "vision.table_sweeps_glare")
"""The modules holding sweeps, each with a ``SWEEPS: Mapping[str, Sweep]``."""


# -- the overlap sweeps' scene: one mat, a buried card, a card laid over or beside its code --------

SWEEP_CAMERA = OverheadCamera(width=640, height=720, height_mm=750.0 * 640 / 3072)
"""One mat under a camera of 3 px per module (CAMERA's scale, a small field): cheap frames."""
BURIED = "NOAH1/BOX1/CAF1"


def sweep_camera(px_per_module: float) -> OverheadCamera:
    """:data:`SWEEP_CAMERA`'s field of the table seen at ``px_per_module``: 3 is the reader's
    normal path; 2.3 the binned mode's scale, whose zones the reader enlarges 2× before decoding
    (below its ``enlarge_below``).

    >>> sweep_camera(3.0) == SWEEP_CAMERA
    True
    >>> camera = sweep_camera(2.3)
    >>> (camera.width, camera.height, round(camera.px_per_module, 2))
    (491, 552, 2.3)
    """
    scale = px_per_module / 3.0
    width, height = round(SWEEP_CAMERA.width * scale), round(SWEEP_CAMERA.height * scale)
    return OverheadCamera(width=width, height=height, height_mm=750.0 * width / (3072 * scale))


def overlap_positions(depths: tuple[float, ...] = (0.75, 1.5, 3.0)
                      ) -> list[tuple[str, float, float, float]]:
    """(side, depth in modules, card offset dx, dy): a card without a visible sticker laid so
    that its edge runs ``depth`` modules into the buried card's code from one side, or into
    one corner of it (both edges); a negative depth lays the edge that far outside the code,
    over its quiet zone alone."""
    card_w, card_h = CARD_MM[0] / 2, CARD_MM[1] / 2
    code_x, code_y = STICKER_AT[0] - card_w, STICKER_AT[1] - card_h  # from the card's centre
    half = STICKER_CODE_MM / 2
    positions = []
    for depth in depths:
        d = depth * QR_MODULES_MM
        left, right = code_x - half + d - card_w, code_x + half - d + card_w
        above, below = code_y - half + d - card_h, code_y + half - d + card_h
        positions += [("left", depth, left, 0.0), ("right", depth, right, 0.0),
                      ("above", depth, 0.0, above), ("below", depth, 0.0, below)]
        if depth > 1 or depth < 0:  # a corner one module deep hides less than one module
            positions.append(("corner", depth, right, below))
    return positions


# -- the runner: sweeps read, their JSON lines, a summary per sweep and scale ------------------

PX_PER_MODULE = (3.0, 2.3)
"""The scales every sweep runs at: the reader's normal path and the binned mode's."""
LogKey = tuple[str, float, str]
"""A scene in a log: (sweep, px per module, the scene's key)."""


class SweepError(Exception):
    """A sweep that is not registered, or a log that cannot be read: said, never a traceback."""


def registered_sweeps() -> dict[str, tuple[Sweep, Mapping[float, int]]]:
    """Every sweep of :data:`SWEEP_MODULES` by name, with its documented named counts by scale
    (the module's ``DOCUMENTED_NAMED``; a sweep it does not list must name nothing)."""
    sweeps: dict[str, tuple[Sweep, Mapping[float, int]]] = {}
    for module_name in SWEEP_MODULES:
        module = importlib.import_module(module_name)
        documented = getattr(module, "DOCUMENTED_NAMED", {})
        for name, sweep in module.SWEEPS.items():
            sweeps[name] = (sweep, documented.get(name, {}))
    return sweeps


@dataclass
class SweepSummary:
    """One sweep at one scale, read: the counts of its log.

    ``named`` — buried codes named the top — must stay at ``documented`` (0 unless the sweep's
    module documents a known limit); ``named_by``: the named scenes by their ``detail["band"]``
    where the sweep gives one (the quiet-zone sweep: the card's distance from the code).
    """

    sweep: str
    px: float
    documented: int = 0
    scenes: int = 0
    decoded: int = 0
    named: int = 0
    controls: int = 0
    controls_read: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    named_by: Counter[str] = field(default_factory=Counter)

    def add(self, result: SweepResult) -> None:
        if result.kind == "control":
            self.controls += 1
            self.controls_read += result.named
            return
        self.scenes += 1
        self.decoded += result.decoded
        self.named += result.named
        band = result.detail.get("band")
        if result.named and band is not None:
            self.named_by[str(band)] += 1

    @property
    def passed(self) -> bool:
        """No more buried codes named than documented (0 for most sweeps)."""
        return self.named <= self.documented

    def as_json(self) -> dict[str, object]:
        figures = {name: getattr(self, name) for name in (
            "sweep", "px", "scenes", "decoded", "named", "documented", "controls",
            "controls_read")}
        return {**figures, "named_by": dict(sorted(self.named_by.items())),
                "seconds": round(self.seconds, 1), "cpu_seconds": round(self.cpu_seconds, 1),
                "passed": self.passed}


def log_line(sweep: str, px: float, result: SweepResult) -> str:
    """One scene's JSON line.

    >>> log_line("dim", 3.0, SweepResult("left/0.75/0", "buried", True, False))
    '{"sweep": "dim", "px": 3.0, "key": "left/0.75/0", "kind": "buried", "decoded": true, \
"named": false, "detail": {}}'
    """
    return json.dumps({"sweep": sweep, "px": px, "key": result.key, "kind": result.kind,
                       "decoded": result.decoded, "named": result.named,
                       "detail": dict(result.detail)})


def run_sweeps(names: Sequence[str], pxs: Sequence[float], *, log: TextIO | None = None,
               limit: int | None = None,
               results: dict[LogKey, SweepResult] | None = None) -> list[SweepSummary]:
    """Run each named sweep at each scale (a fresh :class:`TableReader` each), writing each
    scene's line to ``log`` and keeping its result in ``results``; ``limit``: only the first
    scenes of each (a smoke run). Raises :class:`SweepError` for a name not registered."""
    registered = registered_sweeps()
    unknown = [name for name in names if name not in registered]
    if unknown:
        raise SweepError(f"no sweep named {', '.join(unknown)} "
                         f"(registered: {', '.join(registered) or 'none'})")
    summaries = []
    for name in names:
        sweep, documented = registered[name]
        for px in pxs:
            summary = SweepSummary(name, px, documented.get(px, 0))
            started, cpu = time.perf_counter(), time.process_time()
            for result in itertools.islice(sweep(TableReader(), px), limit):
                summary.add(result)
                if log is not None:
                    print(log_line(name, px, result), file=log, flush=True)
                if results is not None:
                    results[(name, px, result.key)] = result
            summary.seconds = time.perf_counter() - started
            summary.cpu_seconds = time.process_time() - cpu
            summaries.append(summary)
    return summaries


# -- two logs compared scene by scene ----------------------------------------------------------


def read_log(path: str | Path) -> dict[LogKey, SweepResult]:
    """A log's scenes by (sweep, px, key). Raises :class:`SweepError`, saying which line, for a
    file that cannot be read or a line that is not a scene."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise SweepError(f"cannot read the log {path}: {error}") from None
    scenes = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            result = SweepResult(str(record["key"]), record["kind"], bool(record["decoded"]),
                                 bool(record["named"]), record.get("detail", {}))
            scenes[(str(record["sweep"]), float(record["px"]), result.key)] = result
        except (ValueError, KeyError, TypeError) as error:
            raise SweepError(f"{path}, line {number}: not a sweep's scene ({error})") from None
    return scenes


@dataclass(frozen=True)
class Comparison:
    """Two runs compared key by key, over the sweeps and scales both ran: a change is judged by
    ``newly_named`` — buried codes it names that the baseline does not — which must be empty.
    ``no_longer_named``: the other way (a gain); ``controls_lost``: controls the baseline read
    and this run does not; ``not_compared``: (sweep, px) this run has and the baseline has not."""

    newly_named: list[LogKey]
    no_longer_named: list[LogKey]
    controls_lost: list[LogKey]
    not_compared: list[tuple[str, float]]


def compare(here: Mapping[LogKey, SweepResult],
            baseline: Mapping[LogKey, SweepResult]) -> Comparison:
    """``here`` against ``baseline``, scene by scene.

    >>> named = SweepResult("a", "buried", True, True)
    >>> clear = SweepResult("a", "buried", True, False)
    >>> compare({("dim", 3.0, "a"): named}, {("dim", 3.0, "a"): clear}).newly_named
    [('dim', 3.0, 'a')]
    >>> compare({("dim", 3.0, "a"): clear}, {("dim", 3.0, "a"): named}).no_longer_named
    [('dim', 3.0, 'a')]
    """
    runs = {(sweep, px) for sweep, px, _ in baseline}
    newly, no_longer, lost = [], [], []
    for key, result in sorted(here.items()):
        if key[:2] not in runs:
            continue
        before = baseline.get(key)
        was_named = before is not None and before.named
        if result.kind == "control":
            if was_named and not result.named:
                lost.append(key)
        elif result.named and not was_named:
            newly.append(key)
        elif was_named and not result.named:
            no_longer.append(key)
    not_compared = sorted({key[:2] for key in here} - runs)
    return Comparison(newly, no_longer, lost, not_compared)


# -- ``noah-companion bench sweeps`` ------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sweep", action="append", metavar="NAME",
                        help="a sweep to run (repeatable; default: every registered one)")
    parser.add_argument("--px", action="append", choices=[f"{px:g}" for px in PX_PER_MODULE],
                        help="px per module: 3 (the normal path) or 2.3 (the binned mode's, "
                             "enlarged); repeatable, default both")
    parser.add_argument("--log", metavar="FILE",
                        help="write one JSON line per scene (sweep, px, key, kind, decoded, "
                             "named, detail)")
    parser.add_argument("--compare", metavar="BASELINE_LOG",
                        help="a log of the reader to compare with (e.g. main's): exit 1 when a "
                             "buried code is named here and not there")


def run(options: argparse.Namespace) -> int:
    """Run the sweeps; exit 0 when every sweep names no more buried codes than documented (or,
    with ``--compare``, none that the baseline does not name), 1 otherwise, 2 for bad input."""
    names = options.sweep or list(registered_sweeps())
    pxs = [float(px) for px in options.px] if options.px else list(PX_PER_MODULE)
    limit = 12 if getattr(options, "quick", False) else None
    results: dict[LogKey, SweepResult] = {}
    try:
        baseline = read_log(options.compare) if options.compare else None
        with _opened(options.log) as log:
            summaries = run_sweeps(names, pxs, log=log, limit=limit, results=results)
    except SweepError as error:
        print(f"bench sweeps: {error}", file=sys.stderr)
        return 2
    comparison = compare(results, baseline) if baseline is not None else None
    passed = (not comparison.newly_named if comparison is not None
              else all(summary.passed for summary in summaries))
    if getattr(options, "json", False):
        report: dict[str, object] = {"sweeps": [s.as_json() for s in summaries],
                                     "passed": passed}
        if comparison is not None:
            report["compare"] = {"baseline": options.compare, **{
                name: [list(key) for key in getattr(comparison, name)] for name in (
                    "newly_named", "no_longer_named", "controls_lost", "not_compared")}}
        print(json.dumps(report, indent=2))
    else:
        print("\n".join(describe(summaries, comparison, options.compare)))
    return 0 if passed else 1


@contextlib.contextmanager
def _opened(path: str | None) -> Iterator[TextIO | None]:
    if path is None:
        yield None
        return
    try:
        log = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed below, errors said
    except OSError as error:
        raise SweepError(f"cannot write the log {path}: {error}") from None
    with log:
        yield log


def describe(summaries: Sequence[SweepSummary], comparison: Comparison | None,
             baseline: str | None) -> list[str]:
    """The report's lines: one per sweep and scale, then the comparison's scenes."""
    lines = ["guard sweeps: buried codes named the top card (never, but for a documented limit)",
             f"  {'sweep':<10} {'px':>4} {'scenes':>7} {'decoded':>8} {'named':>6} "
             f"{'documented':>10} {'controls read':>14} {'wall (CPU)':>12}"]
    for s in summaries:
        by = ", ".join(f"{band}: {n}" for band, n in sorted(s.named_by.items()))
        lines.append(f"  {s.sweep:<10} {s.px:>4g} {s.scenes:>7} {s.decoded:>8} {s.named:>6} "
                     f"{s.documented:>10} {f'{s.controls_read}/{s.controls}':>14} "
                     f"{f'{s.seconds:.0f}s ({s.cpu_seconds:.0f}s)':>12}"
                     + (f"  ({by})" if by else "")
                     + ("" if s.passed else "  MORE NAMED THAN DOCUMENTED"))
    if comparison is None:
        return lines
    lines.append(f"compared with {baseline}:")
    for title, keys in (("named here and not there", comparison.newly_named),
                        ("named there and not here", comparison.no_longer_named),
                        ("controls read there and not here", comparison.controls_lost)):
        lines.append(f"  {title}: {len(keys)}")
        lines += [f"    {sweep} {px:g} {key}" for sweep, px, key in keys]
    if comparison.not_compared:
        runs = ", ".join(f"{sweep} {px:g}" for sweep, px in comparison.not_compared)
        lines.append(f"  not in the baseline, not compared: {runs}")
    return lines
