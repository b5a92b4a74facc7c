"""An ordered map over worker processes, shared by the simulator and the arena.

Results come back in the order of the inputs whatever the number of workers, so anything
folded from them (sums of floats included) is the same for every ``jobs``.  ``fork`` is used
where the platform has it (no re-import of the game modules per worker), ``spawn`` elsewhere;
with ``spawn`` ``fn`` and the items must be picklable, i.e. ``fn`` a module-level function.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def auto_chunksize(items: int, jobs: int) -> int:
    """About eight chunks per worker (few round trips, still balanced), at most 64 items each."""
    return max(1, min(64, items // (jobs * 8)))


def ordered_map(fn: Callable[[T], R], items: Sequence[T], jobs: int, *,
                chunksize: int | None = None) -> Iterator[R]:
    """``map(fn, items)`` over ``jobs`` worker processes, yielding in input order as results
    arrive.  ``jobs == 1`` runs in this process (no pool, easy to debug and profile).
    ``chunksize`` items are sent to a worker at a time; ``None`` picks :func:`auto_chunksize`,
    1 suits long items whose progress should show one by one."""
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    if chunksize is not None and chunksize < 1:
        raise ValueError("chunksize must be at least 1")
    if jobs == 1:
        yield from map(fn, items)
        return
    chunk = auto_chunksize(len(items), jobs) if chunksize is None else chunksize
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods()
                                      else "spawn")
    with ctx.Pool(jobs) as pool:
        yield from pool.imap(fn, items, chunksize=chunk)
