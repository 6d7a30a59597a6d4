"""The ``noah-companion`` command line.

Each sub-command lives in its own module of :mod:`companion.commands` and exposes
``register(subparsers)``, which adds its parser(s) and sets ``func`` (``args -> exit status``).
Modules are discovered (but not those named ``_…``, which hold what commands share), so adding a
command never edits this file. Every parser is a :class:`~companion.commands._options.Parser`:
no abbreviated long options, and "did you mean …?" for a misspelled command or option. Command
modules keep heavy imports (Kivy, OpenCV) inside their functions so that ``--help`` stays
instant.

Without a sub-command the touchscreen app starts (``--simulate`` for virtual cards and lights).

The terminal stays quiet: warnings and errors only, each one sentence; ``--verbose`` adds the
progress lines (Kivy's included) and the libraries' own diagnostics.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from companion import __version__, commands
from companion.commands._options import Parser
from companion.errors import UserError
from companion.game import InputError
from companion.logs import configure_logging, save_bug_report
from companion.paths import protect_new_files


def build_parser() -> Parser:
    parser = Parser(
        prog="noah-companion",
        description="Referee for the card game Noah: rules, camera, ferry lights and score track.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--simulate",
        action="store_true",
        help="start the app with virtual cards and lights (no camera or GPIO needed)",
    )
    parser.add_argument(
        "--default-settings",
        action="store_true",
        help="start the app with the built-in settings, without reading the config file",
    )
    parser.add_argument(
        "--language", metavar="LANG", type=_language,
        help="the app's language for this start: en, fr or zh (default: the config file's "
        "[ui] language)",
    )
    parser.add_argument(
        "-v", "--verbose",
        action="store_true",
        help="show progress and diagnostics on the terminal (Kivy's lines included)",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(subparsers)
    return parser


def _language(text: str) -> str:
    """``--language``: one of the app's catalogs (the option is wrong, not the config file)."""
    from companion.i18n import languages

    known = languages()
    if text not in known:
        raise argparse.ArgumentTypeError(
            f"the app has no '{text}' translation; choose {' or '.join(known)}")
    return text


def _run_app(args: argparse.Namespace) -> int:
    from companion.ui.app import run_app  # Kivy is imported only when the app starts

    return run_app(simulate=args.simulate, default_settings=args.default_settings,
                   verbose=args.verbose, language=args.language)


def main(argv: Sequence[str] | None = None) -> int:
    protect_new_files()  # whatever the login's umask: nothing the app makes is others' to write
    parser = build_parser()
    # A command that sets ``passes_options`` parses the rest itself (``bench TARGET ...``).
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "passes_options", False):
        parser.refuse(extra, args)
    args.extra_options = extra
    configure_logging(args.verbose)
    func = getattr(args, "func", _run_app)
    try:
        return int(func(args) or 0)
    except (UserError, InputError) as error:
        print(f"noah-companion: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `noah-companion replay LOG | head`
        return 0
    except Exception as error:  # a bug: one sentence and where the details are, no traceback
        report = save_bug_report(error)
        if report is None:  # nowhere to write it: the details go to the terminal after all
            import traceback

            traceback.print_exception(error)
        print(bug_sentence(error, report or "what this command printed"), file=sys.stderr)
        return 70  # EX_SOFTWARE


def bug_sentence(error: BaseException, report: object) -> str:
    """What the terminal says about a bug (not the user's mistake): what happened, that the
    record is safe, and what to send.

    >>> print(bug_sentence(RuntimeError("lost track"), "/tmp/bug-1.txt"))
    noah-companion: something went wrong inside the program (RuntimeError: lost track). Every \
move accepted before this was saved. Please send /tmp/bug-1.txt with a few words on what you did.
    """
    return (f"noah-companion: something went wrong inside the program ({type(error).__name__}: "
            f"{error}). Every move accepted before this was saved. Please send {report} with a "
            f"few words on what you did.")


if __name__ == "__main__":
    sys.exit(main())
