"""The session's bridge to the rules engine: building actions, table-log lines and replays.

A game's record is its table log: :func:`header` is line 1, :func:`to_line` turns an accepted
action into its line, and :func:`replay` rebuilds the engine's game (and the redo stack) from
the stored lines, ``undo`` lines included. Everything here is rule-free: the engine judges.

>>> to_line(play(player=0, card="cat:F#2", ferry=3))
{'type': 'play', 'player': 0, 'card': 'cat:F#2', 'ferry': 3}
>>> to_line(give(player=1, counts={0: 2, 2: 1}))["gifts"]
[{'to': 0}, {'to': 0}, {'to': 2}]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.errors import UserError
from companion.game.actions import (
    CrocFlee,
    Gift,
    GiraffeLook,
    Give,
    LionSwap,
    MoveNoah,
    Play,
    ScanHands,
    ScoreRound,
    StartRound,
    TakeBack,
    action_from_dict,
    action_to_dict,
)
from companion.game.deck import Deck
from companion.game.options import Options

FORMAT = "noah-table-log"
VERSION = 1
SKIPPED_TYPES = ("note",)


def header(players: Sequence[str], options: Options, deck_id: str = "",
           tokens: Sequence[str] = ()) -> dict[str, Any]:
    """The table log's line 1. Extension fields (TABLE-LOG readers ignore them): ``deck_id``
    names the sticker set, ``tokens`` the colour of each player's score token.

    >>> header(["Ana", "Ben"], Options(hidden=True))["options"]["hidden"]
    True
    """
    line: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "players": list(players),
        "options": options.to_dict(),
    }
    if deck_id:
        line["deck_id"] = deck_id
    if tokens:
        line["tokens"] = list(tokens)
    return line


def new_game(players: Sequence[str], options: Options, deck: Deck) -> Any:
    """A fresh engine game."""
    from companion.game import Game

    return Game(list(players), options, deck=deck)


def game_from_header(line: Mapping[str, Any], deck: Deck) -> Any:
    """The engine game a stored header describes."""
    return new_game(line["players"], Options.from_dict(line.get("options", {})), deck)


def to_line(action: Any) -> dict[str, Any]:
    """The table-log line of an action."""
    return action_to_dict(action)


def kind(action: Any) -> str:
    """The table-log ``type`` of an action (``"play"``, ``"move_noah"``, ...)."""
    return action.type


def kind_of_line(line: Mapping[str, Any]) -> str:
    return str(line.get("type"))


def replay(
    line1: Mapping[str, Any], lines: Iterable[Mapping[str, Any]], deck: Deck
) -> tuple[Any, list[Any]]:
    """Rebuild a game from its record; returns the game and its redo stack.

    ``undo`` lines pop actions onto the redo stack; an action equal to the top of that stack is
    a redo (the stack shrinks), any other action clears it — exactly what the live session did.
    A stored line the engine refuses means the record was damaged: :class:`UserError`.
    """
    game = game_from_header(line1, deck)
    redo: list[Any] = []
    for number, line in enumerate(lines, start=2):
        kind_ = kind_of_line(line)
        if kind_ in SKIPPED_TYPES:
            continue
        if kind_ == "undo":
            for _ in range(int(line.get("count", 1))):
                redo.append(game.pop())
            continue
        action = action_from_dict(dict(line))
        verdict = game.push(action)
        if not verdict.accepted:
            raise UserError(
                f"The stored game is damaged at line {number}: {verdict.message}",
                "Export it with 'noah-companion export' and check that line.",
            )
        if redo and redo[-1] == action:
            redo.pop()
        else:
            redo.clear()
    return game, redo


def round_scores(
    line1: Mapping[str, Any], lines: Sequence[Mapping[str, Any]], deck: Deck
) -> list[tuple[int, tuple[int, ...]]]:
    """Each scored round as ``(history length after its scoring, tears per seat)``, replaying
    the record (undone roundings are dropped, as the live session drops them)."""
    game = game_from_header(line1, deck)
    scored: list[tuple[int, tuple[int, ...]]] = []
    for line in lines:
        kind_ = kind_of_line(line)
        if kind_ in SKIPPED_TYPES:
            continue
        if kind_ == "undo":
            for _ in range(int(line.get("count", 1))):
                game.pop()
            scored = [entry for entry in scored if entry[0] <= len(game.history)]
            continue
        game.push(action_from_dict(dict(line)))
        if kind_ in ("scan_hands", "score_round"):
            scored.append((len(game.history), tuple(game.state().get("round_scores") or ())))
    return scored


def summary(state: Mapping[str, Any], rounds: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The history list's cache for one game."""
    return {
        "round": state.get("round"),
        "scores": list(state.get("scores") or ()),
        "round_scores": [list(r) for r in rounds],
        "winners": list(state.get("winners") or ()),
        "game_over": bool(state.get("game_over")),
    }


# -- action builders (keyword-only, so call sites read like the log) -------------------------


def start_round(
    *, noah: int, ferries: Sequence[str], hand_counts: Sequence[int], starter: int | None
) -> StartRound:
    return StartRound(
        noah=noah, ferries=tuple(ferries), hand_counts=tuple(hand_counts), starter=starter
    )


def play(
    *, player: int, card: str, ferry: int, as_gender: str | None = None,
    frog_weight: int | None = None,
) -> Play:
    return Play(player, card, ferry, as_gender=as_gender, frog_weight=frog_weight)


def take_back(*, player: int, ferry: int) -> TakeBack:
    return TakeBack(player, ferry)


def move_noah(*, player: int, to: int) -> MoveNoah:
    return MoveNoah(player, to)


def croc_flee(*, player: int, target: int) -> CrocFlee:
    return CrocFlee(player, target)


def lion_swap(*, player: int, target: int) -> LionSwap:
    return LionSwap(player, target)


def giraffe_look(*, player: int, target: int) -> GiraffeLook:
    return GiraffeLook(player, target)


def give(*, player: int, counts: Mapping[int, int]) -> Give:
    """Hidden hands: gifts are counts per opponent (R48)."""
    gifts = tuple(Gift(seat) for seat, n in sorted(counts.items()) for _ in range(int(n)))
    return Give(player, gifts)


def scan_hands(hands: Sequence[Sequence[str]]) -> ScanHands:
    return ScanHands(tuple(tuple(hand) for hand in hands))


def score_round(tears: Sequence[int], starter: int | None = None) -> ScoreRound:
    return ScoreRound(tuple(tears), starter)
