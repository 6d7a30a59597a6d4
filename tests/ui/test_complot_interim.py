"""The Complot session the screens use until csession's lands (companion/ui/complot_interim.py):
the turn order, wrong claims, the manche's end and the game's end as RULINGS-COMPLOT rules
them, every verdict the judge's. No Kivy."""

from __future__ import annotations

import pytest

from companion.errors import UserError
from companion.ui.complot_interim import InterimComplotSession

ELYSEE = ["etat-major:noe", "empires:sarah", "espions:max", "senechales:marie",
          "leonard:arthur", "duron:clara"]
LEONARDS = ["leonard:amelie", "leonard:arthur", "leonard:clara", "leonard:emma",
            "leonard:sally", "leonard:sarah"]


def table(players: int = 3, **options) -> InterimComplotSession:
    session = InterimComplotSession()
    session.new_game([f"P{seat}" for seat in range(players)], **options)
    return session


def test_a_game_needs_two_to_six_named_players():
    with pytest.raises(UserError):
        table(7)
    with pytest.raises(UserError):
        InterimComplotSession().new_game(["Ana", " "])


def test_out_of_turn_and_out_of_the_manche_change_nothing_c15_c50():
    session = table()
    assert session.claim(1, "complot", LEONARDS).code == "not_your_turn"
    assert session.claim(0, "complot", LEONARDS).accepted
    assert session.claim(0, "complot", LEONARDS).code == "player_out"
    assert session.view().current == 1


def test_an_elysee_must_wait_for_a_later_turn_and_a_wrong_one_loses_this_turn_c41_c42_c44():
    """C42: not on one's first turn; C44: a wrong claim at a turn start loses that turn."""
    session = table()
    outcome = session.claim(0, "complot_elysee", ELYSEE)
    assert outcome.code == "elysee_must_wait" and session.view().current == 1
    for _ in range(2):
        session.next_turn()
    outcome = session.claim(0, "complot_elysee", ELYSEE)
    assert outcome.accepted and outcome.points == 100
    view = session.view()
    assert view.phase == "manche_over" and view.end_reason == "elysee"
    assert view.scores == (100, 0, 0)


def test_one_announcement_per_turn_c45():
    session = table()
    assert session.claim(0, "prix_pulitzer", LEONARDS).code == "claim_not_met"
    assert session.claim(0, "complot", LEONARDS).code == "one_claim_per_turn"


def test_a_misread_hand_is_a_recording_error_that_changes_nothing_c44a():
    session = table()
    assert session.claim(0, "complot", LEONARDS[:5]).code == "hand_size"
    view = session.view()
    assert view.must_pass == () and view.current == 0 and not view.can_undo


def test_the_last_player_left_ends_the_manche_with_0_c51_c52():
    session = table(2)
    session.claim(0, "complot", LEONARDS)
    view = session.view()
    assert view.phase == "manche_over" and view.end_reason == "last_player"
    assert view.manche_points == (50, 0)
    assert session.next_turn().code == "manche_over"
    session.next_manche()
    view = session.view()
    assert view.manche == 2 and view.manches == ((50, 0),) and view.current == 1  # C54


def test_scores_only_reaches_the_target_and_the_highest_total_wins_c55():
    session = table(2, target=150, scores_only=True)
    for seat in (0, 1, 0):
        session.claim_points(seat, "complot_elysee")
        if session.view().phase != "game_over":
            session.next_manche()
    view = session.view()
    assert view.phase == "game_over" and view.winners == (0,) and view.scores == (200, 100)
    assert session.next_manche().code == "game_over"


def test_a_descente_is_stopped_by_a_strictly_higher_grade_c64_c92():
    session = table(3, level=2)
    descente = ["enqueteurs:max", "enqueteurs:emma", "enqueteurs:clara"]
    assert session.action(0, "descente", descente, [1]).accepted
    assert session.view().pending_action == "descente"
    assert session.next_manche().code == "bad_input"
    outcome = session.defence("etat-major:sophie")
    assert outcome.accepted and session.view().pending_action is None
    assert session.action(0, "controle", ["enqueteurs:max"], [1]).code == "one_action_per_turn"


def test_undo_and_redo_replay_the_table():
    session = table(2)
    session.claim(0, "complot", LEONARDS)
    assert session.undo().accepted and session.view().phase == "manche"
    assert session.view().can_redo
    assert session.redo().accepted and session.view().phase == "manche_over"
    assert not session.view().can_redo
