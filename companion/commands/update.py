"""``noah-companion update``: install a new version beside the running one, check it, switch
with one atomic rename, and go back by hand (``--rollback``) or by itself when the new version
does not come up healthy. The work is in :mod:`companion.update`; on the Raspberry Pi run it as
``sudo noah-companion update`` (docs/raspberry-pi.md, section 11)."""

from __future__ import annotations

import argparse
from pathlib import Path

PREFIX = Path("/opt/noah-companion")  # the install prefix (deploy/install.sh's)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "update", help="install a new version beside this one, check it, switch; --rollback",
        description="Install a new version beside the running one, run its doctor and a short "
                    "seeded game, then switch to it with one atomic rename. The service goes "
                    "back to the previous version by itself if the new one does not come up "
                    "healthy within a minute; --rollback goes back by hand.",
    )
    add_arguments(parser)
    parser.set_defaults(func=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", dest="source", metavar="GIT-URL|WHEEL|DIR",
                        help="where the new version comes from (default: where it was "
                             "installed from, PREFIX/source)")
    parser.add_argument("--rollback", action="store_true",
                        help="go back to the previous version (run again: forward again)")
    parser.add_argument("--if-on-trial", action="store_true",
                        help="with --rollback: only if the running version is on trial (what "
                             "the service's rollback unit runs)")
    parser.add_argument("--self-test", action="store_true",
                        help="check the running version before the service starts it, if it "
                             "is on trial (the service's ExecStartPre)")
    parser.add_argument("--no-restart", action="store_true",
                        help="switch, but leave the running app alone (the next start uses "
                             "the new version)")
    parser.add_argument("--prefix", type=Path, default=PREFIX,
                        help=f"the install prefix (default {PREFIX})")
    parser.add_argument("--db", type=Path, metavar="FILE",
                        help="the game record, to give an older version the schema it reads "
                             "on --rollback (default: [store] path)")


def run(args: argparse.Namespace) -> int:
    from companion.update import run as run_update

    return run_update(args)
