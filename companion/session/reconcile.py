"""After an undo: what the table must put back physically, in plain sentences (R55).

Each undone action is explained from the engine's state just after it and just before it (the
state the undo restores): cards that leave a ferry go back to the hand they came from, animals
of a ferry that departed come back from the departed pile, Noah returns to his ferry, gifts and
lion swaps are handed back, scores return.

Sentences are :class:`~companion.session.view.Phrase` values (``undo.*`` keys, raw facts as
params), worded in every language by the catalogs (companion.i18n; :func:`~companion.i18n.english`
for the terminal and the session's notices).

>>> from companion.i18n import english
>>> after = {"ferries": [["bear:M#1"], ["cat:M#1", "cat:F#2"], [], [], []], "noah": 3,
...          "departed": 0, "scores": [0, 0], "hand_counts": [7, 8]}
>>> before = {**after, "ferries": [["bear:M#1"], ["cat:M#1"], [], [], []], "noah": 1,
...           "hand_counts": [8, 8]}
>>> undo = explain_undo({"type": "play", "player": 0, "card": "cat:F#2", "ferry": 1}, after,
...                     before, ["Ana", "Ben"])
>>> [english(sentence) for sentence in undo]
["Take the ♀ cat back from ferry 2 into Ana's hand.", 'Move Noah back to ferry 2.']
>>> undo[0]
Phrase(key='undo.take_off', params={'cards': ['cat:F#2'], 'ferry': 2, 'name': 'Ana'})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.game import Game
from companion.game.actions import Action, action_to_dict
from companion.session.view import Phrase

State = Mapping[str, Any]

#: Every ``undo.<name>[.<variant>]`` key (the catalogs word each one). Params: ``cards`` (refs),
#: ``ferry`` (1-5), names, ``scores`` ([[name, score], ...]), ``gifts`` ([[giver, count], ...]);
#: ``source`` is itself a phrase.
UNDO_KEYS = frozenset({
    "undo.deal", "undo.scoring", "undo.noah_back", "undo.scores_back", "undo.nothing",
    "undo.take_off", "undo.put_back", "undo.put_back.all", "undo.put_back.bottom",
    "undo.from_hand", "undo.from_here", "undo.ferry_returns", "undo.ferry_returns.played",
    "undo.ferry_returns.spare", "undo.ferry_returns.spare_played", "undo.gifts",
    "undo.lion_swap", "undo.giraffe_look",
})


def undo_explained(
    game: Game, count: int, players: Sequence[str]
) -> tuple[list[Action], list[Phrase]]:
    """Undo the last ``count`` actions of ``game`` exactly (R55), newest first; returns them
    with the sentences that bring the table back (each from the state just after the action
    to the state the undo restores)."""
    undone: list[Action] = []
    sentences: list[Phrase] = []
    for _ in range(count):
        after = game.state()
        action = game.pop()
        undone.append(action)
        sentences += explain_undo(action_to_dict(action), after, game.state(), players)
    return undone, sentences


def explain_undo(
    line: Mapping[str, Any], after: State, before: State, players: Sequence[str]
) -> list[Phrase]:
    """Sentences that bring the table from ``after`` (the state the action produced) back to
    ``before`` (the state the undo restores). ``line`` is the undone action's table-log line."""
    kind = line.get("type")
    if kind == "start_round":
        return [_undo_deal(after)]
    if kind in ("scan_hands", "score_round"):
        return [Phrase("undo.scoring", {"round": after.get("round", 1),
                                        "scores": _scores(before, players)})]
    who = players[line["player"]] if "player" in line else "?"
    sentences = _ferry_changes(line, after, before, players, who)
    sentences += _hand_changes(line, players, who)
    if before.get("noah") is not None and after.get("noah") != before.get("noah"):
        sentences.append(Phrase("undo.noah_back", {"ferry": before["noah"] + 1}))
    if list(after.get("scores", ())) != list(before.get("scores", ())):
        sentences.append(Phrase("undo.scores_back", {"scores": _scores(before, players)}))
    if not sentences:
        sentences.append(Phrase("undo.nothing", {}))
    return sentences


def _ferry_changes(
    line: Mapping[str, Any], after: State, before: State, players: Sequence[str], who: str
) -> list[Phrase]:
    sentences = []
    departed_back = (after.get("departed") or 0) > (before.get("departed") or 0)
    for k, (now, then) in enumerate(zip(after["ferries"], before["ferries"], strict=True)):
        now, then = list(now or ()), list(then or ())
        off = [card for card in now if card not in then]
        on = [card for card in then if card not in now]
        if on and departed_back and not [c for c in now if c in then]:
            sentences.append(_ferry_returns(k, then, line, who,
                                            spare=after["ferries"][k] is not None))
            continue
        if off:
            sentences.append(Phrase("undo.take_off", {"cards": off, "ferry": k + 1,
                                                      "name": who}))
        if on:
            order = "all" if on == then else "bottom" if then[0] in on else None
            sentences.append(Phrase("undo.put_back", {
                "cards": on, "ferry": k + 1, "source": _source_of_returning(line, players, who),
                **({"variant": order} if order else {}),
            }))
    return sentences


def _ferry_returns(k: int, cards: list[str], line: Mapping[str, Any], who: str,
                   spare: bool) -> Phrase:
    """A departed ferry comes back (the played card itself returns to the hand)."""
    played = line.get("type") == "play" and line.get("card")
    variant = "_".join(word for word, present in (("spare", spare), ("played", played))
                       if present)
    return Phrase("undo.ferry_returns", {"ferry": k + 1, "cards": list(cards), "name": who,
                                         **({"variant": variant} if variant else {})})


def _source_of_returning(line: Mapping[str, Any], players: Sequence[str], who: str) -> Phrase:
    kind = line.get("type")
    if kind == "croc_flee":
        return Phrase("undo.from_hand", {"name": players[line["target"]]})
    if kind == "take_back":
        return Phrase("undo.from_hand", {"name": who})
    return Phrase("undo.from_here", {})


def _hand_changes(line: Mapping[str, Any], players: Sequence[str], who: str) -> list[Phrase]:
    kind = line.get("type")
    if kind == "give":
        counts: dict[int, int] = {}
        for gift in line["gifts"]:
            counts[gift["to"]] = counts.get(gift["to"], 0) + 1
        gifts = [[players[seat], n] for seat, n in counts.items()]
        return [Phrase("undo.gifts", {"gifts": gifts, "name": who})]
    if kind == "lion_swap":
        return [Phrase("undo.lion_swap", {"name": who, "target": players[line["target"]]})]
    if kind == "giraffe_look":
        return [Phrase("undo.giraffe_look", {"name": who, "target": players[line["target"]]})]
    return []


def _undo_deal(after: State) -> Phrase:
    cards = [ferry[0] for ferry in after["ferries"] if ferry]
    return Phrase("undo.deal", {"round": after.get("round", 1), "cards": cards})


def _scores(state: State, players: Sequence[str]) -> list[list[Any]]:
    return [[name, score] for name, score in zip(players, state["scores"], strict=True)]
