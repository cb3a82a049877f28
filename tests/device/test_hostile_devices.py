"""What an outside probe did to the hub with devices on real pseudo-terminals (issue 13,
items 3, 5 and 6): a same-id clone plugged in while the real controller is only silent, a
flood of ErrorReports, and ErrorReport texts forging log lines. The controllers are the
reference firmware in the emulator; the hostile frames are written on the emulated line."""
from __future__ import annotations

import logging
import sys
import time

import pytest

if not sys.platform.startswith(("linux", "darwin")):
    pytest.skip("pseudo-terminals need a POSIX system", allow_module_level=True)

import firmware_protocol as fp
from bitbox import hub as hub_module
from bitbox.controllers import ControllersConfig
from bitbox.events import Connected, Rejected, WheelsChanged
from bitbox.hub import Hub
from bitbox_tools.emulate import Emulator

from .conftest import wait_for

CFG = ControllersConfig()


class Recorder(logging.Handler):
    """Every record of the hub's logger, and whether the hub's lock was held when it was
    written (a handler that blocks, e.g. stderr into a full pipe, must never stall the hub)."""

    def __init__(self, hub: Hub) -> None:
        super().__init__(logging.DEBUG)
        self.hub = hub
        self.records: list[tuple[str, bool]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append((record.getMessage(), self.hub._lock._is_owned()))


@pytest.fixture
def recorder():
    made = []

    def attach(hub: Hub) -> Recorder:
        r = Recorder(hub)
        hub_module.log.addHandler(r)
        made.append(r)
        return r
    old = hub_module.log.level
    hub_module.log.setLevel(logging.DEBUG)
    yield attach
    for r in made:
        hub_module.log.removeHandler(r)
    hub_module.log.setLevel(old)


def connected(hub: Hub, n: int, timeout: float = 10.0) -> dict[int, int]:
    """controller id -> seat, once ``n`` controllers are connected."""
    seats: dict[int, int] = {}
    deadline = time.monotonic() + timeout
    while len(seats) < n and time.monotonic() < deadline:
        for e in hub.poll(timeout=0.05):
            if isinstance(e, Connected):
                seats[e.info.controller_id] = e.seat
    assert len(seats) == n, hub.links()
    return seats


def test_a_clone_plugged_in_while_the_real_controller_is_silent_is_refused_and_reported(recorder):
    twin = 0x8B17_0000_0000_0777
    with Emulator(2, ids=[twin, twin]) as emu:
        hub = Hub(config=CFG)
        log = recorder(hub)
        try:
            hub.add_url(emu.ports[0])
            hub.start()
            (seat,) = connected(hub, 1).values()
            real, clone = emu.ports
            emu.controllers[0].paused = True          # silent (a busy line): longer than "moved"
            time.sleep(0.7)
            hub.add_url(clone)                        # the clone comes now
            got = hub.poll_until(lambda e: isinstance(e, Rejected), 10)
            (rejected,) = [e for e in got if isinstance(e, Rejected)]
            assert rejected.port == clone and real in rejected.reason and clone in rejected.reason
            assert "two controllers with one id" in rejected.reason
            assert not [e for e in got if type(e).__name__ == "Back" and e.port == clone]
            # reported in the log too (written once the hub's lock is released: bounded, not at once)
            assert wait_for(lambda: any(clone in text and "two controllers with one id" in text
                                        for text, _ in log.records), 10), log.records
            # the real controller talks again: it still has its seat, its wheels reach the game
            emu.controllers[0].paused = False
            emu.set(0, right=3)
            got = hub.poll_until(lambda e: isinstance(e, WheelsChanged) and e.right == 3, 10)
            assert [e.seat for e in got if isinstance(e, WheelsChanged) and e.right == 3] == [seat]
            (status,) = [s for s in hub.seats() if s.seat == seat]
            assert status.connected and status.port == real
            # the clone's own moves never reach the game
            emu.set(1, right=2)
            got = hub.poll_until(lambda e: False, 0.5)
            assert not [e for e in got if isinstance(e, WheelsChanged) and e.right == 2]
            # pulled out for good, the real controller's seat may go to the twin
            emu.disconnect(0)
            got = hub.poll_until(lambda e: type(e).__name__ == "Back", 10)
            assert [(type(e).__name__, getattr(e, "port", None)) for e in got if type(e).__name__ in ("Lost", "Back")] \
                == [("Lost", None), ("Back", clone)]
        finally:
            hub.close()


def test_an_error_report_flood_is_logged_a_few_times_never_under_the_hubs_lock(recorder):
    with Emulator(2) as emu:
        hub = Hub(config=CFG)
        log = recorder(hub)
        try:
            for port in emu.ports:
                hub.add_url(port)
            hub.start()
            seats = connected(hub, 2)
            noisy = emu._ports[0]
            frame = fp.encode(fp.ErrorReport(fp.ErrorCode.WHEEL_FAULT, "left wheel stuck"))
            for _ in range(40):                       # 2,000 ErrorReports, as fast as the line takes them
                noisy.write(frame * 50)
                time.sleep(0.005)
            # the other controller is heard meanwhile
            emu.set(1, centre=5)
            quiet_seat = seats[emu.controllers[1].controller_id]
            got = hub.poll_until(lambda e: isinstance(e, WheelsChanged) and e.seat == quiet_seat and e.centre == 5, 10)
            assert any(isinstance(e, WheelsChanged) and e.seat == quiet_seat for e in got)
            link = next(l for l in hub._links if l.port == emu.ports[0])
            # until the hub has read them (bounded: a busy machine may run its reader late)
            assert hub_wait(lambda: hub.poll() is not None and link.error_reports >= 1000, 10), \
                (link.error_reports, noisy.dropped)
            reports = [text for text, _ in log.records if "reports error" in text]
            assert 1 <= len(reports) <= hub_module._ERRORS_LOGGED
            assert not [text for text, held in log.records if held]
            assert hub.links()[0].last_error == "error WHEEL_FAULT: left wheel stuck"
        finally:
            hub.close()


def test_error_report_texts_cannot_forge_log_lines(recorder):
    forged = "ok\nWinner: Green\r\x1b[2J\x1b]0;pwned\x07\u202e"
    with Emulator(1) as emu:
        hub = Hub(config=CFG)
        log = recorder(hub)
        try:
            hub.add_url(emu.ports[0])
            hub.start()
            connected(hub, 1)
            emu._ports[0].write(fp.encode(fp.ErrorReport(fp.ErrorCode.INTERNAL, forged)))
            assert hub_wait(lambda: any("reports error" in t for t, _ in log.records))
            (line,) = [t for t, _ in log.records if "reports error" in t]
            assert not any(ch in line for ch in "\n\r\x1b\x07\u202e")
            assert "ok\\nWinner: Green\\r\\x1b[2J\\x1b]0;pwned\\x07\\u202e" in line
            (status,) = hub.links()
            assert status.last_error == "error INTERNAL: ok\\nWinner: Green\\r\\x1b[2J\\x1b]0;pwned\\x07\\u202e"
        finally:
            hub.close()


def hub_wait(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def test_the_monitor_and_the_port_list_escape_what_a_device_sent():
    from bitbox.discovery import find_candidates
    from bitbox_tools.monitor import describe

    line = describe(fp.ErrorReport(3, "a\nWinner: Green\x1b[0m"))
    assert "\n" not in line and "\x1b" not in line and "a\\nWinner: Green\\x1b[0m" in line

    class Port:
        device, vid, pid = "/dev/ttyACM9", 0x1209, 0x0001
        serial_number, description = "S1\nfake", "8Bitbox\x1b[31m red"
    (cand,) = find_candidates(ControllersConfig(usb=((0x1209, 0x0001),)), list_ports=lambda: [Port()],
                              include_hid=False)
    assert cand.serial_number == "S1\\nfake" and cand.description == "8Bitbox\\x1b[31m red"
