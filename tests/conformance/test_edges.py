"""Conformance: rulings meeting each other — corner cases a referee gets wrong first.

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
    scan,
    swap,
    take_back,
    undo,
)

OPPONENTS = [["lion:F"], ["kangaroo:F"]]


def test_r19_r45_a_crocodile_that_fills_the_ferry_after_the_flight_departs() -> None:
    """15 left after the parrot flees, + 6 = 21: flight, Noah, departure, 1 gift, then Ben."""
    hands = [["crocodile:M", "bear:M", "lion:M"], *OPPONENTS]
    states = judge([
        (position([["parrot:M", "elephant:M", "kangaroo:M", "cat:M"], [], [], [], []], hands),
         OK),
        (load(0, "crocodile:M", 0), OK), (flee(0, 2), OK), (move(0, 3), OK),
        (give(0, (1, "bear:M")), OK),
    ], crocodile=True)
    fled, moved, given = states[2], states[3], states[4]
    assert (fled["weights"][0], fled["phase"], fled["departed"]) == (21, "move_noah", 0)
    assert sorted(fled["hands"][2]) == ["kangaroo:F", "parrot:M"]
    assert (moved["departed"], moved["ferries"][0], moved["gifts_owed"]) == (1, [], 1)
    assert (given["phase"], given["current_player"]) == ("play", 1)


def test_r45_a_woodpecker_that_stays_keeps_the_capacity_at_13() -> None:
    """cat flees, woodpecker + elephant = 10 remain, + crocodile 6 = 16 > 13."""
    hands = [["crocodile:M", "bear:M"], *OPPONENTS]
    judge([(position([["cat:M", "woodpecker:M", "elephant:M"], [], [], [], []], hands), OK),
           (load(0, "crocodile:M", 0), "weight")], crocodile=True)


def test_r23_r28_a_donkey_pair_that_departs() -> None:
    """Noah stays; the ferry leaves; gifts; Ana plays again on the empty replacement."""
    hands = [["donkey:M", "lion:M", "giraffe:M", "cat:M"], *OPPONENTS]
    states = judge([
        (position([["bear:M", "parrot:F", "cat:M", "donkey:F"], [], [], [], []], hands), OK),
        (load(0, "donkey:M", 0), OK),
        (move(0, 2), "must_give_cards"),
        (give(0, (1, "lion:M")), OK),
        (load(0, "giraffe:M", 0), OK),
    ])
    loaded, given, again = states[1], states[3], states[4]
    assert (loaded["phase"], loaded["departed"], loaded["noah"]) == ("give", 1, 0)
    assert (given["phase"], given["current_player"], given["noah"]) == ("play", 0, 0)
    assert given["extra_turn"] is True and given["ferries"][0] == []
    assert again["ferries"][0] == ["giraffe:M"]


def test_r24_r33_a_donkey_fourth_departure_ends_the_round() -> None:
    states = judge([
        (position([["elephant:M", "cat:F", "kangaroo:M"], [], [], [], []],
                  hand_counts=[6, 2, 2], departed=3), OK),
        (load(0, "donkey:F", 0), OK),
        (give(0, 1, 1, 2, 2), OK),
    ], hidden=True)
    assert states[1]["ferries"][0] is None and states[1]["gifts_owed"] == 4
    assert (states[-1]["phase"], states[-1]["hand_counts"]) == ("scan", [1, 4, 4])


def test_r21_hidden_hands_owe_only_what_is_held() -> None:
    states = judge([
        (position([["elephant:M", "rhino:M"], [], [], [], []], hand_counts=[2, 2, 2],
                  departed=1), OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK),
        (give(0, 1, 2), "gift_count"),
        (give(0, 2), OK),
    ], hidden=True)
    assert states[2]["gifts_owed"] == 1
    assert (states[-1]["phase"], states[-1]["hand_counts"]) == ("scan", [0, 2, 3])


def test_r21_known_hands_owe_only_what_is_held() -> None:
    states = judge([
        (position([["elephant:M", "rhino:M"], [], [], [], []],
                  [["cat:M", "lion:M"], *OPPONENTS], departed=2), OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK),
    ])
    assert states[-1]["gifts_owed"] == 1


def test_r20_r49_the_same_card_cannot_be_given_twice() -> None:
    hands = [["cat:M", "bear:M", "lion:M"], *OPPONENTS]
    judge([(position([["elephant:M", "rhino:M"], [], [], [], []], hands, departed=1), OK),
           (load(0, "cat:M", 0), OK), (move(0, 2), OK),
           (give(0, (1, "bear:M"), (2, "bear:M")), "card_not_in_hand"),
           (give(0, (1, "bear:M"), (2, "lion:M")), OK)])


def test_r30_the_loaded_lion_cannot_be_given() -> None:
    hands = [["lion:M", "bear:M"], ["rhino:F"], ["giraffe:F"]]
    judge([(position([[], [], [], [], []], hands), OK), (load(0, "lion:M", 0), OK),
           (swap(0, 1, "rhino:F", "lion:M"), "card_not_in_hand"),
           (swap(0, 1, "rhino:F", "bear:M"), OK)])


def test_r14_r25_a_snail_taken_back_loses_its_side() -> None:
    hands = [["panda:F"], *OPPONENTS]
    states = judge([(position([["snail:M", "cat:M"], [], [], [], []], hands), OK),
                    (take_back(0, 0), OK),
                    (load(0, "snail", 0), "snail_gender_required"),
                    (load(0, "snail", 0, "F"), OK), (move(0, 1), OK)])
    assert sorted(states[1]["hands"][0]) == ["cat:M", "panda:F", "snail"]
    assert states[-1]["noah"] == 1


def test_r26_snails_pair_whatever_their_declared_sides() -> None:
    hands = [["snail", "bear:M"], *OPPONENTS]
    states = judge([(position([["snail:M"], [], [], [], []], hands), OK),
                    (load(0, "snail", 0, "F"), OK)])
    assert states[-1]["extra_turn"] is True


def test_r25_r50_after_a_take_back_a_loading_is_awaited() -> None:
    hands = [["panda:F"], *OPPONENTS]
    states = judge([(position([["cat:M", "kangaroo:M"], [], [], [], []], hands), OK),
                    (take_back(1, 0), "not_your_turn"),
                    (take_back(0, 0), OK),
                    (give(0, 1), "must_play"),
                    (undo(), OK)])
    assert states[-1] == states[0]


def test_r34_last_card_on_the_fourth_departure() -> None:
    states = judge([
        (position([["elephant:M", "rhino:M"], [], [], [], []], hand_counts=[1, 2, 2],
                  departed=3), OK),
        (load(0, "cat:M", 0), OK),
    ], hidden=True)
    end = states[-1]
    assert (end["departed"], end["ferries"][0], end["gifts_owed"]) == (4, None, 0)
    assert (end["phase"], end["round_over"]) == ("scan", True)


def test_r34_last_card_crocodile_on_an_empty_ferry_ends_at_once() -> None:
    states = judge([(position([[], [], [], [], []], [["crocodile:F"], *OPPONENTS],
                              scores=(4, 0, 0)), OK),
                    (load(0, "crocodile:F", 0), OK)], crocodile=True)
    end = states[-1]
    assert (end["phase"], end["scores"], end["round_scores"]) == ("round_over", [2, 1, 1],
                                                                   [0, 1, 1])


def test_r34_last_card_frog_that_fills_the_ferry() -> None:
    states = judge([(position([["elephant:M", "rhino:M"], [], [], [], []],
                              [["frog:M"], *OPPONENTS]), OK),
                    (load(0, "frog:M", 0, frog_weight=2), OK)], frog=True)
    assert (states[-1]["departed"], states[-1]["phase"]) == (1, "round_over")


def test_r31_r34_last_card_giraffe_gives_no_look() -> None:
    judge([(position([[], [], [], [], []], [["giraffe:F"], *OPPONENTS]), OK),
           (load(0, "giraffe:F", 0), OK), (look(0, 1), "round_over")])


def test_r36_tears_of_every_species() -> None:
    ben = ["woodpecker:F", "parrot:M", "snail", "cat:F", "kangaroo:F", "panda:F", "lion:F",
           "donkey:F", "bear:F", "giraffe:F", "rhino:F", "elephant:F"]
    states = judge([(position([["kangaroo:M"], [], [], [], []], [["cat:M"], ben, ["bear:M"]]), OK),
                    (load(0, "cat:M", 0), OK)])
    assert states[-1]["round_scores"] == [0, 2 + 2 + 2 + 1 + 1 + 4 + 1 + 1, 0]


def test_r37_the_scan_counts_cards_visible_on_the_ferries() -> None:
    """A giraffe lies on a ferry: a scan showing both giraffes in hands holds 3 of 2."""
    states = judge([
        (position([["kangaroo:M"], ["giraffe:M"], [], [], []], hand_counts=[1, 2, 1]), OK),
        (load(0, "cat:F", 0), OK),
        (scan([], ["giraffe:M", "giraffe:F"], ["panda:M"]), "scan_mismatch"),
        (scan([], ["rhino:M", "giraffe:F"], ["panda:M"]), OK),
    ], hidden=True)
    assert states[-1]["round_scores"] == [0, 0, 4]


def test_r39_r41_shared_victory_in_the_26_variant() -> None:
    states = judge([(position([["kangaroo:M"], [], [], [], []],
                              [["cat:F"], ["panda:M"], ["bear:F"]], round=4,
                              scores=(5, 22, 5)), OK),
                    (load(0, "cat:F", 0), OK)], end_rule="score26")
    end = states[-1]
    assert (end["game_over"], sorted(end["winners"]), end["scores"]) == (True, [0, 2],
                                                                           [5, 26, 5])


def test_r44_r55_undo_gives_the_crocodile_tears_back() -> None:
    states = judge([(position([[], [], [], [], []], [["crocodile:M", "cat:M"], *OPPONENTS],
                              scores=(5, 0, 0)), OK),
                    (load(0, "crocodile:M", 0), OK), (undo(), OK)], crocodile=True)
    assert states[1]["scores"] == [3, 0, 0] and states[-1] == states[0]


@pytest.mark.parametrize(("players", "starter"), [(2, 1), (4, 3), (5, 4)])
def test_r5_r11_other_table_sizes_wrap_clockwise(players: int, starter: int) -> None:
    names = ("Ana", "Ben", "Chloé", "Dan", "Eve")[:players]
    ferries = ["cat:M", "cat:F", "kangaroo:M", "kangaroo:F", "parrot:M"]
    states = judge([(deal(ferries, hands=None, hand_counts=[8] * players, starter=starter), OK),
                    (load(starter, "parrot:F", 0), OK), (move(starter, 1), OK)],
                   players=names, hidden=True)
    assert states[-1]["current_player"] == 0
    assert states[-1]["hand_counts"] == [8] * (players - 1) + [7]


def test_r5_a_two_player_deal_with_known_hands() -> None:
    hands = [["woodpecker:M", "parrot:F", "snail", "cat:M", "panda:M", "lion:M", "bear:M",
              "rhino:M"],
             ["woodpecker:F", "parrot:M", "snail", "cat:F", "panda:F", "lion:F", "bear:F",
              "rhino:F"]]
    states = judge([(deal(hands=hands), OK), (load(0, "cat:M", 0), OK), (move(0, 3), OK),
                    (load(0, "parrot:F", 3), OK), (move(0, 4), OK)],
                   players=("Ana", "Ben"))
    assert states[-1]["current_player"] == 1


def test_r48_four_players_use_the_4plus_animals() -> None:
    """A 4-player game holds 4 pandas: two visible, two more can be loaded; the 5+ not."""
    players = ("Ana", "Ben", "Chloé", "Dan")
    ferries = [["panda:M"], ["panda:F"], ["panda:M"], [], []]
    judge([(position(ferries, hand_counts=[3, 2, 2, 2], scores=(0, 0, 0, 0)), OK),
           (load(0, "panda:F", 0), OK), (move(0, 1), OK),      # a pair: Ana plays again
           (load(0, "panda:M", 1), "card_unavailable")], players=players, hidden=True)


def test_r48_r45_a_fled_animal_is_in_a_hand_again_so_it_can_be_loaded() -> None:
    """Both giraffes visible; the bottom one flees to Ben, who may then load it."""
    states = judge([
        (position([["giraffe:M", "cat:M"], ["giraffe:F"], [], [], []], hand_counts=[4, 2, 2]),
         OK),
        (load(0, "crocodile:M", 0), OK), (flee(0, 1), OK), (move(0, 2), OK),
        (load(1, "giraffe:M", 2), OK),
    ], hidden=True, crocodile=True)
    assert states[2]["hand_counts"] == [3, 3, 2]


@pytest.mark.parametrize("card", ["giraffe:M", "giraffe:M#1"])
def test_r48_r54_animals_taken_back_are_in_a_hand_again(card: str) -> None:
    judge([(position([["giraffe:M#1", "cat:M"], [], ["giraffe:F"], [], []],
                     hand_counts=[4, 2, 2]), OK),
           (take_back(0, 0), OK), (load(0, card, 0), OK)], hidden=True)


def test_r6_a_frog_game_at_five_players_can_be_dealt() -> None:
    """Frogs replace the snails: 47 - 5 + 3 = 45 animals, exactly a 5-player deal."""
    players = ("Ana", "Ben", "Chloé", "Dan", "Eve")
    ferries = ["cat:M", "cat:F", "kangaroo:M", "kangaroo:F", "frog:M"]
    states = judge([(deal(ferries, hands=None, hand_counts=[8] * 5), OK)], players=players,
                   hidden=True, frog=True)
    assert states[0]["weights"][4] == 1


def test_notes_after_the_end_of_the_game_are_accepted() -> None:
    line = position([["kangaroo:M"], [], [], [], []], [["cat:F"], ["lion:F"], ["bear:M"]],
                    round=3)
    states = judge([(line, OK), (load(0, "cat:F", 0), OK),
                    ({"type": "note", "text": "good game"}, OK)])
    assert states[-1] == states[-2] and states[-1]["game_over"] is True


def test_r19_r31_a_giraffe_that_fills_the_ferry_may_look_before_noah_moves() -> None:
    hands = [["giraffe:M", "cat:M", "bear:M"], ["bear:F"], ["panda:M"]]
    states = judge([
        (position([["elephant:M", "kangaroo:M"], [], [], [], []], hands), OK),
        (load(0, "giraffe:M", 0), OK), (look(0, 2), OK), (move(0, 2), OK),
        (look(0, 2), "no_giraffe_effect"),
        (give(0, (1, "cat:M")), OK),
    ])
    assert (states[3]["departed"], states[3]["phase"]) == (1, "give")
    assert states[-1]["current_player"] == 1


def test_r19_r32_a_lion_that_fills_the_ferry_swaps_then_noah_then_gifts() -> None:
    hands = [["lion:M", "cat:M", "bear:M"], ["bear:F"], ["panda:M"]]
    states = judge([
        (position([["elephant:M", "kangaroo:M", "kangaroo:M"], [], [], [], []], hands), OK),
        (load(0, "lion:M", 0), OK),
        (move(0, 2), "must_lion_swap"),
        (swap(0, 1, "bear:F", "cat:M"), OK),
        (give(0, (1, "bear:F")), "must_move_noah"),
        (move(0, 2), OK),
        (give(0, (1, "bear:F")), OK),
    ])
    assert states[3]["departed"] == 0 and states[5]["departed"] == 1
    assert sorted(states[-1]["hands"][1]) == ["bear:F", "cat:M"]
    assert (states[-1]["phase"], states[-1]["current_player"]) == ("play", 1)


def test_r34_a_last_card_lion_that_fills_the_ferry() -> None:
    states = judge([
        (position([["elephant:M", "kangaroo:M", "kangaroo:M"], [], [], [], []],
                  [["lion:M"], ["bear:F"], ["panda:M"]]), OK),
        (load(0, "lion:M", 0), OK),
        (swap(0, 1, "bear:F", "bear:F"), "round_over"),
    ])
    assert (states[1]["departed"], states[1]["phase"]) == (1, "round_over")


@pytest.mark.parametrize(("ferry", "hand", "options"), [
    (["woodpecker:M", "elephant:M"], ["crocodile:M", "bear:M"], {}),   # woodpecker flees: 21
    (["crocodile:M", "cat:F"], ["crocodile:F", "cat:M"], {"roommates": True}),
])
def test_r25_r45_a_crocodile_legal_only_after_the_flight_forbids_the_take_back(
        ferry, hand, options) -> None:
    judge([(position([ferry, [], [], [], []], [hand, ["lion:F"], ["kangaroo:F"]]), OK),
           (take_back(0, 0), "take_back_not_allowed"),
           (load(0, hand[1], 0), "weight" if not options else "roommates"),
           (load(0, hand[0], 0), OK)], crocodile=True, **options)


def test_r25_only_a_woodpecker_over_13_allows_the_take_back() -> None:
    judge([(position([["elephant:M", "panda:M"], [], [], [], []],
                     [["woodpecker:M"], ["lion:F"], ["kangaroo:F"]]), OK),
           (take_back(0, 0), OK), (load(0, "woodpecker:M", 0), OK)])


def test_r25_r24_no_take_back_on_the_replacement_ferry_after_a_donkey() -> None:
    hands = [["donkey:F", "bear:M", "rhino:M"], ["elephant:F", "parrot:M"], ["lion:M"]]
    judge([(position([["elephant:M", "cat:F", "kangaroo:M"], [], [], [], []], hands), OK),
           (load(0, "donkey:F", 0), OK), (give(0, (1, "bear:M")), OK),
           (take_back(1, 0), "take_back_not_allowed")])


def test_r40_hidden_hands_the_game_ends_with_the_last_scan() -> None:
    states = judge([
        (position([["kangaroo:M"], [], [], [], []], hand_counts=[1, 1, 1], round=3,
                  scores=(2, 2, 2)), OK),
        (load(0, "cat:F", 0), OK),
        (scan([], ["bear:F"], ["panda:M"]), OK),
        (undo(), OK),
        (scan([], ["frog:F"], ["panda:M"]), "scan_mismatch"),   # no frog in this game
    ], hidden=True)
    assert (states[1]["phase"], states[1]["game_over"]) == ("scan", False)
    end = states[2]
    assert (end["phase"], end["game_over"], sorted(end["winners"])) == ("game_over", True, [0, 1])
    assert end["scores"] == [2, 2, 6]
    assert states[3] == states[1]


def test_r37_r5_a_scan_cannot_hold_an_animal_left_in_the_box() -> None:
    """A third panda exists only from 4 players on."""
    judge([(position([["kangaroo:M"], [], [], [], []], hand_counts=[1, 2, 1]), OK),
           (load(0, "cat:F", 0), OK),
           (scan([], ["panda:M", "panda:F"], ["panda:M"]), "scan_mismatch")], hidden=True)


def test_r47_two_snails_are_roommates_whatever_their_sides() -> None:
    judge([(position([["snail:M"], [], [], [], []], [["snail", "cat:M"], *OPPONENTS]), OK),
           (load(0, "snail", 0, "F"), "roommates")], roommates=True)


def test_r34_r45_a_last_card_crocodile_that_fills_the_ferry_after_the_flight() -> None:
    """Tears, flight (scored for Chloé), the departure is counted, no gifts, round over."""
    states = judge([
        (position([["parrot:M", "elephant:M", "kangaroo:M", "cat:M"], [], [], [], []],
                  [["crocodile:M"], ["lion:F"], ["kangaroo:F"]], scores=(1, 0, 0)), OK),
        (load(0, "crocodile:M", 0), OK), (flee(0, 2), OK),
    ], crocodile=True)
    end = states[-1]
    assert (end["phase"], end["departed"], end["gifts_owed"]) == ("round_over", 1, 0)
    assert end["round_scores"] == [0, 1, 3] and end["scores"] == [0, 1, 3]


def test_r51_r54_the_ferry_is_checked_before_the_tagged_copy() -> None:
    judge([(position([["elephant:M#1", "rhino:M"], [], [], [], []], hand_counts=[3, 3, 3]), OK),
           (load(0, "elephant:M#1", 2), "wrong_ferry"),
           (load(0, "elephant:M#1", 0), "card_already_on_table")], hidden=True)


@pytest.mark.parametrize(("ferry", "hand", "options", "expected"), [
    (["elephant:M", "kangaroo:M"], ["woodpecker:M", "panda:F"], {}, "take_back_not_allowed"),
    (["cat:M", "crocodile:M"], ["crocodile:F", "panda:F"],
     {"crocodile": True, "roommates": True}, OK),   # after the flight: two crocodiles
])
def test_r25_r17_r47_what_counts_as_a_legal_loading(ferry, hand, options, expected) -> None:
    judge([(position([ferry, [], [], [], []], [hand, ["lion:F"], ["lion:M"]]), OK),
           (take_back(0, 0), expected)], **options)


@pytest.mark.parametrize("hidden", [False, True])
def test_r12_r25_only_noahs_ferry_is_taken_back_by_the_player_to_act(hidden: bool) -> None:
    ferries = [["cat:M", "kangaroo:M"], ["cat:F"], [], [], []]
    line = (position(ferries, hand_counts=[1, 1, 1]) if hidden
            else position(ferries, [["panda:F"], ["lion:F"], ["lion:M"]]))
    judge([(line, OK), (take_back(0, 1), "wrong_ferry"), (take_back(1, 0), "not_your_turn"),
           (take_back(0, 0), OK)], hidden=hidden)


def test_r50_the_actor_is_checked_before_the_move() -> None:
    judge([(deal(), OK), (load(0, "parrot:F", 0), OK), (move(1, 3), "not_your_turn")])
