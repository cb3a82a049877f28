"""Simulated controllers: the reference firmware on a virtual board, in this process.

A :class:`VirtualController` is the real controller program
(``firmware_protocol.firmware.controller.Controller``) on a
``firmware_protocol.firmware.virtual_hal.VirtualHAL`` whose serial line is whatever the
caller plugs in, with faults (:mod:`bitbox.faults`) between the firmware and the line. The
emulator (``bitbox emulate``) plugs in a pseudo-terminal; :class:`SimController` plugs in an
in-memory cable to a :class:`~bitbox.hub.Hub`, so a simulated controller goes through exactly
the codec, handshake and heartbeat paths a real one does.

A :class:`SimRunner` thread steps a group of controllers every few milliseconds (the firmware
wants a step every 1-5 ms) and at once when the host sends something.

Scripts: :func:`load_script` reads a list of timed wheel settings, lock changes and faults
(see ``docs/devices.md``) and :meth:`VirtualController.play` runs one.
"""
from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_protocol.firmware import wire
from firmware_protocol.firmware.controller import RUNNING, Controller
from firmware_protocol.firmware.virtual_hal import VirtualHAL, monotonic_ms

from .config import ConfigError, load_yaml
from .faults import FaultInjector, FaultSpec
from .transports import Unplugged
from .transports.memory import BytePipe, PipeTransport

__all__ = ["VirtualController", "SimController", "SimRunner", "ScriptStep", "load_script",
           "parse_script", "sim_controller_id", "DEFAULT_POSITIONS"]

#: Geometry of simulated controllers: 16-position hex switches, like the reference board.
DEFAULT_POSITIONS = (16, 16, 16)
#: Simulated boards have everything, a ring of stop lights around each wheel included (1.1).
_ALL_CAPS = wire.CAP_PATH_LIGHTS | wire.CAP_COLOUR_LED | wire.CAP_LOCK_SWITCH | wire.CAP_STOP_LIGHTS


def _sleep(seconds: float) -> bool:
    """``time.sleep``, then False (not stopped), as a stop Event's ``wait`` answers."""
    time.sleep(seconds)
    return False


def sim_controller_id(index: int, base: int = 0x5EED_0000_0000_0000) -> int:
    """A recognisable 64-bit id for simulated controller ``index`` (0x5EED00000000000N)."""
    return base + index + 1


#: Host -> controller types added by a minor version: a controller of an older minor does not
#: know them (it ignores them as unknown, SPEC.md 10.2).
_SINCE_MINOR = {wire.T_HINT: 1, wire.T_CHOICE_REFUSED: 1, wire.T_SHOW: 2}


class _VersionedController(Controller):
    """The reference firmware, announcing another protocol version (to test refusals and
    older minors: a type newer than its minor is ignored as unknown, as such a firmware would)."""

    def __init__(self, *args: Any, protocol: tuple[int, int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._protocol = protocol

    def _send_hello(self, now: int) -> None:  # the only change: major/minor of the Hello
        self._send(wire.hello_body(self.controller_id, self.firmware_version, self.geometry,
                                   self.capabilities, self._protocol[0], self._protocol[1]))
        self._last_hello = now

    def _obey(self, body: Any, now: int) -> None:
        if self._protocol[0] == wire.PROTOCOL_MAJOR and body and \
                _SINCE_MINOR.get(body[0], 0) > self._protocol[1]:
            self.unknown_messages += 1
            return
        super()._obey(body, now)


class VirtualController:
    """The reference firmware on a virtual board; the line is ``write(bytes)`` / ``read()``.

    Thread-safe: every method takes the controller's lock.

    - ``set(left, centre, right, locked)`` turns wheels / the lock switch (None = unchanged).
      With ``settle=True`` the controller's clock skips the debounce time, so the change is
      reported at once (simulations and tests); with ``settle=False`` it is reported after
      ``DEBOUNCE_MS`` of real time, like a real controller (the emulator).
    - ``reset()`` reboots the firmware (the wheels stay where they are: they are physical).
    - ``faults`` is the :class:`~bitbox.faults.FaultInjector` between firmware and line.
    """

    def __init__(self, controller_id: int, *, write: Callable[[bytes], Any] | None = None,
                 read: Callable[[], bytes] | None = None,
                 positions: tuple[int, int, int] = DEFAULT_POSITIONS, capabilities: int = _ALL_CAPS,
                 firmware_version: tuple[int, int, int] = (1, 0, 0),
                 protocol: tuple[int, int] | None = None, faults: FaultSpec | None = None,
                 seed: int | None = None, settle: bool = True,
                 on_frame: Callable[[bytes], None] | None = None) -> None:
        self.controller_id = controller_id
        self.positions = (positions[0], positions[1], positions[2])
        self.capabilities = capabilities
        self.firmware_version = tuple(firmware_version)
        self.protocol = protocol
        self.settle = settle
        self.lock = threading.RLock()
        self.faults = FaultInjector(faults, seed=seed if seed is not None else controller_id & 0xFFFFFFFF)
        self._line_write = write
        self._line_read = read
        self._on_frame = on_frame
        self._offset_ms = 0
        self._last_step = time.monotonic()
        self._babble_credit = 0.0
        #: Bytes per second of babble when ``faults.spec.babble`` is set (in-memory lines).
        self.babble_rate = 1_000_000.0
        self.hal = VirtualHAL(positions=self.positions, capabilities=capabilities,
                              read=self._read, write=self._write, clock=self._clock,
                              sleep=lambda ms: time.sleep(ms / 1000))
        self._wheels = [0, 0, 0]
        self._locked = False
        #: While True the firmware is not stepped: a hung controller (no heartbeats, no answers).
        self.paused = False
        self.firmware = self._boot()

    # -- plumbing -------------------------------------------------------------------------------
    def _clock(self) -> int:
        return monotonic_ms() + self._offset_ms

    def _boot(self) -> Controller:
        if self.protocol is not None:
            return _VersionedController(self.hal, self.controller_id, self.firmware_version,
                                        protocol=self.protocol)
        return Controller(self.hal, self.controller_id, self.firmware_version)

    def _read(self) -> bytes:
        return self._line_read() if self._line_read is not None else b""

    def _write(self, data: bytes) -> None:
        out = self.faults.outgoing(data)
        if out and self._line_write is not None:
            self._line_write(out)
        if self._on_frame is not None:          # after the write: "on the line at" for timings
            self._on_frame(data)

    def connect(self, write: Callable[[bytes], Any] | None, read: Callable[[], bytes] | None) -> None:
        """Plug the line in (or out, with None)."""
        with self.lock:
            self._line_write, self._line_read = write, read

    # -- running --------------------------------------------------------------------------------
    def step(self) -> None:
        """One firmware step, plus any garbage due. Line errors are the line's business."""
        with self.lock:
            now = time.monotonic()
            elapsed, self._last_step = now - self._last_step, now
            if self.paused:
                return
            try:
                junk = self.faults.garbage(elapsed)
                if self.faults.spec.babble:
                    self._babble_credit = min(self._babble_credit + self.babble_rate * elapsed, 1 << 16)
                    n = int(self._babble_credit)
                    self._babble_credit -= n
                    if n:
                        junk += self.faults.random_bytes(n) + b"\x00"
                if junk and self._line_write is not None:
                    self._line_write(junk)
                self.firmware.step()
            except (Unplugged, OSError):
                pass

    def set(self, left: int | None = None, centre: int | None = None, right: int | None = None,
            locked: bool | None = None, *, settle: bool | None = None) -> None:
        """Turn wheels and/or the lock switch (None leaves one as it is)."""
        with self.lock:
            for i, value in enumerate((left, centre, right)):
                if value is not None:
                    if not 0 <= value < self.positions[i] and value != -1:
                        raise ValueError(f"{('left', 'centre', 'right')[i]} wheel position {value} "
                                         f"is outside 0..{self.positions[i] - 1}")
                    self._wheels[i] = value
            if locked is not None:
                self._locked = bool(locked)
            self.hal.set_wheels(*self._wheels)
            self.hal.set_lock(self._locked)
            if self.settle if settle is None else settle:
                self.step()                                   # the firmware sees the new reading
                self._offset_ms += wire.DEBOUNCE_MS           # ... held for the debounce time
                self.step()                                   # ... and reports it

    def reset(self) -> None:
        """Reboot the firmware: it says Hello again and waits for a Welcome."""
        with self.lock:
            self.firmware = self._boot()

    # -- what a person would see ---------------------------------------------------------------
    @property
    def wheels(self) -> tuple[int, int, int]:
        return tuple(self._wheels)  # type: ignore[return-value]

    @property
    def locked(self) -> bool:
        return self._locked

    @property
    def lights(self) -> tuple[bool, bool, bool, tuple[int, int, int] | None]:
        """(left, centre, right path lights, colour LED or None when dark), as shown now."""
        left, centre, right = self.hal.path_lights
        colour = tuple(self.hal.colour)
        return left, centre, right, (colour if any(colour) else None)  # type: ignore[return-value]

    @property
    def stop_lights(self) -> tuple[int, int, int]:
        """The lit stops around each wheel (bit p = position p), as shown now: the host's
        private Hint (protocol 1.1), on boards with a ring of stop lights."""
        return tuple(self.hal.stop_lights)  # type: ignore[return-value]

    @property
    def hint(self) -> tuple[int, int, int]:
        """The valid stops of each wheel from the host's last Hint (0 = none)."""
        return tuple(self.firmware.hint)

    @property
    def shown(self) -> tuple[int, int, int]:
        """The stops of the host's last Show (protocol 1.2): a code shown, not a choice."""
        return tuple(self.firmware.shown)

    @property
    def refusing(self) -> bool:
        """True while the controller shows a refused choice (ChoiceRefused, protocol 1.1)."""
        return self.firmware.refusing

    @property
    def refusals(self) -> int:
        """How many ChoiceRefused (protocol 1.1) the controller has obeyed (shown)."""
        return int(self.firmware.refusals)

    @property
    def identifying(self) -> bool:
        """True while the controller blinks for an Identify command."""
        fw = self.firmware
        return bool(fw._identify_ms) and self.hal.ticks_diff(self.hal.ticks_ms(), fw._identify_start) < fw._identify_ms

    @property
    def running(self) -> bool:
        """Welcomed by a host and sending State."""
        return self.firmware.mode == RUNNING

    @property
    def seat(self) -> int | None:
        """The seat the host assigned (0-based), or None."""
        return self.firmware.seat - 1 if self.firmware.seat else None

    # -- scripts --------------------------------------------------------------------------------
    def apply(self, step: ScriptStep) -> None:
        """Do one script step now (wheels, lock, fault)."""
        if step.wheels or step.locked is not None:
            w = step.wheels or {}
            self.set(w.get("left"), w.get("centre"), w.get("right"), step.locked)
        if step.fault == "garbage":
            with self.lock:
                self.faults.inject_garbage(int(step.amount or 64))
        elif step.fault == "drop":
            with self.lock:
                self.faults.drop_next(int(step.amount or 1))
        elif step.fault == "reset":
            self.reset()

    def play(self, script: Sequence[ScriptStep], *, start: float | None = None,
             stop: threading.Event | None = None, index: int | None = None,
             on_step: Callable[[ScriptStep], None] | None = None) -> None:
        """Run ``script`` in real time (steps for other controllers are skipped when ``index``
        is given). Blocks; returns at the end or when ``stop`` is set. Disconnects are not a
        controller's to do: ``on_step`` receives every step (the emulator handles those)."""
        start = time.monotonic() if start is None else start
        for step in script:
            if index is not None and step.controller is not None and step.controller != index:
                continue
            delay = start + step.at - time.monotonic()
            if delay > 0 and (stop.wait(delay) if stop else _sleep(delay)):
                return
            if stop is not None and stop.is_set():
                return
            if on_step is not None:
                on_step(step)
            if step.fault not in ("disconnect",):
                self.apply(step)


class SimController(VirtualController):
    """A simulated controller plugged into a hub through an in-memory cable (``sim://N``).

    ``unplug()`` pulls the cable (the hub sees the device vanish, the controller loses
    power); ``replug()`` plugs it back in: the firmware boots again and the hub gives it its
    seat back.
    """

    def __init__(self, controller_id: int, *, port: str, attach: Callable[[SimController], None] | None = None,
                 wake: Callable[[], None] | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("settle", True)
        super().__init__(controller_id, **kwargs)
        self.port = port
        self._attach = attach
        self._wake = wake
        self.transport: PipeTransport | None = None
        self._rx: BytePipe | None = None
        self.plug()

    def plug(self) -> PipeTransport:
        """A new cable; returns the host's end (the hub's ``attach`` callback takes it)."""
        with self.lock:
            to_host, to_controller = BytePipe(), BytePipe()
            if self._wake is not None:
                to_controller.on_write = self._wake
            self.transport = PipeTransport(self.port, to_host, to_controller)
            self._rx = to_controller
            self.connect(lambda data: to_host.write(data, block=False), lambda: to_controller.read(0))
            self.firmware = self._boot()                        # powered by the cable
            return self.transport

    @property
    def plugged(self) -> bool:
        return self.transport is not None

    def unplug(self) -> None:
        with self.lock:
            if self.transport is not None:
                self.transport.close()
                self.transport = None
                self.connect(None, None)

    def replug(self) -> None:
        with self.lock:
            if self.transport is not None:
                return
            self.plug()
        if self._attach is not None:
            self._attach(self)

    def babble(self, on: bool = True) -> None:
        """Flood the line with garbage (at :attr:`babble_rate` bytes per second) or stop."""
        with self.lock:
            from dataclasses import replace
            self.faults.set_spec(replace(self.faults.spec, babble=on))

    def __repr__(self) -> str:
        return f"<SimController {self.port} id={self.controller_id:#018x}>"


class SimRunner:
    """Steps a group of virtual controllers every ``tick_ms`` (and at once on ``wake()``)."""

    def __init__(self, controllers: Iterable[VirtualController] = (), tick_ms: float = 5.0,
                 name: str = "bitbox-sim") -> None:
        self.controllers: list[VirtualController] = list(controllers)
        self.tick = tick_ms / 1000.0
        self._event = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._name = name

    def add(self, controller: VirtualController) -> None:
        self.controllers = self.controllers + [controller]
        self.wake()

    def wake(self) -> None:
        self._event.set()

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._event.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2.0)
        self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            self._event.clear()
            for controller in self.controllers:
                controller.step()
            self._event.wait(self.tick)


# --- scripts ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScriptStep:
    """One line of a script: at ``at`` seconds, for ``controller`` (None = every one)."""

    at: float
    controller: int | None = None
    wheels: dict[str, int] = field(default_factory=dict)
    locked: bool | None = None
    fault: str | None = None           # garbage, drop, disconnect, reset
    amount: float | None = None        # garbage: bytes; drop: frames; disconnect: seconds


_WHEELS = ("left", "centre", "right")
_FAULTS = ("garbage", "drop", "disconnect", "reset")
#: Bounds of a script's numbers: nothing a test needs is near them, and a wrong file must not
#: exhaust memory or overflow a timer.
_MAX_AMOUNT = {"bytes": 1_000_000, "frames": 1_000_000, "seconds": 3600.0}
_MAX_AT = 1e7
_MAX_STEPS = 100_000


def parse_script(data: Any, source: str = "script") -> list[ScriptStep]:
    """Validate a script (see ``docs/devices.md``): a list of steps, or ``{steps: [...]}``,
    each ``{at: seconds, controller: N, left/centre/right: position, locked: bool}`` or with
    ``fault: garbage|drop|disconnect|reset`` (and ``bytes``/``frames``/``seconds``);
    ``repeat: N`` at the top repeats the steps N times, ``every`` seconds apart."""
    repeat, every = 1, None
    if isinstance(data, dict):
        extra = sorted(set(data) - {"steps", "repeat", "every"})
        if extra:
            raise ConfigError(f"{source}: unknown field {extra[0]!r} (known: every, repeat, steps)")
        repeat = data.get("repeat", 1)
        every = data.get("every")
        data = data.get("steps")
        if not isinstance(repeat, int) or isinstance(repeat, bool) or repeat < 1:
            raise ConfigError(f"{source}: field repeat: expected a whole number >= 1, got {repeat!r}")
    if not isinstance(data, list):
        raise ConfigError(f"{source}: expected a list of steps ({{at: 0.5, controller: 0, right: 2}})")
    steps: list[ScriptStep] = []
    for i, entry in enumerate(data):
        where = f"{source}: step {i + 1}"
        if not isinstance(entry, dict):
            raise ConfigError(f"{where}: expected a mapping such as {{at: 0.5, controller: 0, right: 2}}, got {entry!r}")
        known = {"at", "controller", "locked", "fault", "bytes", "frames", "seconds", *_WHEELS}
        extra = sorted(map(str, set(entry) - known))
        if extra:
            raise ConfigError(f"{where}: unknown field {extra[0]!r} (known: {', '.join(sorted(known))})")
        at = entry.get("at")
        if isinstance(at, bool) or not isinstance(at, (int, float)) or math.isnan(at) or not 0 <= at <= _MAX_AT:
            raise ConfigError(f"{where}, field at: expected seconds 0..{_MAX_AT:g}, got {at!r}")
        ctrl = entry.get("controller")
        if ctrl is not None and (isinstance(ctrl, bool) or not isinstance(ctrl, int) or ctrl < 0):
            raise ConfigError(f"{where}, field controller: expected a controller index (0, 1, ...), got {ctrl!r}")
        wheels = {}
        for w in _WHEELS:
            if w in entry:
                v = entry[w]
                if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 15:
                    raise ConfigError(f"{where}, field {w}: expected a position 0..15, got {v!r}")
                wheels[w] = v
        locked = entry.get("locked")
        if locked is not None and not isinstance(locked, bool):
            raise ConfigError(f"{where}, field locked: expected true or false, got {locked!r}")
        fault = entry.get("fault")
        amount = None
        if fault is not None:
            if fault not in _FAULTS:
                raise ConfigError(f"{where}, field fault: expected one of {', '.join(_FAULTS)}, got {fault!r}")
            key = {"garbage": "bytes", "drop": "frames", "disconnect": "seconds"}.get(fault)
            if key and key in entry:
                amount = entry[key]
                if (isinstance(amount, bool) or not isinstance(amount, (int, float)) or math.isnan(amount)
                        or not 0 <= amount <= _MAX_AMOUNT[key]):
                    raise ConfigError(f"{where}, field {key}: expected a number 0..{_MAX_AMOUNT[key]:g}, got {amount!r}")
        for key in ("bytes", "frames", "seconds"):
            if key in entry and (fault is None or {"garbage": "bytes", "drop": "frames",
                                                   "disconnect": "seconds"}.get(fault) != key):
                raise ConfigError(f"{where}, field {key}: only meaningful with "
                                  f"fault: {dict(bytes='garbage', frames='drop', seconds='disconnect')[key]}")
        if not wheels and locked is None and fault is None:
            raise ConfigError(f"{where}: does nothing (give left/centre/right, locked or fault)")
        steps.append(ScriptStep(float(at), ctrl, wheels, locked, fault, amount))
    steps.sort(key=lambda s: s.at)
    if repeat * max(1, len(steps)) > _MAX_STEPS:
        raise ConfigError(f"{source}: field repeat: {repeat} x {len(steps)} steps is more than {_MAX_STEPS:,}")
    if repeat > 1:
        span = every if every is not None else (steps[-1].at + 1.0 if steps else 1.0)
        if isinstance(span, bool) or not isinstance(span, (int, float)) or math.isnan(span) or not 0 < span <= _MAX_AT:
            raise ConfigError(f"{source}: field every: expected seconds > 0, got {every!r}")
        steps = [ScriptStep(s.at + k * span, s.controller, s.wheels, s.locked, s.fault, s.amount)
                 for k in range(repeat) for s in steps]
    return steps


def load_script(path: str | Path) -> list[ScriptStep]:
    """A script file (YAML or JSON, which is YAML too)."""
    return parse_script(load_yaml(path), str(path))

