"""`bitbox simulate GAME --out DIR` of a cartridge with no `simulation` member (the tutorial
game, tests/tutorial/goofspiel.py: Outspeed and Last One Alive give their own statistics):
results.json (every rate with its Wilson interval), games.csv (a row per game, the same for any
--workers) and a chart. Real subprocesses, the CSV read back and checked against results.json,
the chart's pixels."""
from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

BITBOX = [sys.executable, "-m", "bitbox.cli"]
TUTORIAL = Path(__file__).resolve().parents[1] / "tutorial"
# the tutorial game on the console's shelf (as tests/tutorial/conftest.py puts it)
ENV = {**os.environ, "BITBOX_GAMES": "goofspiel=goofspiel:CARTRIDGE",
       "PYTHONPATH": os.pathsep.join([str(TUTORIAL), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}


def simulate(tmp_path, name: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(BITBOX + ["simulate", *extra, "--out", name, "-q"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env=ENV)


@pytest.mark.heavy
@pytest.mark.parametrize("game,players,bots", [("goofspiel", "3", "random"), ("goofspiel", "3", "high,random")])
def test_out_writes_results_games_csv_and_a_chart(tmp_path, game, players, bots):
    r = simulate(tmp_path, "one", game, "--games", "14", "--players", players, "--bots", bots)
    assert r.returncode == 0, r.stderr
    assert "charts and data written to one/: results.json, timing.json, games.csv, win_rate.png" in r.stdout
    data = json.loads((tmp_path / "one" / "results.json").read_text(encoding="utf-8"))
    assert data["game"] == game and data["games"] == 14 and data["players"] == 3
    assert [s["seat"] for s in data["seats"]] == [1, 2, 3] and data["seats"][0]["colour"] == "red"
    for row in data["seats"] + data["bots_rates"]:
        low, high = row["win_rate_ci95"]
        assert low <= row["win_rate"] <= high
        assert row["win_rate_small_sample"] is (row["win_rate_n"] < 30)     # a seat over 14 games: flagged
    with open(tmp_path / "one" / "games.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [int(x["game"]) for x in rows] == list(range(14))
    assert set(rows[0]) == {"game", "seed", "players", "seat1_bot", "seat2_bot", "seat3_bot", "winners",
                            "winner_colours", "prompts"}
    for k, seat in enumerate(data["seats"], start=1):       # the CSV's wins add up to results.json's rates
        wins = sum(1 / len(x["winners"].split()) for x in rows if str(k) in x["winners"].split())
        assert wins / 14 == pytest.approx(seat["win_rate"])
    image = pygame.image.load(str(tmp_path / "one" / "win_rate.png"))
    assert image.get_width() > 500
    colours = {tuple(image.get_at((x, y)))[:3] for x in range(0, image.get_width(), 7)
               for y in range(0, image.get_height(), 7)}
    assert len(colours) > 10                                 # bars, text and marks, not a blank page

    two = simulate(tmp_path, "two", game, "--games", "14", "--players", players, "--bots", bots, "--workers", "2")
    assert two.returncode == 0, two.stderr
    assert (tmp_path / "two" / "games.csv").read_bytes() == (tmp_path / "one" / "games.csv").read_bytes()
    # results.json holds nothing about how the run went: the same bytes on 2 workers
    assert (tmp_path / "two" / "results.json").read_bytes() == (tmp_path / "one" / "results.json").read_bytes()
    timing = [json.loads((tmp_path / d / "timing.json").read_text(encoding="utf-8")) for d in ("one", "two")]
    assert [t["workers"] for t in timing] == [1, 2] and all(t["seconds"] > 0 for t in timing)


def test_out_that_is_a_file_is_one_line(tmp_path):
    (tmp_path / "taken").write_text("x")
    r = simulate(tmp_path, "taken", "outspeed", "--games", "3")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == "bitbox simulate: --out taken exists and is not a directory"
