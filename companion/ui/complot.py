"""The screens of «Noé, Complot à l'Élysée»; their layouts are in ``complot.kv``.

The companion does not know the hands: it referees what the table shows and tells it
(API-COMPLOT). The screens draw a ``ComplotView`` and send the table's requests to the Complot
session through ``app.act`` (a :class:`~companion.errors.UserError` is shown, not raised):

- ``complot_new``: players 2-6, level 1-3, target score, scores only;
- ``complot_play``: whose turn, who is still in, who must pass, the manche; Next turn, the
  announcement's check, the actions (levels 2-3), the pioche's end;
- ``complot_pick``: the cards laid down, picked by touch (a category, then first names) or
  read by a camera (:meth:`ComplotScreens.add_card`), and the words said;
- ``complot_verdict``: the cards as drawn faces, accepted with the points, or refused with
  the one plain sentence;
- ``complot_scores``: the score track (manches × players, a bar to the target), the manche's
  end and the game's end with ties and its BG Stats code;
- ``complot_quick``: scores only, an announcement in two taps (player, combination).

Card faces are drawn with canvas instructions (:class:`CardSymbol`): no picture files. The
category colours and symbols are the companion's own (the rulebook's pictures are not in its
text), except those the rulebook names: the Enquêteurs' magnifier, «A» and «S», the red
Attentat mask, «1» and «2» for the red and violet spies.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Quad, Rectangle, Triangle
from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.togglebutton import ToggleButton

from companion.complot.cards import (
    CHARACTER_CATEGORIES,
    JOKER,
    VILLAIN_CATEGORIES,
    Card,
    default_deck,
)
from companion.complot.claim_reader import ClaimReader, Reading
from companion.complot.combos import CLAIMS, CLASSIC_POINTS, SPECIAL_POINTS
from companion.complot.messages import category_name
from companion.complot.session import defausse_caption
from companion.errors import UserError
from companion.ui import theme
from companion.ui.weblink import PLACES as BADGE_PLACES
from companion.ui.weblink import WebBadge, follow_on_page

HERE = Path(__file__).parent
MAX_PLAYERS = 6
TARGET_STEP = 50
#: Category code → (colour, symbol). White (black on the Archanges' gold) on each reads at
#: 4.5:1 or more; a symbol of one character is written, the others are drawn.
CATEGORY_LOOK: dict[str, tuple[tuple[float, float, float, float], str]] = {
    "EM": ((0.13, 0.23, 0.45, 1), "star"),
    "EN": ((0.00, 0.40, 0.40, 1), "loupe"),
    "ES": ((0.25, 0.25, 0.25, 1), "eye"),
    "LE": ((0.50, 0.27, 0.08, 1), "triangle"),
    "AL": ((0.42, 0.18, 0.58, 1), "A"),
    "SE": ((0.68, 0.10, 0.40, 1), "S"),
    "EP": ((0.55, 0.40, 0.00, 1), "crown"),
    "PO": ((0.72, 0.12, 0.08, 1), "flame"),
    "JO": ((0.08, 0.33, 0.65, 1), "paper"),
    "DU": ((0.10, 0.45, 0.18, 1), "house"),
    "AR": ((0.95, 0.78, 0.20, 1), "halo"),
    "AT": ((0.60, 0.00, 0.00, 1), "mask"),
    "RO": ((0.78, 0.08, 0.08, 1), "1"),
    "VI": ((0.45, 0.12, 0.62, 1), "2"),
    "PB": ((0.12, 0.12, 0.12, 1), "bomb"),
}
#: The action an action card launches (C91): the Enquêteurs' depends on how many are shown.
ACTION_OF = {"RO": "hameconnage", "VI": "double_hameconnage", "PB": "bombe"}
#: Every combination a scores-only table records, with its points (C31, C32, C40).
COMBINATION_POINTS: dict[str, int] = {**CLASSIC_POINTS, **SPECIAL_POINTS}
#: The card counts of a request: six for an announcement (C46), at most three for an action,
#: one for a defence.
PICK_LIMITS = {"claim": 6, "action": 3, "defence": 1, "discard": 1}
#: What the «défausse» picker says of its card: the turn's discard, or only the top shown
#: (the card turned at the deal, C11).
DEFAUSSE_WORDS = ("discard", "top")


def card_of(card_id: str) -> Card | None:
    """The card of ``card_id`` in the rulebook's deck (None for an unknown id)."""
    return default_deck().get(card_id)


def categories_for(level: int) -> tuple[str, ...]:
    """The categories a picker offers at ``level``: no méchants below level 3 (C5a).

    >>> categories_for(1)[-1], len(categories_for(1)), len(categories_for(3))
    ('AR', 11, 15)
    """
    base = (*CHARACTER_CATEGORIES, JOKER)
    return (*base, *VILLAIN_CATEGORIES) if level >= 3 else base


def cards_of(category: str) -> list[Card]:
    """The cards of ``category`` in the deck's order (C6)."""
    return [card for card in default_deck() if card.category == category]


def action_for(card_ids: Sequence[str]) -> str | None:
    """The action the cards shown launch (C91), or None when they launch none: one Enquêteur a
    contrôle, more a descente, a red spy a hameçonnage, a violet one a double hameçonnage, a
    bomb-setter a bomb. A wrong count is the judge's to refuse.

    >>> action_for(["enqueteurs:max"]), action_for(["enqueteurs:max", "enqueteurs:emma"])
    ('controle', 'descente')
    >>> action_for(["espion-violet:olga"]), action_for(["leonard:emma"])
    ('double_hameconnage', None)
    """
    cards = [card_of(card_id) for card_id in card_ids]
    if not cards or cards[0] is None:
        return None
    category = cards[0].category
    if category == "EN":
        return "controle" if len(cards) == 1 else "descente"
    return ACTION_OF.get(category)


# -- card faces ------------------------------------------------------------------------------

class CardSymbol(Label):
    """A category's symbol drawn in ``ink`` with canvas instructions (or written, for «A»,
    «S», «1», «2»)."""

    symbol = StringProperty("")
    ink = ListProperty([1, 1, 1, 1])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # drawn once a frame, after the layouts have placed it (they move it several times)
        redraw = Clock.create_trigger(self._draw, -1)
        self.bind(pos=redraw, size=redraw, symbol=redraw, ink=redraw)

    def _draw(self, *_args: Any) -> None:
        self.text = self.symbol if len(self.symbol) == 1 else ""
        self.canvas.before.clear()
        drawer = _SYMBOLS.get(self.symbol)
        if drawer is None:
            return
        side = min(self.width, self.height) * 0.8
        x, y = self.center_x - side / 2, self.center_y - side / 2
        with self.canvas.before:
            Color(*self.ink)
            drawer(x, y, side)


def _star(x: float, y: float, side: float) -> None:
    r_out, r_in = side / 2, side / 5
    cx, cy = x + side / 2, y + side / 2
    points = []
    for i in range(10):
        radius = r_out if i % 2 == 0 else r_in
        angle = math.pi / 2 + i * math.pi / 5
        points += [cx + radius * math.cos(angle), cy + radius * math.sin(angle)]
    for i in range(0, 20, 4):  # five filled points around a filled centre
        Triangle(points=[cx, cy, *points[i:i + 2], *points[(i + 2) % 20:(i + 2) % 20 + 2]])
        Triangle(points=[cx, cy, *points[(i + 2) % 20:(i + 2) % 20 + 2],
                         *points[(i + 4) % 20:(i + 4) % 20 + 2]])


def _loupe(x: float, y: float, side: float) -> None:
    Line(circle=(x + side * 0.6, y + side * 0.6, side * 0.3), width=max(2, side / 14))
    Line(points=[x + side * 0.38, y + side * 0.38, x + side * 0.05, y + side * 0.05],
         width=max(2, side / 9))


def _eye(x: float, y: float, side: float) -> None:
    Line(ellipse=(x, y + side * 0.25, side, side * 0.5), width=max(2, side / 16))
    Ellipse(pos=(x + side * 0.35, y + side * 0.35), size=(side * 0.3, side * 0.3))


def _triangle(x: float, y: float, side: float) -> None:
    Triangle(points=[x, y + side * 0.1, x + side, y + side * 0.1, x + side / 2, y + side * 0.95])


def _crown(x: float, y: float, side: float) -> None:
    Rectangle(pos=(x, y + side * 0.15), size=(side, side * 0.3))
    for left in (0.0, 0.35, 0.7):
        Triangle(points=[x + side * left, y + side * 0.45, x + side * (left + 0.3),
                         y + side * 0.45, x + side * (left + 0.15), y + side * 0.9])


def _flame(x: float, y: float, side: float) -> None:
    Quad(points=[x + side / 2, y, x + side * 0.85, y + side * 0.45, x + side / 2, y + side,
                 x + side * 0.15, y + side * 0.45])


def _paper(x: float, y: float, side: float) -> None:
    width = max(2, side / 16)
    Line(rectangle=(x + side * 0.1, y + side * 0.05, side * 0.8, side * 0.9), width=width)
    for row in (0.3, 0.5, 0.7):
        Line(points=[x + side * 0.25, y + side * row, x + side * 0.75, y + side * row],
             width=width)


def _house(x: float, y: float, side: float) -> None:
    Rectangle(pos=(x + side * 0.15, y), size=(side * 0.7, side * 0.55))
    Triangle(points=[x, y + side * 0.55, x + side, y + side * 0.55, x + side / 2, y + side])


def _halo(x: float, y: float, side: float) -> None:
    Line(ellipse=(x, y + side * 0.6, side, side * 0.3), width=max(2, side / 14))
    Ellipse(pos=(x + side * 0.3, y), size=(side * 0.4, side * 0.5))


def _mask(x: float, y: float, side: float) -> None:
    Ellipse(pos=(x, y + side * 0.2), size=(side, side * 0.6))
    Color(1, 1, 1, 1)  # the eye holes
    for left in (0.18, 0.57):
        Ellipse(pos=(x + side * left, y + side * 0.45), size=(side * 0.25, side * 0.15))


def _bomb(x: float, y: float, side: float) -> None:
    Ellipse(pos=(x, y), size=(side * 0.8, side * 0.8))
    Line(bezier=[x + side * 0.6, y + side * 0.75, x + side * 0.8, y + side,
                 x + side, y + side * 0.8], width=max(2, side / 16))


_SYMBOLS: dict[str, Callable[[float, float, float], None]] = {
    "star": _star, "loupe": _loupe, "eye": _eye, "triangle": _triangle, "crown": _crown,
    "flame": _flame, "paper": _paper, "house": _house, "halo": _halo, "mask": _mask,
    "bomb": _bomb,
}


class CardFace(Button):
    """One card drawn: a strip in its category's colour with the symbol, the first name, the
    category's (French) name. Touching it does what the screen says (the picker takes it
    off)."""

    card_id = StringProperty("")
    first_name = StringProperty("")
    category_name = StringProperty("")
    colour = ListProperty([0.5, 0.5, 0.5, 1])
    symbol = StringProperty("")
    ink = ListProperty([1, 1, 1, 1])
    small = BooleanProperty(False)  # the picker's: name and symbol only
    compact = BooleanProperty(False)  # the play screen's: name and category, smaller

    def on_card_id(self, _face: Any, card_id: str) -> None:
        self.relabel()

    def relabel(self) -> None:
        """Draw the card again in the table's language (the category's name)."""
        card_id = self.card_id
        card = card_of(card_id)
        if not card_id:  # no card: the top of the «défausse» not shown (never a guess)
            self.first_name, self.symbol = "—", ""
            self.category_name = App.get_running_app().t("complot.play.top_unknown")
            self.colour = [0.4, 0.4, 0.4, 1]
            return
        if card is None:  # an id the deck does not have is shown as it was read
            self.first_name, self.category_name, self.symbol = card_id, "?", ""
            self.colour = [0.4, 0.4, 0.4, 1]
            return
        colour, symbol = CATEGORY_LOOK[card.category]
        # the first name stays French; the category in the table's language when it is an
        # ordinary word (companion.complot.messages.CATEGORY_NAMES)
        self.first_name = card.first_name
        self.category_name = category_name(card.category, App.get_running_app().lang)
        self.colour, self.symbol, self.ink = list(colour), symbol, list(theme.text_on(colour))


# -- the controller: one per app ---------------------------------------------------------------

def complot_screens(app: Any) -> ComplotScreens:
    """The app's Complot screens, installed the first time (layouts, screens, session)."""
    screens = getattr(app, "complot_screens", None)
    if screens is None:
        screens = app.complot_screens = ComplotScreens(app)
    return screens


def open_new_game(app: Any, *, score_only: bool = False) -> None:
    """The home screen's New game (or Scores only) with Complot chosen."""
    complot_screens(app).open_new_game(score_only=score_only)


def resumable(app: Any) -> bool:
    """Is there an unfinished Complot game in the record (the home screen's Resume)?"""
    return bool(complot_screens(app).view.unfinished)


def resume(app: Any, game_id: int | None = None) -> None:
    """The home screen's Resume with Complot chosen (the newest unfinished game), or a game
    of the history: where it stopped."""
    screens = complot_screens(app)
    try:
        screens.session.resume(game_id)
    except UserError as error:
        if error.key != "complot.error.damaged":
            app.message(app.catalog.error(error))
            return
        # the same three choices as a damaged Noah game (companion/ui/damaged.py)
        from companion.ui.damaged import DamagedGamePopup

        where = app.t("damaged.where_short", line=error.params["line"])
        DamagedGamePopup(session=screens.session, game_id=int(str(error.params["game"])),
                         details=f"{where}\n\n{app.t('complot.damaged.aside')}",
                         then=screens.after_damage).open()
        return
    screens.table()


class ComplotScreens:
    """The Complot screens of one app over one Complot session: which screen shows, and the
    session's views drawn on the UI thread."""

    NAMES = ("complot_new", "complot_play", "complot_pick", "complot_verdict",
             "complot_scores", "complot_quick")

    def __init__(self, app: Any, session: Any = None) -> None:
        self.app = app
        self.session = session or _new_session(app)
        Builder.load_file(str(HERE / "complot.kv"))
        classes = (ComplotNewScreen, ComplotPlayScreen, ComplotPickScreen,
                   ComplotVerdictScreen, ComplotScoresScreen, ComplotQuickScreen)
        for name, cls in zip(self.NAMES, classes, strict=True):
            app.root.sm.add_widget(cls(name=name))
        self.screen("complot_scores").add_code(self.session)
        self._redraw = Clock.create_trigger(self._draw_current)
        self._cards_taken: tuple[str, ...] = ()  # the view's ``cards_read`` the picker has had
        self.session.subscribe(self._published)
        follow_on_page(app, self.session)  # the phones' page follows Complot's games too
        app.bind(lang=lambda *_args: self._redraw())  # the words built in Python, again

    def screen(self, name: str) -> Any:
        return self.app.root.sm.get_screen(name)

    @property
    def view(self) -> Any:
        """The session's view now (a published one may still be on its way to the UI
        thread)."""
        return self.session.view

    def _published(self, _view: Any) -> None:
        """Any thread: the session has a new view; the screen shown draws the newest one at
        the next frame, on the UI thread (several views in one frame are drawn once)."""
        self._redraw()

    def _draw_current(self, *_args: Any) -> None:
        view = self.view
        # the cards a camera read since the last request (the session keeps them until one is
        # judged, then starts again): each new one into the picker, once
        read, before = view.cards_read, self._cards_taken
        fresh = read[len(before):] if read[:len(before)] == before else read
        self._cards_taken = read
        for card_id in fresh:
            self.add_card(card_id, read=True)
        current = self.app.root.sm.current
        if current in self.NAMES:
            self.screen(current).draw(view)

    def go(self, name: str) -> None:
        self.screen(name).draw(self.view)
        self.app.go(name)

    def table(self) -> None:
        """Back to the game: the score track when the manche is over, else play."""
        view = self.view
        if view.phase != "manche":
            self.go("complot_scores")
        else:
            self.go("complot_quick" if view.scores_only else "complot_play")

    # -- requests ----------------------------------------------------------------------------

    def act(self, intent: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return self.app.act(intent, *args, **kwargs)

    def open_new_game(self, *, score_only: bool) -> None:
        """The new game's screen, with the names of the last table (any game's)."""
        from companion.ui.screens import last_table

        names, _colours = last_table(self.session.store)
        self.screen("complot_new").prepare(score_only=score_only, names=names)
        self.app.go("complot_new")

    def start(self, names: list[str], *, level: int, target: int, scores_only: bool) -> None:
        """A new game, shown; a set-up the session refuses is said and the screen stays."""
        before = self.view.game_id
        self.act(self.session.new_game, names, level=level, target=target,
                 scores_only=scores_only)
        if self.view.has_game and self.view.game_id != before:
            self.table()

    def play_again(self) -> None:
        view = self.view
        self.start(list(view.players), level=view.level, target=view.target,
                   scores_only=view.scores_only)

    def after_damage(self) -> None:
        """A damaged game resumed (its play), or abandoned or deleted (home, its Resume
        refreshed)."""
        if self.view.has_game:
            self.table()
        else:
            self.app.go("home")
            self.app.root.sm.get_screen("home").refresh_resume()

    def leave(self) -> None:
        """Home; the game stays in the record and can be resumed."""
        self.act(self.session.close_game)
        self.app.go("home")
        self.app.root.sm.get_screen("home").refresh_resume()

    def request(self, intent: Callable[..., Any], *args: Any) -> None:
        """A request whose outcome the screen shows (Next turn, undo, the pioche's end)."""
        outcome = self.act(intent, *args)
        if outcome is not None and not outcome.accepted:
            self.app.message(spoken(outcome, self.app.lang))
        self.table()

    def open_picker(self, mode: str) -> None:
        """The picker for an announcement, an action or a defence, by the player whose turn
        it is."""
        self.screen("complot_pick").prepare(mode, self.view)
        self.app.go("complot_pick")

    def add_card(self, card_id: str, *, read: bool = False) -> bool:
        """A card read by the hand camera (``read``): into the picker, opened if no picker
        shows for the defence while a contrôle or descente waits for one (C65), else for the
        turn's discard, which a second card turns into an announcement's (six cards laid
        down, C17). False when it was not taken (full, already there, or no game in play)."""
        if self.app.root.sm.current != "complot_pick":
            view = self.view
            if view.phase != "manche" or view.scores_only or not view.players:
                return False
            self.open_picker("defence" if view.pending_action is not None else "discard")
        return bool(self.screen("complot_pick").add_card(card_id, read=read, grow=True))

    def judge(self, mode: str, cards: list[str], words: str, targets: list[int], *,
              claimant: int | None = None) -> None:
        """The picker's Check: the request sent, its verdict shown. ``claimant``: who
        announces (the player whose turn it is by default)."""
        view, session = self.view, self.session
        seat = view.current if view.current is not None else 0
        if mode == "claim":
            seat = seat if claimant is None else claimant
            outcome = self.act(session.claim, seat, words, cards)
        elif mode == "action":
            kind = action_for(cards) or "controle"
            outcome = self.act(session.action, seat, kind, cards, targets)
        else:
            seat = view.pending_target if view.pending_target is not None else seat
            outcome = self.act(session.defence, cards[0] if cards else "")
        if outcome is None:
            return
        self.screen("complot_verdict").set_outcome(mode, seat, words, cards, outcome, view)
        self.go("complot_verdict")

    def defausse(self, card: str, words: str, *, took_top: bool = False) -> None:
        """The «défausse» picker's card: the turn's discard (Next turn; ``took_top``: the
        player drew the top of the «défausse», C13) or the top only shown (``top``: the card
        turned at the deal, C11)."""
        session = self.session
        if words == "top":
            self.request(session.show_top, card)
        else:
            pile = "defausse" if took_top else None
            self.request(lambda: session.next_turn(card, drawn_from=pile))

    def record(self, seat: int, combination: str) -> Any:
        """Scores only: ``seat`` announced ``combination``."""
        outcome = self.act(self.session.claim_points, seat, combination)
        if outcome is not None and not outcome.accepted:
            self.app.message(spoken(outcome, self.app.lang))
        if self.view.phase != "manche":
            self.go("complot_scores")
        else:
            self.screen("complot_quick").draw(self.view)
        return outcome


def _new_session(app: Any) -> Any:
    """The Complot session over the app's record (Noah's games and Complot's side by side)."""
    from companion.complot.session import ComplotSession

    return ComplotSession(app.session.store)


class ComplotScreen(Screen):
    """A Complot screen: it stays while Noah's session, with no game on, publishes views
    (the app's ``screen_for``). It draws a ``ComplotView`` (``draw``; the app's ``show`` is
    for Noah's views)."""

    other_game = True

    def draw(self, view: Any) -> None:
        """Draw ``view`` (a screen that shows nothing of the table draws nothing)."""


def complot_defaults(app: Any) -> Any:
    """The ``[complot]`` section the app started with (companion.config.ComplotSettings)."""
    from companion.config import ComplotSettings

    return getattr(app.started_with, "complot", None) or ComplotSettings()


def _controller() -> ComplotScreens:
    return complot_screens(App.get_running_app())


def _name(view: Any, seat: int | None) -> str:
    return view.players[seat] if seat is not None and seat < len(view.players) else ""


# -- set-up ------------------------------------------------------------------------------------

class ComplotNameRow(BoxLayout):
    """One seat of a new game: the name and a remove button."""

    seat = NumericProperty(0)


class ComplotNewScreen(ComplotScreen):
    """Players (2-6), level (1-3), target score (400 by default), scores only."""

    score_only = BooleanProperty(False)
    level = NumericProperty(1)
    target = NumericProperty(400)

    def prepare(self, *, score_only: bool, names: Sequence[str] = ()) -> None:
        """A new game's set-up: the level and target of ``[complot]`` (the rulebook's 1 and
        400 when the config says nothing), the names of the last table."""
        defaults = complot_defaults(App.get_running_app())
        self.score_only, self.level, self.target = score_only, defaults.level, defaults.target
        self.ids.rows.clear_widgets()
        for name in list(names)[:MAX_PLAYERS] or ["", "", ""]:
            self.add_player(name)

    def rows(self) -> list[ComplotNameRow]:
        return list(reversed(self.ids.rows.children))

    def add_player(self, name: str = "") -> None:
        if len(self.rows()) < MAX_PLAYERS:
            row = ComplotNameRow()
            self.ids.rows.add_widget(row)
            row.ids.name.text = name
            self._number_rows()

    def remove_player(self, row: ComplotNameRow) -> None:
        if len(self.rows()) > 2:
            self.ids.rows.remove_widget(row)
            self._number_rows()

    def _number_rows(self) -> None:
        app = App.get_running_app()
        for seat, row in enumerate(self.rows()):
            row.seat = seat
            row.ids.name.hint_text = app.t("new.player", n=seat + 1)

    def names(self) -> list[str]:
        return [row.ids.name.text.strip() or row.ids.name.hint_text for row in self.rows()]

    def change_target(self, step: int) -> None:
        self.target = min(2000, max(50, self.target + step))

    def start(self) -> None:
        _controller().start(self.names(), level=self.level, target=self.target,
                            scores_only=self.score_only)


# -- play --------------------------------------------------------------------------------------

class ComplotPlayerRow(BoxLayout):
    """A player during a manche: name, the cards in hand (a card with the count, C14), what
    they are doing, their total."""

    name = StringProperty("")
    cards = StringProperty("")
    status = StringProperty("")
    total = StringProperty("")
    current = BooleanProperty(False)
    out = BooleanProperty(False)


class ComplotPlayScreen(ComplotScreen):
    """Whose turn, the players still in, who must pass; the table's buttons."""

    header = StringProperty("")
    turn = StringProperty("")
    hint = StringProperty("")
    actions = BooleanProperty(False)
    defence = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    #: The top of the «défausse» (a card id; empty when not shown) and what it says.
    top = StringProperty("")
    top_caption = StringProperty("")

    def draw(self, view: Any) -> None:
        app = App.get_running_app()
        if not view.players:
            return
        self.top = view.top_of_defausse or ""
        self.top_caption = defausse_caption(app.catalog, view, unknown=False)
        self.ids.top_face.relabel()
        self.header = app.t("complot.play.header", n=view.manche, level=view.level,
                            target=view.target)
        self.turn = app.t("complot.play.turn", name=_name(view, view.current))
        pending = view.pending_action
        self.hint = (app.t("complot.play.pending", action=app.t(f"complot.action.{pending}"))
                     if pending else news(app, view.last) or app.t("complot.play.turn_hint"))
        self.actions, self.defence = view.level >= 2, pending is not None
        self.can_undo, self.can_redo = view.can_undo, view.can_redo
        self.ids.players.clear_widgets()
        counts = view.hand_counts
        for seat, name in enumerate(view.players):
            count = counts[seat] if seat < len(counts) and seat in view.still_in else None
            self.ids.players.add_widget(ComplotPlayerRow(
                name=name, cards="" if count is None else str(count),
                status=player_status(app, view, seat),
                total=app.t("complot.play.points", n=view.scores[seat]),
                current=seat == view.current, out=seat not in view.still_in))


def news(app: Any, last: Any) -> str:
    """What the referee said of the last request, unless it only said whose turn it is (the
    title says that already)."""
    if last is None or all(event == "turn" for event, _params in last.events):
        return ""
    return spoken(last, app.lang)


def player_status(app: Any, view: Any, seat: int) -> str:
    """What a seat is doing this manche: playing now, out with its points, missing a turn."""
    if seat not in view.still_in:
        return app.t("complot.play.status_out", points=view.manche_points[seat])
    if seat in view.must_pass:
        return app.t("complot.play.status_pass")
    if seat == view.current:
        return app.t("complot.play.status_turn")
    return ""


# -- the picker --------------------------------------------------------------------------------

class ComplotPickScreen(ComplotScreen):
    """The cards laid down, by touch or camera: a category, then its first names; the words
    said and who says them (an announcement), or the players targeted (an action)."""

    mode = StringProperty("claim")
    claimant = NumericProperty(0)
    title = StringProperty("")
    count = StringProperty("")
    action_name = StringProperty("")
    chosen = ListProperty([])
    words = StringProperty("complot")
    targets = ListProperty([])
    category = StringProperty("EM")
    view = ObjectProperty(None, allownone=True)
    #: What the last card read by the camera did ("1 of 6 · ✓ Emma read"), or why it was not
    #: taken; empty after a touch.
    feedback = StringProperty("")
    #: The discard's turn began by taking the top of the «défausse» (C13).
    took_top = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reader = ClaimReader()  # the cards laid down: companion/complot/claim_reader.py

    def prepare(self, mode: str, view: Any) -> None:
        self.mode, self.view = mode, view
        self.reader = ClaimReader(size=PICK_LIMITS[mode])
        self.chosen, self.targets, self.feedback = [], [], ""
        self.words, self.took_top = defausse_words(view) if mode == "discard" else "complot", \
            False
        self.claimant = view.current if view.current is not None else 0
        self.category = {"action": "EN", "defence": "EM"}.get(mode, "EM")
        self.draw(view)

    @property
    def limit(self) -> int:
        return PICK_LIMITS[self.mode]

    def draw(self, view: Any) -> None:
        app = App.get_running_app()
        self.view = view
        seat = {"defence": view.pending_target, "claim": self.claimant}.get(self.mode,
                                                                          view.current)
        self.title = app.t("complot.play.defausse") if self.mode == "discard" else \
            app.t(f"complot.pick.{self.mode}", name=_name(view, seat))
        self._fill_words(app)
        self._fill_claimants(view)
        self._fill_targets(app, view)
        self._fill_categories(view.level)
        self._refresh()

    def _fill_words(self, app: Any) -> None:
        """The four announcements (C30, C32, C40), the one said chosen; for the «défausse»,
        whether the card is the turn's discard or only the top shown."""
        said = {"claim": CLAIMS, "discard": DEFAUSSE_WORDS}.get(self.mode, ())
        keys = [(app.lang, words) for words in said]
        for toggle in synced(self.ids.words, keys, lambda key: ChoiceToggle(
                text=self._words_text(app, key[1]), group="words",
                on_release=lambda _b: self.say(key[1]))):
            toggle.state = "down" if toggle.key[1] == self.words else "normal"

    def _words_text(self, app: Any, words: str) -> str:
        if words == "discard":
            return app.t("complot.pick.discard", name=_name(self.view, self.view.current))
        if words == "top":
            return app.t("complot.pick.top")
        return app.t(f"complot.words.{words}")

    def _fill_claimants(self, view: Any) -> None:
        """Who announces: the player whose turn it is, or the one who has just ended their
        turn and may still announce (C30, C45); offered while both may."""
        window = view.claim_window
        seats = [view.current, window] if self.mode == "claim" and window is not None \
            and view.current is not None and window != view.current else []
        if self.mode == "discard" and self.words == "discard" and not view.top_blocked:
            self._fill_took_top()
            return
        for toggle in synced(self.ids.claimants, seats, lambda seat: ChoiceToggle(
                text=view.players[seat], group="claimant",
                on_release=lambda _b: self.claim_by(seat))):
            toggle.state = "down" if toggle.key == self.claimant else "normal"

    def _fill_took_top(self) -> None:
        """The discard's turn: whether it began by taking the top of the «défausse» (C13)."""
        app = App.get_running_app()
        for toggle in synced(self.ids.claimants, [(app.lang, "took_top")],
                             lambda _key: ChoiceToggle(text=app.t("complot.pick.from_defausse"),
                                                       on_release=lambda _b: self.take_top())):
            toggle.state = "down" if self.took_top else "normal"

    def take_top(self) -> None:
        """The turn began by taking the top of the «défausse» (or no longer)."""
        self.took_top = not self.took_top
        self._fill_took_top()

    def claim_by(self, seat: int) -> None:
        self.claimant = seat
        if self.view is not None:
            self.draw(self.view)

    def _fill_targets(self, app: Any, view: Any) -> None:
        """The players an action may target: still in, not the actor (C69)."""
        seats = [seat for seat in view.still_in if seat != view.current]
        for toggle in synced(self.ids.targets, seats if self.mode == "action" else [],
                             lambda seat: ChoiceToggle(text=view.players[seat],
                                                       on_release=lambda _b: self.aim(seat))):
            toggle.state = "down" if toggle.key in self.targets else "normal"

    def _fill_categories(self, level: int) -> None:
        """A button per category in its colour; the one shown framed."""
        def button(category: str) -> Button:
            colour, _symbol = CATEGORY_LOOK[category]
            return CategoryButton(text=category_name(category, lang), background_color=colour,
                                  color=theme.text_on(colour),
                                  on_release=lambda _b: self.show_category(category))

        lang = App.get_running_app().lang
        for category in synced(self.ids.categories, list(categories_for(level)), button):
            category.chosen = category.key == self.category  # framed (bold would not fit)
            category.text = category_name(category.key, lang)  # (the language may change)
            if category.chosen:  # once laid out, brought into the column's view
                Clock.schedule_once(partial(self._bring_into_view, category))

    def _bring_into_view(self, category: Button, _dt: float) -> None:
        if category.parent is not None:
            self.ids.category_scroll.scroll_to(category, padding=0, animate=False)

    def show_category(self, category: str) -> None:
        self.category = category
        self._fill_categories(self.view.level if self.view is not None else 3)
        self._refresh()

    def say(self, words: str) -> None:
        self.words = words
        if self.mode == "discard" and self.view is not None:  # the title and toggles follow
            self.draw(self.view)

    def aim(self, seat: int) -> None:
        """Target ``seat`` (or no longer)."""
        targets = list(self.targets)
        if seat in targets:
            targets.remove(seat)
        else:
            targets.append(seat)
        self.targets = targets
        if self.view is not None:
            self._fill_targets(App.get_running_app(), self.view)

    def add_card(self, card_id: str, *, read: bool = False, grow: bool = False) -> bool:
        """Take ``card_id``, touched or read by the camera (``read``: what it did is said);
        False when full, already taken or not a card of the deck. The «défausse» holds one
        card: another touched replaces it; another read (``grow``) makes the picker an
        announcement's, its cards kept (six laid down, C17)."""
        if self.mode == "discard" and self.reader.complete and card_id not in self.chosen \
                and card_of(card_id) is not None:
            before = list(self.chosen) if grow else []
            if grow and self.view is not None:
                self.prepare("claim", self.view)
            self.reader.clear()
            for kept in before:
                self.reader.add_card(kept)
        reading = self.reader.add_card(card_id)
        self.feedback = reading_words(App.get_running_app(), reading) if read else ""
        self.chosen = list(self.reader.cards)
        self._refresh()
        return reading.added

    def take_off(self, card_id: str) -> None:
        self.reader.remove_card(card_id)
        self.chosen, self.feedback = list(self.reader.cards), ""
        self._refresh()

    def clear(self) -> None:
        self.reader.clear()
        self.chosen, self.feedback = [], ""
        self._refresh()

    def _refresh(self) -> None:
        app = App.get_running_app()
        self.count = app.t("complot.pick.count", n=len(self.chosen), of=self.limit)
        if self.feedback:  # what the camera has just read says the count too
            self.count = self.feedback
        elif not self.chosen and self.mode != "action":  # (room for it until cards fill in)
            hint = "discard_hint" if self.mode == "discard" else "hint"
            self.count += " · " + app.t(f"complot.pick.{hint}")
        action = action_for(self.chosen)
        self.action_name = app.t(f"complot.action.{action}") if action else ""
        faces = self.ids.chosen
        for face in list(faces.children):  # the faces follow the cards chosen, in order
            if face.card_id not in self.chosen:
                faces.remove_widget(face)
        for face in faces.children:
            face.relabel()  # (the language may have changed)
        shown = [face.card_id for face in reversed(faces.children)]
        for card_id in self.chosen[len(shown):]:
            faces.add_widget(CardFace(card_id=card_id, small=True,
                                      on_release=lambda _f, c=card_id: self.take_off(c)))
        deck = default_deck()
        for button in synced(self.ids.names, [card.id for card in cards_of(self.category)],
                             lambda card_id: NameButton(
                                 on_release=lambda _b: self.add_card(card_id))):
            taken = button.key in self.chosen  # a card laid down is ticked, not taken twice
            button.text = ("✓ " if taken else "") + deck[button.key].first_name
            button.disabled = taken

    def check(self) -> None:
        if self.mode == "discard":
            _controller().defausse(self.chosen[0], self.words, took_top=self.took_top)
            return
        _controller().judge(self.mode, list(self.chosen), self.words, list(self.targets),
                            claimant=self.claimant)


def defausse_words(view: Any) -> str:
    """What the «défausse» picker first offers: the card turned up at the deal (``top``,
    C11) before any turn of the manche while the top is not shown, else the turn's discard.
    """
    if view.turns_played == 0 and view.top_of_defausse is None and not view.top_blocked:
        return "top"
    return "discard"


def reading_words(app: Any, reading: Reading) -> str:
    """What one card read by the camera did, for the picker's count line: "1 of 6 · ✓ Emma
    read", or why it was not taken. The first name only: the card's face, just drawn, shows
    its category, and the line has one row on a full picker."""
    if reading.card is None:
        return reading.message(app.lang)
    kind = "added" if reading.kind == "complete" else reading.kind
    return app.t(f"complot.read.{kind}", card=reading.card.first_name, count=reading.count,
                 size=reading.size)


def synced(box: Any, keys: Sequence[Any], make: Callable[[Any], Any]) -> list[Any]:
    """The widgets of ``box``, one per key in order (``widget.key``): made again only when
    the keys change, so a touch updates the buttons instead of building them all again."""
    if [child.key for child in reversed(box.children)] != list(keys):
        box.clear_widgets()
        for key in keys:
            widget = make(key)
            widget.key = key
            box.add_widget(widget)
    return list(reversed(box.children))


class ChoiceToggle(ToggleButton):
    """A choice of the picker (the words said, a target): green and bold when chosen."""


class CategoryButton(Button):
    """A category of the picker's filter, in its colour; the one shown framed in white."""

    chosen = BooleanProperty(False)


class NameButton(Button):
    """A first name of the category shown: touching it lays that card down (the scores-only
    screen's combinations look the same)."""


# -- verdict -----------------------------------------------------------------------------------

class ComplotVerdictScreen(ComplotScreen):
    """The cards of a request as drawn faces, and what the referee says."""

    title = StringProperty("")
    sentence = StringProperty("")
    accepted = BooleanProperty(False)

    def set_outcome(self, mode: str, seat: int, words: str, cards: Sequence[str],
                    outcome: Any, view: Any) -> None:
        app = App.get_running_app()
        name = _name(view, seat)
        self.accepted = outcome.accepted
        said = app.t(f"complot.words.{words}") if mode == "claim" else (
            app.t("complot.play.defence") if mode == "defence"
            else app.t(f"complot.action.{action_for(cards) or 'controle'}"))
        self.title = app.t("complot.verdict.title", name=name, said=said)
        self.sentence = spoken(outcome, app.lang)
        faces = self.ids.faces
        faces.clear_widgets()
        for card_id in outcome.cards or tuple(cards):
            faces.add_widget(CardFace(card_id=card_id))

    def draw(self, view: Any) -> None:
        """The verdict stays as it was judged (a later view changes nothing shown)."""


#: French spacing (the catalogs' rule): a no-break space before a colon, a narrow one before
#: ! ? ; — so a line never starts with the mark.
FRENCH_SPACES = ((" :", "\u00a0:"), (" !", "\u202f!"), (" ?", "\u202f?"), (" ;", "\u202f;"))


def spoken(outcome: Any, language: str) -> str:
    """What the referee says of an outcome (the session's sentence: what happened, what to
    do next), spaced as its language wants.

    >>> from companion.complot.session import ComplotOutcome
    >>> spoken(ComplotOutcome(False, "not_your_turn"), "fr")
    "Ce n'est pas votre tour\xa0: attendez-le."
    """
    text = str(outcome.sentence(language))
    if language == "fr":
        for plain, spaced in FRENCH_SPACES:
            text = text.replace(plain, spaced)
    return text


# -- scores ------------------------------------------------------------------------------------

#: The manches shown as columns (the older ones are in the total).
SHOWN_MANCHES = 5
#: At the game's end, beside the BG Stats code.
END_MANCHES = 2


class ScoreBar(BoxLayout):
    """A player's total as a bar towards the target (full at the target)."""

    share = NumericProperty(0.0)
    winner = BooleanProperty(False)


class ScoreCell(Label):
    """One figure of the score track."""

    strong = BooleanProperty(False)


class ComplotScoresScreen(ComplotScreen):
    """The score track: a row per player (its last manches, this manche, the total, a bar to
    the target); the manche's end and the game's end (winners, ties)."""

    title = StringProperty("")
    subtitle = StringProperty("")
    phase = StringProperty("manche")
    #: The width the BG Stats code takes at the game's end (0: none), set by the code itself.
    badge_room = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.code: WebBadge | None = None
        self._code_for: tuple[Any, ...] = ()

    def add_code(self, session: Any) -> None:
        """The game's end's BG Stats code, as Noah's end screen has it (companion/ui/weblink:
        the page's short link when the page is on, else the whole link; a touch shows it
        big), for ``session``'s finished game."""
        size, corner = BADGE_PLACES["game_end"]
        self.code = WebBadge(kind="bgstats", session=session, size=size, pos_hint=corner)
        self.add_widget(self.code)

    def draw(self, view: Any) -> None:
        app = App.get_running_app()
        if not view.players:
            return
        self.phase = view.phase
        shown_for = (view.game_id, view.phase, view.scores, app.lang)
        if self.code is not None and shown_for != self._code_for:  # a code made once per end
            self._code_for = shown_for
            self.code.refresh()  # hidden until the game is over
        self.title, self.subtitle = score_titles(app, view)
        grid = self.ids.track
        grid.clear_widgets()
        # the game's end has the BG Stats code beside the track: room for fewer manches
        shown = manche_columns(view, END_MANCHES if view.phase == "game_over" else SHOWN_MANCHES)
        grid.cols = len(shown) + 3
        self._header(app, grid, shown, view)
        for seat, name in enumerate(view.players):
            self._row(grid, seat, name, shown, view)

    @staticmethod
    def _header(app: Any, grid: Any, shown: list, view: Any) -> None:
        grid.add_widget(ScoreCell(text=""))
        for number, _points in shown:  # the manche in play in bold
            grid.add_widget(ScoreCell(text=app.t("complot.scores.manche_col", n=number),
                                      strong=view.phase == "manche" and number == view.manche))
        grid.add_widget(ScoreCell(text=app.t("complot.scores.total")))
        # the bars' end; at the game's end it is reached and the column is narrow (the code)
        grid.add_widget(ScoreCell(text="" if view.phase == "game_over" else f"→ {view.target}"))

    @staticmethod
    def _row(grid: Any, seat: int, name: str, shown: list, view: Any) -> None:
        winner = seat in view.winners
        grid.add_widget(ScoreCell(text=name, strong=winner, halign="left"))
        for _number, points in shown:
            grid.add_widget(ScoreCell(text=str(points[seat])))
        grid.add_widget(ScoreCell(text=str(view.scores[seat]), strong=True))
        grid.add_widget(ScoreBar(share=min(1.0, view.scores[seat] / max(1, view.target)),
                                 winner=winner))


def manche_columns(view: Any, count: int = SHOWN_MANCHES) -> list[tuple[int, tuple[int, ...]]]:
    """The score track's columns: (manche number, points per seat) of the last ``count``
    manches, the one in play included (the older ones are in the total).

    >>> from companion.complot.session import ComplotView
    >>> manche_columns(ComplotView(manche=2, manches=((15, 0),), manche_points=(0, 50)))
    [(1, (15, 0)), (2, (0, 50))]
    >>> manche_columns(ComplotView(manche=1, manches=((15, 0),), phase="manche_over"))
    [(1, (15, 0))]
    """
    columns = list(enumerate(view.manches, start=1))
    if view.phase == "manche":
        columns.append((view.manche, view.manche_points))
    return columns[-count:]


def score_titles(app: Any, view: Any) -> tuple[str, str]:
    """The score track's title and the line under it: the game's winners (a tie shared),
    the manche's end and why, or the manche in play."""
    reason = app.t(f"complot.scores.reason.{view.end_reason}") if view.end_reason else ""
    if view.phase == "game_over":
        best = max(view.scores)
        names = [view.players[seat] for seat in view.winners]
        if len(names) == 1:
            return app.t("complot.scores.winner", name=names[0], points=best), reason
        from companion.i18n import Catalog

        joined = Catalog(app.lang).join(names)
        return app.t("complot.scores.tie", names=joined, points=best), reason
    if view.phase == "manche_over":
        return app.t("complot.scores.manche_over", n=view.manche), reason
    return app.t("complot.scores.title", n=view.manche), ""


# -- scores only -------------------------------------------------------------------------------

class ComplotQuickScreen(ComplotScreen):
    """Scores only: touch the player, then the combination announced."""

    title = StringProperty("")
    last = StringProperty("")
    seat = NumericProperty(-1)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)

    def draw(self, view: Any) -> None:
        app = App.get_running_app()
        if not view.players:
            return
        self.title = app.t("complot.quick.title", n=view.manche)
        self.can_undo, self.can_redo = view.can_undo, view.can_redo
        if self.seat not in view.still_in:
            self.seat = -1
        self.last = self._last(app, view)
        self._players(app, view)
        self._combinations(app)

    @staticmethod
    def _last(app: Any, view: Any) -> str:
        """What the referee said last (the announcement just recorded), or what to do."""
        said = spoken(view.last, app.lang) if view.last is not None else ""
        return said or app.t("complot.quick.hint")

    def _players(self, app: Any, view: Any) -> None:
        """A button per player; those out of the manche show their points (C50)."""
        for toggle in synced(self.ids.players, list(range(len(view.players))),
                             lambda seat: ChoiceToggle(group="quick_player",
                                                       on_release=lambda _b: self.choose(seat))):
            seat = toggle.key
            out = seat not in view.still_in
            name = view.players[seat]
            toggle.text = f"✓ {name} · {view.manche_points[seat]}" if out else name
            toggle.disabled = out
            toggle.state = "down" if seat == self.seat else "normal"

    def _combinations(self, app: Any) -> None:
        """Every combination with its points (C31, C32, C40), once a player is chosen."""
        keys = [(app.lang, combination) for combination in COMBINATION_POINTS]
        for button in synced(self.ids.combinations, keys, lambda key: NameButton(
                text=f"{app.t(f'complot.combo.{key[1]}')} · {COMBINATION_POINTS[key[1]]}",
                on_release=lambda _b: self.record(key[1]))):
            button.disabled = self.seat < 0

    def choose(self, seat: int) -> None:
        self.seat = seat if self.seat != seat else -1
        self._combinations(App.get_running_app())

    def record(self, combination: str) -> None:
        seat, self.seat = self.seat, -1
        if seat >= 0:
            _controller().record(seat, combination)
