"""Fixtures shared by test modules.

``ui_driver``: the touchscreen app, headless (SDL offscreen + Mesa). Kivy has one window per
process, so every Kivy test module shares this one app (session scope; under ``pytest -n 2``
each worker builds its own). A watchdog ends the process with a traceback if anything hangs,
so a stuck UI can never stall CI.
"""

from __future__ import annotations

import faulthandler

import pytest

WATCHDOG_SECONDS = 300


@pytest.fixture(scope="session")
def ui_driver(tmp_path_factory):
    faulthandler.dump_traceback_later(WATCHDOG_SECONDS, exit=True)
    from companion.ui.driver import HeadlessApp

    app = HeadlessApp(tmp_path_factory.mktemp("ui"), simulate=True, quick_camera=True)
    app.start()
    # The live view's texture uploads are slow in software GL (Mesa llvmpipe): only the test
    # of the view itself turns it on.
    app.app.camera_tap = None
    try:
        yield app
    finally:
        app.stop()
        faulthandler.cancel_dump_traceback_later()
