"""Sub-commands of ``noah-companion``: one module each, discovered by :mod:`companion.cli`.

A module here defines ``register(subparsers: argparse._SubParsersAction) -> None`` which adds its
parser(s) with ``set_defaults(func=...)``; ``func(args)`` returns the exit status. Raise
:class:`companion.errors.UserError` for anything the user can fix. Import heavy libraries inside
``func``, never at module level.
"""
