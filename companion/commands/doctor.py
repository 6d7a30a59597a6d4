"""``noah-companion doctor``: check that this machine is ready to referee, and say what to fix.

One line per check (✓ fine, ! works but worth fixing, ✗ missing, each with its fix); exit status
0 when nothing needed is missing, 1 otherwise. On the Raspberry Pi run it as the service runs:
``sudo noah-companion doctor``.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.commands._options import add_json

CLEAR_LINE = "\r\x1b[K"  # back to the start of the line, and blank it


def _checking(subject: str) -> None:
    """On a terminal, what is being checked, until its line replaces it."""
    print(f"{CLEAR_LINE}  checking: {subject}…", end="", flush=True)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="check Python, packages, camera, decoding, lights, screen, touch, files, service",
        description="Check that this machine is ready to referee a game, and say what to fix.",
    )
    add_json(parser, "print the findings as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not args.json:  # at once: the imports and the camera checks take seconds on a Pi
        print("Checking this machine, one line per check…", flush=True)
    from companion.doctor import Machine, ready, run_checks

    live = not args.json and sys.stdout.isatty()
    findings = []
    for finding in run_checks(Machine.here(), on_start=_checking if live else None):
        findings.append(finding)
        if not args.json:
            end = CLEAR_LINE if live else ""
            print(end + finding.line(), flush=True)  # one at a time, as each check ends
    is_ready = ready(findings)
    if args.json:
        json.dump({"ready": is_ready, "checks": [f.to_json() for f in findings]},
                  sys.stdout, ensure_ascii=False, indent=2)
        print()
    elif is_ready:
        print("Ready to referee.")
    else:
        print("Not ready: fix the lines marked ✗ and run the doctor again.")
    return 0 if is_ready else 1
