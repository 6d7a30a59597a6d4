"""``noah-companion demo --web``: the demo game, with its page served while it is played.

The record is made first (the page follows it from its first line); the server reads it
read-only, as it would a record written by the app or by another process, and the page stays up
after the game until Ctrl+C so that it can be looked at.
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path


def run_with_page(args: argparse.Namespace, play: Callable[[argparse.Namespace], int]) -> int:
    from companion.config import load_config
    from companion.session.store import GameStore
    from companion.tags.tagged_deck import load_deck_file
    from companion.ui.settings import validate_ui
    from companion.web.server import WebServer
    from companion.web.settings import WebSettings

    config = load_config()
    db = Path(args.db) if args.db else Path(tempfile.mkdtemp(prefix="noah-demo-")) / "games.sqlite"
    GameStore(db).close()  # the record exists before the page opens it (read-only)
    settings = config.validated("web", WebSettings.from_section)
    port = args.web or settings.port
    server = WebServer(db, load_deck_file(config.game.deck),
                       language=config.validated("ui", validate_ui).language,
                       settings=dataclasses.replace(settings, enabled=True, port=port))
    url = server.start()
    print(f"The game's page: {url}\n(open it on a phone on the same network)\n", flush=True)
    try:
        status = play(argparse.Namespace(**{**vars(args), "web": None, "db": str(db)}))
        print(f"\nThe page stays up: {url}\nCtrl+C stops it.", flush=True)
        threading.Event().wait()
    except KeyboardInterrupt:
        status = 0
    finally:
        server.stop()
    return status

