"""Conformance: pair bonus and the animals' effects — lion, giraffe, their order (R26-R32).

Table logs written from ../shared/RULINGS.md, judged through the public replay path.
"""

from __future__ import annotations

import pytest

from tests.conformance.table import (
    OK,
    deal,
    flee,
    give,
    judge,
    load,
    look,
    move,
    position,
    swap,
)

OPPONENTS = [["lion:F"], ["kangaroo:F"]]


# -- pair bonus (R26-R29) -----------------------------------------------------------------------

def test_r26_same_species_on_top_gives_a_whole_new_turn() -> None:
    """Ana's cat:M on the set-up cat:M (same gender: no matter): she plays again, then Ben."""
    states = judge([
        (deal(), OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK),
        (load(1, "parrot:M", 2), "not_your_turn"),
        (load(0, "bear:M", 2), OK), (move(0, 4), OK),
    ])
    loaded, moved, again, done = states[1], states[2], states[4], states[5]
    assert loaded["extra_turn"] is True
    assert (moved["phase"], moved["current_player"], moved["noah"]) == ("play", 0, 2)
    assert moved["extra_turn"] is True
    # TABLE-LOG extra_turn: after a loading it says whether *this* loading earned a bonus;
    # the bear on a cat earns none, so the extra turn is not announced again (R26).
    assert (again["phase"], again["extra_turn"]) == ("move_noah", False)
    assert (done["current_player"], done["extra_turn"]) == (1, False)


@pytest.mark.parametrize(("ferry", "card", "bonus"), [
    (["cat:M", "cat:F"], "cat:M", True),           # the 3rd cat earns it again
    (["woodpecker:M"], "parrot:F", False),         # parrot and woodpecker differ
    (["cat:M", "kangaroo:F"], "cat:M", False),     # only the card directly below counts
    (["panda:M"], "panda:F", True),
])
def test_r26_the_card_directly_below_decides(ferry: list[str], card: str, bonus: bool) -> None:
    hands = [[card, "bear:M"], *OPPONENTS]
    states = judge([(position([ferry, [], [], [], []], hands), OK), (load(0, card, 0), OK)])
    assert states[-1]["extra_turn"] is bonus


def test_r26_chains_are_unlimited() -> None:
    hands = [["cat:M", "cat:F", "kangaroo:M", "bear:M"], *OPPONENTS]
    states = judge([
        (position([["cat:F"], [], ["cat:M"], [], []], hands), OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK),
        (load(0, "cat:F", 2), OK), (move(0, 3), OK),
        (load(0, "kangaroo:M", 3), OK), (move(0, 0), OK),
    ])
    assert [s["current_player"] for s in states[2::2]] == [0, 0, 1]
    assert [s["extra_turn"] for s in states[2::2]] == [True, True, False]


def test_r23_r26_donkey_pair_the_same_player_loads_on_the_same_ferry() -> None:
    hands = [["bear:M"], ["rhino:M"], ["donkey:F", "parrot:F"]]
    states = judge([
        (position([["donkey:M"], [], [], [], []], hands, player=2), OK),
        (load(2, "donkey:F", 0), OK),
        (move(2, 1), "noah_move_illegal"),
        (load(2, "parrot:F", 1), "wrong_ferry"),
        (load(2, "parrot:F", 0), "gender"),
    ])
    after = states[1]
    assert (after["phase"], after["current_player"], after["noah"]) == ("play", 2, 0)
    assert after["extra_turn"] is True


@pytest.mark.parametrize(("ferry", "card", "as_gender", "bonus"), [
    (["cat:M"], "cat:M", None, False),
    (["cat:M"], "cat:F", None, True),
    (["snail:M"], "snail", "M", False),
    (["snail:M"], "snail", "F", True),
])
def test_r27_pair_needs_male_and_female_variant(ferry, card, as_gender, bonus) -> None:
    hands = [[card, "bear:M"], *OPPONENTS]
    states = judge([(position([ferry, [], [], [], []], hands), OK),
                    (load(0, card, 0, as_gender), OK)], pair_mf=True)
    assert states[-1]["extra_turn"] is bonus


def test_r28_a_pair_that_departs_keeps_the_bonus_after_the_gifts() -> None:
    hands = [["cat:M", "lion:M", "panda:M", "rhino:M"], *OPPONENTS]
    states = judge([
        (position([["elephant:M", "bear:M", "cat:M"], [], [], [], []], hands), OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK),
        (give(0, (1, "lion:M")), OK),
        (load(0, "panda:M", 2), OK), (move(0, 4), OK),
    ])
    moved, given, done = states[2], states[3], states[-1]
    assert (moved["departed"], moved["phase"], moved["gifts_owed"]) == (1, "give", 1)
    assert moved["extra_turn"] is True
    assert (given["phase"], given["current_player"], given["extra_turn"]) == ("play", 0, True)
    assert (done["current_player"], done["extra_turn"]) == (1, False)


def test_r35_the_fourth_departure_cancels_the_bonus() -> None:
    states = judge([
        (position([["elephant:M", "bear:M", "cat:M"], [], [], [], []],
                  hand_counts=[6, 3, 3], departed=3), OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK),
        (give(0, 1, 1, 2, 2), OK),
        (load(0, "panda:M", 2), "must_scan_hands"),
    ], hidden=True)
    end = states[3]
    assert (end["phase"], end["round_over"], end["extra_turn"]) == ("scan", True, False)
    assert end["hand_counts"] == [1, 5, 5]


@pytest.mark.parametrize(("ferry", "bonus"), [
    (["crocodile:M"], False),           # R29: the flight leaves it alone on the ferry
    (["cat:M", "crocodile:M"], True),   # R26: after the flight a crocodile lies below
])
def test_r26_r29_the_card_below_is_read_after_the_crocodile_flight(ferry, bonus) -> None:
    hands = [["crocodile:F", "bear:M"], *OPPONENTS]
    states = judge([(position([ferry, [], [], [], []], hands), OK),
                    (load(0, "crocodile:F", 0), OK), (flee(0, 1), OK)], crocodile=True)
    assert states[-1]["extra_turn"] is bonus
    assert states[-1]["ferries"][0] == [*ferry[1:], "crocodile:F"]


def test_r29_no_bonus_on_a_replacement_ferry() -> None:
    """A cat:M departs on top of ferry 1; Chloé's cat:M on its empty replacement: no bonus."""
    hands = [["cat:M", "bear:M", "lion:M"], ["panda:M", "bear:F"], ["cat:M", "lion:F"]]
    states = judge([
        (position([["elephant:M", "rhino:M"], [], ["kangaroo:M"], [], []], hands), OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK), (give(0, (1, "bear:M")), OK),
        (load(1, "panda:M", 2), OK), (move(1, 0), OK),
        (load(2, "cat:M", 0), OK),
    ])
    assert states[-1]["ferries"][0] == ["cat:M"]
    assert states[-1]["extra_turn"] is False


# -- lion (R30) ---------------------------------------------------------------------------------

def test_r30_lion_swap_with_known_hands() -> None:
    hands = [["lion:M", "bear:M", "cat:M"], ["rhino:F", "panda:F"], ["giraffe:F"]]
    states = judge([
        (position([[], ["cat:F"], [], [], []], hands), OK),
        (load(0, "lion:M", 0), OK),
        (move(0, 2), "must_lion_swap"),
        (swap(0, 0, "bear:M", "cat:M"), "invalid_target"),
        (swap(0, 1, "giraffe:F", "bear:M"), "card_not_in_hand"),
        (swap(0, 1, "rhino:F", "elephant:M"), "card_not_in_hand"),
        (swap(0, 1, "rhino:F", "bear:M"), OK),
        (move(0, 2), OK),
    ])
    loaded, swapped = states[1], states[-2]
    assert loaded["phase"] == "lion_swap"
    assert all(state == loaded for state in states[2:6])
    assert sorted(swapped["hands"][0]) == ["cat:M", "rhino:F"]
    assert sorted(swapped["hands"][1]) == ["bear:M", "panda:F"]
    assert swapped["hand_counts"] == [2, 2, 1]
    assert swapped["phase"] == "move_noah"


def test_r30_the_lion_may_give_back_the_card_drawn() -> None:
    hands = [["lion:M", "bear:M"], ["rhino:F", "panda:F"], ["giraffe:F"]]
    states = judge([(position([[], [], [], [], []], hands), OK), (load(0, "lion:M", 0), OK),
                    (swap(0, 1, "rhino:F", "rhino:F"), OK)])
    assert states[-1]["hands"][0] == ["bear:M"]
    assert sorted(states[-1]["hands"][1]) == ["panda:F", "rhino:F"]


def test_r30_hidden_hands_record_only_the_target() -> None:
    states = judge([(deal(hands=None, hand_counts=[8, 8, 8], noah=4), OK),
                    (load(0, "lion:F", 4), OK), (move(0, 0), "must_lion_swap"),
                    (swap(0, 2), OK), (move(0, 0), OK)], hidden=True)
    assert states[3]["hand_counts"] == [7, 8, 8]
    assert (states[-1]["noah"], states[-1]["current_player"]) == (0, 1)


# -- giraffe (R31) and the order of effects (R32) -----------------------------------------------

def test_r31_the_giraffe_look_is_optional_and_before_noah_moves() -> None:
    hands = [["bear:M"], ["rhino:M"], ["giraffe:M", "giraffe:F", "cat:M"]]
    states = judge([
        (position([[], [], [], [], []], hands, player=2), OK),
        (load(2, "giraffe:M", 0), OK),
        (look(2, 2), "invalid_target"),
        (look(1, 0), "not_your_turn"),
        (look(2, 0), OK),
        (look(2, 1), "no_giraffe_effect"),   # one opponent's hand, once
        (move(2, 3), OK),
    ])
    assert states[1]["phase"] == "move_noah"
    assert states[-1]["current_player"] == 0
    # without looking: move straight away
    judge([(position([[], [], [], [], []], hands, player=2), OK),
           (load(2, "giraffe:M", 0), OK), (move(2, 2), OK)])


def test_r31_no_look_after_another_animal_or_after_noah_moved() -> None:
    hands = [["bear:M"], ["rhino:M"], ["giraffe:M", "giraffe:F", "cat:M"]]
    judge([
        (position([[], [], [], [], []], hands, player=2), OK),
        (load(2, "cat:M", 0), OK), (look(2, 0), "no_giraffe_effect"),
    ])
    hands[2].remove("giraffe:M")
    states = judge([
        (position([["giraffe:M"], [], [], [], []], hands, player=2), OK),
        (load(2, "giraffe:F", 0), OK), (move(2, 1), OK),    # pair bonus: Chloé again
        (look(2, 0), "no_giraffe_effect"),
    ])
    assert (states[-1]["phase"], states[-1]["current_player"]) == ("play", 2)


def test_r32_the_crocodile_flight_comes_before_noah() -> None:
    hands = [["crocodile:M", "bear:M"], ["lion:F"], ["kangaroo:F"]]
    states = judge([
        (position([["cat:F", "kangaroo:M"], [], [], [], []], hands), OK),
        (load(0, "crocodile:M", 0), OK),
        (move(0, 2), "must_choose_flee_target"),
        (flee(0, 0), "invalid_target"),
        (flee(1, 2), "not_your_turn"),
        (flee(0, 2), OK),
        (move(0, 2), OK),
    ], crocodile=True)
    assert states[1]["phase"] == "croc_flee"
    fled = states[5]
    assert fled["ferries"][0] == ["kangaroo:M", "crocodile:M"]
    assert sorted(fled["hands"][2]) == ["cat:F", "kangaroo:F"]
    assert fled["phase"] == "move_noah" and fled["weights"][0] == 9
