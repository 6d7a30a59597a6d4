"""The page's routes (aiohttp): GET only, every one behind the token, nothing else served.

====================  ==========================================================
``/``                 the page (401 and "scan the QR code again" without the token)
``/app.js``           its script, ``/app.css`` its style (no outside source)
``/pictures/NAME``    an animal's picture (companion/ui/pictures)
``/api/state``        everything the page shows, as JSON
``/events``           the same, again after every change (server-sent events)
``/download/N.log``   game N's table log, ``N.csv`` its scores (the export code)
``/bgstats/N``        a redirect to BG Stats' import link of finished game N
====================  ==========================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

from aiohttp import web

from companion.errors import UserError
from companion.web import server as srv

Server = Any  # companion.web.server.WebServer (a cycle otherwise)
SERVER: web.AppKey[Any] = web.AppKey("server")


def make_app(server: Server) -> web.Application:
    app = web.Application(client_max_size=1024, middlewares=[_guard(server)],
                          handler_args=None)
    app.on_response_prepare.append(_secure)
    app[SERVER] = server
    app.router.add_get("/", _page)
    app.router.add_get("/app.js", _static)
    app.router.add_get("/app.css", _static)
    app.router.add_get("/pictures/{name}", _picture)
    app.router.add_get("/api/state", _state)
    app.router.add_get("/events", _events)
    app.router.add_get("/download/{file}", _download)
    app.router.add_get("/bgstats/{game}", _bgstats)
    return app


def _guard(server: Server) -> Any:
    @web.middleware
    async def guard(request: web.Request, handler: Any) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            return _text(405, "This page is read-only.")
        if not server.allowed(request.query.get("token")):
            if request.path == "/":
                return web.Response(status=401, text=server.refusal_page(),
                                    content_type="text/html", charset="utf-8")
            return _text(403, "The address needs the table's current token: scan the QR code "
                              "on the table's screen again.")
        return await handler(request)

    return guard


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in srv.SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    response.headers["Server"] = "Noah table"  # not the library's name and version


def _text(status: int, text: str) -> web.Response:
    return web.Response(status=status, text=text + "\n", content_type="text/plain",
                        charset="utf-8")


async def _page(request: web.Request) -> web.Response:
    return web.Response(text=request.app[SERVER].page(), content_type="text/html",
                        charset="utf-8")


async def _static(request: web.Request) -> web.Response:
    name = request.path.lstrip("/")
    return web.Response(body=srv.asset(name), content_type=srv.STATIC[name], charset="utf-8")


async def _picture(request: web.Request) -> web.Response:
    name = request.match_info["name"].removesuffix(".png")
    if name not in srv.PICTURES:
        return _text(404, "No such picture.")
    response = web.Response(body=srv.asset(name), content_type="image/png")
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response


async def _state(request: web.Request) -> web.Response:
    return web.Response(body=request.app[SERVER].feed.payload(),
                        content_type="application/json", charset="utf-8")


async def _events(request: web.Request) -> web.StreamResponse:
    server = request.app[SERVER]
    if len(server.followers) >= server.settings.max_clients:
        busy = _text(503, "Too many phones follow this table now: try again in a minute.")
        busy.headers["Retry-After"] = "30"
        return busy
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    _small_send_buffer(request.transport)
    await response.prepare(request)
    follower = srv.Follower(request.transport)
    # a phone dropped or cut off reconnects by itself after 2 s (EventSource's retry)
    follower.offer(b"retry: 2000\ndata: " + server.feed.payload() + b"\n\n")
    server.followers.add(follower)
    try:
        await _follow(follower, response)
    finally:
        server.followers.discard(follower)
    return response


def _small_send_buffer(transport: Any) -> None:
    """Keep the kernel from buffering megabytes for a phone that stopped reading: with a small
    send buffer, its events pile up in its connection's buffer, where they count against
    :data:`~companion.web.server.BACKLOG` and have it dropped."""
    conn = transport.get_extra_info("socket") if transport is not None else None
    if conn is not None:
        with contextlib.suppress(OSError):
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, srv.SEND_BUFFER)


async def _follow(follower: Any, response: web.StreamResponse) -> None:
    with contextlib.suppress(ConnectionError, TimeoutError):
        while (event := await follower.next(srv.HEARTBEAT_SECONDS)) is not None:
            await asyncio.wait_for(response.write(event), srv.WRITE_SECONDS)


async def _download(request: web.Request) -> web.Response:
    found = srv.DOWNLOAD.match(request.match_info["file"])
    if not found:
        return _text(404, "Ask for GAME.log or GAME.csv.")
    server, game_id, fmt = request.app[SERVER], int(found[1]), found[2]
    try:
        text = await server.in_worker(lambda: server.record.export(game_id, fmt))
    except UserError as error:
        return _text(404, str(error))
    kind = "text/csv" if fmt == "csv" else "application/x-ndjson"
    response = web.Response(text=text, content_type=kind, charset="utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="noah-game-{game_id}.{fmt}"'
    return response


async def _bgstats(request: web.Request) -> web.Response:
    server, text = request.app[SERVER], request.match_info["game"]
    if not (text.isascii() and text.isdigit() and len(text) <= 18):
        return _text(404, "No such game.")
    try:
        link = await server.in_worker(lambda: server.record.bgstats_link(int(text)))
    except UserError as error:
        return _text(404, str(error))
    if not link:
        return _text(409, "This game is not finished: BG Stats takes finished games.")
    raise web.HTTPFound(link)
