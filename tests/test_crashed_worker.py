"""A test process that dies under ``pytest -n`` says why (issue 20.2: the whole-game UI test's
worker "crashed" with no reason given): how it ended, and Python's fault dump of every thread."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_a_crashed_worker_says_how_it_died_and_where(tmp_path):
    (tmp_path / "test_dies.py").write_text(textwrap.dedent("""
        import os

        def test_a_c_library_aborts():
            os.abort()
    """))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "1", "-c", "/dev/null", "-p", "tests.conftest",
         "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(tmp_path / "test_dies.py")],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 1
    report = run.stdout
    assert "worker 'gw0' crashed while running 'test_dies.py::test_a_c_library_aborts'" in report
    assert "It was killed by SIGABRT." in report and "Fatal Python error: Aborted" in report
    assert 'line 5 in test_a_c_library_aborts' in report  # the dying test's own line
