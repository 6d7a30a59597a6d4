"""Conformance: referee behaviour — hidden hands, sequencing, order of checks, tagged copies,
malformed lines and the ``replay`` command (R48-R54, TABLE-LOG.md).

Table logs written from ../shared/RULINGS.md and TABLE-LOG.md, judged through the public
replay path, and a few through ``noah-companion replay --json --states``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.game import InputError
from tests.conformance.table import (
    FERRIES,
    OK,
    deal,
    flee,
    give,
    header,
    judge,
    load,
    look,
    move,
    note,
    position,
    replay_lines,
    scan,
    swap,
    take_back,
)

HIDDEN = {"hidden": True}
OPPONENTS = [["lion:F"], ["kangaroo:F"]]


# -- hidden hands: what can be seen (R48) -------------------------------------------------------

def test_r48_card_unavailable_when_every_copy_of_the_species_is_visible() -> None:
    """Both giraffes of a 3-player game lie on ferries: a third cannot be loaded."""
    line = position([["giraffe:M"], ["giraffe:F"], [], [], []], hand_counts=[2, 2, 2], noah=2)
    judge([(line, OK), (load(0, "giraffe:M", 2), "card_unavailable"),
           (load(0, "giraffe:F", 2), "card_unavailable"),
           (load(0, "rhino:F", 2), OK)], **HIDDEN)


def test_r48_departed_animals_stay_visible_for_the_round() -> None:
    """Both elephants leave on a ferry; later in the round an elephant is unavailable."""
    states = judge([
        (position([["elephant:M", "elephant:F"], [], [], [], []], hand_counts=[3, 3, 3]), OK),
        (load(0, "parrot:F", 0), "gender"),
        (load(0, "snail", 0, "M"), OK),
        (move(0, 2), OK), (give(0, 1), OK),
        (load(1, "elephant:M", 2), "card_unavailable"),
        (load(1, "rhino:M", 2), OK),
    ], **HIDDEN)
    assert states[3]["departed"] == 1


def test_r48_a_species_counts_as_a_whole() -> None:
    """One rhino:M is visible but the rhino:F is not: the default deck's gender split is
    unverified (R2), so a loaded rhino:M is not refused as unavailable."""
    line = position([["rhino:M"], [], [], [], []], hand_counts=[2, 2, 2], noah=2)
    judge([(line, OK), (load(0, "rhino:M", 2), OK)], **HIDDEN)


def test_r48_hidden_gifts_and_swaps_are_counts_and_targets() -> None:
    states = judge([
        (position([["elephant:M", "rhino:M"], [], [], [], []], hand_counts=[4, 2, 2],
                  departed=1), OK),
        (load(0, "cat:M", 0), OK), (move(0, 2), OK),
        (give(0, 1, 2), OK),
        (load(1, "lion:M", 2), OK), (swap(1, 0), OK), (move(1, 0), OK),
    ], **HIDDEN)
    assert states[3]["hand_counts"] == [1, 3, 3]
    assert states[5]["hand_counts"] == [1, 2, 3]
    assert states[-1]["current_player"] == 2


# -- known hands (R49) --------------------------------------------------------------------------

def test_r49_a_card_not_in_hand_is_refused() -> None:
    hands = [["cat:F", "bear:M"], *OPPONENTS]
    judge([(position([["kangaroo:M"], [], [], [], []], hands), OK),
           (load(0, "kangaroo:F", 0), "card_not_in_hand"),
           (load(0, "cat:M", 0), "card_not_in_hand"),
           (load(0, "cat:F", 0), OK)])


# -- sequencing inside a turn (R50) -------------------------------------------------------------

ALL_KINDS = {
    "play": load(0, "bear:M", 2), "take_back": take_back(0, 2), "move_noah": move(0, 3),
    "croc_flee": flee(0, 1), "lion_swap": swap(0, 1), "give": give(0, 1),
    "scan_hands": scan([], ["bear:F"], ["panda:M"]),
    "start_round": deal(hands=None, hand_counts=[8, 8, 8], starter=None),
}


def _steps(hidden: bool = True) -> dict[str, list]:
    """Ana reaches each step of a turn, and the ends (hidden hands, crocodiles in play)."""
    ferries = [["cat:F"], [], ["elephant:M", "rhino:M"], [], []]
    base = position(ferries, hand_counts=[5, 3, 3])
    last = [position([["kangaroo:M"], [], [], [], []], hand_counts=[1, 1, 1]),
            load(0, "cat:F", 0)]
    last_of_game = [position([["kangaroo:M"], [], [], [], []], hand_counts=[1, 1, 1], round=3),
                    load(0, "cat:F", 0), scan([], ["bear:F"], ["panda:M"])]
    return {
        "scan": last,
        "round_over": [*last, scan([], ["bear:F"], ["panda:M"])],
        "game_over": last_of_game,
        "play": [base],
        "move_noah": [base, load(0, "kangaroo:F", 0)],
        "lion_swap": [base, load(0, "lion:F", 0)],
        "croc_flee": [base, load(0, "crocodile:F", 0)],
        "give": [position(ferries, hand_counts=[5, 3, 3], noah=2), load(0, "cat:M", 2),
                 move(0, 4)],
    }


EXPECTED_STEP = {"play": "must_play", "move_noah": "must_move_noah",
                 "lion_swap": "must_lion_swap", "croc_flee": "must_choose_flee_target",
                 "give": "must_give_cards", "scan": "must_scan_hands",
                 "round_over": "round_over", "game_over": "game_over"}
RIGHT_KINDS = {("play", "take_back"), ("scan", "scan_hands"), ("round_over", "start_round")}
WRONG_KINDS = [(step, kind) for step in EXPECTED_STEP for kind in ALL_KINDS
               if kind != step and (step, kind) not in RIGHT_KINDS]


@pytest.mark.parametrize(("step", "kind"), WRONG_KINDS)
def test_r50_an_action_of_the_wrong_kind_gets_the_step_awaited(step: str, kind: str) -> None:
    expected = EXPECTED_STEP[step]
    if (step, kind) == ("play", "move_noah"):
        expected = "noah_move_illegal"   # R50: a Noah move when a loading is awaited
    prefix = _steps()[step]
    states = judge([*((line, OK) for line in prefix), (ALL_KINDS[kind], expected)],
                   crocodile=True, **HIDDEN)
    assert states[-2]["phase"] == step


@pytest.mark.parametrize("step", list(EXPECTED_STEP))
def test_r50_the_kind_is_checked_before_the_actor(step: str) -> None:
    """Ben acting out of turn with the wrong kind of action hears the step awaited."""
    wrong = load(1, "bear:M", 0) if step != "play" else give(1, 0)
    prefix = _steps()[step]
    judge([*((line, OK) for line in prefix), (wrong, EXPECTED_STEP[step])],
          crocodile=True, **HIDDEN)


@pytest.mark.parametrize("step", ["move_noah", "lion_swap", "croc_flee", "give"])
def test_r50_the_right_kind_from_the_wrong_player_is_not_your_turn(step: str) -> None:
    right = {"move_noah": move(1, 2), "lion_swap": swap(1, 0), "croc_flee": flee(1, 2),
             "give": give(1, 2)}[step]
    judge([*((line, OK) for line in _steps()[step]), (right, "not_your_turn")],
          crocodile=True, **HIDDEN)


def test_r50_phases_in_the_state() -> None:
    for step, prefix in _steps().items():
        states = judge([(line, OK) for line in prefix], crocodile=True, **HIDDEN)
        assert states[-1]["phase"] == step
        assert states[-1]["current_player"] == (0 if step in ALL_KINDS else None)
    states = judge([(line, OK) for line in _steps()["give"]], crocodile=True, **HIDDEN)
    assert states[-1]["gifts_owed"] == 1


def test_r50_a_new_deal_during_a_round_is_refused() -> None:
    states = judge([(deal(), OK), (deal(), "must_play")])
    assert states[-1]["round"] == 1


# -- order of checks on a loading (R51) ---------------------------------------------------------

@pytest.mark.parametrize(("ferry", "hand", "line", "expected", "options"), [
    # not_your_turn beats wrong_ferry
    (["cat:M"], ["bear:M"], load(1, "lion:F", 3), "not_your_turn", {}),
    # wrong_ferry beats card_not_in_hand and weight
    (["elephant:M", "rhino:M"], ["bear:M"], load(0, "giraffe:M", 2), "wrong_ferry", {}),
    # wrong_ferry beats unknown_card
    (["cat:M"], ["bear:M"], load(0, "snail", 2, "M"), "wrong_ferry", {"frog": True}),
    # unknown_card beats snail_gender_required
    (["cat:M"], ["bear:M"], load(0, "snail", 0), "unknown_card", {"frog": True}),
    # snail_gender_required beats card_not_in_hand
    (["cat:M"], ["bear:M"], load(0, "snail", 0), "snail_gender_required", {}),
    # card_not_in_hand beats woodpecker_over_13
    (["elephant:M", "panda:M"], ["bear:M"], load(0, "woodpecker:M", 0), "card_not_in_hand", {}),
    # woodpecker_over_13 beats gender (M, M then F)
    (["elephant:M", "panda:M"], ["woodpecker:F"], load(0, "woodpecker:F", 0),
     "woodpecker_over_13", {}),
    # frog_weight_invalid beats weight
    (["elephant:M", "rhino:M"], ["frog:M"], load(0, "frog:M", 0, frog_weight=4),
     "frog_weight_invalid", {"frog": True}),
    # frog_weight_invalid beats gender
    (["cat:M", "kangaroo:M"], ["frog:F"], load(0, "frog:F", 0, frog_weight=3),
     "frog_weight_invalid", {"frog": True}),
    # weight beats gender
    (["elephant:M", "rhino:M"], ["bear:F"], load(0, "bear:F", 0), "weight", {}),
    # weight beats roommates
    (["elephant:M", "rhino:M"], ["elephant:F"], load(0, "elephant:F", 0), "weight",
     {"roommates": True}),
    # gender beats roommates
    (["cat:M", "kangaroo:M"], ["cat:F"], load(0, "cat:F", 0), "gender", {"roommates": True}),
])
def test_r51_checks_on_a_loading_in_order(ferry, hand, line, expected, options) -> None:
    hands = [[*hand, "parrot:M"], *OPPONENTS]
    judge([(position([ferry, [], [], [], []], hands), OK), (line, expected)], **options)


@pytest.mark.parametrize(("line", "expected"), [
    (load(1, "giraffe:M", 3), "not_your_turn"),
    (load(0, "giraffe:M", 3), "wrong_ferry"),
    (load(0, "snail", 0), "snail_gender_required"),   # all snails visible, no side given
    (load(0, "snail", 0, "F"), "card_unavailable"),
    (load(0, "giraffe:M", 0), "card_unavailable"),    # before weight
    (load(0, "bear:M", 0), "weight"),
])
def test_r51_order_of_checks_with_hidden_hands(line, expected) -> None:
    ferries = [["elephant:M", "rhino:M"], ["giraffe:M", "snail:M"], ["giraffe:F", "snail:F"],
               ["snail:M"], []]
    judge([(position(ferries, hand_counts=[3, 3, 3]), OK), (line, expected)], **HIDDEN)


def test_r51_the_step_is_checked_before_the_ferry_and_the_card() -> None:
    judge([(deal(), OK), (load(0, "parrot:F", 0), OK),
           (load(0, "elephant:M", 4), "must_move_noah")])


# -- targets (R52) ------------------------------------------------------------------------------

@pytest.mark.parametrize("line", [swap(0, 0), look(0, 0), flee(0, 0), give(0, 0)])
def test_r52_targets_must_be_opponents(line) -> None:
    card = {"lion_swap": "lion:M", "giraffe_look": "giraffe:M", "croc_flee": "crocodile:M",
            "give": "cat:M"}[line["type"]]
    ferry = ["elephant:M", "rhino:M"] if card == "cat:M" else ["cat:F"]
    prefix = [(position([ferry, [], [], [], []], hand_counts=[3, 3, 3]), OK),
              (load(0, card, 0), OK)]
    if card == "cat:M":
        prefix.append((move(0, 2), OK))
    judge([*prefix, (line, "invalid_target")], crocodile=True, **HIDDEN)


# -- tagged copies (R54) ------------------------------------------------------------------------

def test_r54_a_tagged_copy_already_on_the_table_is_refused() -> None:
    ferries = ["cat:M#1", "cat:F#1", "kangaroo:M#1", "kangaroo:F#2", "parrot:M#2"]
    states = judge([
        (deal(ferries, hands=None, hand_counts=[8, 8, 8]), OK),
        (load(0, "cat:M#1", 0), "card_already_on_table"),
        (load(0, "kangaroo:M#1", 0), "card_already_on_table"),
        (load(0, "kangaroo:M#2", 0), OK), (move(0, 2), OK),
        (load(1, "kangaroo:M#2", 2), "card_already_on_table"),
        (load(1, "kangaroo:M", 2), OK),
    ], **HIDDEN)
    assert [card.split("#")[0] for card in states[3]["ferries"][0]] == ["cat:M", "kangaroo:M"]


def test_r54_a_tagged_copy_that_departed_this_round_is_refused() -> None:
    states = judge([
        (position([["elephant:M#1", "rhino:M#1"], [], [], [], []], hand_counts=[3, 3, 3]), OK),
        (load(0, "cat:M#2", 0), OK), (move(0, 2), OK), (give(0, 1), OK),
        (load(1, "cat:M#2", 2), "card_already_on_table"),
        (load(1, "cat:M#1", 2), OK),
    ], **HIDDEN)
    assert states[3]["departed"] == 1


# -- the log format (TABLE-LOG.md) --------------------------------------------------------------

@pytest.mark.parametrize("line", [
    {"type": "tea"},
    {"type": "play", "player": 0, "ferry": 0},                        # no card
    {"type": "play", "player": "Ana", "card": "parrot:F", "ferry": 0},  # player is a seat
    {"type": "play", "player": 0, "card": "parrot:F", "ferry": "1"},
    {"type": "move_noah", "player": 0},
    {"type": "give", "player": 0, "gifts": 1},
    {"player": 0, "card": "parrot:F", "ferry": 0},                    # no type
    "[1, 2]",
    "42",
])
def test_malformed_lines_are_bad_action_and_the_replay_goes_on(line) -> None:
    states = judge([(deal(), OK), (line, "bad_action"), (load(0, "parrot:F", 0), OK)])
    assert states[1] == states[0]


def test_unknown_fields_are_ignored() -> None:
    extra = {"camera": "pi", "confidence": 0.93, "at": "2026-11-21T20:00:00Z"}
    head = header(hidden=False) | {"venue": "Friday club"}
    head["options"]["house_rule"] = "none"
    text = [json.dumps(head), json.dumps(deal() | extra),
            json.dumps(load(0, "parrot:F", 0) | extra), json.dumps(move(0, 1) | extra)]
    from companion.game.tablelog import replay
    results = [result.to_dict(state=True) for result in replay(text)]
    assert [result["verdict"] for result in results] == ["accepted"] * 4
    assert results[-1]["state"]["noah"] == 1


def test_notes_change_nothing_anywhere() -> None:
    states = judge([
        (note("Friday game"), OK), (deal(), OK), (note("Ana thinks"), OK),
        (load(0, "parrot:F", 0), OK), (note("mid-turn"), OK), (move(0, 1), OK),
    ])
    assert states[0] == replay_lines([])[0]["state"]   # a note before the deal: nothing
    assert states[2] == states[1] and states[4] == states[3]


def test_the_header_is_line_one_and_every_line_is_numbered() -> None:
    results = replay_lines([deal(), "", load(0, "parrot:F", 0)])
    assert [result["line"] for result in results] == [1, 2, 4]
    assert all(set(result) >= {"line", "verdict", "reason", "message", "state"}
               for result in results)
    assert all(isinstance(result["message"], str) and result["message"] for result in results)


@pytest.mark.parametrize("first", [
    {"type": "start_round", "noah": 0, "ferries": list(FERRIES)},     # no header
    {"format": "noah-table-log", "version": 2, "players": ["Ana", "Ben"]},
    {"format": "chess-pgn", "version": 1, "players": ["Ana", "Ben"]},
])
def test_a_log_without_a_readable_header_is_refused(first) -> None:
    from companion.game.tablelog import replay
    with pytest.raises(InputError):
        list(replay([json.dumps(first), json.dumps(deal())]))


def test_position_only_right_after_the_header() -> None:
    line = position([["cat:M"], [], [], [], []], [["cat:F"], ["lion:F"], ["panda:M"]])
    results = replay_lines([deal(), line])
    assert results[-1]["verdict"] == "rejected"
    assert results[-1]["state"] == results[-2]["state"]


def test_position_state_keys_and_derived_facts() -> None:
    """A position gives no weights, capacities or reserve: the referee derives them."""
    ferries = [["woodpecker:F", "cat:F"], [], ["elephant:M"], [], ["parrot:M", "snail:F"]]
    state = judge([(position(ferries, hand_counts=[3, 2, 4], noah=2, player=1, starter=2,
                             round=2, departed=3, scores=(3, 0, 7)), OK)], **HIDDEN)[0]
    assert (state["round"], state["phase"], state["current_player"]) == (2, "play", 1)
    assert (state["round_starter"], state["noah"], state["departed"]) == (2, 2, 3)
    assert state["ferries"] == ferries
    assert state["weights"] == [2, 0, 10, 0, 1]
    assert state["capacities"] == [13, 21, 21, 21, 21]
    assert (state["reserve"], state["hand_counts"], state["scores"]) == (0, [3, 2, 4], [3, 0, 7])
    assert (state["extra_turn"], state["gifts_owed"], state["round_over"]) == (False, 0, False)
    assert state["game_over"] is False and state["winners"] == []


@pytest.mark.parametrize(("round", "scores", "options"), [
    (4, (0, 0, 0), {}),                            # R40: a standard game has 3 rounds
    (2, (30, 0, 0), {"end_rule": "score26"}),      # R41: 30 points ended the game at round 1
])
def test_r40_r41_a_position_after_the_end_of_the_game_is_setup_invalid(round, scores,
                                                                       options) -> None:
    line = position([["kangaroo:M"], [], [], [], []], [["cat:F"], ["bear:F"], ["panda:M"]],
                    round=round, scores=scores)
    judge([(line, "setup_invalid")], **options)


def test_position_derived_facts_given_anyway_are_ignored() -> None:
    line = position([["woodpecker:F", "cat:F"], [], [], [], []], hand_counts=[1, 1, 1])
    line |= {"weights": [9, 9, 9, 9, 9], "capacities": [21] * 5, "reserve": 1}
    state = judge([(line, OK)], **HIDDEN)[0]
    assert (state["weights"][0], state["capacities"][0], state["reserve"]) == (2, 13, 3)


def test_messages_name_players_and_number_ferries_from_1() -> None:
    results = replay_lines([deal(noah=2), load(0, "parrot:F", 0), load(1, "parrot:M", 2)])
    wrong_ferry, not_your_turn = results[2], results[3]
    assert wrong_ferry["reason"] == "wrong_ferry" and "ferry 3" in wrong_ferry["message"].lower()
    assert not_your_turn["reason"] == "not_your_turn"
    assert "Ana" in not_your_turn["message"] and "Ben" in not_your_turn["message"]


def test_position_with_a_pending_extra_turn() -> None:
    hands = [["cat:F", "bear:M"], ["lion:M"], ["lion:F"]]
    states = judge([(position([[], ["kangaroo:M"], [], [], []], hands, extra_turn=True), OK),
                    (load(0, "bear:M", 0), OK), (move(0, 2), OK)])
    assert states[0]["extra_turn"] is True and states[0]["current_player"] == 0
    assert (states[-1]["current_player"], states[-1]["extra_turn"]) == (1, False)


# -- the replay command (TABLE-LOG "State") -----------------------------------------------------

def _cli(tmp_path: Path, lines: list, *flags: str) -> subprocess.CompletedProcess:
    log = tmp_path / "game.jsonl"
    log.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n"
                           for line in lines), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())",
         "replay", str(log), *flags], capture_output=True, text=True, timeout=60, check=False)


def test_cli_replay_json_states_one_object_per_line_then_the_final_state(tmp_path) -> None:
    lines = [header(hidden=True), deal(hands=None, hand_counts=[8, 8, 8]),
             load(1, "cat:M", 0), load(0, "cat:M", 0), move(0, 2),
             load(0, "bear:M", 2), move(0, 0)]
    run = _cli(tmp_path, lines, "--json", "--states")
    assert run.returncode == 0, run.stderr
    objects = [json.loads(text) for text in run.stdout.splitlines()]
    per_line, final = objects[:-1], objects[-1]
    assert [o["line"] for o in per_line] == list(range(1, 8))
    assert [o["verdict"] for o in per_line] == ["accepted", "accepted", "rejected", "accepted",
                                                "accepted", "accepted", "accepted"]
    assert [o["reason"] for o in per_line][2] == "not_your_turn"
    assert per_line[3]["state"]["extra_turn"] is True
    assert per_line[3]["state"]["phase"] == "move_noah"
    assert per_line[4]["state"]["current_player"] == 0       # R26: Ana plays again
    assert per_line[4]["state"]["extra_turn"] is True       # ... an extra turn
    assert per_line[5]["state"]["extra_turn"] is False      # the bear earned no bonus (R26)
    assert final == per_line[-1]["state"]
    assert (final["current_player"], final["noah"], final["hand_counts"]) == (1, 0, [6, 8, 8])


def test_cli_replay_keeps_going_after_a_rejection_and_strict_fails(tmp_path) -> None:
    lines = [header(), deal(), {"type": "tea"}, load(0, "parrot:F", 0)]
    run = _cli(tmp_path, lines, "--json")
    objects = [json.loads(text) for text in run.stdout.splitlines()]
    assert run.returncode == 0
    assert [o["reason"] for o in objects[:4]] == [None, None, "bad_action", None]
    assert "state" not in objects[0]
    assert _cli(tmp_path, lines, "--json", "--strict").returncode == 1


def test_cli_replay_of_an_unreadable_log_exits_non_zero(tmp_path) -> None:
    run = _cli(tmp_path, [{"format": "noah-table-log", "version": 9, "players": ["A", "B"]}],
               "--json")
    assert run.returncode != 0
    assert "Traceback" not in run.stderr and "1" in run.stderr


def test_scan_hands_example_from_table_log(tmp_path) -> None:
    """A short hidden round end through the CLI: scan then next round."""
    lines = [header(hidden=True),
             position([["kangaroo:M"], [], [], [], []], hand_counts=[1, 1, 1]),
             load(0, "cat:F", 0), scan([], ["bear:F"], ["panda:M"])]
    run = _cli(tmp_path, lines, "--json", "--states")
    objects = [json.loads(text) for text in run.stdout.splitlines()]
    assert [o["verdict"] for o in objects[:-1]] == ["accepted"] * 4
    assert objects[2]["state"]["phase"] == "scan"
    assert objects[-1]["round_scores"] == [0, 0, 4]
    assert objects[-1]["next_round_starter"] == 2


@pytest.mark.parametrize("name", ["hidden-round.jsonl", "known-round.jsonl"])
def test_a_hand_written_round_through_the_cli(tmp_path, name: str) -> None:
    """tests/conformance/*.jsonl: each line's ``expect`` and ``check`` (unknown fields, which
    the referee ignores) hold the verdict and state keys RULINGS.md gives; ``hands`` are
    compared card by card in any order."""
    source = Path(__file__).parent / name
    lines = [json.loads(text) for text in source.read_text(encoding="utf-8").splitlines()]
    run = _cli(tmp_path, lines, "--json", "--states")
    assert run.returncode == 0, run.stderr
    objects = [json.loads(text) for text in run.stdout.splitlines()]
    assert len(objects) == len(lines) + 1
    for number, (line, got) in enumerate(zip(lines, objects, strict=False), start=1):
        verdict = got["verdict"] if got["verdict"] == "accepted" else got["reason"]
        assert (got["line"], verdict) == (number, line.get("expect", "accepted")), (
            line, got["message"])
        for key, value in line.get("check", {}).items():
            seen = got["state"][key]
            if key == "hands":
                seen = [sorted(hand) for hand in seen]
            assert seen == value, (number, key)
    assert objects[-1] == objects[-2]["state"]


def test_known_hands_gifts_and_swaps_name_their_cards() -> None:
    """TABLE-LOG: ``card``, ``take`` and ``give`` are given with known hands."""
    hands = [["cat:M", "bear:M", "lion:M"], ["lion:F"], ["panda:F"]]
    judge([(position([["elephant:M", "rhino:M"], [], [], [], []], hands), OK),
           (load(0, "cat:M", 0), OK), (move(0, 2), OK),
           (give(0, 1), "bad_action"), (give(0, (1, "bear:M")), OK)])
    judge([(position([[], [], [], [], []], hands), OK), (load(0, "lion:M", 0), OK),
           (swap(0, 1), "bad_action"), (swap(0, 1, "lion:F", "cat:M"), OK)])
