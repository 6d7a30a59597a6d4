"""The judge's JSON against the contract (RULINGS-COMPLOT C90–C94) and its examples."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.complot.judge import (
    check_action,
    check_claim,
    check_defence,
    check_payload,
    judge_line,
    judge_lines,
    score_manche,
)
from tests.complot.contract import contract_text


def claim(cards, word="complot", level=1, **extra):
    return check_claim({"level": level, "cards": cards, "claim": word, **extra})


def code(cards, word="complot", level=1, **extra):
    return claim(cards, word, level, **extra)["code"]


PULITZER_ETARE = ["pompiers:camille", "pompiers:clara", "pompiers:etienne",
                  "journalistes:emma", "journalistes:estelle", "journalistes:marc"]
LEONARDS = ["leonard:amelie", "leonard:arthur", "leonard:clara", "leonard:emma",
            "leonard:sally", "leonard:sarah"]
ELYSEE_5 = ["etat-major:noe", "empires:sarah", "espions:max", "senechales:marie",
            "leonard:arthur", "duron:clara"]


def test_c90_the_contract_example():
    """C90: the example request and its answer, word for word."""
    request = {"level": 1, "cards": ["pompiers:camille", "pompiers:clara", "pompiers:etienne",
                                     "duron:jacquotte", "archange:gabrielle", "archange:igor"],
               "claim": "complot", "moment": "discard", "first_turn": False}
    assert check_claim(request) == {"accepted": True, "points": 15, "combination": "two_trios",
                                    "code": None}


def test_c31_a_complot_scores_its_best_classic_combination():
    """C31: six Famille Duron are also two trios: 25, not 15; five Alphas 75; C26 six Espions
    are two trios."""
    duron = ["duron:camille", "duron:clara", "duron:david", "duron:emma", "duron:estelle",
             "duron:etienne"]
    assert claim(duron)["combination"] == "six_duron" and claim(duron)["points"] == 25
    assert claim(LEONARDS)["points"] == 50
    senechales = ["senechales:abigail", "senechales:elena", "senechales:marie",
                  "senechales:rose", "senechales:sarah", "senechales:susy"]
    assert claim(senechales)["combination"] == "six_senechales"
    empires = ["empires:henri", "empires:karl", "empires:marie", "empires:max", "empires:noe",
               "empires:sarah"]
    assert claim(empires)["points"] == 50
    alphas = ["alphas:karl", "alphas:naomie", "alphas:sally", "alphas:sandy", "alphas:sophie",
              "duron:noe"]
    assert claim(alphas)["combination"] == "five_alphas" and claim(alphas)["points"] == 75
    espions = ["espions:abigail", "espions:amelie", "espions:arthur", "espions:clara",
               "espions:elena", "espions:emma"]
    assert claim(espions)["combination"] == "two_trios"


def test_c25_c22_two_trios_split_the_six_cards_and_share_a_first_name():
    """C25: Clara Léonard in the Léonard trio and Clara Pompiers in the Pompiers trio; C22
    first-name trios; a card never counts twice."""
    cards = ["leonard:clara", "leonard:emma", "leonard:sally", "pompiers:clara",
             "pompiers:camille", "pompiers:etienne"]
    assert claim(cards)["accepted"]
    sarahs = ["etat-major:sarah", "enqueteurs:sarah", "espions:sarah", "leonard:sarah",
              "senechales:sarah", "empires:sarah"]
    assert claim(sarahs)["combination"] == "two_trios"  # C26
    one_short = ["leonard:clara", "leonard:emma", "pompiers:clara", "pompiers:camille",
                 "pompiers:etienne", "espions:max"]
    assert code(one_short) == "claim_not_met"


def test_c24_jokers_are_wild_values_without_limit():
    """C24: Jacquotte + two jokers is a trio; three jokers are a trio; C23 jokers count for
    a category."""
    cards = ["duron:jacquotte", "archange:gabrielle", "archange:igor", "archange:ismaelle",
             "archange:sarah", "archange:noe"]
    assert claim(cards)["accepted"]
    assert claim(["leonard:amelie", "leonard:arthur", "leonard:clara", "leonard:emma",
                  "archange:igor", "archange:gabrielle"])["combination"] == "six_leonards"


def test_c27_c23_only_archange_noe_stands_for_noe_c47_joker_not_noe():
    """C27: a non-Noé archangel cannot complete a Noé trio (joker_not_noe), but counts in a
    category; Archange Noé can."""
    noe_trio = ["etat-major:noe", "espions:noe", "archange:sarah", "leonard:amelie",
                "leonard:arthur", "leonard:clara"]
    assert code(noe_trio) == "joker_not_noe"
    noe_trio[2] = "archange:noe"
    assert claim(noe_trio)["accepted"]


def test_c32_c33_c34_special_announcements_and_the_word_judged():
    """C32: Prix Pulitzer and Plan Étaré 50; C33 the word said is judged; C34 no sum."""
    assert claim(PULITZER_ETARE, "prix_pulitzer")["points"] == 50
    assert claim(PULITZER_ETARE, "plan_etare")["combination"] == "plan_etare"
    assert claim(PULITZER_ETARE, "complot")["points"] == 15
    assert code(LEONARDS, "prix_pulitzer") == "claim_not_met"
    assert code(PULITZER_ETARE, "complot_elysee") == "claim_not_met"


def test_c40_elysee_forms_and_jokers():
    """C40: the 5-name and 3-Noé forms; 5_names reported when both; a Noé slot needs Noé."""
    assert claim(ELYSEE_5, "complot_elysee")["form"] == "5_names"
    assert claim(ELYSEE_5, "complot_elysee")["points"] == 100
    three = ["etat-major:noe", "espions:noe", "archange:noe", "leonard:amelie",
             "leonard:arthur", "leonard:clara"]
    assert claim(three, "complot_elysee")["form"] == "3_noe"
    both = ["etat-major:noe", "espions:noe", "empires:noe", "senechales:marie", "espions:max",
            "leonard:arthur"]
    assert claim(both, "complot_elysee")["form"] == "3_noe"  # no Sarah: one form only
    both = ["etat-major:noe", "espions:noe", "archange:noe", "empires:sarah", "espions:max",
            "senechales:marie"]
    assert claim(both, "complot_elysee")["form"] == "5_names"  # both forms: 5_names
    assert code(["etat-major:noe", "empires:sarah", "espions:max", "senechales:marie",
                 "leonard:emma", "duron:clara"], "complot_elysee") == "claim_not_met"
    wild = ["etat-major:noe", "archange:sarah", "archange:igor", "archange:ismaelle",
            "archange:gabrielle", "duron:clara"]
    assert claim(wild, "complot_elysee")["form"] == "5_names"
    no_noe = ["archange:sarah", "empires:sarah", "espions:max", "senechales:marie",
              "leonard:arthur", "duron:clara"]
    assert code(no_noe, "complot_elysee") == "joker_not_noe"


def test_c41_c42_elysee_timing():
    """C41: never at a discard; C42: not on the first turn; C30: a classic claim at a turn
    start is claim_wrong_moment."""
    assert code(ELYSEE_5, "complot_elysee", moment="discard") == "elysee_must_wait"
    assert code(ELYSEE_5, "complot_elysee", first_turn=True) == "elysee_must_wait"
    assert code(LEONARDS, moment="turn_start") == "claim_wrong_moment"
    assert code(LEONARDS, first_turn=True) is None


def test_c20_villains_never_count_c47_villain_not_allowed():
    """C20: a spy never completes a trio (villain_not_allowed at level 3); five Alphas leave it
    out; C5a: méchants are not in play at levels 1–2."""
    spies = ["espion-rouge:olga", "espion-violet:olga", "archange:sarah", "leonard:emma",
             "leonard:clara", "leonard:amelie"]
    assert code(spies, level=3) == "villain_not_allowed"
    assert code(spies, level=2) == "card_not_in_play"
    alphas = ["alphas:karl", "alphas:naomie", "alphas:sally", "alphas:sandy", "alphas:sophie",
              "poseur-bombe:irina"]
    assert claim(alphas, level=3)["points"] == 75
    espions_trio = ["espion-rouge:valentina", "espion-violet:irina", "espions:noe",
                    "leonard:emma", "leonard:clara", "leonard:amelie"]
    assert code(espions_trio, level=3) == "villain_not_allowed"


def test_c46_c47_order_of_checks_for_a_claim():
    """C46/C47: bad_input → unknown_card → duplicate_card → card_not_in_play → hand_size →
    attentat_in_hand → moment → combination."""
    assert check_claim({"cards": LEONARDS, "claim": "complot"})["code"] == "bad_input"
    assert code(["nobody:x", "leonard:emma", "leonard:emma"]) == "unknown_card"
    assert code(["leonard:emma", "leonard:emma", "attentat:todorov"]) == "duplicate_card"
    assert code(["leonard:emma", "attentat:todorov"], level=2) == "card_not_in_play"
    assert code(["leonard:emma", "attentat:todorov"], level=3) == "hand_size"
    with_attentat = [*LEONARDS[:5], "attentat:todorov"]
    assert code(with_attentat, level=3, moment="turn_start") == "attentat_in_hand"
    assert code([*LEONARDS[:5], "archange:igor"], word="complot_elysee",
                moment="discard") == "elysee_must_wait"
    for bad in ({"level": True, "cards": LEONARDS, "claim": "complot"},
                {"level": 1, "cards": LEONARDS, "claim": "Complot"},
                {"level": 1, "cards": "leonard:emma", "claim": "complot"},
                {"level": 1, "cards": [1], "claim": "complot"},
                {"level": 1, "cards": LEONARDS, "claim": "complot", "moment": "now"},
                {"level": 1, "cards": LEONARDS, "claim": "complot", "first_turn": 1},
                [], None, "complot"):
        assert check_claim(bad) == {"accepted": False, "points": 0, "combination": None,
                                    "code": "bad_input"}


def base_action(**extra):
    request = {"level": 2, "action": "controle",
               "hand": ["enqueteurs:max", "enqueteurs:emma", "enqueteurs:clara",
                        "espions:noe", "leonard:emma", "duron:noe", "archange:noe"],
               "cards": ["enqueteurs:max"], "actor": 0, "targets": [1], "active": [0, 1, 2]}
    request.update(extra)
    return check_action(request)["code"]


def test_c91_action_checks_in_order():
    """C91 order; C60/C80 action_not_in_level; C61 must_draw_first, one_action_per_turn,
    wrong_action_card; C62/C63 card counts; C69 targets; C85 two targets for a violet spy."""
    assert base_action() is None
    assert base_action(level=1) == "action_not_in_level"
    assert base_action(action="bombe") == "action_not_in_level"
    assert base_action(cards=["attentat:todorov"]) == "card_not_in_play"
    assert base_action(cards=["nobody:x"], level=1) == "unknown_card"
    assert base_action(drawn=False) == "must_draw_first"
    assert base_action(actions_this_turn=1) == "one_action_per_turn"
    assert base_action(cards=["enqueteurs:noe"]) == "card_not_in_hand"
    assert base_action(cards=["enqueteurs:max", "enqueteurs:max"]) == "card_not_in_hand"
    assert base_action(cards=["enqueteurs:max", "enqueteurs:emma"]) == "wrong_card_count"
    assert base_action(action="descente", cards=["enqueteurs:max"]) == "wrong_card_count"
    assert base_action(action="descente",
                       cards=["enqueteurs:max", "enqueteurs:emma", "enqueteurs:clara"]) is None
    assert base_action(cards=["archange:noe"]) == "wrong_action_card"
    assert base_action(cards=["espions:noe"]) == "wrong_action_card"
    assert base_action(targets=[0]) == "invalid_target"
    assert base_action(targets=[3]) == "invalid_target"
    assert base_action(targets=[1, 1]) == "invalid_target"
    assert base_action(targets=[1, 2]) == "wrong_target_count"
    assert base_action(targets=[]) == "wrong_target_count"
    assert base_action(actor=True) == "bad_input"
    assert base_action(action="police") == "bad_input"
    assert check_action("controle") == {"accepted": False, "code": "bad_input"}


def test_c84_c85_c86_spies_and_bombs():
    """C84 red spy one target; C85 violet spy two targets, not with one opponent left; C86."""
    hand = ["espion-rouge:olga", "espion-violet:irina", "poseur-bombe:olga", "leonard:emma",
            "duron:noe", "archange:noe", "espions:noe"]
    common = {"level": 3, "hand": hand, "actor": 1, "active": [0, 1, 2]}
    assert check_action({**common, "action": "hameconnage", "cards": ["espion-rouge:olga"],
                         "targets": [2]})["accepted"]
    assert check_action({**common, "action": "hameconnage", "cards": ["espion-violet:irina"],
                         "targets": [2]})["code"] == "wrong_action_card"
    assert check_action({**common, "action": "double_hameconnage",
                         "cards": ["espion-violet:irina"], "targets": [0, 2]})["accepted"]
    assert check_action({**common, "action": "double_hameconnage",
                         "cards": ["espion-violet:irina"], "targets": [0],
                         "active": [0, 1]})["code"] == "wrong_target_count"
    assert check_action({**common, "action": "bombe", "cards": ["poseur-bombe:olga"],
                         "targets": [0]})["accepted"]


def defence(cards, shown, action=None):
    action = action or ("controle" if len(cards) == 1 else "descente")
    return check_defence({"action": action, "cards": cards, "defence": shown})["code"]


def test_c64_c65_c66_defence_matrix():
    """C64 grades, C65 strictly higher, C66 equal grade (Noé vs Noé, Arthur vs Arthur, David
    vs David) does not defend; the consequences listed under C66."""
    assert defence(["enqueteurs:david"], "etat-major:david") == "defence_grade_too_low"
    assert defence(["enqueteurs:noe"], "etat-major:noe") == "defence_grade_too_low"
    assert defence(["enqueteurs:arthur"], "etat-major:arthur") == "defence_grade_too_low"
    assert defence(["enqueteurs:arthur"], "etat-major:david") is None
    assert defence(["enqueteurs:max"], "etat-major:sophie") is None
    assert defence(["enqueteurs:max"], "etat-major:karl") == "defence_grade_too_low"
    assert defence(["enqueteurs:henri"], "etat-major:abigail") is None
    assert defence(["enqueteurs:sarah"], "etat-major:henri") is None
    for officer in ("amelie", "clara", "emma"):
        assert defence([f"enqueteurs:{officer}"], "etat-major:arthur") is None
    senior = ["enqueteurs:emma", "enqueteurs:max", "enqueteurs:clara"]
    assert defence(senior, "etat-major:henri") == "defence_grade_too_low"
    assert defence(senior, "etat-major:noe") is None


def test_c92_defence_checks_in_order():
    """C92: bad_input → unknown_card → defence_not_allowed → wrong_card_count →
    wrong_action_card → defence_not_etat_major → defence_grade_too_low."""
    assert defence(["enqueteurs:max"], "nobody:x") == "unknown_card"
    assert defence(["espion-rouge:olga"], "etat-major:noe", "hameconnage") == \
        "defence_not_allowed"
    assert defence(["poseur-bombe:olga"], "etat-major:noe", "bombe") == "defence_not_allowed"
    assert defence(["enqueteurs:max", "enqueteurs:emma"], "etat-major:noe",
                   "controle") == "wrong_card_count"
    assert defence(["archange:noe"], "etat-major:noe") == "wrong_action_card"
    assert defence(["enqueteurs:emma"], "archange:noe") == "defence_not_etat_major"
    assert defence(["enqueteurs:emma"], "enqueteurs:noe") == "defence_not_etat_major"
    assert check_defence({"action": "controle", "cards": ["enqueteurs:emma"]}) == {
        "accepted": False, "code": "bad_input"}


def manche(claims, players=3, scores=None, level=1):
    return score_manche({"level": level, "players": players,
                         "scores": scores or [0] * players, "claims": claims})


def test_c93_c50_c51_c52_a_manche_to_the_last_player():
    """C93: claims judged in order; C50 an accepted claimant is out (player_out); C51a the
    last player alone scores 0 (C52); totals added only once ended (C53)."""
    result = manche([{"player": 0, "claim": "complot", "cards": LEONARDS},
                     {"player": 0, "claim": "complot", "cards": LEONARDS},
                     {"player": 2, "claim": "plan_etare", "cards": PULITZER_ETARE}],
                    scores=[10, 20, 30])
    assert [v["code"] for v in result["verdicts"]] == [None, "player_out", None]
    assert result["manche_points"] == [50, 0, 50]
    assert (result["ended"], result["end_reason"], result["still_in"]) == (
        True, "last_player", [])
    assert result["totals"] == [60, 20, 80] and not result["game_over"]
    going = manche([{"player": 1, "claim": "complot", "cards": LEONARDS}])
    assert (going["ended"], going["end_reason"], going["still_in"], going["totals"],
            going["manche_points"]) == (False, None, [0, 2], [0, 0, 0], [0, 50, 0])


def test_c51_c55_elysee_ends_the_manche_and_ties_share_the_victory():
    """C51b: a valid Élysée ends the manche; later claims are manche_over; C55: checked at the
    manche's end, highest total wins, ties share."""
    result = manche([{"player": 1, "claim": "complot_elysee", "cards": ELYSEE_5},
                     {"player": 2, "claim": "complot", "cards": LEONARDS}],
                    scores=[400, 300, 0])
    assert result["verdicts"][1]["code"] == "manche_over"
    assert result["totals"] == [400, 400, 0]
    assert result["game_over"] and result["winners"] == [0, 1]
    assert manche([{"player": 3, "claim": "complot", "cards": LEONARDS}])["verdicts"][0][
        "code"] == "bad_input"
    assert manche([{"player": True, "claim": "complot", "cards": LEONARDS}])["verdicts"][0][
        "code"] == "bad_input"
    for bad in ({"players": 1, "scores": [0], "claims": []},
                {"players": 2, "scores": [0], "claims": []},
                {"players": 2, "scores": [0, -1], "claims": []},
                {"players": 2, "scores": [0, 0], "claims": [1]}, None):
        assert score_manche(bad) == {"error": "bad_input"}


def test_c6_every_contract_payload_and_its_card():
    """C6: the 93 rows of the contract's table: payload → card id, and the stated errors."""
    rows = re.findall(r"^\| \d+ \| `([^`]+)` \|[^|]+\|[^|]+\| `([^`]+)` \|",
                      contract_text(), re.M)
    assert len(rows) == 93
    for card_id, payload in rows:
        assert check_payload({"text": payload, "deck_id": "BOX1"}) == {"kind": "ok",
                                                                        "card": card_id}
    cases = {"CPLT1/BOX1/ALNO": "unknown_card", "CPLT2/BOX1/EPNO": "version",
             "CPLT0/BOX1/EPNO": "version", "CPLT01/BOX1/EPNO": "malformed",
             "CPLT1/BOX1/EPno": "malformed", "CPLT1/BOX1/XXNO": "malformed",
             "CPLT1/BOX1/EPQQ": "malformed", "CPLT1/BOX1/EPNO ": "malformed",
             "CPLT1/ZOO7/EPNO": "other_deck", "CPLT1/BOX1/" + "E" * 30: "too_long"}
    for text, reason in cases.items():
        assert check_payload({"text": text, "deck_id": "BOX1"}) == {"kind": "error",
                                                                     "reason": reason}
    for text in ("NOAH1/BOX1/CAF2", "cplt1/BOX1/EPNO", " CPLT1/BOX1/EPNO", "", "CPLT/x"):
        assert check_payload({"text": text, "deck_id": "BOX1"}) == {"kind": "foreign"}


def test_c94_batch_one_verdict_per_line_and_hostile_lines():
    """C94: id echoed, blank lines skipped, malformed lines give bad_input and judging goes
    on; never an exception."""
    lines = [
        json.dumps({"id": "a", "kind": "claim", "title": "x", "expected": {},
                    "input": {"level": 1, "cards": LEONARDS, "claim": "complot"}}),
        "   ", "", "not json", "[1, 2]", "null", '{"kind": "nope", "id": 3}',
        '{"kind": ["claim"]}', '{"id": {"deep": 1}, "kind": "claim"}',
        '{"kind": "manche", "input": []}', '{"kind": "payload", "input": {"text": 5}}',
        "[" * 100_000, '{"kind": "claim", "input": {"level": 1e400}}',
        '{"kind": "claim", "id": 1' + "0" * 5000 + "}",
        "\ufeff{}", '{"kind": "defence", "input": {"action": "controle", "cards": [], '
        '"defence": "etat-major:noe"}}',
    ]
    verdicts = list(judge_lines(lines))
    assert len(verdicts) == len(lines) - 2
    assert verdicts[0] == {"id": "a", "kind": "claim", "result": {
        "accepted": True, "points": 50, "combination": "six_leonards", "code": None}}
    assert verdicts[1] == {"id": None, "kind": None, "result": {"error": "bad_input"}}
    assert verdicts[4] == {"id": 3, "kind": "nope", "result": {"error": "bad_input"}}
    assert verdicts[5]["kind"] == ["claim"] and verdicts[5]["result"] == {"error": "bad_input"}
    assert verdicts[6]["result"]["code"] == "bad_input"
    assert verdicts[7]["result"] == {"error": "bad_input"}
    assert verdicts[8]["result"] == {"error": "bad_input"}
    assert verdicts[13]["result"]["code"] == "wrong_card_count"
    for verdict in verdicts:
        assert set(verdict) == {"id", "kind", "result"}
        json.dumps(verdict)


def test_c94_judge_command_prints_the_contract_json(tmp_path, capsys):
    """C94 through ``noah-companion complot judge FILE --json``."""
    from companion.cli import main

    path = tmp_path / "scenarios.jsonl"
    path.write_text('{"id": 1, "kind": "payload", "input": {"text": "CPLT1/BOX1/EPNO", '
                    '"deck_id": "BOX1"}}\n\n\xff garbage\n', encoding="utf-8", errors="ignore")
    assert main(["complot", "judge", str(path), "--json"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out == [{"id": 1, "kind": "payload", "result": {"kind": "ok", "card": "empires:noe"}},
                   {"id": None, "kind": None, "result": {"error": "bad_input"}}]
    assert main(["complot", "judge", str(tmp_path / "missing.jsonl"), "--json"]) == 2


@pytest.mark.parametrize("line", ['{"id": 1, "kind": "claim", "input": null}',
                                  '{"id": 1, "kind": "action", "input": {"level": 2}}'])
def test_c94_kind_known_input_malformed_gives_the_function_refusal(line):
    """C90/C91: a known kind with a malformed request answers with the function's own shape."""
    assert judge_line(line)["result"]["code"] == "bad_input"


def test_c94_the_example_scenarios_file_gives_its_expected_results(capsys):
    """C94 on examples/complot/scenarios.jsonl (one example per kind, each checked by hand
    against the ruling its title names): every result equals the line's ``expected``."""
    from companion.cli import main

    path = Path(__file__).parents[2] / "examples" / "complot" / "scenarios.jsonl"
    requests = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                if line.startswith("{")]
    assert main(["complot", "judge", str(path), "--json"]) == 0
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(verdicts) == len(requests) + 1  # the blank line gives none, the prose line one
    for request, verdict in zip(requests, verdicts, strict=False):
        assert verdict == {"id": request["id"], "kind": request["kind"],
                           "result": request["expected"]}
    assert verdicts[-1] == {"id": None, "kind": None, "result": {"error": "bad_input"}}
