"""The referee's behaviour: deals, hidden and known hands, sequencing, scans, rounds, game end,
undo, saving and score-only games (RULINGS.md R7-R10, R36-R42, R48-R55)."""

from __future__ import annotations

import random

import pytest

from companion.game import REASONS, Game, InputError, Options
from companion.game.actions import (
    CrocFlee,
    Gift,
    Give,
    LionSwap,
    MoveNoah,
    Play,
    Position,
    ScanHands,
    ScoreRound,
    StartRound,
    TakeBack,
)
from companion.game.deal import random_start_round
from tests.game.support import accepted, rejected, table

FERRIES = ("cat:F", "bear:M", "lion:M", "panda:F", "snail:M")


def hidden_game(players=2, **options) -> Game:
    game = Game(["Ana", "Ben", "Chloé", "Dan", "Eve"][:players], Options(hidden=True, **options))
    accepted(game, StartRound(noah=0, ferries=FERRIES, hand_counts=(8,) * players, starter=1))
    return game


# --- B. Setup --------------------------------------------------------------------------------

def test_game_needs_two_to_five_named_players():
    for names in (["Ana"], ["A", "B", "C", "D", "E", "F"], ["Ana", ""], ["Ana", "Ana"]):
        with pytest.raises(InputError):
            Game(names)


def test_r7_r10_start_round_sets_noah_ferries_hands_and_starter():
    game = hidden_game()
    state = game.state()
    assert state["ferries"] == [[card] for card in FERRIES]
    assert (state["noah"], state["current_player"], state["round_starter"]) == (0, 1, 1)
    assert state["hand_counts"] == [8, 8] and state["reserve"] == 3 and state["round"] == 1


@pytest.mark.parametrize(("change", "words"), [
    ({"noah": 5}, "Noah must stand"),
    ({"starter": None}, "needs its starter"),
    ({"ferries": FERRIES[:4]}, "exactly one animal"),
    ({"ferries": ("snail", *FERRIES[1:])}, "side up"),
    ({"ferries": ("donkey:M", "donkey:M", "donkey:F", "lion:F", "cat:M")}, "only 1 donkey:M"),
    ({"ferries": ("frog:M", *FERRIES[1:])}, "no frog:M in this game"),
    ({"hand_counts": (8, 7)}, "dealt 8 animals"),
    ({"hand_counts": None}, "hand_counts"),
])
def test_r7_r9_a_wrong_deal_is_setup_invalid(change, words):
    game = Game(["Ana", "Ben"], Options(hidden=True))
    deal = {"noah": 0, "ferries": FERRIES, "hand_counts": (8, 8), "starter": 0, **change}
    verdict = rejected(game, StartRound(**deal), "setup_invalid")
    assert words in verdict.message


def test_r9_known_deal_checks_every_card_against_the_deck():
    game = Game(["Ana", "Ben"])
    hands = (("cat:M#1",) * 2 + ("bear:M",) * 6, ("lion:M",) * 8)
    verdict = rejected(game, StartRound(0, FERRIES, hands=hands, starter=0), "setup_invalid")
    assert "appears twice" in verdict.message
    accepted(game, random_start_round(game, random.Random(1)))


def test_position_opens_a_log_only():
    game = hidden_game()
    position = Position(1, 0, 0, 0, ((),) * 5, 0, (0, 0), hand_counts=(8, 8))
    rejected(game, position, "setup_invalid")


def test_position_hands_cannot_be_empty_mid_round():
    game = Game(["Ana", "Ben"], Options(hidden=True))
    position = Position(1, 0, 0, 0, ((),) * 5, 0, (0, 0), hand_counts=(8, 0))
    assert "holds a card" in rejected(game, position, "setup_invalid").message
    position = Position(1, 0, 0, 0, ((),) * 5, 0, (0, 0), hand_counts=(8, 8),
                        departed_cards=("cat:F",))
    assert "no ferry has departed" in rejected(game, position, "setup_invalid").message


@pytest.mark.parametrize(("ferry", "words"), [
    (("elephant:M", "rhino:F", "cat:M"), "is full"),
    (("cat:F", "cat:F", "bear:M"), "breaks the gender rule"),
])
def test_position_ferries_obey_the_golden_rules(ferry, words):
    game = Game(["Ana", "Ben"], Options(hidden=True))
    position = Position(1, 0, 0, 0, (ferry,) + ((),) * 4, 0, (0, 0), hand_counts=(8, 8))
    assert words in rejected(game, position, "setup_invalid").message


# --- R48: hidden hands -----------------------------------------------------------------------

def test_r48_hidden_hands_count_cards_and_accept_any_plausible_card():
    game = hidden_game()
    accepted(game, Play(1, "kangaroo:M", 0))
    assert game.state()["hand_counts"] == [8, 7] and "hands" not in game.state()


def test_r48_card_unavailable_when_every_copy_is_visible():
    game = table({0: ("giraffe:F",), 1: ("giraffe:M",)}, counts=[5, 5])
    verdict = rejected(game, Play(0, "giraffe:M", 0), "card_unavailable")
    assert verdict.message.startswith("Every giraffe of this game is already")
    game = table({0: ("bear:F",)}, counts=[5, 5], departed=1,
                 departed_cards=("elephant:M", "rhino:F", "bear:M", "cat:M"))
    rejected(game, Play(0, "bear:M", 0), "card_unavailable")


def test_r48_unknown_card_for_species_not_in_this_game():
    game = table({0: ("cat:F",)}, counts=[5, 5], options=Options(hidden=True, frog=True))
    verdict = rejected(game, Play(0, "snail", 0, as_gender="M"), "unknown_card")
    assert "frogs replace the snails" in verdict.message
    game = table({0: ("cat:F",)}, counts=[5, 5])
    rejected(game, Play(0, "crocodile:M", 0), "unknown_card")
    rejected(game, Play(0, "cat:F#5", 0), "unknown_card")  # no such copy at 2 players


def test_r48_take_back_cannot_be_verified_and_is_accepted():
    game = table({0: ("cat:F", "bear:M")}, counts=[5, 5])
    accepted(game, TakeBack(0, 0))
    assert game.state()["hand_counts"] == [7, 5] and game.state()["ferries"][0] == []


def test_r48_gifts_and_lion_swaps_are_counts_and_targets():
    game = table({0: ("elephant:M", "rhino:F")}, counts=[5, 5, 5])
    accepted(game, Play(0, "cat:M", 0), MoveNoah(0, 2), Give(0, (Gift(2),)))
    assert game.state()["hand_counts"] == [3, 5, 6]
    game = table({0: ("cat:F",)}, counts=[5, 5])
    accepted(game, Play(0, "lion:M", 0), LionSwap(0, 1))
    assert game.state()["hand_counts"] == [4, 5]


def test_r49_known_hands_refuse_cards_not_in_hand():
    game = table({0: ("cat:F",)}, [("bear:M", "lion:M"), ("rhino:M",)])
    verdict = rejected(game, Play(0, "rhino:M", 0), "card_not_in_hand")
    assert verdict.message == "Ana has no ♂ rhino in hand: choose a card from that hand."


def test_r54_a_tagged_copy_already_on_the_table_is_refused():
    game = table({0: ("cat:F#2",)}, counts=[5, 5], departed=1,
                 departed_cards=("elephant:M#1", "rhino:F#1", "bear:M#1", "cat:M#2"))
    rejected(game, Play(0, "cat:F#2", 0), "card_already_on_table")
    rejected(game, Play(0, "cat:M#2", 0), "card_already_on_table")
    accepted(game, Play(0, "cat:F#1", 0))
    assert game.state()["ferries"][0] == ["cat:F#2", "cat:F#1"]


def test_tagged_and_untagged_copies_match_in_known_hands():
    game = table({0: ("bear:F",)}, [("cat:M#1", "lion:M"), ("rhino:M",)])
    accepted(game, Play(0, "cat:M", 0))
    assert game.state()["ferries"][0] == ["bear:F", "cat:M#1"]
    game = table({0: ("bear:F",)}, [("cat:M", "lion:M"), ("rhino:M",)])
    accepted(game, Play(0, "cat:M#2", 0))
    assert game.state()["ferries"][0] == ["bear:F", "cat:M#2"]
    game = table({0: ("bear:F",)}, [("cat:M#1", "lion:M"), ("rhino:M",)])
    rejected(game, Play(0, "cat:M#2", 0), "card_not_in_hand")


# --- R37: the round-end scan -----------------------------------------------------------------

def scan_ready_game() -> Game:
    game = table({0: ("elephant:M", "rhino:F")}, counts=[1, 3])
    accepted(game, Play(0, "cat:M", 0))
    assert game.phase == "scan" and game.current_player is None
    return game


def test_r37_scan_scores_the_hidden_hands():
    game = scan_ready_game()
    rejected(game, Play(1, "cat:F", 3), "must_scan_hands")
    verdict = accepted(game, ScanHands(((), ("panda:F", "snail", "bear:M"))))
    assert game.state()["round_scores"] == [0, 6] and game.phase == "round_over"
    assert verdict.message == "Scores: Ana 0, Ben 6."


@pytest.mark.parametrize(("hands", "words"), [
    (((), ("panda:F", "snail")), "should hold 3 cards"),
    (((),), "lists 1 hands for 2 players"),
    (((), ("elephant:M", "elephant:M", "cat:F")), "only 1 elephant:M"),
    (((), ("rhino:M", "rhino:F", "cat:F")), "only 1 rhino:F"),  # one rhino:F is gone
    (((), ("cat:F#1", "cat:F#1", "bear:M")), "appears twice"),
    (((), ("cat:F", "bear:M", "crocodile:M")), "no crocodile:M in this game"),
])
def test_r37_scan_mismatch(hands, words):
    verdict = rejected(scan_ready_game(), ScanHands(hands), "scan_mismatch")
    assert words in verdict.message


# --- R50, R51: sequencing and order of checks -------------------------------------------------

def test_r50_each_step_names_what_it_awaits():
    game = table({0: ("cat:F",)}, [("lion:M", "giraffe:M", "bear:M"), ("rhino:M", "cat:M")])
    rejected(game, MoveNoah(1, 2), "noah_move_illegal")  # kind before actor
    rejected(game, LionSwap(0, 1, "rhino:M", "bear:M"), "must_play")
    rejected(game, Give(0, (Gift(1, "bear:M"),)), "must_play")
    rejected(game, CrocFlee(0, 1), "must_play")
    rejected(game, ScanHands(((), ())), "must_play")
    rejected(game, StartRound(0, FERRIES, hands=((),) * 2), "must_play")
    accepted(game, Play(0, "lion:M", 0))
    rejected(game, Play(1, "cat:M", 0), "must_lion_swap")  # kind before actor
    accepted(game, LionSwap(0, 1, "cat:M", "cat:M"))
    rejected(game, Play(0, "bear:M", 0), "must_move_noah")
    rejected(game, MoveNoah(1, 2), "not_your_turn")
    verdict = rejected(game, TakeBack(0, 0), "must_move_noah")
    assert verdict.message == "Ana must first move Noah: to ferry 3 or 4."


def test_r50_round_over_and_game_over():
    game = Game(["Ana", "Ben"])
    verdict = rejected(game, Play(0, "cat:F", 0), "round_over")
    assert verdict.message == "No round is being played: deal the cards and start round 1."
    game = table({0: ("cat:F",)}, [("bear:M",), ("rhino:M",)], round=3)
    accepted(game, Play(0, "bear:M", 0))
    assert game.is_over
    rejected(game, Play(1, "rhino:M", 0), "game_over")
    rejected(game, StartRound(0, FERRIES, hands=((),) * 2), "game_over")


@pytest.mark.parametrize(("play", "reason"), [
    (Play(1, "dragon:M", 3), "not_your_turn"),  # actor before ferry
    (Play(0, "snail", 3), "wrong_ferry"),  # ferry before card
    (Play(0, "crocodile:M", 0), "unknown_card"),  # unknown before not in hand
    (Play(0, "snail", 0), "snail_gender_required"),
    (Play(0, "kangaroo:F", 0), "card_not_in_hand"),  # before weight and gender
    (Play(0, "woodpecker:F", 0), "woodpecker_over_13"),  # instead of weight
    (Play(0, "panda:M", 0), "weight"),  # weight before gender
    (Play(0, "cat:M", 0), "gender"),  # gender before roommates
    (Play(0, "cat:x", 0), "bad_action"),
])
def test_r51_checks_on_a_loading_come_in_order(play, reason):
    game = table({0: ("elephant:M", "cat:F", "bear:M")},
                 [("woodpecker:F", "panda:M", "cat:M", "snail"), ("rhino:M",)],
                 options=Options(roommates=True))
    rejected(game, play, reason)


def test_r52_gift_targets_are_opponents():
    game = table({0: ("elephant:M", "rhino:F")}, [("cat:M", "bear:M", "lion:F"), ("lion:M",)])
    accepted(game, Play(0, "cat:M", 0), MoveNoah(0, 2))
    rejected(game, Give(0, (Gift(0, "bear:M"),)), "invalid_target")
    rejected(game, Give(0, (Gift(2, "bear:M"),)), "invalid_target")


@pytest.mark.parametrize("action", [
    Play("0", "cat:F", 0), Play(0, 3, 0), TakeBack(0, None), MoveNoah(0, "1"),
    Give(0, [Gift(1)]), ScoreRound((1, 2)), "play",
])
def test_malformed_actions_are_bad_action(action):
    game = table({0: ("cat:F",)}, [("bear:M", "lion:M"), ("rhino:M",)])
    rejected(game, action, "bad_action")


def test_every_reason_code_has_a_message_template():
    codes = {code.split(".")[0] for code in REASONS}
    assert codes == {
        "not_your_turn", "wrong_ferry", "unknown_card", "snail_gender_required",
        "card_not_in_hand", "card_unavailable", "card_already_on_table", "woodpecker_over_13",
        "frog_weight_invalid", "weight", "gender", "roommates", "take_back_not_allowed",
        "noah_move_illegal", "invalid_target", "gift_count", "no_giraffe_effect", "must_play",
        "must_choose_flee_target", "must_lion_swap", "must_move_noah", "must_give_cards",
        "must_scan_hands", "round_over", "game_over", "scan_mismatch", "setup_invalid",
        "bad_action"}


# --- R38-R42: rounds and game end ------------------------------------------------------------

def test_r38_r39_next_round_keeps_scores_and_is_started_by_the_highest_score():
    game = table({0: ("cat:F",)}, [("bear:M",), ("panda:F",), ("lion:M",)], scores=(1, 2, 5),
                 starter=0)
    accepted(game, Play(0, "bear:M", 0))
    assert game.scores == (1, 6, 6) and game.state()["next_round_starter"] == 1
    wrong = random_start_round(game, random.Random(2))
    wrong = StartRound(wrong.noah, wrong.ferries, wrong.hands, starter=2)
    assert "started by Ben" in rejected(game, wrong, "setup_invalid").message
    accepted(game, random_start_round(game, random.Random(2)))
    state = game.state()
    assert (state["round"], state["current_player"], state["round_starter"]) == (2, 1, 1)
    assert game.scores == (1, 6, 6) and state["departed"] == 0


def test_r40_three_rounds_lowest_score_wins_ties_share():
    game = table({0: ("cat:F",)}, [("bear:M",), ("panda:F",), ("lion:M",)], scores=(3, 0, 2),
                 round=3)
    verdict = accepted(game, Play(0, "bear:M", 0))
    assert game.is_over and game.winners == (0, 2) and game.state()["winners"] == [0, 2]
    assert verdict.events[-1].message == "Game over: Ana and Chloé won."


def test_r41_score26_ends_at_26_or_more_without_a_round_limit():
    options = Options(end_rule="score26")
    game = table({0: ("cat:F",)}, [("bear:M",), ("panda:F",)], scores=(3, 21), round=5,
                 options=options)
    accepted(game, Play(0, "bear:M", 0))
    assert game.phase == "round_over"  # 25
    game = table({0: ("cat:F",)}, [("bear:M",), ("panda:F", "lion:M")], scores=(3, 21),
                 round=5, options=options)
    accepted(game, Play(0, "bear:M", 0))
    assert game.is_over and game.winners == (0,)  # 26


def test_score_only_games_follow_the_same_end_and_starter_rules():
    game = Game(["Ana", "Ben", "Chloé"], Options(score_only=True))
    rejected(game, Play(0, "cat:F", 0), "bad_action")
    rejected(game, ScoreRound((1, 2)), "bad_action")
    rejected(game, ScoreRound((1, -2, 0)), "bad_action")
    accepted(game, ScoreRound((4, 9, 9), starter=2))
    state = game.state()
    assert state["scores"] == [4, 9, 9] and state["next_round_starter"] == 1
    assert state["round"] == 1 and state["phase"] == "round_over"
    rejected(game, ScoreRound((0, 0, 0), starter=0), "setup_invalid")
    accepted(game, ScoreRound((0, 0, 0)), ScoreRound((1, 0, 0)))
    assert game.is_over and game.winners == (0,) and game.scores == (5, 9, 9)
    rejected(game, ScoreRound((0, 0, 0)), "game_over")
    assert Game.from_json(game.to_json()).state() == game.state()


# --- R53, R55: refusals change nothing, undo restores exactly ---------------------------------

def random_game(seed: int, options: Options, players: int = 4, actions: int = 10_000) -> Game:
    rng = random.Random(seed)
    game = Game(["Ana", "Ben", "Chloé", "Dan", "Eve"][:players], options)
    for _ in range(actions):
        if game.is_over:
            break
        if game.phase == "round_over":
            accepted(game, random_start_round(game, rng))
        else:
            choices = game.legal_actions()
            assert choices, game.state()
            accepted(game, rng.choice(choices))
    return game


@pytest.mark.parametrize(("seed", "options", "players"), [
    (1, Options(), 4), (2, Options(frog=True, roommates=True), 3),
    (3, Options(crocodile=True, pair_mf=True, end_rule="score26"), 5), (4, Options(), 2),
])
def test_random_known_hand_games_end_with_only_legal_actions(seed, options, players):
    game = random_game(seed, options, players)
    assert game.is_over and game.winners
    assert game.state()["round"] >= 3


def test_legal_actions_are_exactly_the_accepted_loadings():
    game = table({0: ("cat:F", "kangaroo:M")}, [("snail", "bear:F", "bear:M", "panda:F",
                                                  "elephant:M", "woodpecker:M"), ("lion:M",)])
    legal = game.legal_actions()
    assert set(legal) == {Play(0, "snail", 0, "F"), Play(0, "bear:F", 0), Play(0, "panda:F", 0)}
    for card in ("bear:M", "elephant:M", "woodpecker:M"):
        assert not game.check(Play(0, card, 0)).accepted


def test_r55_undo_restores_every_earlier_state_across_rounds():
    rng = random.Random(5)
    game = Game(["Ana", "Ben", "Chloé"], Options(crocodile=True))
    states = [game.state()]
    while not game.is_over:
        action = (random_start_round(game, rng) if game.phase == "round_over"
                  else rng.choice(game.legal_actions()))
        accepted(game, action)
        states.append(game.state())
    assert game.round == 3
    while game.history:
        states.pop()
        game.pop()
        assert game.state() == states[-1]
    with pytest.raises(IndexError):
        game.pop()


def test_r55_pop_returns_the_action_and_allows_replaying_it():
    game = table({0: ("elephant:M", "rhino:F")}, [("cat:M", "bear:M"), ("lion:M",)])
    accepted(game, Play(0, "cat:M", 0), MoveNoah(0, 2))
    assert game.pop() == MoveNoah(0, 2)
    assert game.state()["weights"][0] == 21 and game.phase == "move_noah"
    accepted(game, MoveNoah(0, 3))


def test_check_judges_without_changing_anything():
    game = table({0: ("cat:F",)}, [("bear:M", "lion:M"), ("rhino:M",)])
    before = game.state()
    assert game.check(Play(0, "bear:M", 0)).accepted
    assert game.check(Play(0, "bear:M", 0)).message == "Ana loaded the ♂ bear on ferry 1."
    assert game.state() == before and len(game.history) == 1


def test_json_round_trip_keeps_state_history_and_undo():
    game = random_game(7, Options(frog=True), players=3, actions=60)
    copy = Game.from_json(game.to_json())
    assert copy.state() == game.state() and copy.history == game.history
    assert copy.pop() == game.pop() and copy.state() == game.state()
    twin = game.copy()
    twin.pop()
    assert twin.history != game.history
    with pytest.raises(InputError, match="cannot be read"):
        Game.from_json("{not json")


def test_hidden_hands_every_enumerated_action_is_accepted():
    rng = random.Random(11)
    game = Game(["Ana", "Ben", "Chloé"], Options(hidden=True, crocodile=True))
    accepted(game, random_start_round(game, rng))
    while game.phase != "scan":
        legal = game.legal_actions()
        assert legal and all(game.check(action).accepted for action in legal)
        accepted(game, rng.choice(legal))
    assert game.legal_actions() == [] and sum(game.state()["hand_counts"]) > 0


def as_table_sees_it(action, players: int):
    """The action as a hidden-hands referee records it: no card names in hands (R48)."""
    if isinstance(action, LionSwap):
        return LionSwap(action.player, action.target)
    if isinstance(action, Give):
        return Give(action.player, tuple(Gift(gift.to) for gift in action.gifts))
    if isinstance(action, StartRound):
        return StartRound(action.noah, action.ferries, hand_counts=(8,) * players,
                          starter=action.starter)
    return action


@pytest.mark.parametrize(("seed", "options"), [
    (21, Options()), (22, Options(crocodile=True, frog=True)), (23, Options(roommates=True)),
])
def test_r37_r48_hidden_referee_agrees_with_known_hands(seed, options):
    """A hidden-hands game fed what a camera sees reaches the same states and scores."""
    rng = random.Random(seed)
    players = 3
    known = Game(["Ana", "Ben", "Chloé"], options)
    hidden = Game(["Ana", "Ben", "Chloé"], Options(**{**options.to_dict(), "hidden": True}))
    while not known.is_over:
        action = (random_start_round(known, rng) if known.phase == "round_over"
                  else rng.choice(known.legal_actions()))
        accepted(known, action)
        accepted(hidden, as_table_sees_it(action, players))
        if hidden.phase == "scan":
            assert hidden.legal_actions() == []
            accepted(hidden, ScanHands(tuple(tuple(hand) for hand in known.state()["hands"])))
        expected = known.state()
        del expected["hands"]
        assert hidden.state() == expected


@pytest.mark.parametrize(("seed", "options"), [
    (31, Options()), (32, Options(frog=True, roommates=True)),
    (33, Options(crocodile=True, pair_mf=True)),
])
def test_enumerated_loadings_agree_with_the_judge(seed, options):
    """R25, R51: a loading is in legal_actions() exactly when push would accept it."""
    rng = random.Random(seed)
    game = Game(["Ana", "Ben", "Chloé", "Dan"], options)
    while not game.is_over:
        if game.phase == "round_over":
            accepted(game, random_start_round(game, rng))
            continue
        legal = game.legal_actions()
        if game.phase == "play":
            player, noah = game.current_player, game.noah
            for card in set(game.state()["hands"][player]):
                sides = ("M", "F") if card == "snail" else (None,)
                weights = range(1, 6) if card.startswith("frog") else (None,)
                for side in sides:
                    for weight in weights:
                        play = Play(player, card, noah, side, weight)
                        # a frog of weight 1 is listed without a declaration
                        listed = Play(player, card, noah, side, None if weight == 1 else weight)
                        assert game.check(play).accepted == (listed in legal), play
            assert (TakeBack(player, noah) in legal) == (not game.can_play()
                                                         and bool(game.state()["ferries"][noah]))
        accepted(game, rng.choice(legal))
