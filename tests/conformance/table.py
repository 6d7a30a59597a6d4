"""Write table logs line by line and judge them through the public replay path.

A scenario is a list of ``(action, expected)`` pairs: ``expected`` is ``OK`` (accepted) or the
TABLE-LOG reason code the referee must give. :func:`judge` builds the header, replays the log
with :func:`companion.game.tablelog.replay`, asserts every verdict and returns the state after
each action (TABLE-LOG "State"), so a test can then assert the state keys a ruling is about.

>>> states = judge([(deal(), OK), (load(0, "cat:M", 0), OK)])
>>> states[-1]["phase"], states[-1]["extra_turn"]
('move_noah', True)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from companion.game.tablelog import replay

OK = None
PLAYERS = ("Ana", "Ben", "Chloé")

# A legal round-1 deal for three players from the 31 unmarked animals (R5, R9): two elephants
# stay face down. Ana holds no donkey or giraffe; Chloé holds both donkeys and both giraffes.
FERRIES = ("cat:M", "cat:F", "kangaroo:M", "kangaroo:F", "parrot:M")
HANDS = (
    ("woodpecker:M", "parrot:F", "snail", "cat:M", "panda:M", "lion:M", "bear:M", "rhino:M"),
    ("woodpecker:F", "parrot:M", "snail", "cat:F", "panda:F", "lion:F", "bear:F", "rhino:F"),
    ("parrot:F", "snail", "kangaroo:M", "kangaroo:F", "donkey:M", "donkey:F", "giraffe:M",
     "giraffe:F"),
)

Line = dict[str, Any]


def header(players: Sequence[str] = PLAYERS, **options: Any) -> Line:
    """Line 1; ``options`` not given are left to their defaults (known hands, 3 rounds)."""
    return {"format": "noah-table-log", "version": 1, "players": list(players),
            "options": options}


def replay_lines(lines: Sequence[Line | str], players: Sequence[str] = PLAYERS,
                 **options: Any) -> list[dict[str, Any]]:
    """TABLE-LOG's replay objects (with ``state``) for the header and ``lines``.

    A line given as a string is written as is (to feed malformed text).
    """
    text = [json.dumps(header(players, **options))]
    text += [line if isinstance(line, str) else json.dumps(line) for line in lines]
    return [result.to_dict(state=True) for result in replay(text)]


def judge(scenario: Sequence[tuple[Line | str, str | None]], players: Sequence[str] = PLAYERS,
          **options: Any) -> list[dict[str, Any]]:
    """Replay a scenario, assert each line's verdict and reason, return the states after each.

    Also asserts R53 on every rejected line: the state is the one before it.
    """
    results = replay_lines([line for line, _ in scenario], players, **options)
    for (line, expected), result, before in zip(scenario, results[1:], results[:-1], strict=True):
        got = result["reason"] if result["verdict"] == "rejected" else OK
        assert got == expected, (
            f"log line {result['line']} {line}: expected {expected or 'accepted'}, "
            f"got {got or 'accepted'} ({result['message']})"
        )
        assert isinstance(result["message"], str) and result["message"].strip()
        if got is not OK:
            assert result["state"] == before["state"], f"R53: rejected line {result['line']}"
    return [result["state"] for result in results[1:]]


# -- one function per table-log line type --------------------------------------------------------

def deal(ferries: Sequence[str] = FERRIES, hands: Sequence[Sequence[str]] | None = HANDS,
         noah: int = 0, starter: int | None = 0,
         hand_counts: Sequence[int] | None = None) -> Line:
    """A ``start_round`` line (known hands by default; pass ``hands=None, hand_counts=...``)."""
    line: Line = {"type": "start_round", "noah": noah, "ferries": list(ferries)}
    if hands is not None:
        line["hands"] = [list(hand) for hand in hands]
    if hand_counts is not None:
        line["hand_counts"] = list(hand_counts)
    if starter is not None:
        line["starter"] = starter
    return line


def position(ferries: Sequence[Sequence[str] | None], hands: Sequence[Sequence[str]] | None = None,
             *, noah: int = 0, player: int = 0, starter: int = 0, round: int = 1,
             departed: int = 0, scores: Sequence[int] = (0, 0, 0),
             hand_counts: Sequence[int] | None = None, extra_turn: bool | None = None) -> Line:
    """A ``position`` line: a table in the middle of a round, ``player`` to load."""
    line: Line = {"type": "position", "round": round, "round_starter": starter,
                  "current_player": player, "noah": noah,
                  "ferries": [None if ferry is None else list(ferry) for ferry in ferries],
                  "departed": departed, "scores": list(scores)}
    if hands is not None:
        line["hands"] = [list(hand) for hand in hands]
    if hand_counts is not None:
        line["hand_counts"] = list(hand_counts)
    if extra_turn is not None:
        line["extra_turn"] = extra_turn
    return line


def load(player: int, card: str, ferry: int, as_gender: str | None = None,
         frog_weight: int | None = None) -> Line:
    line: Line = {"type": "play", "player": player, "card": card, "ferry": ferry}
    if as_gender is not None:
        line["as"] = as_gender
    if frog_weight is not None:
        line["frog_weight"] = frog_weight
    return line


def move(player: int, to: int) -> Line:
    return {"type": "move_noah", "player": player, "to": to}


def take_back(player: int, ferry: int) -> Line:
    return {"type": "take_back", "player": player, "ferry": ferry}


def flee(player: int, target: int) -> Line:
    return {"type": "croc_flee", "player": player, "target": target}


def swap(player: int, target: int, take: str | None = None, give: str | None = None) -> Line:
    line: Line = {"type": "lion_swap", "player": player, "target": target}
    if take is not None:
        line |= {"take": take, "give": give}
    return line


def look(player: int, target: int) -> Line:
    return {"type": "giraffe_look", "player": player, "target": target}


def give(player: int, *gifts: int | tuple[int, str]) -> Line:
    """Gifts as seats (hidden hands) or ``(seat, card)`` pairs (known hands)."""
    return {"type": "give", "player": player,
            "gifts": [{"to": gift} if isinstance(gift, int) else {"to": gift[0], "card": gift[1]}
                      for gift in gifts]}


def scan(*hands: Sequence[str]) -> Line:
    return {"type": "scan_hands", "hands": [list(hand) for hand in hands]}


def undo(count: int = 1) -> Line:
    return {"type": "undo", "count": count}


def note(text: str) -> Line:
    return {"type": "note", "text": text}
