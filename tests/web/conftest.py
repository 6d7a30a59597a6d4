"""The LAN page's fixtures: a record with a finished game (made once, copied per module) and its
servers, one headless chromium shared by a module (starting one costs about two seconds)."""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.game import default_deck
from companion.session import GameStore, Session
from companion.web.server import WebServer
from companion.web.settings import WebSettings

TOKEN = "test-token-1234"
EXAMPLE = Path(__file__).parents[2] / "examples" / "three-players.jsonl"
LOOPBACK = WebSettings(enabled=True, port=0, host="127.0.0.1", mdns=False, max_clients=8)


def wait_for(condition: Callable[[], object], what: str, timeout: float = 20.0) -> object:
    """Poll ``condition`` until it is true; the timeout only bounds a hang (never a speed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"gave up waiting: {what}")


@pytest.fixture(scope="package")
def example_record(tmp_path_factory):
    """A record whose game 1 is examples/three-players.jsonl (finished), made once."""
    path = tmp_path_factory.mktemp("web") / "example.sqlite"
    with GameStore(path) as store:
        # Copying the example needs no fsync per line (durability is tested in tests/session)
        store._db.execute("PRAGMA synchronous=OFF")
        header, *lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
        game_id = store.create_game(json.loads(header))
        for line in lines:
            store.append(game_id, json.loads(line))
    return path


@pytest.fixture(scope="module")
def table(example_record, tmp_path_factory):
    """A writer session over a copy of the example record, and two servers of it: ``app`` fed
    by the session's views (as in the app) and ``record`` following the record itself (as
    ``noah-companion web`` does). One per module: each adds games of its own."""
    path = tmp_path_factory.mktemp("web") / "games.sqlite"
    shutil.copyfile(example_record, path)
    store = GameStore(path)
    session = Session(store)
    app = WebServer(path, default_deck(), settings=LOOPBACK, token=TOKEN, follow_record=False)
    record = WebServer(path, default_deck(), settings=LOOPBACK, token=TOKEN)
    app.start()
    record.start()
    unsubscribe = app.follow(session)
    yield SimpleNamespace(session=session, app=app, record=record)
    unsubscribe()
    app.stop()
    record.stop()
    store.close()


@pytest.fixture(scope="module")
def browser():
    pytest.importorskip("selenium")
    from companion.ui.driver import slowness
    from companion.web.browser import chromium

    try:
        with chromium() as driver:
            yield driver
    except Exception as error:  # no chromium on this machine: say so, do not fail
        if "chromium" in str(error).lower():
            pytest.skip(str(error))
        if "Can not connect to the Service" in str(error) and slowness() > 1:
            # selenium waits about 30 s for chromedriver, a fixed count it does not let us
            # change; emulated (deploy/test-arm64.sh), chromedriver starts slower than that
            pytest.skip(f"chromedriver did not answer in time on this emulated machine: {error}")
        raise


def base(server: WebServer) -> str:
    return f"http://127.0.0.1:{server.port}"


def in_thread(work: Callable[[], object]) -> threading.Thread:
    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread
