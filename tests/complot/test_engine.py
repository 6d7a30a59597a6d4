"""The referee (companion.complot.engine.Game) on hand-built tables: turns, claims, manches,
level 2 and 3 actions, undo and the table log."""

from __future__ import annotations

import pytest

from companion.complot.cards import default_deck
from companion.complot.engine import Game
from companion.complot.tablelog import replay

DECK = default_deck()
LEONARDS = ["leonard:amelie", "leonard:arthur", "leonard:clara", "leonard:emma",
            "leonard:sally", "leonard:sarah"]
ELYSEE_5 = ["etat-major:noe", "empires:sarah", "espions:max", "senechales:marie",
            "espions:arthur", "duron:clara"]
ENQUETEURS = ["enqueteurs:amelie", "enqueteurs:clara", "enqueteurs:emma"]


def table(hands, top="espions:franck", pioche=(), level=1, dealer=None, scores=None):
    """A game whose deal gives ``hands`` (seat order), ``top`` as the first «défausse» card and
    ``pioche`` as the next cards drawn; seat 0 plays first unless ``dealer`` says otherwise."""
    players = len(hands)
    dealer = players - 1 if dealer is None else dealer
    game = Game([f"P{seat}" for seat in range(players)], level=level, dealer=dealer,
                scores=scores)
    used = [card for hand in hands for card in hand] + [top, *pioche]
    rest = [card for card in game.in_play
            if card not in used and not card.startswith("attentat")]
    filler = iter(rest)
    hands = [list(hand) + [next(filler) for _ in range(6 - len(hand))] for hand in hands]
    first = (dealer + 1) % players
    seats = [(first + step) % players for step in range(players)]
    order = [hands[seat][r] for r in range(6) for seat in seats]
    order += [top, *pioche]
    order += [card for card in game.in_play if card not in order]
    assert game.push({"type": "deal", "order": order}).accepted
    return game


def push(game, **action):
    return game.push(action)


def draw(game, seat, source="pioche"):
    return push(game, type="draw", player=seat, **{"from": source})


def test_c10_setup_needs_two_to_six_players():
    """C10: fewer than 2 or more than 6 players is setup_invalid."""
    with pytest.raises(ValueError, match="2 to 6"):
        Game(["solo"])
    with pytest.raises(ValueError):
        Game([str(n) for n in range(7)])


def test_c11_c12_c5a_deal_and_first_player():
    """C11: 6 cards each, one card turned; C12: the dealer's left plays first; C5a: 79 cards at
    levels 1–2, 93 at level 3; the deal passes clockwise (C54)."""
    game = Game(["A", "B", "C"], level=2, dealer=2)
    assert len(game.in_play) == 79
    order = list(game.in_play)
    assert game.push({"type": "deal", "order": order}).accepted
    assert game.current_player == 0 and game.pioche_count == 79 - 18 - 1
    assert all(len(game.hand(seat)) == 6 for seat in range(3))
    assert game.push({"type": "deal", "order": order}).code == "setup_invalid"
    assert len(Game(["A", "B"], level=3).in_play) == 93
    fresh = Game(["A", "B"], level=1)
    assert fresh.push({"type": "deal", "order": order[:-1]}).code == "setup_invalid"
    assert fresh.push({"type": "deal", "order": [*order[:-1], order[0]]}).code == \
        "duplicate_card"
    assert fresh.push({"type": "deal", "order": [*order[:-1], "attentat:todorov"]}).code == \
        "card_not_in_play"


def test_c13_c14_c15_a_turn_draw_then_discard():
    """C13: draw from either pile, then discard (the drawn card allowed); C15 out of turn is
    not_your_turn; C14 six cards between turns."""
    game = table([LEONARDS, ELYSEE_5], top="espions:franck")
    assert push(game, type="discard", player=0, card=LEONARDS[0]).code == "must_draw_first"
    assert draw(game, 1).code == "not_your_turn"
    assert draw(game, 0, "defausse").accepted
    assert draw(game, 0).code == "already_drawn"
    assert push(game, type="discard", player=0, card="espions:max").code == "card_not_in_hand"
    assert push(game, type="discard", player=0, card="espions:franck").accepted
    assert game.current_player == 1 and len(game.hand(0)) == 6
    assert draw(game, 1, "nowhere").code == "bad_input"


def test_c16_empty_pioche_reshuffles_the_defausse_under_its_top_card():
    """C16: the «défausse» except its top card becomes the new «pioche»."""
    game = table([LEONARDS, ELYSEE_5])
    turns = 0
    while game.pioche_count > 0:
        seat = game.current_player
        draw(game, seat)
        push(game, type="discard", player=seat, card=game.hand(seat)[-1])
        turns += 1
    top = game.top_of_defausse
    seat = game.current_player
    assert draw(game, seat).accepted
    assert game.top_of_defausse == top and game.pioche_count == turns - 1
    assert game.missing_cards() is None


def test_c30_c44_c45_wrong_classic_claim_skips_the_next_turn():
    """C30: a «Complot !» right after the discard; C44: a wrong one skips the player's next
    turn (the discard stays); C45: no second claim in the same turn; C44a: a misread hand is a
    recording error that changes nothing."""
    game = table([ELYSEE_5, LEONARDS[:5], ["espions:franck"]], top="espions:sindy")
    draw(game, 0)
    push(game, type="discard", player=0, card="duron:clara")
    assert push(game, type="claim", player=0, claim="complot", cards=LEONARDS).code == \
        "card_not_in_hand"
    assert push(game, type="claim", player=0, claim="complot",
                cards=["x:y"] * 6).code == "unknown_card"
    wrong = push(game, type="claim", player=0, claim="complot")
    assert (wrong.accepted, wrong.code, wrong.changed) == (False, "claim_not_met", True)
    assert push(game, type="claim", player=0, claim="complot").code == "one_claim_per_turn"
    assert push(game, type="claim", player=2, claim="complot").code == "not_your_turn"
    for seat in (1, 2):
        draw(game, seat)
        push(game, type="discard", player=seat, card=game.hand(seat)[-1])
    assert game.current_player == 1 and game.turns_done(0) == 2  # seat 0 passed its turn


def test_c41_c42_c43_c51_elysee_at_a_later_turn_start():
    """C41: the Élysée waits for the start of a later turn, without drawing; C42: not on the
    first turn (a wrong claim there loses that turn, C44); C51b: it ends the manche at once,
    C52: the others score 0."""
    game = table([ELYSEE_5, LEONARDS, ["alphas:naomie"]])
    early = push(game, type="claim", player=0, claim="complot_elysee")
    assert early.code == "elysee_must_wait" and early.changed
    assert game.current_player == 1  # that turn is lost
    draw(game, 1)
    push(game, type="discard", player=1, card=game.hand(1)[-1])
    assert push(game, type="claim", player=1, claim="complot_elysee").code == "elysee_must_wait"
    draw(game, 2)
    push(game, type="discard", player=2, card=game.hand(2)[-1])
    verdict = push(game, type="claim", player=0, claim="complot_elysee")
    assert verdict.accepted and verdict.points == 100
    assert game.phase == "manche_over" and game.end_reason == "elysee"
    assert game.scores == (100, 0, 0) and game.dealer == 0
    assert draw(game, 1).code == "manche_over"


def test_c41_elysee_after_drawing_must_wait():
    """C41: an Élysée after drawing is elysee_must_wait; a classic claim holding 7 cards is
    must_keep_six (C14) and changes nothing."""
    game = table([ELYSEE_5, LEONARDS])
    draw(game, 0)
    assert push(game, type="claim", player=0, claim="complot").code == "must_keep_six"
    assert push(game, type="claim", player=0, claim="complot_elysee").code == "elysee_must_wait"
    assert push(game, type="claim", player=0, claim="complot_elysee").code == \
        "one_claim_per_turn"


def test_c34_c35_c50_c51_c17_accepted_claims_until_the_last_player():
    """C34/C50: a valid claim takes the player out with its points; C35 the manche goes on;
    C17 the laid hand stays out of play; C51a the last player alone scores 0; C53 totals."""
    game = table([LEONARDS[:5], ELYSEE_5, ["alphas:naomie"]], top="leonard:sarah")
    sarah = "leonard:sarah"
    assert sarah not in game.hand(0)
    draw(game, 0, "defausse")
    filler = next(card for card in game.hand(0) if card not in LEONARDS)
    push(game, type="discard", player=0, card=filler)
    claim = push(game, type="claim", player=0, claim="complot")
    assert claim.accepted and claim.combination == "six_leonards" and claim.points == 50
    assert game.still_in == (1, 2) and game.phase == "turn"
    assert draw(game, 0).code == "not_your_turn"
    game2 = table([LEONARDS, ELYSEE_5])
    draw(game2, 0)
    push(game2, type="discard", player=0, card=game2.hand(0)[-1])
    assert push(game2, type="claim", player=0, claim="complot").accepted
    assert game2.phase == "manche_over" and game2.end_reason == "last_player"
    assert game2.scores == (50, 0) and game2.missing_cards() is None


def test_c55_c56_game_end_at_400_ties_share():
    """C55: checked after the manche's scoring; the highest total wins; C56 otherwise a new
    manche starts with the deal passed on (C54)."""
    game = table([LEONARDS, ELYSEE_5], scores=[360, 380])
    draw(game, 0)
    push(game, type="discard", player=0, card=game.hand(0)[-1])
    push(game, type="claim", player=0, claim="complot")
    assert game.is_over and game.winners == (0,)
    assert draw(game, 1).code == "game_over"
    tie = table([LEONARDS, ELYSEE_5], scores=[350, 400])
    draw(tie, 0)
    push(tie, type="discard", player=0, card=tie.hand(0)[-1])
    push(tie, type="claim", player=0, claim="complot")
    assert tie.winners == (0, 1)


def test_c61_c62_c68_controle_seizes_a_card_and_blocks_the_defausse():
    """C62: 1 Enquêteur, seize 1, the target refills, the player discards 1 and the Enquêteur
    covers it; C68: the next player may not take it; C61 not at level 1."""
    hands = [["enqueteurs:emma", *LEONARDS[:5]], ["duron:noe", "espions:sindy"]]
    game = table(hands, level=2)
    assert draw(game, 0).accepted
    action = {"type": "controle", "player": 0, "cards": ["enqueteurs:emma"], "targets": [1],
              "take": ["duron:noe"], "discard": ["duron:noe"]}
    assert game.push({**action, "targets": [0]}).code == "invalid_target"
    assert game.push({**action, "take": ["espions:noe"]}).code == "card_not_in_hand"
    assert game.push({**action, "discard": []}).code == "must_keep_six"
    assert game.push(action).accepted
    assert game.top_of_defausse == "enqueteurs:emma" and game.top_blocked
    assert len(game.hand(0)) == 6 and len(game.hand(1)) == 6
    assert draw(game, 1, "defausse").code == "discard_top_blocked"
    level1 = table(hands)
    draw(level1, 0)
    assert level1.push(action).code == "action_not_in_level"


def test_c63_c65_c67_defended_descente():
    """C63: a descente with 3 Enquêteurs; C65: stopped by a strictly higher État-Major card
    (kept by the defender); C67: no seizure, the player draws 2 to hold 6."""
    hands = [[*ENQUETEURS, *LEONARDS[:3]], ["etat-major:arthur", "espions:sindy"]]
    game = table(hands, level=2)
    draw(game, 0)
    action = {"type": "descente", "player": 0, "cards": ENQUETEURS, "targets": [1],
              "defence": "etat-major:noe"}
    assert game.push(action).code == "card_not_in_hand"
    assert game.push({**action, "defence": "espions:sindy"}).code == "defence_not_etat_major"
    verdict = game.push({**action, "defence": "etat-major:arthur"})
    assert verdict.accepted and "etat-major:arthur" in game.hand(1)
    assert len(game.hand(0)) == 6 and game.top_of_defausse in ENQUETEURS
    assert game.current_player == 1


def test_c81_c82_c83_attentats():
    """C81: no Attentat stays in a dealt hand; C82: an Attentat drawn kills a character taken
    blind by the previous player, covers it, and the victim refills to 6; C83 Attentats drawn
    while refilling are discarded."""
    game = table([LEONARDS, ELYSEE_5, ["alphas:naomie"]], level=3,
                 pioche=("attentat:todorov", "attentat:svetlana", "duron:noe"))
    assert all(not card.startswith("attentat") for seat in range(3) for card in game.hand(seat))
    assert draw(game, 0).accepted and game.phase == "attentat"
    assert push(game, type="discard", player=0, card=LEONARDS[0]).code == "not_your_turn"
    assert push(game, type="kill", player=1, card=LEONARDS[0]).code == "not_your_turn"
    assert push(game, type="kill", player=2, card="attentat:todorov").code == "card_not_in_hand"
    assert push(game, type="kill", player=2, card=LEONARDS[0]).accepted
    assert "duron:noe" in game.hand(0) and len(game.hand(0)) == 6
    assert game.top_of_defausse == "attentat:svetlana" and game.top_blocked
    assert game.current_player == 1 and game.missing_cards() is None
    dealt = Game(["A", "B"], level=3, dealer=1)
    order = sorted(dealt.in_play, key=lambda card: not card.startswith("attentat"))
    assert dealt.push({"type": "deal", "order": order}).accepted
    assert not any(card.startswith("attentat") for card in dealt.hand(0) + dealt.hand(1))
    assert dealt.top_of_defausse is not None
    assert not dealt.top_of_defausse.startswith("attentat")


def test_c84_c85_c86_c87_spies_and_bombs_in_play():
    """C84: a red spy takes 1 card blind; C85 a violet spy one from each of two; C86 a bomb
    kills 3; C87 no defence against them."""
    hands = [["espion-rouge:olga", "espion-violet:irina", "poseur-bombe:olga", *LEONARDS[:3]],
             ["duron:noe"], ["duron:sarah"]]
    game = table(hands, level=3)
    draw(game, 0)
    red = {"type": "hameconnage", "player": 0, "cards": ["espion-rouge:olga"], "targets": [1],
           "take": ["duron:noe"], "discard": [LEONARDS[0]]}
    assert game.check({**red, "defence": "etat-major:noe"}).code == "defence_not_allowed"
    assert game.check({**red, "cards": ["espion-violet:irina"]}).code == "wrong_action_card"
    violet = {"type": "double_hameconnage", "player": 0, "cards": ["espion-violet:irina"],
              "targets": [1, 2], "take": ["duron:noe", "duron:sarah"],
              "discard": [LEONARDS[0], LEONARDS[1]]}
    assert game.check({**violet, "targets": [1]}).code == "wrong_target_count"
    assert game.push(violet).accepted
    assert "duron:noe" in game.hand(0) and game.top_of_defausse == "espion-violet:irina"
    for seat in (1, 2):
        draw(game, seat)
        push(game, type="discard", player=seat, card=game.hand(seat)[-1])
    draw(game, 0)
    victims = list(game.hand(1)[:3])
    bomb = {"type": "bombe", "player": 0, "cards": ["poseur-bombe:olga"], "targets": [1],
            "take": victims}
    assert game.push(bomb).accepted
    assert game.top_of_defausse == "poseur-bombe:olga"
    assert len(game.hand(0)) == 6 and len(game.hand(1)) == 6 and game.missing_cards() is None


def test_c69_targets_out_of_the_manche_are_invalid():
    """C69/C50: a claimant who is out cannot be targeted."""
    hands = [LEONARDS, ["enqueteurs:emma"], ["espions:sindy"]]
    game = table(hands, level=2)
    draw(game, 0)
    push(game, type="discard", player=0, card=game.hand(0)[-1])
    assert push(game, type="claim", player=0, claim="complot").accepted
    draw(game, 1)
    action = {"type": "controle", "player": 1, "cards": ["enqueteurs:emma"], "targets": [0],
              "take": [], "discard": []}
    assert game.push(action).code == "invalid_target"


def test_pop_is_an_exact_undo_and_the_log_round_trips():
    """push/pop restore the state exactly; to_json/from_json and replay read the log back."""
    game = table([LEONARDS, ELYSEE_5])
    before = game.state()
    draw(game, 0)
    push(game, type="discard", player=0, card=game.hand(0)[-1])
    push(game, type="claim", player=0, claim="prix_pulitzer")  # wrong: changes the turn order
    after = game.state()
    copy = Game.from_json(game.to_json())
    assert copy.state() == after
    results = list(replay(game.to_json().splitlines()))
    assert [r["verdict"] for r in results] == ["accepted", "accepted", "accepted",
                                               "wrong_claim"]
    assert results[-1]["state"] == after
    twin = game.copy()
    for _ in range(3):
        game.pop()
    assert game.state() == before and twin.state() == after
    assert twin.pop()["type"] == "claim" and [a["type"] for a in game.history] == ["deal"]


def test_refused_actions_change_nothing_and_bad_input_never_raises():
    """Section H: a refused action changes nothing; malformed actions are bad_input."""
    game = table([LEONARDS, ELYSEE_5], level=3)
    before = game.state()
    for action in (None, [], {"type": "fly"}, {"type": "draw"}, {"type": "draw", "player": 9},
                   {"type": "draw", "player": True, "from": "pioche"},
                   {"type": "claim", "player": 0, "claim": "complot", "cards": "x"},
                   {"type": "discard", "player": 0, "card": 3},
                   {"type": "controle", "player": 0, "cards": [], "targets": "1"},
                   {"type": "kill", "player": 1, "card": "leonard:emma"}):
        verdict = game.push(action)
        assert not verdict.accepted and not verdict.changed
        assert verdict.sentence("en") and verdict.sentence("zh") and verdict.message
    assert game.state() == before


def test_seeded_garbage_never_raises_and_refusals_change_nothing():
    """Section H on hostile actions: plausible and absurd dicts mixed with real moves; a refusal
    that is not a wrong claim (C44) leaves the state as it was, every card stays accounted for."""
    import random

    from companion.complot.engine import ACTION_TYPES
    from companion.complot.simulate import Players

    rng = random.Random(5)
    game = Game(["a", "b", "c"], level=3, seed="fuzz")
    choose = Players(game, random.Random(6)).choose
    ids = [*game.deck.ids(), "bad:id"]
    for _ in range(300):
        if game.is_over:
            break
        action = choose() if rng.random() < 0.5 else {
            "type": rng.choice([*ACTION_TYPES, "zzz"]),
            "player": rng.choice([0, 1, 2, 9, True, None, "1"]),
            "from": rng.choice(["pioche", "defausse", None]),
            "card": rng.choice([*ids, None, 3]),
            "cards": rng.choice([rng.sample(ids, rng.randint(0, 7)), "x", [1]]),
            "claim": rng.choice(["complot", "plan_etare", "complot_elysee", "x"]),
            "targets": rng.choice([[0], [1], [1, 2], [], [True], "x"]),
            "take": rng.sample(ids, rng.randint(0, 3)), "discard": rng.sample(ids, 1),
            "defence": rng.choice([None, "etat-major:noe", 5]),
        }
        before = game.state()
        verdict = game.push(action)
        if not verdict.changed:
            assert game.state() == before
        assert game.missing_cards() is None
