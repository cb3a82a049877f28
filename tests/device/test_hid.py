"""HID: the transport against a fake hidapi device (reads, timeouts, errors), the hub over HID
reports with the reference firmware behind the fake device, and the real hidapi enumerating."""
from __future__ import annotations

import threading
import time

import pytest

import firmware_protocol as fp
from bitbox.controllers import ControllersConfig
from bitbox.discovery import find_candidates
from bitbox.hub import Hub
from bitbox.transports import OpenError, TransportError, Unplugged, open_url
from bitbox.transports.hid import HidTransport, enumerate_devices
from firmware_protocol.firmware.controller import Controller
from firmware_protocol.firmware.virtual_hal import VirtualHAL, monotonic_ms

from .conftest import FakeHidapi, FakeHidDevice, events_of, wait_for

PATH = "/dev/hidraw7"


def open_fake(dev=None, **kw):
    dev = dev or FakeHidDevice()
    return HidTransport.open(PATH, hidapi=FakeHidapi({PATH.encode(): dev}, **kw)), dev


def test_reads_reports_and_times_out():
    report = fp.encode_hid_report(fp.State(3, 0, 15, True, 7))
    t, dev = open_fake(FakeHidDevice([report]))
    assert dev.opened_path == PATH.encode() and t.port == f"hid://{PATH}"
    decoder = t.decoder()
    assert decoder.feed(t.read()) == [fp.State(3, 0, 15, True, 7)]
    spent = []
    for _ in range(3):                                # the best of three: a busy machine may run it late once
        started = time.monotonic()
        assert t.read() == b""                        # hidapi's empty list on timeout
        spent.append(time.monotonic() - started)
    assert 0.05 < min(spent) < 0.5
    dev.push(b"\x01\x05garbage" + bytes(55))          # a bad report is counted, not raised
    assert decoder.feed(t.read()) == [] and decoder.bad_frames == 1


def test_writes_full_reports_and_reports_failures():
    t, dev = open_fake()
    t.write(t.frame(fp.Identify(1500)))
    assert len(dev.written[0]) == fp.HID_REPORT_SIZE and dev.written[0][0] == fp.HID_REPORT_ID
    assert fp.decode_hid_report(dev.written[0]) == fp.Identify(1500)
    dev.write_result = -1                              # hidapi returns -1, it does not raise
    with pytest.raises(Unplugged, match="fake failure"):
        t.write(t.frame(fp.Ping(1)))
    dev.write_result = 10
    with pytest.raises(TransportError, match="short write"):
        t.write(t.frame(fp.Ping(1)))


def test_read_error_is_an_unplug_and_close_is_safe():
    t, dev = open_fake()
    dev.unplug()
    with pytest.raises(Unplugged, match="read error"):
        t.read()
    t.close()
    t.close()
    assert dev.closed
    with pytest.raises(Unplugged):
        t.read()


def test_permission_denied_gives_the_udev_rule(monkeypatch):
    import bitbox.transports.hid as hidmod
    monkeypatch.setattr(hidmod.os, "access", lambda path, mode: False)
    fake = FakeHidapi(open_error=OSError("open failed"))
    with pytest.raises(OpenError) as err:
        HidTransport.open("/dev/null", hidapi=fake)
    text = str(err.value)
    assert "permission denied" in text and "udev" in text
    assert 'ATTRS{idVendor}=="1209", ATTRS{idProduct}=="0001"' in text and "uaccess" in text
    with pytest.raises(OpenError, match="no such device"):
        HidTransport.open("/dev/hidraw-gone", hidapi=fake)


def test_real_hidapi_enumerates_without_error():
    import hid
    assert isinstance(hid.enumerate(), list)
    assert isinstance(enumerate_devices(0x1209, 0x0001), list)
    assert isinstance(find_candidates(ControllersConfig()), list)
    with pytest.raises(OpenError):
        open_url("hid:///dev/hidraw-none-here")


def test_discovery_by_vid_pid_and_serial_number_never_by_index():
    class Port:
        def __init__(self, device, vid, pid, sn):
            self.device, self.vid, self.pid, self.serial_number, self.description = device, vid, pid, sn, "x"

    ports = [Port("/dev/ttyACM1", 0x1209, 1, "BBB"), Port("/dev/ttyACM0", 0x1209, 1, "AAA"),
             Port("/dev/ttyUSB0", 0x0403, 0x6001, "FTDI")]
    listing = [{"path": b"/dev/hidraw2", "vendor_id": 0x1209, "product_id": 1, "serial_number": "AAA"},   # same device
               {"path": b"/dev/hidraw5", "vendor_id": 0x1209, "product_id": 1, "serial_number": "CCC"},
               {"path": b"/dev/hidraw6", "vendor_id": 0x046D, "product_id": 1, "serial_number": "X"}]
    cfg = ControllersConfig(usb=((0x1209, 1),), ports=("socket://h:1", "sim://"))
    found = find_candidates(cfg, list_ports=lambda: ports, hidapi=FakeHidapi(listing=listing))
    assert [(c.url, c.kind, c.serial_number) for c in found] == [
        ("/dev/ttyACM0", "serial", "AAA"), ("/dev/ttyACM1", "serial", "BBB"),
        ("hid:///dev/hidraw5", "hid", "CCC"), ("socket://h:1", "url", None), ("sim://", "sim", None)]


class FirmwareBehindHid(FakeHidDevice):
    """A fake hidapi device whose other end is the reference firmware in HID mode."""

    def __init__(self, controller_id):
        super().__init__()
        self.to_controller = []
        self.hal = VirtualHAL(transport="hid", clock=monotonic_ms,
                              read=lambda: self.to_controller.pop(0) if self.to_controller else None,
                              write=self.push)
        self.on_write = self.to_controller.append
        self.firmware = Controller(self.hal, controller_id)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop.wait(0.002):
            self.firmware.step()


def test_the_hub_over_hid_reports_with_the_reference_firmware():
    dev = FirmwareBehindHid(0xABCD)
    try:
        t = HidTransport.open(PATH, hidapi=FakeHidapi({PATH.encode(): dev}))
        with Hub(config=ControllersConfig()) as hub:
            hub.add_transport(t)
            seen = hub.poll_until(lambda e: type(e).__name__ == "WheelsChanged", 10)
            (connected,) = events_of(seen, "Connected")
            assert connected.info.controller_id == 0xABCD and connected.info.port == f"hid://{PATH}"
            dev.hal.set_wheels(4, 5, 6)
            dev.hal.set_lock(True)
            seen = hub.poll_until(lambda e: type(e).__name__ == "WheelsChanged" and e.locked, 10)
            change = events_of(seen, "WheelsChanged")[-1]
            assert (change.seat, change.left, change.centre, change.right) == (0, 4, 5, 6)
            assert hub.set_lights(0, True, False, True)
            assert wait_for(lambda: dev.hal.path_lights == (True, False, True) and dev.firmware.seat == 1)
            dev.unplug()
            assert events_of(hub.poll_until(lambda e: type(e).__name__ == "Lost", 10), "Lost")[0].reason == "unplugged"
    finally:
        dev.stop.set()
