"""``pop`` is an exact undo and ``check`` changes nothing, with the table's fields saved and
restored (companion/complot/state.py)."""

from __future__ import annotations

import json

import pytest

from companion.complot.engine import Game
from companion.complot.simulate import play_game


def snapshot(game: Game) -> str:
    """Every field of the table, the piles' order included."""
    return json.dumps([game.state(), repr(game._state)])


@pytest.mark.parametrize(("seed", "players", "level"), [("u1", 5, 2), ("u2", 4, 3)])
def test_every_state_on_the_undo_stack_comes_back_exactly(seed, players, level):
    """C44/C67/C82/C86 paths included (wrong claims, defences, attentats, bombs at level 3):
    after the whole game, popping one action at a time gives back each earlier table."""
    log = play_game(seed, players, level, check=False, target=150).log.splitlines()
    header, actions = json.loads(log[0]), [json.loads(line) for line in log[1:]]
    game = Game(header["players"], level=level, dealer=header["options"]["dealer"],
                seed=header["options"]["seed"], target=150)
    before = []
    for action in actions:
        before.append(snapshot(game))
        for candidate in list(game._candidates(game._state))[:6]:
            game.check(candidate)  # judged and restored: nothing may leak into the table
        assert snapshot(game) == before[-1]
        assert game.push(action).changed
    assert game.is_over
    for expected in reversed(before):
        game.pop()
        assert snapshot(game) == expected


@pytest.mark.parametrize("action", [{"type": []}, {"type": {}}, {"type": None}, [], None, "draw",
                                    {"type": "zzz"}, {}])
def test_an_action_of_no_known_type_is_bad_input_and_changes_nothing(action):
    game = Game(["Ana", "Ben"])
    before = snapshot(game)
    verdict = game.push(action)
    assert (verdict.code, verdict.changed, snapshot(game)) == ("bad_input", False, before)


def test_save_and_restore_carry_every_field_of_the_state():
    """``State.save`` reads the fields by name (for speed): a field added to the dataclass and
    left out there would not come back on ``pop``."""
    from dataclasses import fields

    from companion.complot.state import State

    state = State(3, (1, 2, 3), 2)
    saved = state.save()
    for number, field in enumerate(fields(State)):
        if field.name != "players":  # every field told apart, by a value of its own type
            setattr(state, field.name, _other_value(field.name, getattr(state, field.name),
                                                    number))
    changed = state.copy()
    state.restore(saved)
    assert state == State(3, (1, 2, 3), 2)
    for field in fields(State):
        assert getattr(changed, field.name) is not getattr(state, field.name) or \
            field.name == "players", field.name



#: What the fields that a fresh state leaves at None hold instead (a field added to them must
#: be added here: _other_value says so).
_OPTIONAL = {"window": 1, "end_reason": "value"}


def _other_value(name: str, value: object, number: int) -> object:
    """A value of the field's own type that a fresh state does not hold (the compiled
    build's State, companion/complot/native.py, checks the type of what a field is given)."""
    if value is None:
        return _OPTIONAL[name]
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return 1000 + number
    if isinstance(value, tuple):
        return (number,)
    return f"value {number}"
