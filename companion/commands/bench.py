"""``noah-companion bench TARGET``: speed measurements, written for docs/benchmarks.md.

Each target is a module with ``add_arguments(parser)`` and ``run(args) -> int``, imported only
when that target runs (so the vision benchmark never loads Kivy and vice versa). Benchmarks
report figures; they never pass or fail on time.
"""

from __future__ import annotations

import argparse
import importlib

TARGETS = {
    "rules": ("companion.game.bench", "rules engine: loadings and games per second"),
    "vision": ("vision.bench", "decoders and the capture pipeline on real and rendered frames"),
    "app": ("companion.ui.bench", "touchscreen app: launch time, frame rate, peak memory"),
    "lights": ("hardware.bench", "ferry lights: call latency, blink timing, drawing-thread CPU"),
}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="measure speed (rules, vision, app, lights)")
    targets = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    for name, (module_name, help_text) in TARGETS.items():
        target = targets.add_parser(name, help=help_text)
        target.add_argument("--json", action="store_true", help="print the figures as JSON")
        target.add_argument("--quick", action="store_true", help="fewer repetitions (smoke run)")
        target.set_defaults(func=_runner(module_name), bench_module=module_name)
        _add_target_arguments(module_name, target)


def _add_target_arguments(module_name: str, parser: argparse.ArgumentParser) -> None:
    """Let a target add its own options, if it can be imported cheaply."""
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return
    add_arguments = getattr(module, "add_arguments", None)
    if add_arguments is not None:
        add_arguments(parser)


def _runner(module_name: str):
    def run(args: argparse.Namespace) -> int:
        return importlib.import_module(module_name).run(args)

    return run
