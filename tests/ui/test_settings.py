"""The settings page (issue 15 item 4), headless (SDL offscreen + Mesa): big buttons, words a
player can read, a change kept in the config file, a bad one refused by the config's own check,
the backlight, and Shut down through a fake runner (never the real ``systemctl``).

The app is the one every UI test module shares (``driver``, tests/ui/conftest.py); its config
file is in a temporary folder, and each test puts back what it changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.config import load_config

pytestmark = pytest.mark.ui
MIN_TOUCH = 48  # px at 800×480 (9 mm on the official 7" screen)
MIN_TEXT = 22  # px: nothing a player reads is smaller (issue 15 item 1)


@pytest.fixture()
def page(driver):
    """The settings page, opened from the home screen's button, English, no backlight."""
    driver.app.backlight = None
    driver.settle()  # what an earlier test left the session publishing has arrived …
    for popup in popups():  # … and its popups ("deal undone") are not this test's
        popup.dismiss()
    driver.pump_until(lambda: not popups())
    driver.app.go("home")
    driver.app.lang = "en"
    driver.pump(2)
    press(driver, "Settings")
    assert driver.app.root.sm.current == "settings"
    yield driver.app.root.sm.get_screen("settings")
    for popup in popups():
        popup.dismiss()
    driver.pump_until(lambda: not popups())


def widgets(driver: Any, kind: type) -> list[Any]:
    """The widgets of ``kind`` on the current screen and in any open popup."""
    from kivy.core.window import Window

    tops = [driver.app.root.sm.current_screen, *[w for w in Window.children
                                                 if w is not driver.app.root]]
    return [w for top in tops for w in top.walk() if isinstance(w, kind)]


def button(driver: Any, text: str) -> Any:
    from kivy.uix.button import Button

    found = [b for b in widgets(driver, Button) if b.text in (text, f"✓ {text}")]
    assert found, f"no button {text!r} on {driver.app.root.sm.current}"
    return found[-1]  # a popup's button over the page's


def press(driver: Any, text: str) -> None:
    driver.press(button(driver, text))
    driver.pump(2)


def popups() -> list[Any]:
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    return [child for child in Window.children if isinstance(child, ModalView)]


def saved(driver: Any, section: str) -> dict[str, str]:
    return load_config(driver.app.get_application_config()).section(section)


def row(page: Any, title: str) -> Any:
    from companion.ui.settings_page import SettingRow

    found = [r for r in page.ids.rows.children if isinstance(r, SettingRow) and r.title == title]
    assert found, f"no row {title!r}"
    return found[0]


def check_sizes(driver: Any) -> None:
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from kivy.uix.textinput import TextInput

    driver.pump(2)
    small_buttons = [b.text for b in widgets(driver, Button) if b.height < MIN_TOUCH]
    small_fields = [f.text for f in widgets(driver, TextInput) if f.height < MIN_TOUCH]
    small_text = [(w.text, w.font_size) for w in widgets(driver, Label)
                  if w.text.strip() and w.font_size < MIN_TEXT]
    assert (small_buttons, small_fields, small_text) == ([], [], [])
    flat = [b for b in widgets(driver, Button) if b.background_normal == ""]
    assert flat, "the page's buttons are drawn flat, in colours chosen for contrast"
    from companion.ui.theme import contrast

    dim = [b.text for b in flat if contrast(b.color, b.background_color) < 4.5]
    assert dim == []


def test_every_button_is_big_and_every_word_readable_on_both_pages(driver, page, tmp_path):
    from companion.system import Backlight, fake_backlight

    driver.app.backlight = Backlight(fake_backlight(tmp_path, "10-0045", brightness=100,
                                                    maximum=255))
    page.refresh()
    check_sizes(driver)
    press(driver, "Open  ›")
    assert driver.app.root.sm.current == "settings_technical"
    check_sizes(driver)
    press(driver, "Back")
    assert driver.app.root.sm.current == "settings"
    press(driver, "Back")
    assert driver.app.root.sm.current == "home"


def test_languages_are_named_in_their_own_language_from_the_catalogs(driver, page):
    from companion.i18n import languages

    language = row(page, "Language")
    names = sorted(b.words for b in language.ids.controls.children)
    expected = {"en": "English", "fr": "Français", "zh": "中文"}
    assert names == sorted(expected[code] for code in languages())
    press(driver, "Français")
    assert driver.app.lang == "fr" and saved(driver, "ui")["language"] == "fr"
    assert driver.app.root.sm.current == "settings"
    assert button(driver, "Retour")  # the page itself is redrawn in French
    press(driver, "English")
    assert saved(driver, "ui")["language"] == "en"


def test_a_toggle_is_written_to_the_config_file_and_shown_chosen(driver, page):
    sounds = row(page, "Sounds")
    on = next(b for b in sounds.ids.controls.children if b.value == "yes")
    driver.press(on)
    assert saved(driver, "ui")["sounds"] == "yes"
    sounds = row(driver.app.root.sm.get_screen("settings"), "Sounds")
    chosen = [b.text for b in sounds.ids.controls.children if b.state == "down"]
    assert chosen == ["✓ On"]
    driver.press(next(b for b in sounds.ids.controls.children if b.value == "no"))
    assert saved(driver, "ui")["sounds"] == "no"


def test_a_bad_technical_value_gets_the_configs_sentence_and_changes_nothing(driver, page):
    press(driver, "Open  ›")
    technical = driver.app.root.sm.get_screen("settings_technical")
    before = Path(driver.app.get_application_config()).read_text(encoding="utf-8")
    field = row(technical, "LED pins").ids.controls.children[0]
    field.text = "17, 27, 22, 23, 17"
    technical.save_text(field)
    driver.pump(2)
    shown = [p.text for p in popups()]
    assert shown and shown[0].startswith("[lights] GPIO 17 is used twice"), shown
    assert Path(driver.app.get_application_config()).read_text(encoding="utf-8") == before
    assert field.text == "17, 27, 22, 23, 24"  # the field shows what the file still holds
    refusal = popups()[0]
    refusal.dismiss()
    driver.pump_until(lambda: refusal not in popups())  # (another popup is not this test's)
    field.text = "17, 27, 22, 23, 18"
    technical.save_text(field)
    assert saved(driver, "lights")["pins"] == "17, 27, 22, 23, 18"
    field.text = "17, 27, 22, 23, 24"  # as it was, for the other tests
    technical.save_text(field)


def test_brightness_is_shown_only_with_a_backlight_and_follows_the_buttons(driver, page,
                                                                          tmp_path):
    from companion.system import Backlight, fake_backlight

    assert "Brightness" not in [r.title for r in page.ids.rows.children]
    folder = fake_backlight(tmp_path, "10-0045", brightness=255, maximum=255)
    driver.app.backlight = Backlight(folder)
    page.refresh()
    driver.pump(2)
    assert row(page, "Brightness") and page.brightness == 100
    press(driver, "−")
    assert (folder / "brightness").read_text().strip() == "230"  # 90 % of 255
    for _ in range(12):  # never dark: a black screen could not be turned up by touch
        press(driver, "−")
    assert page.brightness == 10 and int((folder / "brightness").read_text()) == 26
    check_sizes(driver)


def test_an_unreadable_backlight_is_hidden_and_an_unwritable_one_says_what_to_do(
        driver, page, tmp_path):
    from companion.errors import UserError
    from companion.system import Backlight, fake_backlight

    folder = fake_backlight(tmp_path, "rpi_backlight", brightness=50, maximum=100)
    (folder / "brightness").unlink()
    (folder / "brightness").mkdir()  # unreadable whoever runs the test (root too)
    driver.app.backlight = Backlight(folder)
    page.refresh()
    driver.pump(2)
    assert "Brightness" not in [r.title for r in page.ids.rows.children]

    class Denied(Backlight):  # readable, but no udev rule lets the app write it
        def set_percent(self, percent: float) -> None:
            raise UserError("The screen's brightness cannot be changed (Permission denied).",
                            "Install the app with deploy/install.sh.",
                            key="system.brightness_denied")

    driver.app.backlight = Denied(fake_backlight(tmp_path, "10-0045", brightness=50,
                                                 maximum=100))
    page.refresh()
    driver.pump(2)
    press(driver, "+")
    # the screen's sentence (system.brightness_denied), which says what to do at the table
    assert [p.text for p in popups()] == ["The screen's brightness cannot be changed. Install "
                                          "the app with deploy/install.sh, which allows it, "
                                          "then restart the Raspberry Pi."]
    assert page.brightness == 50


def test_shut_down_asks_first_then_asks_systemd(driver, page):
    calls: list[list[str]] = []
    driver.app.run_command = lambda command: calls.append(list(command)) or (0, "")
    press(driver, "Shut down")
    assert calls == [] and len(popups()) == 1  # nothing happens before the confirmation
    press(driver, "Cancel")
    driver.pump_until(lambda: not popups())  # the popup closes (animated)
    assert calls == []
    press(driver, "Shut down")
    press(driver, "Shut down")  # the popup's own button
    assert calls == [["systemctl", "--no-ask-password", "poweroff"]]


def test_shut_down_refused_off_the_pi_is_a_sentence_not_a_traceback(driver, page):
    driver.app.run_command = lambda command: (1, "Call to PowerOff failed: Access denied")
    driver.app.lang = "fr"
    driver.pump(2)
    press(driver, "Éteindre")
    press(driver, "Éteindre")
    driver.pump_until(lambda: all(hasattr(p, "text") for p in popups()))  # the question closed
    shown = [p.text for p in popups()]
    assert shown == ["Cet ordinateur n'a pas laissé l'application l'éteindre. Éteignez-le "
                     "vous-même, ou installez l'application avec deploy/install.sh, qui le "
                     "permet."]


def test_a_touch_shows_chosen_before_the_file_is_written_and_rows_are_built_once(
        driver, page, clock):
    """Issue 20.3: the touch is seen in the next frame (the button green and ticked), the
    config file is written after that frame; coming back to the page rebuilds nothing."""
    sounds = row(page, "Sounds")
    before = saved(driver, "ui").get("sounds")
    wanted = "no" if before == "yes" else "yes"
    button_ = next(b for b in sounds.ids.controls.children if b.value == wanted)
    button_.trigger_action(duration=0)  # the touch, and no frame yet
    assert button_.state == "down" and button_.text.startswith("✓ ")
    assert saved(driver, "ui").get("sounds") == before  # nothing written before a frame
    driver.pump(2)
    assert saved(driver, "ui")["sounds"] == wanted
    assert row(page, "Sounds") is sounds  # the row was updated, not built again
    press(driver, "Back")
    press(driver, "Settings")
    assert row(page, "Sounds") is sounds
