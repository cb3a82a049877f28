"""`./dev NAME ...` for a game installed from elsewhere (here the tutorial game, on the shelf by
BITBOX_GAMES): ./dev runs only this project's scripts (docs/games.md, Step 5), so it refuses,
and says how that game's commands run: `./dev bitbox game NAME ...`."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def dev(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "BITBOX_VENV": sys.prefix,
           "XDG_DATA_HOME": str(tmp_path / "data"), "BITBOX_GAMES": os.environ["BITBOX_GAMES"],
           "PYTHONPATH": os.environ["PYTHONPATH"]}
    return subprocess.run([str(ROOT / "dev"), *args], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env=env)


def test_dev_names_the_consoles_command_for_a_game_from_elsewhere(tmp_path):
    r = dev(["goofspiel", "history"], tmp_path)
    usage, hint = r.stderr.splitlines()
    assert r.returncode == 2 and usage.startswith("usage: ./dev play") and r.stdout == ""
    assert hint.startswith("dev: goofspiel is a game installed from elsewhere, not a command of this project: "
                           "./dev bitbox game goofspiel history ...")
    r = dev(["nosuchgame"], tmp_path)                                       # not a game: the usage alone
    assert r.returncode == 2 and r.stderr.splitlines() == [usage]
