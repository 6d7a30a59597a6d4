"""Pure scoring rules shared by the engine and by score-only games (R36, R39-R42).

>>> next_starter((5, 9, 9, 2), previous_starter=1)
2
>>> is_game_over(2, (5, 26, 0), "score26"), is_game_over(2, (5, 25, 0), "rounds")
(True, False)
>>> winners((7, 3, 3))
(1, 2)
"""

from __future__ import annotations

from collections.abc import Sequence

from .sizes import TEAR_TARGET

ROUNDS_PER_GAME = 3  # R40


def next_starter(scores: Sequence[int], previous_starter: int) -> int:
    """Seat that starts the next round: the highest score (R39).

    Ties go to the first tied seat met clockwise from the previous starter's left neighbour
    (seats starter+1, starter+2, ..., starter).

    >>> next_starter((4, 4, 1), previous_starter=0)
    1
    >>> next_starter((4, 4, 1), previous_starter=1)
    0
    """
    players = len(scores)
    order = [(previous_starter + step) % players for step in range(1, players + 1)]
    best = max(scores)
    return next(seat for seat in order if scores[seat] == best)


def is_game_over(rounds_played: int, scores: Sequence[int], end_rule: str) -> bool:
    """Whether the game ends after this many scored rounds (R40, R41; checked only then, R42).

    >>> is_game_over(3, (0, 0), "rounds"), is_game_over(7, (25, 0), "score26")
    (True, False)
    """
    if end_rule == "score26":
        return max(scores) >= TEAR_TARGET  # R41: 26 or more
    return rounds_played >= ROUNDS_PER_GAME


def winners(scores: Sequence[int]) -> tuple[int, ...]:
    """Seats with the lowest score; ties share the victory (R40, R41).

    >>> winners((3, 8, 5))
    (0,)
    """
    best = min(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == best)
