"""In-memory byte pipes: the "cable" of a simulated controller.

A :class:`BytePipe` is one direction of a serial line without a kernel: writes append, a read
takes everything buffered (waiting up to a timeout). It holds at most ``capacity`` bytes; a
writer that finds it full waits, like a writer on a full pseudo-terminal, and after
``write_timeout`` the excess is dropped, like a UART overrun. Closing either end makes reads
(once drained) and writes raise :class:`~bitbox.transports.Unplugged`: the cable was pulled.

:class:`PipeTransport` is the host's end of a pair of pipes; the controller holds the other.
"""
from __future__ import annotations

import threading
from collections.abc import Callable

from . import READ_TIMEOUT, Transport, Unplugged

__all__ = ["BytePipe", "PipeTransport"]


class BytePipe:
    def __init__(self, capacity: int = 1 << 16, write_timeout: float = 0.05) -> None:
        self.capacity = capacity
        self.write_timeout = write_timeout
        self._buf = bytearray()
        self._cond = threading.Condition(threading.Lock())
        self.closed = False
        #: Bytes thrown away because the pipe was full.
        self.overruns = 0
        #: Called (without the pipe's lock) after every write that kept something.
        self.on_write: Callable[[], object] | None = None

    def write(self, data: bytes, block: bool = True) -> int:
        """Append ``data``; returns how many bytes were kept. When full, waits up to
        ``write_timeout`` for room if ``block``, then drops the excess. Raises Unplugged once
        closed."""
        with self._cond:
            if self.closed:
                raise Unplugged("pipe closed")
            room = self.capacity - len(self._buf)
            if room < len(data) and block:
                self._cond.wait_for(lambda: self.closed or self.capacity - len(self._buf) >= len(data),
                                    self.write_timeout)
                if self.closed:
                    raise Unplugged("pipe closed")
                room = self.capacity - len(self._buf)
            kept = data if room >= len(data) else data[:max(room, 0)]
            self.overruns += len(data) - len(kept)
            if kept:
                self._buf += kept
                self._cond.notify_all()
        if kept and self.on_write is not None:
            self.on_write()
        return len(kept)

    def read(self, timeout: float | None = READ_TIMEOUT) -> bytes:
        """Everything buffered, waiting up to ``timeout`` for something; b"" if nothing came.
        Raises Unplugged when the pipe is closed and empty."""
        with self._cond:
            if not self._buf and not self.closed and timeout != 0:
                self._cond.wait(timeout)
            if self._buf:
                data = bytes(self._buf)
                self._buf.clear()
                self._cond.notify_all()
                return data
            if self.closed:
                raise Unplugged("pipe closed")
            return b""

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def __len__(self) -> int:
        return len(self._buf)


class PipeTransport(Transport):
    """The host's end of a simulated cable: reads ``rx`` (controller -> host), writes ``tx``."""

    kind = "sim"

    def __init__(self, port: str, rx: BytePipe, tx: BytePipe) -> None:
        super().__init__(port)
        self.rx = rx
        self.tx = tx

    def read(self) -> bytes:
        return self.rx.read(READ_TIMEOUT)

    def write(self, data: bytes) -> None:
        self.tx.write(data)

    def close(self) -> None:
        self.rx.close()
        self.tx.close()

