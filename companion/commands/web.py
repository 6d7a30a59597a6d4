"""``noah-companion web --store DB [--port N] [--token T]``: serve a record's page without the app.

A laptop at a club, or a Pi whose app is stopped: the page of a game record on the local
network, read-only (the record is opened ``mode=ro`` and never locked, so the app or a demo may
go on writing it; the page follows their changes within a second). Prints the address with its
token; Ctrl+C stops it.
"""

from __future__ import annotations

import argparse
import threading


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "web", help="serve a game record's read-only page on the local network",
        description="Serve the live table, score sheets and downloads of a game record to "
                    "phones on the local network (read-only). The address printed carries a "
                    "token: without it nothing of the games is shown.",
    )
    parser.add_argument("--store", "--db", dest="db", metavar="DB",
                        help="the game record (default: [store] path)")
    parser.add_argument("--port", type=int, metavar="N",
                        help="the port to listen on (default: [web] port, 8080)")
    parser.add_argument("--host", metavar="ADDRESS",
                        help="listen on this address only (default: [web] host, every network)")
    parser.add_argument("--token", metavar="T",
                        help="the token of the address (default: a new random one)")
    parser.add_argument("--language", metavar="LANG",
                        help="the page's language (default: [ui] language)")
    parser.add_argument("--no-mdns", action="store_true",
                        help="do not announce 'Noah table' on the network")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import signal
    import threading

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        return serve(args, stop)
    except KeyboardInterrupt:
        return 0


def serve(args: argparse.Namespace, stop: threading.Event) -> int:
    """Serve until ``stop`` is set (SIGTERM or Ctrl+C in :func:`run`)."""
    import dataclasses
    from pathlib import Path
    from typing import Any

    from companion.config import load_config
    from companion.errors import UserError
    from companion.i18n import languages
    from companion.tags.tagged_deck import load_deck_file
    from companion.ui.settings import validate_ui
    from companion.web.server import WebServer
    from companion.web.settings import WebSettings

    config = load_config()
    settings: WebSettings = config.validated("web", WebSettings.from_section)
    changes: dict[str, Any] = {"enabled": True}
    if args.port is not None:
        changes["port"] = WebSettings.from_section({"port": str(args.port)}).port
    if args.host is not None:
        changes["host"] = WebSettings.from_section({"host": args.host}).host
    if args.token is not None and not _good_token(args.token):
        raise UserError("The token may hold only letters, digits, '-' and '_' (8 to 64).",
                        "Leave --token out for a random one.")
    language = args.language or config.validated("ui", validate_ui).language
    if language not in languages():
        raise UserError(f"--language {language}: the page has no such translation.",
                        f"Write --language {' or '.join(languages())}.")
    server = WebServer(Path(args.db or config.store.path), load_deck_file(config.game.deck),
                       language=language, settings=dataclasses.replace(settings, **changes),
                       token=args.token)
    url = server.start(announce=settings.mdns and not args.no_mdns)
    print(f"The table's page: {url}\nOpen it on a phone on the same network (Ctrl+C stops).",
          flush=True)
    try:
        stop.wait()
    finally:
        server.stop()
    return 0


def _good_token(text: str) -> bool:
    """Whether ``text`` can be the address's token.

    >>> _good_token("abc-DEF_12"), _good_token("a b"), _good_token("short")
    (True, False, False)
    """
    return 8 <= len(text) <= 64 and text.isascii() and all(c.isalnum() or c in "-_" for c in text)
