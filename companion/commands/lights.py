"""``noah-companion lights test``: check the ferry lights' wiring in about a minute.

Lights each LED alone (each colour, for RGB LEDs), plays every pattern, then echoes ferry-button
presses. It prints what each light is doing, drawn as a little timeline, so it is just as useful
on virtual pins (``--mock``, or automatically on a computer without GPIO) as on the Pi.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from companion.errors import UserError

if TYPE_CHECKING:  # hardware pulls in gpiozero: imported only when the command runs
    from hardware import FerryLights, LightsConfig, Snapshot

COLUMNS = 40
BLOCKS = " ▁▂▃▄▅▆▇█"
Colour = tuple[float, float, float]
WHITE: Colour = (1.0, 1.0, 1.0)
RGB_STEPS: tuple[tuple[str, Colour], ...] = (
    ("red", (1.0, 0.0, 0.0)), ("green", (0.0, 1.0, 0.0)), ("blue", (0.0, 0.0, 1.0)))


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("lights", help="ferry lights, buttons and buzzer")
    actions = parser.add_subparsers(dest="lights_action", metavar="ACTION", required=True)
    test = actions.add_parser(
        "test",
        help="light each LED, play every pattern and echo button presses (about a minute)",
        description="Walk through each ferry LED and every pattern, then echo ferry-button "
        "presses, printing what each light is doing. Ctrl-C stops and turns the lights off.",
    )
    test.add_argument("--config", type=Path, metavar="FILE",
                      help="config file whose [lights] section to use (default: the app's own)")
    test.add_argument("--mock", action="store_true",
                      help="use virtual pins, whatever the config says (no Raspberry Pi needed)")
    test.add_argument("--speed", type=float, default=1.0, metavar="X",
                      help="play everything X times faster (default 1)")
    test.add_argument("--buttons-wait", type=float, default=20.0, metavar="SECONDS",
                      help="how long to wait for ferry-button presses at the end (default 20)")
    test.set_defaults(func=run_test)


def run_test(args: argparse.Namespace) -> int:
    from hardware import FerryLights, HardwareError, release_on_exit

    if not args.speed > 0:
        raise UserError(f"--speed must be more than 0 (got {args.speed}).", "Try --speed 2.")
    config = _choose_pins(_load_config(args.config), mock=args.mock)
    try:
        lights = FerryLights(config, speed=args.speed)
    except HardwareError as error:
        raise UserError(error.what, f"{error.fix} To see the test without hardware: "
                        "noah-companion lights test --mock.") from error
    forget = release_on_exit(lights)
    try:
        with lights:
            print(describe(config))
            print("Ctrl-C stops at any time and turns the lights off.\n")
            lights.when_ferry_pressed = lambda k: print(f"  Ferry {k + 1} button pressed.")
            walk(lights, sys.stdout, hold=1.0 / args.speed)
            if config.buttons:
                virtual = config.pin_factory == "mock"
                echo_buttons(lights, sys.stdout, args.buttons_wait, virtual=virtual)
    finally:
        forget()
    print("Done: all lights are off.")
    return 0


def _load_config(path: Path | None) -> LightsConfig:
    """The ``[lights]`` settings of ``path``, or of the app's config file (validated)."""
    from companion.config import load_config

    if path is not None and not path.is_file():
        raise UserError(f"Cannot read the config file {path}: there is no such file.",
                        "Check the path given to --config.")
    return load_config(path).validated("lights")


def _choose_pins(config: LightsConfig, *, mock: bool) -> LightsConfig:
    """Virtual pins when asked, or when ``auto`` finds no GPIO at all (this is only a test)."""
    from hardware.pins import GpioHost

    if mock:
        return replace(config, pin_factory="mock")
    host = GpioHost.probe()
    if config.pin_factory == "auto" and not host.chips and not host.is_raspberry_pi:
        print("This computer has no GPIO pins: testing on virtual pins instead.\n")
        return replace(config, pin_factory="mock")
    return config


def describe(config: LightsConfig) -> str:
    """One paragraph saying what is being tested, in the builder's words."""
    pins = ", ".join("/".join(map(str, p)) if isinstance(p, tuple) else str(p)
                     for p in config.leds)
    kind = "RGB LEDs (red/green/blue)" if config.rgb else "LEDs"
    where = "virtual pins" if config.pin_factory == "mock" else f"pin library {config.pin_factory}"
    buttons = ", ".join(map(str, config.buttons)) if config.buttons else "none"
    buzzer = config.buzzer if config.buzzer is not None else "none"
    return (f"Ferry lights test on {where}. Ferry 1 to 5 {kind} on GPIO {pins}; "
            f"buttons: {buttons}; buzzer: {buzzer}.")


@dataclass
class Recorder:
    """Keeps every change of the lights, to draw what each one did during a step."""

    changes: list[tuple[float, Snapshot]] = field(default_factory=list)

    def __call__(self, snapshot: Snapshot) -> None:
        self.changes.append((time.monotonic(), snapshot))

    def timeline(self, start: float, end: float, ferry: int) -> tuple[str, str]:
        """The ferry's role during [start, end) and its brightness as block characters (the
        brightest moment of each column, so no flash is missed)."""
        columns, roles = [0.0] * COLUMNS, []
        width = (end - start) / COLUMNS
        for index, (moment, snapshot) in enumerate(self.changes):
            until = self.changes[index + 1][0] if index + 1 < len(self.changes) else end
            if until <= start or moment >= end:
                continue
            light = snapshot[ferry]
            if light.pattern != "off" and light.pattern not in roles:
                roles.append(light.pattern)
            first = int(max(moment - start, 0.0) / width)
            last = min(int((min(until, end) - start) / width), COLUMNS - 1)
            for column in range(first, max(last, first) + 1):
                columns[column] = max(columns[column], light.brightness)
        bar = "".join(BLOCKS[round(level * (len(BLOCKS) - 1))] for level in columns)
        return (", ".join(roles) or "off"), bar.rstrip()


Step = tuple[str, Callable[[], None], float]  # title, what to show, seconds to watch it


def walk(lights: FerryLights, out: TextIO, hold: float) -> None:
    """Each LED alone, then every pattern, each followed by a drawing of what the lights did."""
    recorder = Recorder()
    lights.when_changed = recorder
    recorder(lights.snapshot())
    led_steps, pattern_steps = _led_steps(lights, hold), _pattern_steps(lights, hold)
    total = len(led_steps) + len(pattern_steps)
    _run_steps(led_steps, recorder, out, first=1, total=total)
    for k in range(5):
        lights.set_colour(k, WHITE)  # RGB LEDs: the patterns in plain white
    _run_steps(pattern_steps, recorder, out, first=len(led_steps) + 1, total=total)
    lights.when_changed = None
    lights.off()


def _run_steps(steps: list[Step], recorder: Recorder, out: TextIO, *, first: int,
               total: int) -> None:
    for number, (title, start_step, seconds) in enumerate(steps, first):
        print(f"{number:2}/{total}  {title}", file=out, flush=True)
        start_step()
        begin = time.monotonic()
        time.sleep(seconds)
        for ferry in range(5):
            role, bar = recorder.timeline(begin, begin + seconds, ferry)
            print(f"       ferry {ferry + 1}  {role:<20} |{bar:<{COLUMNS}}|", file=out)


def _led_steps(lights: FerryLights, hold: float) -> list[Step]:
    """Each ferry's LED alone; each colour in turn for RGB LEDs."""
    if not lights.config.rgb:
        return [(f"Ferry {k + 1} alone: only the LED at ferry {k + 1} is lit.",
                 partial(lights.show_noah, k), hold) for k in range(5)]

    def show(k: int, colour: Colour) -> None:
        lights.set_colour(k, colour)
        lights.show_noah(k)

    return [(f"Ferry {k + 1} alone, {name}.", partial(show, k, colour), hold / 2)
            for k in range(5) for name, colour in RGB_STEPS]


def _pattern_steps(lights: FerryLights, hold: float) -> list[Step]:
    from hardware import patterns

    def playing(pattern: patterns.Pattern) -> float:  # a transient's whole length, no more
        return (pattern.duration or 0.0) / lights.speed

    beep = " (and the buzzer beeps)" if lights.config.buzzer is not None else ""
    return [
        ("Noah at ferry 1: steady.", lambda: lights.show_noah(0), 2 * hold),
        ("After a play: Noah steady at ferry 1, ferries 3 and 4 blink (where he may go).",
         lambda: lights.show_destinations(0, [2, 3]), 2 * hold),
        (f"Illegal play: ferry 1 strobes fast{beep}, then the destinations again.",
         lambda: lights.flash_illegal(0), hold),
        ("Ferry 3 departs: quick blinks, a glow and a fade.", lambda: lights.departure(2),
         playing(patterns.departure(2))),
        ("End of a round: a light runs round the table, then all flash.", lights.round_end,
         playing(patterns.round_end())),
        ("End of the game: a fast chase, then all breathe together.", lights.game_end,
         playing(patterns.game_end())),
        ("Setup: scan the card for ferry 5 (a slow pulse).", lambda: lights.prompt_scan(4),
         2 * hold),
        ("All off.", lights.off, hold / 2),
    ]


def echo_buttons(lights: FerryLights, out: TextIO, seconds: float, *, virtual: bool) -> None:
    """Light each ferry whose button is pressed, until all five were or ``seconds`` ran out."""
    if virtual:
        print("Ferry buttons are virtual here: nobody can press them, so they are skipped.",
              file=out)
        return
    pressed: set[int] = set()
    all_pressed = threading.Event()

    def on_press(k: int) -> None:
        print(f"  Ferry {k + 1} button pressed: its light is on.", file=out, flush=True)
        lights.show_noah(k)
        pressed.add(k)
        if len(pressed) == 5:
            all_pressed.set()

    lights.when_ferry_pressed = on_press
    print(f"Press each ferry's button: its light comes on. Waiting {seconds:g} s.", file=out,
          flush=True)
    all_pressed.wait(seconds)
    lights.when_ferry_pressed = None
    missing = [str(k + 1) for k in range(5) if k not in pressed]
    if missing:
        print(f"No press seen from ferry {', '.join(missing)}: check those buttons' wires "
              "(each goes from its pin to ground; see docs/wiring.md).", file=out)
    else:
        print("All five ferry buttons work.", file=out)
    lights.off()
