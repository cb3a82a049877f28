"""The tutorial game (goofspiel.py, docs/games.md) on the console's shelf for these tests: the
registry reads ``BITBOX_GAMES`` (and the research environments ``BITBOX_RESEARCH``), and the module is importable from this folder (also in the
subprocesses the tests start)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def tutorial_on_the_shelf(monkeypatch):
    monkeypatch.setenv("BITBOX_GAMES", "goofspiel=goofspiel:CARTRIDGE")
    monkeypatch.setenv("BITBOX_RESEARCH", "goofspiel=goofspiel_research:encoding")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    monkeypatch.syspath_prepend(str(HERE))
    yield
    sys.modules.pop("goofspiel", None)
    sys.modules.pop("goofspiel_research", None)
