"""The LAN page on the touchscreen: its QR code and address, and BG Stats' code big enough.

Self-contained (no screen's .kv changes): :func:`start_page` starts the page's server when
``[web] enabled = yes`` (its own thread; the session's views are handed to it, never waited
for) and, once the app has started, puts a :class:`WebBadge` in the top-right corner of the
home, round-end and game-end screens:

* home and round end: the page's QR code and address (for networks that block discovery);
* game end: BG Stats' import link — through the page when it is on (``/bgstats/N?token=…``:
  a 50-character link whose code has big modules), else the whole link; Complot's score
  track puts the same badge beside its game's end (companion/ui/complot.py);

a touch on the badge shows its code on a screen of its own (:class:`BigCode`, 440 px: about
1 mm per module for BG Stats' 520-character link on the 7" panel, where the end screen's own
230 px code has 0.45 mm).
"""

from __future__ import annotations

import io
import logging
from typing import Any

from kivy.app import App
from kivy.clock import mainthread
from kivy.core.image import Image as CoreImage
from kivy.graphics import Color, Rectangle
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.errors import UserError
from companion.ui import theme

log = logging.getLogger(__name__)
SCREENS = ("home", "round_end", "game_end")
#: The home screen's own side padding (screens.kv), which the badge's width already covers.
HOME_PADDING = 24
#: Where each screen has room: its size (a code and one line of address) and corner.
PLACES = {
    "home": ((132, 150), {"right": 0.995, "top": 0.995}),
    "round_end": ((100, 114), {"x": 0.005, "y": 0.005}),  # a corner inside the score track
    # over the end screen's own 230 px column: the same link, or the page's short one, and a
    # touch for the big code
    "game_end": ((236, 466), {"right": 0.998, "top": 0.99}),
}


def start_page(app: Any, config: Any, language: str) -> Any:
    """Start the LAN page when ``[web]`` says so; the server, or None. A port already taken
    is a warning in the log (the table plays on without the page), never a crash."""
    from companion.web.settings import WebSettings

    app.web_server = None
    try:
        settings = config.validated("web", WebSettings.from_section)
    except UserError as error:  # the table plays on; doctor names the bad setting too
        log.warning("The LAN page is off: %s", error)
        settings = WebSettings()
    if settings.enabled:
        from companion.web.server import WebServer

        server = WebServer(app.session.store.path, app.session.deck, language=language,
                           settings=settings, follow_record=False)
        try:
            log.info("The table's page: %s", server.start())
        except UserError as error:
            log.warning("The LAN page is off: %s", error)
        else:
            app.web_server, app.web_unsubscribers = server, []
            follow_on_page(app, app.session)
    app.bind(on_start=lambda *_: _add_badges(app))
    return app.web_server


def follow_on_page(app: Any, session: Any) -> None:
    """Show ``session``'s games on the page too, when it is on: Noah's session from the start,
    another game's when its screens are first opened (its views name their game)."""
    server = getattr(app, "web_server", None)
    if server is not None:
        app.web_unsubscribers.append(server.follow(session))


def stop_page(app: Any) -> None:
    server = getattr(app, "web_server", None)
    if server is not None:
        for unsubscribe in app.web_unsubscribers:
            unsubscribe()
        server.stop()
        app.web_server = None


def _add_badges(app: Any) -> None:
    for name in SCREENS:
        screen = app.root.sm.get_screen(name)
        size, corner = PLACES[name]
        badge = WebBadge(kind="bgstats" if name == "game_end" else "page", size=size,
                         pos_hint=corner)
        screen.add_widget(badge)
        screen.bind(on_pre_enter=lambda *_, b=badge: b.refresh())
    app.bind(lang=lambda *_: [child.refresh() for name in SCREENS
                              for child in app.root.sm.get_screen(name).children
                              if isinstance(child, WebBadge)])


def qr_texture(text: str, scale: int = 8) -> Any:
    """A QR code of ``text`` as a Kivy texture (segno's PNG, regular QR never Micro)."""
    from companion.session.bgstats import qr_code

    buffer = io.BytesIO()
    qr_code(text).save(buffer, kind="png", scale=scale, border=2)
    buffer.seek(0)
    return CoreImage(buffer, ext="png").texture


def bgstats_link(app: Any, session: Any = None) -> str:
    """The finished game's BG Stats link: through the page when it is on (short), else whole.
    ``session``: the game's session (Noah's, the app's own, by default)."""
    session = session if session is not None else app.session
    url = session.bgstats_url()
    server = getattr(app, "web_server", None)
    if not url or server is None:
        return url
    game_id = session.view.game_id
    return f"http://{server.host}:{server.port}/bgstats/{game_id}?token={server.token}"


class WebBadge(ButtonBehavior, BoxLayout):
    """A QR code in a screen's top-right corner; a touch shows it big (see module text). A
    screen with a ``badge_room`` property is told how much of its width the badge takes (0
    when hidden), to keep its own words out from under it."""

    def __init__(self, kind: str, session: Any = None, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", size_hint=(None, None), padding=4, spacing=2,
                         **kwargs)
        self.kind, self.link, self.caption = kind, "", ""
        self.session = session  # whose finished game a "bgstats" badge shows (None: Noah's)
        with self.canvas.before:
            Color(1, 1, 1, 1)
            self._paper = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._move, size=self._move)
        self.code = Image(fit_mode="contain")
        big = kind == "bgstats"
        # BG Stats' caption is read by the players (theme.BODY); the page's address is copied
        self.words = Label(font_size=theme.BODY if big else 12, color=(0, 0, 0, 1),
                           size_hint_y=None, height=150 if big else 22, halign="center",
                           valign="middle", shorten=not big)
        self.words.bind(size=lambda label, size: setattr(label, "text_size", size))
        self.add_widget(self.code)
        self.add_widget(self.words)
        self.refresh()

    def _move(self, *_: Any) -> None:
        self._paper.pos, self._paper.size = self.pos, self.size

    @mainthread
    def refresh(self) -> None:
        """Draw the code of now (the page's address, or the finished game's BG Stats link);
        hidden when there is none."""
        app = App.get_running_app()
        server = getattr(app, "web_server", None)
        if self.kind == "bgstats":
            self.link = bgstats_link(app, self.session) if app is not None else ""
            self.caption = app.t("web.bgstats_screen") if app is not None else ""
            shown = self.caption
        else:
            self.link = server.url if server is not None else ""
            self.caption = app.t("web.screen_hint") if app is not None else ""
            shown = self.link.split("/?")[0].removeprefix("http://")
        self.opacity, self.disabled = (1, False) if self.link else (0, True)
        if hasattr(self.parent, "badge_room"):  # a screen that centres its title beside it
            self.parent.badge_room = self.width - HOME_PADDING if self.link else 0
        self.code.texture = qr_texture(self.link, scale=6) if self.link else None
        self.words.text = shown if self.link else ""

    def on_release(self) -> None:
        if self.link:
            BigCode(self.link, self.caption).open()


class BigCode(ModalView):
    """A QR code on a screen of its own (440 px), its caption beside it; a touch closes it."""

    def __init__(self, link: str, caption: str, **kwargs: Any) -> None:
        super().__init__(auto_dismiss=True, background_color=(1, 1, 1, 1), **kwargs)
        box = BoxLayout(padding=16, spacing=16)
        box.add_widget(Image(texture=qr_texture(link, scale=8), fit_mode="contain",
                             size_hint_x=None, width=448))
        words = Label(text=caption + "\n\n" + _short(link), color=(0, 0, 0, 1), font_size=22,
                      halign="left", valign="middle")
        words.bind(size=lambda label, size: setattr(label, "text_size", size))
        box.add_widget(words)
        self.add_widget(box)

    def on_touch_down(self, touch: Any) -> bool:
        self.dismiss()
        return True


def _short(link: str) -> str:
    """The address as people read it: without its data or token."""
    return link.split("?")[0]
