"""./dev names no game: `./dev lint` type-checks the cartridges the registry's entry points
name (those whose package is in this repository), and any console script of the project runs
through it."""
from __future__ import annotations

import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

from bitbox_tools import lint_packages

ROOT = Path(__file__).resolve().parents[2]


def test_lint_checks_the_cartridges_of_this_repository_from_the_entry_points(monkeypatch):
    assert lint_packages.packages(ROOT)[:4] == ["bitbox", "firmware_protocol", "bitbox_config", "bitbox_tools"]
    assert {"outspeed", "lastonealive"} <= set(lint_packages.packages(ROOT))      # installed, from the entry points
    fake = {"bitbox.games": [EntryPoint("tutorial", "tests.tutorial.goofspiel:CARTRIDGE", "bitbox.games"),
                             EntryPoint("elsewhere", "json:JSONDecoder", "bitbox.games")],   # not in the repository
            "bitbox.research": []}
    monkeypatch.setattr(lint_packages, "entry_points", lambda group: fake[group])
    assert lint_packages.packages(ROOT) == ["bitbox", "firmware_protocol", "bitbox_config", "bitbox_tools", "tests"]


def dev(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(ROOT / "dev"), *args], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "BITBOX_VENV": sys.prefix,
                               "XDG_DATA_HOME": str(tmp_path / "data")})


def test_dev_runs_any_console_script_of_the_project_and_nothing_else(tmp_path):
    r = dev(["bitbox", "games"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert {line.split()[0] for line in r.stdout.splitlines() if line.strip()} >= {"outspeed", "lastonealive"}
    r = dev(["rm", "-rf", "x"], tmp_path)                  # a program of the venv that is not the project's
    assert r.returncode == 2 and r.stderr.startswith("usage: ./dev play")
    r = dev([], tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("usage: ./dev play")
