"""The touchscreen app, headless (SDL offscreen + Mesa): widgets and a whole game through the UI.

Kivy has one window per process, so every Kivy test shares one app (``ui_driver`` in
conftest.py). Every wait pumps the event loop with a deadline
(:class:`~companion.ui.driver.Timeout`), and a watchdog ends the process with a traceback if
anything still hangs, so a stuck UI can never stall CI.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from companion.sim.autoplay import DriftError, SimulatedTable, Step

pytestmark = pytest.mark.ui



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
    players = len(screen.rows())
    assert f"Take out of the box for {players} players" in screen.removed_text
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

    def do(self, intent: Any, *args: Any, expect: bool = True) -> Any:
        app, before, name = self.driver.app, self.session.view.seq, intent.__name__
        refusals = app.refusals
        getattr(self, f"_touch_{name}")(*args)  # the touches that make this intent
        self.driver.settle()
        accepted = app.refusals == refusals
        self._record(Step(name, args, before, self.session.view.seq, accepted))
        if expect and not accepted:
            raise DriftError(f"the app refused {name}{args}: {app.view.notices[-1].text}")

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
            plus = next(b for b in popup.rows[seat].walk() if getattr(b, "text", "") == "+1")
            for _ in range(count):
                self.driver.press(plus)
        self.driver.press(next(b for b in popup.walk() if getattr(b, "text", "") == app.t(
            "table.give")))


@pytest.mark.slow
def test_a_whole_game_played_through_the_touchscreen_in_simulator_mode(driver, monkeypatch):
    """Every card through the tray, the synthetic camera and the vision pipeline; every choice
    a touch on a button or a ferry; scores checked against the table's truth each round."""
    # The simulator's camera films at 30 frames a second, and a card is shown after 2 frames
    # and gone after 3: at 120 the pipeline, the tracker and every touch are the same, and the
    # game's cards wait a quarter as long on the camera.
    monkeypatch.setattr(driver.app.simulator.source, "fps", 120.0)
    table = UiTable(driver, ["Ana", "Ben"], seed=4)
    table.play()
    driver.settle()
    app = driver.app
    assert app.view.game_over
    assert app.root.sm.current == "game_end"
    assert app.root.sm.get_screen("game_end").winner.endswith("!")
    assert app.simulator.shown >= 5 * 3  # at least the starting animals came by camera


def test_an_illegal_move_shows_a_red_banner_saying_why(driver, clock):
    from companion.ui.application import BANNER_SECONDS

    app = driver.app
    app.start_game(["Ana", "Ben"], ["red", "blue"], {}, score_only=False)
    driver.settle()
    app.act(app.session.choose_noah_start, 0)
    driver.settle()
    app.act(app.session.move_noah, 3)  # nothing to move yet
    driver.settle()
    assert app.root.alert.opacity == 1
    assert app.root.alert.text.startswith("Refused: ")
    clock.advance(BANNER_SECONDS - 0.5)
    driver.pump(2)
    assert app.root.alert.opacity == 1
    clock.advance(1)
    driver.pump(2)
    assert app.root.alert.opacity == 0
    app.leave_game()


def test_views_published_faster_than_drawn_draw_only_the_newest_and_keep_its_refusals(
        driver, monkeypatch):
    """The session publishes a view per change from any thread; when several wait for the UI
    thread only the newest is drawn (a stale one cost a whole screen's update), and a refusal
    in a view never drawn still raises the red banner. Fails with every view drawn (three)."""
    app = driver.app
    app.start_game(["Ana", "Ben"], ["red", "blue"], {}, score_only=False)
    driver.settle()
    drawn: list[Any] = []
    show_view = app.show_view
    monkeypatch.setattr(app, "show_view", lambda view: (drawn.append(view), show_view(view)))
    refusals = app.refusals
    app.session.move_noah(3)  # refused: nothing to move yet (no pump: nothing drawn)
    app.session.choose_noah_start(0)
    app.session.undo()
    driver.settle()
    assert drawn == [app.session.view]
    assert app.refusals == refusals + 1
    assert app.root.alert.opacity == 1 and app.root.alert.text.startswith("Refused: ")
    app.root.alert.hide()
    app.leave_game()


def test_a_refusal_banner_belongs_to_its_screen(driver, clock):
    """Issue 15: a refusal raised on the table goes when the round's result (or any other
    screen) comes, instead of lingering over its title; a refusal on the round-end screen goes
    when the result is shown there."""
    app = driver.app
    app.start_game(["Ana", "Ben"], ["red", "blue"], {}, score_only=True)
    driver.settle()
    app.root.alert.show("Refused: not now.", screen=app.root.sm.current)
    app.act(app.session.enter_tears, (3, 4))
    driver.settle()
    assert app.showing_result and app.root.sm.current == "round_end"
    assert app.root.alert.opacity == 0 and app.root.alert.text == ""
    app.next_round()
    driver.settle()
    app.root.alert.show("Refused: not now.", screen=app.root.sm.current)
    app.go("home")
    driver.pump(2)
    assert app.root.alert.opacity == 0
    app.root.alert.show("The camera is back.")  # a banner of no screen stays
    app.go("history")
    driver.pump(2)
    assert app.root.alert.opacity == 1
    app.root.alert.hide()
    app.leave_game()


def tile_labels(app: Any) -> set[str]:
    """The animals' labels on the current screen's ferries."""
    return {w.text for w in app.root.sm.current_screen.walk() if type(w).__name__ == "CardTile"}


def test_a_refusal_on_the_french_table_says_why_in_french(driver, clock):
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
        alert = app.root.alert.text.replace("\xa0", " ")
        assert alert == "Coup refusé. Noé ne bouge pas maintenant : Ana doit d'abord charger un " \
            "animal sur l'embarcation 1."
        verdict = app.root.alert.text.removeprefix("Coup refusé. ")
        assert app.root.sm.current_screen.ids.panel.verdict == verdict
        assert "Chat ♀" in tile_labels(app)
        app.lang = "en"
        driver.pump(2)
        assert "Cat ♀" in tile_labels(app) and "Chat ♀" not in tile_labels(app)
    finally:
        app.lang = "en"
        app.root.alert.hide()
        app.leave_game()


def test_the_settings_page_follows_the_language(driver):
    from kivy.core.window import Window
    from kivy.uix.label import Label

    def shown() -> set[str]:
        return {w.text.split("\n")[0] for top in Window.children for w in top.walk()
                if isinstance(w, Label)}

    app = driver.app
    app.go("home")
    app.open_settings()
    driver.pump(3)
    assert "Sounds" in shown()
    app.close_settings()
    app.lang = "fr"
    try:
        app.open_settings()
        driver.pump(3)
        assert "Sons" in shown() and "Sounds" not in shown()
        assert "Retour" in shown() and "Back" not in shown()
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
    table = app.root.sm.get_screen("table")
    table.show(app.view)
    lines = list(reversed(table.ids.players.children))  # each player's score on their colour
    assert [line.colour for line in lines] == [list(theme.PLAYER_COLOURS["purple"]),
                                              list(theme.PLAYER_COLOURS["yellow"])]
    app.leave_game()


def test_scores_and_hands_are_written_beside_each_player_during_play(driver):
    """Issue 15.1: numbers, not 8 px dots, and the one whose turn it is stands out."""
    app = driver.app
    app.start_game(["Ana", "Ben"], ["red", "blue"], {}, score_only=False)
    driver.settle()
    table = app.root.sm.get_screen("table")
    view = app.view
    view = dataclasses.replace(view, state={**view.state, "hand_counts": [7, 6],
                                            "scores": [3, 11]})
    table.show(view)
    driver.pump(2)
    lines = list(reversed(table.ids.players.children))
    assert [(line.name, line.count) for line in lines] == [("Ana", 7), ("Ben", 6)]
    assert [line.score for line in lines] == list(view.scores)
    app.leave_game()


def test_an_undo_shows_what_to_put_back_until_the_table_touches_done(driver):
    """Issue 15.1: the reconcile notice of an undo is a card over the screen with "Done"."""
    from companion.session.view import Notice, Phrase
    from companion.ui.screens import UndoCard

    app = driver.app
    app.start_game(["Ana", "Ben"], ["red", "blue"], {}, score_only=False)
    driver.settle()
    view = app.view
    notice = Notice("reconcile", (Phrase("undo.take_off", {"cards": ["cat:F#1"], "ferry": 2,
                                                          "name": "Ana"}),))
    app.show_view(dataclasses.replace(view, notices=(*view.notices, notice)))
    driver.pump(2)
    [card] = [p for p in popups() if isinstance(p, UndoCard)]
    assert "cat" in card.text
    driver.press(buttons(driver, app.t("undo.done"))[0])
    assert not [p for p in popups() if isinstance(p, UndoCard)]
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
    and every sentence stays on screen, none over another (a long verdict included). The
    views are the test's own: the session's (its simulated cameras' status) are held off."""
    from dataclasses import replace

    from companion.session.prompts import ChooseStarter, ChooseTarget, MoveNoah
    from companion.session.view import Notice, Phrase

    app = driver.app
    app.lang = language
    try:
        app.start_game(FIVE, ["red", "blue", "green", "yellow", "purple"], {},
                       score_only=False)
        driver.settle()
        base = app.session.view
        long_verdict = Notice("info", (
            Phrase("event.loaded", {"name": "Ben", "animal": "♀ kangaroo", "ferry": 2}),
            Phrase("event.noah_moved", {"ferry": 4}),
            Phrase("event.departure", {"ferry": 4, "number": 1})))
        starter = replace(base, prompt=ChooseStarter(player=None, text="?",
                                                     choices=(0, 1, 2, 3, 4)),
                          setup_ferries=("cat:F#1",) * 5, setup_noah=0)
        state = {**base.state, "phase": "lion_swap", "current_player": 0, "noah": 0,
                 "round": 1, "hand_counts": [7, 8, 8, 8, 8]}
        with driver.own_views():
            app.show_view(starter)
            driver.pump(3)
            assert app.root.sm.current == "setup"
            assert_nothing_overlaps(app.root.sm.current_screen)
            for prompt in (ChooseTarget(player=0, text="?", choices=(1, 2, 3, 4)),
                           ChooseTarget(player=0, text="?", action="croc_flee",
                                        choices=(1, 2, 3, 4),
                                        card="kangaroo:F#1"),  # the fleeing card is named
                           MoveNoah(player=0, text="?", choices=(1, 4),
                                    giraffe_targets=(1, 2, 3, 4))):
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


def test_a_wrong_starting_animal_is_taken_back_and_shown_again(driver):
    """R8: the five starting animals; Undo takes the last one shown back off its ferry (round 1
    too, before anything is in the record) and that ferry's animal is asked again."""
    app = driver.app
    app.start_game(["Ana", "Ben"], ["red", "blue"], {}, score_only=False)
    app.act(app.session.choose_noah_start, 1)
    app.act(app.session.choose_card, "cat:F#1")
    app.act(app.session.choose_card, "lion:M#1")
    driver.settle()
    screen = app.root.sm.get_screen("setup")
    press(driver, "Undo")
    assert app.view.setup_ferries[:2] == ("cat:F#1", None)
    assert app.view.prompt.kind == "scan_setup_card" and app.view.prompt.ferry == 1
    assert app.view.notices[-1].text == ("The ♂ lion is taken off ferry 2: show its starting "
                                         "animal again.")
    assert screen.ids.board.state["ferries"][1] == []
    app.act(app.session.choose_card, "bear:M#1")
    driver.settle()
    assert app.view.setup_ferries[:2] == ("cat:F#1", "bear:M#1")
    # a ferry's animal can be taken back by name too
    app.act(app.session.remove_setup_card, "cat:F#1")
    driver.settle()
    assert app.view.setup_ferries[:2] == (None, "bear:M#1") and app.view.prompt.ferry == 0
    press(driver, "Undo")
    press(driver, "Undo")  # nothing shown any more: Noah's ferry goes too
    assert app.view.prompt.kind == "choose_noah_start"
    app.leave_game()


def test_the_snail_question_is_asked_in_words_during_setup(driver):
    """R14: a snail laid at setup: which side is up? The question is written, not only the
    two answers."""
    app = driver.app
    app.start_game(["Ana", "Ben"], ["red", "blue"], {}, score_only=False)
    app.act(app.session.choose_noah_start, 0)
    app.act(app.session.choose_card, "snail#1")
    driver.settle()
    assert app.root.sm.current == "setup"
    panel = app.root.sm.get_screen("setup").ids.panel
    from kivy.uix.label import Label

    question = [w for w in panel.walk(restrict=True) if isinstance(w, Label)
                and w.text == panel.text]
    assert panel.text == "Which side of the snail is up, ♂ or ♀?"
    assert question and question[0].height > 0 and question[0].texture_size[1] > 0
    assert buttons(driver, "♂ side up") and buttons(driver, "♀ side up")
    app.act(app.session.cancel)
    app.leave_game()


def test_player_names_are_placeholders_and_colours_are_never_shared(driver):
    app = driver.app
    driver.settle()  # the last test's game has closed
    app.go("home")
    press(driver, "New game")
    screen = app.root.sm.get_screen("new_game")
    screen.prepare(["", "", ""], score_only=False)  # three empty rows (no last table)
    rows = screen.rows()
    assert [row.ids.name.text for row in rows] == ["", "", ""]
    assert [row.ids.name.hint_text for row in rows] == ["Player 1", "Player 2", "Player 3"]
    rows[1].ids.name.text = "Zoé"  # typing replaces the placeholder, nothing to delete first
    assert screen.names() == ["Player 1", "Zoé", "Player 3"]
    screen.add_player()
    screen.add_player()
    assert [row.ids.name.hint_text for row in screen.rows()][3:] == ["Player 4", "Player 5"]
    colours = [row.colour for row in screen.rows()]
    assert len(set(colours)) == 5
    for row in screen.rows():
        for _ in range(7):  # every touch of a colour button keeps the five colours distinct
            driver.press(next(w for w in row.children if getattr(w, "on_release", None)
                              and w.text == app.t("colour." + row.colour)))
            assert len({r.colour for r in screen.rows()}) == 5
    screen.remove_player(screen.rows()[0])
    assert [row.ids.name.hint_text for row in screen.rows()][:2] == ["Player 1", "Player 2"]
    screen.rows()[0].colour = "red"
    for _ in range(5):
        screen.rows()[0].next_colour()
        assert len({r.colour for r in screen.rows()}) == 4
    press(driver, "Back")


def test_the_tray_offers_only_cards_that_can_be_in_a_hand(driver):
    """R54: an animal on a ferry or departed this round is not offered."""
    from dataclasses import replace

    app = driver.app
    app.start_game(["Ana", "Ben"], ["red", "blue"], {}, score_only=False)
    driver.settle()
    state = {**app.session.view.state, "phase": "play", "noah": 0,
             "ferries": [["cat:F#1"], [], [], [], []], "departed_cards": ["lion:M#1"]}
    app.show_view(replace(app.session.view, state=state))
    app.open_tray()
    driver.pump(2)
    offered = {getattr(b, "ref", None) for b in buttons(driver)}
    assert "cat:M#1" in offered and "lion:F#1" in offered
    assert "cat:F#1" not in offered and "lion:M#1" not in offered
    driver.press(buttons(driver, app.t("tray.done"))[0])
    app.leave_game()


def test_the_demo_game_plays_on_screen_with_its_seed_and_players(driver, tmp_path):
    """``demo --ui``: the seeded players of the terminal demo play the same game at the app's
    table (here by touch and at full speed); the screen follows to the game's end."""
    from companion.session import GameStore, Session
    from companion.ui.demo import DemoPlayers

    app = driver.app
    driver.settle()
    players = ("Zoé", "Yann")
    demo = DemoPlayers(app, players, seed=5, camera=None, pace=0, result_pause=0)
    demo.start()
    try:
        driver.pump_until(lambda: demo.done.is_set(), timeout=60)
    finally:
        demo.stop()
    assert demo.error is None
    driver.settle()
    assert app.view.game_over and app.view.players == players
    assert app.root.sm.current == "game_end"
    same = Session(GameStore(tmp_path / "g.sqlite"))  # the terminal demo's game, seed 5
    SimulatedTable(same, players, seed=5, mishaps=True).play()
    assert app.view.scores == same.view.scores and app.view.round_scores == \
        same.view.round_scores
    app.leave_game()


def test_demo_ui_honours_seed_players_and_db(monkeypatch, tmp_path):
    from companion import cli

    called = {}
    monkeypatch.setattr("companion.ui.demo.run_demo_ui", lambda **kw: called.update(kw) or 0)
    db = tmp_path / "mine.sqlite"
    assert cli.main(["demo", "--ui", "--seed", "7", "--players", "Ana,Ben,Chloé,Dom",
                     "--db", str(db)]) == 0
    assert called == {"seed": 7, "players": ["Ana", "Ben", "Chloé", "Dom"], "db": db,
                      "verbose": False}


def test_a_damaged_game_offers_resume_up_to_the_last_good_move_abandon_and_delete(driver):
    """Issue 12.2: "Resume" on a damaged game never shows a developer message; the table
    chooses, and the dropped line is kept aside. Abandon is confirmed first."""
    from companion.i18n import Catalog
    from companion.ui.damaged import ConfirmPopup, DamagedGamePopup, explain
    from companion.ui.screenshots import damage, damaged_game

    app = driver.app
    game, line = damaged_game(driver, ["Ana", "Ben"])
    press(driver, app.t("home.resume"))
    [popup] = [p for p in popups() if isinstance(p, DamagedGamePopup)]
    assert f"Line {line} of its record cannot be used. This line is malformed" in popup.details
    assert "sets 1 line aside" in popup.details
    french = "\n".join(explain(Catalog("fr"), popup.reading)).replace("\xa0", " ")
    assert f"Ligne {line} : une annulation de 9 actions" in french
    assert app.session.store.set_aside_lines(game) == []  # nothing changed before the choice
    press(driver, app.t("damaged.resume"))
    assert app.view.game_id == game and app.view.round_scores == ((1, 2),)
    assert [row["seq"] for row in app.session.store.set_aside_lines(game)] == [line - 1]
    app.leave_game()
    driver.settle()

    damage(app, game, "not JSON at all")
    press(driver, app.t("home.resume"))
    press(driver, app.t("damaged.abandon"))
    assert [p for p in popups() if isinstance(p, ConfirmPopup)]
    press(driver, app.t("damaged.yes"))
    driver.settle()
    assert not popups() and game not in app.view.prompt.unfinished
    assert [g.abandoned for g in app.session.store.games() if g.id == game] == [True]
    app.act(app.session.delete_game, game)
    driver.settle()


def test_a_departure_and_a_pair_bonus_get_a_moment_on_their_ferry(driver):
    """Issue 15.2: a departing ferry glows gold, a pair bonus (R26) green on Noah's ferry; the
    glow is drawing only, so the ferry can still be touched meanwhile."""
    from companion.ui import theme

    app = driver.app
    app.leave_game()
    driver.settle()  # no earlier test's view still on its way to redraw the table meanwhile
    app.go("table")
    board = app.root.sm.get_screen("table").ids.board
    ferries = [["cat:F#1"], ["lion:M#1", "lion:F#1"], [], [], []]
    board.state = {"round": 1, "ferries": ferries, "weights": [3, 8, 0, 0, 0],
                   "capacities": [21] * 5, "noah": 1, "extra_turn": False}
    driver.pump(2)
    # The app is shared (tests/ui/conftest.py): the step from an earlier test's table to this
    # one may have started a moment. Ended here; the same table again starts none.
    from kivy.animation import Animation

    for k in range(5):
        Animation.cancel_all(board.ids[f"ferry{k}"], "glow")
        board.ids[f"ferry{k}"].glow = 0
    board.state = {**board.state}
    driver.pump(2)
    assert board.ids.ferry0.glow == 0 and board.ids.ferry1.glow == 0
    board.state = {**board.state, "ferries": [None, *ferries[1:]], "extra_turn": True}
    driver.pump(1)
    assert board.ids.ferry0.glow > 0 and board.ids.ferry0.glow_colour == list(theme.NOAH)
    assert board.ids.ferry1.glow > 0 and board.ids.ferry1.glow_colour == list(theme.HIGHLIGHT)
    assert board.ids.ferry2.glow == 0
    # The moment is a frame and a halo: the animals' tiles read as before (not darkened).
    from companion.ui.driver import _window_pixels

    ferry = board.ids.ferry1
    tiles = [w for w in ferry.walk() if type(w).__name__ == "CardTile"]
    for popup in popups():  # an earlier test's popup still fading out would cover the tiles
        popup.dismiss(animation=False)
    app.root.alert.hide()
    driver.pump_until(lambda: not popups())

    def tile_pixels() -> list:
        """Each tile's colour at its right end (beside its name, on the tile's own colour),
        as the table screen was last drawn (the simulator's camera may publish a view that
        takes the app home meanwhile: with no game, home is its screen)."""
        for _ in range(20):
            app.go("table")
            driver.pump(5)
            pixels = _window_pixels()
            if app.root.sm.current == "table":
                break
        spots = [t.to_window(t.right - 6, t.center_y) for t in tiles]
        return [[round(v / 255, 2) for v in pixels[int(y), int(x)]] for x, y in spots]

    Animation.cancel_all(ferry, "glow")
    ferry.glow = 0
    plain = tile_pixels()
    assert len(tiles) == 2 and plain == [
        [round(v, 2) for v in theme.GENDER_COLOURS[tile.ref.split(":")[1][0]][:3]]
        for tile in tiles]  # the tiles themselves are sampled
    ferry.glow = 1
    assert tile_pixels() == plain
    ferry.glow = 0
    app.go("home")


def test_the_game_end_shows_the_winner_on_their_token_colour(driver):
    from companion.ui import theme

    app = driver.app
    app.start_game(["Ana", "Ben"], ["purple", "yellow"], {}, score_only=False)
    driver.settle()
    screen = app.root.sm.get_screen("game_end")
    view = dataclasses.replace(app.view, state={**app.view.state, "winners": [1]})
    screen.show(view)
    assert screen.winner_colour == list(theme.PLAYER_COLOURS["yellow"])
    assert "Ben" in screen.winner
    app.leave_game()


def test_a_new_game_starts_from_the_last_tables_names_and_colours(driver):
    """Issue 15.3: the last table's names and token colours, from the record's header."""
    app = driver.app
    app.start_game(["Zoé", "Yann", "Xavier"], ["purple", "green", "yellow"], {},
                   score_only=False)
    driver.settle()
    app.leave_game()
    driver.settle()
    app.open_new_game(score_only=False)
    driver.pump(2)
    screen = app.root.sm.get_screen("new_game")
    assert screen.names() == ["Zoé", "Yann", "Xavier"]
    assert [row.colour for row in screen.rows()] == ["purple", "green", "yellow"]
    app.go("home")
