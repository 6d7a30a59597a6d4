"""Conformance: ends of rounds, scoring, next starter, end of game, undo (R33-R42, R55).

Table logs written from ../shared/RULINGS.md, judged through the public replay path.
"""

from __future__ import annotations

import pytest

from tests.conformance.table import (
    FERRIES,
    HANDS,
    OK,
    deal,
    flee,
    give,
    judge,
    load,
    look,
    move,
    note,
    position,
    replay_lines,
    scan,
    swap,
    undo,
)

EMPTY5: list[list[str]] = [[], [], [], [], []]


def _last_card(card: str, ferry: list[str], others=(["lion:F", "bear:F"], ["panda:M"]),
               scores=(0, 0, 0), round: int = 1, **options) -> list[dict]:
    """Ana loads her last card ``card`` on ferry 1 holding ``ferry``."""
    line = position([ferry, [], [], [], []], [[card], *others], scores=scores, round=round)
    return judge([(line, OK), (load(0, card, 0), OK)], **options)


# -- the round ends at once (R33, R34, R35) -----------------------------------------------------

def test_r34_last_card_ends_the_round_at_once_without_noah_move() -> None:
    states = _last_card("cat:F", ["kangaroo:M"])
    end = states[-1]
    assert (end["phase"], end["round_over"], end["noah"]) == ("round_over", True, 0)
    assert end["round_scores"] == [0, 1, 4] and end["scores"] == [0, 1, 4]   # R36
    assert end["next_round_starter"] == 2   # R39: highest score


@pytest.mark.parametrize("after", [move(0, 1), look(0, 1), swap(0, 1, "lion:F", "lion:F"),
                                   give(0, (1, "cat:F")), load(1, "bear:F", 0)])
def test_r33_nothing_is_played_after_the_end_of_the_round(after) -> None:
    states = _last_card("giraffe:F", ["kangaroo:M"])
    rest = judge([(position([["kangaroo:M"], [], [], [], []],
                            [["giraffe:F"], ["lion:F", "bear:F"], ["panda:M"]]), OK),
                  (load(0, "giraffe:F", 0), OK), (after, "round_over")])
    assert rest[-1] == states[-1]


def test_r34_last_card_lion_swap_is_skipped() -> None:
    end = _last_card("lion:M", ["kangaroo:F"])[-1]
    assert end["phase"] == "round_over" and end["hands"][1] == ["lion:F", "bear:F"]


def test_r34_last_card_departure_is_counted_without_gifts() -> None:
    end = _last_card("cat:M", ["elephant:M", "rhino:M"])[-1]
    assert (end["departed"], end["reserve"], end["gifts_owed"]) == (1, 2, 0)
    assert end["ferries"][0] == [] and end["phase"] == "round_over"
    assert end["hand_counts"] == [0, 2, 1]


def test_r34_r35_last_card_pair_earns_no_extra_turn() -> None:
    end = _last_card("cat:F", ["cat:M"])[-1]
    assert (end["phase"], end["extra_turn"]) == ("round_over", False)


def test_r34_r44_last_card_crocodile_still_cries_and_frightens() -> None:
    """Tears at once (3 -> 1), then the fleeing cat:F goes to Ben and is scored for him."""
    states = _last_card("crocodile:M", ["cat:F", "kangaroo:M"], others=(["lion:F"], ["panda:M"]),
                        scores=(3, 0, 0), crocodile=True)
    loaded = states[-1]
    assert (loaded["phase"], loaded["scores"][0]) == ("croc_flee", 1)
    end = judge([(position([["cat:F", "kangaroo:M"], [], [], [], []],
                           [["crocodile:M"], ["lion:F"], ["panda:M"]], scores=(3, 0, 0)), OK),
                 (load(0, "crocodile:M", 0), OK), (move(0, 2), "must_choose_flee_target"),
                 (flee(0, 1), OK)], crocodile=True)[-1]
    assert (end["phase"], end["round_over"]) == ("round_over", True)
    assert end["round_scores"] == [0, 2, 4] and end["scores"] == [1, 2, 4]
    assert end["ferries"][0] == ["kangaroo:M", "crocodile:M"]


def test_r33_the_fourth_departure_ends_the_round_after_its_gifts() -> None:
    hands = [["cat:M", "lion:M", "rhino:F", "bear:M", "panda:F", "kangaroo:F"], ["lion:F"],
             ["panda:M"]]
    states = judge([
        (position([["elephant:M", "rhino:M"], [], [], [], []], hands, departed=3), OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK),
        (give(0, (1, "lion:M"), (1, "rhino:F"), (2, "bear:M"), (2, "panda:F")), OK),
        (load(1, "lion:F", 2), "round_over"),
    ])
    moved, end = states[2], states[3]
    assert (moved["departed"], moved["reserve"], moved["gifts_owed"]) == (4, 0, 4)
    assert moved["ferries"][0] is None and moved["weights"][0] is None
    assert (end["phase"], end["round_over"], end["hand_counts"]) == ("round_over", True, [1, 3, 3])
    # R36: Ana kangaroo 1; Ben lion, lion, rhino 1+1+0; Chloé panda, bear, panda 4+0+4
    assert end["round_scores"] == [1, 2, 8]


# -- hidden hands: the round-end scan (R37) -----------------------------------------------------

def _hidden_round_end() -> list:
    """Ana loads her last card; Ben holds 2 cards, Chloé 1: the referee awaits the scan."""
    return [(position([["kangaroo:M"], [], [], [], []], hand_counts=[1, 2, 1]), OK),
            (load(0, "cat:F", 0), OK)]


@pytest.mark.parametrize(("hands", "expected"), [
    ([[], ["lion:F", "bear:F"], ["panda:M"]], OK),
    ([[], ["lion:F"], ["panda:M"]], "scan_mismatch"),                  # Ben has 2
    ([["cat:M"], ["lion:F", "bear:F"], ["panda:M"]], "scan_mismatch"),  # Ana has none
    ([[], ["elephant:M", "bear:F"], ["elephant:M"]], "scan_mismatch"),  # one elephant:M only
    ([[], ["kangaroo:M", "bear:F"], ["panda:M"]], OK),                  # the 3 others are free
    ([[], ["lion:F", "bear:F"]], "scan_mismatch"),                      # a seat is missing
])
def test_r37_the_scan_holds_each_known_count_and_nothing_beyond_the_deck(hands,
                                                                          expected) -> None:
    states = judge([*_hidden_round_end(), (scan(*hands), expected)], hidden=True)
    if expected is OK:
        end = states[-1]
        assert (end["phase"], end["round_over"]) == ("round_over", True)
        tears = {"lion:F": 1, "bear:F": 0, "panda:M": 4, "kangaroo:M": 1}
        assert end["round_scores"] == [sum(tears[card] for card in hand) for hand in hands]
    else:
        assert states[-1] == states[-2]


def test_r37_r50_the_scan_is_awaited_before_anything_else() -> None:
    states = judge([
        *_hidden_round_end(),
        (load(1, "lion:F", 0), "must_scan_hands"),
        (deal(hands=None, hand_counts=[8, 8, 8], starter=None), "must_scan_hands"),
        (scan([], ["lion:F", "bear:F"], ["panda:M"]), OK),
        (scan([], ["lion:F", "bear:F"], ["panda:M"]), "round_over"),
    ], hidden=True)
    assert states[1]["phase"] == "scan" and states[1]["round_over"] is True


def test_r37_scan_is_for_hidden_hands_only() -> None:
    judge([(position([["kangaroo:M"], [], [], [], []],
                     [["cat:F"], ["lion:F", "bear:F"], ["panda:M"]]), OK),
           (load(0, "cat:F", 0), OK),
           (scan([], ["lion:F", "bear:F"], ["panda:M"]), "round_over")])


# -- next round (R38, R39) ----------------------------------------------------------------------

@pytest.mark.parametrize(("starter", "scores", "next_starter"), [
    (0, (5, 9, 2), 1),      # highest score
    (1, (6, 2, 6), 2),      # tie 0/2: clockwise from Ben's left: Chloé
    (2, (6, 2, 6), 0),      # tie 0/2: clockwise from Chloé's left: Ana
    (0, (6, 6, 6), 1),      # three-way tie: Ana's left neighbour
    (1, (6, 6, 2), 0),      # tie 0/1 from seat 2: Ana before Ben
])
def test_r39_next_starter_is_the_highest_score_ties_clockwise(starter, scores,
                                                              next_starter) -> None:
    """Everybody's hand scores 0 (bears and giraffes), so the cumulative scores decide."""
    line = position([["kangaroo:M"], [], [], [], []], [["cat:F"], ["bear:F"], ["giraffe:M"]],
                    player=0, starter=starter, scores=scores)
    states = judge([(line, OK), (load(0, "cat:F", 0), OK),
                    (deal(starter=None), OK)])
    end, nxt = states[1], states[2]
    assert end["next_round_starter"] == next_starter
    assert (nxt["round"], nxt["round_starter"], nxt["current_player"]) == (2, next_starter,
                                                                           next_starter)
    assert list(nxt["scores"]) == list(scores)   # R38: scores carry over


def test_r38_the_next_round_starts_afresh() -> None:
    hands = [["cat:M", "lion:M"], ["cat:F"], ["panda:M"]]
    states = judge([
        (position([["elephant:M", "rhino:M"], [], [], [], []], hands, departed=1), OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK),
        (give(0, (1, "lion:M")), OK),   # owed 2, holds 1: gives all (R21), round over
        (deal(noah=4, starter=None), OK),
        (load(0, "cat:M", 4), "not_your_turn"),
    ])
    end, new = states[3], states[4]
    assert end["round_scores"] == [0, 2, 4] and end["next_round_starter"] == 2
    assert (new["round"], new["phase"], new["current_player"], new["noah"]) == (2, "play", 2, 4)
    assert (new["departed"], new["reserve"], new["gifts_owed"]) == (0, 3, 0)
    assert new["ferries"] == [[card] for card in FERRIES]
    assert new["capacities"] == [21] * 5 and new["hand_counts"] == [8, 8, 8]
    assert new["scores"] == [0, 2, 4] and new["round_over"] is False


def test_r38_cards_that_departed_are_back_in_the_next_round() -> None:
    """Hidden hands: a departed rhino:M is not 'unavailable' in the next round (R48)."""
    ferries = ["rhino:M", "rhino:F", "cat:M", "cat:F", "parrot:M"]
    states = judge([
        (position([["elephant:M", "rhino:M"], [], [], [], []], hand_counts=[1, 2, 2]), OK),
        (load(0, "cat:M", 0), OK),
        (scan([], ["lion:F", "bear:F"], ["panda:M", "giraffe:F"]), OK),
        (deal(ferries, hands=None, hand_counts=[8, 8, 8], starter=None), OK),
    ], hidden=True)
    assert states[1]["departed"] == 1 and states[-1]["departed"] == 0
    assert states[-1]["ferries"][0] == ["rhino:M"]


# -- end of the game (R40-R42) ------------------------------------------------------------------

@pytest.mark.parametrize(("scores", "winners"), [((5, 3, 1), [1]), ((5, 4, 1), [0, 1, 2])])
def test_r40_the_game_ends_after_the_third_round_lowest_wins_ties_share(scores,
                                                                        winners) -> None:
    """Round 3: Ana plays her last card; Ben scores 1, Chloé 4 (lion:F+bear:F, panda:M)."""
    end = _last_card("cat:F", ["kangaroo:M"], scores=scores, round=3)[-1]
    assert (end["phase"], end["game_over"], end["round_over"]) == ("game_over", True, True)
    assert sorted(end["winners"]) == winners
    assert end["next_round_starter"] is None


def test_r40_nothing_is_played_after_the_end_of_the_game() -> None:
    line = position([["kangaroo:M"], [], [], [], []],
                    [["cat:F"], ["lion:F", "bear:F"], ["panda:M"]], round=3)
    states = judge([(line, OK), (load(0, "cat:F", 0), OK),
                    (deal(starter=None), "game_over"), (load(1, "bear:F", 0), "game_over")])
    assert states[-1] == states[1]


def test_r40_rounds_rule_ignores_26() -> None:
    end = _last_card("cat:F", ["kangaroo:M"], scores=(0, 30, 0), round=1)[-1]
    assert (end["phase"], end["game_over"]) == ("round_over", False)


@pytest.mark.parametrize(("scores", "over"), [((0, 24, 0), False), ((0, 25, 0), True),
                                              ((0, 0, 25), True), ((0, 0, 21), False)])
def test_r41_score26_ends_when_someone_has_26_or_more(scores, over) -> None:
    """After round 3 Ben adds 1 and Chloé 4: 25 goes on, 26 ends, 29 ends, 25 goes on."""
    end = _last_card("cat:F", ["kangaroo:M"], scores=scores, round=3, end_rule="score26")[-1]
    assert end["game_over"] is over
    assert end["phase"] == ("game_over" if over else "round_over")
    if over:
        assert end["winners"] == [0]
    else:
        assert end["next_round_starter"] is not None


def test_r41_score26_has_no_round_limit() -> None:
    line = position([["kangaroo:M"], [], [], [], []],
                    [["cat:F"], ["lion:F", "bear:F"], ["panda:M"]], round=5, scores=(1, 2, 3))
    states = judge([(line, OK), (load(0, "cat:F", 0), OK), (deal(starter=None), OK)],
                   end_rule="score26")
    assert states[-1]["round"] == 6


def test_r42_r44_crocodile_tears_never_go_below_zero_nor_end_the_game() -> None:
    hands = [["crocodile:F", "bear:M"], ["lion:F"], ["panda:M"]]
    states = judge([(position([[], [], [], [], []], hands, scores=(1, 25, 0)), OK),
                    (load(0, "crocodile:F", 0), OK), (move(0, 1), OK)],
                   crocodile=True, end_rule="score26")
    assert states[1]["scores"] == [0, 25, 0]
    assert states[1]["phase"] == "move_noah"   # R46: empty ferry, nobody flees
    assert (states[-1]["game_over"], states[-1]["current_player"]) == (False, 1)


# -- undo (R55) ---------------------------------------------------------------------------------

def test_r55_undo_restores_turns_and_departures_exactly() -> None:
    hands = [["cat:M", "bear:M", "lion:M"], ["cat:F"], ["panda:F"]]
    base = position([["elephant:M", "rhino:M"], [], [], [], []], hands)
    states = judge([
        (base, OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK), (give(0, (1, "bear:M")), OK),
        (undo(), OK), (undo(2), OK), (undo(), OK),
    ])
    assert states[4] == states[2] and states[5] == states[0]
    assert states[-1] == replay_lines([])[0]["state"]   # back to the fresh game


def test_r55_undo_takes_back_accepted_actions_only() -> None:
    states = judge([
        (deal(), OK), (load(0, "parrot:F", 0), OK),
        (load(0, "bear:M", 0), "must_move_noah"), (note("oops"), OK),
        (undo(), OK),
        (undo(5), "bad_action"),
        ({"type": "undo"}, OK),
    ])
    assert states[4] == states[0]
    assert states[-1] == replay_lines([])[0]["state"]   # back to the fresh game


def test_r55_undo_across_the_end_of_a_round() -> None:
    line = position([["kangaroo:M"], [], [], [], []],
                    [["cat:F"], ["lion:F", "bear:F"], ["panda:M"]], scores=(3, 3, 3))
    states = judge([
        (line, OK), (load(0, "cat:F", 0), OK),
        (deal(starter=None), OK), (load(2, "parrot:F", 0), OK),
        (undo(2), OK), (undo(), OK),
        (load(0, "cat:F", 0), OK), (deal(starter=None), OK),
    ])
    assert states[4] == states[1]
    assert states[5] == states[0] and states[5]["scores"] == [3, 3, 3]
    assert states[-1] == states[2]


def test_r55_undo_across_the_end_of_the_game() -> None:
    line = position([["kangaroo:M"], [], [], [], []],
                    [["cat:F"], ["lion:F", "bear:F"], ["panda:M"]], round=3)
    states = judge([(line, OK), (load(0, "cat:F", 0), OK), (undo(), OK),
                    (load(0, "cat:F", 0), OK)])
    assert states[2] == states[0] and states[2]["game_over"] is False
    assert states[3] == states[1]


def test_r55_a_log_replays_the_same_after_an_undo() -> None:
    """Undoing a whole opening and playing it again gives the very same states."""
    opening = [deal(), load(0, "cat:M", 0), move(0, 2), load(0, "bear:M", 2), move(0, 4)]
    first = replay_lines(opening)
    again = replay_lines([*opening, undo(4), *opening[1:]])
    assert [r["state"] for r in again[-4:]] == [r["state"] for r in first[-4:]]
    assert HANDS[0][0] == "woodpecker:M"
