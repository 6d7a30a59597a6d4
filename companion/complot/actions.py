"""Typed Complot actions, as python-chess's ``Move``: small, immutable, cards as numbers.

The dict form (the table log's line) stays the external contract: the judge, the table log,
the session and the hidden-hands table push and read dicts. Inside the referee that knows
every card (:class:`~companion.complot.engine.Game`) an action can also be one of these
tuples, whose cards are the deck's numbers (``Game.card_ids[n]`` is card ``n``'s id).
:func:`parse` reads the dict form (shape only: whether the action is *legal* is the
referee's to say), :func:`to_dict` writes it back:

>>> from companion.complot.cards import default_deck
>>> ids = default_deck().ids()
>>> numbers = {card_id: number for number, card_id in enumerate(ids)}
>>> action = parse({"type": "discard", "player": 1, "card": "leonard:emma"}, numbers)
>>> action
Discard(seat=1, card=36)
>>> to_dict(action, ids)
{'type': 'discard', 'player': 1, 'card': 'leonard:emma'}
>>> parse({"type": "discard", "player": 1, "card": "joker"}, numbers) is None
True

Why tuples: a simulated game pushes about a thousand actions, and the draws and discards,
nine pushes in ten, are made once per table (:func:`moves`) and then only looked up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from .combos import CLAIMS
from .judge import ACTIONS, is_int

PILES = ("pioche", "defausse")


class Deal(NamedTuple):
    """C11: the order of every card in play, top of the «pioche» first."""

    order: tuple[int, ...]


class Draw(NamedTuple):
    """C13: ``seat`` draws from ``pile``, ``pioche`` or ``defausse``."""

    seat: int
    pile: str


class Discard(NamedTuple):
    """C14: ``seat`` discards ``card``, ending the turn."""

    seat: int
    card: int


class Claim(NamedTuple):
    """C30–C47: ``seat`` announces ``claim`` (one of ``combos.CLAIMS``) with the hand the
    referee knows."""

    seat: int
    claim: str


class Kill(NamedTuple):
    """C82: ``seat``, the victim's previous player, takes ``card`` blind."""

    seat: int
    card: int


class CardAction(NamedTuple):
    """C60–C87: an action card's play, the table log's fields as numbers."""

    kind: str  # a key of judge.ACTIONS
    seat: int
    cards: tuple[int, ...]
    targets: tuple[int, ...]
    take: tuple[int, ...]
    discard: tuple[int, ...]
    defence: int | None = None


Action = Deal | Draw | Discard | Claim | Kill | CardAction


class Moves(NamedTuple):
    """The draws and discards of a table, made once: ``draws[seat]`` is the seat's draw from
    the «pioche» then from the «défausse», ``discards[seat][card]`` its discard of ``card``."""

    draws: tuple[tuple[Draw, Draw], ...]
    discards: tuple[tuple[Discard, ...], ...]


@lru_cache(maxsize=16)
def moves(seats: int, cards: int) -> Moves:
    """The :class:`Moves` of a table of ``seats`` players and a deck of ``cards`` cards.

    >>> table = moves(2, 93)
    >>> table.draws[1], table.discards[0][5]
    ((Draw(seat=1, pile='pioche'), Draw(seat=1, pile='defausse')), Discard(seat=0, card=5))
    """
    return Moves(
        tuple((Draw(seat, "pioche"), Draw(seat, "defausse")) for seat in range(seats)),
        tuple(tuple(Discard(seat, card) for card in range(cards)) for seat in range(seats)))


def to_dict(action: Action, ids: Sequence[str]) -> dict[str, Any]:
    """The table log's line for ``action``, with the cards' ``ids``.

    >>> to_dict(Draw(0, "pioche"), ())
    {'type': 'draw', 'player': 0, 'from': 'pioche'}
    """
    match action:
        case Draw(seat, pile):
            return {"type": "draw", "player": seat, "from": pile}
        case Discard(seat, card):
            return {"type": "discard", "player": seat, "card": ids[card]}
        case Claim(seat, claim):
            return {"type": "claim", "player": seat, "claim": claim}
        case Kill(seat, card):
            return {"type": "kill", "player": seat, "card": ids[card]}
        case Deal(order):
            return {"type": "deal", "order": [ids[card] for card in order]}
    return _card_action_dict(action, ids)


def _card_action_dict(action: CardAction, ids: Sequence[str]) -> dict[str, Any]:
    line: dict[str, Any] = {
        "type": action.kind, "player": action.seat, "cards": [ids[c] for c in action.cards],
        "targets": list(action.targets), "take": [ids[c] for c in action.take],
        "discard": [ids[c] for c in action.discard]}
    if action.defence is not None:
        line["defence"] = ids[action.defence]
    return line


def parse(line: Any, numbers: Mapping[str, int]) -> Action | None:
    """The typed action a table log's ``line`` describes (``numbers``: card id → number), or
    None when it is not one: no object, an unknown type, a field missing or of the wrong
    kind, an unknown card. Only the shape is read; the referee judges the rest. A line's
    extra fields (a claim's laid-down ``cards``, a ``note``'s text) have no typed form: None.

    >>> parse({"type": "draw", "player": 0, "from": "pioche"}, {})
    Draw(seat=0, pile='pioche')
    >>> parse({"type": "draw", "player": True, "from": "pioche"}, {}) is None
    True
    """
    if not isinstance(line, dict):
        return None
    kind, seat = line.get("type"), line.get("player")
    if kind == "deal":
        order = _cards(line.get("order"), numbers)
        return None if order is None else Deal(order)
    if not is_int(seat):
        return None
    if kind == "draw":
        pile = line.get("from")
        return Draw(seat, pile) if pile in PILES else None
    if kind in ("discard", "kill"):
        card = _cards([line.get("card")], numbers)
        if card is None:
            return None
        return Discard(seat, card[0]) if kind == "discard" else Kill(seat, card[0])
    if kind == "claim":
        claim = line.get("claim")
        return Claim(seat, claim) if claim in CLAIMS and "cards" not in line else None
    return _parse_card_action(line, kind, seat, numbers)


def _parse_card_action(line: dict[str, Any], kind: Any, seat: int,
                       numbers: Mapping[str, int]) -> CardAction | None:
    if kind not in ACTIONS:
        return None
    cards, take = _cards(line.get("cards"), numbers), _cards(line.get("take", []), numbers)
    discard = _cards(line.get("discard", []), numbers)
    targets = line.get("targets")
    if (cards is None or take is None or discard is None or not isinstance(targets, list)
            or not all(is_int(target) for target in targets)):
        return None
    defence: int | None = None
    if "defence" in line:
        shown = _cards([line["defence"]], numbers)
        if shown is None:
            return None
        defence = shown[0]
    return CardAction(kind, seat, cards, tuple(targets), take, discard, defence)


def _cards(values: Any, numbers: Mapping[str, int]) -> tuple[int, ...] | None:
    if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
        return None
    found = tuple(numbers.get(value, -1) for value in values)
    return None if -1 in found else found
