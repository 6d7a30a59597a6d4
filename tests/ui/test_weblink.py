"""The LAN page on the touchscreen (companion/ui/weblink.py): the page's QR code and address in a
corner, and a touch showing the code on a screen of its own. The shared app is left as found:
the badge is removed and the server stopped at the end."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui


def test_the_page_badge_shows_the_address_and_a_touch_shows_the_code_big(driver):
    from kivy.core.window import Window

    from companion.ui.weblink import BigCode, WebBadge
    from companion.web.server import WebServer
    from companion.web.settings import WebSettings

    app = driver.app
    server = WebServer(app.session.store.path, app.session.deck, follow_record=False,
                       settings=WebSettings(enabled=True, port=0, host="127.0.0.1", mdns=False))
    server.start()
    app.web_server = server
    home = app.root.sm.get_screen("home")
    badge = WebBadge(kind="page", size=(132, 150), pos_hint={"right": 1, "top": 1})
    home.add_widget(badge)
    try:
        badge.refresh()
        driver.pump(3)
        assert badge.opacity == 1 and badge.code.texture is not None
        assert badge.words.text == f"127.0.0.1:{server.port}"
        assert badge.link == server.url and f"token={server.token}" in badge.link
        badge.on_release()
        driver.pump(3)
        [big] = [view for view in Window.children if isinstance(view, BigCode)]
        big.dismiss()
        driver.pump(3)
        app.web_server = None
        badge.refresh()
        driver.pump(2)
        assert badge.opacity == 0 and badge.disabled  # page off: nothing shown, nothing to touch
    finally:
        home.remove_widget(badge)
        app.web_server = None
        server.stop()


def test_the_page_follows_each_game_s_session_and_lets_go_of_them_all():
    """Noah's session from the start, Complot's when its screens open: the page shows both
    games' views (each under its kind), and stopping the page lets go of every session."""
    from types import SimpleNamespace

    from companion.ui.weblink import follow_on_page, stop_page

    class Server:
        def __init__(self):
            self.followed, self.stopped = [], False

        def follow(self, session):
            self.followed.append(session)
            return lambda: self.followed.remove(session)

        def stop(self):
            self.stopped = True

    server = Server()
    app = SimpleNamespace(web_server=server, web_unsubscribers=[])
    follow_on_page(app, "noah session")
    follow_on_page(app, "complot session")
    assert server.followed == ["noah session", "complot session"]
    stop_page(app)
    assert server.followed == [] and server.stopped and app.web_server is None
    follow_on_page(app, "a third session")  # the page is off: nothing to follow
