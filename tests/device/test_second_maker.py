"""What a second controller written from SPEC.md alone found in the host, on real pseudo-terminals.

Each test names the SPEC section; the controller is a small one of this file that does what
SPEC.md says (Hello until welcomed, State on Welcome, on every change and every 250 ms), with
the liberties it allows: a State on every debounced change of any of its four inputs (a
change every 13 ms: each input every 52 ms), another major version, a second controller with
the same id.
"""
from __future__ import annotations

import io
import logging
import os
import threading
import time
import zlib

import pytest

import firmware_protocol as fp
from bitbox.controllers import ControllersConfig
from bitbox.events import Lost
from bitbox.hub import Hub
from bitbox.table.lobby import Lobby, run_lobby
from bitbox.table.seating import TableError, wait_for_urls
from bitbox.table.service import ServiceBench, unanswered_lines
from bitbox.transports import serial as serial_transport
from bitbox.transports.hid import HidTransport

from .conftest import FakeHidapi, FakeHidDevice, events_of, wait_for

CFG = ControllersConfig()


class PtyController:
    """SPEC 7-8 on the master end of a pty, in a thread. ``change_every``: seconds between two
    debounced changes (one input after the other; None: the wheels stay still);
    ``repeat_every``: send the same State this often too (a rogue: the SPEC says every 250 ms);
    ``only_states``: a device that sends States and nothing else, and reads nothing."""

    def __init__(self, master: int, cid: int, major: int = 1, change_every: float | None = None,
                 repeat_every: float = fp.HEARTBEAT_MS / 1000, only_states: bool = False) -> None:
        self.master, self.cid, self.major, self.only_states = master, cid, major, only_states
        self.change_every, self.repeat_every = change_every, repeat_every
        self.running = False
        self.paused = threading.Event()           # set: writes nothing (the line stays open)
        self.inputs = [0, 0, 0, 0]
        self.seq = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> PtyController:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(2.0)

    def _write(self, data: bytes) -> None:
        if self.paused.is_set():
            return
        try:
            os.write(self.master, data)
        except OSError:
            pass                                   # SPEC 2: drop what cannot be written at once

    def _hello(self) -> None:
        self._write(fp.encode(fp.Hello(self.major, 2, self.cid, (1, 0, 0), (16, 16, 16), 7)))

    def _state(self) -> None:
        l, c, r, k = self.inputs
        self._write(fp.encode(fp.State(l, c, r, bool(k), self.seq)))
        self.seq = (self.seq + 1) & 0xFFFFFFFF

    def _run(self) -> None:
        decoder = fp.Decoder()
        os.set_blocking(self.master, False)
        self._write(b"\x00")
        if self.only_states:                       # never a Hello: States every 250 ms, nothing read
            while not self._stop.wait(self.repeat_every):
                self._state()
            return
        self._hello()
        last_hello = last_state = last_change = time.monotonic()
        turn = 0
        while not self._stop.wait(0.001):
            try:
                data = os.read(self.master, 4096)
            except BlockingIOError:
                data = b""
            except OSError:
                return
            for m in decoder.feed(data):
                if isinstance(m, fp.HostHello):
                    self.running = False
                    self._hello()
                    last_hello = time.monotonic()
                elif isinstance(m, fp.Welcome) and m.accepted and m.protocol_major == self.major \
                        and not self.running:
                    self.running = True
                    self._state()
                    last_state = time.monotonic()
            now = time.monotonic()
            if self.running:
                if self.change_every is not None and now - last_change >= self.change_every:
                    k = turn % 4                   # each input in turn: each one changes every 4 periods
                    self.inputs[k] = (self.inputs[k] + 1) % (2 if k == 3 else 16)
                    turn += 1
                    last_change = now
                    self._state()
                    last_state = now
                elif now - last_state >= self.repeat_every:
                    self._state()
                    last_state = now
            elif now - last_hello >= fp.HELLO_RETRY_MS / 1000 * (10 if self.major != 1 else 1):
                self._hello()
                last_hello = now


@pytest.fixture
def ptys():
    made: list[tuple[int, int]] = []

    def make() -> tuple[int, str]:
        import tty
        master, slave = os.openpty()
        tty.setraw(slave)
        made.append((master, slave))
        return master, os.ttyname(slave)
    yield make
    for master, slave in made:
        os.close(master)
        os.close(slave)


def test_a_host_that_stalls_does_not_lose_controllers_whose_frames_wait_unread(ptys, monkeypatch):
    """SPEC 8.1/8.5: lost after LOST_AFTER_MS *without a frame*. A host process that does not
    run for over a second (its interpreter lock held by a long call, a busy machine) found,
    when it ran again, every controller's last frame over a second old and declared them all
    lost, while their heartbeats waited on the line, unread. The stall here is the reader's
    (its read held for 1.2 s while the controller keeps writing)."""
    master, path = ptys()
    real_read = serial_transport.SerialTransport.read
    stall = threading.Event()

    def read(self: serial_transport.SerialTransport) -> bytes:
        if stall.is_set():
            stall.clear()
            time.sleep(1.2)                        # the reader does not run; the line fills
        return real_read(self)
    monkeypatch.setattr(serial_transport.SerialTransport, "read", read)
    with PtyController(master, 0x5EC0_0000_0000_0001), Hub(config=CFG) as hub:
        hub.add_url(path)
        hub.start()
        got = hub.poll_until(lambda e: type(e).__name__ == "Connected", 10)
        assert events_of(got, "Connected")
        stall.set()
        ended = time.monotonic() + 2.0            # the stall and 0.8 s after it
        events: list = []
        while time.monotonic() < ended:
            events += hub.poll(timeout=0.05)
        assert not [e for e in events if isinstance(e, Lost)], events
        assert hub.seats()[0].connected


def test_a_controller_silent_on_a_read_line_is_still_lost(ptys):
    """The other side of the test above: a controller that stops writing is lost, bounded."""
    master, path = ptys()
    with PtyController(master, 0x5EC0_0000_0000_0002) as ctl, Hub(config=CFG) as hub:
        hub.add_url(path)
        hub.start()
        assert events_of(hub.poll_until(lambda e: type(e).__name__ == "Connected", 10), "Connected")
        ctl.paused.set()
        got = hub.poll_until(lambda e: isinstance(e, Lost), 10)
        assert [e.reason for e in got if isinstance(e, Lost)] == ["heartbeat timeout"]


def test_a_controller_changing_at_the_spec_rate_is_not_called_fast(ptys, caplog):
    """SPEC 8.1: a State on every debounced change, at once. One input after the other, a
    controller may change every 13 ms (each input every 52 ms, over DEBOUNCE_MS): about 77
    States a second, all of them news. The host warned "sends 77 frames/s (a controller
    sends about 4)" for it; it now counts only States that change nothing, as the rogue
    below sends (the same State every 25 ms), and still names that one."""
    legal_master, legal = ptys()
    rogue_master, rogue = ptys()
    caplog.set_level(logging.WARNING, logger="bitbox")
    with PtyController(legal_master, 0x5EC0_0000_0000_0003, change_every=0.013), \
            PtyController(rogue_master, 0x5EC0_0000_0000_0004, repeat_every=0.025), Hub(config=CFG) as hub:
        hub.add_url(legal)
        hub.add_url(rogue)
        hub.start()
        assert wait_for(lambda: any("frames/s" in r.getMessage() and rogue in r.getMessage()
                                    for r in caplog.records), timeout=15)
        legal_frames = next(l.frames for l in hub.links() if l.port == legal)
    assert legal_frames > 60                       # it did send at that rate (over 2 s of watching)
    assert not [r.getMessage() for r in caplog.records if "frames/s" in r.getMessage() and legal in r.getMessage()]


def _refused_twins(ptys):
    first_master, first = ptys()
    second_master, second = ptys()
    cid = 0x5EC0_0000_0000_0005
    return (PtyController(first_master, cid), first), (PtyController(second_master, cid), second)


def test_the_headless_lobby_names_a_refused_controller_and_stops(ptys):
    """SPEC 7.3: a host may refuse a controller (a duplicate id). `outspeed play --controller A
    --controller B` with B a clone of A waited for ever, saying B "has not answered (check its
    cable and power)" although it had answered and been refused. Now: one line, the reason."""
    (one, first), (two, second) = _refused_twins(ptys)
    with one, Hub(config=CFG) as hub:
        hub.add_url(first)
        hub.start()
        assert events_of(hub.poll_until(lambda e: type(e).__name__ == "Connected", 10), "Connected")
        with two:
            hub.add_url(second)
            lobby = Lobby(["Red", "Blue", "Green"], 3, expected=[first, second])
            with pytest.raises(TableError, match="two controllers with one id"):
                run_lobby(hub, lobby, max_seconds=15)


def test_seating_names_a_controller_refused_for_its_major_version(ptys):
    """SPEC 7.3, with `--lobby never`: a controller of protocol 2 is refused; the seating said
    it "has not answered" and waited for ever. Now: one line naming both versions."""
    master, path = ptys()
    with PtyController(master, 0x5EC0_0000_0000_0006, major=2), Hub(config=CFG) as hub:
        hub.add_url(path)
        hub.start()
        with pytest.raises(TableError, match="major versions differ"):
            wait_for_urls(hub, [path], {}, [], io.StringIO(), give_up=15)


def test_the_test_screen_shows_the_seated_controller_not_its_refused_twin(ptys):
    """`bitbox test-controllers` with a clone: the row of the id showed the refused twin's
    counters (its one Hello: "last frame 2945 ms ago") instead of the seated controller's."""
    (one, first), (two, second) = _refused_twins(ptys)
    with one, Hub(config=CFG) as hub:
        hub.add_url(first)
        hub.start()
        assert events_of(hub.poll_until(lambda e: type(e).__name__ == "Connected", 10), "Connected")
        with two:
            hub.add_url(second)
            assert wait_for(lambda: any(l.port == second and l.rejected for l in hub.links()), timeout=10)
            assert wait_for(lambda: next(l.frames for l in hub.links() if l.port == first) >= 6, timeout=10)
            bench = ServiceBench(hub)
            (row,) = bench.rows()
            twin = next(l for l in hub.links() if l.port == second)
    assert row["port"] == first
    assert twin.frames <= 3 and row["frames"] >= 6      # the seated one's heartbeats, not the twin's Hello


def test_the_test_screen_says_why_a_device_has_no_row(ptys):
    """`bitbox test-controllers --controller A --controller B ...` printed rows for the
    controllers that answered and nothing at all about the others: a maker whose controller
    sends only States (no Hello, SPEC 7.2) or nothing saw it silently left out."""
    states_master, states = ptys()
    _, silent = ptys()
    good_master, good = ptys()
    with PtyController(states_master, 0x5EC0_0000_0000_0007, only_states=True), \
            PtyController(good_master, 0x5EC0_0000_0000_0008), Hub(config=CFG) as hub:
        for port in (states, silent, good):
            hub.add_url(port)
        hub.start()
        assert events_of(hub.poll_until(lambda e: type(e).__name__ == "Connected", 10), "Connected")
        assert wait_for(lambda: any(l.port == states and l.frames >= 2 for l in hub.links()), timeout=10)
        lines = unanswered_lines(hub)
    assert len(lines) == 2, lines
    assert lines[0].startswith(states + ": ") and "frames but no Hello" in lines[0]
    assert lines[1] == f"{silent}: no answer: no Hello, not even in answer to the host's HostHello"


def _with_bytes(message: object, extra: bytes) -> bytes:
    """The 64-byte HID report of ``message`` with ``extra`` appended to its payload (SPEC 11: a
    receiver accepts and ignores them, whatever minor the sender announced)."""
    raw = fp.encode_raw(message)
    body = raw[:-4] + extra
    raw = body + (zlib.crc32(body) & 0xFFFFFFFF).to_bytes(4, "little")
    assert len(raw) <= 62
    return bytes((1, len(raw))) + raw + bytes(62 - len(raw))


def test_a_protocol_1_0_controller_over_hid_with_62_byte_frames():
    """SPEC 5 and 11, over the HID transport: a controller announcing the oldest minor (1.0)
    whose Hello and States carry appended bytes up to the largest raw frame (62 bytes: N = 62)
    is seated, its changes read, and it is sent no 1.1 or 1.2 message."""
    cid = 0x5EC0_0000_0000_0009
    dev = FakeHidDevice()
    extra_hello = bytes(range(1, 41))                     # 18 + 40 + 4 = 62 bytes
    extra_state = bytes(range(1, 50))                     # 9 + 49 + 4 = 62 bytes
    seq = [0]

    def state(left: int, locked: bool) -> bytes:
        seq[0] += 1
        return _with_bytes(fp.State(left, 0, 0, locked, seq[0]), extra_state)

    def answer(report: bytes) -> None:
        m = fp.decode_hid_report(report)
        if isinstance(m, fp.HostHello):
            dev.push(_with_bytes(fp.Hello(1, 0, cid, (1, 0, 0), (16, 16, 16), 7), extra_hello))
        elif isinstance(m, fp.Welcome) and m.accepted:
            dev.push(state(0, False))
    dev.on_write = answer
    dev.push(_with_bytes(fp.Hello(1, 0, cid, (1, 0, 0), (16, 16, 16), 7), extra_hello))
    path = "/dev/hidraw-second-maker"
    with Hub(config=CFG) as hub:
        hub.add_transport(HidTransport.open(path, hidapi=FakeHidapi({path.encode(): dev})))
        (connected,) = events_of(hub.poll_until(lambda e: type(e).__name__ == "Connected", 10), "Connected")
        assert connected.info.protocol == (1, 0) and connected.info.controller_id == cid
        dev.push(state(9, True))
        got = hub.poll_until(lambda e: type(e).__name__ == "WheelsChanged" and e.locked, 10)
        assert [(e.left, e.locked) for e in events_of(got, "WheelsChanged")][-1] == (9, True)
        assert hub.hint(0, left=0b10) is False and hub.show(0, left=0b10) is False
        hub.refuse_choice(0, ms=1500)                      # a 1.0 controller: Identify, its only signal
        assert wait_for(lambda: any(isinstance(fp.decode_hid_report(r), fp.Identify) for r in dev.written), 10)
        sent = {type(fp.decode_hid_report(r)).__name__ for r in dev.written}
        assert not sent & {"Hint", "ChoiceRefused", "Show"}, sent
        assert next(l for l in hub.links() if l.port.endswith(path)).bad_frames == 0


def test_bitbox_ports_says_which_controllers_a_game_would_refuse():
    """`bitbox ports` listed a controller of protocol 2.x and two controllers with one id like
    any others; the game then refused them (SPEC 7.3). The list now says so on their lines."""
    from bitbox_tools import ports

    def row(port: str, cid: int, protocol: str) -> dict:
        return {"port": port, "kind": "serial", "vid": None, "pid": None, "serial_number": None,
                "description": "", "source": "config", "answered": True, "controller": f"{cid:#018x}",
                "protocol": protocol, "firmware": "1.0.0", "positions": [16, 16, 16], "seat": None}
    out = io.StringIO()
    ports.report([row("/dev/ttyACM0", 7, "1.0"), row("/dev/ttyACM1", 8, "2.0"), row("/dev/ttyACM2", 7, "1.2")],
                 out, as_json=False)
    first, future, twin = out.getvalue().splitlines()
    assert first.endswith("wheels 16/16/16")
    assert future.endswith("; another major version: this host (%d.%d) refuses it" % fp.PROTOCOL_VERSION)
    assert twin.endswith("; same id as /dev/ttyACM0: a game seats only one of them")
