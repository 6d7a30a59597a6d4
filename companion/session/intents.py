"""How a play reaches the referee: the intents every view calls, as a typed protocol.

A camera event, a touch, a ferry button, the simulated table and the table view all end in one
of these method calls on the :class:`~companion.session.Session`; each returns an
:class:`Outcome` and, when accepted, the action is already in the durable record (the session's
one write path, ``Session._submit``: the engine judges it once, the store commits the line,
then the view is published). Views hold a :class:`TableIntents`, never the session's insides.

>>> Outcome(False, "It is Ben's turn.", "not_your_turn").accepted
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from companion.game.options import Options
    from companion.session.view import SessionView


@dataclass(frozen=True)
class Outcome:
    """What an intent did: ``accepted`` or not, with the sentence shown to the table and, for a
    refusal by the rules, the TABLE-LOG reason code."""

    accepted: bool
    message: str = ""
    reason: str | None = None


class TableIntents(Protocol):
    """Everything a view can ask of the referee (ferries are positions 0-4, seats 0-4)."""

    def new_game(self, players: Sequence[str],
                 options: Options | Mapping[str, Any] | None = None, *,
                 score_only: bool = False, tokens: Sequence[str] = ()) -> SessionView: ...

    def resume(self, game_id: int | None = None) -> SessionView: ...

    def close_game(self) -> None: ...

    def tag_seen(self, text: str, in_view: Sequence[str] = ()) -> Outcome: ...

    def choose_card(self, ref: str) -> Outcome: ...

    def choose_noah_start(self, ferry: int) -> Outcome: ...

    def choose_starter(self, seat: int) -> Outcome: ...

    def choose_snail_side(self, side: str) -> Outcome: ...

    def choose_frog_weight(self, weight: int) -> Outcome: ...

    def take_back(self) -> Outcome: ...

    def choose_target(self, seat: int) -> Outcome: ...

    def skip(self) -> Outcome: ...

    def move_noah(self, ferry: int) -> Outcome: ...

    def ferry_pressed(self, ferry: int) -> Outcome: ...

    def give_cards(self, gifts: Mapping[int, int]) -> Outcome: ...

    def remove_scanned(self, ref: str) -> Outcome: ...

    def enter_tears(self, tears: Sequence[int]) -> Outcome: ...

    def cancel(self) -> Outcome: ...

    def undo(self, count: int = 1) -> Outcome: ...

    def redo(self) -> Outcome: ...
