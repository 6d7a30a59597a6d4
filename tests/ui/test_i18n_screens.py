"""The languages on the screen (issue 15 item 7): the Chinese font, Chinese line breaking, the
language button naming each language in its own script, English where a font is missing."""

from __future__ import annotations

from typing import Any

import pytest

from companion.ui import fonts, theme

pytestmark = pytest.mark.ui



@pytest.fixture
def chinese(driver: Any):
    """The app in Chinese for one test, back in English after it."""
    driver.app.lang = "zh"
    driver.settle()
    yield driver.app
    driver.app.lang = "en"
    driver.settle()


def registered(name: str) -> str:
    from kivy.core.text import LabelBase

    return LabelBase._fonts[name][0]


def test_chinese_is_drawn_with_noto_sans_cjk_tc(driver: Any, chinese: Any) -> None:
    from fontTools.ttLib import TTFont

    face = registered(theme.FONT)
    assert TTFont(face, lazy=True)["name"].getDebugName(1) == "Noto Sans CJK TC"
    assert chinese.t("home.new_game", chinese.lang) == "新遊戲"
    chinese.lang = "en"
    driver.settle()
    assert registered(theme.FONT).endswith("DejaVuSans.ttf")


def test_a_long_chinese_sentence_wraps_inside_its_box(driver: Any, chinese: Any) -> None:
    """Chinese has no spaces: Kivy breaks a line longer than its box between characters."""
    from kivy.uix.label import Label

    sentence = chinese.t("reason.no_giraffe_effect") * 2  # two sentences with no space at all
    assert " " not in sentence
    label = Label(text=sentence, font_name=theme.FONT, font_size=theme.BODY,
                  size_hint=(None, None), width=300, text_size=(300, None))
    label.texture_update()
    lines = ["".join(word.text for word in line.words) for line in label._label._cached_lines]
    assert len(lines) >= 4 and "".join(lines) == sentence
    assert label.texture_size[0] <= 300
    one_line = Label(text=sentence, font_name=theme.FONT, font_size=theme.BODY)
    one_line.texture_update()
    assert one_line.texture_size[0] > 3 * 300  # the same text unwrapped is far wider


def test_the_home_screen_offers_every_language_each_in_its_own_script(driver: Any) -> None:
    """Issue 20.3: the language is a choice, not a cycle: one touch from any language to any
    other, each named in its own script, the current one ticked."""
    app = driver.app
    app.lang = "fr"
    driver.settle()
    try:
        app.go("home")
        driver.pump(2)
        buttons = {b.language: b for b in app.root.sm.get_screen("home").ids.languages.children}
        assert set(buttons) == {"en", "fr", "zh"}
        assert buttons["fr"].text == "✓ Français" and buttons["zh"].text == "中文"
        assert "NotoSansCJK" in registered(buttons["zh"].font_name)
        driver.press(buttons["zh"])
        driver.settle()
        assert app.lang == "zh"
        buttons = {b.language: b for b in app.root.sm.get_screen("home").ids.languages.children}
        assert buttons["zh"].text == "✓ 中文" and buttons["fr"].text == "Français"
    finally:
        app.lang = "en"
        driver.settle()


def test_a_missing_chinese_font_shows_english_and_says_what_to_install(
        driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fonts, "locate", lambda script, style="Regular":
                        None if script == "zh" else fonts.KNOWN_PATHS[(script, style)])
    fonts.font_files.cache_clear()
    app = driver.app
    try:
        app.lang = "zh"
        driver.settle()
        assert app.catalog.language == "en"  # English, never boxes in place of characters
        assert "fonts-noto-cjk" in app.font_problem
        assert "fonts-noto-cjk" in app.root.alert.text
        assert registered(theme.FONT).endswith("DejaVuSans.ttf")
    finally:
        monkeypatch.undo()
        fonts.font_files.cache_clear()
        app.lang = "en"
        driver.settle()
        app.root.alert.hide()


def test_the_settings_page_names_chinese_in_a_font_that_has_it(driver: Any) -> None:
    from kivy.core.window import Window

    app = driver.app
    app.open_settings()
    driver.settle()
    try:
        [chinese] = [widget for top in Window.children for widget in top.walk()
                     if getattr(widget, "value", None) == "zh" and hasattr(widget, "words")]
        assert "NotoSansCJK" in registered(chinese.font_name)  # not DejaVu's boxes
    finally:
        app.close_settings()
        driver.settle()
