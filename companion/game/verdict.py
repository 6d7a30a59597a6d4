"""The referee's answers: a :class:`Verdict` per action, with :class:`Event` records.

>>> verdict = Verdict(True, events=(("turn", {"player": 1, "name": "Ben"}),))
>>> verdict.events
(Event(kind='turn', params={'player': 1, 'name': 'Ben'}),)
>>> verdict.message
"Ben's turn."
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .messages import render, render_event


class Event(NamedTuple):
    """Something that happened in an accepted action (``kind`` keys messages.EVENTS)."""

    kind: str
    params: dict[str, Any]

    @property
    def message(self) -> str:
        return render_event(self.kind, self.params)


#: The parameters of each kind of event, in the order the engine records their values.
EVENT_PARAMS: dict[str, tuple[str, ...]] = {
    "position": ("round", "current_name", "noah_ferry"),
    "round_started": ("round", "starter", "starter_name", "noah", "noah_ferry"),
    "loaded": ("player", "name", "card", "animal", "ferry", "position"),
    "took_back": ("player", "name", "ferry", "count", "cards"),
    "crocodile_tears": ("player", "name", "score"),
    "fled": ("player", "target", "card", "animal", "target_name"),
    "lion_swap": ("player", "name", "target", "target_name"),
    "giraffe_look": ("player", "name", "target", "target_name"),
    "noah_moved": ("player", "position", "ferry"),
    "departure": ("position", "ferry", "number", "cards"),
    "gifts_owed": ("player", "name", "owed"),
    "gifts": ("player", "name", "count", "to"),
    "pair_bonus": ("player", "name", "species"),
    "turn": ("player", "name"),
    "round_ended": ("round",),
    "scan_needed": ("hand_counts",),
    "round_scored": ("round", "round_scores", "scores", "summary"),
    "game_over": ("winners", "names", "winner_names"),
}

#: What the engine records of an event while judging: ``(kind, values)``, the values in
#: :data:`EVENT_PARAMS` order; it becomes an :class:`Event` with named params only when someone
#: reads :attr:`Verdict.events` (a tuple costs a fraction of a dict or a NamedTuple, and the
#: engine makes one to three events per action).
RawEvent = tuple[str, tuple[Any, ...]]


def _event(kind: str, params: dict[str, Any] | tuple[Any, ...]) -> Event:
    """The :class:`Event` of a pair given to :class:`Verdict`: named params, or raw values."""
    if isinstance(params, tuple):
        return Event(kind, dict(zip(EVENT_PARAMS[kind], params, strict=True)))
    return Event(kind, params)


class Verdict:
    """The referee's answer to an action: accepted, or rejected with a TABLE-LOG reason code.

    ``message`` is one plain sentence (rendered from ``params`` with messages.py on first use);
    ``events`` lists what an accepted action made happen, for lights and narration (given as
    :class:`Event` records, ``(kind, params)`` pairs or :data:`RawEvent` pairs).
    """

    __slots__ = ("_events", "_made", "_message", "accepted", "params", "reason")

    def __init__(
        self,
        accepted: bool,
        reason: str | None = None,
        message: str | None = None,
        params: dict[str, Any] | None = None,
        events: Sequence[Event | RawEvent | tuple[str, dict[str, Any]]] = (),
    ) -> None:
        self.accepted = accepted
        self.reason = reason
        self.params = params if params is not None else {}
        self._events = events
        self._made: tuple[Event, ...] | None = None
        self._message = message

    @property
    def events(self) -> tuple[Event, ...]:
        """What happened, in order (empty for a rejection)."""
        made = self._made
        if made is None:
            made = self._made = tuple(_event(*event) for event in self._events)
        return made

    @property
    def message(self) -> str:
        if self._message is None:
            if self.reason is not None:
                self._message = render(self.reason, self.params)
            else:
                self._message = " ".join(event.message for event in self.events)
        return self._message

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Verdict)
            and (self.accepted, self.reason, self.params, self.events)
            == (other.accepted, other.reason, other.params, other.events)
        )

    def __repr__(self) -> str:
        if self.accepted:
            return f"Verdict(accepted=True, message={self.message!r})"
        return f"Verdict(accepted=False, reason={self.reason!r}, message={self.message!r})"
