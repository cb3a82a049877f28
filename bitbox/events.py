"""The hub's events: what any game on the console hears from the controllers.

This is the interface between the device layer (``bitbox.hub``) and a game's referee
session (e.g. ``bitbox.table.session``). Events are small frozen values; the hub hands them out
in one ordered stream (``Hub.poll``). Seats are numbered from 0 and bound to a controller id
(``controller_id``, the 64-bit id of the protocol handshake), so a controller that comes back
on another port keeps its seat.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class ControllerInfo:
    """What the handshake told us about a controller."""

    controller_id: int
    port: str                                   # device path, pyserial URL, hid path or sim://N
    protocol: tuple[int, int]                   # (major, minor)
    firmware: str
    positions: tuple[int, int, int]             # detent positions per wheel: left, centre, right
    has_leds: bool = True
    has_lock: bool = True


@dataclass(frozen=True, slots=True)
class Connected:
    seat: int
    info: ControllerInfo
    t: float                                    # time.monotonic() when the hub accepted it


@dataclass(frozen=True, slots=True)
class WheelsChanged:
    """A controller's full state after a change: the three wheels (raw detent positions)
    and the lock switch."""

    seat: int
    controller_id: int
    left: int
    centre: int
    right: int
    locked: bool
    t: float
    seq: int | None = None                      # the State's sequence number (diagnostics)


@dataclass(frozen=True, slots=True)
class Lost:
    seat: int
    controller_id: int
    reason: str                                 # "heartbeat timeout", "unplugged", ...
    t: float


@dataclass(frozen=True, slots=True)
class Back:
    """A lost controller is back (on ``port``, possibly another one); its seat is kept."""

    seat: int
    controller_id: int
    port: str
    t: float


@dataclass(frozen=True, slots=True)
class Rejected:
    """A device that answered but was refused (duplicate id, major protocol mismatch, ...)."""

    port: str
    reason: str
    controller_id: int | None = None
    t: float = 0.0


HubEvent = Connected | WheelsChanged | Lost | Back | Rejected


@dataclass(frozen=True, slots=True)
class SeatStatus:
    """The hub's view of one seat, for a table display's player panels."""

    seat: int
    controller_id: int | None
    connected: bool
    locked: bool = False
    bad_frames: int = 0
    port: str | None = None
    wheels: tuple[int, int, int] = field(default=(0, 0, 0))
    frames: int = 0                  # valid frames from its controller, since the hub bound it
    reported: bool = True            # False: no State of its controller heard yet (wheels, lock unknown)
