"""``noah-companion bench vision``: decoders and the pipeline, on real photos and table frames.

Figures (one core: OpenCV's own threads are turned off):

* decode counts and median time per image on the shared real photos
  (``../shared/bench/qr-real``, 170 images with their expected texts);
* per-frame time at 640×480 and 1280×720 on rendered table frames (empty, one card, two cards,
  a foreign code) for each bare decoder and for the pipeline as configured (its decoder, scan
  zone and tracker), and the pipeline's overhead over the bare default decoder as a ratio;
* decode counts on difficult frames of our own stickers (blur, tilt, glare, dim light, noise,
  small stickers) at both sizes;
* phantom card events over frames without our codes, and frames from a card entering a still
  view to its event;
* a threaded run on the virtual camera: frames captured, decoded and dropped, latency.

Benchmarks report; they never pass or fail.
"""

from __future__ import annotations

import argparse
import json
import operator
import os
import platform
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from vision.config import DecoderSettings
from vision.decoders import DECODERS, DEFAULT_DECODER, Decoder, make_decoder, to_gray
from vision.synthetic import Scene, render_frame

CARDS = ("NOAH1/BOX1/CAF2", "NOAH1/BOX1/LIM1", "NOAH1/BOX1/ELF2")
FOREIGN = "https://bombyx.fr"
SIZES = ((640, 480), (1280, 720))
HARD: dict[str, dict[str, float]] = {  # what makes a frame difficult -> Scene settings
    "blur σ1.2": dict(blur=1.2),
    "tilt 40°": dict(tilt_deg=40),
    "tilt 55°": dict(tilt_deg=55),
    "glare 0.5": dict(glare=0.5),
    "glare 0.8": dict(glare=0.8),
    "dim room": dict(light=0.35, noise=6),
    "noise σ10": dict(noise=10),
    "turned 30°": dict(rotation_deg=30),
    "turned 45°": dict(rotation_deg=45),
    "14 mm sticker": dict(sticker_mm=14),
}
REAL_SET = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "qr-real"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--real", type=Path, default=REAL_SET, metavar="DIR",
                        help="folder of real QR photos with NAME.txt expected texts")


def run(args: argparse.Namespace) -> int:
    import cv2

    cv2.setNumThreads(1)  # one core, as the issue asks
    quick = getattr(args, "quick", False)
    report = {
        "machine": _machine(),
        "real_photos": real_photos(getattr(args, "real", REAL_SET)),
        "frame_time": frame_times(repeats=3 if quick else 10),
        "hard_frames": hard_frames(seeds=2 if quick else 6),
        "phantoms": phantoms(frames=60 if quick else 300),
        "frames_to_event": frames_to_event(),
        "threaded": threaded_run(seconds=2 if quick else 6),
    }
    print(json.dumps(report, indent=2, ensure_ascii=False) if args.json else _text(report))
    return 0


def bench_decoders() -> dict[str, Decoder]:
    """Each bare decoder, and the pipeline's as configured by default."""
    decoders: dict[str, Decoder] = {name: make_decoder(name) for name in DECODERS}
    decoders["pipeline"] = DecoderSettings().decoder()
    return decoders


# -- the shared real photos -------------------------------------------------------------------

@dataclass(frozen=True)
class Photo:
    name: str
    gray: np.ndarray
    expected: str


def load_photos(folder: Path) -> list[Photo]:
    """The photos with an expected text beside them (``NAME.txt``), as grey frames."""
    import cv2

    photos = []
    for path in sorted(folder.rglob("*")):
        expected = path.with_suffix(".txt")
        if path.suffix.lower() in (".png", ".jpg", ".jpeg") and expected.exists():
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            text = expected.read_bytes().decode("utf-8")
            photos.append(Photo(path.relative_to(folder).as_posix(), to_gray(image), text))
    return photos


def real_photos(folder: Path) -> dict[str, Any]:
    if not folder.is_dir():
        return {"skipped": f"no folder {folder}"}
    photos = load_photos(folder)
    results: dict[str, Any] = {"images": len(photos)}
    read_by: dict[str, set[str]] = {}
    for name, decoder in bench_decoders().items():
        times, read = [], set()
        for photo in photos:
            started = time.perf_counter()
            texts = [d.text for d in decoder.decode(photo.gray)]
            times.append(time.perf_counter() - started)
            if photo.expected in texts:
                read.add(photo.name)
        read_by[name] = read
        results[name] = {"decoded": len(read), "median_ms": _ms(statistics.median(times))}
    results["any_decoder"] = len(set().union(*read_by.values()))
    return results


# -- rendered table frames --------------------------------------------------------------------

def table_frames(width: int, height: int) -> list[np.ndarray]:
    """Frames as the table camera sees them: empty, one card, two cards, a foreign code."""
    camera_mm = _camera_mm(width)
    frames = []
    for seed in range(4):
        scene = Scene(width=width, height=height, camera_height_mm=camera_mm, seed=seed,
                      rotation_deg=17 * seed)
        for cards in ((), (CARDS[seed % 3],), CARDS[:2], (FOREIGN,)):
            frames.append(render_frame(cards, scene))
    return frames


def frame_times(repeats: int) -> dict[str, Any]:
    """Median per-frame time of each decoder and of the pipeline's processing step."""
    from vision.pipeline import Pipeline

    results: dict[str, Any] = {}
    for width, height in SIZES:
        steps: dict[str, Callable[[np.ndarray], object]] = {
            name: d.decode for name, d in bench_decoders().items() if name != "pipeline"}
        pipeline = Pipeline(_NoSource(), is_ours=lambda text: text.startswith("NOAH"))
        steps["pipeline"] = _pipeline_step(pipeline)
        times = _times(steps, table_frames(width, height), repeats)
        row: dict[str, Any] = {
            name: _ms(statistics.median(values)) for name, values in times.items()
        }
        # Paired: each frame's pipeline time over the bare decoder's, measured back to back,
        # so a load spike from other processes hits both sides of one ratio alike.
        ratios = map(operator.truediv, times["pipeline"], times[DEFAULT_DECODER])
        row["pipeline_over_bare"] = round(statistics.median(ratios), 2)
        results[f"{width}x{height}"] = row
    return results


def _pipeline_step(pipeline: Any) -> Callable[[np.ndarray], None]:
    """What the decode thread does with one frame: decode the scan zone, track, emit."""
    def step(frame: np.ndarray) -> None:
        pipeline._process(frame, time.monotonic())
        while not pipeline.events.empty():
            pipeline.events.get_nowait()

    return step


def _times(functions: dict[str, Callable[[np.ndarray], object]],
           frames: Sequence[np.ndarray], repeats: int) -> dict[str, list[float]]:
    """Every per-frame time of each function, taken in turns on each frame so that a busy
    machine slows them all alike (the lists are aligned: same frame, same index)."""
    times: dict[str, list[float]] = {name: [] for name in functions}
    for _ in range(repeats):
        for frame in frames:
            for name, function in functions.items():
                started = time.perf_counter()
                function(frame)
                times[name].append(time.perf_counter() - started)
    return times


def hard_scenes(width: int, height: int, seeds: int) -> Iterator[tuple[str, Scene]]:
    camera_mm = _camera_mm(width)
    for label, settings in HARD.items():
        for seed in range(seeds):
            turn = settings.get("rotation_deg", 13 * seed)
            changes = {k: v for k, v in settings.items() if k != "rotation_deg"}
            yield label, Scene(width=width, height=height, camera_height_mm=camera_mm,
                               seed=seed, rotation_deg=turn, **changes)


def hard_frames(seeds: int) -> dict[str, Any]:
    """How many difficult frames of one sticker each decoder reads, per difficulty and size."""
    decoders = bench_decoders()
    results: dict[str, Any] = {}
    for width, height in SIZES:
        counts: dict[str, dict[str, int]] = {}
        for label, scene in hard_scenes(width, height, seeds):
            frame = render_frame([CARDS[0]], scene)
            row = counts.setdefault(label, dict.fromkeys(decoders, 0))
            for name, decoder in decoders.items():
                row[name] += CARDS[0] in [d.text for d in decoder.decode(frame)]
        totals = {name: sum(row[name] for row in counts.values()) for name in decoders}
        results[f"{width}x{height}"] = {"frames": len(HARD) * seeds, "total": totals,
                                        "by_difficulty": counts}
    return results


# -- tracking -----------------------------------------------------------------------------------

def phantoms(frames: int, size: tuple[int, int] = (1280, 720)) -> dict[str, Any]:
    """Card events over frames with no code or only a foreign one (the target is zero)."""
    from vision.tracker import Tracker

    decoder = DecoderSettings().decoder()
    tracker = Tracker(lambda text: text.startswith("NOAH"))
    events: list[Any] = []
    for index in range(frames):
        scene = Scene(width=size[0], height=size[1], camera_height_mm=_camera_mm(size[0]),
                      seed=index % 8, rotation_deg=index % 40, glare=0.3 * (index % 3),
                      light=0.5 + 0.1 * (index % 6))
        cards = (FOREIGN,) if index // 10 % 2 else ()  # a foreign code shown now and then
        texts = [d.text for d in decoder.decode(render_frame(cards, scene))]
        events += tracker.update(texts, captured_at=index / 15)
    kinds = [type(e).__name__ for e in events]
    return {"frames": frames, "card_events": kinds.count("CardShown"),
            "foreign_events": kinds.count("ForeignCode")}


def frames_to_event() -> dict[str, Any]:
    """Frames from a card entering a still view (the first frame it is in) to its event."""
    from vision.tracker import Tracker

    decoder = DecoderSettings().decoder()
    counts: list[int | None] = []
    for width, height in SIZES:
        for seed in range(4):
            scene = Scene(width=width, height=height, seed=seed, rotation_deg=10 * seed,
                          camera_height_mm=_camera_mm(width))
            tracker = Tracker()
            frames = [render_frame([], scene)] * 3 + [render_frame([CARDS[1]], scene)] * 10
            for index, frame in enumerate(frames):
                texts = [d.text for d in decoder.decode(frame)]
                if tracker.update(texts, captured_at=index / 15):
                    counts.append(index - 3 + 1)
                    break
            else:
                counts.append(None)
    found = [c for c in counts if c is not None]
    return {"views": len(counts), "max_frames": max(found) if found else None,
            "missed": counts.count(None)}


def threaded_run(seconds: float) -> dict[str, Any]:
    """The real threads on the virtual camera at 15 frames a second, 1280×720."""
    from vision.events import CardRemoved, CardShown
    from vision.pipeline import Pipeline
    from vision.synthetic import SyntheticSource

    camera = SyntheticSource(Scene(width=1280, height=720), fps=15)
    latencies: list[float] = []
    shown = 0
    with Pipeline(camera) as pipeline:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            camera.present(CARDS[shown % 3])
            event = pipeline.next_event(CardShown, timeout=5)
            if event is not None:
                shown += 1
                latencies.append(event.latency)
            camera.clear()
            pipeline.next_event(CardRemoved, timeout=5)
        stats = pipeline.stats()
    return {
        "fps": 15, "size": "1280x720", "cards_shown": shown,
        "captured": stats.captured, "decoded": stats.decoded, "dropped": stats.dropped,
        "mean_decode_ms": _ms(stats.mean_decode_time),
        "median_latency_ms": _ms(statistics.median(latencies)) if latencies else None,
        "max_latency_ms": _ms(max(latencies)) if latencies else None,
    }


def _camera_mm(width: int) -> float:
    """How high the camera sits: 40 cm at 1280 px across; closer with fewer pixels, so that a
    20 mm sticker still gets about 2 px per module (docs/vision.md, 'Placing the camera')."""
    return 400.0 if width >= 1280 else 250.0


class _NoSource:
    name = "no source"

    def open(self) -> None: ...

    def read(self) -> None: ...

    def close(self) -> None: ...


# -- report -------------------------------------------------------------------------------------

def _machine() -> dict[str, Any]:
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": _cpu_name(), "cores": os.cpu_count(), "python": platform.python_version(),
        "system": f"{platform.system()} {platform.machine()}",
        "load_average": round(os.getloadavg()[0], 2),
    }


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _text(report: dict[str, Any]) -> str:
    m = report["machine"]
    lines = [f"Vision benchmark, {m['date']}: {m['cpu']}, {m['cores']} cores, Python "
             f"{m['python']}, load {m['load_average']} (one core used)", ""]
    real = report["real_photos"]
    if "skipped" in real:
        lines.append(f"Real photos: skipped ({real['skipped']}).")
    else:
        lines.append(f"Real photos ({real['images']}): decoded / median time per image")
        for name, row in real.items():
            if isinstance(row, dict):
                lines.append(f"  {name:<10} {row['decoded']:>4}   {row['median_ms']:.2f} ms")
        lines.append(f"  any of them {real['any_decoder']:>3}")
    lines += ["", "Per-frame time on table frames (median, ms):"]
    for size, row in report["frame_time"].items():
        cells = ", ".join(f"{k} {v}" for k, v in row.items() if k != "pipeline_over_bare")
        lines.append(f"  {size:<9} {cells}; pipeline / bare {DEFAULT_DECODER} "
                     f"(median of per-frame ratios): {row['pipeline_over_bare']}×")
    lines += ["", "Difficult frames of our stickers, decoded:"]
    for size, block in report["hard_frames"].items():
        totals = ", ".join(f"{k} {v}" for k, v in block["total"].items())
        lines.append(f"  {size:<9} of {block['frames']}: {totals}")
    p, f, t = report["phantoms"], report["frames_to_event"], report["threaded"]
    lines += [
        "",
        f"Phantom card events over {p['frames']} frames without our codes: {p['card_events']}"
        f" (foreign-code events: {p['foreign_events']})",
        f"Frames from a card entering a still view to its event: at most {f['max_frames']} "
        f"({f['views']} views, {f['missed']} missed)",
        f"Threaded, {t['size']} at {t['fps']} fps: {t['cards_shown']} cards shown, "
        f"{t['captured']} frames captured, {t['decoded']} decoded, {t['dropped']} dropped; "
        f"decode {t['mean_decode_ms']} ms, latency median {t['median_latency_ms']} ms, "
        f"max {t['max_latency_ms']} ms",
    ]
    return "\n".join(lines)
