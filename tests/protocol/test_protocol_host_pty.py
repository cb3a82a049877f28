"""The host as a controller written from SPEC.md sees it, on a real pseudo-terminal.

What a firmware maker found plugging a controller of their own into the host (each test names
the SPEC section): a slow write that went through is not a dead controller, a line that is never
quiet still gets its HostHello. The controller here is a minimal one from SPEC.md: it answers
HostHello with Hello, starts a session on Welcome and records what the host sends it.
"""
from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections.abc import Iterator
from typing import TypeVar

import pytest

import firmware_protocol as fp
from bitbox.hub import Hub
from bitbox.transports import TransportError, open_url
from bitbox.transports import serial as serial_transport
from bitbox.transports.serial import SerialTransport

ID = 0x4D414B4552000001
T = TypeVar("T")


@pytest.fixture
def pty_pair() -> Iterator[tuple[int, str]]:
    master, slave = os.openpty()
    tty.setraw(slave)
    yield master, os.ttyname(slave)
    os.close(master)
    os.close(slave)


class SpecController:
    """SPEC 7.2: 00 and Hello at once and every 500 ms until welcomed, then State on Welcome and
    every 250 ms. Reads the master end of a pty in a thread; ``received`` is every message."""

    def __init__(self, master: int, garbage: bool = False, capabilities: int = 7) -> None:
        self.master = master
        self.garbage = garbage
        self.capabilities = capabilities
        self.received: list[object] = []
        self.running = False
        self.seq = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> SpecController:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(2.0)

    def _write(self, data: bytes) -> None:
        try:
            os.write(self.master, data)
        except OSError:
            pass                                   # SPEC 2: drop what cannot be written at once

    def _hello(self) -> None:
        if self.garbage:
            return                                 # drowned in the noise anyway
        self._write(b"\x00" + fp.encode(fp.Hello(1, 2, ID, (1, 0, 0), (16, 16, 16), self.capabilities)))

    def _run(self) -> None:
        decoder = fp.Decoder()
        os.set_blocking(self.master, False)
        self._hello()
        last_hello = last_state = time.monotonic()
        while not self._stop.wait(0.002):
            try:
                data = os.read(self.master, 4096)
            except BlockingIOError:
                data = b""
            except OSError:
                return
            for m in decoder.feed(data):
                self.received.append(m)
                if isinstance(m, fp.HostHello):
                    self.running = False
                    self._hello()
                    last_hello = time.monotonic()
                elif isinstance(m, fp.Welcome) and m.accepted and not self.running:
                    self.running = True
                    self._write(fp.encode(fp.State(0, 0, 0, False, self.seq)))
            now = time.monotonic()
            if self.garbage:                       # a line never quiet: noise, never a 00
                self._write(bytes(range(1, 256)) * 4)
            elif self.running and now - last_state >= 0.25:
                self.seq += 1
                self._write(fp.encode(fp.State(0, 0, 0, False, self.seq)))
                last_state = now
            elif not self.running and now - last_hello >= 0.5:
                self._hello()
                last_hello = now

    def wait_for(self, kind: type[T], count: int = 1, timeout: float = 5.0) -> list[T]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = [m for m in list(self.received) if isinstance(m, kind)]
            if len(got) >= count:
                return got
            time.sleep(0.01)
        return [m for m in list(self.received) if isinstance(m, kind)]


def test_a_slow_write_that_went_through_is_not_a_timeout(pty_pair, monkeypatch) -> None:
    """A write whose bytes all went out is done, however long the process was kept from running
    around it (pyserial reported such a write as timed out: the hub then skipped the link for a
    second and a controller never got its AssignSeat)."""
    master, path = pty_pair
    transport = open_url(path)
    assert isinstance(transport, SerialTransport)
    real_write = os.write
    fd = transport._serial.fd

    def descheduled(target: int, data: bytes) -> int:
        n = real_write(target, data)
        if target == fd:
            time.sleep(serial_transport.WRITE_TIMEOUT * 1.5)     # the process did not run
        return n

    try:
        monkeypatch.setattr(os, "write", descheduled)
        frame = transport.frame(fp.AssignSeat(2, (1, 2, 3)))
        transport.write(frame)                                   # no "write timed out"
        monkeypatch.setattr(os, "write", real_write)
        time.sleep(0.05)
        assert fp.Decoder().feed(os.read(master, 100)) == [fp.AssignSeat(2, (1, 2, 3))]
    finally:
        transport.close()


def test_a_controller_that_does_not_read_still_times_out(pty_pair) -> None:
    """The other side of the same rule: a full line (nobody reads the master) is a timeout,
    within a bounded time."""
    _master, path = pty_pair
    transport = open_url(path)
    try:
        started = time.monotonic()
        with pytest.raises(TransportError, match="write timed out"):
            for _ in range(1000):                                 # far more than a pty holds
                transport.write(bytes(range(1, 256)) * 16)
        assert time.monotonic() - started < 5.0
    finally:
        transport.close()


def test_slow_writes_do_not_cost_the_seat(pty_pair, monkeypatch) -> None:
    """The hub end to end: every write to this controller comes back late (a loaded machine),
    yet it gets its Welcome and its AssignSeat, and later lights."""
    master, path = pty_pair
    real_write = os.write
    slow_fds: set[int] = set()

    def late(target: int, data: bytes) -> int:
        n = real_write(target, data)
        if target in slow_fds:
            time.sleep(serial_transport.WRITE_TIMEOUT * 1.5)
        return n

    monkeypatch.setattr(os, "write", late)
    with SpecController(master) as ctl, Hub() as hub:
        hub.add_url(path)
        deadline = time.monotonic() + 5
        while not hub.links() or hub.links()[0].state != "active":
            assert time.monotonic() < deadline, "never welcomed"
            hub.poll(timeout=0.05)
        slow_fds.update(link.transport._serial.fd or -1 for link in hub._links
                        if isinstance(link.transport, SerialTransport))
        hub.set_lights(0, True, False, True, colour=(9, 8, 7))
        hub.poll(timeout=0.05)
        hub.set_lights(0, False, True, False, colour=(1, 2, 3))   # the next one is not dropped
        hub.poll(timeout=0.05)
        lights = ctl.wait_for(fp.SetLights, count=2)
        assert ctl.wait_for(fp.AssignSeat)[0].seat == 1
        assert lights == [fp.SetLights(True, False, True, (9, 8, 7)), fp.SetLights(False, True, False, (1, 2, 3))]


def test_a_line_never_quiet_still_gets_host_hellos(pty_pair) -> None:
    """SPEC 7.4: a host repeats its HostHello every HELLO_RETRY_MS while a link has not
    answered, even when the line is never quiet (it used to ask only after a read that
    returned nothing)."""
    master, path = pty_pair
    with SpecController(master, garbage=True) as ctl:
        deadline = time.monotonic() + 5
        while os.get_blocking(master) or not ctl._thread.is_alive():
            assert time.monotonic() < deadline
            time.sleep(0.01)
        time.sleep(0.1)                                           # the line is full of noise
        with Hub() as hub:
            hub.add_url(path)
            hellos = ctl.wait_for(fp.HostHello, count=2, timeout=5.0)
            assert len(hellos) >= 2


def test_the_host_starts_with_a_delimiter(pty_pair) -> None:
    """SPEC 4.3 and 7.4: after opening the port the host writes a 0x00, then its HostHello, so a
    controller holding half a frame (from a host that died mid-write) reads the HostHello."""
    master, path = pty_pair
    with Hub() as hub:
        hub.add_url(path)
        data = b""
        deadline = time.monotonic() + 5
        while b"\x00" not in data[1:] and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                data += os.read(master, 100)
    assert data[:1] == b"\x00"
    held = b"\x05\x82\x01"                                       # half a frame, held
    assert fp.Decoder().feed(held + data) == [fp.HostHello(*fp.PROTOCOL_VERSION)]


def test_a_controller_without_a_lock_switch_is_named(pty_pair, caplog) -> None:
    """SPEC 6.3: capability bit 2 clear, no lock switch: its player can never submit a choice
    (8.6). The host seats it (a display, a bench) and says so in one line."""
    master, path = pty_pair
    with caplog.at_level("WARNING", logger="bitbox.hub"), SpecController(master, capabilities=3), Hub() as hub:
        hub.add_url(path)
        deadline = time.monotonic() + 5
        while not any("no lock switch" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline, "not named"
            hub.poll(timeout=0.05)
        assert hub.links()[0].state == "active"
    line = next(r.getMessage() for r in caplog.records if "no lock switch" in r.getMessage())
    assert line == ("seat 1: controller 0x4d414b4552000001 has no lock switch (its Hello's capabilities): "
                    "its player cannot lock a choice")
