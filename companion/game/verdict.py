"""The referee's answers: a :class:`Verdict` per action, with :class:`Event` records.

>>> verdict = Verdict(True, events=(("turn", {"player": 1, "name": "Ben"}),))
>>> verdict.events
(Event(kind='turn', params={'player': 1, 'name': 'Ben'}),)
>>> verdict.message
"Ben's turn."
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .messages import render, render_event


class Event(NamedTuple):
    """Something that happened in an accepted action (``kind`` keys messages.EVENTS)."""

    kind: str
    params: dict[str, Any]

    @property
    def message(self) -> str:
        return render_event(self.kind, self.params)


#: What the engine records of an event while judging: ``(kind, params)``, made an
#: :class:`Event` only when someone reads :attr:`Verdict.events` (building a NamedTuple costs
#: several times a plain pair, and the engine makes two or three events per action).
RawEvent = tuple[str, dict[str, Any]]


class Verdict:
    """The referee's answer to an action: accepted, or rejected with a TABLE-LOG reason code.

    ``message`` is one plain sentence (rendered from ``params`` with messages.py on first use);
    ``events`` lists what an accepted action made happen, for lights and narration (given as
    :class:`Event` records or ``(kind, params)`` pairs).
    """

    __slots__ = ("_events", "_made", "_message", "accepted", "params", "reason")

    def __init__(
        self,
        accepted: bool,
        reason: str | None = None,
        message: str | None = None,
        params: dict[str, Any] | None = None,
        events: tuple[Event | RawEvent, ...] = (),
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
            made = self._made = tuple(Event(*event) for event in self._events)
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
