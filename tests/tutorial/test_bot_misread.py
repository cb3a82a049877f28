"""A table of bots whose game's controls misread the wheels the bots turn (docs/games.md,
Step 3: ``read`` must give back what ``wheels_for`` gives; ``bitbox games --check`` says so):
the bot's answer is refused again and again. The table stops with one line naming the
player, the answer, the wheels and the check to run (exit 2, the game kept for --resume),
where it locked and unlocked for ever without a word. The tutorial game, its controls'
``read`` off by one card; with its own controls the same table plays to the end."""
from __future__ import annotations

from typing import Any

import pytest

from bitbox.cli import main


def _misread_cartridge() -> Any:
    from goofspiel import Controls, GoofspielCartridge

    class OffByOne(Controls):
        def read(self, prompt: Any, wheels: tuple[int, int, int]) -> Any:
            return wheels[0] + 100                  # never a card in hand: refused as not_in_hand

    class Misread(GoofspielCartridge):
        name = "misread"
        controls = OffByOne()

    return Misread()


def __getattr__(name: str) -> Any:                  # the registry imports MISREAD from this module
    if name == "MISREAD":
        return _misread_cartridge()
    raise AttributeError(name)


@pytest.fixture(autouse=True)
def on_the_shelf(monkeypatch, tmp_path):
    monkeypatch.setenv("BITBOX_GAMES", "goofspiel=goofspiel:CARTRIDGE,misread=test_bot_misread:MISREAD")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


def play(game: str, tmp_path: Any) -> int:
    return main(["game", game, "play", "--bots", "2", "--headless", "--speed", "0", "--seed", "3", "--cards", "3",
                 "--size", "320x180", "--journal", str(tmp_path / "j.sqlite"), "--snapshots", str(tmp_path / "s")])


@pytest.mark.timeout(60)                             # without the stop it locked for ever
def test_a_bot_whose_answer_the_controls_misread_stops_the_table_in_one_line(tmp_path, capsys):
    assert play("misread", tmp_path) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == ("bitbox game misread play: red's bot answered 1 to 'bid' with the wheels at (1, 0, 0), "
                       "refused 3 times (code.not_in_hand): the game's controls do not read back the wheels they "
                       "give for an answer (bitbox games --check misread)")
    assert main(["game", "misread", "history", "--journal", str(tmp_path / "j.sqlite")]) == 0
    assert "unfinished" in capsys.readouterr().out                  # kept: --resume continues it


def test_the_same_table_with_the_games_controls_plays_to_the_end(tmp_path, capsys):
    assert play("goofspiel", tmp_path) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith(("Winner", "Winners", "No winner"))
