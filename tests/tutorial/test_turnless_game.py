"""A game with no ``turn`` of its own (docs/games.md: "without it: each answer is a turn") at
the console's table: the n-th input is journaled at turn n, and replay (a frame and a PNG per
input, the GIF), import (checked by replaying it) and resume count the turns the same way.
The tutorial game without its ``turn`` (goofspiel_turnless.py): one input a round, so its
frames and turns are the tutorial's own; real subprocesses, real SQLite journals and PNGs."""
from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pytest

from .test_console_table import GAME, run, stopped_after_two_rounds

TURNLESS = "goofspiel=goofspiel_turnless:CARTRIDGE"


@pytest.fixture(autouse=True)
def turnless_on_the_shelf(monkeypatch):
    monkeypatch.setenv("BITBOX_GAMES", TURNLESS)
    yield
    sys.modules.pop("goofspiel_turnless", None)


@pytest.mark.heavy
def test_replay_import_and_resume_of_a_game_without_turns_count_each_input_as_a_turn(tmp_path):
    from bitbox.games import find
    c = find("goofspiel")
    assert getattr(c.new(["red", "blue"], 3, {"cards": 4}), "turn") is None
    stopped_after_two_rounds(tmp_path, c)                  # two inputs, as a kill leaves them
    with sqlite3.connect(tmp_path / "j.sqlite") as db:
        assert [r[0] for r in db.execute("SELECT turn FROM inputs ORDER BY seq")] == [1, 2]

    r = run(["play", "--resume", "--headless", "--journal", "j.sqlite", "--snapshots", "live"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Resuming game 1 (seed 3) at turn 3, 2 inputs replayed" in r.stderr
    assert "Game resumed at turn 3" in r.stdout
    assert sorted(p.name for p in (tmp_path / "live").glob("goofspiel-1-*/turn-*.png")) == ["turn-03.png",
                                                                                          "turn-04.png"]
    with sqlite3.connect(tmp_path / "j.sqlite") as db:
        assert [r[0] for r in db.execute("SELECT turn FROM inputs ORDER BY seq")] == [1, 2, 3, 4]

    rep = run(["replay", "1", "--journal", "j.sqlite", "--headless", "--snapshots", "rs"], tmp_path)
    assert rep.returncode == 0, rep.stderr
    assert sorted(p.name for p in (tmp_path / "rs").glob("replay-goofspiel-1-*/turn-*.png")) == [
        f"turn-{n:02d}.png" for n in range(5)]                          # the start, then each input
    gif = run(["replay", "1", "--journal", "j.sqlite", "--gif", "g.gif", "--size", "320x180"], tmp_path)
    assert gif.returncode == 0 and "(frames: 5," in gif.stdout, gif.stdout + gif.stderr

    assert run(["export", "1", "g.json", "--journal", "j.sqlite"], tmp_path).returncode == 0
    imp = run(["import", "g.json", "--journal", "k.sqlite"], tmp_path)
    assert imp.returncode == 0 and "imported as game 1" in imp.stdout, imp.stderr
    hist = run(["history", "--journal", "k.sqlite"], tmp_path)
    assert hist.returncode == 0 and " 4 " in hist.stdout.splitlines()[1], hist.stdout


def test_the_command_runs_the_turnless_cartridge(tmp_path):
    assert GAME[-1] == "goofspiel"
    r = run(["play", "--headless", "--speed", "0", "--players", "2", "--seed", "1", "--cards", "3", "--journal",
             "j.sqlite", "--snapshots", "s", "--size", "320x180"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in Path(tmp_path / "s").glob("goofspiel-1-*/turn-*.png")) == [
        "turn-01.png", "turn-02.png", "turn-03.png"]
