"""Every screen with five long names in every language the app has a catalog for, and the
2-player table: no label is cut off, lies outside the screen or overlaps another
(companion.ui.driver.layout_problems); nothing a player reads is under 22 px and every text
has a contrast of at least 4.5:1 on what is drawn behind it (legibility_problems).

The screens are reached by the screenshot script's own tour (companion.ui.screenshots): a whole
seeded game with every prompt, the card tray, the gifts, a long refusal, round ends, game end,
history, settings, a snail's side at set-up and the score-only round. One tour per language
(the tour is what takes time; the screens for two players are checked once, in English).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.ui.i18n import languages
from companion.ui.screenshots import LONG_NAMES, Photographer, crowded, tour

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
        self.visited.append(name)
        self.driver.pump(3)
        found = layout_problems() + legibility_problems() + self.turn_hidden()
        self.problems += [f"{name} ({self.language}): {problem}" for problem in found]

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


def inspect(driver: Any, language: str, players: tuple[str, ...], *, whole: bool) -> Inspector:
    inspector = Inspector(driver, language)
    driver.app.lang = language
    try:
        if whole:
            tour(driver, inspector, players=players, seed=2)
        crowded(driver, inspector, players)
    finally:
        driver.app.lang = "en"
        driver.app.root.alert.hide()
        driver.app.leave_game()
    return inspector


@pytest.mark.parametrize("language", languages())
def test_every_screen_fits_and_reads_with_five_long_names(driver, language):
    inspector = inspect(driver, language, LONG_NAMES, whole=True)
    for screen in ("02-new-game", "05-setup-starter", "06-table", "07-prompt-snail-side",
                   "09-prompt-target", "11-give-cards", "12-round-end-scan", "13-round-result",
                   "14-game-end", "16-settings", "17-card-tray", "18-refused",
                   "20-score-only-tears", "28-setup-snail-side", "02-new-game-5p",
                   "06-table-5p", "20-score-only-5p", "29-table-camera"):
        assert screen in inspector.visited, screen
    assert not inspector.problems, "\n".join(dict.fromkeys(inspector.problems))


def test_the_two_player_table_fits_and_reads(driver):
    inspector = inspect(driver, "en", LONG_NAMES[:2], whole=False)
    assert inspector.visited == ["02-new-game-2p", "06-table-2p", "20-score-only-2p"]
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
