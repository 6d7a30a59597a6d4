"""Fake clocks shared by the tests that time a deadline (the vision pipeline's hang watcher)."""

from __future__ import annotations


class StillClock:
    """A clock that stands still until the test moves it, for a deadline crossed on purpose.

    >>> clock = StillClock()
    >>> clock(), clock()
    (0.0, 0.0)
    >>> clock.now += 1.5
    >>> clock()
    1.5
    """

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now
