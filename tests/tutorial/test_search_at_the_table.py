"""The search bot at the console's table (any game: the tutorial game's command; the session
with each cartridge): ``play --bots search`` with its budget (``--rollouts`` reproducible, ``--think``), a worker thread so the
table goes on while it thinks, and the player shown as thinking meanwhile."""
from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from bitbox.bots.search import Budget, SearchBot
from bitbox.events import Connected, WheelsChanged
from bitbox.i18n import Words
from bitbox.table.referee import Pace
from bitbox.table.seating import SeatPlan

from .test_console_table import Info, cartridge, run


def inputs(journal: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(journal) as db:
        return [(kind, data) for kind, data in db.execute("SELECT kind, data FROM inputs ORDER BY game, seq")]


def test_play_with_the_search_bot_and_rollouts_is_reproducible(tmp_path: Path) -> None:
    games = []
    for n in (1, 2):
        journal = tmp_path / f"j{n}.sqlite"
        r = run(["play", "--players", "2", "--bots", "search,random", "--headless", "--speed", "0", "--seed", "7",
                 "--rollouts", "8", "--cards", "4", "--journal", str(journal), "--snapshots", str(tmp_path / "s"),
                 "-q"], tmp_path)
        assert r.returncode == 0, r.stderr
        assert "Winner" in r.stdout or "winner" in r.stdout.lower()
        games.append(inputs(journal))
    assert games[0] and games[0] == games[1]          # the same seed and rollouts: the same game


def test_play_refuses_a_bad_budget_in_one_line(tmp_path: Path) -> None:
    for bad in (["--think", "0"], ["--rollouts", "-3"], ["--think", "soon"]):
        r = run(["play", "--players", "2", "--bots", "search,random", "--headless", *bad], tmp_path)
        assert r.returncode == 2
        assert "Traceback" not in r.stderr
        assert "expected a whole number from 1" in r.stderr


class GatedSearch(SearchBot):
    """The real search bot, held at the start of each decision until the test lets it go: the
    table must go on meanwhile."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)        # type: ignore[arg-type]
        self.gate = threading.Event()
        self.started = threading.Event()

    def decide(self, game, prompt):              # type: ignore[no-untyped-def]
        self.started.set()
        assert self.gate.wait(30)
        return super().decide(game, prompt)


class Sim:
    """A simulated controller as the driver sees it: it records what the bot sets."""

    def __init__(self) -> None:
        self.sets: list[dict[str, object]] = []

    def set(self, **kw: object) -> None:
        self.sets.append(kw)


def session_with_a_searching_bot() -> tuple[object, object, GatedSearch, Sim]:
    from bitbox.table.session import BotDriver, Session
    c = cartridge()
    players = ("red", "blue")
    game = c.new(list(players), 3, {"cards": 4})
    s = Session(c, game, [SeatPlan(p, i) for i, p in enumerate(players)], pace=Pace.instant(), clock=lambda: 0.0)
    for i in range(len(players)):
        s.handle(Connected(i, Info(100 + i), 0.0))
        s.handle(WheelsChanged(i, 100 + i, 0, 0, 0, False, 0.0))
    s.update(0.0)
    bot = GatedSearch(c, 1, Budget(rollouts=8))
    sim = Sim()
    driver = BotDriver("red", sim, bot, s.controls, seed=5)
    return s, driver, bot, sim


def test_the_table_goes_on_and_shows_the_bot_thinking_while_it_searches() -> None:
    s, driver, bot, sim = session_with_a_searching_bot()
    driver.update(s, 0.0)                                    # returns at once: the search runs on a worker
    assert bot.started.wait(10)
    for _ in range(5):                                       # frames go on while it thinks
        s.update(0.0)
        driver.update(s, 0.0)
    assert s.table().status_of("red").status == "thinking"
    assert s.table().status_of("blue").status == "to_act"
    assert sim.sets == []                                    # nothing set before it has an answer
    bot.gate.set()
    for _ in range(2000):
        driver.update(s, 0.0)
        if sim.sets:
            break
    assert sim.sets and sim.sets[-1]["locked"] is True       # the answer, with the lock closed
    assert "red" not in s.thinking
    assert s.table().status_of("red").status != "thinking"
    assert bot.last is not None and bot.last.rollouts > 0


def test_a_prompt_that_goes_away_stops_the_search() -> None:
    s, driver, bot, sim = session_with_a_searching_bot()
    driver.update(s, 0.0)
    assert bot.started.wait(10)
    s.awaiting = lambda player: None                          # type: ignore[method-assign]  # the game moved on
    threading.Timer(0.05, bot.gate.set).start()               # the worker is let go while the driver waits for it
    driver.update(s, 0.0)
    assert "red" not in s.thinking and sim.sets == []
    assert bot._cancel                                        # the search was told to stop
    assert bot.last is not None and bot.last.rollouts == 0    # and stopped before its first rollout


def test_thinking_has_words_in_every_language() -> None:
    texts = {code: Words(code).t("status.thinking") for code in ("en", "es", "fr", "de")}
    assert texts["en"] == "thinking…"
    assert len(set(texts.values())) == 4


class Wired:
    """A simulated controller wired straight to the session: what the driver sets arrives as
    the controller's report."""

    def __init__(self, session: object, seat: int) -> None:
        self.session, self.seat = session, seat
        self.state = {"left": 0, "centre": 0, "right": 0, "locked": False}

    def set(self, settle: bool = False, **kw: object) -> None:
        self.state.update(kw)                                # type: ignore[arg-type]
        st = self.state
        self.session.handle(WheelsChanged(self.seat, 100 + self.seat, st["left"], st["centre"], st["right"],  # type: ignore[attr-defined]
                                          st["locked"], 0.0))


# Outspeed plays at its own table (outspeed play); at the console's generic one its bonus answers
# are refused for every bot, not only this one (left to the console's table work).
@pytest.mark.parametrize("name", ["goofspiel", "lastonealive"])
def test_every_game_plays_on_with_a_searching_seat_at_the_console_table(name: str) -> None:
    from bitbox.bots import make_bot
    from bitbox.games import find
    from bitbox.table.session import BotDriver, Session
    c = find(name)
    players = ["red", "blue", "green"]
    s = Session(c, c.new(players, 3, {}), [SeatPlan(p, i) for i, p in enumerate(players)], pace=Pace.instant(),
                clock=lambda: 0.0)
    for i in range(len(players)):
        s.handle(Connected(i, Info(100 + i), 0.0))
        s.handle(WheelsChanged(i, 100 + i, 0, 0, 0, False, 0.0))
    other = "random"
    search = SearchBot(c, 1, Budget(rollouts=6))
    drivers = [BotDriver(p, Wired(s, i), search if i == 0 else make_bot(c, other, i), s.controls, seed=9)
               for i, p in enumerate(players)]
    searched, seen = 0, None
    for _ in range(20000):
        s.update(0.0)
        for d in drivers:
            d.update(s, 0.0)
        if search.last is not None and search.last is not seen:      # a decision of the search seat
            seen = search.last
            searched += 1
        if (searched >= 2 and s.inputs_applied >= 6) or s.finished:
            break
    assert searched >= 2, f"the search seat decided {searched} times in {s.inputs_applied} inputs"
    assert not s.refused                                     # every answer it locked in was legal
    assert not s.thinking or s.thinking == {"red"}


def test_the_frame_shows_the_thinking_player(monkeypatch: pytest.MonkeyPatch) -> None:
    """A real frame (pygame, headless): the thinking status is drawn, and differs from 'to play'."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import dataclasses

    import pygame

    from bitbox.table.app import init_pygame
    from bitbox.table.journal_commands import kit_of
    s, driver, bot, sim = session_with_a_searching_bot()
    init_pygame(True)
    kit = kit_of(cartridge())
    display = kit.display((960, 540), kit.words("en"))
    driver.update(s, 0.0)
    assert bot.started.wait(10)
    thinking = s.table()
    assert thinking.status_of("red").status == "thinking"
    to_play = dataclasses.replace(thinking, players=tuple(
        dataclasses.replace(p, status="to_act") if p.player == "red" else p for p in thinking.players))
    frames = [pygame.image.tobytes(display.render_full(t), "RGB") for t in (thinking, to_play)]
    bot.gate.set()
    assert frames[0] != frames[1]
