"""Every frame a table saves is the table after the events it shows, for every game: Outspeed,
Last One Alive and the tutorial game, played headless by bots through the console's play flow.
At each snapshot the drawn view is the engine's view at that moment (no event applied but not
yet shown, none shown but not drawn), and the last frame of a finished game names the winners."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bitbox.table.app import TableLoop


class Recorded(list):
    """A session's milestones, each with the engine's view at the moment it was made."""

    def __init__(self, session, engine: dict[int, str]) -> None:
        super().__init__()
        self.session = session
        self.engine = engine

    def append(self, item) -> None:
        self.engine[id(item[2])] = json.dumps(self.session.game.public_view(), sort_keys=True, default=str)
        super().append(item)


def capture(monkeypatch) -> list[dict]:
    frames: list[dict] = []
    engine: dict[int, str] = {}
    init = TableLoop.__init__

    def start(self, session, *args, **kwargs):
        init(self, session, *args, **kwargs)
        session.milestones = Recorded(session, engine)
        take = session.take_milestones

        def take_recorded():
            out = take()
            session.milestones = Recorded(session, engine)
            return out
        session.take_milestones = take_recorded

    def snapshot(self, display, name, table=None):
        view = table.view.get("game", table.view) if "game" in table.view else table.view
        frames.append({"name": name, "drawn": json.dumps(view, sort_keys=True, default=str),
                       "engine": engine[id(table)], "stage": table.stage,
                       "finished": bool(self.session.game.finished), "winners": list(table.view.get("winners") or []),
                       "prompt": table.prompt})
    monkeypatch.setattr(TableLoop, "__init__", start)
    monkeypatch.setattr(TableLoop, "_snapshot", snapshot)
    return frames


def check(frames: list[dict]) -> None:
    assert len(frames) >= 3
    for f in frames:
        assert f["drawn"] == f["engine"], f"{f['name']} lags the game: it is not the table after its events"
    last = frames[-1]
    assert last["finished"] and last["stage"] == "finished"
    assert last["winners"], "the last frame names the winners"


def test_outspeed_frames(monkeypatch, tmp_path):
    from bitbox.table.command import CartridgeTable
    from bitbox.table.play import PlayRequest, play
    from outspeed.cartridge import CARTRIDGE
    frames = capture(monkeypatch)
    code = play(CartridgeTable(CARTRIDGE, "outspeed"),
                PlayRequest(players=3, bots=3, seed=4, headless=True, speed=0, journal=str(tmp_path / "j.sqlite"),
                            snapshots=str(tmp_path / "s"), size=(320, 180), out=io.StringIO()))
    assert code == 0
    check(frames)


@pytest.mark.parametrize("variant", [(), ("survivors",)])
def test_last_one_alive_frames(monkeypatch, tmp_path, variant):
    from bitbox.table.command import CartridgeTable
    from bitbox.table.play import PlayRequest, play
    from lastonealive.cartridge import CARTRIDGE
    frames = capture(monkeypatch)
    code = play(CartridgeTable(CARTRIDGE, "lastonealive"),
                PlayRequest(players=3, bots=3, seed=8, headless=True, speed=0, journal=str(tmp_path / "j.sqlite"),
                            snapshots=str(tmp_path / "s"), size=(320, 180), options={v: True for v in variant},
                            out=io.StringIO()))
    assert code == 0
    check(frames)
    assert frames[-1]["prompt"][0] == "prompt.finished"          # not "…"


def test_tutorial_game_frames(monkeypatch, tmp_path):
    import sys
    here = Path(__file__).resolve().parents[1] / "tutorial"
    monkeypatch.syspath_prepend(str(here))
    monkeypatch.setenv("BITBOX_GAMES", "goofspiel=goofspiel:CARTRIDGE")
    from bitbox.games import find
    from bitbox.table.command import run
    frames = capture(monkeypatch)
    code = run(find("goofspiel"), ["play", "--headless", "--players", "3", "--seed", "2", "--journal",
                                   str(tmp_path / "j.sqlite"), "--snapshots", str(tmp_path / "s"), "--size", "320x180"],
               "bitbox game goofspiel")
    sys.modules.pop("goofspiel", None)
    assert code == 0
    check(frames)
