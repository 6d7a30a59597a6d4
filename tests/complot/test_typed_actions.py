"""Typed actions and ``Game.push_legal`` (companion/complot/actions.py): the fast path the
simulated players take is the checked dict path's game, step for step.

Every simulated game is still a real game: its typed actions, pushed unchecked, and the same
actions as table log lines, judged by ``push(dict)``, give the same table after every action
(C10–C87), the same scores and the same end (C51–C56); the generators name exactly the draws
and discards the judge accepts (C13, C14, C68, C83); ``pop`` undoes a typed push exactly."""

from __future__ import annotations

import json
import random

import pytest

from companion.complot.actions import (
    CardAction,
    Claim,
    Deal,
    Discard,
    Draw,
    Kill,
    parse,
    to_dict,
)
from companion.complot.engine import ACTIONS, Game
from companion.complot.simulate import Players, play_game


def snapshot(game: Game) -> str:
    """Every field of the table, the piles' order included."""
    return json.dumps([game.state(), repr(game._state)])


def twin(game: Game) -> Game:
    """A fresh game with the same table options as ``game``."""
    return Game(game.players, game.level, game.first_dealer, game.seed, game.deck,
                game.target)


def typed_actions(seed: str, players: int, level: int, target: int) -> tuple[Game, list]:
    """A seeded simulated game (fast path, invariants checked) and its typed actions."""
    report = play_game(seed, players, level, check=True, target=target)
    assert report.problem is None and report.game is not None
    return report.game, [report.game.parse(line) for line in report.game.history]


@pytest.mark.parametrize(("level", "players"), [(1, 2), (1, 6), (2, 4), (2, 6), (3, 2),
                                                (3, 4), (3, 6)])
def test_c44_c52_c82_simulated_games_replay_through_the_checked_dict_path(level, players):
    """Seeded games of levels 1–3 with 2, 4 and 6 players (wrong claims C44, action cards
    C60–C86, attentats C82): each typed action, as its table log line, is accepted by
    ``push(dict)`` and leaves the same table as ``push_legal``; same scores and winners."""
    played, actions = typed_actions(f"typed:{level}:{players}", players, level, target=100)
    assert {type(action) for action in actions} >= {Deal, Draw, Discard, Claim}
    if level == 3 and players >= 4:
        assert {CardAction, Kill} <= {type(action) for action in actions}
    fast, judged = twin(played), twin(played)
    for action in actions:
        fast.push_legal(action)
        verdict = judged.push(fast.history[-1])
        assert verdict.changed, (action, verdict.code)
        assert snapshot(judged) == snapshot(fast), action
    assert judged.is_over and judged.scores == played.scores
    assert judged.winners == played.winners and judged.history == played.history


def test_a_seeded_game_is_the_same_through_the_fast_path_and_the_narrated_one():
    """The narrated game (judged dict path, verdicts and events) and the silent one
    (``push_legal``) are one game: same log, scores, manches, turns and claims."""
    silent = play_game("one-game", 4, 3, check=True, target=200)
    told = play_game("one-game", 4, 3, check=True, target=200, narrate_in="en")
    assert told.problem is silent.problem is None and told.narration
    assert (silent.log, silent.scores, silent.manches, silent.turns, silent.claims) == (
        told.log, told.scores, told.manches, told.turns, told.claims)


def test_c13_c14_c68_the_generators_name_exactly_the_draws_and_discards_the_judge_accepts():
    """At every moment of a level-3 game, ``legal_draws`` and ``legal_discards`` are the
    draws and discards of the current player that ``check`` accepts (a blocked or Attentat
    top of the «défausse», C68/C83, an empty one); other seats' are all refused."""
    played, actions = typed_actions("generators", 3, 3, target=120)
    game, checked = twin(played), 0
    for action in actions:
        s = game.table
        for seat in range(len(game.players)):
            draws = [{"type": "draw", "player": seat, "from": pile}
                     for pile in ("pioche", "defausse")]
            discards = [{"type": "discard", "player": seat, "card": card}
                        for card in game.hand(seat)]
            accepted = [line for line in draws + discards if game.check(line).accepted]
            ours = [game.action_dict(typed) for typed in game.legal_draws()
                    + game.legal_discards()] if seat == s.current else []
            assert accepted == ours, (seat, game.state())
            checked += len(ours)
        game.push_legal(action)
    assert checked > 300


def test_pop_undoes_typed_pushes_exactly_and_returns_their_log_lines():
    """``pop`` after ``push_legal`` (a draw and a discard save only what they change; the
    rest save the whole table) gives back each earlier table, first to last."""
    played, actions = typed_actions("typed-undo", 4, 3, target=120)
    game, before = twin(played), []
    for action in actions:
        before.append(snapshot(game))
        game.push_legal(action)
    lines = list(game.history)
    for expected, line in zip(reversed(before), reversed(lines), strict=True):
        assert game.pop() == line
        assert snapshot(game) == expected


def test_c47_is_legal_says_what_the_judge_would_apply():
    """``is_legal`` is the judge's word on a typed action (python-chess's ``is_legal``):
    a claim out of turn is refused (C47), the claim window's and the current player's
    moves are legal; checking changes nothing."""
    game = Game(["Ana", "Ben", "Chloé"], level=2, dealer=0)
    game.push_legal(Deal(tuple(sorted(game.card_numbers[card] for card in game.in_play))))
    before = snapshot(game)
    assert not game.is_legal(Claim(2, "complot"))
    assert not game.is_legal(Discard(1, game.table.hands[1][0]))  # must draw first
    assert all(game.is_legal(draw) for draw in game.legal_draws())
    assert game.is_legal(Claim(1, "complot"))  # a wrong claim is legal: it costs a turn
    assert snapshot(game) == before and len(game.history) == 1


def test_the_parser_reads_back_every_line_the_typed_actions_write():
    """``parse(to_dict(action)) == action`` for every action of seeded games, and every
    malformed line (wrong type, unknown card, a boolean seat, extra claimed cards) is None."""
    numbers = Game(["Ana", "Ben"]).card_numbers
    ids = Game(["Ana", "Ben"]).card_ids
    count = 0
    for seed in ("parse:1", "parse:2"):
        for action in typed_actions(seed, 5, 3, target=100)[1]:
            assert parse(to_dict(action, ids), numbers) == action
            count += 1
    assert count > 100
    for line in ({"type": "draw", "player": 0, "from": "table"}, {"type": "discard"},
                 {"type": "discard", "player": 0, "card": "joker:noe"},
                 {"type": "kill", "player": True, "card": "leonard:emma"},
                 {"type": "claim", "player": 0, "claim": "complot", "cards": []},
                 {"type": "bombe", "player": 0, "cards": ["x"], "targets": [1]},
                 {"type": "controle", "player": 0, "cards": [], "targets": ["1"]},
                 {"type": "note", "text": "hello"}, [], None):
        assert parse(line, numbers) is None, line


def test_c44_c52_the_report_counts_the_manches_turns_and_accepted_claims_of_the_log():
    """The players count what they played (the loop of an unchecked game only pushes): the
    same manches, turn ends (discards, action cards, kills) and accepted claims (a wrong
    «Complot !» is not one, C44; C52) as the game's log judged again line by line."""
    report = play_game("counted:0", players=3, level=3, check=False, target=150)
    judged = twin(report.game)
    manches = turns = claims = wrong = 0
    for line in report.game.history:
        verdict = judged.push(line)
        assert verdict.changed, line
        manches += line["type"] == "deal"
        turns += line["type"] in ("discard", "kill", *ACTIONS)
        claims += line["type"] == "claim" and verdict.accepted
        wrong += line["type"] == "claim" and not verdict.accepted
    assert (report.manches, report.turns, report.claims) == (manches, turns, claims)
    assert manches > 1 and claims > 1 and wrong > 0 and judged.scores == report.scores


def test_the_players_choose_only_among_typed_actions():
    """``Players.choose`` answers with typed actions, and a draw or discard is the very
    object the generators hold (nothing built per move)."""
    game = Game(["Ana", "Ben", "Chloé", "David"], level=3, seed="typed-players")
    players = Players(game, random.Random("typed-players"))
    for _ in range(400):
        action = players.choose()
        if type(action) is Draw:
            assert any(action is legal for legal in game.legal_draws())
        elif type(action) is Discard:
            assert any(action is legal for legal in game.legal_discards())
        game.push_legal(action)
