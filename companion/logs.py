"""Where the app's log lines go: one set-up for the command line and for the touchscreen app's
error screen (which sets it again after Kivy replaced it), so neither imports the other.

The terminal stays quiet: warnings and errors only, each one sentence; ``verbose`` adds the
progress lines (Kivy's included) and the libraries' own diagnostics.

>>> configure_logging(verbose=False)
>>> logging.getLogger().level == logging.WARNING
True
"""

from __future__ import annotations

import logging
import sys


def configure_logging(verbose: bool) -> None:
    """Log lines on stderr: warnings and errors only (Kivy's own warnings need ``--verbose``:
    they are for developers), everything from INFO up with ``verbose``."""
    handler = logging.StreamHandler(sys.stderr)
    if verbose:
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("noah-companion: %(message)s"))
        handler.addFilter(_quiet_libraries)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO if verbose else logging.WARNING)


def _quiet_libraries(record: logging.LogRecord) -> bool:
    return not record.name.startswith("kivy") or record.levelno >= logging.ERROR
