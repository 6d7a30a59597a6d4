"""Helpers shared by the rules-engine tests: build a table in one line.

``table({0: ("cat:F",)}, hands=[("cat:M", "bear:F"), ("lion:M",)])`` is a known-hands game whose
ferry 0 carries a female cat, Noah on position 0, seat 0 to play (a ``position`` action, the
table log's FEN). Pass ``counts=[...]`` instead of ``hands`` for hidden hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.game import Game, Options, Verdict
from companion.game.actions import Position

NAMES = ("Ana", "Ben", "Chloé", "Dan", "Eve")


def table(
    ferries: Mapping[int, Sequence[str]] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    *,
    counts: Sequence[int] | None = None,
    noah: int = 0,
    player: int = 0,
    options: Options | None = None,
    scores: Sequence[int] | None = None,
    departed: int = 0,
    departed_cards: Sequence[str] = (),
    round: int = 1,
    starter: int = 0,
    extra_turn: bool = False,
    players: int | None = None,
) -> Game:
    """A game set at a position (see the module docstring); fails the test if refused."""
    hidden = hands is None
    seats = players or len(hands if hands is not None else counts)
    options = options or Options(hidden=hidden)
    game = Game(NAMES[:seats], options)
    ferries = ferries or {}
    verdict = game.push(Position(
        round=round,
        round_starter=starter,
        current_player=player,
        noah=noah,
        ferries=tuple(tuple(ferries.get(position, ())) for position in range(5)),
        departed=departed,
        scores=tuple(scores or (0,) * seats),
        hands=None if hidden else tuple(tuple(hand) for hand in hands),
        hand_counts=tuple(counts) if hidden else None,
        extra_turn=extra_turn,
        departed_cards=tuple(departed_cards),
    ))
    assert verdict.accepted and verdict.message.startswith("Position set"), verdict.message
    return game


def accepted(game: Game, *actions) -> Verdict:
    """Push actions that must all be accepted; return the last verdict."""
    verdict = None
    for action in actions:
        verdict = game.push(action)
        assert verdict.accepted, f"{action}: {verdict.reason}: {verdict.message}"
        assert verdict.message and "{" not in verdict.message
    return verdict


def rejected(game: Game, action, reason: str) -> Verdict:
    """Push an action that must be refused with ``reason`` and change nothing (R53)."""
    before = game.state()
    history = game.history
    verdict = game.push(action)
    assert not verdict.accepted, f"{action} was accepted"
    assert verdict.reason == reason, f"{action}: {verdict.reason} ({verdict.message})"
    assert game.state() == before and game.history == history
    assert verdict.message and "{" not in verdict.message
    return verdict


def test_table_helper_builds_the_position():
    game = table({2: ("cat:F",)}, [("bear:M",), ("lion:F",)], noah=2, player=1)
    state = game.state()
    assert state["ferries"][2] == ["cat:F"] and state["current_player"] == 1
    assert state["hands"] == [["bear:M"], ["lion:F"]] and state["phase"] == "play"


def test_table_helper_hidden_hands():
    game = table({0: ("cat:F",)}, counts=[3, 4])
    assert game.state()["hand_counts"] == [3, 4] and "hands" not in game.state()
