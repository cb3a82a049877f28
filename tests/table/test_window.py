"""The windowed loop (on SDL's dummy video driver): closing the window keeps the game in
the journal; the keyboard hot-seat plays through simulated controllers."""
from __future__ import annotations

import io

import pygame

from outspeed.display import Lang
from bitbox.table.journal import Journal, rebuild
from outspeed.journaling import RULES
from bitbox.table.referee import Pace
from bitbox.table.session import KeyboardDriver
from .helpers import TableLoop

from .helpers import Table, new_game


class CloseAt:
    """Closes the window once the game reaches ``turn``."""

    def __init__(self, turn: int) -> None:
        self.turn = turn

    def update(self, session, now) -> None:
        if session.game.turn >= self.turn:
            pygame.event.post(pygame.event.Event(pygame.QUIT))


def test_closing_the_window_mid_game_keeps_it_in_the_journal(tmp_path):
    j = Journal(tmp_path / "j.sqlite", RULES)
    game = new_game(seed=6)
    rec = j.new_game(game, {})
    t = Table(game, journal=rec, bots=("red", "blue", "green", "yellow"), pace=Pace().scaled(40))
    t.pump()
    loop = TableLoop(t.s, t.hub, [*t.drivers, CloseAt(3)], None, Lang("es"), headless=False, out=io.StringIO(),
                     snapshots=None, size=(800, 450), fps=500, max_seconds=60)
    assert loop.run() == 0
    assert loop.frames > 10
    assert not t.s.finished and t.game.state.turn >= 3
    again, n = rebuild(Journal(tmp_path / "j.sqlite", RULES), rec.id)
    assert n == t.s.inputs_applied and again.to_data() == t.game.to_data()


class Typist:
    """Presses keys for whoever sits at the keyboard: Tab to look, Enter to lock (the first
    choice), and closes the window at ``turn``."""

    def __init__(self, keyboard: KeyboardDriver, turn: int) -> None:
        self.kb, self.turn, self.pads = keyboard, turn, []
        self.n = 0

    def update(self, session, now) -> None:
        self.n += 1
        if session.game.turn >= self.turn:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
            return
        if self.n % 3:
            return
        p = self.kb.current(session)
        if p is None:
            return
        pad = self.kb.pad(session, Lang("en"))
        self.pads.append(pad)
        key = pygame.K_TAB if not self.kb.shown else pygame.K_RETURN
        if key == pygame.K_RETURN and session.awaiting(p).kind == "program":
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))


def test_keyboard_hot_seat(tmp_path):
    from .helpers import outspeed_keyboard
    game = new_game(players=3, seed=6)
    t = Table(game)
    kb = outspeed_keyboard(t.sims, Lang("en"))
    typist = Typist(kb, 3)
    loop = TableLoop(t.s, t.hub, [kb, typist], kb, Lang("en"), headless=False, out=io.StringIO(),
                     snapshots=None, size=(800, 450), fps=500, max_seconds=60)
    assert loop.run() == 0
    assert t.game.state.turn >= 3
    assert any(p and p["shown"] and p.get("lines") for p in typist.pads)
    assert any(p and not p["shown"] for p in typist.pads)
    assert {p["player"] for p in typist.pads if p} == {"red", "blue", "green"}
