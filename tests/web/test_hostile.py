"""Hostile requests on loopback: clear refusals, nothing of the games shown, and the table's
actions keep flowing to the phones that behave. Every loop is bounded and stops by itself."""

from __future__ import annotations

import contextlib
import socket

import pytest

from tests.web.conftest import TOKEN, wait_for

GAME_WORDS = (b"Ana", b"Ben", b"players", b"ferries")


def ask(server, target: str, *, headers: bytes = b"", method: bytes = b"GET") -> tuple[int, bytes]:
    """One raw HTTP/1.1 request (nothing normalised by a client library): status and body."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(method + b" " + target.encode() + b" HTTP/1.1\r\nHost: t\r\n" + headers
                     + b"Connection: close\r\n\r\n")
        answer = b""
        with contextlib.suppress(ConnectionError):
            while chunk := conn.recv(65536):
                answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


@pytest.mark.parametrize("token", ["", "?token=", "?token=wrong-token-000", f"?token={TOKEN}x",
                                   f"?TOKEN={TOKEN}"])
@pytest.mark.parametrize("path", ["/", "/api/state", "/events", "/download/1.log",
                                  "/download/1.csv", "/bgstats/1", "/app.js",
                                  "/pictures/cat.png"])
def test_without_the_right_token_every_route_refuses_and_shows_nothing(table, path, token):
    server = table.app
    status, body = ask(server, path + token)
    assert status == (401 if path == "/" else 403)
    assert not any(word in body for word in GAME_WORDS)


@pytest.mark.parametrize("path", [
    "/../../../../etc/passwd", "/pictures/..%2f..%2fserver.py", "/pictures/../web/server.py",
    "/%2e%2e/%2e%2e/etc/passwd", "/app.js/../../etc/passwd", "/download/..%2f1.log",
    "/static/index.html", "/companion/web/server.py", "/pictures/%2e%2e%2fcat.png",
])
def test_paths_outside_the_routes_are_refused(table, path):
    server = table.app
    status, body = ask(server, f"{path}?token={TOKEN}")
    assert status in (400, 403, 404)
    assert b"root:" not in body and b"import" not in body


def test_the_page_is_read_only(table):
    server = table.app
    for method in (b"POST", b"PUT", b"DELETE"):
        status, _ = ask(server, f"/api/state?token={TOKEN}", method=method,
                        headers=b"Content-Length: 0\r\n")
        assert status == 405


def test_a_one_megabyte_header_is_refused_and_the_server_goes_on(table):
    server = table.app
    status, _ = ask(server, f"/?token={TOKEN}", headers=b"X-Big: " + b"a" * 1_000_000 + b"\r\n")
    assert status in (400, 431)
    assert ask(server, f"/api/state?token={TOKEN}")[0] == 200


def test_security_headers_on_every_answer(table):
    server = table.app
    for target in ("/", f"/?token={TOKEN}", f"/api/state?token={TOKEN}", "/nowhere"):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
            conn.sendall(f"GET {target} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
                         .encode())
            head = conn.recv(65536).partition(b"\r\n\r\n")[0].lower()
        assert b"frame-ancestors 'none'" in head and b"referrer-policy: no-referrer" in head
        assert b"x-content-type-options: nosniff" in head and b"aiohttp" not in head


def test_idle_connections_and_a_phone_that_never_reads_leave_the_game_flowing(table):
    """200 idle connections and one follower that never reads its events: a good phone still
    gets every update after accepted actions, and the stalled one is dropped (never waited
    for)."""
    session, server = table.session, table.app
    idle = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(200)]
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.connect(("127.0.0.1", server.port))
    stalled.sendall(f"GET /events?token={TOKEN} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    good = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    good.sendall(f"GET /events?token={TOKEN} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    try:
        wait_for(lambda: len(server.followers) >= 2, "both followers")
        dropped = server.dropped
        session.new_game(["Idle", "Stalled"], score_only=True)
        for _ in range(5000):  # bounded: far more pictures than the stalled phone's buffers hold
            if server.dropped > dropped:
                break
            server.publish_view(session.view)  # the picture sent again, as after an action
            with contextlib.suppress(BlockingIOError):
                good.recv(1 << 20, socket.MSG_DONTWAIT)  # the good phone keeps reading
        assert server.dropped > dropped, "the stalled phone was never dropped"
        session.enter_tears([4, 2])
        seen = b""

        def got_it() -> bool:
            nonlocal seen
            with contextlib.suppress(BlockingIOError):
                seen += good.recv(1 << 20, socket.MSG_DONTWAIT)
            return b'"rounds":[[4,2]]' in seen

        wait_for(got_it, "the good phone to get the accepted tears")
        assert ask(server, f"/api/state?token={TOKEN}")[0] == 200
    finally:
        for conn in (*idle, stalled, good):
            conn.close()
