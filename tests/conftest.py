"""Fixtures shared by test packages (each package's own are in its conftest.py).

``no_user_config``: the test reads its own (empty) config file, never the developer's; a module
asks for it with ``pytestmark = pytest.mark.usefixtures("no_user_config")``.
"""

from __future__ import annotations

import pytest


@pytest.fixture
def no_user_config(tmp_path, monkeypatch):
    monkeypatch.setenv("NOAH_COMPANION_CONFIG", str(tmp_path / "companion.ini"))
