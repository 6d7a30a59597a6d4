"""Fixtures of the session tests: ``store``, an empty game record in the test's folder."""

from __future__ import annotations

import pytest

from companion.session.store import GameStore


@pytest.fixture
def store(tmp_path):
    with GameStore(tmp_path / "games.sqlite") as store:
        yield store
