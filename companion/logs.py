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
from pathlib import Path


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


def save_bug_report(error: BaseException, folder: Path | None = None) -> Path | None:
    """Write ``error``'s traceback to a file of its own (``bug-<time>.txt`` in the app's data
    folder, or ``folder``) and return its path, or None when nothing can be written. The terminal
    then gets one sentence and this path, never the traceback itself.

    >>> import tempfile
    >>> try:
    ...     raise RuntimeError("the table view lost track")
    ... except RuntimeError as error:
    ...     path = save_bug_report(error, Path(tempfile.mkdtemp()))
    >>> path.name.startswith("bug-"), "RuntimeError: the table view lost track" in path.read_text()
    (True, True)
    """
    import time
    import traceback

    from companion import __version__
    from companion.paths import data_dir, make_private_dir

    text = f"noah-companion {__version__}\n" + "".join(traceback.format_exception(error))
    try:
        target = folder if folder is not None else data_dir() / "bugs"
        make_private_dir(target)
        path = target / f"bug-{time.strftime('%Y%m%d-%H%M%S')}-{id(error) % 10_000:04d}.txt"
        path.write_text(text, encoding="utf-8")
    except OSError:
        return None
    return path
