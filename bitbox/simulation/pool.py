"""Many games on worker processes, results in game-index order.

:func:`run_indexed` calls ``job(i)`` for every game index ``i``, in this process or on
``workers`` processes (``spawn``: a fresh interpreter each, the same on every OS); it yields
the results in index order whatever the number of workers, so a run aggregated in that
order gives the same report for any ``workers``. ``job`` must be picklable (an instance of a
module-level class): it is sent once to each worker, which keeps it for all its games (a
job can load its contents on first call there and keep them). Ctrl-C is for the main
process alone: the workers ignore SIGINT (a KeyboardInterrupt in the main process ends the
pool, and them with it).
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from typing import TypeVar, cast

from .progress import Progress

R = TypeVar("R")

_worker_job: list[Callable[[int], object]] = []      # this worker's job (set by _init_worker)


def _init_worker(job: Callable[[int], object]) -> None:
    # Ctrl-C reaches every process of the terminal's group: the main process alone stops the
    # run (and ends the workers); a worker with a KeyboardInterrupt would print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_job[:] = [job]


def _play_range(bounds: tuple[int, int]) -> list[object]:
    job = _worker_job[0]
    return [job(i) for i in range(*bounds)]


def chunks(count: int, workers: int) -> list[tuple[int, int]]:
    """The index ranges handed to the workers: about 20 per worker, at most 100 games each."""
    chunk = max(1, min(100, count // (workers * 20)))
    return [(a, min(a + chunk, count)) for a in range(0, count, chunk)]


def run_indexed(job: Callable[[int], R], count: int, workers: int = 1,
                progress: Progress | None = None) -> Iterator[R]:
    """Yield ``job(0) … job(count - 1)`` in order, computed on ``workers`` processes."""
    if workers <= 1 or count < 2:
        for i in range(count):
            yield job(i)
            if progress:
                progress.update(1)
        return
    bounds = chunks(count, workers)
    ctx = multiprocessing.get_context("spawn")
    with _sigint_ignored():                 # workers start with Ctrl-C ignored, even while importing
        pool = ctx.Pool(min(workers, len(bounds)), initializer=_init_worker, initargs=(job,))
    with pool:
        for results in pool.imap(_play_range, bounds):
            yield from cast("list[R]", results)           # job's own results
            if progress:
                progress.update(len(results))


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT while worker processes are started (they inherit it), then restore it."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:                      # not the main thread: nothing to do
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where known)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_workers() -> int:
    """The number of cores."""
    return max(1, os.cpu_count() or 1)


__all__ = ["chunks", "default_workers", "run_indexed", "usable_cores"]
