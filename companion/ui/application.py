"""The Kivy application: screens over one referee :class:`~companion.session.Session`.

Threads: the session publishes views from whichever thread made the change (the camera
pipeline, gpiozero's button thread, the UI); :meth:`NoahApp._view_published` hands each to the
UI thread with ``@mainthread``, where the screen for the awaited step draws the newest. Nothing slow
runs on the UI thread: capture and decoding live in the pipeline's thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from kivy.app import App
from kivy.clock import mainthread
from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.config import yes_or_no
from companion.errors import UserError
from companion.i18n import Catalog
from companion.system import Backlight, power_off, run_command
from companion.ui import theme
from companion.ui.fonts import catalog_for
from companion.ui.screens import (
    CameraPopup,
    CardTray,
    GameEndScreen,
    HistoryScreen,
    HomeScreen,
    MessagePopup,
    NewGameScreen,
    RoundEndScreen,
    SetupScreen,
    TableScreen,
)
from companion.ui.settings import SECTION_DEFAULTS, UiSettings, checked_change
from companion.ui.settings_page import SettingsScreen, TechnicalScreen
from companion.ui.tablecam import TableCameraScreen
from companion.ui.widgets import Banner, CameraPanel, UndoOffer, card_read

if TYPE_CHECKING:
    from companion.session import Session
    from companion.session.steps import Step

P = ParamSpec("P")
R = TypeVar("R")

HERE = Path(__file__).parent
log = logging.getLogger(__name__)
SETUP_KINDS: tuple[Step, ...] = ("choose_noah_start", "scan_setup_card", "choose_starter")
SCREEN_OF: dict[Step, str] = {
    "no_game": "home", "play_card": "table", "choose_card": "table",
    "choose_snail_side": "table", "choose_frog_weight": "table", "choose_target": "table",
    "move_noah": "table", "give_cards": "table", "scan_hand": "round_end",
    "enter_tears": "round_end", "game_over": "game_end",
    **{kind: "setup" for kind in SETUP_KINDS},
}
"""The screen that answers each prompt kind."""
BANNER_SECONDS = 5
UNDO_OFFER_SECONDS = 6
"""How long "I cannot play" offers its Undo (the animals are already taken back)."""
HOME_NEIGHBOURS = ("new_game", "history", "settings", "settings_technical")
"""The screens reached from the home screen, kept while no game is on."""
GAME_SCREENS = ("setup", "table", "round_end")
"""The screens with the small camera view."""
TABLE_CHECK = "tablecam"
"""The calibration screen (companion/ui/tablecam.py): kept during a game until it is left."""


class Root(FloatLayout):
    """The screen manager with the app-wide banners over it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sm = ScreenManager(transition=NoTransition())  # no two screens touchable at once
        for screen in (HomeScreen(name="home"), NewGameScreen(name="new_game"),
                       SetupScreen(name="setup"), TableScreen(name="table"),
                       RoundEndScreen(name="round_end"), GameEndScreen(name="game_end"),
                       HistoryScreen(name="history"), SettingsScreen(name="settings"),
                       TechnicalScreen(name="settings_technical"),
                       TableCameraScreen(name=TABLE_CHECK)):
            self.sm.add_widget(screen)
        self.alert = Banner()
        self.camera_banner = Banner(pos_hint={"y": 0}, height=44, font_size=19)
        for widget in (self.sm, self.alert, self.camera_banner):
            self.add_widget(widget)
        self.sm.bind(current=lambda _sm, name: self.alert.leave(name))


class NoahApp(App):
    """The touchscreen app. ``session`` referees; ``simulator`` (simulator mode) puts touched
    tray cards under a synthetic camera; ``cameras`` (:class:`companion.wiring.Cameras`) read
    the hand camera and the overhead camera off the UI thread (``pipeline``, anything with
    ``start``/``stop``, is the hand camera's alone); ``camera_tap`` feeds the live view;
    ``lights`` are mirrored as virtual LEDs. ``table_look`` is what the calibration screen
    shows of the overhead camera; ``overhead()`` opens that camera for the screen when no game
    camera runs it (``view = hand``). ``reading`` is where the cards are read (the ``[camera]
    view``: ``hand``, ``table`` or ``both``), for the sentences that say where to put them."""

    title = "Noah Table Companion"
    lang = StringProperty("en")
    view = ObjectProperty(None, allownone=True)
    camera_tap = ObjectProperty(None, allownone=True)
    simulator = ObjectProperty(None, allownone=True)
    showing_result = BooleanProperty(False)
    refusals = NumericProperty(0)
    reading = OptionProperty("hand", options=("hand", "table", "both"))

    def __init__(self, session: Session, *, settings: UiSettings = UiSettings(),  # noqa: B008
                 simulator: Any = None, pipeline: Any = None, camera_tap: Any = None,
                 lights: Any = None, cameras: Any = None, table_look: Any = None,
                 overhead: Any = None,
                 config_file: Path | None = None, sound: Path | None = None,
                 started_with: Any = None, **kwargs: Any) -> None:
        self.catalog, self.font_problem = catalog_for(settings.language, theme.FONT)
        super().__init__(**kwargs)
        self.session, self.lights, self.settings = session, lights, settings
        self.simulator = simulator
        self.cameras = cameras
        self.pipeline = pipeline or getattr(cameras, "hand", None) or (
            simulator.pipeline if simulator else None)
        self.camera_tap = camera_tap or (simulator.camera if simulator else None)
        self.table_look, self.overhead = table_look, overhead
        # the validated config the app started with (companion.config.Config): the game the
        # home screen opens on, a game's defaults; a setting changed applies at the next start
        self.started_with = started_with
        self.looking: Any = None  # the calibration screen's own capture (view = hand)
        self._newest_view: Any = None  # the session's last published view (any thread)
        self._releasing: threading.Thread | None = None  # its release, off the UI thread
        self._look_token: object | None = None  # which capture of it may feed the check
        self._check_source: Any = None
        self._back_from_check = "home"
        self.lang = self.catalog.language
        self._config_file = config_file
        self._sound_file = sound
        self._sound = _load_sound(sound) if sound and settings.sounds else None
        self.backlight = Backlight.find()  # None: no brightness on the settings page
        self.run_command = run_command  # how Shut down asks systemd (tests hand in a fake)
        self._unsubscribe: Any = None
        self._notices: tuple = ()
        self._tray: CardTray | None = None
        self.undo_offer = UndoOffer()  # the table's Undo button, lit while it is offered

    # -- words -----------------------------------------------------------------------------

    def t(self, key: str, _lang: str | None = None, **params: Any) -> str:
        """A sentence in the current language. kv passes ``app.lang`` as ``_lang`` so the text
        is redrawn when the language changes."""
        return self.catalog.text(key, **params)

    def card_label(self, ref: str, _lang: str | None = None) -> str:
        """A card's tile label in the current language (kv passes ``app.lang`` too)."""
        if not ref:
            return ""
        language = _lang or self.catalog.language
        catalog = self.catalog if language == self.catalog.language else Catalog(language)
        return catalog.card_label(ref)

    def on_lang(self, _app: Any, lang: str) -> None:
        self.catalog, self.font_problem = catalog_for(lang, theme.FONT)
        self._tray = None  # its labels are in the old language
        if self.view is not None and self.root is not None:
            self._draw(self.view)
        self._say_font_problem()

    def _say_font_problem(self) -> None:
        """A language whose font is missing is shown in English, and the table is told why."""
        if self.font_problem and self.root is not None:
            self.root.alert.show(self.font_problem, theme.WARNING, BANNER_SECONDS,
                                 self.root.sm.current)

    def choose_language(self, code: str) -> None:
        """The home screen's language buttons: this language, for every screen, kept."""
        if code != self.lang:
            self.change_setting("ui", "language", code)

    # -- life cycle --------------------------------------------------------------------------

    def build(self) -> Root:
        for name in ("widgets.kv", "screens.kv", "settings_page.kv", "tablecam.kv"):
            Builder.load_file(str(HERE / name))
        self.use_kivy_settings = False
        return Root()

    def on_start(self) -> None:
        if self.lights is not None:
            self.lights.when_changed = self._lights_changed
        if self.pipeline is not None:
            self.pipeline.start()
        if self.table_camera is not None:
            self.table_camera.start()
        self._unsubscribe = self.session.subscribe(self._view_published)
        self._say_font_problem()
        self.choose_configured_game()

    def choose_configured_game(self) -> None:
        """The home screen on the game of ``[game] kind`` (the camera's game without a
        config): what the app opens on."""
        first = getattr(getattr(self.started_with, "game", None), "kind", None)
        self.root.sm.get_screen("home").game = first or self.cameras_game()

    def cameras_game(self) -> str:
        """The game kind the hand camera's codes go to (``noah`` without a camera)."""
        played = getattr(self.cameras, "played", None)
        return played.name if played is not None else "noah"

    def play(self, name: str) -> None:
        """The table plays the game kind ``name`` (companion.games): the hand camera's codes
        go to its session (made when the game is first chosen)."""
        played = getattr(self.cameras, "played", None)
        if played is None:
            return
        if not played.has(name):
            from companion.ui.screens import GAME_SCREENS as KINDS_SCREENS

            played.add(KINDS_SCREENS[name].session(self))
        played.choose(name)

    def on_stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self.pipeline is not None:
            self.pipeline.stop()
            self.pipeline = None
        self.stop_looking(wait=True)
        if self.table_camera is not None:
            self.table_camera.stop()

    # -- the overhead camera and its calibration screen (companion/ui/tablecam.py) ----------

    @property
    def table_camera(self) -> Any:
        """The overhead camera's capture refereeing the game (``view = table`` or ``both``),
        or ``None``."""
        return getattr(self.cameras, "table", None)

    def open_table_check(self, source: Any = None) -> None:
        """The calibration screen ("Check the table camera"); its Back returns here.
        ``source``: a :class:`~vision.table_capture.TableSource` to look through this time
        instead of the overhead camera (the screenshots' rendered table)."""
        current = self.root.sm.current
        if current != TABLE_CHECK:
            self._back_from_check = current
        self._check_source = source
        self.go(TABLE_CHECK)

    def leave_table_check(self) -> None:
        """Back from the calibration screen: to the page it was opened from, or the game."""
        self.go(self._back_from_check)
        if self.view is not None and self.view.has_game:
            self._draw(self.view)  # the game's screen: a game goes on under the check

    def start_looking(self) -> Any:
        """The calibration screen is shown: check the overhead camera's frames; with no
        game camera on the table (``view = hand``) open one for as long as the screen shows.
        Returns the capture looked through (``None``: none can be opened)."""
        look = self.table_look
        if look is None:
            return None
        look.every, look.wanted = look.CHECK_EVERY, True
        if self.table_camera is not None and self._check_source is None:
            return self.table_camera
        if self.looking is None and (self.overhead or self._check_source) is not None:
            from companion.wiring import table_camera
            from vision.errors import VisionError

            look.clear()
            try:
                source = self._check_source or self.overhead()
            except VisionError as error:
                log.warning("the table camera cannot be opened: %s", error)
                return None
            token = self._look_token = object()

            def checked(frame: Any) -> None:  # a capture still being released checks nothing
                if self._look_token is token:
                    look.on_frame(frame)

            self.looking = table_camera(source, also=checked).start()
        return self.looking

    def stop_looking(self, *, wait: bool = False) -> None:
        """The calibration screen is left: stop checking, release a camera opened for it.
        Its capture thread is stopped from another thread (stopping waits for the camera's
        last frame: the UI would freeze meanwhile); ``wait``: until it is released (the app
        ends)."""
        if self.table_look is not None:
            self.table_look.wanted = False
        self._check_source = None
        self._look_token = None
        looking, self.looking = self.looking, None
        if looking is not None:
            self._releasing = threading.Thread(target=looking.stop, daemon=True,
                                               name="table-camera-release")
            self._releasing.start()
        if wait and self._releasing is not None:
            self._releasing.join()

    # -- the app's own config file (the one companion/config.py reads) ---------------------

    def get_application_config(self, defaultpath: str = "") -> str:
        if self._config_file is not None:
            return str(self._config_file)
        from companion.config import config_path

        return str(config_path())

    def load_config(self) -> Any:
        """Kivy's copy of the config file, its folder created first: on a fresh machine there
        is none, and the settings panel could not save a thing."""
        folder = Path(self.get_application_config()).parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            log.warning("Settings cannot be kept: %s cannot be created (%s).", folder,
                        error.strerror)
        return super().load_config()

    def build_config(self, config: Any) -> None:
        for section, values in SECTION_DEFAULTS.items():
            config.setdefaults(section, values)

    # -- the settings page (companion/ui/settings_page.py) ----------------------------------

    def open_settings(self, *_args: Any) -> None:
        """The app's own settings page (also Kivy's F1 key), not Kivy's panel."""
        self.go("settings")

    def close_settings(self, *_args: Any) -> bool:
        if self.root is not None and self.root.sm.current.startswith("settings"):
            self.go("home")
            return True
        return False

    def settings_back(self) -> None:
        self.go("settings" if self.root.sm.current == "settings_technical" else "home")

    def setting(self, section: str, key: str) -> str:
        """A setting as the config file holds it (its default when the file does not say)."""
        return self.setting_values()(section, key)

    def setting_values(self) -> Callable[[str, str], str]:
        """The config file read once: ``values(section, key)`` as :meth:`setting` says it
        (a page of settings reads the file once, not once per row)."""
        from companion.config import load_config

        try:
            config = load_config(self.get_application_config())
        except UserError:
            config = None

        def value(section: str, key: str) -> str:
            held = config.section(section) if config is not None else {}
            return held.get(key, SECTION_DEFAULTS.get(section, {}).get(key, ""))

        return value

    def change_setting(self, section: str, key: str, value: str) -> bool:
        """Write ``key = value`` in ``[section]`` of the config file if the config's own
        validation accepts it; otherwise its sentence is shown and nothing changes. Language
        and sounds apply at once, the rest at the next start."""
        try:
            checked_change(Path(self.get_application_config()), section, key, value)
        except UserError as error:
            self.message(self.catalog.error(error))
            return False
        if self.config is not None:
            self.config.set(section, key, value)
            self.config.write()
        if (section, key) == ("ui", "language"):
            self.lang = value
        elif (section, key) == ("ui", "sounds"):
            wanted = yes_or_no("ui", "sounds", value)  # already checked: cannot fail
            self._sound = _load_sound(self._sound_file) if wanted and self._sound_file else None
        return True

    def shut_down(self) -> None:
        """Ask systemd to power the machine off (confirmed on the page); a refusal is shown."""
        try:
            power_off(self.run_command)
        except UserError as error:
            self.message(self.catalog.error(error))

    # -- views from the session ------------------------------------------------------------

    def _view_published(self, view: Any) -> None:
        """Any thread: the session's new view, drawn on the UI thread."""
        self._newest_view = view
        self._draw_if_newest(view)

    @mainthread
    def _draw_if_newest(self, view: Any) -> None:
        """UI thread: draw ``view`` unless a newer one is already on its way. When the UI
        thread falls behind (a burst of plays or camera reports, a slow frame on the Pi) only
        the newest view is drawn: drawing each stale one cost a whole screen's update, and the
        newest says all that still matters — its notices hold the refusals since the last view
        drawn (:func:`_new_notices`), its round scores a round that ended."""
        if view is self._newest_view:
            self.show_view(view)

    def show_view(self, view: Any) -> None:
        """Draw ``view``: alert on new refusals, hold the round's result, pick the screen."""
        old, self.view = self.view, view
        if view.camera_ok:
            self.root.camera_banner.hide()
        else:
            self.root.camera_banner.show(self.t("table.camera_lost"), theme.WARNING)
        if old is not None and len(view.round_scores) > len(old.round_scores) \
                and old.has_game and view.game_id == old.game_id:
            self.showing_result = True
            self.root.alert.hide()  # the result is a new page, even on the same screen
        self.undo_offer.follow(view.seq)
        self._draw(view)
        self._alert(view, moved_on=old is not None and view.game_id == old.game_id and (
            view.seq, view.prompt) != (old.seq, old.prompt))
        # after the screen is chosen: the banner belongs to that screen

    def _draw(self, view: Any) -> None:
        name = self.screen_for(view)
        screen = self.root.sm.get_screen(name)
        if name == "round_end":
            screen.show(view, result=self.showing_result)
        elif hasattr(screen, "show"):
            screen.show(view)
        self.root.sm.current = name
        self._watch_table(name)

    def _watch_table(self, name: str) -> None:
        """In the table view, the game's small camera view is the overhead camera's picture
        with the mats found: checked now and then while a game's screen shows it."""
        look = self.table_look
        if look is None or self.reading != "table" or name == TABLE_CHECK:
            return
        look.every = look.PLAY_EVERY
        look.wanted = name in GAME_SCREENS

    def open_camera_view(self) -> None:
        """The small camera view touched: the hand camera's big view, or in the table view
        the table camera's screen (its picture, each mat found, what to do)."""
        if self.reading == "table":
            self.open_table_check()
            return
        CameraPopup(tap=self.camera_tap, caption=self.t("camera.hand")).open()

    def _flash_card(self, ref: str) -> None:
        """A card was read: the camera views of the screen say so, with its picture."""
        text = self.t("camera.read", card=self.catalog.card_label(ref))
        for widget in self.root.sm.current_screen.walk(restrict=True):
            if isinstance(widget, CameraPanel):
                widget.flash(text, ref)

    def screen_for(self, view: Any) -> str:
        """The screen for a view: the prompt's, except the calibration screen until it is left,
        the round's result until "Next round" is touched, and the home screen's neighbours
        (new game, history) when no game is on."""
        current = self.root.sm.current
        if current == TABLE_CHECK:
            return current  # left by its Back button only
        if self.showing_result:
            return "round_end"
        kind: Step = view.prompt.kind
        if kind in ("choose_snail_side", "choose_card") and view.state.get("phase") in (
                "round_over", None):
            return "setup"
        name = SCREEN_OF.get(kind, "table")
        other_game = getattr(self.root.sm.current_screen, "other_game", False)
        if name == "home" and (current in HOME_NEIGHBOURS or other_game):
            return current  # (a screen of another game, companion/ui/complot.py, stays too)
        return name

    def _alert(self, view: Any, *, moved_on: bool = False) -> None:
        """A new refusal: red banner, sound (the session already flashed the ferry's light).
        A game that ``moved_on`` (a good play) without a new refusal clears the last one."""
        fresh = _new_notices(self._notices, view.notices)
        self._notices = view.notices
        if moved_on and not any(notice.level == "refused" for notice in fresh) \
                and tuple(self.root.alert.back) == theme.ILLEGAL:
            self.root.alert.hide()
        for notice in fresh:
            if card_read(notice):
                self._flash_card(card_read(notice))
            if notice.level == "refused":
                self.refusals += 1
                text = self.t("refused", text=self.catalog.notice(notice))
                self.root.alert.show(text, theme.ILLEGAL, BANNER_SECONDS, self.root.sm.current)
                if self._sound is not None:
                    self._sound.play()
            elif notice.level == "problem":
                self.root.alert.show(self.catalog.notice(notice), theme.WARNING, BANNER_SECONDS,
                                     self.root.sm.current)

    @mainthread
    def _lights_changed(self, snapshot: Any) -> None:
        """Lights' thread: mirror the LEDs on every board."""
        for name in ("setup", "table"):
            self.root.sm.get_screen(name).ids.board.lights = list(snapshot)

    # -- intents -----------------------------------------------------------------------------

    def act(self, intent: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R | None:
        """Call a session intent (``app.act(app.session.undo)``); a problem the player can fix
        is shown, not raised."""
        try:
            return intent(*args, **kwargs)
        except UserError as error:
            self.message(self.catalog.error(error))
            return None

    def message(self, text: str) -> None:
        MessagePopup(text=text).open()

    def go(self, name: str) -> None:
        self.root.sm.current = name

    def open_new_game(self, *, score_only: bool) -> None:
        from companion.config import load_config

        try:
            names = list(load_config(self.get_application_config()).game.players)
        except UserError:
            names = []
        self.root.sm.get_screen("new_game").prepare(names, score_only=score_only)
        self.go("new_game")

    def start_game(self, names: list[str], colours: list[str], options: dict[str, Any], *,
                   score_only: bool) -> None:
        self.showing_result = False
        self.act(self.session.new_game, names, options, score_only=score_only, tokens=colours)

    def play_again(self) -> None:
        """A new game for the same players, token colours and options (the game's end)."""
        game, view = self.session.game, self.view
        if game is None or view is None:
            return
        options = game.options.to_dict()
        score_only = bool(options.pop("score_only", False))
        self.start_game(list(view.players), list(view.tokens), options, score_only=score_only)

    def resume(self, game_id: int | None = None) -> None:
        self.showing_result = False
        self.act(self.session.resume, game_id)

    def leave_game(self) -> None:
        """Back home; the game stays in the record and can be resumed."""
        self.showing_result = False
        self.act(self.session.close_game)
        self.go("home")

    def next_round(self) -> None:
        self.showing_result = False
        if self.view is not None:
            self._draw(self.view)

    def take_back(self) -> None:
        """"I cannot play": the animals of Noah's ferry are taken back at once (R25), and
        Undo is offered for a few seconds in case the touch was not meant."""
        outcome = self.act(self.session.take_back)
        if outcome is not None and outcome.accepted:
            self.undo_offer.offer(self.session.view.seq, UNDO_OFFER_SECONDS)

    def ferry_touched(self, ferry: int) -> None:
        """A ferry touched on the board: same as its ferry button (Noah's start or move)."""
        self.act(self.session.ferry_pressed, ferry)

    def open_tray(self) -> None:
        """The card tray: the cards of this game that can be shown now (manual entry, or the
        simulator's cards); animals standing on a ferry are left out."""
        game, view = self.session.game, self.view
        deck = game.cards_in_play if game is not None else self.session.deck
        state = view.state if view is not None else {}
        if state.get("phase") == "round_over":  # setting up: last round's ferries are cleared
            state = {"ferries": [[ref] for ref in getattr(view.prompt, "scanned", ()) if ref]}
        refs = [card.id for card in deck]
        if self._tray is None or self._tray.refs != refs:
            self._tray = CardTray(refs)
        keep_open = view is not None and view.prompt.kind == "scan_hand"
        self._tray.offer(tray_cards(deck, state), keep_open=keep_open)

    def card_touched(self, ref: str) -> None:
        if self.simulator is not None:
            self.simulator.show(ref)
        else:
            self.act(self.session.choose_card, ref)


def _load_sound(path: Path) -> Any:
    """The refusal sound, or ``None`` (silently: a table without speakers is normal) when this
    machine has nothing to play it on. Kivy's audio is not even started then, so that the
    sound system's probing does not fill the terminal."""
    from companion.ui.sounds import has_playback_device

    if not has_playback_device():
        log.info("no sound device: refused plays are shown without a sound")
        return None
    from kivy.core.audio import SoundLoader

    return SoundLoader.load(str(path))


def tray_cards(deck: Any, state: dict) -> list[str]:
    """The ids of the cards that can be in someone's hand: not on a ferry, not departed this
    round (a snail's side does not matter).

    >>> from companion.game import default_deck
    >>> ferries = [["snail:M#1", "cat:F#1"], None, [], [], []]
    >>> state = {"ferries": ferries, "departed_cards": ["lion:M#1"]}
    >>> cards = tray_cards(default_deck(), state)
    >>> "snail#1" in cards, "snail#2" in cards, "cat:F#1" in cards, "cat:M#1" in cards
    (False, True, False, True)
    >>> "lion:M#1" in cards, "lion:F#1" in cards
    (False, True)
    """
    from companion.game.deck import parse_ref

    def copy_of(ref: str) -> tuple:
        species, gender, copy = parse_ref(ref)
        return (species, None if species == "snail" else gender, copy)

    on_table = [ref for ferry in state.get("ferries") or () for ref in ferry or ()]
    gone = {copy_of(ref) for ref in [*on_table, *(state.get("departed_cards") or ())]}
    return [card.id for card in deck if copy_of(card.id) not in gone]


def _new_notices(old: tuple, new: tuple) -> list:
    """The notices of ``new`` after the longest end of ``old`` it starts with (the session
    keeps only the last few)."""
    for overlap in range(min(len(old), len(new)), 0, -1):
        if old[-overlap:] == new[:overlap]:
            return list(new[overlap:])
    return list(new)
