"""How a play reaches the referee: the intents every view calls, as a typed protocol.

A camera event, a touch, a ferry button, the simulated table and the table view all end in one
of these method calls on the :class:`~companion.session.Session`; each returns an
:class:`Outcome` and, when accepted, the action is already in the durable record (the session's
one write path, ``Session._submit``: the engine judges it once, the store commits the line,
then the view is published). Views hold a :class:`TableIntents`, never the session's insides.

>>> from companion.session.notices import said
>>> outcome = Outcome(False, said("nothing_to_undo"))
>>> outcome.accepted, outcome.message
(False, 'There is nothing to undo.')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from companion.i18n import Phrase, sentences

if TYPE_CHECKING:
    from companion.game.options import Options
    from companion.session.view import SessionView


@dataclass(frozen=True)
class Outcome:
    """What an intent did: ``accepted`` or not, what it says to the table as ``phrases`` (data:
    catalog keys and raw facts, worded in any language by companion.i18n) and, for a refusal by
    the rules, the TABLE-LOG reason code. :attr:`message` is the English sentence."""

    accepted: bool
    phrases: tuple[Phrase, ...] = ()
    reason: str | None = None

    @property
    def message(self) -> str:
        """What the outcome says, in English (companion.i18n.sentences); "" when nothing."""
        return sentences(self.phrases)


class TableIntents(Protocol):
    """Everything a view can ask of the referee (ferries are positions 0-4, seats 0-4)."""

    def new_game(self, players: Sequence[str],
                 options: Options | Mapping[str, Any] | None = None, *,
                 score_only: bool = False, tokens: Sequence[str] = ()) -> SessionView:
        """Open a new game and write its header. At a table hands are hidden (R48), so
        ``options`` defaults to ``Options(hidden=True)``; ``score_only`` needs no camera.
        ``tokens`` names each player's score-token colour (kept with the game for a resume).
        Raises :class:`UserError` for bad players, tokens or options."""

    def resume(self, game_id: int | None = None, *,
               to_last_good_move: bool = False) -> SessionView:
        """Reopen a stored game exactly where it was (the newest unfinished one by default):
        its record is replayed once through the engine, undo lines and redo stack included.

        A damaged game raises :class:`~companion.session.record.DamagedGame` and nothing
        changes, unless the table chose ``to_last_good_move``: the lines from the damaged one
        on are then set aside (kept in the record, shown by export) and the view says what to
        put back on the table."""

    def abandon_game(self, game_id: int) -> None:
        """Give a stored game up (the table confirmed): kept in the history, lines untouched,
        no longer offered for resume."""

    def delete_game(self, game_id: int) -> None:
        """Delete a stored game and all its lines for good (the table confirmed)."""

    def close_game(self) -> None:
        """Leave the open game; it stays in the record and can be resumed."""

    def tag_seen(self, text: str, in_view: Sequence[str] = ()) -> Outcome:
        """A sticker text read by the camera. ``in_view`` lists every sticker in view: with two
        cards or more on show, the session asks which one is meant (:class:`ChooseCard`)."""

    def choose_card(self, ref: str) -> Outcome:
        """A card chosen by touch (or among :class:`ChooseCard` candidates): same as showing it
        to the camera. ``ref`` is a card id like ``cat:F#2``."""

    def choose_noah_start(self, ferry: int) -> Outcome:
        """Round setup: the table puts Noah on ``ferry`` (0-4)."""

    def remove_setup_card(self, ref: str) -> Outcome:
        """Round setup: take a wrongly shown starting animal off its ferry; that ferry's
        animal is asked for again (``undo`` during the setup takes the last one off)."""

    def choose_starter(self, seat: int) -> Outcome:
        """Round 1 setup: who plays first (the shortest player, R10)."""

    def choose_snail_side(self, side: str) -> Outcome:
        """The side of the snail turned up, ``"M"`` or ``"F"`` (R14)."""

    def choose_frog_weight(self, weight: int) -> Outcome:
        """The weight the frog declares (R43): 1 means none; 2-5 only to make the ferry depart."""

    def take_back(self) -> Outcome:
        """The current player cannot play: they take back every animal of Noah's ferry (R25)."""

    def choose_target(self, seat: int) -> Outcome:
        """The opponent chosen for the crocodile's fleeing animal, the lion's swap or the
        giraffe's look, whichever the current step needs."""

    def skip(self) -> Outcome:
        """Decline an optional step (the giraffe's look): Noah's move comes next."""

    def move_noah(self, ferry: int) -> Outcome:
        """The current player moves Noah to ``ferry`` (0-4)."""

    def ferry_pressed(self, ferry: int) -> Outcome:
        """A ferry button (0-4): chooses Noah's starting ferry or his destination."""

    def give_cards(self, gifts: Mapping[int, int]) -> Outcome:
        """The departing player's gifts (R20): ``{seat: number of cards}``, all in one go."""

    def remove_scanned(self, ref: str) -> Outcome:
        """Drop a card wrongly scanned into a hand during the round-end scan."""

    def enter_tears(self, tears: Sequence[int]) -> Outcome:
        """Score-only mode: this round's tears, one number per seat."""

    def cancel(self) -> Outcome:
        """Drop what is half-entered (a card waiting for its side or weight, a choice between
        cards, the current setup scan or hand scan) without touching the record."""

    def undo(self, count: int = 1) -> Outcome:
        """Take back the last ``count`` accepted actions (R55). Something half-entered is
        dropped first. The view's ``reconciliation`` then says what to put back physically."""

    def redo(self) -> Outcome:
        """Replay the last undone action (possible until a new action is taken)."""
