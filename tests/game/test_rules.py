"""The rules of Noah as the engine applies them, one ruling at a time (RULINGS.md R3-R47).

Positions are built with ``table`` (a ``position`` action): ferry contents by position, hands by
seat; Noah on position 0 and seat 0 (Ana) to play unless said otherwise.
"""

from __future__ import annotations

from companion.game import Options
from companion.game.actions import (
    CrocFlee,
    Gift,
    GiraffeLook,
    Give,
    LionSwap,
    MoveNoah,
    Play,
    TakeBack,
)
from tests.game.support import accepted, rejected, table


def kinds(verdict):
    return [event.kind for event in verdict.events]


# --- C. Turn ---------------------------------------------------------------------------------

def test_r11_play_passes_clockwise_to_the_left_neighbour():
    game = table({0: ("cat:F",)}, [("bear:M", "lion:M"), ("rhino:M",), ("cat:M",)])
    accepted(game, Play(0, "bear:M", 0), MoveNoah(0, 2))
    assert (game.current_player, game.noah, game.phase) == (1, 2, "play")


def test_r12_load_on_noahs_ferry_only_and_only_on_your_turn():
    game = table({0: ("cat:F",), 1: ("cat:M",)}, [("bear:M", "lion:M"), ("rhino:M",)])
    verdict = rejected(game, Play(0, "bear:M", 1), "wrong_ferry")
    assert verdict.message == "Noah is on ferry 1: load your animal there, not on ferry 2."
    rejected(game, Play(1, "rhino:M", 0), "not_your_turn")


def test_r12_r25_only_noahs_ferry_can_be_taken_back():
    game = table({0: ("cat:F",), 1: ("cat:M",)}, [("bear:M", "lion:M"), ("rhino:M",)])
    verdict = rejected(game, TakeBack(0, 1), "wrong_ferry")
    assert verdict.message == "Noah is on ferry 1: only that ferry can be taken back, not ferry 2."


def test_r13_a_ferry_with_one_card_takes_either_gender():
    for card in ("bear:M", "bear:F"):
        game = table({0: ("cat:F",)}, [(card, "lion:M"), ("rhino:M",)])
        accepted(game, Play(0, card, 0))


def test_r13_two_cards_of_one_gender_fix_that_gender():
    game = table({0: ("cat:F", "kangaroo:F")}, [("bear:M", "lion:F"), ("rhino:M",)])
    verdict = rejected(game, Play(0, "bear:M", 0), "gender")
    assert verdict.message == ("Ferry 1 takes only females: load a female, or take the ferry "
                               "back if you cannot.")
    accepted(game, Play(0, "lion:F", 0))


def test_r13_alternating_ferry_needs_the_opposite_of_its_top_card():
    game = table({2: ("cat:M", "kangaroo:F")}, [("bear:F", "lion:M"), ("rhino:M",)], noah=2)
    verdict = rejected(game, Play(0, "bear:F", 2), "gender")
    assert verdict.message == ("Ferry 3 alternates and its top card is female: load a male, or "
                               "take the ferry back if you cannot.")
    accepted(game, Play(0, "lion:M", 2))


def test_r14_snail_needs_a_declared_side_which_stays_on_that_ferry():
    game = table({0: ("cat:M", "kangaroo:F")}, [("snail", "lion:M"), ("rhino:M",)])
    rejected(game, Play(0, "snail", 0), "snail_gender_required")
    rejected(game, Play(0, "snail", 0, as_gender="F"), "gender")
    accepted(game, Play(0, "snail", 0, as_gender="M"))
    assert game.state()["ferries"][0] == ["cat:M", "kangaroo:F", "snail:M"]
    assert game.legal_noah_moves() == [2, 3]  # a male snail moves Noah like a male (R22)


def test_r8_r14_setup_snail_side_counts_for_the_sequence():
    game = table({0: ("snail:F", "cat:F")}, [("bear:M", "lion:F"), ("rhino:M",)])
    rejected(game, Play(0, "bear:M", 0), "gender")


def test_r14_snail_taken_back_loses_its_side():
    game = table({0: ("elephant:M", "snail:F")}, [("rhino:F", "bear:F"), ("cat:M",)])
    accepted(game, TakeBack(0, 0))
    assert game.state()["hands"][0] == ["rhino:F", "bear:F", "elephant:M", "snail"]
    rejected(game, Play(0, "snail", 0), "snail_gender_required")


def test_r15_weight_never_exceeds_21():
    game = table({0: ("elephant:M", "rhino:F")}, [("kangaroo:M", "cat:M"), ("bear:M",)])
    verdict = rejected(game, Play(0, "kangaroo:M", 0), "weight")
    assert "carries 19 of 21" in verdict.message
    accepted(game, Play(0, "cat:M", 0))


def test_r15_capacity_is_13_with_a_woodpecker_aboard():
    game = table({0: ("woodpecker:M", "elephant:F")}, [("panda:M", "kangaroo:M"), ("bear:M",)])
    assert game.state()["capacities"][0] == 13
    rejected(game, Play(0, "panda:M", 0), "weight")
    accepted(game, Play(0, "kangaroo:M", 0))  # 13 of 13: it will depart


def test_r16_no_woodpecker_on_a_ferry_above_13():
    game = table({0: ("elephant:M", "kangaroo:F", "cat:M")}, [("woodpecker:F", "bear:M"),
                                                            ("rhino:M",)])
    verdict = rejected(game, Play(0, "woodpecker:F", 0), "woodpecker_over_13")
    assert "already weighs 15" in verdict.message


def test_r16_second_woodpecker_keeps_capacity_13():
    game = table({0: ("woodpecker:M", "cat:F", "kangaroo:M")}, [("woodpecker:F", "bear:M"),
                                                               ("rhino:M",)])
    accepted(game, Play(0, "woodpecker:F", 0))
    assert game.state()["capacities"][0] == 13 and game.state()["weights"][0] == 5


def test_r17_woodpecker_on_exactly_13_departs():
    game = table({0: ("elephant:M", "kangaroo:F")}, [("woodpecker:M", "bear:M"), ("rhino:M",)])
    accepted(game, Play(0, "woodpecker:M", 0))
    verdict = accepted(game, MoveNoah(0, 2))
    assert kinds(verdict) == ["noah_moved", "departure", "gifts_owed"]
    assert game.state()["departed"] == 1 and game.pending["gifts_owed"] == 1


def test_r18_r19_ferry_at_capacity_departs_after_noah_moves_and_is_replaced():
    game = table({0: ("elephant:M", "rhino:F")}, [("cat:M", "bear:M"), ("lion:M",)])
    accepted(game, Play(0, "cat:M", 0))
    assert game.state()["weights"][0] == 21 and game.phase == "move_noah"
    verdict = accepted(game, MoveNoah(0, 3))
    assert verdict.events[1].params["cards"] == ("elephant:M", "rhino:F", "cat:M")
    state = game.state()
    assert state["ferries"][0] == [] and state["noah"] == 3
    assert (state["departed"], state["reserve"]) == (1, 2)
    assert state["departed_cards"] == ["elephant:M", "rhino:F", "cat:M"]
    assert verdict.message == ("Noah moves to ferry 4. Ferry 1 departs (departure 1 of 4). "
                               "Ana gives 1 card to an opponent.")


def test_r20_kth_departure_owes_k_cards_given_in_one_action():
    game = table({0: ("elephant:M", "rhino:F")},
                 [("cat:M", "bear:M", "lion:F", "panda:F"), ("lion:M",), ("kangaroo:M",)],
                 departed=1)
    accepted(game, Play(0, "cat:M", 0), MoveNoah(0, 2))
    assert game.pending == {"phase": "give", "player": 0, "gifts_owed": 2}
    rejected(game, Play(0, "bear:M", 2), "must_give_cards")
    rejected(game, Give(0, (Gift(1, "bear:M"),)), "gift_count")
    rejected(game, Give(0, (Gift(1, "bear:M"), Gift(1, "lion:F"), Gift(2, "panda:F"))),
             "gift_count")
    rejected(game, Give(0, (Gift(1, "bear:M"), Gift(1, "elephant:M"))), "card_not_in_hand")
    accepted(game, Give(0, (Gift(1, "bear:M"), Gift(2, "lion:F"))))
    assert game.state()["hands"] == [["panda:F"], ["lion:M", "bear:M"],
                                     ["kangaroo:M", "lion:F"]]
    assert game.current_player == 1


def test_r21_fewer_cards_than_owed_gives_all_and_ends_the_round():
    game = table({0: ("elephant:M", "rhino:F")}, [("cat:M", "bear:M", "lion:F"), ("lion:M",)],
                 departed=2)
    accepted(game, Play(0, "cat:M", 0), MoveNoah(0, 2))
    assert game.pending["gifts_owed"] == 2
    verdict = accepted(game, Give(0, (Gift(1, "bear:M"), Gift(1, "lion:F"))))
    assert "round_ended" in kinds(verdict) and game.phase == "round_over"
    assert game.state()["round_scores"] == [0, 2]  # two lions (1 each), a bear (0)


def test_r22_noah_moves_one_after_a_female_two_after_a_male():
    game = table({0: ("cat:F",)}, [("bear:F", "lion:M"), ("rhino:M",)])
    accepted(game, Play(0, "bear:F", 0))
    assert game.legal_noah_moves() == [1, 4]
    verdict = rejected(game, MoveNoah(0, 2), "noah_move_illegal")
    assert verdict.message == ("After a female, Noah moves to a neighbouring ferry: choose "
                               "ferry 2 or 5.")
    rejected(game, MoveNoah(0, 0), "noah_move_illegal")
    game = table({3: ("cat:F",)}, [("bear:M", "lion:M"), ("rhino:M",)], noah=3)
    accepted(game, Play(0, "bear:M", 3))
    assert game.legal_noah_moves() == [0, 1]
    verdict = rejected(game, MoveNoah(0, 4), "noah_move_illegal")
    assert verdict.message == "After a male, Noah moves two ferries away: choose ferry 1 or 2."


def test_r23_after_a_donkey_noah_stays_and_the_next_player_loads_there():
    game = table({0: ("cat:F",)}, [("donkey:M", "lion:M"), ("rhino:M", "kangaroo:F")])
    verdict = accepted(game, Play(0, "donkey:M", 0))
    assert kinds(verdict) == ["loaded", "turn"]
    assert (game.phase, game.current_player, game.noah) == ("play", 1, 0)
    rejected(game, MoveNoah(1, 1), "noah_move_illegal")  # R50: a loading is awaited
    rejected(game, Play(1, "rhino:M", 0), "gender")  # the donkey's gender counts (R13)
    accepted(game, Play(1, "kangaroo:F", 0))


def test_r24_after_a_departing_donkey_noah_stands_on_the_empty_replacement():
    game = table({0: ("elephant:M", "kangaroo:F", "cat:M")},
                 [("donkey:F", "lion:M", "cat:F"), ("rhino:M", "bear:F")])
    verdict = accepted(game, Play(0, "donkey:F", 0))
    assert kinds(verdict) == ["loaded", "departure", "gifts_owed"]
    accepted(game, Give(0, (Gift(1, "lion:M"),)))
    assert game.noah == 0 and game.state()["ferries"][0] == [] and game.current_player == 1
    accepted(game, Play(1, "bear:F", 0))


def test_r25_take_back_when_nothing_fits_then_load_any_card():
    game = table({0: ("elephant:M", "rhino:F")}, [("bear:M", "panda:F"), ("cat:M",)])
    assert not game.can_play()
    verdict = accepted(game, TakeBack(0, 0))
    assert verdict.message == "Ana took back the 2 animals of ferry 1."
    assert game.state()["hands"][0] == ["bear:M", "panda:F", "elephant:M", "rhino:F"]
    assert game.phase == "play" and game.current_player == 0
    verdict = accepted(game, Play(0, "rhino:F", 0))
    assert game.legal_noah_moves() == [1, 4]


def test_r25_take_back_refused_while_a_loading_exists_or_on_an_empty_ferry():
    game = table({0: ("elephant:M", "rhino:F")}, [("cat:M", "panda:F"), ("bear:M",)])
    verdict = rejected(game, TakeBack(0, 0), "take_back_not_allowed")
    assert "can still load" in verdict.message
    game = table({}, [("cat:M", "panda:F"), ("bear:M",)])
    rejected(game, TakeBack(0, 0), "take_back_not_allowed")


def test_r26_pair_bonus_same_species_any_gender_plays_again():
    game = table({0: ("cat:F",)}, [("cat:M", "lion:M"), ("rhino:M",)])
    accepted(game, Play(0, "cat:M", 0))
    verdict = accepted(game, MoveNoah(0, 2))
    assert kinds(verdict) == ["noah_moved", "pair_bonus"]
    assert verdict.message == "Noah moves to ferry 3. Pair of cats: Ana plays again."
    assert game.current_player == 0 and game.state()["extra_turn"]


def test_r26_pairs_chain_and_parrot_is_not_woodpecker():
    game = table({0: ("cat:F", "cat:F")},
                 [("cat:F", "lion:F"), ("rhino:M",), ("bear:M",), ("cat:M",)])
    accepted(game, Play(0, "cat:F", 0), MoveNoah(0, 1))
    assert game.current_player == 0  # the third cat earns the bonus again
    game = table({0: ("woodpecker:M",)}, [("parrot:F", "lion:F"), ("rhino:M",)])
    accepted(game, Play(0, "parrot:F", 0), MoveNoah(0, 1))
    assert game.current_player == 1


def test_r27_pair_needs_male_and_female_in_the_variant():
    options = Options(pair_mf=True)
    game = table({0: ("cat:F",)}, [("cat:F", "lion:F"), ("rhino:M",)], options=options)
    accepted(game, Play(0, "cat:F", 0), MoveNoah(0, 1))
    assert game.current_player == 1
    game = table({0: ("snail:F",)}, [("snail", "lion:F"), ("rhino:M",)], options=options)
    accepted(game, Play(0, "snail", 0, as_gender="M"), MoveNoah(0, 2))
    assert game.current_player == 0


def test_r28_a_pair_that_departs_keeps_the_bonus_after_the_gifts():
    game = table({0: ("elephant:F", "bear:F", "cat:F")}, [("cat:F", "lion:F", "lion:M"),
                                                         ("rhino:M",)])
    accepted(game, Play(0, "cat:F", 0), MoveNoah(0, 1))
    verdict = accepted(game, Give(0, (Gift(1, "lion:M"),)))
    assert kinds(verdict) == ["gifts", "pair_bonus"]
    assert (game.current_player, game.noah, game.phase) == (0, 1, "play")


def test_r29_no_pair_bonus_on_an_empty_ferry():
    game = table({0: ("elephant:M", "rhino:F")}, [("bear:M", "panda:F"), ("cat:M",)])
    accepted(game, TakeBack(0, 0), Play(0, "rhino:F", 0), MoveNoah(0, 1))
    assert game.current_player == 1


def test_r29_crocodile_left_alone_by_its_flight_earns_no_bonus():
    options = Options(crocodile=True)
    game = table({0: ("crocodile:M",)}, [("crocodile:F", "lion:F"), ("cat:M",)], options=options)
    accepted(game, Play(0, "crocodile:F", 0), CrocFlee(0, 1), MoveNoah(0, 1))
    assert game.current_player == 1


def test_r30_lion_swap_takes_then_gives_and_keeps_hand_sizes():
    game = table({0: ("cat:F",)}, [("lion:M", "bear:F"), ("rhino:M", "cat:M")])
    accepted(game, Play(0, "lion:M", 0))
    assert game.phase == "lion_swap"
    rejected(game, MoveNoah(0, 2), "must_lion_swap")
    rejected(game, LionSwap(0, 0, "bear:F", "bear:F"), "invalid_target")
    verdict = rejected(game, LionSwap(0, 1, "panda:F", "bear:F"), "card_not_in_hand")
    assert verdict.message.startswith("Ben has no ♀ panda in hand")
    rejected(game, LionSwap(0, 1, "rhino:M", "panda:F"), "card_not_in_hand")
    rejected(game, LionSwap(0, 1), "bad_action")
    accepted(game, LionSwap(0, 1, "rhino:M", "rhino:M"))  # giving back the drawn card is allowed
    assert game.state()["hands"] == [["bear:F"], ["cat:M", "rhino:M"]]
    assert game.phase == "move_noah"


def test_r31_giraffe_look_is_optional_once_and_only_before_noah_moves():
    game = table({0: ("cat:F",)}, [("giraffe:M", "bear:F"), ("rhino:M",), ("cat:M",)])
    rejected(game, GiraffeLook(0, 1), "no_giraffe_effect")
    accepted(game, Play(0, "giraffe:M", 0))
    rejected(game, GiraffeLook(0, 0), "invalid_target")
    rejected(game, GiraffeLook(1, 2), "not_your_turn")
    verdict = accepted(game, GiraffeLook(0, 2))
    assert verdict.message == "Ana looked at Chloé's hand."
    rejected(game, GiraffeLook(0, 1), "no_giraffe_effect")
    accepted(game, MoveNoah(0, 2))
    rejected(game, GiraffeLook(1, 0), "no_giraffe_effect")


def test_r32_giraffe_look_can_be_skipped():
    game = table({0: ("cat:F",)}, [("giraffe:M", "bear:F"), ("rhino:M",)])
    accepted(game, Play(0, "giraffe:M", 0), MoveNoah(0, 3))
    assert game.current_player == 1


# --- D. End of round -------------------------------------------------------------------------

def test_r33_r34_last_card_ends_the_round_at_once_without_noah_or_gifts():
    game = table({0: ("elephant:M", "rhino:F")}, [("cat:M",), ("panda:F", "lion:M")])
    verdict = accepted(game, Play(0, "cat:M", 0))
    assert kinds(verdict) == ["loaded", "departure", "round_ended", "round_scored"]
    state = game.state()
    assert state["departed"] == 1 and state["gifts_owed"] == 0 and state["noah"] == 0
    assert state["round_scores"] == [0, 5] and state["phase"] == "round_over"
    assert state["next_round_starter"] == 1


def test_r34_last_card_lion_or_giraffe_has_no_effect():
    for animal in ("lion:M", "giraffe:M"):
        game = table({0: ("cat:F",)}, [(animal,), ("panda:F",)])
        accepted(game, Play(0, animal, 0))
        assert game.phase == "round_over"


def test_r34_last_card_crocodile_still_scares_then_the_round_ends():
    game = table({0: ("panda:F", "cat:M")}, [("crocodile:F",), ("lion:M",)], scores=(5, 0),
                 options=Options(crocodile=True))
    accepted(game, Play(0, "crocodile:F", 0))
    assert game.phase == "croc_flee" and game.scores == (3, 0)
    verdict = accepted(game, CrocFlee(0, 1))
    assert "round_ended" in kinds(verdict)
    assert game.state()["round_scores"] == [0, 5]  # the fleeing panda scores for Ben


def test_r33_fourth_departure_ends_the_round_after_its_gifts():
    game = table({0: ("elephant:M", "rhino:F")},
                 [("cat:M", "bear:M", "lion:F", "panda:F", "kangaroo:F", "parrot:M"),
                  ("lion:M",)], departed=3)
    accepted(game, Play(0, "cat:M", 0), MoveNoah(0, 2))
    assert game.state()["ferries"][0] is None and game.state()["reserve"] == 0
    verdict = accepted(game, Give(0, tuple(Gift(1, card) for card in
                                          ("bear:M", "lion:F", "panda:F", "kangaroo:F"))))
    assert "round_ended" in kinds(verdict) and game.phase == "round_over"


def test_r35_pending_extra_turn_dies_with_the_round():
    game = table({0: ("cat:F",)}, [("cat:M",), ("panda:F",)], extra_turn=True)
    accepted(game, Play(0, "cat:M", 0))
    assert game.phase == "round_over" and not game.state()["extra_turn"]


# extra_turn through the steps of a turn (TABLE-LOG.md's extra_turn row): in the play step,
# "this turn is a pair-bonus extra turn"; in a later step, "this turn's loading earned a bonus".

def test_r26_extra_turn_play_step_says_this_turn_is_an_extra_turn():
    game = table({0: ("cat:F",)}, [("cat:M", "bear:M", "lion:M"), ("rhino:M",)])
    accepted(game, Play(0, "cat:M", 0))
    assert (game.phase, game.state()["extra_turn"]) == ("move_noah", True)  # earned a bonus
    accepted(game, MoveNoah(0, 2))
    assert game.pending == {"phase": "play", "player": 0, "ferry": 2, "extra_turn": True}


def test_r26_extra_turn_after_a_plain_loading_in_an_extra_turn_is_false():
    """The bear on an empty ferry during Ana's extra turn earns nothing: no longer true until
    Noah moves."""
    game = table({}, [("bear:M", "lion:M"), ("rhino:M",)], extra_turn=True)
    accepted(game, Play(0, "bear:M", 0))
    assert (game.phase, game.state()["extra_turn"]) == ("move_noah", False)
    accepted(game, MoveNoah(0, 2))
    assert (game.current_player, game.state()["extra_turn"]) == (1, False)


def test_r26_a_pair_in_an_extra_turn_earns_another():
    game = table({0: ("cat:F",)}, [("cat:M", "bear:M"), ("rhino:M",)], extra_turn=True)
    accepted(game, Play(0, "cat:M", 0))
    assert (game.phase, game.state()["extra_turn"]) == ("move_noah", True)


def test_r25_r29_extra_turn_take_back_keeps_the_turn_then_the_empty_ferry_earns_nothing():
    game = table({0: ("elephant:M", "rhino:F")}, [("cat:F", "panda:F"), ("lion:M",)],
                 extra_turn=True)
    accepted(game, TakeBack(0, 0))  # R25: the take-back is part of the same (extra) turn
    assert (game.phase, game.state()["extra_turn"]) == ("play", True)
    accepted(game, Play(0, "cat:F", 0))  # R29: nothing below on the emptied ferry
    assert (game.phase, game.state()["extra_turn"]) == ("move_noah", False)


def test_r30_extra_turn_in_the_lion_step_says_whether_the_lion_earned_a_bonus():
    plain = table({0: ("cat:F",)}, [("lion:M", "bear:M"), ("rhino:M",)], extra_turn=True)
    accepted(plain, Play(0, "lion:M", 0))
    assert (plain.phase, plain.state()["extra_turn"]) == ("lion_swap", False)
    pair = table({0: ("lion:F",)}, [("lion:M", "bear:M"), ("rhino:M",)])
    accepted(pair, Play(0, "lion:M", 0))
    assert (pair.phase, pair.state()["extra_turn"]) == ("lion_swap", True)


def test_r45_extra_turn_in_the_flight_step_reads_the_card_below_after_the_flight():
    options = Options(crocodile=True)
    plain = table({0: ("cat:M",)}, [("crocodile:F", "bear:M"), ("rhino:M",)],
                  extra_turn=True, options=options)
    accepted(plain, Play(0, "crocodile:F", 0))  # R29: alone after the flight
    assert (plain.phase, plain.state()["extra_turn"]) == ("croc_flee", False)
    pair = table({0: ("cat:M", "crocodile:M")}, [("crocodile:F", "bear:M"), ("rhino:M",)],
                 options=options)
    accepted(pair, Play(0, "crocodile:F", 0))  # R26: a crocodile lies below after the flight
    assert (pair.phase, pair.state()["extra_turn"]) == ("croc_flee", True)


def test_r20_r28_extra_turn_in_the_gift_step_says_whether_the_departing_loading_paired():
    plain = table({0: ("elephant:M", "rhino:M")}, [("cat:M", "bear:M", "lion:M"), ("rhino:F",)],
                  extra_turn=True)
    accepted(plain, Play(0, "cat:M", 0), MoveNoah(0, 2))
    assert (plain.phase, plain.state()["extra_turn"]) == ("give", False)
    accepted(plain, Give(0, (Gift(1, "bear:M"),)))
    assert plain.current_player == 1
    pair = table({0: ("elephant:M", "bear:M", "cat:M")}, [("cat:M", "lion:M", "panda:M"),
                                                          ("rhino:F",)])
    accepted(pair, Play(0, "cat:M", 0), MoveNoah(0, 2))
    assert (pair.phase, pair.state()["extra_turn"]) == ("give", True)  # R28: bonus kept
    accepted(pair, Give(0, (Gift(1, "lion:M"),)))
    assert (pair.phase, pair.current_player, pair.state()["extra_turn"]) == ("play", 0, True)


def test_r36_hands_score_their_tears():
    game = table({0: ("cat:F",)}, [("bear:M",), ("panda:F", "woodpecker:M", "snail", "lion:M")])
    accepted(game, Play(0, "bear:M", 0))
    assert game.state()["round_scores"] == [0, 4 + 2 + 2 + 1]


# --- F. Promo cards and variants -------------------------------------------------------------

def test_r43_frog_may_declare_the_weight_that_fills_the_ferry_exactly():
    options = Options(frog=True)
    game = table({0: ("elephant:M", "panda:F", "cat:M")}, [("frog:F", "lion:F"), ("bear:M",)],
                 options=options)  # 16 of 21
    rejected(game, Play(0, "frog:F", 0, frog_weight=3), "frog_weight_invalid")
    rejected(game, Play(0, "frog:F", 0, frog_weight=6), "frog_weight_invalid")
    rejected(game, Play(0, "frog:F", 0, frog_weight=0), "frog_weight_invalid")
    accepted(game, Play(0, "frog:F", 0, frog_weight=5))
    assert game.state()["weights"][0] == 21
    accepted(game, MoveNoah(0, 1))
    assert game.state()["departed"] == 1


def test_r43_frog_without_declaration_weighs_one():
    game = table({0: ("cat:M",)}, [("frog:M", "lion:F"), ("bear:M",)], options=Options(frog=True))
    accepted(game, Play(0, "frog:M", 0))
    assert game.state()["weights"][0] == 3 and game.legal_noah_moves() == [2, 3]
    rejected(table({0: ("cat:M",)}, [("cat:F", "lion:F"), ("bear:M",)]),
             Play(0, "cat:F", 0, frog_weight=2), "bad_action")


def test_r4_r44_crocodile_tears_lower_the_score_by_two_not_below_zero():
    options = Options(crocodile=True)
    for before, after in ((5, 3), (1, 0)):
        game = table({}, [("crocodile:M", "lion:F"), ("bear:M",)], scores=(before, 0),
                     options=options)
        verdict = accepted(game, Play(0, "crocodile:M", 0))
        assert game.scores == (after, 0) and "crocodile_tears" in kinds(verdict)
        assert game.phase == "move_noah"  # R46: an empty ferry, nobody flees


def test_r44_crocodile_left_in_hand_scores_no_tears():
    game = table({0: ("cat:F",)}, [("bear:M",), ("crocodile:M",)], options=Options(crocodile=True))
    accepted(game, Play(0, "bear:M", 0))
    assert game.state()["round_scores"] == [0, 0]


def test_r45_crocodile_scares_the_bottom_animal_to_a_named_opponent():
    game = table({0: ("cat:F", "bear:M")}, [("crocodile:M", "lion:F"), ("panda:M",),
                                            ("kangaroo:M",)], options=Options(crocodile=True))
    accepted(game, Play(0, "crocodile:M", 0))
    assert game.state()["ferries"][0] == ["bear:M", "crocodile:M"]
    assert game.pending == {"phase": "croc_flee", "player": 0, "fleeing": "cat:F"}
    verdict = rejected(game, MoveNoah(0, 2), "must_choose_flee_target")
    assert verdict.message.startswith("The crocodile scared the ♀ cat")
    rejected(game, CrocFlee(0, 0), "invalid_target")
    rejected(game, CrocFlee(0, 7), "invalid_target")
    rejected(game, CrocFlee(1, 2), "not_your_turn")
    verdict = accepted(game, CrocFlee(0, 2))
    assert verdict.message == "The ♀ cat fled to Chloé's hand."
    assert game.state()["hands"][2] == ["kangaroo:M", "cat:F"] and game.phase == "move_noah"


def test_r45_golden_rules_are_checked_after_the_flight():
    options = Options(crocodile=True)
    # A fleeing woodpecker brings the capacity back to 21: 10 + 6 fits.
    game = table({0: ("woodpecker:M", "elephant:F")}, [("crocodile:M", "lion:F"), ("bear:M",)],
                 options=options)
    accepted(game, Play(0, "crocodile:M", 0))
    assert game.state()["capacities"][0] == 21
    # The new second card redefines the pattern: bear:M, kangaroo:F alternate, top female.
    game = table({0: ("cat:F", "bear:M", "kangaroo:F")}, [("crocodile:F", "lion:F"), ("cat:M",)],
                 options=options)
    rejected(game, Play(0, "crocodile:F", 0), "gender")
    assert game.state()["ferries"][0] == ["cat:F", "bear:M", "kangaroo:F"]  # nothing fled


def test_r46_a_crocodile_that_fits_after_its_flight_forbids_the_take_back():
    game = table({0: ("elephant:M", "bear:F")}, [("crocodile:M", "panda:F"), ("cat:M",)],
                 options=Options(crocodile=True))  # 17: a 6 fits only once the elephant flees
    assert game.can_play()
    rejected(game, TakeBack(0, 0), "take_back_not_allowed")
    assert game.legal_actions() == [Play(0, "crocodile:M", 0)]


def test_r47_roommates_forbid_two_of_a_species_on_a_ferry():
    options = Options(roommates=True)
    game = table({0: ("cat:M", "bear:F")}, [("cat:M", "lion:M"), ("rhino:M",)], options=options)
    rejected(game, Play(0, "cat:M", 0), "roommates")
    accepted(game, Play(0, "lion:M", 0))
