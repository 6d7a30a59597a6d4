"""Issue 20.3, the table's frictions: "I cannot play" with an Undo, a refusal cleared by the
next good play, the redo's card, the demo's card closed by its virtual table.

Kivy's clock is driven by the tests (the ``clock`` fixture): nothing here waits on real time.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.test_app import buttons, popups

pytestmark = pytest.mark.ui

STARTING = ("cat:F#1", "lion:M#1", "panda:F#1", "bear:M#1", "kangaroo:F#1")


def start_playing(driver: Any) -> Any:
    """Ana and Ben, set up, Ana to load an animal on ferry 1 (it holds the ♀ cat)."""
    app = driver.app
    app.start_game(["Ana", "Ben"], ["red", "blue"], {}, score_only=False)
    driver.settle()
    app.act(app.session.choose_noah_start, 0)
    for ref in STARTING:
        app.act(app.session.choose_card, ref)
    app.act(app.session.choose_starter, 0)
    driver.settle()
    assert app.view.prompt.kind == "play_card" and app.view.prompt.can_take_back
    return app


def offer_shown(app: Any) -> bool:
    return bool(app.undo_offer.shown)


def lit_undo(driver: Any) -> Any:
    """The side panel's Undo button, lit while the undo is offered."""
    from companion.ui import theme

    [undo] = buttons(driver, driver.app.t("table.undo"))
    assert tuple(undo.background_color) == theme.HIGHLIGHT
    return undo


def test_i_cannot_play_takes_back_at_once_and_offers_undo_r25(driver, clock):
    """R25 at once, "took back the animal of ferry 1" beside the lit Undo, which puts it back;
    nothing is drawn over the ferries (issue 20.3: the offer covered ferries 3-4 for 6 s)."""
    from companion.ui import theme

    app = start_playing(driver)
    driver.press(buttons(driver, app.t("table.cannot_play"))[0])
    driver.settle()
    assert app.view.state["ferries"][0] == []
    assert offer_shown(app)
    panel = app.root.sm.get_screen("table").ids.panel
    assert panel.verdict == "Ana took back the animal of ferry 1."
    assert [layer for layer in app.root.children if layer.opacity and layer is not app.root.sm
            and layer.collide_point(280, 100)] == []  # the board's bottom is free
    driver.press(lit_undo(driver))
    driver.settle()
    assert not offer_shown(app)
    assert app.view.state["ferries"][0] == ["cat:F#1"]
    from companion.ui.screens import UndoCard

    UndoCard.close()
    [undo] = [b for b in buttons(driver) if b.text == app.t("table.undo")] or [None]
    assert undo is None or tuple(undo.background_color) == theme.BUTTON
    app.leave_game()


def test_the_undo_offer_goes_after_a_few_seconds_or_when_the_game_moves_on(driver, clock):
    from companion.ui.application import UNDO_OFFER_SECONDS

    app = start_playing(driver)
    app.take_back()
    driver.settle()
    assert offer_shown(app)
    clock.advance(UNDO_OFFER_SECONDS - 0.5)
    driver.pump(2)
    assert offer_shown(app)
    clock.advance(1)
    driver.pump(2)
    assert not offer_shown(app)
    app.take_back()  # refused (the ferry is empty): nothing to undo is offered
    driver.settle()
    assert not offer_shown(app)
    app.act(app.session.choose_card, "elephant:M#1")
    driver.settle()
    app.undo_offer.offer(app.view.seq, UNDO_OFFER_SECONDS)
    app.act(app.session.move_noah, app.view.prompt.choices[0])
    driver.settle()
    assert not offer_shown(app)  # Undo would now take back Noah's move, not the take-back
    app.root.alert.hide()
    app.leave_game()


def test_a_good_play_clears_the_refusal_banner_at_once(driver, clock):
    app = start_playing(driver)
    app.act(app.session.move_noah, 3)  # Ana must load first (R50)
    driver.settle()
    assert app.root.alert.opacity == 1
    app.act(app.session.choose_card, "elephant:M#1")
    driver.settle()
    assert app.root.alert.opacity == 0 and app.root.alert.text == ""
    app.leave_game()


def test_a_redo_shows_the_same_card_as_an_undo_saying_what_to_do_again(driver):
    from companion.ui.screens import UndoCard

    app = start_playing(driver)
    app.act(app.session.choose_card, "elephant:M#1")
    driver.settle()
    app.act(app.session.undo)
    driver.settle()
    [card] = [p for p in popups() if isinstance(p, UndoCard)]
    assert card.title == app.t("undo.title")
    app.act(app.session.redo)
    driver.settle()
    [card] = [p for p in popups() if isinstance(p, UndoCard)]
    assert card.title == app.t("redo.title")
    assert "elephant" in card.text and not card.text.startswith("Redo")
    driver.press(buttons(driver, app.t("undo.done"))[0])
    assert not [p for p in popups() if isinstance(p, UndoCard)]
    app.leave_game()


def test_the_demos_virtual_table_closes_the_undo_card_once_it_put_the_card_back(driver):
    from companion.sim.autoplay import Step
    from companion.ui.demo import DemoPlayers
    from companion.ui.screens import UndoCard

    app = start_playing(driver)
    app.act(app.session.choose_card, "elephant:M#1")
    app.act(app.session.undo)
    driver.settle()
    assert [p for p in popups() if isinstance(p, UndoCard)]
    demo = DemoPlayers(app, ("Ana", "Ben"), seed=1, camera=None, pace=0)
    demo._step(Step("undo", (), 3, 4, True))
    driver.pump_until(lambda: not [p for p in popups() if isinstance(p, UndoCard)])
    app.leave_game()


def test_play_again_starts_the_same_table_at_the_game_end(driver):
    """Issue 20.3: "Play again" at the game's end: same players, colours and options."""
    from tests.ui.test_app import press

    app = driver.app
    app.start_game(["Ana", "Ben"], ["purple", "yellow"], {"end_rule": "score26"},
                   score_only=True)
    driver.settle()
    first = app.view.game_id
    app.act(app.session.enter_tears, (26, 4))  # R41: 26 tears end the game at once
    driver.settle()
    app.next_round()
    driver.settle()
    assert app.root.sm.current == "game_end"
    press(driver, app.t("end.again"))
    driver.settle()
    view = app.view
    assert view.game_id != first and not view.game_over
    assert view.players == ("Ana", "Ben") and view.tokens == ("purple", "yellow")
    assert view.score_only and app.root.sm.current == "round_end"
    assert app.session.game.options.end_rule == "score26"
    app.leave_game()


def test_with_a_game_open_resume_is_the_home_screens_primary_button(driver):
    from companion.ui import theme

    app = driver.app
    app.start_game(["Ana", "Ben"], ["red", "blue"], {}, score_only=False)
    driver.settle()
    app.leave_game()
    driver.settle()
    grid = app.root.sm.get_screen("home").ids.languages.parent
    first, second = list(reversed(grid.children))[:2]
    assert first.text == app.t("home.resume") and tuple(first.background_color) == theme.GO
    assert second.text == app.t("home.new_game") and not second.disabled
    for game in app.session.unfinished_games():
        app.session.abandon_game(game.id)
    app.show_view(app.session.view)
    driver.pump(2)
    first, second = list(reversed(grid.children))[:2]
    assert first.text == app.t("home.new_game") and second.disabled


def test_scores_only_offers_no_rules_options_and_tied_tokens_stand_apart(driver):
    """Issue 20.3: scores only offers the end rule alone; tokens sharing a space stand side
    by side (never over each other) and default names' tokens show their numbers."""
    app = driver.app
    app.open_new_game(score_only=True)
    driver.pump(2)
    screen = app.root.sm.get_screen("new_game")
    shown = [b.text for b in buttons(driver) if b.get_root_window()]
    assert app.t("new.roommates") not in shown and app.t("new.frog") not in shown
    assert screen.options() == {"end_rule": "rounds"}
    app.go("home")
    track = app.root.sm.get_screen("round_end").ids.track
    track.size = (400, 464)
    track.names = [f"Player {n}" for n in range(1, 6)]
    track.shown = [0.0, 0.0, 0.0, 7.0, 7.0]
    cell = min(track.size) * 0.07
    centres = track.token_centres(cell)
    for i, (x, y) in enumerate(centres):
        for (u, v) in centres[i + 1:]:
            assert ((x - u) ** 2 + (y - v) ** 2) ** 0.5 >= cell, centres
    assert centres[0] == track.cell_centre(0) and centres[3] == track.cell_centre(7)


def camera_panels(app: Any) -> list[Any]:
    from companion.ui.widgets import CameraPanel

    return [w for w in app.root.sm.current_screen.walk() if isinstance(w, CameraPanel)]


def test_the_camera_view_is_captioned_and_flashes_the_card_read(driver, clock):
    """Issue 20.3: the small view says which camera it is; a card read flashes over it
    with a tick and the card's picture for a moment."""
    from companion.ui.widgets import FLASH_SECONDS

    app = start_playing(driver)
    [panel] = camera_panels(app)
    assert panel.caption == "Camera"
    app.act(app.session.choose_card, "elephant:M#1")
    driver.settle()
    assert panel.flash_text == "✓ Elephant ♂" and panel.flash_picture.endswith("elephant.png")
    clock.advance(FLASH_SECONDS + 0.1)
    driver.pump(2)
    assert panel.flash_text == "" and panel.flash_picture == ""
    app.root.alert.hide()
    app.leave_game()


def test_touching_the_camera_view_opens_the_cameras_big_view(driver):
    """Issue 20.3: a button during play opens the camera view: the hand camera's big view,
    or in the table view the table camera's screen (its picture, each mat found)."""
    from companion.ui.screens import CameraPopup

    app = start_playing(driver)
    [panel] = camera_panels(app)
    driver.press(panel)
    [popup] = [p for p in popups() if isinstance(p, CameraPopup)]
    assert popup.caption == "Camera"
    popup.dismiss()
    driver.pump(2)
    app.reading = "table"
    try:
        driver.pump(2)
        assert panel.caption == "Table camera" and panel.tap is app.table_look
        driver.press(panel)
        assert app.root.sm.current == "tablecam"
        app.leave_table_check()
        driver.pump(2)
        assert app.root.sm.current == "table"
    finally:
        app.reading = "hand"
        app.table_look.wanted = False
    app.leave_game()


def test_leaving_the_table_camera_screen_releases_the_camera_off_the_ui_thread(driver):
    """Issue 20.3: stopping the capture waits for its last frame; the UI does not."""
    import threading

    app = driver.app
    release, stopped = threading.Event(), threading.Event()

    class SlowCapture:
        running = True

        def stop(self) -> None:
            release.wait(60)  # a bound for a hang only
            self.running = False
            stopped.set()

    app.looking = SlowCapture()
    app.stop_looking()  # returns while the capture is still stopping
    assert app.looking is None and not stopped.is_set()
    release.set()
    driver.pump_until(stopped.is_set)


def test_the_table_camera_screen_says_checking_until_its_first_check_ends(driver):
    """Issue 20.3: a picture that is still being checked is "checking…", never "not
    found"; the words and the picture come from one snapshot of the same frame."""
    from types import SimpleNamespace

    from companion.ui.camera import TableLook
    from companion.ui.tablecam import TableCameraScreen

    app = driver.app
    problem = TableCameraScreen._camera_problem
    assert problem(app, SimpleNamespace(count=0), None, None) == app.t("tablecam.waiting")
    assert problem(app, SimpleNamespace(count=4), None, None) == app.t("tablecam.checking")
    look = TableLook()
    assert look.snapshot() == (0, None, None)


def test_a_check_begun_before_the_look_is_cleared_never_lands_after(monkeypatch):
    """The calibration screen opened afresh clears its look; a check of the earlier camera's
    frame still being made on that camera's thread (a mat off the table, a test's rendered
    frame) must not land after it and be shown as the new camera's. Fails without the
    look's count of clears (the stale check is kept)."""
    import threading

    import numpy as np

    import vision.table_check
    from companion.ui.camera import TableLook
    from vision.table_capture import TableFrame

    checking, release = threading.Event(), threading.Event()
    check_table = vision.table_check.check_table

    def slow_check(*args: Any, **kwargs: Any) -> Any:
        checking.set()
        release.wait(10)
        return check_table(*args, **kwargs)

    monkeypatch.setattr(vision.table_check, "check_table", slow_check)
    look = TableLook()
    frame = TableFrame(np.full((360, 640), 200, np.uint8), np.zeros((9, 16), np.uint8),
                       "earlier camera", 0.0)
    earlier = threading.Thread(target=look.update, args=(frame,))
    earlier.start()
    assert checking.wait(10)
    look.clear()
    release.set()
    earlier.join(10)
    assert look.snapshot() == (0, None, None)
    look.update(frame)  # the new camera's own frame is checked as ever
    assert look.count == 1 and look.check.advice == ("no_mats",)


def test_every_language_button_names_its_language_on_one_line(driver):
    """Issue 20.3: "✓ Français" wrapped on the home screen; each button of the language choice
    is as wide as its name (ticked or not) needs, in every language."""
    from companion.i18n import languages
    from companion.ui.widgets import text_width

    app = driver.app
    before = app.lang
    app.go("home")
    try:
        for language in languages():
            app.choose_language(language)
            driver.pump(3)
            box = app.root.sm.get_screen("home").ids.languages
            assert [b.language for b in reversed(box.children)] == languages()
            for button in box.children:
                needed = text_width(button.text, button.font_size, font=button.font_name)
                assert needed + button.padding[0] + button.padding[2] <= button.width, \
                    (language, button.text, button.width)
            assert sum(b.text.startswith("✓") for b in box.children) == 1
    finally:
        app.choose_language(before)
        driver.pump(2)
