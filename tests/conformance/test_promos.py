"""Conformance: promo animals and the roommates variant (R43-R47), with R25 and R48.

Table logs written from ../shared/RULINGS.md, judged through the public replay path.
"""

from __future__ import annotations

import pytest

from tests.conformance.table import OK, flee, judge, load, move, position, take_back

OPPONENTS = [["lion:F"], ["kangaroo:F"]]


def _load(ferry: list[str], card: str, expected: str | None, frog_weight: int | None = None,
          **options) -> dict:
    """Ana loads ``card`` on ferry 1 holding ``ferry``; the state after it."""
    hands = [[card, "bear:M"], *OPPONENTS]
    states = judge([(position([ferry, [], [], [], []], hands), OK),
                    (load(0, card, 0, frog_weight=frog_weight), expected)], **options)
    return states[-1]


# -- frog (R43) ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("ferry", "weight", "expected", "departs"), [
    (["elephant:M", "rhino:M"], 2, OK, True),                       # 19 + 2 = 21
    (["woodpecker:M", "giraffe:M"], 5, OK, True),                   # 8 + 5 = 13
    (["elephant:M", "rhino:M"], 3, "frog_weight_invalid", False),   # 22: not exact
    (["elephant:M", "kangaroo:M"], 2, "frog_weight_invalid", False),  # 15: not exact either
    (["elephant:M", "kangaroo:M"], None, OK, False),                # weighs 1
    (["elephant:M", "rhino:M"], None, OK, False),                   # weighs 1: 20, stays
])
def test_r43_a_frog_declares_a_weight_only_to_fill_the_ferry(ferry, weight, expected,
                                                             departs) -> None:
    before = sum({"elephant:M": 10, "rhino:M": 9, "kangaroo:M": 3, "giraffe:M": 8,
                  "woodpecker:M": 0}[card] for card in ferry)
    state = _load(ferry, "frog:M", expected, weight, frog=True)
    if expected is OK and departs:
        hands = [["frog:M", "bear:M"], *OPPONENTS]
        moved = judge([(position([ferry, [], [], [], []], hands), OK),
                       (load(0, "frog:M", 0, frog_weight=weight), OK), (move(0, 2), OK)],
                      frog=True)[-1]
        assert (moved["departed"], moved["ferries"][0], moved["phase"]) == (1, [], "give")
    elif expected is OK:
        assert (state["departed"], state["weights"][0]) == (0, before + 1)
        assert state["ferries"][0][-1] == "frog:M"


def test_r43_a_frog_keeps_its_printed_gender() -> None:
    _load(["cat:M", "kangaroo:M"], "frog:F", "gender", frog=True)
    _load(["cat:M", "kangaroo:F"], "frog:M", OK, frog=True)


def test_r43_a_frog_left_in_hand_costs_5_tears() -> None:
    hands = [["cat:F"], ["frog:F", "frog:M"], ["panda:M"]]
    states = judge([(position([["kangaroo:M"], [], [], [], []], hands), OK),
                    (load(0, "cat:F", 0), OK)], frog=True)
    assert states[-1]["round_scores"] == [0, 10, 4]


@pytest.mark.parametrize("hidden", [False, True])
def test_r48_r6_snails_are_unknown_with_frogs_donkeys_with_crocodiles(hidden: bool) -> None:
    def line(hand: list[str]) -> dict:
        return (position([["cat:M"], [], [], [], []], hand_counts=[3, 1, 1]) if hidden
                else position([["cat:M"], [], [], [], []], [hand, *OPPONENTS]))

    judge([(line(["donkey:M", "bear:M"]), OK), (load(0, "snail", 0, "M"), "unknown_card"),
           (load(0, "donkey:M", 0), OK)], frog=True, hidden=hidden)
    judge([(line(["snail", "bear:M"]), OK), (load(0, "donkey:M", 0), "unknown_card"),
           (load(0, "snail", 0, "M"), OK)], crocodile=True, hidden=hidden)


def test_r48_promo_animals_are_unknown_without_their_option() -> None:
    line = position([["cat:M"], [], [], [], []], hand_counts=[3, 1, 1])
    judge([(line, OK), (load(0, "frog:M", 0), "unknown_card"),
           (load(0, "crocodile:M", 0), "unknown_card")], hidden=True)


# -- crocodile (R44-R46) ------------------------------------------------------------------------

def test_r44_crocodile_tears_lower_the_score_by_two_at_once() -> None:
    hands = [["crocodile:M", "bear:M"], *OPPONENTS]
    states = judge([(position([[], [], [], [], []], hands, scores=(5, 1, 0)), OK),
                    (load(0, "crocodile:M", 0), OK)], crocodile=True)
    assert states[-1]["scores"] == [3, 1, 0]


def test_r44_a_crocodile_left_in_hand_costs_nothing() -> None:
    hands = [["cat:F"], ["crocodile:M", "crocodile:F"], ["panda:M"]]
    states = judge([(position([["kangaroo:M"], [], [], [], []], hands), OK),
                    (load(0, "cat:F", 0), OK)], crocodile=True)
    assert states[-1]["round_scores"] == [0, 0, 4]


def test_r45_the_bottom_animal_flees_to_the_named_opponent_hidden() -> None:
    states = judge([
        (position([["cat:F", "kangaroo:M", "parrot:F"], [], [], [], []], hand_counts=[2, 1, 1]),
         OK),
        (load(0, "crocodile:M", 0), OK),
        (flee(0, 0), "invalid_target"),
        (flee(0, 2), OK),
    ], hidden=True, crocodile=True)
    loaded, fled = states[1], states[-1]
    assert (loaded["phase"], loaded["hand_counts"]) == ("croc_flee", [1, 1, 1])
    assert fled["ferries"][0] == ["kangaroo:M", "parrot:F", "crocodile:M"]
    assert (fled["weights"][0], fled["hand_counts"]) == (9, [1, 1, 2])
    assert fled["phase"] == "move_noah"


@pytest.mark.parametrize(("ferry", "card", "expected"), [
    (["woodpecker:M", "elephant:M"], "crocodile:M", OK),          # a fleeing woodpecker: 21
    (["cat:M", "kangaroo:F"], "crocodile:F", OK),                 # new 2nd card: F, F
    (["cat:M", "kangaroo:M", "parrot:M"], "crocodile:F", "gender"),
    (["cat:M", "elephant:M", "giraffe:M"], "crocodile:M", "weight"),  # 18 + 6 > 21
])
def test_r45_golden_rules_are_checked_after_the_flight(ferry, card, expected) -> None:
    state = _load(ferry, card, expected, crocodile=True)
    if expected is OK:
        assert state["phase"] == "croc_flee"
        fled = judge([(position([ferry, [], [], [], []], [[card, "bear:M"], *OPPONENTS]), OK),
                      (load(0, card, 0), OK), (flee(0, 1), OK)], crocodile=True)[-1]
        assert fled["ferries"][0] == [*ferry[1:], card]
        assert fled["capacities"][0] == 21 and fled["hands"][1] == ["lion:F", ferry[0]]
    else:
        assert state["ferries"][0] == ferry and state["hand_counts"] == [2, 1, 1]


def test_r45_two_woodpeckers_one_flees_capacity_stays_13() -> None:
    state = judge([
        (position([["woodpecker:M", "woodpecker:F"], [], [], [], []],
                  [["crocodile:M", "bear:M"], *OPPONENTS]), OK),
        (load(0, "crocodile:M", 0), OK), (flee(0, 1), OK)], crocodile=True)[-1]
    assert (state["weights"][0], state["capacities"][0]) == (6, 13)


def test_r14_r45_a_fleeing_snail_loses_its_side() -> None:
    states = judge([
        (position([["snail:F", "cat:F"], [], [], [], []],
                  [["crocodile:F", "bear:M"], ["snail"], ["kangaroo:F"]]), OK),
        (load(0, "crocodile:F", 0), OK), (flee(0, 1), OK), (move(0, 1), OK),
        (load(1, "snail", 1), "snail_gender_required"),
    ], crocodile=True)
    assert states[2]["hands"][1] == ["snail", "snail"]


def test_r46_a_crocodile_on_an_empty_ferry_frightens_nobody() -> None:
    states = judge([(position([[], [], [], [], []], hand_counts=[2, 1, 1]), OK),
                    (load(0, "crocodile:M", 0), OK),
                    (flee(0, 1), "must_move_noah"),
                    (move(0, 2), OK)], hidden=True, crocodile=True)
    assert states[1]["phase"] == "move_noah" and states[1]["hand_counts"] == [1, 1, 1]


# -- roommates on the ark (R47) -----------------------------------------------------------------

@pytest.mark.parametrize(("ferry", "card", "expected"), [
    (["cat:M"], "cat:F", "roommates"),
    (["cat:M", "kangaroo:M"], "cat:M", "roommates"),
    (["cat:M", "kangaroo:M"], "panda:M", OK),
    (["crocodile:M", "cat:F"], "crocodile:F", OK),          # the first crocodile flees
    (["cat:F", "crocodile:M"], "crocodile:F", "roommates"),  # the cat flees, not the crocodile
])
def test_r47_never_two_of_a_species_checked_after_the_flight(ferry, card, expected) -> None:
    state = _load(ferry, card, expected, roommates=True, crocodile=True)
    if expected is OK:
        assert state["extra_turn"] is False


def test_r25_r47_a_snail_that_would_room_with_a_snail_allows_the_take_back() -> None:
    hands = [["snail", "panda:F"], *OPPONENTS]
    states = judge([(position([["snail:M", "cat:M"], [], [], [], []], hands), OK),
                    (take_back(0, 0), OK)], roommates=True)
    assert sorted(states[-1]["hands"][0]) == ["cat:M", "panda:F", "snail", "snail"]
