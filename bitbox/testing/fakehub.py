"""Fake hubs and controllers for tests and tools (one public module; see :mod:`bitbox.testing`).

* :class:`FakeHub`: simulated controllers (:class:`FakeSim`) that produce ``bitbox.events``
  values at once, in order, and a record of every command the table sent to the controllers.
* :class:`EventHand`: a controller without a hub: each ``set`` appends a ``WheelsChanged``
  to a queue the caller hands to the referee.
* :class:`RecordingHub`: a real hub with every event and every command recorded.
"""
from __future__ import annotations

from collections import deque
from typing import Any, Callable

from bitbox.events import Back, Connected, ControllerInfo, Lost, SeatStatus, WheelsChanged
from bitbox.table.referee import CommandHub


class FakeSim:
    """A simulated controller of a :class:`FakeHub` (wheels, lock, plug)."""

    def __init__(self, hub: "FakeHub", seat: int, controller_id: int) -> None:
        self.hub, self.seat, self.controller_id = hub, seat, controller_id
        self.wheels = [0, 0, 0]
        self.locked = False
        self.plugged = True
        self.lights: tuple | None = None
        self.identifying = 0
        self.refusals = 0                       # private "your choice was refused" signals
        self.hint = (0, 0, 0)                   # the private hint it shows
        self.shown = (0, 0, 0)                  # the private code it shows (protocol 1.2 Show)

    def set(self, left: int | None = None, centre: int | None = None, right: int | None = None,
            locked: bool | None = None, **_: Any) -> None:
        for i, v in enumerate((left, centre, right)):
            if v is not None:
                self.wheels[i] = v
        if locked is not None:
            self.locked = bool(locked)
        if self.plugged:
            self.hub._emit(WheelsChanged(self.seat, self.controller_id, self.wheels[0], self.wheels[1], self.wheels[2], self.locked, self.hub.clock()))

    def unplug(self) -> None:
        self.plugged = False
        self.hub._emit(Lost(self.seat, self.controller_id, "unplugged", self.hub.clock()))

    def replug(self) -> None:
        self.plugged = True
        self.hub._emit(Back(self.seat, self.controller_id, f"fake://{self.seat}", self.hub.clock()))
        self.hub._emit(WheelsChanged(self.seat, self.controller_id, self.wheels[0], self.wheels[1], self.wheels[2], self.locked, self.hub.clock()))


class FakeHub:
    """A hub whose controllers are :class:`FakeSim` values; events come out of :meth:`poll` in order."""

    def __init__(self, clock: Callable[[], float] = lambda: 0.0) -> None:
        self.clock = clock
        self.events: deque = deque()
        self.sims: list[FakeSim] = []
        self.calls: list[tuple] = []

    def _emit(self, event: Any) -> None:
        self.events.append(event)

    def add_sim(self, n: int = 1) -> list[FakeSim]:
        made = []
        for _ in range(n):
            seat = len(self.sims)
            sim = FakeSim(self, seat, 0x5EED_0000_0000_0001 + seat)
            self.sims.append(sim)
            made.append(sim)
            info = ControllerInfo(sim.controller_id, f"fake://{seat}", (1, 0), "fake", (16, 16, 16))
            self._emit(Connected(seat, info, self.clock()))
        return made

    def start(self) -> "FakeHub":
        return self

    def poll(self, timeout: float = 0.0) -> list:
        out = list(self.events)
        self.events.clear()
        return out

    def seats(self) -> list[SeatStatus]:
        return [SeatStatus(s.seat, s.controller_id, s.plugged, s.locked, 0, f"fake://{s.seat}",
                           (s.wheels[0], s.wheels[1], s.wheels[2]))
                for s in self.sims]

    def assign_seat(self, seat: int, colour: Any = None) -> bool:
        self.calls.append(("assign_seat", seat, colour))
        return True

    def set_lights(self, seat: int, left: bool, centre: bool, right: bool, colour: Any = None) -> bool:
        self.calls.append(("set_lights", seat, left, centre, right))
        self.sims[seat].lights = (left, centre, right)
        return True

    def identify(self, seat: int, ms: int = 2000) -> bool:
        self.calls.append(("identify", seat, ms))
        self.sims[seat].identifying += 1
        return True

    def refuse_choice(self, seat: int, ms: int = 1500, wheels: int = 1) -> bool:
        self.calls.append(("refuse_choice", seat, ms, wheels))
        self.sims[seat].refusals += 1
        return True

    def hint(self, seat: int, left: int = 0, centre: int = 0, right: int = 0) -> bool:
        self.calls.append(("hint", seat, left, centre, right))
        self.sims[seat].hint = (left, centre, right)
        return True

    def show(self, seat: int, left: int = 0, centre: int = 0, right: int = 0) -> bool:
        self.calls.append(("show", seat, left, centre, right))
        self.sims[seat].shown = (left, centre, right)
        return True

    def close(self) -> None:
        pass


class EventHand:
    """A controller for a referee without a hub: each ``set`` is a ``WheelsChanged`` (with a
    sequence number) appended to ``queue``."""

    def __init__(self, queue: list, seat: int, cid: int) -> None:
        self.queue, self.seat, self.cid = queue, seat, cid
        self.wheels, self.locked, self.seq = [0, 0, 0], False, 0

    def set(self, left: int | None = None, centre: int | None = None, right: int | None = None,
            locked: bool | None = None, **_: Any) -> None:
        for i, v in enumerate((left, centre, right)):
            if v is not None:
                self.wheels[i] = v
        if locked is not None:
            self.locked = bool(locked)
        self.seq += 1
        self.queue.append(WheelsChanged(self.seat, self.cid, self.wheels[0], self.wheels[1], self.wheels[2], self.locked, 0.0, self.seq))


#: The part of :class:`bitbox.hub.Hub` the table loop uses: the table's own protocol.
HubLike = CommandHub


class RecordingHub:
    """The table loop's hub, with every event and every command to a controller recorded."""

    def __init__(self, hub: HubLike) -> None:
        self.hub = hub
        self.events: list[Any] = []
        self.commands: list[tuple] = []

    def poll(self, timeout: float = 0.0) -> list[Any]:
        got = self.hub.poll(timeout)
        self.events.extend(got)
        return got

    def assign_seat(self, seat: int, colour: Any = None) -> bool:
        self.commands.append(("assign_seat", seat, colour))
        return self.hub.assign_seat(seat, colour=colour)

    def set_lights(self, seat: int, left: bool, centre: bool, right: bool, colour: Any = None) -> bool:
        self.commands.append(("set_lights", seat, left, centre, right, colour))
        return self.hub.set_lights(seat, left, centre, right, colour=colour)

    def identify(self, seat: int, ms: int = 2000) -> bool:
        self.commands.append(("identify", seat, ms))
        return self.hub.identify(seat, ms=ms)

    def refuse_choice(self, seat: int, ms: int = 1500, wheels: int = 1) -> bool:
        self.commands.append(("refuse_choice", seat, ms, wheels))
        return self.hub.refuse_choice(seat, ms=ms, wheels=wheels)

    def hint(self, seat: int, left: int = 0, centre: int = 0, right: int = 0) -> bool:
        self.commands.append(("hint", seat, left, centre, right))
        return self.hub.hint(seat, left, centre, right)

    def show(self, seat: int, left: int = 0, centre: int = 0, right: int = 0) -> bool:
        self.commands.append(("show", seat, left, centre, right))
        return self.hub.show(seat, left, centre, right)

    def count(self, kind: str) -> int:
        return sum(1 for e in self.events if type(e).__name__ == kind)
