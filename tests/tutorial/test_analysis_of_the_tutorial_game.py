"""Post-game analysis, a game file carrying it, and standings for a game that brings only its
rules and cartridge (the tutorial game): the console's commands, in real subprocesses on a
real journal."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .test_console_table import PY, env, run


def bitbox(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "bitbox.cli", *args], cwd=tmp_path, env=env(tmp_path), capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_analyse_export_with_it_and_standings(tmp_path: Path) -> None:
    journal = str(tmp_path / "j.sqlite")
    played = run(["play", "--players", "3", "--bots", "random", "--headless", "--speed", "0", "--seed", "4",
                  "--cards", "4", "--journal", journal, "--snapshots", str(tmp_path / "s"), "-q"], tmp_path)
    assert played.returncode == 0, played.stderr

    r = run(["analyse", "1", "--journal", journal, "--rollouts", "4", "--out", "a", "-q"], tmp_path)
    assert r.returncode == 0, r.stderr
    data = json.loads((tmp_path / "a" / "analysis.json").read_text())
    assert data["game"] == "goofspiel" and data["id"] == 1 and data["turns"][-1]["final"]
    assert len(data["turns"]) >= 2 and (tmp_path / "a" / "win-chance.png").stat().st_size > 0
    same = bitbox(["analyse", "goofspiel", "1", "--journal", journal, "--rollouts", "4", "--out", "b", "-q"], tmp_path)
    assert same.returncode == 0, same.stderr
    assert json.loads((tmp_path / "b" / "analysis.json").read_text())["turns"] == data["turns"]   # same seed

    r = run(["export", "1", "game.json", "--analysis", "a", "--journal", journal], tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "game.json").read_text())["analysis"] == data
    r = run(["import", "game.json", "--journal", str(tmp_path / "k.sqlite")], tmp_path)
    assert r.returncode == 0 and "imported as game 1" in r.stdout, r.stderr
    assert "its analysis" in r.stderr and "was checked" in r.stderr

    r = bitbox(["standings", "--journal", journal, "--json"], tmp_path)
    assert r.returncode == 0, r.stderr
    table = json.loads(r.stdout)
    assert "goofspiel" in json.dumps(table)                  # the tutorial game has its standing (bots apart)
