"""Words for the table: cards, ferries and accepted actions in plain sentences.

Ferries are positions 0-4 inside the program and "ferry 1" to "ferry 5" for people; players are
named; a card reads like its face ("the ♀ cat", "the snail, ♂ side up").

>>> card_name("cat:F#2"), card_name("snail:M#1"), card_name("snail#3")
('the ♀ cat', 'the snail (♂ side up)', 'the snail')
>>> ferry_name(0)
'ferry 1'
>>> join_names(["Ana", "Ben", "Chloé"])
'Ana, Ben and Chloé'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.game.deck import parse_ref

SIGNS = {"M": "♂", "F": "♀"}


def ferry_name(position: int) -> str:
    """People number ferries 1-5."""
    return f"ferry {position + 1}"


def ferries_phrase(positions: Sequence[int]) -> str:
    """``(1, 4)`` -> ``'ferry 2 or 5'``.

    >>> ferries_phrase((1, 4)), ferries_phrase((2,))
    ('ferry 2 or 5', 'ferry 3')
    """
    numbers = [str(p + 1) for p in positions]
    if len(numbers) == 1:
        return f"ferry {numbers[0]}"
    return f"ferry {', '.join(numbers[:-1])} or {numbers[-1]}"


def card_name(ref: str) -> str:
    """A card as people see it, with the article."""
    species, gender, _ = parse_ref(ref)
    if species == "snail":
        return "the snail" if gender is None else f"the snail ({SIGNS[gender]} side up)"
    return f"the {SIGNS[gender]} {species}" if gender else f"the {species}"


def cards_phrase(refs: Sequence[str]) -> str:
    """Several cards in one phrase.

    >>> cards_phrase(["cat:F#2", "lion:M#1"])
    'the ♀ cat and the ♂ lion'
    """
    return join_names([card_name(ref) for ref in refs]) or "no card"


def join_names(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def plural(count: int, word: str) -> str:
    """A count with its noun.

    >>> plural(1, "card"), plural(3, "card")
    ('1 card', '3 cards')
    """
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def describe(line: dict[str, Any], players: Sequence[str]) -> str:
    """One sentence for an accepted table-log line.

    >>> describe({"type": "play", "player": 1, "card": "cat:F#2", "ferry": 3}, ["Ana", "Ben"])
    'Ben loads the ♀ cat on ferry 4.'
    >>> describe({"type": "move_noah", "player": 0, "to": 2}, ["Ana", "Ben"])
    'Ana moves Noah to ferry 3.'
    """
    kind = line.get("type")
    who = players[line["player"]] if "player" in line else ""

    def name(seat: int) -> str:
        return players[seat]

    if kind == "play":
        card = line["card"]
        if line.get("as"):
            _, _, copy = parse_ref(card)
            card = f"snail:{line['as']}" + (f"#{copy}" if copy else "")
        text = f"{who} loads {card_name(card)} on {ferry_name(line['ferry'])}"
        if line.get("frog_weight"):
            text += f", declaring a weight of {line['frog_weight']}"
        return text + "."
    if kind == "take_back":
        return f"{who} cannot play and takes back every animal of {ferry_name(line['ferry'])}."
    if kind == "move_noah":
        return f"{who} moves Noah to {ferry_name(line['to'])}."
    if kind == "croc_flee":
        return f"The bottom animal flees from the crocodile into {name(line['target'])}'s hand."
    if kind == "lion_swap":
        return f"{who}'s lion swaps a card with {name(line['target'])}."
    if kind == "giraffe_look":
        return f"{who}'s giraffe looks at {name(line['target'])}'s hand."
    if kind == "give":
        counts: dict[int, int] = {}
        for gift in line["gifts"]:
            counts[gift["to"]] = counts.get(gift["to"], 0) + 1
        parts = [f"{plural(n, 'card')} to {name(seat)}" for seat, n in counts.items()]
        return f"{who} gives {join_names(parts)}."
    if kind == "start_round":
        setup = ", ".join(
            f"{ferry_name(k)}: {card_name(ref)}" for k, ref in enumerate(line["ferries"])
        )
        text = f"The round starts with Noah on {ferry_name(line['noah'])} ({setup})"
        if line.get("starter") is not None:
            text += f"; {name(line['starter'])} plays first"
        return text + "."
    if kind == "scan_hands":
        return "Every hand is scanned; the round is scored."
    if kind == "score_round":
        tears = ", ".join(f"{name(s)} {t}" for s, t in enumerate(line["tears"]))
        return f"Tears this round: {tears}."
    if kind == "undo":
        return f"Undo ({plural(line.get('count', 1), 'action')})."
    return f"{kind}."
