"""A fake hub for session tests: simulated controllers that produce ``bitbox.events`` values
at once, in order, and a record of every command the session sent to the controllers."""
from __future__ import annotations

from collections import deque
from typing import Any, Callable

from bitbox.events import Back, Connected, ControllerInfo, Lost, SeatStatus, WheelsChanged


class FakeSim:
    def __init__(self, hub: "FakeHub", seat: int, controller_id: int) -> None:
        self.hub, self.seat, self.controller_id = hub, seat, controller_id
        self.wheels = [0, 0, 0]
        self.locked = False
        self.plugged = True
        self.lights: tuple | None = None
        self.identifying = 0

    def set(self, left: int | None = None, centre: int | None = None, right: int | None = None,
            locked: bool | None = None, **_: Any) -> None:
        for i, v in enumerate((left, centre, right)):
            if v is not None:
                self.wheels[i] = v
        if locked is not None:
            self.locked = bool(locked)
        if self.plugged:
            self.hub._emit(WheelsChanged(self.seat, self.controller_id, *self.wheels, self.locked, self.hub.clock()))

    def unplug(self) -> None:
        self.plugged = False
        self.hub._emit(Lost(self.seat, self.controller_id, "unplugged", self.hub.clock()))

    def replug(self) -> None:
        self.plugged = True
        self.hub._emit(Back(self.seat, self.controller_id, f"fake://{self.seat}", self.hub.clock()))
        self.hub._emit(WheelsChanged(self.seat, self.controller_id, *self.wheels, self.locked, self.hub.clock()))


class FakeHub:
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
        return [SeatStatus(s.seat, s.controller_id, s.plugged, s.locked, 0, f"fake://{s.seat}", tuple(s.wheels))
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

    def close(self) -> None:
        pass
