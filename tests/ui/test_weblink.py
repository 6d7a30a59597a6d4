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
