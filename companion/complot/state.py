"""The table as the Complot referee keeps it between two actions (known cards).

Piles are lists whose **last** item is the top card. Every card in play is in exactly one place:
the «pioche», the «défausse», a hand, or a claimant's laid-down hand (C17) — the invariant
:meth:`State.missing_cards` checks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(slots=True)
class State:
    """Everything :class:`~companion.complot.engine.Game` needs to judge the next action."""

    players: int
    scores: list[int]
    dealer: int
    manche: int = 0
    phase: str = "deal"  # deal, turn, attentat, manche_over, game_over
    current: int = 0
    drawn: bool = False
    pioche: list[str] = field(default_factory=list)
    defausse: list[str] = field(default_factory=list)
    top_blocked: bool = False  # C68: the top of the «défausse» served in an action
    hands: list[list[str]] = field(default_factory=list)
    laid: list[list[str]] = field(default_factory=list)
    out: list[bool] = field(default_factory=list)
    skip: list[bool] = field(default_factory=list)
    turns_done: list[int] = field(default_factory=list)
    window: int | None = None  # C30: the seat that just ended a turn and may still announce
    window_used: bool = False  # C45: that seat already made a wrong claim in this window
    manche_points: list[int] = field(default_factory=list)
    end_reason: str | None = None
    reshuffles: int = 0
    claims: list[tuple[int, str, int]] = field(default_factory=list)  # (seat, claim, points)

    def copy(self) -> State:
        """An independent copy (the undo stack keeps one per accepted action)."""
        return State(
            self.players, list(self.scores), self.dealer, self.manche, self.phase, self.current,
            self.drawn, list(self.pioche), list(self.defausse), self.top_blocked,
            [list(hand) for hand in self.hands], [list(cards) for cards in self.laid],
            list(self.out), list(self.skip), list(self.turns_done), self.window,
            self.window_used, list(self.manche_points), self.end_reason, self.reshuffles,
            list(self.claims),
        )

    def still_in(self) -> list[int]:
        return [seat for seat in range(self.players) if not self.out[seat]]

    def next_seat(self, seat: int) -> int:
        """The next seat clockwise still in the manche (C15)."""
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if not self.out[candidate]:
                return candidate
        return seat

    def previous_seat(self, seat: int) -> int:
        """The nearest seat counter-clockwise still in the manche (C82)."""
        for step in range(1, self.players + 1):
            candidate = (seat - step) % self.players
            if not self.out[candidate]:
                return candidate
        return seat

    def places(self) -> Iterable[str]:
        """Every card the table holds, wherever it is."""
        yield from self.pioche
        yield from self.defausse
        for hand in self.hands:
            yield from hand
        for cards in self.laid:
            yield from cards

    def missing_cards(self, in_play: Iterable[str]) -> str | None:
        """None when every card of ``in_play`` is in exactly one place; else what is wrong."""
        if self.manche == 0:
            return None
        counts = Counter(self.places())
        expected = Counter(in_play)
        if counts == expected:
            return None
        lost = sorted((expected - counts).elements())
        extra = sorted((counts - expected).elements())
        return f"cards lost {lost[:5]}, cards extra or twice {extra[:5]}"
