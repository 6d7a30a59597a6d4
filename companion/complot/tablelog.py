"""The Complot table log: TABLE-LOG.md's envelope (JSON Lines, a header, one action a line)
with Complot's own format name and action types.

Line 1::

    {"format": "complot-table-log", "version": 1, "players": ["Ana", "Ben"],
     "options": {"level": 2, "dealer": 0, "seed": "1", "target": 400}}

Then one action per line, exactly what :meth:`Game.push` takes: ``deal`` (``order``: every card
in play, top of the «pioche» first), ``draw`` (``player``, ``from``: ``pioche``/``defausse``),
``kill`` (``player``: the previous player, ``card``: the victim's card taken blind, C82),
``discard`` (``player``, ``card``), ``claim`` (``player``, ``claim``, optional ``cards``),
``controle`` / ``descente`` / ``hameconnage`` / ``double_hameconnage`` / ``bombe``
(``player``, ``cards``, ``targets``, ``take``, ``discard``, optional ``defence``), and
``{"type": "note", "text": …}`` (changes nothing). Unknown fields are ignored.

A header whose options say ``"hands": "hidden"`` is the log of a real table, whose referee
knows only what it is shown and told (:mod:`companion.complot.table`, its own action types):
:func:`replay` reads it with that model.

>>> from companion.complot.engine import Game
>>> text = Game(["Ana", "Ben"], level=2).to_json()
>>> [result["verdict"] for result in replay(text.splitlines())]
[]
>>> from companion.complot.table import Table
>>> log = [*Table(["Ana", "Ben"]).to_json().splitlines(), '{"type": "turn", "player": 1}']
>>> [(result["verdict"], result["reason"]) for result in replay(log)]
[('rejected', 'not_your_turn')]
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from .cards import Deck
from .engine import Game
from .judge import is_int
from .table import Table, is_hidden_header

FORMAT = "complot-table-log"
MAX_LINE = 256 * 1024


class LogError(ValueError):
    """The log cannot be read at all (no header, another format); says which line."""


def game_from_header(header: Any, deck: Deck | None = None) -> Game:
    """The :class:`Game` a header line describes."""
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise LogError(f"Line 1 is not a Complot table log header (format '{FORMAT}').")
    if header.get("version") != 1:
        raise LogError("Line 1: this Complot table log has a version this program cannot read.")
    players, options = header.get("players"), header.get("options", {})
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players) \
            or not 2 <= len(players) <= 6:
        raise LogError("Line 1: 'players' must list 2 to 6 names.")
    if not isinstance(options, dict):
        raise LogError("Line 1: 'options' must be an object.")
    level, dealer = options.get("level", 1), options.get("dealer", 0)
    seed, target = options.get("seed", "1"), options.get("target", 400)
    scores = options.get("scores", [0] * len(players))
    if not (is_int(level) and level in (1, 2, 3) and is_int(dealer)
            and 0 <= dealer < len(players) and isinstance(seed, str)
            and is_int(target) and target > 0 and isinstance(scores, list)
            and len(scores) == len(players) and all(is_int(x) and x >= 0 for x in scores)):
        raise LogError("Line 1: options need level 1-3, a dealer seat, a text seed, a "
                       "positive target and one score of 0 or more per player.")
    return Game(players, level=level, dealer=dealer, seed=seed, deck=deck, target=target,
                scores=scores)


def replay(lines: Iterable[str], deck: Deck | None = None) -> Iterator[dict[str, Any]]:
    """Judge a log's action lines: ``{"line", "verdict", "reason", "message"}`` for each
    (``verdict`` is ``accepted``, ``rejected``, or ``wrong_claim`` for a refused claim that
    costs a turn); the last item also has ``"state"``. Raises :class:`LogError` for a log that
    has no readable header."""
    numbered = ((number, line) for number, line in enumerate(lines, start=1) if line.strip())
    first = next(numbered, None)
    if first is None:
        return
    try:
        header = json.loads(first[1])
    except ValueError:
        raise LogError(f"Line {first[0]} is not JSON: a Complot table log starts with its "
                       "header.") from None
    referee = _hidden_table(header, deck) if is_hidden_header(header) \
        else game_from_header(header, deck)
    result: dict[str, Any] | None = None
    for number, line in numbered:
        if result is not None:
            yield result
        result = _judge_line(referee, number, line)
    if result is not None:
        result["state"] = referee.state()
        yield result


def _hidden_table(header: dict[str, Any], deck: Deck | None) -> Table:
    """The :class:`Table` of a real table's log (``"hands": "hidden"``)."""
    try:
        return Table.from_header(header, deck)
    except ValueError as error:
        raise LogError(str(error)) from None


def _judge_line(referee: Game | Table, number: int, line: str) -> dict[str, Any]:
    try:
        action = json.loads(line) if len(line) <= MAX_LINE else None
    except (ValueError, RecursionError):
        action = None
    if isinstance(action, dict) and action.get("type") == "note":
        return {"line": number, "verdict": "accepted", "reason": None, "message": ""}
    verdict = referee.push(action)
    status = "accepted" if verdict.accepted else "wrong_claim" if verdict.changed else "rejected"
    return {"line": number, "verdict": status, "reason": verdict.code,
            "message": verdict.message}


def replay_lines(lines: Iterable[str], json_mode: bool, strict: bool, out: TextIO) -> int:
    """``complot replay``: print each line's verdict; 0, or 1 with ``strict`` and a refusal."""
    from companion.errors import UserError

    refused = 0
    try:
        for result in replay(lines):
            refused += result["verdict"] == "rejected"
            state = result.pop("state", None)
            if json_mode:
                out.write(json.dumps(result, ensure_ascii=False) + "\n")
            else:
                mark = {"accepted": "✓", "rejected": "✗", "wrong_claim": "✗"}[result["verdict"]]
                out.write(f"{result['line']:>5} {mark} {result['reason'] or ''} "
                          f"{result['message']}".rstrip() + "\n")
            if state is not None:
                out.write((json.dumps(state, ensure_ascii=False) if json_mode
                           else _final(state)) + "\n")
    except LogError as error:
        raise UserError(str(error), "Check that the file is a Complot table log.") from None
    return 1 if strict and refused else 0


def _final(state: dict[str, Any]) -> str:
    return (f"manche {state['manche']}, phase {state['phase']}, scores {state['scores']}, "
            f"winners {state['winners']}")
