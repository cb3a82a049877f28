"""A full game, first tile to winner, over emulated controllers on pseudo-terminals: the
reference firmware on one side, pyserial and the hub on the other, the referee session and
the table loop on top. Bots turn the emulated wheels (as a person would turn real ones)."""
from __future__ import annotations

import io
import sys
import time

import pytest

if not sys.platform.startswith(("linux", "darwin")):
    pytest.skip("pseudo-terminals need a POSIX system", allow_module_level=True)

from bitbox.events import Connected
from bitbox.hub import Hub
from bitbox_tools.emulate import Emulator, emulator_controller_id
from outspeed.display import Lang
from bitbox.table.journal import Journal, rebuild
from outspeed.journaling import RULES
from bitbox.table.referee import Pace
from bitbox.table.seating import SeatPlan
from .helpers import TableLoop

from .helpers import new_game, outspeed_bot, outspeed_session


class Hand:
    """Turns one emulated controller's wheels (what a person does)."""

    def __init__(self, emu: Emulator, index: int) -> None:
        self.emu, self.index = emu, index

    def set(self, left=None, centre=None, right=None, locked=None):
        self.emu.set(self.index, left, centre, right, locked)


def test_a_full_game_over_emulated_controllers_on_ptys(tmp_path):
    with Emulator(4, settle=False) as emu:
        hub = Hub()
        try:
            for port in emu.ports:
                hub.add_url(port)
            hub.start()
            seats: dict[int, int] = {}
            pending = []
            deadline = time.monotonic() + 10
            while len(seats) < 4 and time.monotonic() < deadline:
                for e in hub.poll(timeout=0.05):
                    pending.append(e)
                    if isinstance(e, Connected):
                        seats[e.seat] = e.info.controller_id
            assert len(seats) == 4, hub.links()
            index_of = {emulator_controller_id(i): i for i in range(4)}
            game = new_game(players=4, seed=31)
            players = list(game.state.players)
            order = sorted(seats)
            plans = [SeatPlan(p, seat, "controller", seats[seat]) for p, seat in zip(players, order)]
            journal = Journal(tmp_path / "j.sqlite", RULES)
            record = journal.new_game(game, {"seats": []})
            out = io.StringIO()
            lang = Lang("en")
            session = outspeed_session(game, plans, journal=record, pace=Pace.instant(),
                                       on_event=lambda e: print(lang.event(e.kind, e.data), file=out))
            for e in pending:
                session.handle(e)
            drivers = [outspeed_bot(p.player, Hand(emu, index_of[p.controller_id]), "greedy", 31) for p in plans]
            loop = TableLoop(session, hub, drivers, None, lang, headless=True, out=out,
                             snapshots=tmp_path / "snaps", size=(960, 540), max_seconds=90)
            assert loop.run() == 0
            assert session.finished
            # the controllers heard the referee: seat colours and path lights reached the firmware
            assert any(c.lights[3] is not None for c in emu.controllers)
        finally:
            hub.close()
    text = out.getvalue()
    assert "Turn 1: tile" in text and "Game over" in text          # a headline, capitalised like every game's
    rebuilt, n = rebuild(journal, record.id)
    assert rebuilt.to_data() == session.game.to_data()
    assert journal.game(record.id).status == "finished"
    assert len(list((tmp_path / "snaps").glob("turn-*.png"))) == session.game.turn
