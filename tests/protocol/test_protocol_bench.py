"""The codec benchmark script runs and reports its figures (no timed assertions: docs/design.md)."""

from __future__ import annotations

import json

from bitbox_tools.bench import codec as bench


def test_run_returns_the_figures() -> None:
    figures = bench.run(seconds=0.02, frames=2000)
    assert figures["frames_per_s"] > 0 and figures["baseline_frames_per_s"] > 0
    assert figures["ratio"] == figures["frames_per_s"] / figures["baseline_frames_per_s"]
    assert figures["frame_bytes"] == 15
    assert bench.run(seconds=0.01, frames=300, chunk_bytes=15)["chunk_bytes"] == 15


def test_false_accept_measurement_runs() -> None:
    result = bench.false_accept(trials=3000, seed=1)
    assert result["trials"] == 3000 == sum(result["by_corruption"].values())
    assert result["false_accepts"] == 0 and result["upper_95"] == 1e-3


def test_main_prints_json(capsys) -> None:
    assert bench.main(["--seconds", "0.01", "--false-accept", "500", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {"throughput", "false_accept"}


def test_main_prints_text(capsys) -> None:
    assert bench.main(["--seconds", "0.01"]) == 0
    assert "ratio" in capsys.readouterr().out
