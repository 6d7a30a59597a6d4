"""The Complot screens (issue 21 §6, §7, §3 by touch): the game chosen on the home screen, a
claim picked by touch or read by the camera and judged, the turn and the passed turn, the
score track, the manche's and the game's end, scores only in two taps; every screen fits and
reads at 800×480 with long names (French, six players)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.ui.complot_shots import LEONARDS, NAMES, TWO_TRIOS, tour

pytestmark = pytest.mark.ui


@pytest.fixture
def complot(driver):
    """The app's Complot screens on a new level-1 game of three players; home afterwards."""
    from companion.ui.complot import complot_screens

    screens = complot_screens(driver.app)
    screens.start(["Ana", "Ben", "Chloé"], level=1, target=400, scores_only=False)
    driver.pump(2)
    yield screens
    screens.leave()
    driver.app.lang = "en"
    driver.pump(2)


def buttons(widget: Any, text: str) -> list[Any]:
    from kivy.uix.button import Button

    return [w for w in widget.walk(restrict=True) if isinstance(w, Button) and w.text == text]


def pick_by_touch(driver, screens, cards: tuple[str, ...]) -> Any:
    """Touch each card's category, then its first name, as a player would."""
    from companion.complot.cards import default_deck
    from companion.complot.messages import category_name

    picker = screens.screen("complot_pick")
    for card_id in cards:
        card = default_deck()[card_id]
        driver.press(buttons(picker.ids.categories,
                             category_name(card.category, driver.app.lang))[0])
        driver.press(buttons(picker.ids.names, card.first_name)[0])
    return picker


def test_the_home_screen_offers_both_games_and_opens_the_one_chosen(driver):
    app = driver.app
    app.leave_game()
    home = app.root.sm.get_screen("home")
    assert [button.game for button in reversed(home.ids.games.children)] == ["noah", "complot"]
    driver.press(next(b for b in home.ids.games.children if b.game == "complot"))
    home.new_game(score_only=False)
    driver.pump(2)
    assert app.root.sm.current == "complot_new"
    app.go("home")
    driver.press(next(b for b in home.ids.games.children if b.game == "noah"))
    home.new_game(score_only=False)
    driver.pump(2)
    assert app.root.sm.current == "new_game"
    app.go("home")


def test_two_trios_picked_by_touch_are_accepted_for_15_points_c25(driver, complot):
    """C25, C31, C50: two trios with two Archange jokers, by touch: 15 points, the claimant
    out, the turn to the next player."""
    complot.open_picker("claim")
    picker = pick_by_touch(driver, complot, TWO_TRIOS)
    assert picker.chosen == list(TWO_TRIOS)
    driver.press(buttons(complot.screen("complot_pick"), "Check")[0])
    assert driver.app.root.sm.current == "complot_verdict"
    verdict = complot.screen("complot_verdict")
    assert verdict.accepted and "15 points" in verdict.sentence
    assert [face.first_name for face in reversed(verdict.ids.faces.children)] == [
        "Camille", "Clara", "Etienne", "Jacquotte", "Gabrielle", "Igor"]
    view = complot.view
    assert view.manche_points == (15, 0, 0) and view.still_in == (1, 2) and view.current == 1


def test_a_wrong_claim_is_refused_in_one_sentence_and_costs_the_next_turn_c44(driver,
                                                                            complot):
    """C44, C44a: six Léonard announced as «Prix Pulitzer !»: refused with the sentence of
    claim_not_met; the claimant's next turn is skipped."""
    complot.open_picker("claim")
    picker = complot.screen("complot_pick")
    for card in LEONARDS:
        assert picker.add_card(card)
    driver.press(buttons(picker.ids.words, "Prix Pulitzer !")[0])
    picker.check()
    driver.pump(2)
    verdict = complot.screen("complot_verdict")
    assert not verdict.accepted
    assert verdict.sentence.startswith("Ana: These six cards do not make the announced")
    assert complot.view.must_pass == (0,) and complot.view.current == 1
    driver.press(buttons(verdict, "Continue")[0])
    play = complot.screen("complot_play")
    assert "misses a turn" in [row.status for row in play.ids.players.children]
    for _ in range(2):  # Ben -> Chloé -> (Ana passes) -> Ben
        driver.press(buttons(play, "Next turn")[0])
    assert complot.view.current == 1 and complot.view.must_pass == ()


def test_play_shows_each_hand_and_the_top_of_the_defausse_picked_by_touch_c13_c14(driver,
                                                                                  complot):
    """C11, C13, C14, C17: every hand of 6 on the play screen, the top of the «défausse» not
    shown ("—", never a guess) until the card turned up at the deal, then a turn's discard,
    is picked by touch from it; a player who lays down holds no cards; undo puts the hand
    back."""
    complot.table()
    driver.pump(2)
    play = complot.screen("complot_play")

    def counts() -> list[str]:
        return [row.cards for row in reversed(play.ids.players.children)]

    assert counts() == ["6", "6", "6"] and play.ids.top_face.first_name == "—"
    assert play.top_caption == "Défausse" and play.ids.top_face.category_name == "not shown"
    driver.press(play.ids.top_face)  # before any turn: the card turned up at the deal (C11)
    picker = pick_by_touch(driver, complot, ("duron:noe",))
    assert (picker.mode, picker.words, picker.title) == ("discard", "top", "Défausse")
    driver.press(buttons(picker, "OK")[0])
    assert (complot.view.top_of_defausse, complot.view.current) == ("duron:noe", 0)
    driver.press(play.ids.top_face)  # then the turn's discard
    assert picker.words == "discard"
    pick_by_touch(driver, complot, ("leonard:emma",))
    pick_by_touch(driver, complot, ("empires:karl",))  # another touch replaces the card
    driver.press(buttons(picker, "Next turn")[0])
    assert driver.app.root.sm.current == "complot_play"
    assert complot.view.current == 1 and complot.view.top_of_defausse == "empires:karl"
    assert (play.ids.top_face.first_name, play.ids.top_face.category_name) == (
        "Karl", "Empires")
    assert "Ana discarded Karl (Empires)." in play.hint
    complot.session.claim(1, "complot", LEONARDS)  # Ben lays down his hand (C17)
    driver.pump(2)
    assert counts() == ["6", "", "6"]
    driver.press(buttons(play, "Undo")[0])
    assert counts() == ["6", "6", "6"]


def test_cards_read_by_the_camera_fill_the_picker_six_at_most_c46(driver, complot):
    """C46: a claim lays down six cards; a seventh read is not taken, nor the same card
    twice; a camera read with no picker open opens the «défausse»'s (C13), and a second
    card read makes it the announcement's, the first card kept (C17)."""
    assert complot.add_card(LEONARDS[0])
    picker = complot.screen("complot_pick")
    assert driver.app.root.sm.current == "complot_pick" and picker.mode == "discard"
    assert not complot.add_card(LEONARDS[0])
    assert complot.add_card(LEONARDS[1]) and picker.mode == "claim"
    for card in LEONARDS[2:]:
        assert complot.add_card(card)
    assert not complot.add_card(TWO_TRIOS[0])
    assert not complot.add_card("nobody:nothing")
    assert complot.screen("complot_pick").chosen == list(LEONARDS)


def test_the_game_ends_at_the_target_with_a_shared_victory_c55(driver, complot):
    """C51, C52, C55: scores only to 100; two players each announce 50 in the same manche:
    the last one left scores 0, both reach 100, the victory is shared; Play again."""
    complot.start(["Ana", "Ben", "Chloé"], level=1, target=100, scores_only=True)
    quick = complot.screen("complot_quick")
    for _manche in range(2):
        for seat in (0, 1):
            driver.press(buttons(quick.ids.players, ["Ana", "Ben"][seat])[0])
            driver.press(buttons(quick.ids.combinations, "Six Empires · 50")[0])
        if complot.view.phase == "manche_over":
            driver.press(buttons(complot.screen("complot_scores"), "Next manche")[0])
    assert complot.view.phase == "game_over" and complot.view.winners == (0, 1)
    scores = complot.screen("complot_scores")
    assert driver.app.root.sm.current == "complot_scores"
    assert scores.title == "Ana and Ben share the victory with 100 points!"
    _the_end_shows_the_bg_stats_code(driver, complot, scores)
    driver.press(buttons(scores, "Play again")[0])
    assert complot.view.phase == "manche" and complot.view.scores == (0, 0, 0)
    assert driver.app.root.sm.current == "complot_quick"
    complot.go("complot_scores")  # the new game's track: no code until its end
    driver.pump(2)
    assert scores.code.opacity == 0 and scores.badge_room == 0


def _the_end_shows_the_bg_stats_code(driver, complot, scores):
    """As Noah's end screen: the whole BG Stats link when the LAN page is off (a touch shows
    it big), the page's short link when it is on (companion/ui/weblink.py)."""
    from types import SimpleNamespace

    driver.pump(2)
    code = scores.code
    assert code.opacity == 1 and code.code.texture is not None and scores.badge_room > 0
    assert code.link == complot.session.bgstats_url() and "highestWins" in code.link
    app = driver.app
    app.web_server = SimpleNamespace(host="192.168.1.5", port=8080, token="T")
    try:
        code.refresh()
        driver.pump(2)
        assert code.link == f"http://192.168.1.5:8080/bgstats/{complot.view.game_id}?token=T"
    finally:
        app.web_server = None


@pytest.mark.parametrize(("language", "count"), [("fr", 6)])
def test_every_complot_screen_fits_and_reads(driver, language, count):
    """Every Complot screen, by the screenshot script's tour, checked instead of saved: in
    French with six players, the longest lines and the most rows (one tour: each costs
    seconds; ``python -m companion.ui.complot_shots`` draws every language and size)."""
    from companion.ui.driver import layout_problems, legibility_problems

    problems: list[str] = []
    visited: list[str] = []

    def check(name: str) -> None:
        driver.pump(2)
        visited.append(name)
        problems.extend(f"{name}: {problem}"
                        for problem in layout_problems() + legibility_problems())

    driver.app.lang = language
    try:
        tour(driver, check, NAMES[:count])
    finally:
        driver.app.lang = "en"
        driver.app.go("home")
        driver.app.root.sm.get_screen("home").game = "noah"
    assert len(visited) == 19
    assert not problems, "\n".join(dict.fromkeys(problems))


def test_noahs_views_leave_a_complot_screen_alone_and_a_new_language_redraws_it(driver,
                                                                               complot):
    """Noah's session publishes views of its own (the cameras' status...): a Complot screen
    stays, drawn from the Complot view; the table's language changes its words at once."""
    complot.table()
    app = driver.app
    app.show_view(app.session.view)
    driver.pump(2)
    assert app.root.sm.current == "complot_play"
    app.lang = "fr"
    driver.pump(2)
    assert complot.screen("complot_play").turn == "Au tour de Ana"


def test_a_complot_game_left_is_resumed_from_home_and_from_the_history(driver, complot):
    """The game is in the record: Resume (Complot chosen) and its history entry reopen it
    where it stopped."""
    complot.session.claim(0, "complot", list(LEONARDS))
    complot.leave()
    app = driver.app
    home = app.root.sm.get_screen("home")
    home.game = "complot"
    assert home.can_resume
    home.resume()
    driver.pump(2)
    assert app.root.sm.current == "complot_play" and complot.view.manche_points[0] == 50
    complot.leave()
    app.go("history")
    driver.pump(2)
    history = app.root.sm.get_screen("history")
    game = complot.session.store.games()[0]  # the newest: this one
    driver.press(history.ids.games.children[-1])  # the first entry
    view = complot.view
    assert app.root.sm.current == "complot_play" and view.game_id == game.id
    assert view.still_in == (1, 2) and view.manche_points == (50, 0, 0)
    home.game = "noah"


def test_two_players_of_the_same_name_are_told_in_the_tables_language_c10(driver, complot):
    """C10: a table whose names cannot tell the players apart does not start; the screen
    says so in French, and the game under way stays."""
    from kivy.core.window import Window

    from companion.ui.screens import MessagePopup

    game = complot.view.game_id
    driver.app.lang = "fr"
    complot.open_new_game(score_only=False)
    screen = complot.screen("complot_new")
    for row, name in zip(screen.rows(), ("Ana", "Ana ", "Ben"), strict=False):
        row.ids.name.text = name
    screen.start()
    driver.pump(2)
    [popup] = [child for child in Window.children if isinstance(child, MessagePopup)]
    assert popup.text.startswith("Cette partie ne peut pas commencer")
    popup.dismiss()
    driver.pump(2)
    assert complot.view.game_id == game and driver.app.root.sm.current == "complot_new"


def test_the_player_who_has_just_ended_a_turn_may_still_announce_c30(driver, complot):
    """C30, C45: after Next turn the picker offers who announces, the player whose turn it is
    or the one who has just discarded; the announcement is theirs."""
    complot.session.next_turn()  # Ana ended her turn: Ben's, Ana may still announce
    complot.open_picker("claim")
    picker = complot.screen("complot_pick")
    assert [toggle.text for toggle in reversed(picker.ids.claimants.children)] == ["Ben", "Ana"]
    driver.press(buttons(picker.ids.claimants, "Ana")[0])
    assert picker.title == "Ana announces"
    for card in LEONARDS:
        picker.add_card(card)
    picker.check()
    assert complot.view.manche_points == (50, 0, 0) and complot.view.current == 1


def labels(widget: Any) -> list[str]:
    from kivy.uix.label import Label

    return [w.text for w in widget.walk(restrict=True) if isinstance(w, Label)]


def test_a_complot_card_under_the_hand_camera_lands_in_the_picker_read_c33(driver, complot):
    """C17, C33: with Complot chosen on the home screen, the hand camera's frames reach
    Complot's session; the card read opens the «défausse»'s picker (a second card, the
    announcement's) through the claim reader and says "read ✓" (first name French, category
    in the table's language)."""
    app = driver.app
    home = app.root.sm.get_screen("home")
    home.game = "complot"
    try:
        assert app.cameras.played.name == "complot"
        driver.pump(2)
        assert any("card game Noé, Complot à l'Élysée" in text for text in labels(home))
        camera = app.simulator.source
        camera.present("CPLT1/BOX1/LEEM")  # a rendered sticker, read by the real pipeline
        picker = complot.screen("complot_pick")
        driver.pump_until(lambda: picker.chosen == ["leonard:emma"])
        camera.clear()
        assert app.root.sm.current == "complot_pick" and picker.mode == "discard"
        assert picker.count == "1 of 1 · ✓ Emma read"
        complot.add_card("etat-major:sophie")  # a second card: an announcement's
        assert picker.mode == "claim" and picker.count.startswith("2 of 6")
        app.lang = "fr"
        driver.pump(2)
        assert "État-Major" in [face.category_name for face in picker.ids.chosen.children]
        app.lang = "en"
        driver.pump(2)
        assert "General Staff" in [face.category_name for face in picker.ids.chosen.children]
    finally:
        home.game = "noah"  # the other UI tests show Noah's cards to the camera
    assert app.cameras.played.name == "noah"
    assert any("card game Noah" in text for text in labels(home))


def test_history_says_manche_and_a_damaged_complot_game_offers_noahs_three_choices(driver,
                                                                                    complot):
    """The History words a Complot game's period as its manche; "Resume" on a damaged one
    opens the same choices as a damaged Noah game, and resuming up to the last good move
    plays on."""
    from kivy.core.window import Window

    from companion.ui.complot import resume
    from companion.ui.damaged import DamagedGamePopup
    from companion.ui.screenshots import damage

    app = driver.app
    game = complot.view.game_id
    complot.request(complot.session.next_turn)  # line 2: Ben's turn
    complot.leave()
    app.go("history")
    driver.pump(2)
    history = app.root.sm.get_screen("history")
    assert any("manche 1, touch to resume" in text for text in labels(history))
    app.go("home")
    damage(app, game, "not JSON at all")
    resume(app, game)
    driver.pump(2)
    [popup] = [w for w in Window.children if isinstance(w, DamagedGamePopup)]
    assert popup.session is complot.session and "Line 3 of its record" in popup.details
    driver.press(buttons(popup, app.t("damaged.resume"))[0])
    assert complot.view.game_id == game and app.root.sm.current == "complot_play"


def test_the_config_chooses_the_game_at_start_and_complots_new_game_defaults(driver):
    """``[game] kind = complot`` opens the home screen on Complot (the camera reads its
    cards); a new Complot game starts from ``[complot]``'s level and target."""
    from companion.config import Config

    app = driver.app
    before = app.started_with
    app.started_with = Config.from_text("[game]\nkind = complot\n[complot]\nlevel = 2\n"
                                        "target = 300\n")
    home = app.root.sm.get_screen("home")
    try:
        app.choose_configured_game()
        assert home.game == "complot" and app.cameras.played.name == "complot"
        home.new_game(score_only=False)
        driver.pump(2)
        new = app.root.sm.get_screen("complot_new")
        assert app.root.sm.current == "complot_new" and (new.level, new.target) == (2, 300)
    finally:
        app.started_with = before
        app.choose_configured_game()
        app.go("home")
    assert home.game == "noah" and app.cameras.played.name == "noah"


def test_a_card_read_while_an_action_waits_is_the_defence_c65(driver, complot):
    """C65: while a descente waits for its defence, the État-Major card shown to the hand
    camera opens the defence's picker, not the «défausse»'s."""
    complot.start(["Ana", "Ben"], level=2, target=400, scores_only=False)
    complot.session.action(0, "descente", ["enqueteurs:max", "enqueteurs:emma",
                                           "enqueteurs:clara"], [1])
    complot.table()
    driver.pump(2)
    assert complot.add_card("etat-major:sophie", read=True)
    picker = complot.screen("complot_pick")
    assert picker.mode == "defence" and picker.chosen == ["etat-major:sophie"]


def test_the_category_chosen_is_scrolled_into_the_columns_view(driver, complot):
    """Fourteen or fifteen categories do not fit in 480 px: the column shows its top first, and
    a category chosen below the screen's edge is brought whole into view."""
    complot.open_picker("claim")
    picker = complot.screen("complot_pick")
    column = picker.ids.category_scroll
    driver.pump(2)
    assert column.scroll_y == pytest.approx(1.0)
    last = picker.ids.categories.children[0]  # Kivy keeps children last first
    assert last.to_window(last.x, last.y)[1] < column.to_window(column.x, column.y)[1]
    picker.show_category(last.key)
    driver.pump(3)
    bottom, top = column.to_window(column.x, column.y)[1], column.to_window(column.x,
                                                                              column.top)[1]
    assert bottom - 1 <= last.to_window(last.x, last.y)[1]
    assert last.to_window(last.x, last.top)[1] <= top + 1
