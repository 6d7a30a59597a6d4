"""Seeded random games replayed with the invariants checked (C1, C5a, C14, C17, C52, C53):
every card in play is in exactly one place after every action, hands are back to 6 between
turns, scores come only from accepted claims; the table log replays to the same state and
``pop`` unwinds the whole game exactly."""

from __future__ import annotations

import pytest

from companion.complot.cards import deck_text, default_deck, parse_deck
from companion.complot.engine import Game
from companion.complot.simulate import play_game
from companion.complot.tablelog import replay


@pytest.mark.parametrize(("seed", "players", "level"),
                         [("p1", 2, 1), ("p2", 6, 2), ("p3", 4, 3), ("p4", 3, 3)])
def test_c53_seeded_games_hold_every_invariant(seed, players, level):
    """C53/C55: scores add up manche after manche to the end; invariants after every action."""
    report = play_game(seed, players, level, check=True, target=120)
    assert report.problem is None
    assert max(report.scores) >= 120 and report.winners
    assert report.claims > 0 and report.manches >= 1
    game = Game.from_json(report.log)
    assert game.scores == report.scores and game.winners == report.winners
    results = list(replay(report.log.splitlines()))
    assert all(result["verdict"] != "rejected" for result in results)
    assert results[-1]["state"] == game.state()
    start = Game(game.players, level=level, dealer=game.first_dealer, seed=game.seed,
                 target=120)
    while game.history:
        game.pop()
    assert game.state() == start.state()


def test_c1_c5a_a_box_with_eight_attentats_plays_level_3():
    """C1/C5a with a deck file: 8 Attentats (the publisher's page) instead of 5; levels 1–2
    still play without any méchant."""
    extra = "AT,XA,Xenia\nAT,YB,Yuri\nAT,ZC,Zora\n"
    deck = parse_deck(deck_text(default_deck()) + extra)
    assert len(deck) == 96 and len(deck.for_level(2)) == 79
    report = play_game("eight", 4, 3, deck=deck, target=60)
    assert report.problem is None
