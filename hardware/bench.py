"""Speed of the ferry lights on virtual pins: how fast a call shows, how exactly blinks keep
time, and what the drawing thread costs.

Run: ``.venv/bin/python -m hardware.bench [--quick] [--json]`` (shaped like the other
``noah-companion bench`` targets: ``add_arguments(parser)`` and ``run(args)``). Figures only;
nothing passes or fails on time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.config import DEFAULT_LED_PINS, LightsConfig
from hardware.lights import FerryLights
from hardware.patterns import BLINK


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="how long to watch each pattern (default 3)")


def call_latency_ms(lights: FerryLights, calls: int) -> dict[str, float]:
    """Milliseconds from a call to its return, the first frame already on the pins."""
    times = []
    for i in range(calls):
        start = time.perf_counter()
        if i % 2:
            lights.show_destinations(i % 5, [(i + 1) % 5, (i + 3) % 5])
        else:
            lights.flash_illegal(i % 5)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {"median": statistics.median(times), "p99": times[int(0.99 * (len(times) - 1))]}


def blink_error_ms(lights: FerryLights, factory: MockFactory, seconds: float) -> dict[str, float]:
    """How far each blink phase on the pin is from its nominal length, in milliseconds."""
    lights.show_destinations(0, [1])
    pin = factory.pin(DEFAULT_LED_PINS[1])
    mark = len(pin.states)
    time.sleep(seconds)
    phase = BLINK[0][2]
    errors = [abs(state.timestamp - phase) * 1000 for state in pin.states[mark:]] or [0.0]
    return {"phases": len(pin.states) - mark, "mean": statistics.fmean(errors),
            "max": max(errors)}


def cpu_percent(lights: FerryLights, show: Callable[[], object], seconds: float) -> float:
    """Process CPU time while ``show`` runs, as a percentage of one core."""
    show()
    wall, cpu = time.perf_counter(), time.process_time()
    time.sleep(seconds)
    return 100 * (time.process_time() - cpu) / (time.perf_counter() - wall)


def measure(seconds: float, calls: int) -> dict[str, Any]:
    factory = MockFactory(pin_class=MockPWMPin)
    with FerryLights(LightsConfig(), pin_factory=factory) as lights:
        figures = {
            "call_latency_ms": call_latency_ms(lights, calls),
            "blink_error_ms": blink_error_ms(lights, factory, seconds),
            "cpu_percent_steady": cpu_percent(lights, lambda: lights.show_noah(2), seconds),
            "cpu_percent_blinking": cpu_percent(
                lights, lambda: lights.show_destinations(0, [1, 2, 3, 4]), seconds),
            "cpu_percent_fading": cpu_percent(lights, lambda: lights.prompt_scan(4), seconds),
        }
    factory.close()
    return figures


def run(args: argparse.Namespace) -> int:
    seconds = 1.0 if args.quick else args.seconds
    figures = measure(seconds, calls=200 if args.quick else 2000)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    latency, blink = figures["call_latency_ms"], figures["blink_error_ms"]
    print(f"call to lit pins: median {latency['median']:.3f} ms, p99 {latency['p99']:.3f} ms")
    print(f"blink phases: {blink['phases']} measured, off by {blink['mean']:.2f} ms on average, "
          f"{blink['max']:.2f} ms at most")
    print(f"CPU (one core): steady {figures['cpu_percent_steady']:.1f} %, blinking "
          f"{figures['cpu_percent_blinking']:.1f} %, fading {figures['cpu_percent_fading']:.1f} %")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m hardware.bench", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="shorter runs (smoke test)")
    add_arguments(parser)
    raise SystemExit(run(parser.parse_args()))
