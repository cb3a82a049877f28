"""A virtual board for CPython: the real firmware logic with no hardware (emulator, tests).

    hal = VirtualHAL()                      # fake clock, in-memory serial queues
    controller = Controller(hal, controller_id=42)
    controller.step()
    hal.take_from_controller()              # bytes the controller wrote
    hal.send_to_controller(frame)           # bytes the host writes
    hal.set_wheels(3, 0, 7); hal.clock.advance(60); controller.step()

The serial link is pluggable: `VirtualHAL(read=..., write=...)` with a `read()` returning the
bytes available now (b"" if none, never blocking) and a `write(data)`; e.g. over a
pseudo-terminal, `read=lambda: os.read(fd, 4096)` on a non-blocking fd and
`write=lambda data: os.write(fd, data)`. The clock is injectable: any callable returning
milliseconds (`FakeClock`, the default, moves only when told; `monotonic_ms` is real time).

This module is CPython only (it is not copied to a board).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from . import wire
from .hal import HAL


def monotonic_ms() -> int:
    """Real time in milliseconds, for a VirtualHAL driven by the wall clock."""
    return int(time.monotonic() * 1000)


class FakeClock:
    """A millisecond clock that moves only when told: `advance(ms)`, or `sleep(ms)`."""

    def __init__(self, start: int = 0) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms

    sleep = advance


class VirtualHAL(HAL):
    """Wheels and lock settable from code, LED outputs recorded, serial or HID as queues or
    callables, an injectable clock.

    Parameters:
      positions, capabilities  the board's geometry and Capability bits
      transport                "serial" or "hid"
      read, write              serial: read() -> bytes available now, write(bytes);
                               hid: read() -> one 64-byte report or None, write(report).
                               Default: in-memory queues (send_to_controller/take_from_controller)
      clock                    callable returning ms (default: a new FakeClock)
      sleep                    callable(ms) for sleep_ms (default: FakeClock.sleep for a
                               FakeClock, time.sleep otherwise)
      ticks_period             emulate MicroPython's wrapping ticks_ms() (e.g. 2**30); None: no
                               wrap
    """

    def __init__(
        self,
        *,
        positions: tuple[int, int, int] = (16, 16, 16),
        capabilities: int = wire.CAP_PATH_LIGHTS | wire.CAP_COLOUR_LED | wire.CAP_LOCK_SWITCH,
        transport: str = "serial",
        read: Callable[[], bytes | None] | None = None,
        write: Callable[[bytes], object] | None = None,
        clock: Callable[[], int] | None = None,
        sleep: Callable[[int], object] | None = None,
        ticks_period: int | None = None,
    ) -> None:
        if transport not in ("serial", "hid"):
            raise ValueError(f"transport must be 'serial' or 'hid', not {transport!r}")
        self.transport = transport
        self.positions = (positions[0], positions[1], positions[2])
        self.capabilities = capabilities
        self.wheels = [0, 0, 0]
        self.locked = False
        self.path_lights = (False, False, False)
        self.colour = (0, 0, 0)
        #: The lit stops of each wheel's ring (bit p = position p), boards with CAP_STOP_LIGHTS.
        self.stop_lights = (0, 0, 0)
        #: Every change of an output: (ms, "path", (l, c, r)), (ms, "colour", (r, g, b)) or
        #: (ms, "stops", (left, centre, right)).
        self.led_log: list[tuple[int, str, tuple]] = []
        self.clock = clock if clock is not None else FakeClock()
        if sleep is None:
            sleep = self.clock.sleep if isinstance(self.clock, FakeClock) else (
                lambda ms: time.sleep(ms / 1000))
        self._sleep = sleep
        self.ticks_period = ticks_period
        self._to_controller: deque[bytes] = deque()
        self._from_controller: deque[bytes] = deque()
        self._read = read
        self._write = write

    # --- what the code around the controller does -------------------------------------------------

    def set_wheels(self, left: int, centre: int, right: int) -> None:
        """Turn the three wheels (raw positions; -1 for no valid position)."""
        self.wheels = [left, centre, right]

    def set_lock(self, locked: bool) -> None:
        """Close (True) or open (False) the lock switch."""
        self.locked = locked

    def send_to_controller(self, data: bytes) -> None:
        """Queue bytes (serial) or one report (HID) for the controller to read."""
        self._to_controller.append(bytes(data))

    def take_from_controller(self) -> bytes | list[bytes]:
        """Everything the controller wrote since the last call: bytes (serial) or a list of
        reports (HID)."""
        items = list(self._from_controller)
        self._from_controller.clear()
        return items if self.transport == "hid" else b"".join(items)

    # --- the HAL ----------------------------------------------------------------------------------

    def read_wheels(self) -> tuple[int, int, int]:
        return tuple(self.wheels)  # type: ignore[return-value]

    def read_lock(self) -> bool:
        return self.locked

    def set_path_lights(self, left: bool, centre: bool, right: bool) -> None:
        self.path_lights = (bool(left), bool(centre), bool(right))
        self.led_log.append((self.clock(), "path", self.path_lights))

    def set_colour(self, red: int, green: int, blue: int) -> None:
        self.colour = (red, green, blue)
        self.led_log.append((self.clock(), "colour", self.colour))

    def set_stop_lights(self, left: int, centre: int, right: int) -> None:
        self.stop_lights = (int(left), int(centre), int(right))
        self.led_log.append((self.clock(), "stops", self.stop_lights))

    def serial_read(self) -> bytes:
        if self._read is not None:
            return self._read() or b""
        data = b"".join(self._to_controller)
        self._to_controller.clear()
        return data

    def serial_write(self, data: bytes) -> None:
        if self._write is not None:
            self._write(bytes(data))
        else:
            self._from_controller.append(bytes(data))

    def hid_read(self) -> bytes | None:
        if self._read is not None:
            return self._read() or None
        return self._to_controller.popleft() if self._to_controller else None

    def hid_write(self, report: bytes) -> None:
        self.serial_write(report)

    def ticks_ms(self) -> int:
        now = self.clock()
        return now % self.ticks_period if self.ticks_period else now

    def ticks_diff(self, later: int, earlier: int) -> int:
        if not self.ticks_period:
            return later - earlier
        half = self.ticks_period // 2
        return (later - earlier + half) % self.ticks_period - half

    def sleep_ms(self, ms: int) -> None:
        self._sleep(ms)
