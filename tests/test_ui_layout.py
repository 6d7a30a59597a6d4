"""Every screen with four and five players and long names, in English and in French: no label
is cut off, lies outside the screen or overlaps another (companion.ui.driver.layout_problems).

The screens are reached by the screenshot script's own tour (companion.ui.screenshots): a whole
seeded game with every prompt, the card tray, the gifts, a long refusal, round ends, game end,
history, settings, a snail's side at set-up and the score-only round. Each screen is checked
in both languages.
"""

from __future__ import annotations

import ctypes.util
from pathlib import Path
from typing import Any

import pytest

from companion.ui.screenshots import CROWDED, LONG_NAMES, Photographer, crowded, tour

pytestmark = [
    pytest.mark.ui,
    pytest.mark.skipif(ctypes.util.find_library("EGL") is None,
                       reason="no Mesa EGL (apt install libegl1 libgl1) for offscreen Kivy"),
]
LANGUAGES = ("en", "fr", "zh")


class Inspector(Photographer):
    """The screenshot tour, checking each screen in every language instead of saving it."""

    frames_per_step = 0  # only the checked screens need drawing

    def __init__(self, driver: Any) -> None:
        super().__init__(driver, Path("unused"), "en")
        self.problems: list[str] = []
        self.visited: list[str] = []

    def shoot(self, name: str) -> None:
        from companion.ui.driver import layout_problems

        self.names.add(name)
        self.visited.append(name)
        app = self.driver.app
        screen = app.root.sm.current
        for language in LANGUAGES:
            self.switch(language, settings=name == "16-settings")
            app.root.sm.current = screen  # a new language redraws the game's own screen
            self.driver.pump(3)
            found = layout_problems() + self.turn_hidden()
            self.problems += [f"{name} ({language}): {problem}" for problem in found]
        self.switch("en", settings=name == "16-settings")
        app.root.sm.current = screen
        self.driver.pump(2)

    def switch(self, language: str, *, settings: bool) -> None:
        """The app in ``language`` (the settings panel is rebuilt in it, as a person would see
        it after choosing the language there)."""
        app = self.driver.app
        if settings:
            app.close_settings()
        app.lang = language
        if settings:
            app.open_settings()

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


@pytest.mark.parametrize("players", sorted(CROWDED))
def test_every_screen_fits_with_long_names_in_english_and_french(ui_driver, players):
    names = LONG_NAMES[:players]
    inspector = Inspector(ui_driver)
    try:
        tour(ui_driver, inspector, players=names, seed=2)
        crowded(ui_driver, inspector, names)
    finally:
        ui_driver.app.lang = "en"
        ui_driver.app.root.alert.hide()
        ui_driver.app.leave_game()
    for screen in ("02-new-game", "05-setup-starter", "06-table", "11-give-cards",
                   "12-round-end-scan", "13-round-result", "14-game-end", "17-card-tray",
                   "18-refused", "20-score-only-tears",
                   *(f"{int(CROWDED[players]) + n:02d}-{shot}-{players}-players"
                     for n, shot in enumerate(("new-game", "table", "score-only")))):
        assert screen in inspector.visited, screen
    assert not inspector.problems, "\n".join(dict.fromkeys(inspector.problems))
