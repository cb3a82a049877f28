"""Transports: how bytes get to and from one controller.

Three kinds, interchangeable behind :class:`Transport` (the mido ports idea):

- :class:`~bitbox.transports.serial.SerialTransport`: USB CDC serial or anything pyserial
  opens by URL (``/dev/ttyACM0``, ``loop://``, ``socket://host:port``, ``spy://...``);
- :class:`~bitbox.transports.hid.HidTransport`: USB HID reports through hidapi;
- :class:`~bitbox.transports.memory.PipeTransport`: in-memory byte pipes, for simulated
  controllers (``sim://``).

A transport moves bytes only; framing is the protocol's (:mod:`firmware_protocol`): a byte
stream of COBS frames for serial and sim, one 64-byte report per message for HID. Each
transport says which with :meth:`Transport.decoder` and :meth:`Transport.frame`, so the hub
has one read path for all of them (as pyserial's ``threaded`` keeps the reader thread apart
from the Packetizer).

Errors: a device that went away raises :class:`Unplugged` from ``read`` or ``write``; a
device that cannot be opened raises :class:`OpenError` with a message meant for a person.
"""
from __future__ import annotations

from typing import Any, ClassVar, Protocol

import firmware_protocol as fp

__all__ = ["Transport", "TransportError", "OpenError", "Unplugged", "MessageDecoder", "open_url",
           "READ_TIMEOUT"]

#: How long a read waits for data before returning b"" (so reader threads see ``close``).
#: 0.1 s is also the serial line's VTIME granularity.
READ_TIMEOUT = 0.1


class TransportError(Exception):
    """Any failure of a transport."""


class OpenError(TransportError):
    """The device could not be opened; the message says why and what to do."""


class Unplugged(TransportError):
    """The device went away (unplugged, powered off, closed at the other end)."""


class MessageDecoder(Protocol):
    """What :meth:`Transport.decoder` returns: ``firmware_protocol.Decoder``'s interface."""

    @property
    def bad_frames(self) -> int: ...
    @property
    def unknown_messages(self) -> int: ...

    def feed(self, data: bytes) -> list[Any]: ...


class Transport:
    """Base class. Subclasses set ``kind`` and implement ``read``, ``write`` and ``close``."""

    kind: ClassVar[str] = "?"

    def __init__(self, port: str) -> None:
        #: A name for people and events: a device path, a URL, ``hid://...`` or ``sim://N``.
        self.port = port

    def read(self) -> bytes:
        """Bytes received, waiting at most :data:`READ_TIMEOUT`; ``b""`` if none came.
        Raises :class:`Unplugged` when the device is gone."""
        raise NotImplementedError

    def write(self, data: bytes) -> None:
        """Send ``data`` (one or more whole frames or one report). Raises :class:`Unplugged`."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the device. Safe to call twice; wakes a thread blocked in ``read``."""

    # framing (serial-like by default)
    def decoder(self) -> MessageDecoder:
        """A fresh decoder for what ``read`` returns."""
        return fp.Decoder()

    def frame(self, message: Any) -> bytes:
        """The bytes that carry ``message`` on this transport."""
        return fp.encode(message)

    @property
    def fileno(self) -> int | None:
        """A file descriptor that is readable when ``read`` has data, if there is one."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.port}>"


def open_url(url: str) -> Transport:
    """Open a transport by URL: ``hid://<hidraw path>``, a device path or any pyserial URL
    (``loop://``, ``socket://host:port``, ``spy://...``, ``rfc2217://...``).

    ``sim://`` is not a device; the hub makes those (:meth:`bitbox.hub.Hub.add_url`).
    """
    if url.startswith("hid://"):
        from .hid import HidTransport
        return HidTransport.open(url[len("hid://"):])
    if url.startswith("sim://"):
        raise OpenError(f"{url}: simulated controllers are created by the hub (Hub.add_url or Hub.add_sim)")
    from .serial import SerialTransport
    return SerialTransport.open(url)
