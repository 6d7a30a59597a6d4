"""Seeded random tables with hidden hands, replayed with the invariants checked (C52, C53, C93):
scores come only from accepted claims, every total is the sum of the manches, each manche
agrees with the contract's own scoring of its claims, ``pop`` restores exactly, and the table
log replays to the same table."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.complot.cards import default_deck
from companion.complot.judge import ACTIONS, game_winners, score_manche
from companion.complot.table import POINTS, Table
from tests.complot.hands import ELYSEE_5, LEONARDS, TWO_TRIOS

DECK = default_deck()
#: Hands that make something, so that random tables see accepted claims too.
MADE = [LEONARDS, TWO_TRIOS, ELYSEE_5,
        ["journalistes:emma", "journalistes:estelle", "journalistes:marc", "alphas:karl",
         "alphas:naomie", "alphas:sally"]]
WORDS = ("complot", "prix_pulitzer", "plan_etare", "complot_elysee")
KINDS = ("controle", "descente", "hameconnage", "double_hameconnage", "bombe")


def random_action(rng: random.Random, table: Table) -> dict[str, Any]:
    """A plausible next line: mostly what a table would do, sometimes a mistake."""
    seats = len(table.players)
    if table.phase != "manche":
        return {"type": rng.choice(["next_manche", "next_manche", "turn"])}
    seat = table.current if table.current is not None and rng.random() < 0.8 else \
        rng.randrange(seats)
    roll = rng.random()
    if table.pending_action is not None and roll < 0.5:
        return {"type": "defence", "card": rng.choice(DECK.ids()[:18])}
    if table.scores_only:
        if roll < 0.1:
            return {"type": "end_manche", "reason": "pioche_empty"}
        return {"type": "claim_points", "player": rng.randrange(seats),
                "combination": rng.choice(sorted(POINTS))}
    if roll < 0.45:
        return random_turn(rng, seat)
    if roll < 0.75:
        cards = rng.choice(MADE) if rng.random() < 0.6 else rng.sample(DECK.ids()[:79], 6)
        action = {"type": "claim", "player": seat, "claim": rng.choice(WORDS), "cards": cards}
        if rng.random() < 0.2:
            action["moment"] = rng.choice(["discard", "turn_start"])
        return action
    if roll < 0.9:
        return random_play(rng, table, seat)
    if roll < 0.97:
        return {"type": "defence", "card": rng.choice(DECK.ids()[:20])}
    return {"type": "end_manche", "reason": "pioche_empty"}


def random_turn(rng: random.Random, seat: int) -> dict[str, Any]:
    """A turn's end, its discard and the pile drawn from said or not (C13); sometimes the top
    of the «défausse» shown instead (C11)."""
    if rng.random() < 0.1:
        return {"type": "defausse", "card": rng.choice(DECK.ids())}
    action: dict[str, Any] = {"type": "turn", "player": seat}
    if rng.random() < 0.5:
        action["discard"] = rng.choice(DECK.ids())
    if rng.random() < 0.3:
        action["from"] = rng.choice(["pioche", "defausse"])
    return action


def random_play(rng: random.Random, table: Table, seat: int) -> dict[str, Any]:
    """A level 2–3 action, mostly with the right cards and targets."""
    kind = rng.choice(KINDS)
    category, count, target_count = ACTIONS[kind]
    right = [card.id for card in DECK if card.category == category]
    cards = rng.sample(right, count) if rng.random() < 0.8 else rng.sample(DECK.ids(), count)
    opponents = [other for other in table.still_in if other != seat]
    targets = rng.sample(opponents, min(target_count, len(opponents))) \
        if rng.random() < 0.8 else [rng.randrange(len(table.players))]
    return {"type": "action", "player": seat, "kind": kind, "cards": cards, "targets": targets}


def check_invariants(table: Table, accepted: list[list[tuple[int, int]]]) -> None:
    """Totals = sum of finished manches; manche points = the accepted claims' points."""
    finished = table.manches
    sums = tuple(sum(points[seat] for points in finished) for seat in range(len(table.players)))
    assert table.scores == sums
    current = [0] * len(table.players)
    for seat, points in accepted[-1]:
        assert current[seat] == 0  # one valid announcement per player per manche (C34)
        current[seat] = points
    assert table.manche_points == tuple(current)
    assert all(min(points) >= 0 for points in finished)


def agrees_with_score_manche(table: Table, claims: list[dict[str, Any]],
                             scores_before: tuple[int, ...]) -> None:
    """C93: the contract's scoring of the manche's claims gives the table's points and end."""
    result = score_manche({"level": table.level, "players": len(table.players),
                           "scores": list(scores_before), "claims": claims})
    assert result["manche_points"] == list(table.manche_points)
    if table.end_reason in ("last_player", "elysee"):
        assert result["end_reason"] == table.end_reason
        assert result["totals"] == list(table.scores)
        assert tuple(game_winners(result["totals"], table.target)) == table.winners


def play(seed: int, players: int, level: int, scores_only: bool, steps: int) -> Table:
    rng = random.Random(seed)
    table = Table([f"P{n}" for n in range(players)], level=level, target=300,
                  scores_only=scores_only)
    accepted: list[list[tuple[int, int]]] = [[]]
    claims: list[dict[str, Any]] = []
    scores_before = table.scores
    for _ in range(steps):
        action = random_action(rng, table)
        before = table.state()
        verdict = table.push(action)
        if verdict.changed and action["type"] != "undo":
            assert table.pop() == action and table.state() == before  # exact undo
            assert table.push(action) == verdict
        if not verdict.changed:
            assert table.state() == before  # a refusal changes nothing (section H)
        if verdict.accepted and action["type"] in ("claim", "claim_points"):
            accepted[-1].append((action["player"], verdict.points))
            if action["type"] == "claim":
                claims.append({**action, "moment": "turn_start" if action["claim"] ==
                               "complot_elysee" else "discard", "first_turn": False})
        if action["type"] == "next_manche" and verdict.accepted:
            accepted.append([])
            claims, scores_before = [], table.scores
        elif not scores_only:
            agrees_with_score_manche(table, claims, scores_before)
        check_invariants(table, accepted)
        if table.is_over:
            break
    return table


@pytest.mark.parametrize(("seed", "players", "level", "scores_only"), [
    (1, 2, 1, False), (2, 3, 2, False), (3, 4, 3, False), (4, 6, 2, False), (5, 5, 3, False),
    (6, 4, 1, True), (7, 6, 1, True)])
def test_c52_c53_c93_seeded_random_tables_hold_every_invariant(seed, players, level,
                                                               scores_only):
    """C52/C53: scores only from accepted claims, totals = the sum of the manches, C93 agrees;
    undo restores exactly; the log replays to the same table."""
    table = play(seed, players, level, scores_only, steps=400)
    assert Table.from_json(table.to_json()).state() == table.state()
    start = Table(table.players, level=level, target=300, scores_only=scores_only)
    while table.history:
        table.pop()
    assert table.state() == start.state()
