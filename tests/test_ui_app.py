"""The touchscreen app, headless (SDL offscreen + Mesa): widgets and a whole game through the UI.

Kivy has one window per process, so every Kivy test lives in this module around one app
(module scope); under ``pytest -n 2`` each worker builds its own. Every wait pumps the event loop
with a deadline (:class:`~companion.ui.driver.Timeout`), and a watchdog ends the process with a
traceback if anything still hangs, so a stuck UI can never stall CI.
"""

from __future__ import annotations

import ctypes.util
import faulthandler
from typing import Any

import pytest

from companion.sim.autoplay import DriftError, SimulatedTable, Step

pytestmark = [
    pytest.mark.ui,
    pytest.mark.skipif(ctypes.util.find_library("EGL") is None,
                       reason="no Mesa EGL (apt install libegl1 libgl1) for offscreen Kivy"),
]
WATCHDOG_SECONDS = 240


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    faulthandler.dump_traceback_later(WATCHDOG_SECONDS, exit=True)
    from companion.ui.driver import HeadlessApp

    app = HeadlessApp(tmp_path_factory.mktemp("ui"), simulate=True, quick_camera=True)
    app.start()
    # The live view's texture uploads are slow in software GL (Mesa llvmpipe): only the test
    # of the view itself turns it on.
    app.app.camera_tap = None
    try:
        yield app
    finally:
        app.stop()
        faulthandler.cancel_dump_traceback_later()


def buttons(driver: Any, text: str | None = None) -> list[Any]:
    """The enabled buttons on screen (the current screen and any open popup)."""
    from kivy.core.window import Window
    from kivy.uix.button import Button

    found = []
    for top in Window.children:
        for widget in top.walk():
            if isinstance(widget, Button) and not widget.disabled and widget.get_root_window() \
                    and (text is None or widget.text == text):
                found.append(widget)
    return found


def popups() -> list[Any]:
    """The popups (trays, gifts, messages) still attached to the window."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    return [child for child in Window.children if isinstance(child, ModalView)]


def press(driver: Any, text: str) -> None:
    matches = buttons(driver, text)
    assert matches, f"no button {text!r} on {driver.app.root.sm.current}"
    driver.press(matches[0])
    driver.settle()


def test_home_screen_offers_a_new_game_and_lists_the_cards_to_remove(driver):
    driver.app.go("home")
    press(driver, "New game")
    screen = driver.app.root.sm.get_screen("new_game")
    assert driver.app.root.sm.current == "new_game"
    assert "Take out of the box for 3 players" in screen.removed_text
    before = screen.removed_text
    driver.press(screen.ids.frog)
    assert screen.removed_text != before  # the promo frog changes what stays in the box
    driver.press(screen.ids.frog)
    press(driver, "Back")
    assert driver.app.root.sm.current == "home"


def test_every_touch_target_is_at_least_nine_millimetres(driver):
    driver.app.open_new_game(score_only=False)
    driver.pump(3)
    small = [b.text for b in buttons(driver) if b.height < 48]
    assert small == []


def test_the_french_catalog_redraws_the_screen(driver):
    driver.app.go("home")
    driver.app.lang = "fr"
    driver.pump(2)
    assert buttons(driver, "Nouvelle partie")
    driver.app.lang = "en"
    driver.pump(2)
    assert buttons(driver, "New game")


class UiCamera:
    """Cards shown by touching them in the simulator's tray: each goes through the synthetic
    camera and the real vision pipeline before the session sees it."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver

    def show(self, refs, hold: float = 0.0) -> None:
        from kivy.uix.button import Button

        app = self.driver.app
        for ref in refs:
            self.driver.pump_until(lambda: not popups())  # the last tray has closed
            press(self.driver, app.t("table.cards"))
            tray = [b for b in buttons(self.driver) if isinstance(b, Button)
                    and getattr(b, "ref", None) == ref]
            assert tray, (f"{ref} is not in the card tray ({app.view.prompt.kind}, "
                          f"ferries {app.view.state.get('ferries')})")
            seen = app.simulator.shown
            self.driver.press(tray[0])
            self.driver.pump_until(lambda s=seen: app.simulator.shown > s and app.simulator.idle)
            self.driver.settle()
            for done in buttons(self.driver, app.t("tray.done")):
                self.driver.press(done)
        if app.showing_result:
            press(self.driver, app.t("round.next"))

    def show_foreign(self, text: str) -> None:
        raise AssertionError("not used")


class UiButtons:
    """Ferry buttons pressed as touches on the drawn ferries."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver

    def press(self, ferry: int) -> None:
        screen = self.driver.app.root.sm.current_screen
        self.driver.press(screen.ids.board.ids[f"ferry{ferry}"])
        self.driver.settle()


class UiTable(SimulatedTable):
    """A seeded table whose every intent is a touch on the app's screens."""

    def __init__(self, driver: Any, players, seed: int) -> None:
        super().__init__(driver.app.session, players, seed=seed, camera=UiCamera(driver),
                         buttons=UiButtons(driver))
        self.driver = driver

    def do(self, intent: str, *args: Any, expect: bool = True) -> Any:
        app, before = self.driver.app, self.session.view.seq
        refusals = app.refusals
        getattr(self, f"_touch_{intent}")(*args)
        self.driver.settle()
        accepted = app.refusals == refusals
        self._record(Step(intent, args, before, self.session.view.seq, accepted))
        if expect and not accepted:
            raise DriftError(f"the app refused {intent}{args}: {app.view.notices[-1].text}")

    def _touch_new_game(self, players, _options) -> None:
        app = self.driver.app
        app.go("home")
        press(self.driver, "New game")
        screen = app.root.sm.get_screen("new_game")
        while len(screen.rows()) > len(players):
            self.driver.press(screen.rows()[-1].children[0])
        for row, name in zip(screen.rows(), players, strict=True):
            row.ids.name.text = name
        press(self.driver, "Start")

    def _touch_choose_starter(self, seat: int) -> None:
        press(self.driver, self.players[seat])

    def _touch_choose_target(self, seat: int) -> None:
        press(self.driver, self.players[seat])  # a giraffe's look names the opponent too

    def _touch_choose_snail_side(self, side: str) -> None:
        app = self.driver.app
        press(self.driver, app.t("table.up", sign=app.t(f"sign.{side}")))

    def _touch_take_back(self) -> None:
        press(self.driver, self.driver.app.t("table.cannot_play"))

    def _touch_give_cards(self, counts: dict[int, int]) -> None:
        app = self.driver.app
        press(self.driver, app.t("table.give"))
        popup = next(w for w in app.root.get_root_window().children if hasattr(w, "rows"))
        for seat, count in counts.items():
            plus = next(b for b in popup.rows[seat].walk() if getattr(b, "text", "") == "+")
            for _ in range(count):
                self.driver.press(plus)
        self.driver.press(next(b for b in popup.walk() if getattr(b, "text", "") == app.t(
            "table.give")))


@pytest.mark.slow
def test_a_whole_game_played_through_the_touchscreen_in_simulator_mode(driver):
    """Every card through the tray, the synthetic camera and the vision pipeline; every choice
    a touch on a button or a ferry; scores checked against the table's truth each round."""
    table = UiTable(driver, ["Ana", "Ben"], seed=4)
    table.play()
    driver.settle()
    app = driver.app
    assert app.view.game_over
    assert app.root.sm.current == "game_end"
    assert app.root.sm.get_screen("game_end").winner.endswith("!")
    assert app.simulator.shown >= 5 * 3  # at least the starting animals came by camera


def test_an_illegal_move_shows_a_red_banner_saying_why(driver):
    app = driver.app
    app.start_game(["Ana", "Ben"], ["red", "blue"], {}, score_only=False)
    driver.settle()
    app.act(app.session.choose_noah_start, 0)
    driver.settle()
    app.act(app.session.move_noah, 3)  # nothing to move yet
    driver.settle()
    assert app.root.alert.opacity == 1
    assert app.root.alert.text.startswith("Refused: ")


def tile_labels(app: Any) -> set[str]:
    """The animals' labels on the current screen's ferries."""
    return {w.text for w in app.root.sm.current_screen.walk() if type(w).__name__ == "CardTile"}


def test_a_refusal_on_the_french_table_says_why_in_french(driver):
    app = driver.app
    app.lang = "fr"
    try:
        app.start_game(["Ana", "Ben", "Chloé"], ["red", "blue", "green"], {},
                       score_only=False)
        driver.settle()
        app.act(app.session.choose_noah_start, 0)
        for ref in ("cat:F#1", "lion:M#1", "panda:F#1", "bear:M#1", "kangaroo:F#1"):
            app.act(app.session.choose_card, ref)
        app.act(app.session.choose_starter, 0)
        driver.settle()
        app.act(app.session.move_noah, 3)  # R50: Ana must load an animal first
        driver.settle()
        assert app.root.alert.text == ("Refusé : Noé ne bouge pas maintenant : Ana doit "
                                       "d'abord charger un animal sur le ferry 1.")
        assert app.root.sm.current_screen.ids.panel.verdict == app.root.alert.text[9:]
        assert "Chat ♀" in tile_labels(app)
        app.lang = "en"
        driver.pump(2)
        assert "Cat ♀" in tile_labels(app) and "Chat ♀" not in tile_labels(app)
    finally:
        app.lang = "en"
        app.root.alert.hide()
        app.leave_game()


def test_the_settings_panel_follows_the_language(driver):
    from kivy.core.window import Window
    from kivy.uix.label import Label

    def shown() -> set[str]:
        return {w.text.split("\n")[0] for top in Window.children for w in top.walk()
                if isinstance(w, Label)}

    app = driver.app
    app.go("home")
    app.open_settings()
    driver.pump(3)
    assert "Full screen" in shown()
    app.close_settings()
    app.lang = "fr"
    try:
        app.open_settings()
        driver.pump(3)
        assert "Plein écran" in shown() and "Full screen" not in shown()
        assert "Fermer" in shown() and "Close" not in shown()
        app.close_settings()
    finally:
        app.lang = "en"
        driver.pump(2)


def test_the_setup_board_shows_noah_and_the_animals_put_down_by_buttons_and_camera(driver):
    """R8-R9: Noah's ferry chosen with a physical ferry button (not a touch) is drawn."""
    app = driver.app
    app.start_game(["Ana", "Ben"], ["red", "blue"], {}, score_only=False)
    driver.settle()
    app.session.ferry_pressed(2)  # what the GPIO button does
    app.session.choose_card("cat:F#1")
    driver.settle()
    board = app.root.sm.get_screen("setup").ids.board
    assert app.root.sm.current == "setup"
    assert board.state["noah"] == 2 and board.state["ferries"][0] == ["cat:F#1"]
    app.leave_game()


def test_a_crowded_ferry_keeps_its_weight_gauge_in_sight(driver):
    """Five animals and more: the top ones and "+n below", all under the gauge."""
    app = driver.app
    app.go("table")
    board = app.root.sm.get_screen("table").ids.board
    crowded = ["parrot:M#1", "cat:F#1", "snail:M#1", "cat:M#2", "parrot:F#2", "lion:M#1"]
    board.state = {"ferries": [crowded, [], [], [], []], "weights": [11, 0, 0, 0, 0],
                   "capacities": [21] * 5, "noah": 0}
    driver.pump(3)
    ferry = board.ids.ferry0
    tiles = [w for w in ferry.walk() if type(w).__name__ == "CardTile"]
    assert [t.ref for t in tiles] == crowded[:2:-1] and ferry.hidden == 3
    assert max(t.top for t in tiles) <= ferry.ids.gauge.y
    assert min(t.y for t in tiles) >= ferry.y
    app.go("home")


def test_a_resumed_game_keeps_the_players_token_colours(driver):
    from companion.ui import theme

    app = driver.app
    app.start_game(["Ana", "Ben"], ["purple", "yellow"], {}, score_only=False)
    driver.settle()
    app.leave_game()
    app.resume()
    driver.settle()
    assert app.view.tokens == ("purple", "yellow")
    board = app.root.sm.get_screen("table").ids.board
    app.root.sm.get_screen("table").show(app.view)
    assert board.colours == ["purple", "yellow"]
    assert theme.player_colour(board.colours, 1) == theme.PLAYER_COLOURS["yellow"]
    app.leave_game()


FIVE = ["Ana", "Benjamin", "Chloé", "Dominique", "Éloïse"]


def drawn_boxes(screen: Any) -> list[tuple[str, tuple[float, float, float, float]]]:
    """What the right-hand column draws: each button's box and each text's own extent (a
    label's texture, centred on it, can be taller than the label)."""
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    boxes = []
    for widget in screen.walk():
        if not widget.get_root_window() or widget.x < 556 or widget.opacity == 0:
            continue
        if isinstance(widget, Button):
            boxes.append((widget.text, (widget.x, widget.y, widget.right, widget.top)))
        elif isinstance(widget, Label) and widget.text.strip() and widget.parent is not None \
                and not isinstance(widget.parent, Button):
            width, height = widget.texture_size
            boxes.append((widget.text, (widget.center_x - width / 2, widget.center_y - height / 2,
                                        widget.center_x + width / 2, widget.center_y + height / 2)))
    return boxes


def assert_nothing_overlaps(screen: Any) -> None:
    boxes = drawn_boxes(screen)
    for text, (left, bottom, right, top) in boxes:
        assert left >= 555 and right <= 801 and bottom >= -1 and top <= 481, (text, screen.name)
    for i, (text, a) in enumerate(boxes):
        for other, b in boxes[i + 1:]:
            apart = a[2] <= b[0] + 1 or b[2] <= a[0] + 1 or a[3] <= b[1] + 1 or b[3] <= a[1] + 1
            assert apart, (text, other, screen.name)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_five_players_prompts_fit_the_column_without_overlapping(driver, language):
    """Setup's starter, the lion's target, the giraffe's look with five players: every answer
    and every sentence stays on screen, none over another (a long verdict included)."""
    from dataclasses import replace

    from companion.session.prompts import ChooseStarter, ChooseTarget, MoveNoah
    from companion.session.view import Notice

    app = driver.app
    app.lang = language
    try:
        app.start_game(FIVE, ["red", "blue", "green", "yellow", "purple"], {},
                       score_only=False)
        driver.settle()
        base = app.session.view
        long_verdict = Notice("info", "Ben loaded the ♀ kangaroo on ferry 2. Noah moves to "
                              "ferry 4. Ferry 4 departs (departure 1 of 4).")
        starter = replace(base, prompt=ChooseStarter(player=None, text="?",
                                                     choices=(0, 1, 2, 3, 4)),
                          setup_ferries=("cat:F#1",) * 5, setup_noah=0)
        app.show_view(starter)
        driver.pump(3)
        assert_nothing_overlaps(app.root.sm.current_screen)
        state = {**base.state, "phase": "lion_swap", "current_player": 0, "noah": 0,
                 "round": 1, "hand_counts": [7, 8, 8, 8, 8]}
        for prompt in (ChooseTarget(player=0, text="?", choices=(1, 2, 3, 4)),
                       MoveNoah(player=0, text="?", choices=(1, 4), giraffe_targets=(1, 2, 3, 4))):
            app.show_view(replace(base, prompt=prompt, state=state, notices=(long_verdict,)))
            driver.pump(3)
            assert app.root.sm.current == "table"
            assert_nothing_overlaps(app.root.sm.current_screen)
    finally:
        app.lang = "en"
        app.leave_game()


def test_the_live_camera_view_shows_the_pipelines_frames(driver):
    app = driver.app
    app.start_game(["Ana", "Ben"], ["red", "blue"], {}, score_only=False)
    app.act(app.session.choose_noah_start, 0)  # the setup shows the camera for the scanning step
    driver.settle()
    view = next(w for w in app.root.sm.current_screen.walk()
                if type(w).__name__ == "CameraView")
    app.camera_tap = app.simulator.camera
    try:
        driver.pump_until(lambda: view.uploads >= 3)
        assert view.texture.size[0] <= view.width  # frames are shrunk to the view
    finally:
        app.camera_tap = None
    app.leave_game()


def test_the_camera_views_quick_shrink_looks_like_averaging_the_whole_frame(driver):
    import cv2
    import numpy as np

    from companion.ui.widgets import _fit
    from vision.synthetic import Scene, render_frame

    frame = render_frame(["NOAH1 CAT F2"], Scene(width=800, height=450, camera_height_mm=250))
    shrunk = _fit(frame, (176, 100))
    averaged = cv2.resize(frame, (176, 99), interpolation=cv2.INTER_AREA)
    assert shrunk.shape == averaged.shape
    assert np.abs(shrunk.astype(np.int16) - averaged).mean() < 2.5  # grey levels of 255
    assert _fit(frame, (1000, 600)) is frame  # never enlarged


def test_a_lost_camera_shows_a_banner_and_the_tray_still_works(driver):
    from dataclasses import replace

    app = driver.app
    driver.settle()  # nothing from the session still on its way to the screen
    app.show_view(replace(app.session.view, camera_ok=False,
                          camera_message="The camera stopped sending pictures."))
    assert app.root.camera_banner.opacity == 1
    app.open_tray()
    driver.pump(2)
    assert [b for b in buttons(driver) if getattr(b, "ref", None)]
    driver.press(buttons(driver, app.t("tray.done"))[0])  # no settle: the view is our own
    app.show_view(replace(app.session.view, camera_ok=True))
    assert app.root.camera_banner.opacity == 0


def _damage(app: Any, game: int, text: str) -> int:
    """Write a line as it is at the end of ``game``'s record, behind the app's back; returns
    its table-log line number."""
    import sqlite3

    db = sqlite3.connect(app.session.store.path)
    seq = db.execute("SELECT MAX(seq) + 1 FROM lines WHERE game_id = ?", (game,)).fetchone()[0]
    db.execute("INSERT INTO lines VALUES (?, ?, ?, '2026-11-23T20:00:00+00:00')",
               (game, seq, text))
    db.commit()
    db.close()
    return seq + 1


def test_a_damaged_game_offers_resume_up_to_the_last_good_move_abandon_and_delete(driver):
    """Issue 12.2: "Resume" on a damaged game never shows a developer message; the table
    chooses, and the dropped line is kept aside. Abandon is confirmed first."""
    from companion.ui.damaged import ConfirmPopup, DamagedGamePopup, explain
    from companion.ui.i18n import Catalog

    app = driver.app
    app.start_game(["Ana", "Ben"], ["red", "blue"], {}, score_only=True)
    driver.settle()
    game = app.view.game_id
    app.act(app.session.enter_tears, (1, 2))
    driver.settle()
    app.leave_game()
    driver.settle()
    line = _damage(app, game, '{"type": "undo", "count": 9}')
    press(driver, app.t("home.resume"))
    [popup] = [p for p in popups() if isinstance(p, DamagedGamePopup)]
    assert f"Line {line} of its record cannot be used: This line is malformed" in popup.details
    assert "sets 1 line(s) aside" in popup.details
    french = "\n".join(explain(Catalog("fr"), popup.reading))
    assert f"Ligne {line} : une annulation de 9 action(s)" in french
    assert app.session.store.set_aside_lines(game) == []  # nothing changed before the choice
    press(driver, app.t("damaged.resume"))
    assert app.view.game_id == game and app.view.round_scores == ((1, 2),)
    assert [row["seq"] for row in app.session.store.set_aside_lines(game)] == [line - 1]
    app.leave_game()
    driver.settle()

    _damage(app, game, "not JSON at all")
    press(driver, app.t("home.resume"))
    press(driver, app.t("damaged.abandon"))
    assert [p for p in popups() if isinstance(p, ConfirmPopup)]
    press(driver, app.t("damaged.yes"))
    driver.settle()
    assert not popups() and game not in app.view.prompt.unfinished
    assert [g.abandoned for g in app.session.store.games() if g.id == game] == [True]
    app.act(app.session.delete_game, game)
    driver.settle()
