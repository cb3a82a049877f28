"""Finding controllers: USB VID/PID and serial number first, then the protocol handshake.

Candidates come from pyserial's ``list_ports`` (CDC serial ports) and hidapi's ``enumerate``
(HID devices), filtered by the USB ids of ``config/controllers.yaml``, never by port index;
plus the ports and URLs the config lists by hand (globs allowed). A candidate is only a
controller once it has answered the handshake (:func:`probe`, or the hub's own handshake).

A controller that shows up both as a serial port and as a HID device (a composite USB device
with the same serial number) is listed once, as the serial port.
"""
from __future__ import annotations

import glob
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import firmware_protocol as fp

from .controllers import ControllersConfig
from .events import ControllerInfo
from .safetext import printable
from .transports import OpenError, Transport, TransportError, open_url

__all__ = ["Candidate", "ProbeResult", "find_candidates", "probe", "info_from_hello", "is_glob"]


@dataclass(frozen=True)
class Candidate:
    """A device that may be a controller."""

    url: str                        # what to open: a device path, a URL or hid://<path>
    kind: str                       # "serial", "hid", "url" (any other pyserial URL) or "sim"
    vid: int | None = None
    pid: int | None = None
    serial_number: str | None = None
    description: str = ""
    source: str = "usb"             # "usb" (found by VID/PID) or "config" (listed by hand)


@dataclass(frozen=True)
class ProbeResult:
    candidate: Candidate
    info: ControllerInfo | None     # the handshake's answer, if any
    error: str | None = None        # why not

    @property
    def answered(self) -> bool:
        return self.info is not None


def is_glob(text: str) -> bool:
    return "://" not in text and any(c in text for c in "*?[")


def _serial_ports(list_ports: Callable[[], Iterable[Any]] | None) -> list[Any]:
    if list_ports is None:
        from serial.tools.list_ports import comports
        list_ports = comports
    try:
        return list(list_ports())
    except Exception:  # noqa: BLE001 - a broken sysfs entry must not stop discovery
        return []


def find_candidates(config: ControllersConfig | None = None, *,
                    list_ports: Callable[[], Iterable[Any]] | None = None,
                    hidapi: Any = None, include_hid: bool = True) -> list[Candidate]:
    """Every device that may be a controller, in a stable order (by USB serial number and
    path), never by port index. ``list_ports`` and ``hidapi`` replace pyserial's
    ``comports`` and the ``hid`` module (for tests)."""
    config = config or ControllersConfig()
    ids = set(config.usb)
    found: list[Candidate] = []
    for p in _serial_ports(list_ports):
        if (p.vid, p.pid) in ids:
            found.append(Candidate(p.device, "serial", p.vid, p.pid, _text(p.serial_number) or None,
                                   _text(p.description), "usb"))
    if include_hid:
        serials = {(c.vid, c.pid, c.serial_number) for c in found if c.serial_number}
        seen_paths: set[str] = set()
        for vid, pid in sorted(ids):
            try:
                from .transports.hid import enumerate_devices
                devices = enumerate_devices(vid, pid, hidapi)
            except (OpenError, OSError):
                devices = []
            for d in devices:
                path = d.get("path", b"")
                path = path.decode(errors="replace") if isinstance(path, bytes) else str(path)
                sn = _text(d.get("serial_number")) or None
                if path in seen_paths or (sn and (vid, pid, sn) in serials):
                    continue
                seen_paths.add(path)
                found.append(Candidate(f"hid://{path}", "hid", d.get("vendor_id", vid), d.get("product_id", pid),
                                       sn, _text(d.get("product_string")), "usb"))
    found.sort(key=lambda c: (c.serial_number or "~", c.url))
    known = {c.url for c in found}
    for port in config.ports:
        for url in (sorted(glob.glob(port)) if is_glob(port) else [port]):
            if url in known and not url.startswith("sim://"):
                continue
            known.add(url)
            kind = ("sim" if url.startswith("sim://") else "hid" if url.startswith("hid://")
                    else "url" if "://" in url else "serial")
            found.append(Candidate(url, kind, source="config"))
    return found


def _text(value: Any) -> str:
    """A USB descriptor string (the device chose it): escaped, one line (see bitbox.safetext)."""
    return printable(value, 120) if value else ""


def info_from_hello(hello: Any, port: str) -> ControllerInfo:
    caps = hello.capabilities
    return ControllerInfo(
        controller_id=hello.controller_id,
        port=port,
        protocol=(hello.protocol_major, hello.protocol_minor),
        firmware=".".join(map(str, hello.firmware_version)),
        positions=tuple(hello.positions),
        has_leds=bool(caps & (fp.Capability.PATH_LIGHTS | fp.Capability.COLOUR_LED)),
        has_lock=bool(caps & fp.Capability.LOCK_SWITCH),
    )


def probe(candidate: Candidate | str, timeout: float = 1.0,
          opener: Callable[[str], Transport] = open_url) -> ProbeResult:
    """Open ``candidate``, ask who it is (HostHello) and wait up to ``timeout`` seconds for its
    Hello. Sends no Welcome, so the controller stays unclaimed and a hub can take it next."""
    if isinstance(candidate, str):
        candidate = Candidate(candidate, "url" if "://" in candidate else "serial", source="config")
    if candidate.kind == "sim":
        return ProbeResult(candidate, None, "simulated controllers exist only inside a hub")
    try:
        transport = opener(candidate.url)
    except (OpenError, TransportError) as exc:
        return ProbeResult(candidate, None, str(exc))
    try:
        decoder = transport.decoder()
        transport.write(transport.frame(fp.HostHello()))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in decoder.feed(transport.read()):
                if isinstance(message, fp.Hello):
                    return ProbeResult(candidate, info_from_hello(message, candidate.url))
        bad = f" ({decoder.bad_frames} bad frames)" if decoder.bad_frames else ""
        return ProbeResult(candidate, None, f"no Hello within {timeout:g} s{bad}")
    except TransportError as exc:
        return ProbeResult(candidate, None, str(exc))
    finally:
        transport.close()
