"""Every screen, for two to five players with long names, in every language the app has a
catalog for: no label is cut off, breaks a line where its language forbids, has a character
its font has no glyph for (drawn as a box), lies outside the screen or overlaps another
(companion.ui.driver.layout_problems); nothing a player reads is under 22 px and every text
has a contrast of at least 4.5:1 on what is drawn behind it (legibility_problems).

The screens are reached by the screenshot script's own tour (companion.ui.screenshots): per
table size a whole seeded game with every prompt, the card tray, a long refusal, an undo's card,
the gifts, round ends, game end, a snail's side at set-up and the score-only round; then the
screens without a table once per language (home, history, both settings pages, the table
camera's calibration, a damaged game).
Nothing is written: each screen is checked where the script would save it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.i18n import languages
from companion.ui.screenshots import (
    LONG_NAMES,
    ONCE_SCREENS,
    PLAYER_COUNTS,
    TABLE_SCREENS,
    Photographer,
    tour_once,
    tour_table,
)

pytestmark = pytest.mark.ui


class Inspector(Photographer):
    """The screenshot tour, checking each screen in its language instead of saving it."""

    frames_per_step = 0  # only the checked screens need drawing

    def __init__(self, driver: Any, language: str) -> None:
        super().__init__(driver, Path("unused"), language)
        self.problems: list[str] = []
        self.visited: list[str] = []

    def shoot(self, name: str) -> None:
        from companion.ui.driver import layout_problems, legibility_problems

        self.names.add(name)
        shown = self.file_name(name)
        self.visited.append(shown)
        self.driver.pump(3)
        found = layout_problems() + legibility_problems() + self.turn_hidden()
        self.problems += [f"{shown} ({self.language}): {problem}" for problem in found]

    def turn_hidden(self) -> list[str]:
        """A banner must never hide whose turn it is (the table's name in its colour)."""
        app = self.driver.app
        if app.root.sm.current != "table":
            return []
        turn = app.root.sm.current_screen.ids.turn
        return [f"the {banner.text[:30]!r} banner hides whose turn it is"
                for banner in (app.root.alert, app.root.camera_banner)
                if banner.opacity and banner.collide_widget(turn)]

    def pause(self, seconds: float) -> None:
        """No animation needs to finish before a check."""


def inspect(driver: Any, language: str, tour: Any) -> Inspector:
    inspector = Inspector(driver, language)
    driver.app.lang = language
    try:
        tour(inspector)
    finally:
        driver.app.lang = "en"
        driver.app.root.alert.hide()
        driver.app.leave_game()
    return inspector


def table_tours() -> list[tuple[str, int]]:
    """Every language with the fewest and the most players (where layouts break: the longest
    rows, the smallest tiles); the sizes between once each, in the two languages whose lines are
    the hardest (French: the longest; Chinese: its own line-breaking rules). Twelve tours were
    a third of the suite's time for little more than these eight find."""
    fewest, *between, most = PLAYER_COUNTS
    hardest = [code for code in ("fr", "zh") if code in languages()]
    return ([(code, count) for code in languages() for count in (fewest, most)]
            + [(hardest[index % len(hardest)], count) for index, count in enumerate(between)])


@pytest.mark.parametrize(("language", "count"), table_tours())
def test_every_screen_of_a_table_fits_and_reads(driver, language, count):
    """Issue 15.10: every screen that shows the table, for 2 to 5 players (table_tours)."""
    inspector = inspect(driver, language, lambda inspector: tour_table(
        driver, inspector, LONG_NAMES[:count]))
    assert sorted(inspector.visited) == [f"{name}-{count}p" for name in TABLE_SCREENS]
    assert not inspector.problems, "\n".join(dict.fromkeys(inspector.problems))


@pytest.mark.parametrize("language", languages())
def test_the_screens_without_a_table_fit_and_read(driver, language):
    def tour(inspector: Inspector) -> None:
        driver.app.leave_game()
        driver.settle()
        inspector.shoot("01-home")
        tour_once(driver, inspector)

    inspector = inspect(driver, language, tour)
    assert sorted(inspector.visited) == sorted(ONCE_SCREENS)
    assert not inspector.problems, "\n".join(dict.fromkeys(inspector.problems))


def test_the_walker_finds_small_text_and_low_contrast(driver):
    """The check itself can fail: a 16 px label and white on the old gauge blue (3.1:1)."""
    from kivy.core.window import Window
    from kivy.graphics import Color, Rectangle
    from kivy.uix.label import Label

    from companion.ui.driver import legibility_problems

    app = driver.app
    app.go("home")
    label = Label(text="Tiny words", font_size=16, size_hint=(None, None), size=(300, 60),
                  pos=(250, 200), color=(1, 1, 1, 1))
    with label.canvas.before:
        Color(0.25, 0.6, 0.85, 1)
        Rectangle(pos=label.pos, size=label.size)
    Window.add_widget(label)
    try:
        driver.pump(3)
        found = [p for p in legibility_problems() if "Tiny words" in p]
    finally:
        Window.remove_widget(label)
    assert any("is 16 px" in p for p in found), found
    assert any("contrast of 3.1:1" in p for p in found), found


def test_the_walker_judges_a_name_fields_placeholder(driver):
    """Issue 15: an empty name field shows its placeholder ("Player 3"); Kivy's own grey on
    the field is 3.4:1, the app's theme.PLACEHOLDER at least 4.5:1."""
    from kivy.core.window import Window
    from kivy.uix.textinput import TextInput

    from companion.ui import theme
    from companion.ui.driver import legibility_problems

    driver.app.go("home")
    found = {}
    for name, colour in (("kivy", (0.5, 0.5, 0.5, 1.0)), ("app", theme.PLACEHOLDER)):
        field = TextInput(hint_text=f"Placeholder {name}", hint_text_color=colour,
                          font_size=22, size_hint=(None, None), size=(300, 52), pos=(250, 200))
        Window.add_widget(field)
        try:
            driver.pump(3)
            found[name] = [p for p in legibility_problems() if "Placeholder" in p]
        finally:
            Window.remove_widget(field)
    assert any("contrast of 3.4:1" in p for p in found["kivy"]), found
    assert found["app"] == []


CHINESE = "輪到Chloé-Marguerite的回合。請出牌，然後移動挪亞（第3艘駁船）。"


def _narrow_chinese_labels(driver, widths=(110, 150, 190, 230)):
    """Labels of a Chinese sentence with a Latin name, at several narrow widths, on the
    window; their laid-out lines."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from companion.ui import theme
    from companion.ui.fonts import language_font

    labels = [Label(text=CHINESE, font_name=language_font("zh", theme.FONT), font_size=22,
                    size_hint=(None, None), size=(width, 300), text_size=(width, None),
                    pos=(10 + i * 250 % 700, 100)) for i, width in enumerate(widths)]
    for label in labels:
        Window.add_widget(label)
    driver.pump(2)
    lines = [["".join(w.text for w in line.words) for line in label._label._cached_lines]
             for label in labels]
    return labels, lines


def test_chinese_lines_break_between_characters_never_inside_a_name_nor_before_a_full_stop(
        driver):
    """Issue 15.7: a Latin name stays whole, 。，） never start a line, （ never ends one."""
    from kivy.core.window import Window

    from companion.ui.driver import layout_problems

    labels, lines = _narrow_chinese_labels(driver)
    try:
        problems = [p for p in layout_problems() if "Chlo" in p and "must not" in p]
    finally:
        for label in labels:
            Window.remove_widget(label)
    for laid_out in lines:
        assert len(laid_out) > 2, laid_out
        assert any("Chloé-" in line for line in laid_out), laid_out
        assert not any(line[:1] in "。，）」" or line[-1:] in "（「" for line in laid_out), laid_out
    assert not problems, problems


def test_the_walker_finds_a_name_cut_in_two_by_kivys_own_breaking(driver):
    """The check can fail: Kivy's own core label cuts the line where it reaches the edge."""
    import kivy.uix.label as uix_label
    from kivy.core.window import Window

    from companion.ui.driver import layout_problems

    breaking = uix_label.CoreLabel
    uix_label.CoreLabel = breaking.__mro__[1]  # Kivy's own
    try:
        labels, lines = _narrow_chinese_labels(driver, widths=(110,))
    finally:
        uix_label.CoreLabel = breaking
    try:
        problems = [p for p in layout_problems() if "must not" in p]
    finally:
        for label in labels:
            Window.remove_widget(label)
    assert problems, lines


def test_the_walker_finds_a_character_its_font_has_no_glyph_for(driver):
    """A label in the Chinese font with "✕" (drawn as an empty box) is found; "×" is not."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from companion.ui import theme
    from companion.ui.driver import layout_problems
    from companion.ui.fonts import language_font

    driver.app.go("home")
    labels = [Label(text=text, font_name=language_font("zh", theme.FONT), font_size=24,
                    size_hint=(None, None), size=(60, 40), pos=(300 + 100 * i, 10))
              for i, text in enumerate(("✕", "×"))]
    for label in labels:
        Window.add_widget(label)
    try:
        driver.pump(3)
        found = [p for p in layout_problems() if "cannot draw" in p]
    finally:
        for label in labels:
            Window.remove_widget(label)
    assert found == ["'✕' has characters its font cannot draw (boxes): '✕'"]
