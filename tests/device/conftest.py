"""Helpers for the device-layer tests: pseudo-terminals, a fake hidapi, event waits."""
from __future__ import annotations

import os
import threading
import time
import tty
from collections import deque

import pytest


@pytest.fixture
def pty_pair():
    """A raw pseudo-terminal: (master fd, slave path). The master is closed at the end."""
    master, slave = os.openpty()
    tty.setraw(slave)
    yield master, os.ttyname(slave)
    os.close(master)
    os.close(slave)


def events_of(events, kind):
    return [e for e in events if type(e).__name__ == kind]


def assert_not_delayed(delays, control):
    """``delays`` (seconds, under some stress) are not much worse than ``control`` (the same
    measurement without it, in the same run): a check that holds on a busy machine too.

    This is a guard against starvation (a babbler holding the others back by tens or hundreds
    of milliseconds, as before the throttle), not a speed figure: the floors leave room for a
    machine shared with other work, and the latency figures themselves are measured by
    ``python -m bitbox_tools.bench`` (tools/bench/device.py)."""
    def q(values, p):
        values = sorted(values)
        return values[min(len(values) - 1, int(p * len(values)))]
    # The floors are starvation's scale, not jitter's: in a whole-suite run on 2 cores (three
    # test workers, the babbling emulator's own process) a median of 55 ms against 14 ms was
    # seen with the throttle working; a babbler without it held the others back by hundreds.
    for p, floor in ((0.5, 0.1), (0.9, 0.25), (1.0, 1.0)):
        limit = max(floor, 2 * q(control, p) + floor / 2)
        assert q(delays, p) <= limit, (f"quantile {p}: {q(delays, p) * 1000:.1f} ms under stress, "
                                       f"{q(control, p) * 1000:.1f} ms without (limit {limit * 1000:.1f} ms)")


def wait_for(predicate, timeout=10.0, interval=0.01):
    """Until ``predicate()`` (True), or False after ``timeout`` seconds: a bound for a machine
    busy with other work, not a timing (it returns as soon as the predicate holds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()


class FakeHidDevice:
    """hidapi's ``device`` interface over queues, recording what was written (the way
    liquidctl's tests mock hidapi). ``reports`` are returned by ``read`` one at a time;
    ``read_error`` makes the next read raise OSError (an unplug); ``write_result`` -1 makes
    writes fail the way hidapi does (a return value, no exception)."""

    def __init__(self, reports=()):
        self.incoming: deque[bytes] = deque(reports)
        self.written: list[bytes] = []
        self.cond = threading.Condition()
        self.opened_path = None
        self.closed = False
        self.read_error = False
        self.write_result = None
        self.reads = 0
        self.on_write = None

    # hidapi's interface
    def open_path(self, path):
        self.opened_path = path

    def read(self, max_length, timeout_ms=0):
        self.reads += 1
        with self.cond:
            if self.read_error:
                raise OSError("read error")
            if not self.incoming:
                self.cond.wait(timeout_ms / 1000)
            if self.read_error:
                raise OSError("read error")
            if self.incoming:
                return list(self.incoming.popleft()[:max_length])
            return []

    def write(self, data):
        data = bytes(data)
        self.written.append(data)
        if self.write_result is not None:
            return self.write_result
        if self.on_write is not None:
            self.on_write(data)
        return len(data)

    def close(self):
        self.closed = True

    def error(self):
        return "fake failure"

    # the test's side
    def push(self, report: bytes):
        with self.cond:
            self.incoming.append(bytes(report))
            self.cond.notify_all()

    def unplug(self):
        with self.cond:
            self.read_error = True
            self.cond.notify_all()


class FakeHidapi:
    """The ``hid`` module's interface: ``device()`` and ``enumerate(vid, pid)``."""

    def __init__(self, devices=None, listing=(), open_error=None):
        self.devices = devices or {}
        self.listing = list(listing)
        self.open_error = open_error

    def enumerate(self, vid=0, pid=0):
        return [d for d in self.listing if (not vid or d["vendor_id"] == vid) and (not pid or d["product_id"] == pid)]

    def device(self):
        return _Binder(self)


class _Binder:
    """What FakeHidapi.device() returns: forwards to the device bound by open_path."""

    def __init__(self, fake):
        self._fake = fake
        self._dev = None

    def open_path(self, path):
        if self._fake.open_error is not None:
            raise self._fake.open_error
        self._dev = self._fake.devices[path]
        self._dev.open_path(path)

    def __getattr__(self, name):
        return getattr(self._dev, name)
