"""Seeded games played by worker processes, their results in the order of the games.

``simulate`` (Noah) and ``complot simulate`` play game ``i`` of a run from the run's seed and
``i`` alone, so a run can be cut into batches of consecutive games, played by as many processes
as there are cores, and read back in order: the same output whatever ``--jobs`` was.

>>> batches(0, 60, jobs=2)
[(0, 25), (25, 25), (50, 10)]
>>> batches(7, 3, jobs=1)
[(7, 1), (8, 1), (9, 1)]
>>> list(in_order(lambda batch: list(range(*batch)), [(0, 2), (2, 4)], jobs=1))
[0, 1, 2, 3]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

#: Games handed to a worker process at a time (fewer round trips, still balanced).
CHUNK = 25

Task = TypeVar("Task")
Result = TypeVar("Result")


def job_count(requested: int | None, games: int) -> int:
    """The processes to use: ``requested`` or one per core, and no more than the batches."""
    return min(requested or os.cpu_count() or 1, max(1, games // CHUNK))


def batches(first: int, count: int, jobs: int) -> list[tuple[int, int]]:
    """The run's games ``first`` … ``first + count - 1`` as ``(start, count)`` batches: one
    game a batch in one process (a progress bar moves game by game), :data:`CHUNK` otherwise."""
    size = 1 if jobs == 1 else CHUNK
    end = first + count
    return [(start, min(size, end - start)) for start in range(first, end, size)]


def in_order(play: Callable[[Task], list[Result]], tasks: Sequence[Task],
             jobs: int) -> Iterator[Result]:
    """Each task's results, in the order of the tasks: ``play`` runs here when ``jobs`` is 1,
    else in ``jobs`` forked worker processes (``play`` must be a module-level function and
    its tasks and results picklable)."""
    if jobs == 1:
        for task in tasks:
            yield from play(task)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for batch in pool.imap(play, tasks):
            yield from batch
