"""Serial transport over pyserial: device paths and every pyserial URL.

``serial.serial_for_url`` opens plain paths (``/dev/ttyACM0``) and URLs alike, so ``loop://``,
``socket://host:port``, ``spy://...`` and ``rfc2217://...`` work with no special case.

Reading never blocks longer than :data:`~bitbox.transports.READ_TIMEOUT`. On a POSIX port a
read is one blocking ``os.read`` on a second descriptor of the device, with the line set to
VMIN=0 / VTIME=1: it returns as soon as bytes arrive, with all of them, or after 0.1 s with
none; one wake-up and one trip through the interpreter lock per burst (see
:func:`_blocking_reader` for why that matters). URL handlers (which have no descriptor, or,
like ``spy://``, want to see every read) go through pyserial's ``read``.

An unplugged USB serial device shows up on Linux either as ``EIO`` or as a port that is
always "ready" but reads nothing (pyserial: "device reports readiness to read but returned no
data"); both raise :class:`~bitbox.transports.Unplugged`, as does a closed pseudo-terminal.
"""
from __future__ import annotations

import errno
import os
import select
import termios
import threading
import time
from typing import Any

import serial
from serial.serialutil import SerialException, SerialTimeoutException

import firmware_protocol as fp

from . import READ_TIMEOUT, OpenError, Transport, TransportError, Unplugged

__all__ = ["SerialTransport", "BAUDRATE", "WRITE_TIMEOUT"]

#: CDC-ACM ignores the baud rate; a real UART bridge would use this one (SPEC.md).
BAUDRATE = 115200
#: A write that cannot complete in this long (the controller stopped reading) is abandoned.
WRITE_TIMEOUT = 0.05
_CHUNK = 4096
_GONE = {errno.EIO, errno.ENXIO, errno.ENODEV, errno.EBADF, errno.EPIPE, errno.ECONNRESET}

_PosixSerial: type[serial.Serial] | None
try:
    from serial.serialposix import Serial as _Posix
    _PosixSerial = _Posix
except ImportError:  # pragma: no cover - Windows
    _PosixSerial = None


def _write_fd(fd: int, data: bytes) -> None:
    """Write all of ``data`` to the non-blocking descriptor, waiting at most
    :data:`WRITE_TIMEOUT` for room while the line is full. A write that went through is never
    reported as timed out, however long the process was kept from running around it:
    pyserial's ``write`` raises its "Write timeout" when the write *took* longer than the
    timeout, even with every byte written (a loaded machine, a thread holding the interpreter
    lock), and the hub then skips the link for a second, dropping its seat, lights and hints."""
    view = memoryview(data)
    deadline = time.monotonic() + WRITE_TIMEOUT
    while view:
        try:
            n = os.write(fd, view)
        except (BlockingIOError, InterruptedError):
            n = 0
        if n:
            view = view[n:]
            continue
        left = deadline - time.monotonic()
        if left <= 0:
            raise SerialTimeoutException("Write timeout")
        select.select((), (fd,), (), left)


def _is_unplug(exc: BaseException) -> bool:
    if isinstance(exc, OSError) and exc.errno in _GONE:
        return True
    text = str(exc)
    return any(s in text for s in ("readiness to read but returned no data", "Errno 5]", "Errno 6]",
                                   "Errno 19]", "Errno 9]", "socket disconnected", "Bad file descriptor",
                                   "device reports error", "Input/output error", "closed"))


class SerialTransport(Transport):
    kind = "serial"

    def __init__(self, port: str, ser: serial.Serial) -> None:
        super().__init__(port)
        self._serial = ser
        self._write_lock = threading.Lock()
        self._state = threading.Lock()       # guards _closed / _reading / the read fd
        self._closed = False
        self._reading = False
        self._rfd: int | None = None
        self._opened = True                  # the first frame after opening starts with a 0x00
        # The fast path only for pyserial's own POSIX class (not subclasses such as spy://).
        if _PosixSerial is not None and type(ser) is _PosixSerial and getattr(ser, "fd", None) is not None:
            self._rfd = _blocking_reader(ser)

    @classmethod
    def open(cls, url: str, baudrate: int = BAUDRATE) -> SerialTransport:
        try:
            ser = serial.serial_for_url(url, baudrate=baudrate, timeout=READ_TIMEOUT,
                                        write_timeout=WRITE_TIMEOUT, exclusive=True)
        except ValueError as exc:                 # unknown URL scheme, bad parameters
            raise OpenError(f"{url}: {exc}") from None
        except (SerialException, OSError) as exc:
            raise OpenError(_open_message(url, exc)) from None
        return cls(url, ser)

    def frame(self, message: Any) -> bytes:
        """The frame of ``message``; the first one after opening the port starts with a 0x00
        (SPEC.md 4.3), which ends whatever partial frame the controller may hold (from a host
        that died mid-write), so the first HostHello is not lost."""
        data = fp.encode(message)
        if self._opened:
            self._opened = False
            return b"\x00" + data
        return data

    @property
    def fileno(self) -> int | None:
        return self._rfd

    def read(self) -> bytes:
        with self._state:
            if self._closed:
                raise Unplugged(f"{self.port}: closed")
            self._reading = True
        try:
            if self._rfd is not None:
                return self._read_fd(self._rfd)
            ser = self._serial
            data = ser.read(1)
            if data:
                waiting = ser.in_waiting
                if waiting:
                    data += ser.read(min(waiting, _CHUNK))
            return data
        except Unplugged:
            raise
        except (SerialException, OSError, ValueError, TypeError, AttributeError) as exc:
            # TypeError/AttributeError: pyserial handlers whose fd vanished under a close().
            if self._closed or _is_unplug(exc):
                raise Unplugged(f"{self.port}: {exc}") from None
            raise TransportError(f"{self.port}: read failed: {exc}") from None
        finally:
            with self._state:
                self._reading = False
                if self._closed and self._rfd is not None:     # close() left it to us
                    _close_fd(self._rfd)
                    self._rfd = None

    def _read_fd(self, fd: int) -> bytes:
        """One blocking read: returns as soon as anything arrives, with all of it, or after
        the line's VTIME (READ_TIMEOUT) with nothing. A hung-up line returns nothing at once."""
        t0 = time.monotonic()
        data = os.read(fd, _CHUNK)
        if data or self._closed:
            return data
        if time.monotonic() - t0 < READ_TIMEOUT / 2:
            ready, _, _ = select.select((fd,), (), (), 0)
            if ready and not os.read(fd, _CHUNK):
                raise Unplugged(f"{self.port}: device reports readiness to read but returned no data "
                                "(unplugged?)")
        return b""

    def write(self, data: bytes) -> None:
        if self._closed:
            raise Unplugged(f"{self.port}: closed")
        try:
            with self._write_lock:
                if self._closed:                 # (close() waits for a write under way)
                    raise Unplugged(f"{self.port}: closed")
                fd = self._serial.fd if self._rfd is not None else None
                if fd is not None:
                    _write_fd(fd, data)
                else:
                    self._serial.write(data)
        except SerialTimeoutException:
            raise TransportError(f"{self.port}: write timed out (the controller is not reading)") from None
        except (SerialException, OSError, ValueError, TypeError, AttributeError) as exc:
            if self._closed or _is_unplug(exc):
                raise Unplugged(f"{self.port}: {exc}") from None
            raise TransportError(f"{self.port}: write failed: {exc}") from None

    def close(self) -> None:
        with self._state:
            if self._closed:
                return
            self._closed = True
            if self._rfd is not None and not self._reading:
                _close_fd(self._rfd)
                self._rfd = None
            # else: the reader closes it when its read returns (at most READ_TIMEOUT), so the
            # descriptor number cannot be reused under a read in progress.
        try:
            self._serial.cancel_read()
        except Exception:  # noqa: BLE001 - best effort wake-up
            pass
        try:
            with self._write_lock:               # not under a write: its descriptor could be reused
                self._serial.close()
        except Exception:  # noqa: BLE001 - the device may already be gone
            pass


def _blocking_reader(ser: serial.Serial) -> int | None:
    """A second, blocking descriptor on the port for reading, with VMIN=0 / VTIME=READ_TIMEOUT.

    Why: a reader thread must take the interpreter lock back from the game's main thread each
    time a blocking call returns, and each such hand-over can wait up to the switch interval.
    pyserial's read costs two or three of them per burst (select, then os.read, on its
    non-blocking descriptor); one blocking os.read that waits *and* reads costs one. The
    descriptor is a new open of the same device (so pyserial's own stays non-blocking for its
    writes with a timeout); VMIN/VTIME are settings of the line, which pyserial leaves at 0/0 and
    only reads with select. Returns None (and the slower path is used) if anything fails.
    """
    try:
        if ser.portstr is None:
            return None
        path = os.path.realpath(ser.portstr)
        if os.path.basename(path) == "ptmx":       # a pty master ignores VTIME: it would block
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)   # never wait for carrier
    except (OSError, TypeError):
        return None
    if not os.isatty(fd):
        _close_fd(fd)
        return None
    try:
        attrs = termios.tcgetattr(fd)
        attrs[6][termios.VMIN] = 0
        attrs[6][termios.VTIME] = max(1, round(READ_TIMEOUT * 10))
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
        os.set_blocking(fd, True)
    except (OSError, termios.error):
        _close_fd(fd)
        return None
    return fd


def _close_fd(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


def _open_message(url: str, exc: BaseException) -> str:
    errno_ = getattr(exc, "errno", None)
    text = str(exc)
    if errno_ == errno.EACCES or "Permission denied" in text:
        return (f"{url}: permission denied. On Linux, add yourself to the group that owns the "
                f"port (usually 'dialout': sudo usermod -aG dialout $USER, then log in again), "
                f"or install the udev rules printed by `bitbox udev-rules`.")
    if errno_ == errno.EBUSY or "busy" in text.lower() or "exclusively lock" in text:
        return f"{url}: the port is in use by another program (close `bitbox monitor` or the other game)."
    if errno_ == errno.ENOENT or "No such file" in text or "could not open port" in text:
        return f"{url}: no such device (unplugged? check `bitbox ports`). [{text}]"
    return f"{url}: cannot open: {text}"
