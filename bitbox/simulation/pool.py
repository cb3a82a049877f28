"""Many games on worker processes, results in game-index order.

:func:`run_indexed` calls ``job(i)`` for every game index ``i``, in this process or on
``workers`` processes (``spawn``: a fresh interpreter each, the same on every OS); it yields
the results in index order whatever the number of workers, so a run aggregated in that
order gives the same report for any ``workers``. ``job`` must be picklable (an instance of a
module-level class): it is sent once to each worker, which keeps it for all its games (a
job can load its contents on first call there and keep them).

Each worker has its own pipe to the main process, which hands it one range of game indices
at a time and reads its results back. Nothing is shared between the processes but those
pipes: no queue lock a dying worker could leave held. (``multiprocessing.Pool`` was used
before; a SIGTERM to the whole process group killed an idle worker while it held the task
queue's lock, and the main process's ``Pool.terminate()`` then waited for it forever: 15 hangs
in 40 runs.) Stopping is therefore simple and always bounded: when the run ends early (Ctrl-C,
SIGTERM, an error, the caller stopping the generator), the workers are killed and reaped.

Ctrl-C is for the main process alone: the workers ignore SIGINT (a KeyboardInterrupt in the
main process ends the run, and them with it). A worker that dies on its own is reported once
(:class:`WorkerLost`), never restarted: a script that starts a run at import time without
``if __name__ == "__main__":`` makes every worker start the run again, and is told so once,
instead of looping.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import multiprocessing.resource_tracker
import os
import signal
import traceback
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, cast

from .progress import Progress

R = TypeVar("R")

GUARD_HINT = ('a script that runs simulations on worker processes must start them under '
              '`if __name__ == "__main__":` (each worker imports the script again; see docs/simulate.md)')


class WorkerLost(RuntimeError):
    """A worker process ended without finishing its games (killed, crashed, or never started)."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised as Ctrl-C's KeyboardInterrupt (exit 143 instead of 130)."""


class WorkerError(RuntimeError):
    """A game raised in a worker; the worker's own traceback is in the message."""


def chunks(count: int, workers: int) -> list[tuple[int, int]]:
    """The index ranges handed to the workers: about 20 per worker, at most 100 games each."""
    chunk = max(1, min(100, count // (workers * 20)))
    return [(a, min(a + chunk, count)) for a in range(0, count, chunk)]


def _worker(job: Callable[[int], object], conn: multiprocessing.connection.Connection) -> None:
    """A worker's loop: a range of indices in, their results out, until told to stop (None)
    or until the main process is gone (end of file on the pipe)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            results = [job(i) for i in range(*task)]
        except Exception as exc:            # a game's own bug: reported in the main process
            conn.send(("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))
            return
        try:
            conn.send(("ok", results))
        except (EOFError, OSError):         # the main process is gone
            return
        except Exception as exc:            # a result that cannot be pickled: the job's bug, said as such
            conn.send(("error", f"its results cannot be sent back: {type(exc).__name__}: {exc}"))
            return


def run_indexed(job: Callable[[int], R], count: int, workers: int = 1,
                progress: Progress | None = None) -> Iterator[R]:
    """Yield ``job(0) … job(count - 1)`` in order, computed on ``workers`` processes."""
    if workers <= 1 or count < 2:
        for i in range(count):
            yield job(i)
            if progress:
                progress.update(1)
        return
    if _bootstrapping():
        # this process is a worker importing the script that started the run: it ends at once
        # (exit code 1, silently), and the main process says why, once (WorkerLost)
        raise SystemExit(1)
    bounds = chunks(count, workers)
    ctx = multiprocessing.get_context("spawn")
    procs: list[tuple[Any, multiprocessing.connection.Connection]] = []
    finished = False
    try:
        with _sigint_ignored():             # workers start with Ctrl-C ignored, even while importing
            for _ in range(min(workers, len(bounds))):
                mine, theirs = ctx.Pipe()
                proc = ctx.Process(target=_worker, args=(job, theirs), daemon=True)
                procs.append((proc, mine))  # listed before it starts: stopped even if start is interrupted
                proc.start()
                theirs.close()
        busy: dict[multiprocessing.connection.Connection, int] = {}
        by_conn = {conn: proc for proc, conn in procs}
        sent = 0
        for _proc, conn in procs:
            conn.send(bounds[sent])
            busy[conn] = sent
            sent += 1
        done: dict[int, Any] = {}                   # chunk -> its results, or its WorkerError
        wanted = 0
        failed = False
        while wanted < len(bounds):
            for ready in multiprocessing.connection.wait(list(busy)):
                conn = cast(multiprocessing.connection.Connection, ready)
                index = busy.pop(conn)
                try:
                    kind, payload = conn.recv()
                except (EOFError, OSError):
                    kind, payload = "lost", None
                if kind == "lost":
                    _lost(by_conn[conn], bounds[index])
                if kind == "error":     # raised in game order (below): the earliest failing games are named
                    payload = WorkerError(f"games {bounds[index][0]}–{bounds[index][1] - 1} failed in a worker: "
                                          f"{payload}")
                    failed = True
                done[index] = payload
                if sent < len(bounds) and not failed:      # after a failure no new games start
                    conn.send(bounds[sent])
                    busy[conn] = sent
                    sent += 1
            while wanted in done:
                results = done.pop(wanted)
                if isinstance(results, WorkerError):
                    raise results
                wanted += 1
                yield from cast("list[R]", results)           # job's own results
                if progress:
                    progress.update(len(results))
        finished = True
    finally:
        _stop(procs, gently=finished)


def _lost(proc: Any, bounds: tuple[int, int]) -> None:
    """A worker's pipe closed before its results came: why, in one exception."""
    proc.join(timeout=2)
    code = proc.exitcode
    if code == -signal.SIGTERM:
        raise Terminated()                  # the group was sent SIGTERM: the run is being stopped
    if code == -signal.SIGINT:
        raise KeyboardInterrupt()
    how = (f"was killed by signal {-code}" if code is not None and code < 0
           else f"exited with code {code}" if code is not None else "stopped answering")
    hint = f"; {GUARD_HINT}" if code == 1 else ""
    raise WorkerLost(f"a worker process {how} before finishing games {bounds[0]}–{bounds[1] - 1}{hint}")


def _stop(procs: list[tuple[Any, multiprocessing.connection.Connection]], gently: bool) -> None:
    """End the workers: told to stop after a complete run, killed otherwise; always reaped."""
    for proc, conn in procs:
        if proc.pid is None:                # listed, but its start was interrupted: nothing to end
            conn.close()
    procs = [(proc, conn) for proc, conn in procs if proc.pid is not None]
    for proc, conn in procs:
        if gently:
            with contextlib.suppress(OSError):
                conn.send(None)
        elif proc.is_alive():
            proc.kill()
    for proc, conn in procs:
        proc.join(timeout=5 if gently else None)
        if proc.is_alive():                 # a worker that would not stop: no longer waited for
            proc.kill()
            proc.join()
        conn.close()


def reap_workers() -> None:
    """Kill and wait for every worker process this process started that is still there, and
    for multiprocessing's resource tracker (a helper process ``spawn`` starts, which would
    otherwise end only after this process): a command that stops (Ctrl-C, SIGTERM, an error)
    leaves no process of its own behind, even when the run's generator was not closed (the
    interrupt landed while its results were being counted)."""
    children = multiprocessing.active_children()
    for proc in children:
        with contextlib.suppress(OSError, ValueError):
            proc.kill()
    for proc in children:
        proc.join()
    tracker = getattr(getattr(multiprocessing, "resource_tracker", None), "_resource_tracker", None)
    stop = getattr(tracker, "_stop", None)
    if stop is not None:
        with contextlib.suppress(OSError, ChildProcessError, RuntimeError):
            stop()                          # its pipe closed: it ends; waited for


def _bootstrapping() -> bool:
    """True while this (spawned) process is still importing its parent's main module."""
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


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


__all__ = ["GUARD_HINT", "Terminated", "WorkerError", "WorkerLost", "chunks", "default_workers", "reap_workers",
           "run_indexed", "usable_cores"]
