"""The research section's simulate loops and their instruction counts (the plumbing, not the
figures: benchmarks are never timed assertions)."""
from __future__ import annotations

import sys

import pytest

from bitbox_tools.bench import simloops, suite


@pytest.mark.parametrize("label", list(simloops.INSTRUCTION_SCRIPTS))
def test_each_counted_loop_plays_the_runs_games(label, monkeypatch):
    """The scripts callgrind counts run as they are (here in this process, 3 games + the first)."""
    monkeypatch.setattr(sys, "argv", ["-c", "3", "red", "blue", "green", "yellow"])
    scope: dict = {}
    exec(simloops.INSTRUCTION_SCRIPTS[label], scope)                  # noqa: S102 - our own script
    assert scope["run"].games == 4 and len(scope["same"][1]) == 4


def test_the_engine_loop_plays_simulates_games():
    from bitbox.simulation.games import Run, records
    run = Run("outspeed", 6, 4, ("random",), seed=3)
    same = simloops.same_games(run)
    rate, shares, cpu = simloops.engine_loop(run, same)
    assert shares == [r["wins"] for r in records(run)] and rate > 0 and cpu > 0
    assert min(simloops.protocol_loop(run, same)) > 0


def test_instructions_make_a_row_or_say_why(monkeypatch):
    pytest.importorskip("pettingzoo", reason="the research extra is installed by ./dev test")
    from bitbox_tools.bench import research
    small = {"env": [], "simulate": {"games": 1, "cores": 1, "engine_games_per_s": 2.0, "protocol_games_per_s": 1.0,
                                     "1 worker": 1.5, "2 workers": 2.5},
             "growth": {"games": {1: 1.0}, "players": {("outspeed", 3): 1.0}}}
    monkeypatch.setattr(research, "run", lambda quick=False: small)
    monkeypatch.setitem(suite.INSTRUCTIONS, "against", "")
    counts = {"engine loop": 2_000_000.0, "protocol loop": 3_000_000.0, "simulate": 2_200_000.0,
              "simulate, protocol only": 3_100_000.0}
    monkeypatch.setattr(research, "print_instructions", lambda games: counts)
    row = next(r for r in suite.research_rows(quick=True) if r.name == "simulate: instructions a game (callgrind)")
    assert row.value == 2_200_000 and row.ratio == "0.909" and row.ok is True and "3,100,000" in row.note

    def no_valgrind(games):
        raise RuntimeError("valgrind is not installed")
    monkeypatch.setattr(research, "print_instructions", no_valgrind)
    row = next(r for r in suite.research_rows(quick=True) if r.name == "simulate: instructions a game (callgrind)")
    assert row.figure == "not available: valgrind is not installed"
