"""Secrets stay secret: before a reveal, the table (every frame and every log line) is the
same whatever the hidden choices are: the tokens held, the token declared, the path
programmed, the reason a choice was refused, the tokens drawn and kept.

Each test plays the same game twice with different hidden choices, renders a frame after
every hand on a wheel (full redraws and dirty-rect updates) and collects the log, and
asserts byte-identical pixels and identical lines."""
from __future__ import annotations

import pygame
import pytest

from outspeed.display import Lang, TableDisplay

from .helpers import Table, new_game


class Recorder:
    def __init__(self, t: Table) -> None:
        self.t = t
        self.full = TableDisplay(size=(960, 540), lang="en")
        self.incremental = TableDisplay(size=(960, 540), lang="fr")
        self.frames: list[bytes] = []
        self.dirty: list[list[tuple]] = []
        self.tables = []
        self.lang = Lang("de")

    def snap(self) -> None:
        table = self.t.s.table()
        self.tables.append(table)
        self.frames.append(pygame.image.tobytes(self.full.render_full(table), "RGB"))
        rects = self.incremental.render(table)
        self.dirty.append([tuple(r) for r in rects])
        self.frames.append(pygame.image.tobytes(self.incremental.surface, "RGB"))

    def lines(self) -> list[str]:
        return [self.lang.event(e.kind, e.data) for e in self.t.s.log]


def assert_same(a: Recorder, b: Recorder) -> None:
    assert len(a.frames) == len(b.frames)
    for i, (fa, fb) in enumerate(zip(a.frames, b.frames)):
        assert fa == fb, f"frame {i} differs"
    assert a.dirty == b.dirty
    assert a.tables == b.tables
    assert a.lines() == b.lines()


def bonus_game(held_red: list[str], held_blue: list[str]) -> Table:
    game = new_game(seed=21, first_game=True)
    game.state.held.update(red=held_red, blue=held_blue)
    game.state.zone.update(red=5, blue=4, green=4, yellow=3)
    return Table(game)


@pytest.mark.parametrize("a,b", [
    # (red holds, red tries first, red plays), same for blue, in two different worlds
    ((["nitro", "flamethrower"], "ion_cannon", "nitro", ["fuel_tank"], "fuel_tank"),
     (["force_field", "fuel_tank"], "electromagnet", "force_field", ["nitro"], None)),
])
def test_bonus_declarations_reveal_nothing_until_everyone_has_declared(a, b):
    recs = []
    for red_held, red_try, red_play, blue_held, blue_play in (a, b):
        t = bonus_game(red_held, blue_held)
        r = Recorder(t)
        t.pump()
        r.snap()
        t.declare("red", red_try)           # refused (not held / not rearmost), privately
        r.snap()
        t.declare("red", red_play)          # accepted: the table sees only "plays a token"
        r.snap()
        t.sims["blue"].set(left=3)          # blue turns the wheel (not locked yet)
        t.pump()
        r.snap()
        recs.append((r, t, blue_play))
    assert_same(recs[0][0], recs[1][0])
    # (blue's declaration would reveal everything: from there the worlds may differ)
    for r, t, blue_play in recs:
        t.declare("blue", blue_play)
        assert t.stage != "bonus"


def programming_game() -> Table:
    game = new_game(seed=4, first_game=True)        # tile 1: three lit paths, the right one costs 2
    game.state.fuel["green"] = 1
    return Table(game)


def test_programmed_paths_and_refusals_reveal_nothing_until_everyone_is_locked():
    worlds = [
        # red, blue, green's refused try (unaffordable / unreadable), green's fix
        ("left", "right", "right", "left"),
        ("right", "center", None, "center"),
    ]
    recs = []
    for red, blue, green_bad, green_fix in worlds:
        t = programming_game()
        r = Recorder(t)
        t.pump()
        assert t.stage == "programming"
        r.snap()
        t.program("red", red)
        r.snap()
        t.program("blue", blue, lock=False)       # turned, not locked
        r.snap()
        t.sims["blue"].set(locked=True)
        t.pump()
        r.snap()
        t.program("green", green_bad)             # refused: "must re-program", nothing else
        r.snap()
        t.program("green", green_fix)
        r.snap()
        t.program("red", "center" if red != "center" else "left")   # red changes their mind
        r.snap()
        recs.append((r, t))
    assert_same(recs[0][0], recs[1][0])
    for r, t in recs:
        t.program("yellow", "left")
        assert t.game.state.turn == 2              # now everything is revealed at once


def _play_to_a_draw(t: Table, r: Recorder) -> None:
    """Everyone takes a path that gains a bonus token when there is one (else the first
    legal path) and plays no token, until somebody must choose between two drawn tokens."""
    for _ in range(60):
        if t.stage == "draw":
            return
        g = t.game
        if t.stage == "programming":
            for p in list(g.state.active):
                legal = g.legal_paths(p)
                bonus = [k for k in legal if any(e.kind == "bonus" for e in g.current_paths[k].gain)]
                path = (bonus or legal)[0]
                numbers = g.legal_numbers(p, path)
                t.program(p, path, numbers[0] if numbers else None)
                r.snap()
        elif t.stage == "bonus":
            for p in list(g.state.active):
                if p in t.pending_bonus():
                    t.declare(p, None)
                    r.snap()
        else:
            t.pump()
    raise AssertionError("nobody drew")


def test_drawn_and_kept_tokens_stay_hidden():
    import random
    recs = []
    for world in (1, 2):
        game = new_game(seed=4, first_game=True)
        random.Random(world).shuffle(game.state.pile)          # the same tokens, another order
        t = Table(game)
        r = Recorder(t)
        t.pump()
        _play_to_a_draw(t, r)
        player = t.game.state.draw_queue[0]
        drawn = list(t.game.state.drawn)
        r.snap()
        wrong = next(tok for tok in ("nitro", "fuel_tank", "flamethrower", "force_field", "electromagnet",
                                     "ion_cannon") if tok not in drawn)
        t.keep(player, wrong)                      # not one of the two drawn: refused, privately
        r.snap()
        t.keep(player, drawn[world % 2])           # keep one of them
        r.snap()
        assert drawn[world % 2] in t.game.state.held[player]
        recs.append((r, t, drawn))
    assert recs[0][2] != recs[1][2]                # the worlds really drew different tokens
    assert_same(recs[0][0], recs[1][0])
