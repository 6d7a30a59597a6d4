"""Actions at the table: one frozen dataclass per table-log ``type``, with the log's field names.

The log's ``as`` is ``as_gender`` (``as`` is a Python keyword); lists are tuples; card references
are strings in the log's syntax (``cat:F``, ``cat:F#2``, ``snail``). :func:`action_to_dict` and
:func:`action_from_dict` convert to and from a log line's object.

>>> Play(player=1, card="cat:F", ferry=2)
Play(player=1, card='cat:F', ferry=2, as_gender=None, frog_weight=None)
>>> action_to_dict(Play(0, "snail", 4, as_gender="M"))
{'type': 'play', 'player': 0, 'card': 'snail', 'ferry': 4, 'as': 'M'}
>>> action_from_dict({"type": "give", "player": 0, "gifts": [{"to": 1}]})
Give(player=0, gifts=(Gift(to=1, card=None),))
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .errors import InputError

Ferry = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Position:
    """Start from a table in the middle of a round (a fresh turn, nothing pending), like a FEN.

    ``ferries``: 5 entries, each a tuple of references bottom first, or None (gone after the
    4th departure). ``departed``: departures this round. Known hands give ``hands``, hidden
    hands ``hand_counts``. ``departed_cards`` (an extension) lists the animals that already left
    this round, so hidden-hand checks (R48, R54) know them.
    """

    type: ClassVar[str] = "position"
    round: int
    round_starter: int
    current_player: int
    noah: int
    ferries: tuple[Ferry | None, ...]
    departed: int
    scores: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...] | None = None
    hand_counts: tuple[int, ...] | None = None
    extra_turn: bool = False
    departed_cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StartRound:
    """The deal (R7-R9): Noah's position, the 5 ferry cards, the hands (or their counts).

    ``starter`` is given in round 1 only (R10); later rounds follow R39.
    """

    type: ClassVar[str] = "start_round"
    noah: int
    ferries: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...] | None = None
    hand_counts: tuple[int, ...] | None = None
    starter: int | None = None


@dataclass(frozen=True, slots=True)
class Play:
    """Load ``card`` on ``ferry``; ``as_gender`` declares a snail's side, ``frog_weight`` R43."""

    type: ClassVar[str] = "play"
    player: int
    card: str
    ferry: int
    as_gender: str | None = None
    frog_weight: int | None = None


@dataclass(frozen=True, slots=True)
class TakeBack:
    """The player cannot play and takes every animal of Noah's ferry into their hand (R25)."""

    type: ClassVar[str] = "take_back"
    player: int
    ferry: int


@dataclass(frozen=True, slots=True)
class MoveNoah:
    """Move Noah to position ``to`` (R22)."""

    type: ClassVar[str] = "move_noah"
    player: int
    to: int


@dataclass(frozen=True, slots=True)
class CrocFlee:
    """The opponent who receives the animal fleeing from a crocodile (R45)."""

    type: ClassVar[str] = "croc_flee"
    player: int
    target: int


@dataclass(frozen=True, slots=True)
class LionSwap:
    """Lion exchange with ``target`` (R30); ``take``/``give`` only with known hands."""

    type: ClassVar[str] = "lion_swap"
    player: int
    target: int
    take: str | None = None
    give: str | None = None


@dataclass(frozen=True, slots=True)
class GiraffeLook:
    """The optional giraffe look at ``target``'s hand (R31)."""

    type: ClassVar[str] = "giraffe_look"
    player: int
    target: int


@dataclass(frozen=True, slots=True)
class Gift:
    """One card given at a departure: to seat ``to``; ``card`` only with known hands."""

    to: int
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Give:
    """All the cards owed at a departure, in one action (R20)."""

    type: ClassVar[str] = "give"
    player: int
    gifts: tuple[Gift, ...]


@dataclass(frozen=True, slots=True)
class ScanHands:
    """The round-end scan of every hand, one tuple of references per seat (R37)."""

    type: ClassVar[str] = "scan_hands"
    hands: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class ScoreRound:
    """Score-only games (extension type ``score_round``): the tears each seat scored this round.

    ``starter`` may name who started round 1 (default seat 0); later rounds follow R39.
    """

    type: ClassVar[str] = "score_round"
    tears: tuple[int, ...]
    starter: int | None = None


Action = (
    Position | StartRound | Play | TakeBack | MoveNoah | CrocFlee | LionSwap | GiraffeLook | Give
    | ScanHands | ScoreRound
)

ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (Position, StartRound, Play, TakeBack, MoveNoah, CrocFlee, LionSwap, GiraffeLook,
                Give, ScanHands, ScoreRound)
}
_LOG_NAMES = {"as_gender": "as"}
_FIELD_NAMES = {"as": "as_gender"}


def action_to_dict(action: Action) -> dict[str, Any]:
    """The table-log object of an action; fields that are None are left out."""
    data: dict[str, Any] = {"type": action.type}
    for item in fields(action):
        value = getattr(action, item.name)
        if value is not None:
            data[_LOG_NAMES.get(item.name, item.name)] = _to_json_value(value)
    return data


def _to_json_value(value: Any) -> Any:
    if isinstance(value, Gift):
        return {"to": value.to} if value.card is None else {"to": value.to, "card": value.card}
    if isinstance(value, tuple):
        return [_to_json_value(item) for item in value]
    return value


def action_from_dict(data: dict[str, Any]) -> Action:
    """The action of a table-log object; unknown fields are ignored (TABLE-LOG).

    Raises :class:`InputError` (field named) for an unknown type or a missing field.
    """
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InputError(
            f"Unknown action type {kind!r}: use one of {', '.join(ACTION_TYPES)}.", field="type"
        )
    values = {}
    for item in fields(cls):
        log_name = _LOG_NAMES.get(item.name, item.name)
        if log_name in data:
            values[item.name] = _from_json_value(item.name, data[log_name])
    try:
        return cls(**values)
    except TypeError as error:
        missing = [f.name for f in fields(cls) if f.name not in values]
        raise InputError(
            f"Action {kind!r} lacks a field ({', '.join(missing) or error}): add it.",
            field=missing[0] if missing else None,
        ) from error


def _from_json_value(name: str, value: Any) -> Any:
    if name == "gifts" and isinstance(value, list):
        gifts = []
        for gift in value:
            if not isinstance(gift, dict) or "to" not in gift:
                raise InputError('Each gift must be an object like {"to": 1}.', field="gifts")
            gifts.append(Gift(gift["to"], gift.get("card")))
        return tuple(gifts)
    return _tuples(value)


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value
