"""The research section of the benchmark suite fills its rows (its plumbing, not its figures:
benchmarks are never timed assertions)."""
from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the research extra is installed by ./dev test")

from bitbox_tools.bench import research, suite  # noqa: E402


def test_the_research_rows_are_filled(monkeypatch):
    def small(quick=False, use_ray=True):
        return {"env": research.env_figures(0.1), "simulate": research.simulate_figures(40, use_ray=False),
                "growth": research.growth_figures(5)}
    monkeypatch.setattr(research, "run", small)
    rows = suite.research_rows(quick=True)
    assert [r.name for r in rows] == ["research: Outspeed ParallelEnv", "research: Last One Alive AECEnv",
                                      "simulate: 1 worker", "simulate: 2 workers", "simulate: Ray pool",
                                      "simulate: cost by games", "simulate: cost by players"]
    for r in rows[:4]:
        assert r.value > 0 and r.baseline_value > 0 and float(r.ratio) > 0
    assert rows[0].figure.endswith("games/s)") and "steps/s" in rows[0].figure
    assert rows[4].figure == "not available: not measured"
    assert "5: " in rows[5].figure and "last 5p" in rows[6].figure and "outs 6p" in rows[6].figure
