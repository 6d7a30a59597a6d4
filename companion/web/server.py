"""The LAN page's server: aiohttp in its own thread and event loop, never Kivy's UI thread.

Every route needs the random token made at each start (``?token=…``): without it ``/``
answers 401 with a page saying to scan the QR code again, every other route 403 with a line of
text, and nothing of the games. It is read-only (GET and HEAD; the record is opened
``mode=ro``) and bounded: request lines and headers of at most 8 kB, no body, at most
``max_clients`` live followers, only the newest picture waiting per follower and at most 64 kB
unsent (a phone that does not keep up is dropped, never waited for), idle connections closed
after a few seconds. Every answer carries security headers (CSP without any outside source, no
referrer, nosniff, no framing).

Why aiohttp and not Starlette on uvicorn (measured here, docs/web.md): Starlette+uvicorn
starts in 90 ms and takes 11 MiB, aiohttp 150 ms and 17 MiB — both far inside the budget — but
uvicorn keeps a connection that never sends a request open for ever and gives an ASGI app no way
to drop a reader that stalls, while aiohttp closes idle connections by itself and hands each
handler its transport.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import html
import logging
import re
import secrets
import socket
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.game.deck import Deck
from companion.games import DEFAULT_KIND, GameKind, find_kind
from companion.web.feed import Feed, RecordFollower
from companion.web.settings import WebSettings

log = logging.getLogger(__name__)

POLL_SECONDS = 0.25  # the record is checked ~4×/s for another process's changes
BACKLOG = 64 * 1024  # unsent bytes for one phone (a few pictures); more and it is dropped
SEND_BUFFER = 32 * 1024  # the kernel's send buffer per follower (see routes._small_send_buffer)
WRITE_SECONDS = 5.0  # a phone that takes longer to take one event is dropped
HEARTBEAT_SECONDS = 15.0  # a comment line keeps proxies open and finds dead phones
IDLE_SECONDS = 5.0  # a connection that sends no request is closed
MAX_HEADER = 8190  # bytes per request line and per header field
STATIC = {"app.js": "text/javascript", "app.css": "text/css"}
#: The app's pictures (companion/ui/pictures/*.png), by name: the only image files served.
PICTURES = frozenset(entry.name.removesuffix(".png")
                     for entry in resources.files("companion.ui.pictures").iterdir()
                     if entry.name.endswith(".png"))
DOWNLOAD = re.compile(r"^(\d{1,18})\.(log|csv)$")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP, "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
    "Cache-Control": "no-store", "Cross-Origin-Opener-Policy": "same-origin",
}


def new_token() -> str:
    """A random token for the page's address (about 96 bits, URL-safe)."""
    return secrets.token_urlsafe(12)


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), else 127.0.0.1."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.254.254.254", 1))
        return str(probe.getsockname()[0])
    return "127.0.0.1"


@dataclass(eq=False)
class Follower:
    """One phone following the game. Each event is the whole picture, so only the newest one
    waits to be sent (a burst of actions is one write, never a backlog); a phone whose
    connection holds more than :data:`BACKLOG` unsent bytes has stopped reading and is
    dropped, never waited for."""

    transport: Any
    pending: bytes | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False

    def offer(self, event: bytes | None) -> bool:
        """Make ``event`` the next to send (None: let the phone go); False (and the phone
        dropped) when it is too far behind."""
        if self.transport is not None and self.transport.get_write_buffer_size() > BACKLOG:
            self.transport.abort()  # not close(): a full buffer would never flush
            self.closed = True
        else:
            self.pending, self.closed = event, event is None
        self.wake.set()
        return not self.closed

    async def next(self, timeout: float) -> bytes | None:
        """The newest event (a heartbeat comment after ``timeout`` s); None when let go."""
        if self.pending is None and not self.closed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout)
        self.wake.clear()
        if self.closed:
            return None
        event, self.pending = self.pending or b": still here\n\n", None
        return event


class WebServer:
    """Serves the page for a record (``store_path``), in a thread of its own.

    ``follow_record``: the live table comes from the record itself (the standalone server);
    otherwise the app hands its sessions' views in (:meth:`follow`, from any thread).
    """

    def __init__(self, store_path: Path, deck: Deck, *, language: str = "en",
                 settings: WebSettings | None = None, token: str | None = None,
                 follow_record: bool = True) -> None:
        self.settings = settings or WebSettings(enabled=True)
        self.token = token or new_token()
        self.store_path, self.deck, self.follow_record = Path(store_path), deck, follow_record
        self.feed = Feed(language)
        self.port = self.settings.port
        self.followers: set[Follower] = set()
        self.dropped = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._record: RecordFollower | None = None
        self._runner: Any = None
        self._announcer: Any = None

    # -- life ------------------------------------------------------------------------------

    @property
    def host(self) -> str:
        """The address phones use: this machine's LAN address when listening everywhere."""
        return lan_address() if self.settings.host in ("0.0.0.0", "::") else self.settings.host

    @property
    def url(self) -> str:
        """The page's address, token included (what the QR code carries)."""
        return f"http://{self.host}:{self.port}/?token={self.token}"

    def start(self, *, announce: bool | None = None) -> str:
        """Open the record, bind the port and serve; returns the page's address. A
        :class:`UserError` when the port is taken or the record cannot be read."""
        self._record = RecordFollower(self.store_path, self.deck)
        self._thread = threading.Thread(target=self._serve, name="noah-web", daemon=True)
        self._thread.start()
        self._ready.wait(30)
        if self._failure is not None:
            self._record.close()
            raise self._failure
        if self.settings.mdns if announce is None else announce:
            from companion.web.mdns import Announcer

            self._announcer = Announcer(self.host, self.port)
            self._announcer.start()
        return self.url

    def stop(self) -> None:
        """Stop serving (every phone is let go) and close the record."""
        if self._announcer is not None:
            self._announcer.stop()
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None and thread.is_alive():
            asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(10)
            loop.call_soon_threadsafe(loop.stop)
            thread.join(10)
        if self._record is not None:
            self._record.close()

    def __enter__(self) -> WebServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def follow(self, session: Any) -> Callable[[], None]:
        """Show the games of ``session`` (any game's referee session): its views are handed
        to the page with the session's game, found by its table log's format; returns the
        unsubscriber. The app follows each game's session."""
        kind = find_kind(session.log_format)
        unsubscribe: Callable[[], None] = session.subscribe(
            lambda view: self.publish_view(view, kind))
        return unsubscribe

    def publish_view(self, view: Any, kind: GameKind | None = None) -> None:
        """Hand a session view of ``kind``'s game to the page (safe from any thread; never
        waits). Without ``kind``, the view is the default game's (the app's first session,
        which subscribed this method before there were two games)."""
        game = kind or find_kind(DEFAULT_KIND)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop stopped meanwhile
                loop.call_soon_threadsafe(self._take, lambda: self.feed.take_view(view, game))

    # -- the loop's own thread -------------------------------------------------------------

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._loop = loop
        try:
            loop.run_until_complete(self._open())
        except BaseException as error:  # the caller re-raises it as a sentence
            self._failure = _bind_error(error, self.settings)
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        loop.run_forever()
        loop.close()

    async def _open(self) -> None:
        from aiohttp import web

        from companion.web.routes import make_app

        app = make_app(self)
        self._runner = web.AppRunner(
            app, access_log=None, handler_cancellation=True, keepalive_timeout=IDLE_SECONDS,
            shutdown_timeout=1.0,
            max_line_size=MAX_HEADER, max_field_size=MAX_HEADER, max_headers=64,
        )
        await self._runner.setup()
        await self._refresh()  # the record is read before the first phone can ask
        site = web.TCPSite(self._runner, self.settings.host, self.port, backlog=128,
                           reuse_address=True)
        await site.start()
        self.port = self._runner.addresses[0][1]  # the real one when port 0 was asked
        self._poller = asyncio.ensure_future(self._poll())

    async def _shutdown(self) -> None:
        self._poller.cancel()
        for follower in list(self.followers):
            follower.offer(None)
        await self._runner.cleanup()

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL_SECONDS)
            try:
                await self._refresh()
            except Exception:  # a damaged page of the record: say it, keep serving
                log.exception("The LAN page could not read the game record")

    async def _refresh(self) -> None:
        record = self._record
        assert record is not None
        loop = asyncio.get_running_loop()
        if not await loop.run_in_executor(None, record.changed):
            return
        games = await loop.run_in_executor(None, record.games)
        live = None
        if self.follow_record:
            live = await loop.run_in_executor(None, record.newest_live, self.feed.catalog)
        self.feed.take_games(games)
        if live is not None:
            self.feed.take_live(live)
        self._broadcast()

    def _take(self, take: Callable[[], None]) -> None:
        """Update the feed and send the new picture to every phone."""
        take()
        self._broadcast()

    def _broadcast(self) -> None:
        event = b"data: " + self.feed.payload() + b"\n\n"
        for follower in list(self.followers):
            if not follower.offer(event):
                self.followers.discard(follower)
                self.dropped += 1

    # -- what the routes ask ---------------------------------------------------------------

    def allowed(self, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(token.encode(), self.token.encode())

    async def in_worker(self, work: Callable[[], Any]) -> Any:
        """Run blocking record work off the loop (one SQLite reader, serialized inside)."""
        return await asyncio.get_running_loop().run_in_executor(None, work)

    @property
    def record(self) -> RecordFollower:
        assert self._record is not None
        return self._record

    def page(self) -> str:
        """The page's HTML, its asset links carrying the token."""
        text = _asset("index.html").decode("utf-8")
        return (text.replace("{{lang}}", html_language(self.feed.catalog.language))
                .replace("{{token}}", html.escape(self.token))
                .replace("{{title}}", html.escape(self.feed.words["title"])))

    def refusal_page(self) -> str:
        words = self.feed.catalog
        return ("<!doctype html><html lang=\"" + html_language(words.language) + "\">"
                "<meta charset=\"utf-8\">"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                f"<title>{html.escape(words.text('web.title'))}</title>"
                f"<h1>{html.escape(words.text('web.title'))}</h1>"
                f"<p>{html.escape(words.text('web.scan_again'))}</p></html>")


def html_language(language: str) -> str:
    """The page's ``lang``: the Chinese catalog is Traditional Chinese (screen readers and
    fonts choose by it)."""
    return "zh-Hant" if language == "zh" else language


def asset(name: str) -> bytes:
    """One of the page's own files (``STATIC``), or an animal's picture (``PICTURES``)."""
    if name in STATIC or name == "index.html":
        return _asset(name)
    return resources.files("companion.ui.pictures").joinpath(f"{name}.png").read_bytes()


def _asset(name: str) -> bytes:
    return resources.files("companion.web.static").joinpath(name).read_bytes()


def _bind_error(error: BaseException, settings: WebSettings) -> BaseException:
    if isinstance(error, OSError):
        return UserError(
            f"The LAN page cannot listen on {settings.host} port {settings.port}: "
            f"{error.strerror or error}.",
            "Choose another port with [web] port = ... (or --port), or stop the program "
            "that uses it.")
    return error


Handler = Callable[[Any], Awaitable[Any]]
