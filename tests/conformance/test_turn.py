"""Conformance: a turn — set-up, loading, golden rules, Noah, departures, gifts (R5-R25).

Every scenario is a table log written from ../shared/RULINGS.md and TABLE-LOG.md and judged
through the public replay path (tests/conformance/table.py).
"""

from __future__ import annotations

import pytest

from companion.game import InputError
from tests.conformance.table import (
    FERRIES,
    HANDS,
    OK,
    deal,
    give,
    judge,
    load,
    move,
    position,
    replay_lines,
    take_back,
)

# -- set-up (R5-R10) ----------------------------------------------------------------------------

def test_r5_three_players_leave_the_marked_animals_in_the_box() -> None:
    """R5: with 3 players the 4+ third panda does not exist; with 4 players it does."""
    hands = [list(hand) for hand in HANDS]
    hands[0][4] = "panda:F"  # a second female panda: only the 4+ one
    judge([(deal(hands=hands), "setup_invalid")])
    ferries = ["panda:M", "panda:F", "cat:M", "cat:F", "parrot:M"]
    judge([(deal(ferries, hands=None, hand_counts=[8, 8, 8]), OK),
           (load(0, "panda:M", 0), "card_unavailable")], hidden=True)
    judge([(deal(ferries, hands=None, hand_counts=[8, 8, 8, 8]), OK),
           (load(0, "panda:M", 0), OK)], players=("Ana", "Ben", "Chloé", "Dan"), hidden=True)


def test_r6_frog_and_crocodile_at_five_players_is_refused() -> None:
    """R6: frogs + crocodiles leave 43 animals, fewer than the 45 a 5-player deal needs."""
    players = ("Ana", "Ben", "Chloé", "Dan", "Eve")
    line = deal(["cat:M", "cat:F", "kangaroo:M", "kangaroo:F", "parrot:M"], hands=None,
                hand_counts=[8] * 5)
    try:
        results = replay_lines([line], players, hidden=True, frog=True, crocodile=True)
    except InputError:
        return  # refused when the game is set up: fine
    assert results[1]["reason"] == "setup_invalid"


@pytest.mark.parametrize("change", ["noah", "count", "snail", "ferries", "starter", "hands"])
def test_r7_to_r10_a_deal_that_cannot_be_is_setup_invalid(change: str) -> None:
    """R7 Noah on one of 5 ferries; R8 a ferry snail shows its side; R9 8 cards each; R10 the
    table names round 1's starter; hidden hands are dealt as counts."""
    line = deal(hands=None, hand_counts=[8, 8, 8])
    if change == "starter":
        del line["starter"]
    elif change == "hands":
        line = deal()
    elif change == "noah":
        line["noah"] = 5
    elif change == "count":
        line["hand_counts"] = [8, 8, 7]
    elif change == "snail":
        line["ferries"] = ["cat:M", "cat:F", "kangaroo:M", "kangaroo:F", "snail"]
    else:
        line["ferries"] = line["ferries"][:4]
    states = judge([(line, "setup_invalid")], hidden=True)
    assert states[0] == replay_lines([], hidden=True)[0]["state"]   # nothing dealt


def test_r7_r9_r10_the_deal_sets_up_the_round() -> None:
    """The starter given plays first, Noah where the table put him, 5 single-card ferries."""
    states = judge([(deal(noah=3, starter=2), OK)])
    state = states[0]
    assert (state["round"], state["phase"], state["current_player"]) == (1, "play", 2)
    assert (state["round_starter"], state["noah"]) == (2, 3)
    assert state["ferries"] == [[card] for card in FERRIES]
    assert state["weights"] == [2, 2, 3, 3, 0]
    assert state["capacities"] == [21] * 5
    assert (state["departed"], state["reserve"], state["hand_counts"]) == (0, 3, [8, 8, 8])
    assert state["scores"] == [0, 0, 0]
    assert (state["extra_turn"], state["gifts_owed"]) == (False, 0)
    assert (state["round_over"], state["game_over"]) == (False, False)


def test_r8_a_setup_snail_keeps_the_side_laid_up() -> None:
    """R8 + R13: snail:F laid at set-up, then cat:F: the ferry is 'all female' from then on."""
    ferries = ["snail:F", "cat:F", "kangaroo:M", "kangaroo:F", "parrot:M"]
    hands = [
        ["cat:F", "woodpecker:M", "cat:M", "cat:M", "panda:M", "lion:M", "bear:M", "rhino:M"],
        ["parrot:F", "woodpecker:F", "snail", "kangaroo:M", "panda:F", "lion:F", "bear:F",
         "rhino:F"],
        ["parrot:F", "parrot:M", "snail", "kangaroo:F", "donkey:M", "donkey:F", "giraffe:M",
         "giraffe:F"],
    ]
    states = judge([
        (deal(ferries, hands), OK),
        (load(0, "cat:F", 0), OK), (move(0, 1), OK),
        (load(1, "parrot:F", 1), OK), (move(1, 0), OK),
        (load(2, "giraffe:M", 0), "gender"),
        (load(2, "giraffe:F", 0), OK),
    ])
    assert states[0]["ferries"][0] == ["snail:F"] and states[0]["weights"][0] == 1
    assert states[-1]["ferries"][0] == ["snail:F", "cat:F", "giraffe:F"]


# -- turn order and acting (R10-R12) ------------------------------------------------------------

def test_r11_play_passes_clockwise_and_wraps() -> None:
    states = judge([
        (deal(starter=2), OK),
        (load(2, "parrot:F", 0), OK), (move(2, 1), OK),
        (load(0, "parrot:F", 1), OK), (move(0, 2), OK),
    ])
    assert [state["current_player"] for state in states] == [2, 2, 0, 0, 1]


def test_r12_only_the_player_whose_turn_it_is_may_load() -> None:
    states = judge([(deal(), OK), (load(1, "parrot:M", 0), "not_your_turn")])
    assert states[1] == states[0]


def test_r12_the_card_goes_on_noahs_ferry() -> None:
    judge([(deal(noah=2), OK), (load(0, "parrot:F", 0), "wrong_ferry"),
           (load(0, "parrot:F", 2), OK)])


def test_r12_no_passing_a_move_instead_of_a_loading_is_refused() -> None:
    """R12 + R50: a Noah move when a loading is awaited is noah_move_illegal."""
    judge([(deal(), OK), (move(0, 2), "noah_move_illegal")])


# -- gender golden rule (R13, R14) --------------------------------------------------------------

def _ferry_test(ferry: list[str], card: str, expected: str | None, as_gender: str | None = None,
                hidden: bool = False) -> dict:
    """Ana loads ``card`` on ferry 1 holding ``ferry`` (bottom first)."""
    hand = [card, "donkey:M"]
    ferries = [ferry, ["giraffe:M"], [], [], []]
    line = (position(ferries, hand_counts=[2, 1, 1]) if hidden
            else position(ferries, [hand, ["lion:M"], ["lion:F"]]))
    states = judge([(line, OK), (load(0, card, 0, as_gender), expected)], hidden=hidden)
    return states[-1]


@pytest.mark.parametrize(("ferry", "card", "expected"), [
    ([], "cat:F", OK),
    (["cat:M"], "cat:F", OK),
    (["cat:M"], "kangaroo:M", OK),
    (["cat:M", "kangaroo:M"], "panda:M", OK),
    (["cat:M", "kangaroo:M"], "panda:F", "gender"),
    (["cat:M", "kangaroo:F"], "panda:M", OK),
    (["cat:M", "kangaroo:F"], "panda:F", "gender"),
    (["cat:M", "kangaroo:F", "parrot:M"], "panda:F", OK),
    (["cat:M", "kangaroo:F", "parrot:M"], "panda:M", "gender"),
    (["cat:F", "kangaroo:F", "parrot:F"], "panda:F", OK),
    (["cat:F", "kangaroo:F", "parrot:F"], "panda:M", "gender"),
])
def test_r13_all_one_gender_or_perfectly_alternating(ferry, card, expected) -> None:
    _ferry_test(ferry, card, expected)


@pytest.mark.parametrize(("ferry", "as_gender", "expected"), [
    (["cat:M", "kangaroo:M"], "M", OK),
    (["cat:M", "kangaroo:M"], "F", "gender"),
    (["cat:M", "kangaroo:F"], "M", OK),
    (["cat:M", "kangaroo:F"], "F", "gender"),
    (["cat:M"], None, "snail_gender_required"),
])
def test_r14_the_declared_side_of_a_snail_is_its_gender(ferry, as_gender, expected) -> None:
    state = _ferry_test(ferry, "snail", expected, as_gender)
    if expected is OK:
        assert state["ferries"][0][-1] == f"snail:{as_gender}"


def test_r14_a_loaded_snail_keeps_its_side_for_later_loadings() -> None:
    """snail as F on cat:M makes the ferry alternate: after the snail a male is required."""
    hands = [["snail", "bear:M"], ["kangaroo:F", "kangaroo:M"], ["rhino:F"]]
    states = judge([
        (position([["cat:M"], [], ["giraffe:M"], [], []], hands), OK),
        (load(0, "snail", 0, "F"), OK), (move(0, 1), OK),
        (load(1, "kangaroo:F", 1), OK), (move(1, 0), OK),
        (load(2, "rhino:F", 0), "gender"),
    ])
    assert states[-1]["ferries"][0] == ["cat:M", "snail:F"]


def test_r14_r22_the_declared_side_moves_noah_like_that_gender() -> None:
    """A snail declared male moves Noah two steps, declared female one step."""
    hands = [["snail", "bear:M"], ["rhino:M"], ["rhino:F"]]
    base = position([[], ["giraffe:M"], [], [], []], hands)
    judge([(base, OK), (load(0, "snail", 0, "M"), OK), (move(0, 1), "noah_move_illegal"),
           (move(0, 3), OK)])
    judge([(base, OK), (load(0, "snail", 0, "F"), OK), (move(0, 2), "noah_move_illegal"),
           (move(0, 4), OK)])


# -- weight golden rule, woodpecker, departure (R15-R18) ----------------------------------------

@pytest.mark.parametrize(("ferry", "card", "expected"), [
    (["elephant:M", "rhino:M"], "bear:M", "weight"),          # 19 + 7 > 21
    (["elephant:M", "rhino:M"], "cat:M", OK),                 # 21: departs
    (["woodpecker:M", "elephant:M"], "kangaroo:M", OK),       # 13 with a woodpecker: departs
    (["woodpecker:M", "elephant:M"], "panda:M", "weight"),    # 14 > 13
    (["elephant:M", "panda:M"], "woodpecker:M", "woodpecker_over_13"),  # 14 already
    (["elephant:M", "kangaroo:M"], "woodpecker:M", OK),       # R17: exactly 13 departs
    (["woodpecker:M"], "woodpecker:F", OK),                   # R16: a second one, cap 13
])
def test_r15_to_r17_weight_and_woodpeckers(ferry, card, expected) -> None:
    state = _ferry_test(ferry, card, expected)
    if expected is OK and card == "woodpecker:F":
        assert (state["weights"][0], state["capacities"][0]) == (0, 13)


def test_r15_a_woodpecker_aboard_sets_the_capacity_to_13() -> None:
    state = judge([(position([["woodpecker:F", "cat:F"], [], [], [], []],
                             [["bear:M"], ["rhino:M"], ["rhino:F"]]), OK)])[0]
    assert (state["capacities"], state["weights"][0]) == ([13, 21, 21, 21, 21], 2)


def test_r17_r18_r19_woodpecker_on_13_departs_with_noah_move_and_gifts() -> None:
    """The departure turn: Noah moves from the departing position, then 1 gift, then Ben."""
    hands = [["woodpecker:M", "bear:M", "rhino:M"], ["lion:F"], ["lion:M"]]
    states = judge([
        (position([["elephant:M", "kangaroo:M"], ["cat:F"], [], [], []], hands), OK),
        (load(0, "woodpecker:M", 0), OK),
        (move(0, 3), OK),
        (give(0, (2, "bear:M")), OK),
    ])
    loaded, moved, given = states[1:]
    assert loaded["phase"] == "move_noah" and loaded["departed"] == 0
    assert moved["ferries"][0] == [] and moved["weights"][0] == 0
    assert moved["capacities"][0] == 21
    assert (moved["departed"], moved["reserve"], moved["noah"]) == (1, 2, 3)
    assert (moved["phase"], moved["gifts_owed"], moved["current_player"]) == ("give", 1, 0)
    assert [sorted(hand) for hand in given["hands"]] == [["rhino:M"], ["lion:F"],
                                                          ["bear:M", "lion:M"]]
    assert (given["phase"], given["current_player"], given["gifts_owed"]) == ("play", 1, 0)
    assert given["hand_counts"] == [1, 1, 2]


def test_r18_a_ferry_below_capacity_stays() -> None:
    state = _ferry_test(["elephant:M", "rhino:M"], "woodpecker:M", "woodpecker_over_13")
    assert state["departed"] == 0
    state = _ferry_test(["elephant:M", "kangaroo:M"], "cat:M", OK)
    assert (state["weights"][0], state["departed"]) == (15, 0)


# -- gifts (R19-R21) ----------------------------------------------------------------------------

@pytest.mark.parametrize("before", [0, 1, 2, 3])
def test_r20_the_kth_departure_owes_k_gifts(before: int) -> None:
    """Hidden hands; after the 4th departure (R33b) the round ends once the gifts are given."""
    k = before + 1
    states = judge([
        (position([["elephant:M", "rhino:M"], ["cat:F"], [], [], []], hand_counts=[6, 6, 6],
                  departed=before), OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK),
        (give(0, *([1] * (k + 1))), "gift_count"),
        (give(0, *([1] * k)), OK),
    ], hidden=True)
    moved, given = states[2], states[-1]
    assert (moved["phase"], moved["gifts_owed"], moved["departed"]) == ("give", k, k)
    assert moved["reserve"] == max(0, 3 - k)
    assert given["hand_counts"] == [5 - k, 6 + k, 6]
    assert given["gifts_owed"] == 0
    if k < 4:
        assert (given["phase"], given["current_player"]) == ("play", 1)
        assert given["ferries"][0] == [] and given["weights"][0] == 0
    else:
        assert given["ferries"][0] is None and given["weights"][0] is None
        assert given["capacities"][0] is None
        assert given["phase"] == "scan" and given["round_over"] is True


def test_r20_gifts_may_be_split_and_come_from_the_hand() -> None:
    hands = [["cat:M", "bear:M", "rhino:M", "lion:M"], ["lion:F"], ["panda:F"]]
    states = judge([
        (position([["elephant:M", "rhino:F"], ["cat:F"], [], [], []], hands, departed=1), OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK),
        (give(0, (1, "giraffe:M"), (2, "bear:M")), "card_not_in_hand"),
        (give(0, (0, "rhino:M"), (2, "bear:M")), "invalid_target"),
        (load(0, "bear:M", 2), "must_give_cards"),
        (move(0, 3), "must_give_cards"),
        (give(0, (1, "rhino:M"), (2, "bear:M")), OK),
    ])
    assert states[-1]["hands"][0] == ["lion:M"]
    assert sorted(states[-1]["hands"][1]) == ["lion:F", "rhino:M"]
    assert sorted(states[-1]["hands"][2]) == ["bear:M", "panda:F"]
    assert states[3] == states[2]


def test_r20_the_departure_count_runs_across_players() -> None:
    """Ana's departure is the 1st (1 gift), Ben's the 2nd (2 gifts)."""
    hands = [["cat:M", "bear:M", "lion:M"], ["cat:F", "bear:F", "lion:F"], ["panda:F"]]
    states = judge([
        (position([["elephant:M", "rhino:M"], ["cat:F"], ["elephant:F", "rhino:F"], [], []],
                  hands), OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK), (give(0, (1, "bear:M")), OK),
        (load(1, "cat:F", 2), OK), (move(1, 1), OK),
        (give(1, (2, "bear:F"), (2, "bear:M"), (0, "lion:F")), "gift_count"),
        (give(1, (2, "bear:F"), (0, "bear:M")), OK),
    ])
    assert states[5]["gifts_owed"] == 2 and states[5]["departed"] == 2
    end = states[-1]
    assert (end["phase"], end["current_player"], end["hand_counts"]) == ("play", 2, [2, 1, 2])


def test_r21_a_player_short_of_cards_gives_all_and_the_round_ends() -> None:
    """3rd departure owes 3; Ana has 1 card left: she gives it, her hand is empty (R33a)."""
    hands = [["cat:M", "lion:M"], ["lion:F"], ["panda:F"]]
    states = judge([
        (position([["elephant:M", "rhino:M"], ["cat:F"], [], [], []], hands, departed=2), OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK),
        (give(0, (1, "lion:M")), OK),
    ])
    assert states[2]["gifts_owed"] in (1, 3)
    end = states[-1]
    assert end["phase"] == "round_over" and end["round_over"] is True
    assert end["hand_counts"] == [0, 2, 1]
    assert end["round_scores"] == [0, 2, 4] and end["scores"] == [0, 2, 4]


# -- Noah (R22-R24) -----------------------------------------------------------------------------

@pytest.mark.parametrize(("card", "noah", "allowed"), [
    ("parrot:F", 0, {1, 4}), ("parrot:M", 0, {2, 3}),
    ("parrot:F", 4, {3, 0}), ("parrot:M", 4, {1, 2}),
    ("parrot:M", 2, {0, 4}),
])
def test_r22_female_one_step_male_two_steps(card: str, noah: int, allowed: set[int]) -> None:
    hands = [[card, "bear:M"], ["rhino:M"], ["rhino:F"]]
    base = [(position([[], [], [], [], []], hands, noah=noah), OK), (load(0, card, noah), OK)]
    for to in range(5):
        states = judge([*base, (move(0, to), OK if to in allowed else "noah_move_illegal")])
        if to in allowed:
            assert (states[-1]["noah"], states[-1]["current_player"]) == (to, 1)
            assert states[-1]["phase"] == "play"


def test_r22_moving_noah_is_the_acting_players_step() -> None:
    judge([(deal(), OK), (load(0, "parrot:F", 0), OK), (move(1, 1), "not_your_turn"),
           (move(0, 1), OK)])


def test_r23_donkey_noah_stays_and_the_next_player_loads_there() -> None:
    hands = [["bear:M"], ["rhino:M"], ["donkey:M", "parrot:F"]]
    states = judge([
        (position([["cat:M", "kangaroo:F"], [], [], [], []], hands, noah=0, player=2), OK),
        (load(2, "donkey:M", 0), OK),
        (move(2, 2), "noah_move_illegal"),
        (load(0, "bear:M", 1), "wrong_ferry"),
        (load(0, "bear:M", 0), "gender"),  # the donkey's printed M counts for R13
    ])
    after = states[1]
    assert (after["phase"], after["current_player"], after["noah"]) == ("play", 0, 0)
    assert after["ferries"][0] == ["cat:M", "kangaroo:F", "donkey:M"]


def test_r24_donkey_departure_noah_stays_on_the_replacement_ferry() -> None:
    """The donkey brings the ferry to 21: it departs, gifts, and Ben loads on the empty ferry."""
    hands = [["donkey:F", "bear:M", "rhino:M"], ["elephant:F", "parrot:M"], ["lion:M"]]
    states = judge([
        (position([["elephant:M", "cat:F", "kangaroo:M"], ["cat:M"], [], [], []], hands), OK),
        (load(0, "donkey:F", 0), OK),
        (give(0, (1, "bear:M")), OK),
        (load(1, "elephant:F", 0), OK),
    ])
    loaded, given, ben = states[1:]
    assert (loaded["phase"], loaded["noah"], loaded["departed"]) == ("give", 0, 1)
    assert loaded["ferries"][0] == [] and loaded["gifts_owed"] == 1
    assert (given["phase"], given["current_player"], given["noah"]) == ("play", 1, 0)
    assert ben["ferries"][0] == ["elephant:F"] and ben["extra_turn"] is False


# -- cannot play: take-back (R25, R46, R48) -----------------------------------------------------

def test_r25_take_back_refused_while_a_legal_loading_exists() -> None:
    judge([(deal(), OK), (take_back(0, 0), "take_back_not_allowed")])


def test_r25_take_back_refused_on_an_empty_ferry() -> None:
    hands = [["panda:F"], ["lion:M"], ["lion:F"]]
    judge([(position([[], ["cat:M"], [], [], []], hands), OK),
           (take_back(0, 0), "take_back_not_allowed")])
    judge([(position([[], ["cat:M"], [], [], []], hand_counts=[1, 1, 1]), OK),
           (take_back(0, 0), "take_back_not_allowed")], hidden=True)


def test_r25_take_back_then_load_any_card_and_move_noah_for_it() -> None:
    hands = [["parrot:F", "panda:F"], ["lion:M"], ["lion:F"]]
    states = judge([
        (position([["cat:M", "kangaroo:M"], ["cat:F"], [], [], []], hands), OK),
        (take_back(0, 0), OK),
        (move(0, 2), "noah_move_illegal"),
        (take_back(0, 0), "take_back_not_allowed"),
        (load(0, "kangaroo:M", 0), OK),
        (move(0, 1), "noah_move_illegal"),
        (move(0, 3), OK),
    ])
    taken = states[1]
    assert taken["ferries"][0] == [] and taken["weights"][0] == 0
    assert sorted(taken["hands"][0]) == ["cat:M", "kangaroo:M", "panda:F", "parrot:F"]
    assert (taken["phase"], taken["current_player"], taken["noah"]) == ("play", 0, 0)
    assert states[4]["extra_turn"] is False  # R29: nothing below, no pair bonus
    assert (states[-1]["current_player"], states[-1]["hand_counts"]) == (1, [3, 1, 1])


@pytest.mark.parametrize("ferry", [["cat:F", "kangaroo:F"], ["cat:M", "kangaroo:M"]])
def test_r25_a_snail_is_tried_with_both_sides(ferry: list[str]) -> None:
    other = "panda:M" if ferry[0].endswith("F") else "panda:F"
    judge([(position([ferry, [], [], [], []], [["snail", other], ["lion:M"], ["lion:F"]]), OK),
           (take_back(0, 0), "take_back_not_allowed")])


@pytest.mark.parametrize(("frog", "expected"), [("frog:F", OK),
                                                ("frog:M", "take_back_not_allowed")])
def test_r25_a_frog_that_fits_forbids_the_take_back(frog: str, expected: str | None) -> None:
    hands = [[frog, "panda:F"], ["lion:M"], ["lion:F"]]
    judge([(position([["cat:M", "kangaroo:M"], [], [], [], []], hands), OK),
           (take_back(0, 0), expected)], frog=True)


@pytest.mark.parametrize(("ferry", "hand", "expected"), [
    (["cat:M", "kangaroo:M"], ["crocodile:F", "panda:F"], "take_back_not_allowed"),
    (["elephant:M", "rhino:M"], ["crocodile:M", "bear:M"], "take_back_not_allowed"),
    (["cat:M", "kangaroo:M", "parrot:M"], ["crocodile:F", "panda:F"], OK),
])
def test_r25_r46_a_crocodile_whose_flight_makes_room_is_a_legal_loading(ferry, hand,
                                                                        expected) -> None:
    """After the bottom animal flees, the crocodile is checked on the ferry that remains."""
    judge([(position([ferry, [], [], [], []], [hand, ["lion:M"], ["lion:F"]]), OK),
           (take_back(0, 0), expected)], crocodile=True)
    if expected is not OK:
        states = judge([(position([ferry, [], [], [], []], [hand, ["lion:M"], ["lion:F"]]), OK),
                        (load(0, hand[0], 0), OK)], crocodile=True)
        assert states[-1]["phase"] == "croc_flee"


def test_r48_hidden_hands_take_back_on_a_ferry_is_accepted() -> None:
    states = judge([(deal(hands=None, hand_counts=[8, 8, 8]), OK), (take_back(0, 0), OK),
                    (load(0, "cat:M", 0), OK), (move(0, 2), OK)], hidden=True)
    taken = states[1]
    assert (taken["ferries"][0], taken["hand_counts"]) == ([], [9, 8, 8])
    assert "hands" not in taken or taken["hands"] is None
    assert states[-1]["hand_counts"] == [8, 8, 8] and states[-1]["current_player"] == 1
