"""The referee of a real table with hidden hands (companion.complot.table.Table): turns told by
the table, claims judged on the cards laid down, actions and defences on the cards shown,
score-only claims, manches, the game's end, undo and the table log."""

from __future__ import annotations

import json

import pytest

from companion.complot.judge import check_claim
from companion.complot.messages import REFUSALS, TABLE_EVENTS, table_sentence
from companion.complot.table import Table, is_hidden_header, setup_problem
from companion.complot.tablelog import replay
from tests.complot.hands import ELYSEE_5, EMPIRES, LEONARDS, NOTHING, TWO_TRIOS


def names(count):
    return [f"P{seat}" for seat in range(count)]


def claim(table, seat, word, cards, **extra):
    return table.push({"type": "claim", "player": seat, "claim": word, "cards": cards, **extra})


def turn(table, seat=None):
    return table.push({"type": "turn", "player": table.current if seat is None else seat})


def test_c10_c11_c12_setup_and_first_player():
    """C10: 2 to 6 players (setup_invalid otherwise); C11/C12: the player on the first
    dealer's left plays first (by default the last seat deals, so seat 0 starts)."""
    assert "2 to 6" in setup_problem(["solo"], 1, 400)
    assert "2 to 6" in setup_problem(names(7), 1, 400)
    assert "same name" in setup_problem(["Ana", "Ana "], 1, 400)
    with pytest.raises(ValueError, match="level"):
        Table(["Ana", "Ben"], level=0)
    assert Table(names(6)).current == 0
    assert Table(names(3), dealer=0).current == 1


def test_c15_c13_turns_pass_clockwise_and_out_of_turn_is_refused():
    """C15: only the player whose turn it is ends it; the turn passes clockwise (C13: the
    table says when the discard is made)."""
    table = Table(names(3))
    refused = turn(table, 1)
    assert (refused.accepted, refused.code, refused.changed) == (False, "not_your_turn", False)
    assert turn(table).accepted and table.current == 1
    assert turn(table).accepted and turn(table).accepted and table.current == 0
    assert [table.turns_done(seat) for seat in range(3)] == [1, 1, 1]


def test_c90_claims_are_judged_by_check_claim_itself():
    """C90: the table's verdict on the cards laid down is the contract's (no second judge)."""
    for word, cards in [("complot", LEONARDS), ("complot", TWO_TRIOS), ("plan_etare", TWO_TRIOS),
                        ("prix_pulitzer", TWO_TRIOS), ("complot", NOTHING)]:
        table = Table(names(3))
        verdict = claim(table, 0, word, cards)
        expected = check_claim({"level": 1, "cards": cards, "claim": word})
        assert (verdict.accepted, verdict.code, verdict.points, verdict.combination) == (
            expected["accepted"], expected["code"], expected["points"], expected["combination"])


def test_c30_c34_c50_an_accepted_claim_takes_the_player_out():
    """C30: a classic claim ends the claimant's turn (made right after the discard); C34/C50:
    the player is out with the points of that one announcement and is skipped."""
    table = Table(names(3))
    verdict = claim(table, 0, "complot", EMPIRES)
    assert (verdict.accepted, verdict.points, verdict.combination) == (True, 50, "six_empires")
    assert table.still_in == (1, 2) and table.current == 1
    assert table.manche_points == (50, 0, 0) and table.scores == (0, 0, 0)
    turn(table)
    assert turn(table).accepted and table.current == 1
    assert claim(table, 0, "complot", LEONARDS).code == "player_out"


def test_c30_c45_a_late_claim_after_the_turn_was_passed():
    """C30: the player who just ended their turn may still announce until the next player
    acts; anyone else is refused not_your_turn (C45: no interrupts)."""
    table = Table(names(3))
    turn(table)
    assert claim(table, 2, "complot", LEONARDS).code == "not_your_turn"
    late = claim(table, 0, "complot", LEONARDS)
    assert late.accepted and table.current == 1 and table.still_in == (1, 2)
    table.pop()
    turn(table)                                          # P1 ends a turn: P0's chance is gone
    assert claim(table, 0, "complot", LEONARDS).code == "not_your_turn"


def test_c44_a_wrong_claim_at_the_discard_costs_the_next_turn():
    """C44: cards taken back, no points, the claimant's next turn is passed (and counts as a
    turn for C42)."""
    table = Table(names(3))
    wrong = claim(table, 0, "complot", NOTHING)
    assert (wrong.accepted, wrong.code, wrong.changed) == (False, "claim_not_met", True)
    assert table.must_pass == (0,) and table.current == 1 and table.manche_points == (0, 0, 0)
    turn(table)
    turn(table)                                          # P0 passes: P1 plays again
    assert table.current == 1 and table.must_pass == () and table.turns_done(0) == 2


def test_c45_one_claim_per_turn_after_a_wrong_claim():
    """C45: after a wrong claim the player may not announce again in the same turn."""
    table = Table(names(3))
    claim(table, 0, "complot", NOTHING)
    assert claim(table, 0, "complot", LEONARDS).code == "one_claim_per_turn"


def test_c44a_c46_recording_errors_change_nothing():
    """C44a/C46: a misread hand (unknown card, twice the same card, not 6 cards, a méchant
    below level 3, an Attentat) is refused and changes nothing: the cards are read again."""
    table = Table(names(3))
    before = table.state()
    for cards, code in [(["leonard:nobody", *LEONARDS[1:]], "unknown_card"),
                        ([LEONARDS[0], *LEONARDS[:5]], "duplicate_card"),
                        (LEONARDS[:5], "hand_size"),
                        (["espion-rouge:olga", *LEONARDS[1:]], "card_not_in_play")]:
        verdict = claim(table, 0, "complot", cards)
        assert (verdict.code, verdict.changed) == (code, False)
    level3 = Table(names(3), level=3)
    assert claim(level3, 0, "complot", ["attentat:todorov", *LEONARDS[1:]]).code == \
        "attentat_in_hand"
    assert table.state() == before and claim(table, 0, "complot", LEONARDS).accepted


def test_c41_c42_elysee_waits_for_a_later_turn_start():
    """C42: not on the first turn (the turn is lost, and counts); C41: at the start of a later
    turn, without drawing, it ends the manche at once with 100 points (C51b)."""
    table = Table(names(2))
    first = claim(table, 0, "complot_elysee", ELYSEE_5)
    assert (first.code, first.changed, table.current) == ("elysee_must_wait", True, 1)
    turn(table)
    assert table.current == 0 and table.turns_done(0) == 1
    verdict = claim(table, 0, "complot_elysee", ELYSEE_5)
    assert (verdict.accepted, verdict.points, table.end_reason) == (True, 100, "elysee")
    assert table.phase == "manche_over" and table.scores == (100, 0)


def test_c41_c44_elysee_at_a_discard_is_a_wrong_claim_costing_the_next_turn():
    """C41: an Élysée at a discard is elysee_must_wait; made at the discard it costs the next
    turn (C44)."""
    table = Table(names(3))
    turn(table)
    turn(table)
    turn(table)
    wrong = claim(table, 0, "complot_elysee", ELYSEE_5, moment="discard")
    assert wrong.code == "elysee_must_wait" and table.must_pass == (0,)


def test_c33_the_word_announced_is_judged_and_classic_claims_wait_for_the_discard():
    """C33: six Léonard are not a «Plan Étaré !»; C30: a «Complot !» at a turn's start is
    claim_wrong_moment and loses that turn (C44)."""
    table = Table(names(3))
    assert claim(table, 0, "plan_etare", LEONARDS).code == "claim_not_met"
    table.pop()
    early = claim(table, 0, "complot", LEONARDS, moment="turn_start")
    assert early.code == "claim_wrong_moment" and table.current == 1 and table.must_pass == ()


def test_c51_c52_c53_last_player_scores_zero_and_totals_add_up():
    """C51a: the manche ends when one player is left, who scores 0 (C52); C53: totals add up
    over manches; C12/C54: the deal passes clockwise; C56: a new manche starts below 400."""
    table = Table(names(3))
    claim(table, 0, "complot", LEONARDS)
    verdict = claim(table, 1, "complot", TWO_TRIOS)
    assert table.end_reason == "last_player" and table.phase == "manche_over"
    assert ("manche_over", {"reason": "last_player", "points": [50, 15, 0]}) in verdict.events
    assert claim(table, 2, "complot", LEONARDS).code == "manche_over"
    assert table.push({"type": "next_manche"}).accepted
    assert (table.manche, table.dealer, table.current) == (2, 0, 1)
    claim(table, 1, "complot", EMPIRES)
    claim(table, 2, "complot", TWO_TRIOS)
    assert table.manches == ((50, 15, 0), (0, 50, 15)) and table.scores == (50, 65, 15)


def test_c51c_c16_the_table_tells_that_the_pioche_ran_out():
    """C51c (after C16's reshuffle still leaves no «pioche»): told by the table, the manche
    ends and is scored as C52 says."""
    table = Table(names(3))
    claim(table, 0, "complot", LEONARDS)
    assert table.push({"type": "end_manche", "reason": "elysee"}).code == "bad_input"
    assert table.push({"type": "next_manche"}).code == "manche_not_over"
    assert table.push({"type": "end_manche", "reason": "pioche_empty"}).accepted
    assert table.end_reason == "pioche_empty" and table.scores == (50, 0, 0)


def test_c55_game_over_at_the_target_with_a_shared_victory():
    """C55: checked after the manche's scoring; the highest total wins, ties share."""
    table = Table(names(3), target=50)
    claim(table, 0, "complot", LEONARDS)
    assert table.phase == "manche" and table.winners == ()
    claim(table, 1, "complot", EMPIRES)
    assert table.phase == "game_over" and table.winners == (0, 1)
    assert turn(table).code == "game_over"
    assert table.push({"type": "next_manche"}).code == "game_over"


def test_c31_c32_c40_score_only_claims_by_their_combination():
    """C31/C32/C40: in a score-only game a claim records a combination's points (no cards,
    no turns); an Élysée ends the manche (C51b)."""
    table = Table(names(3), scores_only=True)
    assert table.current is None
    assert table.push({"type": "claim_points", "player": 2, "combination": "five_alphas"}
                      ).points == 75
    assert table.push({"type": "claim_points", "player": 2, "combination": "two_trios"}
                      ).code == "player_out"
    assert table.push({"type": "claim_points", "player": 0, "combination": "seven"}
                      ).code == "bad_input"
    assert claim(table, 0, "complot", LEONARDS).code == "scores_only_game"
    verdict = table.push({"type": "claim_points", "player": 0, "combination": "complot_elysee"})
    assert verdict.points == 100 and table.end_reason == "elysee" and table.scores == (100, 0, 75)
    card_game = Table(names(2))
    assert card_game.push({"type": "claim_points", "player": 0, "combination": "two_trios"}
                          ).code == "needs_cards"


def test_c60_c61_c91_actions_are_judged_on_the_cards_shown():
    """C60: no action at level 1; C61/C91: one action per turn, with the right cards and an
    opponent still in the manche (C69)."""
    level1 = Table(names(3))
    act = {"type": "action", "player": 0, "kind": "controle", "cards": ["enqueteurs:max"],
           "targets": [1]}
    assert level1.push(act).code == "action_not_in_level"
    table = Table(names(3), level=2)
    assert table.push({**act, "player": 1}).code == "not_your_turn"
    assert table.push({**act, "targets": [0]}).code == "invalid_target"
    assert table.push({**act, "cards": ["espions:max"]}).code == "wrong_action_card"
    assert table.push({**act, "kind": "descente"}).code == "wrong_card_count"
    assert table.push({**act, "kind": "bombe"}).code == "action_not_in_level"
    verdict = table.push(act)
    assert verdict.accepted and table.pending_action == "controle" and table.current == 0
    assert table.push(act).code == "one_action_per_turn"


def test_c65_c66_c67_c92_a_defence_stops_the_pending_controle():
    """C65/C92: a strictly higher État-Major grade stops the contrôle (C67: no seizure);
    C66: an equal grade does not; the action waits for its defence until the turn ends."""
    table = Table(names(3), level=2)
    table.push({"type": "action", "player": 0, "kind": "controle", "cards": ["enqueteurs:david"],
                "targets": [2]})
    assert table.push({"type": "defence", "card": "etat-major:david"}).code == \
        "defence_grade_too_low"
    assert table.push({"type": "defence", "card": "empires:noe"}).code == \
        "defence_not_etat_major"
    stopped = table.push({"type": "defence", "card": "etat-major:sarah"})
    assert stopped.accepted and table.pending_action is None
    assert stopped.events[0][1]["target"] == 2
    assert table.push({"type": "defence", "card": "etat-major:noe"}).code == "defence_not_allowed"
    turn(table)
    assert table.push({"type": "defence", "card": "etat-major:noe"}).code == \
        "no_action_to_defend"


def test_c30_c84_c87_a_spy_cannot_be_stopped_and_a_claim_may_end_an_action_turn():
    """C84/C87: a red spy's hameçonnage has no defence (defence_not_allowed); C30: the action
    turn's end is a claim moment; C85: a violet spy needs two opponents."""
    table = Table(names(3), level=3)
    table.push({"type": "action", "player": 0, "kind": "hameconnage",
                "cards": ["espion-rouge:olga"], "targets": [1]})
    assert table.push({"type": "defence", "card": "etat-major:noe"}).code == \
        "defence_not_allowed"
    assert claim(table, 0, "complot", LEONARDS).accepted and table.current == 1
    violet = {"type": "action", "player": 1, "kind": "double_hameconnage",
              "cards": ["espion-violet:irina"], "targets": [2]}
    assert table.push(violet).code == "wrong_target_count"
    assert table.push({**violet, "targets": [2, 0]}).code == "invalid_target"


def test_c42_c44_an_elysee_after_an_action_is_not_at_a_turn_start():
    """C41/C44: an action comes after the draw, so an Élysée then waits (a wrong claim that
    costs the next turn); C42 is about the first turn only."""
    table = Table(names(2), level=2)
    turn(table)
    turn(table)
    table.push({"type": "action", "player": 0, "kind": "controle",
                "cards": ["enqueteurs:emma"], "targets": [1]})
    assert claim(table, 0, "complot_elysee", ELYSEE_5).code == "elysee_must_wait"
    assert table.must_pass == (0,) and table.current == 1


def test_undo_lines_and_the_table_log_round_trip():
    """The log (header option "hands": "hidden") replays to the same table; ``undo`` lines pop
    as TABLE-LOG.md says; a refused line does not stop the replay."""
    table = Table(["Ana", "Ben", "Chloé"], level=2, target=100)
    claim(table, 0, "complot", NOTHING)
    turn(table)
    table.push({"type": "note", "text": "Ben hésite"})
    claim(table, 2, "complot", LEONARDS)
    assert table.push({"type": "undo", "count": 1}).accepted
    assert table.push({"type": "undo", "count": 9}).code == "bad_input"
    assert is_hidden_header(table.header())
    text = table.to_json()
    assert Table.from_json(text).state() == table.state()
    lines = [*text.splitlines(), "not json", json.dumps({"type": "undo"})]
    results = list(replay(lines))
    assert [r["verdict"] for r in results] == ["wrong_claim", "accepted", "rejected",
                                              "accepted"]
    assert results[-1]["state"]["must_pass"] == [0]


def test_every_new_refusal_and_event_is_worded_in_three_languages():
    """Refusals carry one plain sentence in fr/en/zh (section H and the table's own codes),
    and every event of the table is told with the players' names."""
    for code in ("scores_only_game", "needs_cards", "no_action_to_defend", "manche_not_over"):
        assert all(REFUSALS[code])
    params = {"player": 0, "next": 1, "target": 1, "dealer": 0, "first": 1, "targets": [1],
              "winners": [0, 1], "combination": "two_trios", "points": 15, "action": "descente",
              "code": "claim_not_met", "defence": "etat-major:sophie", "manche": 2,
              "card": "leonard:emma",
              "what": "x"}
    for event in TABLE_EVENTS:
        for language in ("fr", "en", "zh"):
            text = table_sentence(event, params, ["Ana", "Ben"], language)
            assert "{" not in text and text
    assert table_sentence("manche_over", {"reason": "pioche_empty"}, [], "en") == \
        "End of the manche (the pioche is empty): deal the next one."


def test_c94_complot_replay_reads_a_real_tables_log(tmp_path, capsys):
    """``complot replay`` reads a hidden-hands log with the table model (its own action types)
    and refuses a damaged header with exit status 2 and one sentence."""
    from companion.cli import main

    table = Table(["Ana", "Ben"], target=50)
    claim(table, 0, "complot", LEONARDS)
    log = tmp_path / "table.jsonl"
    log.write_text(table.to_json() + '{"type": "turn", "player": 1}\n', encoding="utf-8")
    assert main(["complot", "replay", str(log), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["verdict"] for line in lines[:-1]] == ["accepted", "rejected"]
    assert lines[1]["reason"] == "game_over" and lines[-1]["winners"] == [0]
    header = table.header()
    header["options"]["level"] = 7
    log.write_text(json.dumps(header) + "\n", encoding="utf-8")
    assert main(["complot", "replay", str(log)]) == 2
    assert "level is 1, 2 or 3" in capsys.readouterr().err


def test_c47_the_referee_checks_come_before_the_claims_own():
    """C47: game_over, manche_over, not_your_turn, player_out and one_claim_per_turn come
    before a malformed claim (bad_input) and before the cards are judged."""
    table = Table(names(3), target=50)
    bad = ("shout", "not a list")
    assert claim(table, 2, *bad).code == "not_your_turn"
    claim(table, 0, "complot", LEONARDS)
    assert claim(table, 0, *bad).code == "player_out"
    claim(table, 1, "complot", NOTHING)
    assert claim(table, 1, *bad).code == "one_claim_per_turn"
    assert claim(table, 2, *bad).code == "bad_input"
    claim(table, 2, "complot", EMPIRES)
    assert table.phase == "game_over" and claim(table, 1, *bad).code == "game_over"
    other = Table(names(2))
    claim(other, 0, "complot", LEONARDS)
    assert claim(other, 1, *bad).code == "manche_over"


def test_c62_c63_c64_c69_c86_descente_bombe_and_targets():
    """C63: a descente with three Enquêteurs, stopped only by a grade above the most senior
    (C64/C65: Sophie over Max); C69: a target out of the manche is invalid; C80/C86: a bomb
    at level 3 has no defence."""
    table = Table(names(3), level=3)
    claim(table, 0, "complot", LEONARDS)                      # P0 out; P1 plays
    descente = {"type": "action", "player": 1, "kind": "descente",
                "cards": ["enqueteurs:max", "enqueteurs:emma", "enqueteurs:clara"],
                "targets": [0]}
    assert table.push(descente).code == "invalid_target"
    assert table.push({**descente, "targets": [2]}).accepted
    assert table.push({"type": "defence", "card": "etat-major:karl"}).code == \
        "defence_grade_too_low"
    assert table.push({"type": "defence", "card": "etat-major:sophie"}).accepted
    turn(table)
    bomb = {"type": "action", "player": 2, "kind": "bombe", "cards": ["poseur-bombe:irina"],
            "targets": [1]}
    assert table.push(bomb).accepted and table.pending_action is None
