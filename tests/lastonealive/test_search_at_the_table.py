"""The search bot at Last One Alive's table (the console's session, driver and budget):
``lastonealive play --bots search`` with ``--rollouts`` is reproducible and journals a game
every journal command reads; ``bitbox play --game lastonealive`` takes ``--think``; a bad
budget is one line; the player is shown thinking while it searches."""
from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from bitbox.bots.search import Budget, SearchBot
from bitbox.events import Connected, WheelsChanged
from bitbox.table.referee import Pace
from bitbox.table.seating import SeatPlan


def inputs(journal: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(journal) as db:
        return list(db.execute("SELECT kind, data FROM inputs ORDER BY game, seq"))


def play_args(tmp_path: Path, journal: Path, *budget: str) -> list[str]:
    return ["--players", "2", "--bots", "search,careful", "--headless", "--speed", "0", "--seed", "7",
            *budget, "--journal", str(journal), "--snapshots", str(tmp_path / "s"), "--size", "320x180",
            "--lobby", "never", "-q"]


def test_the_search_bot_plays_reproducibly_with_rollouts_from_either_command(tmp_path, capsys):
    """``lastonealive play`` and ``bitbox play --game lastonealive``: the same seed and
    rollouts, the same game, journaled in a form every journal command reads."""
    from bitbox.cli import main as bitbox_main
    from lastonealive.cli import main
    one, two = tmp_path / "j1.sqlite", tmp_path / "j2.sqlite"
    assert main(["play", *play_args(tmp_path, one, "--rollouts", "2")]) == 0
    assert "Winner:" in capsys.readouterr().out
    assert bitbox_main(["play", "--game", "lastonealive", *play_args(tmp_path, two, "--rollouts", "2")]) == 0
    assert "Winner:" in capsys.readouterr().out
    assert len(inputs(one)) > 20 and inputs(one) == inputs(two)
    assert main(["history", "--journal", str(one), "--json"]) == 0      # "search" is a bot the journal knows
    assert '"search,careful"' in capsys.readouterr().out


def test_think_is_the_search_bots_time_at_the_table():
    from bitbox.table.command import CartridgeTable
    from bitbox.table.play import PlayRequest
    from lastonealive.cartridge import CARTRIDGE
    table = CartridgeTable(CARTRIDGE, "lastonealive")
    table.prepare(PlayRequest(think=300), True)
    assert (table.budget.think_ms, table.budget.rollouts) == (300, None)
    table.prepare(PlayRequest(), True)                          # neither: a person waits at most a second
    assert table.budget == Budget.at_table()


@pytest.mark.parametrize("bad", [["--think", "0"], ["--rollouts", "-3"], ["--think", "soon"]])
def test_a_bad_budget_is_one_line(tmp_path, capsys, bad):
    from lastonealive.cli import main
    with pytest.raises(SystemExit) as exc:
        main(["play", *play_args(tmp_path, tmp_path / "j.sqlite", *bad)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "expected a whole number from 1" in err and "Traceback" not in err


class GatedSearch(SearchBot):
    """The real search bot; its first decision waits until the table has been seen going on."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.gate = threading.Event()

    def decide(self, game, prompt):
        assert self.gate.wait(30)
        return super().decide(game, prompt)


class Info:
    def __init__(self, cid: int) -> None:
        self.controller_id = cid


class Wired:
    """A simulated controller wired straight to the session."""

    def __init__(self, session, seat: int) -> None:
        self.session, self.seat = session, seat
        self.state = {"left": 0, "centre": 0, "right": 0, "locked": False}

    def set(self, settle: bool = False, **kw) -> None:
        self.state.update(kw)
        st = self.state
        self.session.handle(WheelsChanged(self.seat, 100 + self.seat, st["left"], st["centre"], st["right"],
                                          st["locked"], 0.0))


def test_the_search_seat_is_shown_thinking_on_last_one_alives_screen_and_its_answers_are_legal():
    """Through Last One Alive's own controls and view: multi-lock answers entered lock by lock."""
    from bitbox.bots import make_bot
    from bitbox.table.session import BotDriver, Session
    from lastonealive.cartridge import CARTRIDGE, LastOneAliveGame
    from lastonealive.controls import TableControls
    from lastonealive.session import new_game
    players = ["red", "blue"]
    game = LastOneAliveGame(new_game(players, seed=4, **CARTRIDGE.content.game_options()))
    s = Session(CARTRIDGE, game, [SeatPlan(p, i, "bot") for i, p in enumerate(players)],
                controls=TableControls(), pace=Pace.instant(), clock=lambda: 0.0)
    for i in range(len(players)):
        s.handle(Connected(i, Info(100 + i), 0.0))
        s.handle(WheelsChanged(i, 100 + i, 0, 0, 0, False, 0.0))
    search = GatedSearch(CARTRIDGE, 1, Budget(rollouts=2))
    drivers = [BotDriver(p, Wired(s, i), search if i == 0 else make_bot(CARTRIDGE, "careful", i), TableControls(),
                         seed=9) for i, p in enumerate(players)]
    thinking = searched = 0
    seen = None
    for _ in range(20000):
        s.update(0.0)
        for d in drivers:
            d.update(s, 0.0)
        if s.table().status_of("red").status == "thinking":
            thinking += 1
            search.gate.set()                                   # seen: let it answer
        if search.last is not None and search.last is not seen:
            seen = search.last
            searched += 1
        assert not s.refused                                   # every lock it closed was an answer
        if searched >= 3 or s.finished:
            break
    assert searched >= 3 and thinking >= 1


def test_last_one_alives_frame_shows_the_thinking_player(monkeypatch):
    """A real frame (pygame, headless): the thinking status is drawn on the player's card (a
    frame of its own: not as "to decide", not as no status)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import dataclasses

    import pygame

    from bitbox.table.app import init_pygame
    from lastonealive.cartridge import CARTRIDGE
    from lastonealive.display import TableDisplay
    from lastonealive.session import TableView, new_game
    from lastonealive.words import Lang
    init_pygame(True)
    game = new_game(["red", "blue"], seed=4, **CARTRIDGE.content.game_options())
    game.start_setup("red", [])
    base = TableView.from_public(game.public_view())
    frames = []
    for status in ("thinking", "to_act", ""):
        t = dataclasses.replace(base, stage="prompt", players=tuple(
            dataclasses.replace(p, kind="bot", status=status if p.player == "red" else "") for p in base.players))
        display = TableDisplay(size=(960, 540), lang=Lang("en"))
        frames.append(pygame.image.tobytes(display.render_full(t), "RGB"))
    assert frames[0] != frames[1] and frames[0] != frames[2]        # drawn, and not as "to decide"
