"""The settings page: big buttons for the everyday settings, the technical ones one page further.

Every change goes through :meth:`NoahApp.change_setting
<companion.ui.application.NoahApp.change_setting>`: the config's own validation first (a bad
value shows the config's sentence and changes nothing), then the config file. The screen's
brightness and shutting down are :mod:`companion.system`'s.

Layout is in ``settings_page.kv``; this module builds the rows from
:data:`~companion.ui.settings.EVERYDAY` and :data:`~companion.ui.settings.TECHNICAL`
(companion/ui/settings.py, without Kivy), so that each setting is described once.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from kivy.uix.togglebutton import ToggleButton

from companion.config import yes_or_no
from companion.errors import UserError
from companion.system import MIN_PERCENT, Backlight
from companion.ui import theme
from companion.ui.fonts import language_font
from companion.ui.settings import EVERYDAY, TECHNICAL, Setting, language_names


class SettingRow(BoxLayout):
    """A title, its one-line explanation, and the controls that change it."""

    title = StringProperty("")
    hint = StringProperty("")


#: The language as a setting of the page (its choices are the catalogs, named in themselves).
LANGUAGE = Setting("ui", "language")


class ChoiceButton(ToggleButton):
    """One value of ``setting``; touching it chooses it (its group's others go up). The
    chosen one is green and ticked."""

    value = StringProperty("")
    words = StringProperty("")
    setting: Setting | None = None

    def on_state(self, _button: Any, state: str) -> None:
        self.text = f"✓ {self.words}" if state == "down" else self.words

    def on_words(self, *_args: Any) -> None:
        self.on_state(self, self.state)


class BrightnessControls(BoxLayout):
    """− slider % +: the backlight follows at once."""

    page = ObjectProperty(None)


class BrightnessRow(SettingRow):
    """The screen's brightness (only where the screen has a backlight the app can find)."""

    def __init__(self, page: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ids.controls.add_widget(BrightnessControls(page=page))


class MoreRow(SettingRow):
    """The way to the technical page."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ids.controls.add_widget(Factory.MoreButton())


class TableCameraRow(SettingRow):
    """The way to the calibration screen (companion/ui/tablecam.py)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ids.controls.add_widget(Factory.TableCameraButton())


class ShutDownRow(SettingRow):
    """The big red Shut down button."""

    def __init__(self, page: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        button = Factory.ShutDownButton()
        button.bind(on_release=lambda _b: page.ask_shut_down())
        self.ids.controls.add_widget(button)


class TextSetting(TextInput):
    """A setting typed as text, saved on Enter or when the field is left."""

    setting: Setting


class SettingsPageBase(Screen):
    """What both pages share: rows built from settings once per language (building them takes
    a few tenths of a second on a Pi), then only set to what the config file holds when the
    page is shown or a setting changed.

    A touch shows at once: the button touched is chosen (green, ticked) in the next frame, and
    the config file is written the frame after, never before the screen shows the touch."""

    settings: tuple[Setting, ...] = ()
    _built: tuple = ()

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()
        self.ids.rows.parent.scroll_y = 1  # from the top, wherever it was left

    def refresh(self) -> None:
        """Show what the config file holds now: the rows' states, or new rows when the
        language (or which rows the page has) changed."""
        app = App.get_running_app()
        values = app.setting_values()
        shape = self.shape(app, values)
        if shape != self._built:
            self._build(app, values)
            self._built = shape
        for widget in self.ids.rows.walk(restrict=True):
            setting = getattr(widget, "setting", None)
            if setting is None:
                continue
            held = values(setting.section, setting.key)
            if isinstance(widget, ChoiceButton):
                widget.state = "down" if _same(held, widget.value) else "normal"
            elif isinstance(widget, TextSetting):
                widget.text = held

    def shape(self, app: Any, values: Any) -> tuple:
        """What the rows depend on besides the settings' values: the language."""
        return (app.lang,)

    def _build(self, app: Any, values: Any) -> None:
        rows = self.ids.rows
        rows.clear_widgets()
        for row in [*self.rows_before(app), *(self.setting_row(app, s) for s in self.settings),
                    *self.rows_after(app, values)]:
            rows.add_widget(row)

    def rows_before(self, app: Any) -> list[Any]:
        return []

    def rows_after(self, app: Any, values: Any) -> list[Any]:
        return []

    def setting_row(self, app: Any, setting: Setting) -> SettingRow:
        row = SettingRow(title=app.t(setting.words), hint=app.t(f"{setting.words}.desc"))
        if not setting.choices:
            field = TextSetting()
            field.setting = setting
            row.ids.controls.add_widget(field)
            return row
        group = f"{setting.section}.{setting.key}.{id(row)}"
        for value, words in setting.choices:
            button = ChoiceButton(words=app.t(words), value=value, group=group)
            button.setting = setting
            button.bind(on_release=lambda b, s=setting: self.choose(s, b))
            row.ids.controls.add_widget(button)
        return row

    def choose(self, setting: Setting, button: ChoiceButton) -> None:
        """Touched: it shows chosen now (a toggle button), the file is written next frame."""
        button.state = "down"
        Clock.schedule_once(lambda _dt: self._save(setting, button.value), 0)

    def _save(self, setting: Setting, value: str) -> None:
        App.get_running_app().change_setting(setting.section, setting.key, value)
        self.refresh()  # shows what the file holds now, even when the change was refused

    def save_text(self, field: TextSetting) -> None:
        app = App.get_running_app()
        setting = field.setting
        if field.text.strip() != app.setting(setting.section, setting.key).strip():
            app.change_setting(setting.section, setting.key, field.text.strip())
        field.text = app.setting(setting.section, setting.key)


class SettingsScreen(SettingsPageBase):
    """The everyday page: language, sounds, screen upside down, brightness, technical, shut
    down."""

    settings = EVERYDAY
    brightness = NumericProperty(100)
    has_backlight = BooleanProperty(False)
    minimum = NumericProperty(MIN_PERCENT)

    def rows_before(self, app: Any) -> list[Any]:
        row = SettingRow(title=app.t("settings.ui.language"))
        for code, name in language_names():
            button = ChoiceButton(words=name, value=code, group="ui.language",
                                  font_name=language_font(code, theme.FONT))  # 中文 in its font
            button.setting = LANGUAGE
            button.bind(on_release=lambda b: self.choose(LANGUAGE, b))
            row.ids.controls.add_widget(button)
        return [row]

    def shape(self, app: Any, values: Any) -> tuple:
        """The language, whether the screen has a backlight (its brightness is read now),
        and whether the table camera's check is an everyday row."""
        light = app.backlight
        self.has_backlight = False
        if light is not None:
            try:
                self.brightness = light.percent()
                self.has_backlight = True
            except (OSError, ValueError):
                pass
        table = values("camera", "view").strip().lower() in ("table", "both")
        return (app.lang, self.has_backlight, table)

    def rows_after(self, app: Any, values: Any) -> list[Any]:
        rows: list[Any] = [BrightnessRow(page=self)] if self.has_backlight else []
        if values("camera", "view").strip().lower() in ("table", "both"):
            rows.append(TableCameraRow())  # the table view is on: its check is an everyday one
        return [*rows, MoreRow(), ShutDownRow(page=self)]

    def set_brightness(self, percent: float) -> None:
        """The slider or − / + moved: the backlight follows at once."""
        app = App.get_running_app()
        light: Backlight | None = app.backlight
        if light is None:
            return
        percent = max(MIN_PERCENT, min(100, round(percent)))
        try:
            light.set_percent(percent)
        except UserError as error:
            app.message(app.catalog.error(error))
            self.refresh()
            return
        self.brightness = percent

    def ask_shut_down(self) -> None:
        ShutDownPopup().open()


class TechnicalScreen(SettingsPageBase):
    """The technical page: camera, decoder, pins, full screen, the game record's file, and
    the way to the table camera's check."""

    settings = TECHNICAL

    def rows_before(self, app: Any) -> list[Any]:
        return [SettingRow(title="", hint=app.t("settings.technical.next_start"))]

    def rows_after(self, app: Any, values: Any) -> list[Any]:
        return [TableCameraRow()]


class ShutDownPopup(ModalView):
    """"Shut the table down?" with a big Yes and a big Cancel."""

    @staticmethod
    def opened() -> list[ShutDownPopup]:
        """The question, when it is on screen."""
        from kivy.core.window import Window

        return [child for child in Window.children if isinstance(child, ShutDownPopup)]

    def confirm(self) -> None:
        self.dismiss()
        App.get_running_app().shut_down()


def _same(current: str, value: str) -> bool:
    """Whether the file's value is this choice (yes/true/on all mean yes)."""
    if value not in ("yes", "no"):
        return current.strip() == value
    try:
        return yes_or_no("", "", current) == (value == "yes")
    except UserError:
        return False
