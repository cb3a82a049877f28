"""Finding controllers: USB VID/PID and serial number first, then the protocol handshake.

Candidates come from pyserial's ``list_ports`` (CDC serial ports) and hidapi's ``enumerate``
(HID devices), filtered by the USB ids of ``config/controllers.yaml``, never by port index;
plus the ports and URLs the config lists by hand (globs allowed). A candidate is only a
controller once it has answered the handshake (:func:`probe`, or the hub's own handshake).

A controller that shows up both as a serial port and as a HID device (a composite USB device
with the same serial number) is listed once, as the serial port.

**Emulated controllers** (``bitbox emulate``) are found the same way, without options: each
running emulator keeps a folder ``emulate-<pid>`` of symlinks ``8bitbox-<index>`` to its
pseudo-terminals in the runtime folder (:func:`runtime_dir`: ``$BITBOX_RUNTIME_DIR``, else the
user's runtime folder from platformdirs, ``$XDG_RUNTIME_DIR/bitbox`` on Linux), and removes it
when it stops. Discovery lists the links of every emulator still running (a folder left by
one that was killed is skipped, and removed).
"""
from __future__ import annotations

import glob
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import firmware_protocol as fp

from .controllers import ControllersConfig
from .events import ControllerInfo
from .safetext import printable
from .transports import OpenError, Transport, TransportError, open_url

__all__ = ["Candidate", "ProbeResult", "emulated_candidates", "emulator_dir", "find_candidates", "find_by_id",
           "id_matches", "info_from_hello", "is_glob", "looks_like_id", "probe", "resolve_port", "runtime_dir"]

#: The environment variable that moves the runtime folder (tests, several users of one machine).
RUNTIME_ENV = "BITBOX_RUNTIME_DIR"


@dataclass(frozen=True)
class Candidate:
    """A device that may be a controller."""

    url: str                        # what to open: a device path, a URL or hid://<path>
    kind: str                       # "serial", "hid", "url" (any other pyserial URL) or "sim"
    vid: int | None = None
    pid: int | None = None
    serial_number: str | None = None
    description: str = ""
    source: str = "usb"             # "usb" (found by VID/PID), "config" (listed by hand) or "emulated"


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


def runtime_dir() -> Path:
    """The folder where running emulators register their ports: ``$BITBOX_RUNTIME_DIR``, else
    the user's runtime folder (platformdirs; ``$XDG_RUNTIME_DIR/bitbox`` on Linux)."""
    given = os.environ.get(RUNTIME_ENV)
    if given:
        return Path(given)
    import warnings

    from platformdirs import user_runtime_dir
    with warnings.catch_warnings():         # no XDG_RUNTIME_DIR (a cron job, a container): its /tmp fallback, quietly
        warnings.simplefilter("ignore")
        return Path(user_runtime_dir("bitbox"))


def emulator_dir(pid: int | None = None) -> Path:
    """The folder of links of the emulator running as process ``pid`` (default: this one)."""
    return runtime_dir() / f"emulate-{os.getpid() if pid is None else pid}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def emulated_candidates() -> list[Candidate]:
    """The ports of every ``bitbox emulate`` still running (its links in :func:`runtime_dir`).
    A folder whose emulator is gone is skipped and removed; a broken link is skipped."""
    try:
        folders = sorted(runtime_dir().glob("emulate-*"))
    except OSError:
        return []
    found = []
    for folder in folders:
        try:
            pid = int(folder.name.removeprefix("emulate-"))
        except ValueError:
            continue
        if not _alive(pid):
            _remove_folder(folder)
            continue
        try:
            links = sorted(folder.glob("8bitbox-*"), key=lambda p: (len(p.name), p.name))
        except OSError:
            continue
        for link in links:
            if link.is_symlink() and link.exists():
                found.append(Candidate(str(link), "serial", description=f"bitbox emulate (process {pid})",
                                       source="emulated"))
    return found


def _remove_folder(folder: Path) -> None:
    try:
        for entry in folder.iterdir():
            entry.unlink()
        folder.rmdir()
    except OSError:
        pass


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
    found += emulated_candidates()
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


def looks_like_id(text: str) -> bool:
    """Whether ``text`` names a controller by id (4 to 16 hex digits, ``0x`` allowed), not a port."""
    t = text.lower().removeprefix("0x").replace("…", "")
    return 4 <= len(t) <= 16 and all(c in "0123456789abcdef" for c in t) and "/" not in text


def id_matches(controller_id: int, text: str) -> bool:
    """Whether ``text`` (16 hex digits, or their first or last 4 or more) names ``controller_id``."""
    want = text.lower().removeprefix("0x").replace("…", "")
    h = f"{controller_id:016x}"
    return len(want) >= 4 and all(c in "0123456789abcdef" for c in want) and (
        h == want.zfill(16) or h.startswith(want) or h.endswith(want))


def find_by_id(text: str, config: ControllersConfig | None = None, timeout: float = 1.0,
               urls: Iterable[str] = ()) -> list[ProbeResult]:
    """The candidates (and ``urls``) whose controller answers with an id ``text`` names, probed
    in parallel (a port a game holds does not answer)."""
    from concurrent.futures import ThreadPoolExecutor
    cands = [c for c in find_candidates(config) if c.kind != "sim"]
    known = {c.url for c in cands}
    cands += [Candidate(u, "url" if "://" in u else "serial", source="config") for u in urls if u not in known]
    if not cands:
        return []
    with ThreadPoolExecutor(max_workers=min(8, len(cands))) as pool:
        results = list(pool.map(lambda c: probe(c, timeout=timeout), cands))
    return [r for r in results if r.info is not None and id_matches(r.info.controller_id, text)]


def resolve_port(target: str, timeout: float = 1.0, urls: Iterable[str] = ()) -> str:
    """The port to open for ``target``: itself when it names a port (a path or URL), else the
    port of the one controller whose id it names (:func:`find_by_id`). LookupError with one
    line when no controller, or more than one, has that id."""
    if not looks_like_id(target) or os.path.exists(target):
        return target
    found = find_by_id(target, timeout=timeout, urls=urls)
    if not found:
        raise LookupError(f"no controller answered with that id ({target}) within {timeout:g} s "
                          f"(`bitbox ports` lists what is connected)")
    if len(found) > 1:
        raise LookupError(f"{len(found)} controllers have an id that {target} names: "
                          + ", ".join(f"{r.info.controller_id:016x}" for r in found if r.info is not None)
                          + "; give more digits")
    return found[0].candidate.url
