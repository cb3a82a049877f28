"""Issue 21, item 8: a simulate run owns its --out folder. Into a folder holding an earlier run
of the same command, the new run replaces every file of the earlier one (no chart of it is
left beside the new ones); a folder holding anything else (another command's run, a file of
the user's) is refused in one line and left untouched; the charts are named alike by every
command. Real `outspeed`, `lastonealive` and `bitbox` simulate subprocesses, real folders (the
console's plain run on the tutorial game, tests/tutorial/goofspiel.py: `bitbox simulate outspeed`
is `outspeed simulate`, the same run and the same owner)."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# Its module fixture (real games, real runs) is made once: under pytest-xdist the file runs on one worker.
pytestmark = pytest.mark.xdist_group("simulate-out-folder")

COMMANDS = {
    "outspeed simulate": [sys.executable, "-m", "outspeed.cli", "simulate", "--players", "3", "--bots", "random"],
    "lastonealive simulate": [sys.executable, "-m", "lastonealive.cli", "simulate", "--players", "3",
                              "--bots", "random"],
    "bitbox game goofspiel simulate": [sys.executable, "-m", "bitbox.cli", "simulate", "goofspiel", "--players", "3",
                                       "--bots", "random"],
}
TUTORIAL = Path(__file__).resolve().parents[1] / "tutorial"
ENV = {**os.environ, "BITBOX_GAMES": "goofspiel=goofspiel:CARTRIDGE",     # the tutorial game on the shelf
       "PYTHONPATH": os.pathsep.join([str(TUTORIAL), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}


def simulate(command: str, out: Path, games: int = 3) -> subprocess.CompletedProcess:
    return subprocess.run(COMMANDS[command] + ["--games", str(games), "--seed", "1", "--quiet", "--out", str(out)],
                          cwd=out.parent, capture_output=True, text=True, timeout=300, env=ENV)


def listing(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """One run of each command into a folder of its own (copied by each test)."""
    base = tmp_path_factory.mktemp("runs")
    out = {}
    for command in COMMANDS:
        folder = base / command.replace(" ", "-")
        r = simulate(command, folder)
        assert r.returncode == 0, r.stderr
        out[command] = folder
    return out


def copy_run(runs: dict[str, Path], command: str, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    shutil.copytree(runs[command], out)
    return out


@pytest.mark.parametrize("command", list(COMMANDS))
def test_each_run_records_its_command_and_files_and_names_its_chart_alike(runs, command):
    listed = sorted(p.name for p in runs[command].iterdir())
    run = json.loads((runs[command] / "results.json").read_text(encoding="utf-8"))["run"]
    assert run == {"command": command, "files": listed}
    assert "win_rate.png" in listed                              # one name for the win-rate chart


def test_a_second_run_replaces_the_first_and_leaves_nothing_of_it(runs, tmp_path):
    command = "outspeed simulate"
    out = copy_run(runs, command, tmp_path)
    first = listing(out)
    # an earlier run that wrote a chart this one does not (another version, other options)
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    data["run"]["files"].append("old-chart.png")
    (out / "results.json").write_text(json.dumps(data), encoding="utf-8")
    (out / "old-chart.png").write_bytes(b"\x89PNG earlier run")
    r = simulate(command, out, games=4)
    assert r.returncode == 0, r.stderr
    second = listing(out)
    assert set(second) == set(first)                             # old-chart.png is gone, nothing else left
    assert json.loads((out / "results.json").read_text(encoding="utf-8"))["games"] == 4


@pytest.mark.parametrize("what", ["another command's run", "a file of the user's", "an earlier run and a file"])
def test_a_folder_that_is_not_an_earlier_run_of_the_command_is_refused_untouched(runs, tmp_path, what):
    if what == "another command's run":
        out = copy_run(runs, "lastonealive simulate", tmp_path)
    elif what == "a file of the user's":
        out = tmp_path / "out"
        out.mkdir()
        (out / "notes.txt").write_text("mine\n")
    else:
        out = copy_run(runs, "outspeed simulate", tmp_path)
        (out / "notes.txt").write_text("mine\n")
    before = listing(out)
    r = simulate("outspeed simulate", out)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "--out" in lines[0] and "Traceback" not in r.stderr, r.stderr
    assert lines[0].startswith("outspeed simulate: ") and r.stdout == ""
    assert listing(out) == before
