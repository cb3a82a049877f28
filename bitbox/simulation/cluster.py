"""Many games on a Ray cluster (the optional extra ``cluster``), results in game-index order.

:func:`run_indexed` is :func:`bitbox.simulation.pool.run_indexed` on Ray's pool
(``ray.util.multiprocessing.Pool``, one process per CPU of the cluster): the same ``job``
(picklable), the same chunks of game indices, the results yielded in index order. Each game
is seeded from its index alone (:mod:`bitbox.simulation.seeds`), so a run gives the same
records, game for game, on a laptop, on 2 local workers or on a cluster.

``address``: ``None`` or ``""`` starts a Ray instance on this machine for the run (or joins
the cluster ``RAY_ADDRESS`` names) and stops it afterwards; anything else is what
``ray.init(address=...)`` takes (``auto`` for the cluster this machine belongs to after
``ray start``, ``HOST:6379``, ``ray://HOST:10001``). A process that has already called
``ray.init`` keeps its connection: nothing is started or stopped.
"""
from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, cast

from .pool import chunks, usable_cores
from .progress import Progress

R = TypeVar("R")

INSTALL = "pip install \".[cluster]\""

_job: list[Callable[[int], object]] = []


class ClusterError(Exception):
    """The cluster cannot be reached or joined (one line, naming the address)."""


#: What a gRPC client sends first (HTTP/2's connection preface and an empty SETTINGS frame);
#: Ray's GCS and Ray Client servers speak gRPC and answer it with their own SETTINGS at once.
_HTTP2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def check_reachable(address: str, timeout: float = 5.0, label: str = "--ray") -> None:
    """For an address with a port (``HOST:PORT``, ``ray://HOST:PORT``): ClusterError unless
    a server there answers within ``timeout`` seconds in all: one that refuses the connection,
    and one that accepts it but says nothing to a gRPC greeting, fail in one line (Ray itself
    would retry for minutes, printing its own warnings)."""
    import socket
    import time
    rest = address.split("://", 1)[-1]
    host, sep, port = rest.rpartition(":")
    if not sep or not host:
        return                                  # "auto" and the like: Ray says itself
    if not port.isdigit():
        raise ClusterError(f"{label} {address}: the port must be a number")
    deadline = time.monotonic() + timeout
    try:
        conn = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)
    except OSError as exc:
        raise ClusterError(f"{label} {address}: no Ray cluster answers there ({exc.strerror or exc})") from None
    try:
        conn.settimeout(max(0.05, deadline - time.monotonic()))
        conn.sendall(_HTTP2_HELLO)
        answered = bool(conn.recv(9))
    except OSError:                             # a timeout, or the peer hung up
        answered = False
    finally:
        conn.close()
    if not answered:
        raise ClusterError(f"{label} {address}: no Ray cluster answers there (something accepts connections "
                           f"but said nothing in {timeout:g} s)")


def missing() -> str | None:
    """None when Ray can be imported, else the one line saying how to install it."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return f"--ray needs Ray, which is not installed: {INSTALL}"
    return None


def _init(job: Callable[[int], object]) -> None:
    _job[:] = [job]


def _play_range(bounds: tuple[int, int]) -> list[object]:
    job = _job[0]
    return [job(i) for i in range(*bounds)]


AUTH_HINT = ("it asks for a token: set RAY_AUTH_MODE=token and give this machine the cluster's token "
             "(~/.ray/auth_token, or RAY_AUTH_TOKEN)")


@contextlib.contextmanager
def _ray_output_aside(seen: list[str]) -> Iterator[None]:
    """Ray's own output while it connects (its core writes to file descriptor 2 itself) goes
    into ``seen`` and to the log at debug level (``-v``, ``--log-file``), not to the terminal."""
    import sys
    import tempfile
    log = logging.getLogger("bitbox.simulation.cluster")
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as aside:
        os.dup2(aside.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            aside.seek(0)
            seen.extend(aside.read().decode("utf-8", "replace").splitlines())
            for line in seen:
                log.debug("ray: %s", line)


@contextlib.contextmanager
def connected(address: str | None) -> Iterator[Any]:
    """Ray, initialised for the run (and shut down after it if this started it)."""
    import ray
    if ray.is_initialized():
        yield ray
        return
    label = "RAY_ADDRESS" if not address and os.environ.get("RAY_ADDRESS") else "--ray"
    address = address or os.environ.get("RAY_ADDRESS") or None
    seen: list[str] = []
    try:
        if address:
            check_reachable(address, label=label)
        with _ray_output_aside(seen):
            if address:
                ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
            else:                               # a private instance, even when another runs here
                ray.init(address="local", num_cpus=usable_cores(), include_dashboard=False,
                         logging_level=logging.ERROR, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
        where = f"the Ray cluster at {address}" if address else "a Ray instance on this machine"
        said = " ".join([str(exc), *seen])
        if "Unauthenticated" in said or "InvalidAuthToken" in said or "auth token" in said.lower():
            raise ClusterError(f"{label}: cannot join {where}: {AUTH_HINT}") from None
        raise ClusterError(f"{label}: cannot join {where}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") \
            from None
    try:
        yield ray
    finally:
        ray.shutdown()


def cpus(ray: Any) -> int:
    """The CPUs of the cluster Ray is connected to."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def run_indexed(job: Callable[[int], R], count: int, address: str | None = None,
                progress: Progress | None = None, on_start: Callable[[int], None] | None = None) -> Iterator[R]:
    """Yield ``job(0) … job(count - 1)`` in order, computed on Ray's pool. ``on_start`` gets
    the number of pool processes once connected."""
    from ray.util.multiprocessing import Pool
    with connected(address) as ray:
        workers = cpus(ray)
        if on_start is not None:
            on_start(workers)
        bounds = chunks(count, workers)
        with Pool(min(workers, len(bounds)), initializer=_init, initargs=(job,)) as pool:
            for results in pool.imap(_play_range, bounds):
                yield from cast("list[R]", results)
                if progress:
                    progress.update(len(results))


__all__ = ["AUTH_HINT", "INSTALL", "ClusterError", "check_reachable", "connected", "cpus", "missing", "run_indexed"]
