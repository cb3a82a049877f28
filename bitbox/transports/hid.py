"""HID transport over hidapi (the ``hid`` module of the ``hidapi`` package).

A thin wrapper in the spirit of liquidctl's ``driver/usb.py``; the OS quirks it hides:

- **Report ids.** Our reports are numbered (id 1), so hidapi returns the id as the first byte
  of every input report and expects it as the first byte of every output report, on every
  OS. ``firmware_protocol.encode_hid_report`` / ``decode_hid_report`` include it.
- **Report size.** Windows refuses an output report shorter than the descriptor's size; the
  codec always pads to 64 bytes.
- **Permissions.** On Linux, ``/dev/hidraw*`` is root-only unless a udev rule says otherwise;
  hidapi then only says "open failed". :meth:`HidTransport.open` checks the node itself and
  says what to do (the rules of ``bitbox udev-rules``).
- **Closing while reading.** ``hid_close`` while another thread waits in ``hid_read_timeout``
  is undefined behaviour in hidapi; ``close`` waits for the read in progress (at most
  :data:`~bitbox.transports.READ_TIMEOUT`) before closing.
- **Errors.** ``read`` raises OSError once the device is gone; ``write`` returns -1 instead
  of raising. Both become :class:`~bitbox.transports.Unplugged`.

The ``hidapi`` argument of :meth:`HidTransport.open` and :func:`enumerate_devices` replaces the
``hid`` module (tests pass a fake with the same interface).
"""
from __future__ import annotations

import os
import sys
import threading
from types import ModuleType
from typing import Any

import firmware_protocol as fp
from firmware_protocol.constants import HID_REPORT_SIZE

from . import READ_TIMEOUT, OpenError, Transport, TransportError, Unplugged

__all__ = ["HidTransport", "enumerate_devices", "permission_message"]


def _hid() -> ModuleType:
    try:
        import hid
    except ImportError as exc:  # pragma: no cover - hidapi is a dependency
        raise OpenError(f"hidapi is not installed or its C library is missing ({exc}); pip install hidapi") from None
    return hid


def enumerate_devices(vid: int = 0, pid: int = 0, hidapi: Any = None) -> list[dict]:
    """hidapi's device list for ``vid``/``pid`` (0 = any): dicts with ``path`` (bytes),
    ``vendor_id``, ``product_id``, ``serial_number``, ``product_string``, ..."""
    hidapi = hidapi or _hid()
    return list(hidapi.enumerate(vid, pid))


def permission_message(path: str) -> str:
    from ..udev import INSTALL_HINT, udev_rules
    return (f"hid://{path}: permission denied: this user may not open the HID device. "
            f"On Linux, install the udev rules and plug the controller in again:\n"
            f"    {INSTALL_HINT}\n"
            f"The rules are:\n{udev_rules()}")


class _ReportDecoder:
    """``firmware_protocol.HidDecoder`` behind the stream decoder's ``feed`` interface."""

    __slots__ = ("_decoder",)

    def __init__(self) -> None:
        self._decoder = fp.HidDecoder()

    @property
    def bad_frames(self) -> int:
        return self._decoder.bad_frames

    @property
    def unknown_messages(self) -> int:
        return self._decoder.unknown_messages

    def feed(self, report: bytes) -> list:
        if not report:
            return []
        message = self._decoder.decode(report)
        return [] if message is None else [message]


class HidTransport(Transport):
    kind = "hid"

    def __init__(self, path: str, device: Any) -> None:
        super().__init__(f"hid://{path}")
        self.path = path
        self._dev = device
        self._read_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._closed = False
        self._timeout_ms = max(1, int(READ_TIMEOUT * 1000))

    @classmethod
    def open(cls, path: str | bytes, hidapi: Any = None) -> HidTransport:
        hidapi = hidapi or _hid()
        text = path.decode() if isinstance(path, bytes) else path
        device = hidapi.device()
        try:
            device.open_path(text.encode())
        except (OSError, IOError, ValueError) as exc:
            if text.startswith("/dev/") and os.path.exists(text) and not os.access(text, os.R_OK | os.W_OK):
                raise OpenError(permission_message(text)) from None
            if text.startswith("/dev/") and not os.path.exists(text):
                raise OpenError(f"hid://{text}: no such device (unplugged? check `bitbox ports`)") from None
            hint = (" If it is plugged in, this is usually a permission problem: see `bitbox udev-rules`."
                    if sys.platform.startswith("linux") else "")
            raise OpenError(f"hid://{text}: cannot open: {exc}.{hint}") from None
        return cls(text, device)

    def decoder(self) -> _ReportDecoder:
        return _ReportDecoder()

    def frame(self, message: Any) -> bytes:
        return fp.encode_hid_report(message)

    def read(self) -> bytes:
        with self._read_lock:
            if self._closed:
                raise Unplugged(f"{self.port}: closed")
            try:
                data = self._dev.read(HID_REPORT_SIZE, self._timeout_ms)
            except (OSError, IOError, ValueError) as exc:
                raise Unplugged(f"{self.port}: read failed: {exc} (unplugged?)") from None
        return bytes(data) if data else b""

    def write(self, data: bytes) -> None:
        with self._write_lock:
            if self._closed:
                raise Unplugged(f"{self.port}: closed")
            try:
                written = self._dev.write(bytes(data))
            except (OSError, IOError, ValueError) as exc:
                raise Unplugged(f"{self.port}: write failed: {exc} (unplugged?)") from None
        if written is not None and written < 0:
            detail = ""
            try:
                detail = self._dev.error() or ""
            except Exception:  # noqa: BLE001 - error() itself may fail on a dead handle
                pass
            raise Unplugged(f"{self.port}: write failed{': ' + detail if detail else ''} (unplugged?)")
        if written is not None and written < len(data):
            raise TransportError(f"{self.port}: short write ({written} of {len(data)} bytes)")

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with self._read_lock, self._write_lock:      # never close under a read in progress
            try:
                self._dev.close()
            except Exception:  # noqa: BLE001 - the device may already be gone
                pass
