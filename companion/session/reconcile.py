"""After an undo: what the table must put back physically, in plain sentences (R55).

Each undone action is explained from the engine's state just after it and just before it (the
state the undo restores): cards that leave a ferry go back to the hand they came from, animals
of a ferry that departed come back from the departed pile, Noah returns to his ferry, gifts and
lion swaps are handed back, scores return.

>>> after = {"ferries": [["bear:M#1"], ["cat:M#1", "cat:F#2"], [], [], []], "noah": 3,
...          "departed": 0, "scores": [0, 0], "hand_counts": [7, 8]}
>>> before = {**after, "ferries": [["bear:M#1"], ["cat:M#1"], [], [], []], "noah": 1,
...           "hand_counts": [8, 8]}
>>> explain_undo({"type": "play", "player": 0, "card": "cat:F#2", "ferry": 1}, after, before,
...              ["Ana", "Ben"])
["Take the ♀ cat back from ferry 2 into Ana's hand.", 'Move Noah back to ferry 2.']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.session.narrate import cards_phrase, ferry_name, join_names, plural

State = Mapping[str, Any]


def explain_undo(
    line: Mapping[str, Any], after: State, before: State, players: Sequence[str]
) -> list[str]:
    """Sentences that bring the table from ``after`` (the state the action produced) back to
    ``before`` (the state the undo restores). ``line`` is the undone action's table-log line."""
    kind = line.get("type")
    if kind == "start_round":
        return [_undo_deal(after)]
    if kind in ("scan_hands", "score_round"):
        return [_undo_scoring(after, before, players)]
    who = players[line["player"]] if "player" in line else "the player"
    sentences = _ferry_changes(line, after, before, players, who)
    sentences += _hand_changes(line, players, who)
    if before.get("noah") is not None and after.get("noah") != before.get("noah"):
        sentences.append(f"Move Noah back to {ferry_name(before['noah'])}.")
    if list(after.get("scores", ())) != list(before.get("scores", ())):
        sentences.append(f"Scores go back to {_scores(before, players)}.")
    if not sentences:
        sentences.append("Nothing to put back on the table.")
    return sentences


def _ferry_changes(
    line: Mapping[str, Any], after: State, before: State, players: Sequence[str], who: str
) -> list[str]:
    sentences = []
    departed_back = (after.get("departed") or 0) > (before.get("departed") or 0)
    for k, (now, then) in enumerate(zip(after["ferries"], before["ferries"], strict=True)):
        now, then = list(now or ()), list(then or ())
        off = [card for card in now if card not in then]
        on = [card for card in then if card not in now]
        if on and departed_back and not [c for c in now if c in then]:
            sentences.append(_ferry_returns(k, then, line, who, spare=after["ferries"][k]
                                            is not None))
            continue
        if off:
            sentences.append(f"Take {cards_phrase(off)} back from {ferry_name(k)} into "
                             f"{who}'s hand.")
        if on:
            source = _source_of_returning(line, players, who)
            where = " (bottom first)" if on == then else " at the bottom" if then[0] in on else ""
            sentences.append(f"Put {cards_phrase(on)} back on {ferry_name(k)}{where}, "
                             f"from {source}.")
    return sentences


def _ferry_returns(k: int, cards: list[str], line: Mapping[str, Any], who: str,
                   spare: bool) -> str:
    """A departed ferry comes back (the played card itself returns to the hand)."""
    played = line.get("card") if line.get("type") == "play" else None
    aboard = [card for card in cards]
    text = f"The ferry that left from {ferry_name(k)} comes back: "
    if spare:
        text = f"Put the spare ferry of {ferry_name(k)} back in the reserve; " + text[0].lower() \
            + text[1:]
    text += f"put {cards_phrase(aboard)} back on it (bottom first) from the departed pile"
    if played:
        text += f"; {who} takes the card just loaded back into their hand"
    return text + "."


def _source_of_returning(line: Mapping[str, Any], players: Sequence[str], who: str) -> str:
    kind = line.get("type")
    if kind == "croc_flee":
        return f"{players[line['target']]}'s hand"
    if kind == "take_back":
        return f"{who}'s hand"
    return "where they are now"


def _hand_changes(line: Mapping[str, Any], players: Sequence[str], who: str) -> list[str]:
    kind = line.get("type")
    if kind == "give":
        counts: dict[int, int] = {}
        for gift in line["gifts"]:
            counts[gift["to"]] = counts.get(gift["to"], 0) + 1
        parts = [f"{players[seat]} gives {plural(n, 'card')}" for seat, n in counts.items()]
        return [f"{join_names(parts)} back to {who} (the cards {who} just gave)."]
    if kind == "lion_swap":
        target = players[line["target"]]
        return [f"{who} and {target} swap back the two cards the lion exchanged."]
    if kind == "giraffe_look":
        return [f"{who}'s look at {players[line['target']]}'s hand is cancelled."]
    return []


def _undo_deal(after: State) -> str:
    cards = [ferry[0] for ferry in after["ferries"] if ferry]
    return (f"The deal of round {after.get('round', 1)} is undone: take {cards_phrase(cards)} "
            "off the ferries, gather every hand and take Noah off his ferry.")


def _undo_scoring(after: State, before: State, players: Sequence[str]) -> str:
    return (f"The scoring of round {after.get('round', 1)} is undone: scores go back to "
            f"{_scores(before, players)}; show the hands to the camera again.")


def _scores(state: State, players: Sequence[str]) -> str:
    return ", ".join(f"{name} {score}" for name, score in zip(players, state["scores"],
                                                              strict=True))
