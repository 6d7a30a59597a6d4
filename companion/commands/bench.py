"""``noah-companion bench TARGET``: speed measurements, written for docs/benchmarks.md.

Each target is a module with ``add_arguments(parser)`` and ``run(args) -> int``. It is imported
only when that target runs, with its own options parsed then, so the vision benchmark never loads
Kivy, the app's never loads OpenCV, and ``noah-companion --help`` loads neither. Benchmarks report
figures; they never pass or fail on time.
"""

from __future__ import annotations

import argparse
import importlib

from companion.commands._options import Parser, add_json, add_quiet, elapsed_bar, shows_progress

TARGETS = {
    "rules": ("companion.game.bench", "rules engine: loadings and games per second"),
    "vision": ("vision.bench", "decoders and the capture pipeline on real and rendered frames"),
    "session": ("companion.sim.bench", "referee session: intent to durable acknowledgement"),
    "app": ("companion.ui.bench", "touchscreen app: launch time, frame rate, peak memory"),
    "lights": ("hardware.bench", "ferry lights: call latency, blink timing, drawing-thread CPU"),
    "table": ("vision.table_bench", "table view: top cards and Noah read from overhead frames"),
    "noah": ("vision.table_noah_sweep", "table view: Noah's ferry, a sweep of spots round mats"),
    "sweeps": ("vision.table_sweeps", "table view: the never-wrong guard sweeps, buried codes "
               "named"),
    "complot": ("companion.complot.bench", "Complot referee: claim checks and games per second"),
    "web": ("companion.web.bench", "LAN page: 50 phones following a game, latency and memory"),
}



def _sticker_texts() -> list[str]:
    """Every sticker text of the default deck: the table benchmark lays these cards on its
    tables (vision never imports companion, so the texts are handed in)."""
    from companion.game.deck import default_deck
    from companion.tags.payload import DEFAULT_DECK_ID, encode

    return [encode(DEFAULT_DECK_ID, card) for card in default_deck()]


INPUTS = {"table": {"sticker_texts": _sticker_texts}}
"""What a target needs from companion, set on its options before it runs."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure speed (rules, vision, session, app, lights, table, sweeps, complot, web)",
        description="Measure speed. 'noah-companion bench TARGET --help' lists a target's options.",
    )
    targets = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    for name, (module_name, help_text) in TARGETS.items():
        # The target's own parser (built in run) reads every option, --help included.
        target = targets.add_parser(name, help=help_text, add_help=False)
        target.set_defaults(func=_runner(name, module_name, help_text), passes_options=True)


def _runner(name: str, module_name: str, help_text: str):
    def run(args: argparse.Namespace) -> int:
        module = importlib.import_module(module_name)
        parser = Parser(prog=f"noah-companion bench {name}", description=help_text)
        add_json(parser, "print the figures as JSON")
        parser.add_argument("--quick", action="store_true", help="fewer repetitions (smoke run)")
        add_quiet(parser, "no running time on the terminal while measuring")
        module.add_arguments(parser)
        options = parser.parse_args(args.extra_options)
        for option, supply in INPUTS.get(name, {}).items():
            setattr(options, option, supply())
        with elapsed_bar(f"bench {name}", shows_progress(options.quiet or options.json)):
            return module.run(options)

    return run
