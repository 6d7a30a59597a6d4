"""A test process that dies under ``pytest -n`` says why (issue 20.2: the whole-game UI test's
worker "crashed" with no reason given): how it ended, and Python's fault dump of every thread.

A real process plays the worker: it sets up its crash log as tests/conftest.py does in an xdist
worker, then aborts as a C library would; the controller's hook then writes the report. (The
whole path through xdist, checked by hand: ``pytest -n 1 -c /dev/null -p tests.conftest`` on a
test calling ``os.abort()`` prints the same report.)
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from types import SimpleNamespace

from tests import conftest

WORKER = textwrap.dedent("""
    import os, sys
    from types import SimpleNamespace
    from tests import conftest
    conftest.pytest_configure(SimpleNamespace(
        workerinput={"noah_crash_log_dir": sys.argv[1], "workerid": "gw0"}))
    def the_test_that_dies():
        os.abort()
    the_test_that_dies()
""")


def _crashed(tmp_path, script: str) -> SimpleNamespace:
    """The report xdist makes for a worker that ran ``script`` and died, after our hook."""
    process = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)],
                               stderr=subprocess.DEVNULL)
    worker = SimpleNamespace(gateway=SimpleNamespace(id="gw0", _io=SimpleNamespace(popen=process)),
                             config=SimpleNamespace(_noah_crash_dir=str(tmp_path)))
    report = SimpleNamespace(node=worker,
                             longrepr="worker 'gw0' crashed while running 'test_x.py::test_x'")
    conftest.pytest_handlecrashitem("test_x.py::test_x", report, sched=None)
    return report


def test_a_crashed_worker_says_how_it_died_and_where(tmp_path):
    report = _crashed(tmp_path, WORKER)
    assert report.longrepr.startswith("worker 'gw0' crashed while running 'test_x.py::test_x'\n"
                                      "It was killed by SIGABRT.\nIts fault dump (")
    assert "Fatal Python error: Aborted" in report.longrepr
    assert "line 8 in the_test_that_dies" in report.longrepr  # the dying test's own line


def test_a_worker_killed_from_outside_is_named_so(tmp_path):
    report = _crashed(tmp_path, "import os, signal; os.kill(os.getpid(), signal.SIGKILL)")
    assert report.longrepr.endswith("It was killed by SIGKILL.\nIt wrote no fault dump: it was "
                                    "killed from outside (SIGKILL: see 'dmesg' for the "
                                    "out-of-memory killer) or exited on its own.")
