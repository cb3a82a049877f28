"""The table benchmark (tools/bench/table.py) plays a game in its own process, as a person
starts one, and reads its clocks: figures only, no timed assertion."""
from __future__ import annotations


def test_the_table_benchmark_plays_the_tutorial_game_and_reads_its_clocks():
    from bitbox_tools.bench import table
    (name, module, args, env_vars), = [g for g in table.games() if g[0].startswith("goofspiel")]
    r = table.run_one(module, args, env_vars, seed=1)
    assert r["wall"] > 0 and r["cpu"] > 0 and r["ratio"] == r["wall"] / r["cpu"]
    assert r["blocked"] >= 0 and r["queued"] >= 0 and r["unloaded"] >= 1     # figures only: no timed assertion
