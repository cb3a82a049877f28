"""Fixtures of the table's tests."""
from __future__ import annotations

from pathlib import Path

import pytest

TUTORIAL = Path(__file__).resolve().parents[1] / "tutorial"


@pytest.fixture
def table(monkeypatch, tmp_path):
    """A fresh state: no remembered choices, no journal; a virtual display the table believes
    in; the tutorial game on the shelf beside Outspeed and Last One Alive. Gives ``tmp_path``,
    the current folder."""
    monkeypatch.syspath_prepend(str(TUTORIAL))
    monkeypatch.setenv("BITBOX_GAMES", "goofspiel=goofspiel:CARTRIDGE")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("BITBOX_ASSUME_DISPLAY", "1")
    monkeypatch.setenv("BITBOX_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    return tmp_path
