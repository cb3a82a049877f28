"""Controllers misbehaving at a real table (issue 13, items 4 and 7): the reference firmware
in the emulator on pseudo-terminals, pyserial and the hub, and the referee session on top."""
from __future__ import annotations

import sys
import time

import pytest

if not sys.platform.startswith(("linux", "darwin")):
    pytest.skip("pseudo-terminals need a POSIX system", allow_module_level=True)

from bitbox.controllers import ControllersConfig
from bitbox.events import Connected
from bitbox.hub import Hub
from bitbox_tools.emulate import Emulator
from bitbox.table.referee import Pace, RefuseChoice
from bitbox.table.seating import SeatPlan

from .helpers import WM, new_game, outspeed_session, pending_bonus, stage_of


class PtyTable:
    """``n`` emulated controllers on ptys, a hub, and a session seating them in order."""

    def __init__(self, emu: Emulator, game) -> None:
        self.emu = emu
        self.hub = Hub(config=ControllersConfig())
        for port in emu.ports:
            self.hub.add_url(port)
        self.hub.start()
        seats: dict[int, int] = {}
        pending = []
        deadline = time.monotonic() + 10
        while len(seats) < len(emu.ports) and time.monotonic() < deadline:
            for e in self.hub.poll(timeout=0.05):
                pending.append(e)
                if isinstance(e, Connected):
                    seats[e.info.controller_id] = e.seat
        assert len(seats) == len(emu.ports), self.hub.links()
        players = list(game.state.players)
        ids = [vc.controller_id for vc in emu.controllers]
        self.index = dict(zip(players, range(len(ids))))
        plans = [SeatPlan(p, seats[ids[i]], "controller", ids[i]) for p, i in self.index.items()]
        self.session = outspeed_session(game, plans, pace=Pace.instant())
        for e in pending:
            self.session.handle(e)
        self.session.update()

    def pump_until(self, predicate, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for e in self.hub.poll(timeout=0.02):
                self.session.handle(e)
            self.session.update()
            if predicate():
                return True
        return predicate()

    def close(self) -> None:
        self.hub.close()


def test_a_seated_controller_reflashed_to_protocol_2_is_lost_and_the_game_pauses_naming_its_player():
    game = new_game(players=3, seed=4)
    with Emulator(3) as emu:
        t = PtyTable(emu, game)
        try:
            s = t.session
            assert stage_of(s) in ("bonus", "programming") and not s.paused
            victim = "blue"
            vc = emu.controllers[t.index[victim]]
            vc.protocol = (2, 0)                       # reflashed: it boots and says Hello 2.0
            emu.reset(t.index[victim])
            assert t.pump_until(lambda: s.paused)
            table = s.table()
            assert table.banner == ("banner.paused", {"players": [victim]})
            assert [e.data for e in s.log if e.kind == "lost"] == [{"player": victim}]
            assert any(e.kind == "rejected" and "2.0" in e.data["reason"] for e in s.log)
            (seat,) = [st for st in t.hub.seats() if st.controller_id == vc.controller_id]
            assert not seat.connected
            # flashed back to protocol 1: it is welcomed again and the game goes on
            vc.protocol = None
            emu.reset(t.index[victim])
            assert t.pump_until(lambda: not s.paused)
            assert s.log[-1].kind == "back" and s.log[-1].data == {"player": victim}
        finally:
            t.close()


def test_in_the_bonus_phase_a_left_stop_the_wheel_map_does_not_list_is_refused_as_unreadable():
    game = new_game(players=3, seed=5)
    game.state.held["red"] = ["nitro"]
    game.state.zone.update(red=6)
    unlisted = 9
    assert WM.meaning("left", unlisted) is None and WM.meaning("left", 0) == "none"
    with Emulator(3) as emu:
        t = PtyTable(emu, game)
        try:
            s = t.session
            assert stage_of(s) == "bonus" and pending_bonus(s) == ["red"]
            i = t.index["red"]
            emu.set(i, left=unlisted, locked=True)
            assert t.pump_until(lambda: "red" in s.refused)
            assert "red" not in s.declared and stage_of(s) == "bonus"
            assert not any(e.kind.startswith("declared") for e in s.log)
            # refused privately (protocol 1.1): red's controller is told, the log is not
            refusals = [c for c in s.take_commands() if isinstance(c, RefuseChoice)]
            assert [c.seat for c in refusals] == [t.session.by_player["red"].seat]
            assert not any(e.kind == "must_redeclare" for e in s.log)
            # the stop that means "none" plays no token
            emu.set(i, locked=False)
            assert t.pump_until(lambda: not s.controller("red").locked)     # a new try once the lock opened
            emu.set(i, left=0, locked=True)
            assert t.pump_until(lambda: any(e.kind == "declared_none" for e in s.log))
            assert game.state.held["red"] == ["nitro"]
        finally:
            t.close()
