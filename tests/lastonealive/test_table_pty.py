"""A full game of Last One Alive, first prompt to winner, over emulated controllers on
pseudo-terminals: the reference firmware on one side, pyserial and the hub on the other,
the referee session, the journal and the table loop on top. Bots turn the emulated wheels
and the lock, one lock per step, as a person would."""
from __future__ import annotations

import io
import sys
import time

import pytest

if not sys.platform.startswith(("linux", "darwin")):
    pytest.skip("pseudo-terminals need a POSIX system", allow_module_level=True)

from bitbox.events import Connected
from bitbox.hub import Hub
from bitbox.table.journal import Journal, rebuild
from bitbox.table.referee import Pace
from bitbox.table.seating import SeatPlan
from bitbox_tools.emulate import Emulator, emulator_controller_id
from lastonealive.content import load_content
from lastonealive.journaling import RULES
from lastonealive.session import new_game
from bitbox.table.command import CartridgeTable
from lastonealive.cartridge import CARTRIDGE as _LOA
from lastonealive.words import Lang

from .test_table import loa_bot, loa_session

TableLoop = CartridgeTable(_LOA, "lastonealive").loop()      # its table loop, as `lastonealive play` runs it


class Hand:
    def __init__(self, emu: Emulator, index: int) -> None:
        self.emu, self.index = emu, index

    def set(self, left=None, centre=None, right=None, locked=None, settle=None):
        self.emu.set(self.index, left, centre, right, locked)


def test_a_full_game_over_emulated_controllers_on_ptys(tmp_path):
    content = load_content()
    n = 3
    with Emulator(n, settle=False) as emu:
        hub = Hub()
        try:
            for port in emu.ports:
                hub.add_url(port)
            hub.start()
            seats: dict[int, int] = {}
            pending = []
            deadline = time.monotonic() + 10
            while len(seats) < n and time.monotonic() < deadline:
                for e in hub.poll(timeout=0.05):
                    pending.append(e)
                    if isinstance(e, Connected):
                        seats[e.seat] = e.info.controller_id
            assert len(seats) == n, hub.links()
            index_of = {emulator_controller_id(i): i for i in range(n)}
            players = ["red", "blue", "green"]
            game = new_game(players, seed=8, **content.game_options())
            # people's controllers: the first lock decides who starts (a hand does it below)
            plans = [SeatPlan(p, seat, "controller", seats[seat]) for p, seat in zip(players, sorted(seats))]
            journal = Journal(tmp_path / "j.sqlite", RULES)
            record = journal.new_game(game, {"seats": []})
            out = io.StringIO()
            lang = Lang("fr")
            session = loa_session(game, plans, journal=record, pace=Pace.instant(),
                              on_event=lambda e: print(lang.event(e.kind, e.data), file=out))
            for e in pending:
                session.handle(e)
            hands = {p.player: Hand(emu, index_of[p.controller_id]) for p in plans}
            drivers = [loa_bot(p.player, hands[p.player], "random", game) for p in plans]
            session.update()
            assert session.stage == "first"
            hands["blue"].set(locked=True)                 # blue saw a zombie last
            deadline = time.monotonic() + 10
            while session.stage == "first" and time.monotonic() < deadline:
                for e in hub.poll(timeout=0.02):
                    session.handle(e)
                session.update()
            assert session.game.engine.state.first == "blue"
            loop = TableLoop(session, hub, drivers, None, lang, headless=True, out=out,
                             snapshots=tmp_path / "snaps", size=(960, 540), max_seconds=120)
            assert loop.run() == 0
            assert session.finished
            # the controllers heard the referee: seat colours and lights reached the firmware
            assert any(c.lights[3] is not None for c in emu.controllers)
        finally:
            hub.close()
    text = out.getvalue()
    assert "Tour de Bleu" in text and "Fin de la partie" in text
    rebuilt, _ = rebuild(journal, record.id)
    assert rebuilt.to_data() == session.game.to_data()
    assert journal.game(record.id).status == "finished"
    assert list((tmp_path / "snaps").glob("turn-*.png"))
