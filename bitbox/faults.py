"""Faults to inject between a (simulated or emulated) controller and the host.

Used by the in-process simulated controllers (:mod:`bitbox.sim`) and by the pseudo-terminal
emulator (``bitbox emulate``), so a reliability test can break the line in the same ways on
both. Everything here acts on the controller -> host byte stream, frame by frame:

- **garbage**: random bytes between frames, at a rate (bytes per second) or as bursts on demand
  (each burst ends with a 0x00 delimiter, so it costs bad frames but not the next good frame);
- **babble**: garbage at full speed (as fast as the line takes it);
- **drop**: each frame lost with a probability, or the next N frames on demand;
- **ber**: bit errors: each bit flipped with a probability;
- **dup**: each frame sent twice with a probability (each copy gets its own bit errors);
- **disconnect** (for a while, then reconnect) and **reset** (the controller reboots): these
  are events, scheduled at a time since start or triggered on demand.

The fault SPEC (``bitbox emulate --faults SPEC``, :func:`parse_faults`) is a comma-separated
list of items, each optionally prefixed by the controller index it applies to (0-based;
default: every controller)::

    garbage=RATE          random bytes per second, e.g. garbage=200
    babble                garbage at full speed
    drop=P                drop each frame with probability P (0..1), e.g. drop=0.05
    ber=R                 flip each bit with probability R, e.g. ber=1e-4
    dup=P                 send each frame twice with probability P (0..1), e.g. dup=0.05
    disconnect@T[+D]      disconnect at T seconds for D seconds (default 1), e.g. disconnect@5+2
    reset@T               reset the controller at T seconds, e.g. reset@3

    e.g.  ber=1e-4,2:babble,3:disconnect@5+2,1:reset@3,0:drop=0.1
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

__all__ = ["FaultSpec", "TimedFault", "FaultInjector", "parse_faults", "FaultSpecError"]


class FaultSpecError(ValueError):
    """A fault SPEC that cannot be parsed; the message names the item."""


@dataclass(frozen=True)
class TimedFault:
    kind: str            # "disconnect" or "reset"
    at: float            # seconds since start
    duration: float = 0.0


@dataclass(frozen=True)
class FaultSpec:
    """The faults of one controller."""

    garbage_rate: float = 0.0
    babble: bool = False
    drop: float = 0.0
    ber: float = 0.0
    events: tuple[TimedFault, ...] = field(default=())
    dup: float = 0.0

    @property
    def any(self) -> bool:
        return bool(self.garbage_rate or self.babble or self.drop or self.ber or self.dup or self.events)


def _number(text: str, item: str, lo: float = 0.0, hi: float = math.inf) -> float:
    try:
        value = float(text)
    except ValueError:
        raise FaultSpecError(f"fault {item!r}: {text!r} is not a number") from None
    if not lo <= value <= hi or math.isnan(value):
        raise FaultSpecError(f"fault {item!r}: {value:g} is out of range {lo:g}..{hi:g}")
    return value


def _parse_item(text: str, spec: FaultSpec) -> FaultSpec:
    item = text
    if text == "babble":
        return replace(spec, babble=True)
    for name in ("garbage", "drop", "ber", "dup"):
        if text.startswith(name + "="):
            value = text[len(name) + 1:].removesuffix("/s")
            if name == "garbage":
                return replace(spec, garbage_rate=_number(value, item, 0.0, 1e7))
            if name == "drop":
                return replace(spec, drop=_number(value, item, 0.0, 1.0))
            if name == "dup":
                return replace(spec, dup=_number(value, item, 0.0, 1.0))
            return replace(spec, ber=_number(value, item, 0.0, 0.5))
    for name in ("disconnect", "reset"):
        if text.startswith(name + "@"):
            when = text[len(name) + 1:].removesuffix("s")
            duration = 0.0
            if name == "disconnect":
                when, _, dur = when.partition("+")
                duration = _number(dur.removesuffix("s"), item, 0.0, 3600.0) if dur else 1.0
            event = TimedFault(name, _number(when.removesuffix("s"), item, 0.0, 86400.0), duration)
            return replace(spec, events=tuple(sorted(spec.events + (event,), key=lambda e: e.at)))
    raise FaultSpecError(f"unknown fault {item!r}: expected garbage=RATE, babble, drop=P, ber=R, dup=P, "
                         f"disconnect@T[+D] or reset@T, optionally prefixed by a controller index (2:babble)")


def parse_faults(spec: str | None, controllers: int) -> list[FaultSpec]:
    """The faults of each of ``controllers`` controllers, from a SPEC string (see module doc)."""
    out = [FaultSpec() for _ in range(controllers)]
    for raw in (spec or "").split(","):
        text = raw.strip().replace(" ", "")
        if not text:
            continue
        targets = range(controllers)
        head, sep, rest = text.partition(":")
        if sep and head.isdigit():
            index = int(head)
            if index >= controllers:
                raise FaultSpecError(f"fault {text!r}: there is no controller {index} "
                                     f"(controllers are numbered 0..{controllers - 1})")
            targets, text = range(index, index + 1), rest
        for i in targets:
            out[i] = _parse_item(text, out[i])
    return out


class FaultInjector:
    """Applies a :class:`FaultSpec` to the frames a controller sends, plus on-demand faults.

    ``outgoing(frame)`` is called with each whole frame the controller writes and returns the
    bytes to put on the line (maybe nothing, maybe corrupted, maybe with garbage before).
    ``garbage(seconds)`` returns the rate-driven garbage due for an elapsed time. Not
    thread-safe by itself; the controller's driver calls it from one thread.
    """

    def __init__(self, spec: FaultSpec | None = None, seed: int | None = None) -> None:
        self.spec = spec or FaultSpec()
        self.rng = random.Random(seed)
        self._pending_garbage = 0
        self._drop_next = 0
        self._garbage_credit = 0.0
        self._next_error_bit = self._skip()
        #: What was done, for reports and tests.
        self.frames_dropped = 0
        self.frames_duplicated = 0
        self.bits_flipped = 0
        self.garbage_sent = 0

    # -- on demand --------------------------------------------------------------------------
    def inject_garbage(self, n: int = 64) -> None:
        """Put ``n`` random bytes on the line before the next frame (or at the next tick)."""
        self._pending_garbage += n

    def drop_next(self, n: int = 1) -> None:
        """Lose the next ``n`` frames."""
        self._drop_next += n

    def set_spec(self, spec: FaultSpec) -> None:
        self.spec = spec
        self._next_error_bit = self._skip()

    # -- the line ---------------------------------------------------------------------------
    def random_bytes(self, n: int) -> bytes:
        self.garbage_sent += n
        return self.rng.randbytes(n)

    def garbage(self, seconds: float) -> bytes:
        """Garbage due after ``seconds`` more of running (rate-driven and on-demand bursts).
        A burst ends with a delimiter: it costs the host bad frames, not the next good one."""
        if self.spec.garbage_rate:
            self._garbage_credit += self.spec.garbage_rate * seconds
        n = int(self._garbage_credit) + self._pending_garbage
        self._garbage_credit -= int(self._garbage_credit)
        self._pending_garbage = 0
        return self.random_bytes(n) + b"\x00" if n else b""

    def outgoing(self, frame: bytes) -> bytes:
        """What goes on the line for ``frame``."""
        if self._drop_next:
            self._drop_next -= 1
            self.frames_dropped += 1
            return self.garbage(0.0)
        if self.spec.drop and self.rng.random() < self.spec.drop:
            self.frames_dropped += 1
            return self.garbage(0.0)
        copies = 1
        if self.spec.dup and self.rng.random() < self.spec.dup:
            self.frames_duplicated += 1
            copies = 2
        out = self.garbage(0.0)
        for _ in range(copies):
            out += self._flip(frame) if self.spec.ber else frame
        return out

    def _skip(self) -> float:
        """Bits until the next bit error (geometric), or infinity without bit errors."""
        ber = self.spec.ber
        if not ber:
            return math.inf
        if ber >= 1.0:
            return 0
        return math.floor(math.log(1.0 - self.rng.random()) / math.log(1.0 - ber))

    def _flip(self, frame: bytes) -> bytes:
        nbits = len(frame) * 8
        if self._next_error_bit >= nbits:
            self._next_error_bit -= nbits
            return frame
        data = bytearray(frame)
        bit = self._next_error_bit
        while bit < nbits:                      # so finite: an int (it is inf without errors)
            data[int(bit) >> 3] ^= 1 << (int(bit) & 7)
            self.bits_flipped += 1
            bit += 1 + self._skip()
        self._next_error_bit = bit - nbits
        return bytes(data)
