"""The app's own widgets; their looks are in ``widgets.kv``.

Each widget draws from plain values (a ferry's card references, weights, scores, a lights
snapshot) taken from the session's view, so screens and screenshots can feed them a state dict
in the TABLE-LOG format directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.animation import Animation
from kivy.app import App
from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.graphics import Canvas, Color, Ellipse, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.game.deck import parse_ref
from companion.game.sizes import FERRY_COUNT, TEAR_TARGET
from companion.ui import theme
from companion.ui.pictures import picture_path

MAX_TILES = 4  # cards drawn per ferry; the rest is summed up as "+n below"
MOMENT = 1.2  # s: how long a departure or a pair bonus glows
TILE_SMALLEST = 16  # px: the longest names on a ferry tile ("Woodpecker ♂", "Rhinocéros ♀")


def ferry_pattern(refs: Sequence[str]) -> str:
    """How a ferry's genders run: ``"open"`` (fewer than two animals), ``"M"``/``"F"`` (all
    the same) or ``"alt"`` (alternating).

    >>> ferry_pattern(["cat:F#1"]), ferry_pattern(["cat:F#1", "lion:M#2"])
    ('open', 'alt')
    >>> ferry_pattern(["cat:M#1", "snail:M#2"])
    'M'
    """
    genders = [parse_ref(ref).gender for ref in refs[:2]]
    if len(genders) < 2 or genders[0] is None or genders[1] is None:
        return "open"
    return genders[0] if genders[0] == genders[1] else "alt"


def picture_of(name: str) -> str:
    """The path of a species' (or ``"noah"``, ``"ferry"``, ``"ark"``) picture, as Kivy's
    ``source`` takes it; a card reference gives its species.

    >>> picture_of("cat:F#2").endswith("cat.png"), picture_of("ark").endswith("ark.png")
    (True, True)
    """
    species = parse_ref(name).species if ":" in name or "#" in name else name
    return str(picture_path(species))


def fitting_font(text: str, *, width: float, largest: int, smallest: int,
                 bold: bool = True) -> int:
    """The largest font size (the app's font) at which ``text`` fits on one line of
    ``width`` pixels; ``smallest`` if none does (the label then wraps or shortens it).

    >>> fitting_font("Ana", width=218, largest=42, smallest=20)
    42
    >>> fitting_font("Éloïse-Amandine", width=218, largest=42, smallest=20) < 42
    True
    """
    needed = text_width(text, largest, bold=bold)
    if needed <= width:
        return largest
    return max(smallest, int(largest * width / needed))


def text_width(text: str, size: float, *, bold: bool = False, font: str = "") -> float:
    """How wide ``text`` is on one line in ``font`` (the app's font) at ``size`` px.

    >>> text_width("Ana", 22) < text_width("Anne-Charlotte", 22)
    True
    """
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text=text, font_size=size, font_name=font or theme.FONT, bold=bold)
    return float(label.get_extents(text)[0])


class PictureButton(Button):
    """A button with an animal's picture at its left and its name beside it (``picture`` is
    a file path; empty: a plain button)."""

    picture = StringProperty("")


class CardTile(Label):
    """One animal on a ferry: its picture, species and ♂/♀ on the gender's colour."""

    ref = StringProperty("")
    back = ListProperty(theme.GENDER_COLOURS[None])
    picture = StringProperty("")

    def on_ref(self, _widget: Any, ref: str) -> None:
        self.back = theme.GENDER_COLOURS[parse_ref(ref).gender]
        self.picture = picture_of(ref) if ref else ""

    def on_text(self, *_args: Any) -> None:
        self._fit()

    def on_width(self, *_args: Any) -> None:
        self._fit()

    def _fit(self) -> None:
        """As large as the tile allows: the picture and the ♂/♀ carry the card when a long
        name must shrink (the layout test lists this as its one exception to 22 px)."""
        room = self.width - self.height - 6
        if room > 20 and self.text:
            self.font_size = fitting_font(self.text, width=room, largest=theme.BODY,
                                          smallest=TILE_SMALLEST, bold=False)


class PlayerLine(BoxLayout):
    """A player during play: the score on their token's colour, the name, the cards in hand."""

    name = StringProperty("")
    score = NumericProperty(0)
    count = NumericProperty(0)
    colour = ListProperty([1, 1, 1, 1])
    current = BooleanProperty(False)


class FerryView(ButtonBehavior, BoxLayout):
    """A ferry as on the board: number, Noah, weight over capacity, pattern, animals bottom to
    top, and its virtual LED. Touching it answers Noah's placement or move."""

    position = NumericProperty(0)
    cards = ListProperty()
    weight = NumericProperty(0)
    capacity = NumericProperty(21)
    departed = BooleanProperty(False)
    noah = BooleanProperty(False)
    choice = BooleanProperty(False)
    led = ListProperty([0, 0, 0, 0])
    pattern = StringProperty("open")
    hidden = NumericProperty(0)
    noah_picture = StringProperty(str(picture_path("noah")))
    glow = NumericProperty(0)  # a moment: 1 fading to 0 (a departure, a pair bonus)
    glow_colour = ListProperty(theme.NOAH)

    def celebrate(self, colour: Sequence[float], seconds: float = MOMENT) -> None:
        """A short visible moment on this ferry (it never blocks a touch: drawing only)."""
        Animation.cancel_all(self, "glow")
        self.glow_colour, self.glow = list(colour), 1.0
        Animation(glow=0.0, d=seconds, t="in_quad").start(self)

    def on_cards(self, _widget: Any, cards: list) -> None:
        self.pattern = ferry_pattern(cards)
        # the "+n below" line takes a tile's room: the weight gauge above must stay visible
        shown = len(cards) if len(cards) <= MAX_TILES else MAX_TILES - 1
        self.hidden = len(cards) - shown
        stack = self.ids.stack
        stack.clear_widgets()
        for ref in reversed(cards[len(cards) - shown:]):  # the top card first, seen from above
            stack.add_widget(CardTile(ref=ref))

    def on_release(self) -> None:
        App.get_running_app().ferry_touched(int(self.position))


class Board(FloatLayout):
    """Five ferries in a pentagon around the ark, as on the game's board (the scores are
    written beside the players' names on the table screen)."""

    state = ObjectProperty({}, allownone=True)
    choices = ListProperty()
    lights = ListProperty()
    ark = StringProperty(str(picture_path("ark")))

    def on_state(self, _widget: Any, state: Any) -> None:
        self._moments(self._previous or {}, state or {})
        self._previous = state or {}
        self._refresh()

    _previous: Any = None  # the state drawn before this one (for the moments)

    def _moments(self, before: Any, after: Any) -> None:
        """A ferry that departs glows gold; a pair bonus (R26: the player plays again) glows
        green on Noah's ferry."""
        if before.get("round") != after.get("round") or not before.get("ferries"):
            return
        for k, (was, now) in enumerate(zip(before["ferries"], after.get("ferries") or (),
                                           strict=False)):
            if was is not None and now is None:
                self._ferry(k).celebrate(theme.NOAH)
        noah = after.get("noah")
        if after.get("extra_turn") and not before.get("extra_turn") and noah is not None:
            self._ferry(noah).celebrate(theme.HIGHLIGHT)

    def on_choices(self, *_args: Any) -> None:
        self._refresh()

    def on_lights(self, _widget: Any, lights: list) -> None:
        for light in lights:
            self._ferry(light.ferry).led = _led_colour(light)

    def _ferry(self, k: int) -> FerryView:
        return self.ids[f"ferry{k}"]

    def _refresh(self) -> None:
        state = self.state or {}
        ferries = state.get("ferries") or [None] * FERRY_COUNT
        weights = state.get("weights") or [0] * FERRY_COUNT
        capacities = state.get("capacities") or [21] * FERRY_COUNT
        for k in range(FERRY_COUNT):
            view = self._ferry(k)
            view.departed = ferries[k] is None and bool(state.get("ferries"))
            view.cards = list(ferries[k] or [])
            view.weight = weights[k] or 0
            view.capacity = capacities[k] or 21
            view.noah = state.get("noah") == k
            view.choice = k in self.choices


def _led_colour(light: Any) -> list[float]:
    """An LED's colour as drawn: its RGB colour (or warm white) at its brightness."""
    r, g, b = light.colour or (1.0, 0.85, 0.4)
    return [r, g, b, float(light.brightness)]


class ScoreTrack(Widget):
    """The board's tear track, 0 to 26 round an oval, with one token per player.

    ``shown`` is what is drawn; :meth:`move_to` slides the tokens there (Kivy animates lists
    element by element).
    """

    scores = ListProperty()
    shown = ListProperty()
    colours = ListProperty()
    names = ListProperty()
    cells = NumericProperty(TEAR_TARGET + 1)  # 0 to 26
    game = ObjectProperty(None, allownone=True)  # a new game's tokens jump, never slide

    def __init__(self, **kwargs: Any) -> None:
        # two layers, the tokens over the oval: a token's slide redraws the tokens only (the
        # oval's 27 cells and their numbers' textures again at every frame of it were most of
        # the UI's drawing time while the tokens moved)
        self._oval, self._tokens = Canvas(), Canvas()
        super().__init__(**kwargs)
        self.canvas.after.add(self._oval)
        self.canvas.after.add(self._tokens)

    def on_scores(self, _widget: Any, scores: list) -> None:
        if len(self.shown) != len(scores):
            self.shown = [float(s) for s in scores]
        else:
            self.move_to(scores)

    def move_to(self, scores: Sequence[int], duration: float = 1.2) -> None:
        Animation.cancel_all(self, "shown")
        Animation(shown=[float(s) for s in scores], d=duration, t="out_quad").start(self)

    def on_shown(self, *_args: Any) -> None:
        self.redraw_tokens()

    def on_size(self, *_args: Any) -> None:
        self.redraw()

    def on_pos(self, *_args: Any) -> None:
        self.redraw()

    def cell_centre(self, value: float) -> tuple[float, float]:
        """Where score ``value`` sits on the oval (0 at the bottom, going clockwise)."""
        import math

        angle = -math.pi / 2 - 2 * math.pi * (value % self.cells) / self.cells
        return (self.center_x + 0.42 * self.width * math.cos(angle),
                self.center_y + 0.40 * self.height * math.sin(angle))

    @property
    def cell(self) -> float:
        """A cell's diameter, and a token's."""
        return max(6.0, min(self.width, self.height) * 0.07)

    def redraw(self) -> None:
        """The oval and the tokens."""
        self._oval.clear()
        cell = self.cell
        with self._oval:
            for value in range(self.cells):
                x, y = self.cell_centre(value)
                Color(1, 1, 1, 0.9 if value % 5 == 0 else 0.4)
                Line(circle=(x, y, cell / 2), width=1.2 if value % 5 == 0 else 1)
                if value % 5 == 0 and cell >= 20:
                    _text(str(value), (x, y), cell * 0.5, (1, 1, 1, 0.9))
        self.redraw_tokens()

    def redraw_tokens(self) -> None:
        self._tokens.clear()
        cell = self.cell
        with self._tokens:
            marks = token_marks(self.names)
            for seat, centre in enumerate(self.token_centres(cell)):
                Color(*theme.player_colour(self.colours, seat))
                Ellipse(pos=(centre[0] - cell / 2, centre[1] - cell / 2), size=(cell, cell))
                Color(0, 0, 0, 1)
                Line(circle=(*centre, cell / 2), width=1)
                if seat < len(marks) and cell >= 20:  # the token says whose it is
                    _text(marks[seat], centre, cell * 0.6, (0, 0, 0, 1))

    def token_centres(self, cell: float) -> list[tuple[float, float]]:
        """Where each token is drawn: on its cell; tokens that share a cell in a short row
        from it toward the oval's middle, each beside the other (never stacked over one
        another or over the next cells' numbers)."""
        sharing: dict[int, int] = {}
        centres = []
        for score in self.shown:
            x, y = self.cell_centre(score)
            place = sharing.get(round(score), 0)
            sharing[round(score)] = place + 1
            dx, dy = self.center_x - x, self.center_y - y
            length = max(1.0, (dx * dx + dy * dy) ** 0.5)
            step = place * cell * 1.05 / length
            centres.append((x + dx * step, y + dy * step))
        return centres


def token_marks(names: Sequence[str]) -> list[str]:
    """What each score token shows: the name's first letter; where two names share it, a
    default name's number ("Player 4" → "4") or the first two letters.

    >>> token_marks(["Ana", "Ben"]), token_marks(["Player 4", "Player 5", "Zoé"])
    (['A', 'B'], ['4', '5', 'Z'])
    >>> token_marks(["Anne", "Alex"])
    ['An', 'Al']
    """
    import re

    firsts = [name[:1] for name in names]
    marks = []
    for name, first in zip(names, firsts, strict=True):
        number = re.search(r"\d+$", name)
        if firsts.count(first) == 1:
            marks.append(first)
        else:
            marks.append(number.group() if number else name[:2])
    return marks


def _text(text: str, centre: tuple[float, float], size: float, rgba: Sequence[float]) -> None:
    """Draw a short text centred at ``centre`` on the current canvas."""
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text=text, font_size=size, font_name=theme.FONT, bold=True)
    label.refresh()
    texture = label.texture
    Color(*rgba)
    Rectangle(texture=texture, size=texture.size,
              pos=(centre[0] - texture.width / 2, centre[1] - texture.height / 2))


class CameraView(Image):
    """The small live camera view: the newest frame of a :class:`~companion.ui.camera.FrameTap`,
    shrunk to the widget and uploaded on the UI thread once per new camera frame, only while
    the view is on screen (OpenCV frames are BGR and top-down; textures are bottom-up)."""

    tap = ObjectProperty(None, allownone=True)
    uploads = NumericProperty(0)
    texture: Any  # Image's Kivy property (declared for mypy only: no class attribute)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._shown_count = -1
        # looked at on every frame of Kivy's loop, uploaded only when the tap has a new frame: a
        # 1/30 s interval beats against a 30 fps camera and a frame that takes about as long,
        # so a camera frame often waited a whole extra turn of the loop (22–24 shown a second)
        self._event = Clock.schedule_interval(self._update, 0)

    def _update(self, _dt: float) -> None:
        tap = self.tap
        if tap is None or tap.latest is None or tap.count == self._shown_count \
                or self.get_root_window() is None or min(self.size) < 2:
            return
        self._shown_count = tap.count
        self.show_frame(tap.latest)

    def show_frame(self, frame: Any) -> None:
        """Show ``frame`` (BGR, top-down) now, shrunk to the view."""
        if min(self.size) < 2:
            return
        frame = _fit(frame, self.size)
        height, width = frame.shape[:2]
        texture = self.texture
        if texture is None or texture.size != (width, height):
            texture = Texture.create(size=(width, height), colorfmt="bgr")
            texture.flip_vertical()
        texture.blit_buffer(frame.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
        self.texture = texture
        self.canvas.ask_update()
        self.uploads += 1


def _fit(frame: Any, size: Sequence[float]) -> Any:
    """The frame shrunk to fit ``size`` (uploading a full frame costs far more than this).

    Bilinear to twice the size, then area-averaged by two: within two grey levels of averaging
    the whole frame down (``INTER_AREA`` at 4.5:1), at a seventh of its cost on the UI thread.

    >>> import numpy as np
    >>> _fit(np.zeros((450, 800, 3), np.uint8), (176, 100)).shape
    (99, 176, 3)
    """
    import cv2

    height, width = frame.shape[:2]
    scale = min(size[0] / width, size[1] / height, 1.0)
    if scale >= 1.0:
        return frame
    fitted = (max(1, int(width * scale)), max(1, int(height * scale)))
    if scale < 0.5:
        frame = cv2.resize(frame, (2 * fitted[0], 2 * fitted[1]), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(frame, fitted, interpolation=cv2.INTER_AREA)


class Banner(Label):
    """A full-width message over the screen: red for a refused play, orange for the camera.

    A banner raised on a screen (``screen``) belongs to it: :meth:`leave` hides it when another
    screen comes, so a refusal never lingers over the round's result."""

    back = ListProperty(theme.ILLEGAL)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.screen = ""

    def show(self, text: str, colour: Sequence[float] = theme.ILLEGAL, seconds: float = 0,
             screen: str = "") -> None:
        """Show ``text`` (for ``seconds``, 0: until hidden), on ``screen`` only if named."""
        self.text, self.back, self.opacity, self.screen = text, list(colour), 1, screen
        Clock.unschedule(self.hide)
        if seconds:
            Clock.schedule_once(self.hide, seconds)

    def leave(self, screen: str) -> None:
        """``screen`` is now shown: a banner raised on another one goes."""
        if self.screen and self.screen != screen:
            self.hide()

    def hide(self, *_args: Any) -> None:
        Clock.unschedule(self.hide)
        self.opacity = 0
        self.text = ""
        self.screen = ""


class UndoOffer(EventDispatcher):
    """What a one-touch action just did, offered back for ``seconds`` or until the game moves
    on (``follow``: Undo then would take back something else). The offer is the table's own
    Undo button, lit while ``shown`` (beside the side panel's sentence saying what was done):
    nothing is drawn over the ferries."""

    seq = NumericProperty(-1)
    shown = BooleanProperty(False)

    def offer(self, seq: int, seconds: float) -> None:
        """Offer to undo the action that made the record ``seq`` long."""
        self.seq, self.shown = seq, True
        Clock.unschedule(self.hide)
        Clock.schedule_once(self.hide, seconds)

    def follow(self, seq: int) -> None:
        """The record is now ``seq`` long: anything else done since ends the offer."""
        if self.shown and seq != self.seq:
            self.hide()

    def hide(self, *_args: Any) -> None:
        Clock.unschedule(self.hide)
        self.shown = False


#: Notices that say a card was read (or chosen) and accepted, by the key of their phrase.
CARD_READ_KEYS = ("event.loaded", "notice.setup_card", "notice.hand_scanned")
FLASH_SECONDS = 1.5


def card_read(notice: Any) -> str:
    """The card an accepted notice says was read ("" for any other notice).

    >>> from companion.session.view import Notice, Phrase
    >>> card_read(Notice("info", (Phrase("notice.setup_card", {"card": "cat:F#1"}),)))
    'cat:F#1'
    >>> card_read(Notice("refused", (Phrase("event.loaded", {"card": "x"}),)))
    ''
    """
    if notice.level != "info":
        return ""
    for phrase in notice.phrases:
        if phrase.key in CARD_READ_KEYS and isinstance(phrase.params.get("card"), str):
            return str(phrase.params["card"])
    return ""


class CameraPanel(ButtonBehavior, FloatLayout):
    """The small camera view of the game's screens, captioned with which camera it shows;
    a card read flashes over it ("✓" and the card's picture) for a moment. Touching it opens
    the camera's big view (:meth:`NoahApp.open_camera_view
    <companion.ui.application.NoahApp.open_camera_view>`)."""

    tap = ObjectProperty(None, allownone=True)
    caption = StringProperty("")
    flash_text = StringProperty("")
    flash_picture = StringProperty("")

    def flash(self, text: str, ref: str, seconds: float = FLASH_SECONDS) -> None:
        """Say ``text`` over the view with the picture of card ``ref`` for ``seconds``."""
        self.flash_text, self.flash_picture = text, picture_of(ref)
        Clock.unschedule(self.end_flash)
        Clock.schedule_once(self.end_flash, seconds)

    def end_flash(self, *_args: Any) -> None:
        Clock.unschedule(self.end_flash)
        self.flash_text, self.flash_picture = "", ""

    def on_release(self) -> None:
        App.get_running_app().open_camera_view()
