"""Fixtures shared by test packages (each package's own are in its conftest.py).

``no_user_config``: the test reads its own (empty) config file, never the developer's; a module
asks for it with ``pytestmark = pytest.mark.usefixtures("no_user_config")``.

``crash_log``: where a dying test process writes why. Under ``pytest -n 2`` a worker that dies
(a segfault in a C library, a watchdog's ``faulthandler.dump_traceback_later(..., exit=True)``,
the kernel's out-of-memory killer) used to be reported as "worker 'gw1' crashed while running
…" and nothing more: what it printed went to the test's captured output, lost with the process.
Each worker now writes Python's fault dumps (every thread's stack) to a file of its own, and the
controller adds that file and how the process ended to the crashed test's report.
"""

from __future__ import annotations

import faulthandler
import gc
import os
import signal
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

import pytest

# The Complot engine's pure modules, even where ./run.sh setup compiled them (before anything
# imports companion.complot): some tests break the referee on purpose by replacing its methods.
# tests/complot/test_native.py plays the compiled build against them; `NOAH_COMPLOT_PURE=
# pytest tests/complot` runs the folder on the compiled build (companion/complot/native.py).
os.environ.setdefault("NOAH_COMPLOT_PURE", "1")

_CRASH_DIR = "noah_crash_log_dir"
#: The open crash log of this process (faulthandler writes to its descriptor).
_crash_log: IO[str] | None = None


@pytest.fixture
def no_user_config(tmp_path, monkeypatch):
    monkeypatch.setenv("NOAH_COMPANION_CONFIG", str(tmp_path / "companion.ini"))


@pytest.fixture(scope="session")
def crash_log() -> IO[str]:
    """The file a fault dump goes to: the worker's crash log, or stderr without xdist (pass it
    as ``file=`` to ``faulthandler.dump_traceback_later``)."""
    return _crash_log or sys.__stderr__  # type: ignore[return-value]


@pytest.hookimpl(optionalhook=True)  # xdist's hooks: unknown with -p no:xdist
def pytest_configure_node(node: Any) -> None:
    """(Controller, xdist) Tell each worker where to write its crash log."""
    config = node.config
    if not hasattr(config, "_noah_crash_dir"):
        config._noah_crash_dir = tempfile.mkdtemp(prefix="pytest-crash-logs-")
    node.workerinput[_CRASH_DIR] = config._noah_crash_dir


@pytest.hookimpl(trylast=True)  # after pytest's own faulthandler plugin, which writes to stderr
def pytest_configure(config: pytest.Config) -> None:
    """(Worker) Fault dumps of every thread go to the crash log."""
    global _crash_log
    folder = getattr(config, "workerinput", {}).get(_CRASH_DIR)
    if folder is None:
        return
    _crash_log = open(Path(folder) / f"{config.workerinput['workerid']}.log", "w")  # noqa: SIM115
    faulthandler.enable(file=_crash_log, all_threads=True)


@pytest.hookimpl(trylast=True)  # the very last thing pytest does in this process
def pytest_unconfigure(config: pytest.Config) -> None:
    """Every test has run and been reported: the interpreter's exit need not look for cycles.

    Python's shutdown (``finalize_modules``) runs full garbage collections over every object
    left, and a worker that ran the UI tests holds many (Kivy's widgets, the session's
    caches): 1 s of CPU for three UI modules in one process, and 10–13 s of wall time between
    a worker's last test and its end at load 8–10 (gdb: ``gc_collect_main`` under
    ``Py_FinalizeEx``). ``gc.freeze()`` moves them out of the collector's sight; they are
    still freed as modules go. Nothing is checked after this point."""
    gc.freeze()


@pytest.hookimpl(optionalhook=True)
def pytest_handlecrashitem(crashitem: str, report: pytest.TestReport, sched: Any) -> None:
    """(Controller) Add to a crashed test's report how its worker ended and its fault dump."""
    worker = getattr(report, "node", None)
    folder = getattr(getattr(worker, "config", None), "_noah_crash_dir", None)
    if worker is None or folder is None:
        return
    ended = _how_it_ended(worker)  # first: the dump is whole once the process is gone
    log = Path(folder) / f"{worker.gateway.id}.log"
    dump = log.read_text(errors="replace").strip() if log.exists() else ""
    report.longrepr = (f"{report.longrepr}\n{ended}\n"
                       + (f"Its fault dump ({log}):\n{dump}" if dump else
                          "It wrote no fault dump: it was killed from outside (SIGKILL: see "
                          "'dmesg' for the out-of-memory killer) or exited on its own."))


def _how_it_ended(worker: Any) -> str:
    """The worker process's end, as its exit status says (when execnet lets us see it)."""
    popen = getattr(getattr(worker.gateway, "_io", None), "popen", None)
    try:
        status = popen.wait(timeout=10) if popen is not None else None
    except Exception:  # still running, or not a local process
        status = None
    if status is None:
        return "Its exit status is unknown."
    if status < 0:
        return f"It was killed by {signal.Signals(-status).name}."
    return f"It exited with status {status}."
