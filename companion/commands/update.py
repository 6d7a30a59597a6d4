"""``noah-companion update``: install a new version beside the running one, check it, switch
with one atomic rename, and go back by hand (``--rollback``) or by itself when the new version
does not come up healthy. The work is in :mod:`companion.update`; on the Raspberry Pi run it as
``sudo noah-companion update`` (docs/raspberry-pi.md, section 11)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "update", help="install a new version beside this one, check it, switch; --rollback",
        description="Install a new version beside the running one, run its doctor and a short "
                    "seeded game, then switch to it with one atomic rename. The service goes "
                    "back to the previous version by itself if the new one does not come up "
                    "healthy within a minute; --rollback goes back by hand.",
    )
    from companion.update import add_arguments  # standard library only: cheap

    add_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.update import run as run_update

    return run_update(args)
