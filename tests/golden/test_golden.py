"""Golden replay: games recorded with the engine (``record.py``) replay byte for byte.

For each recorded game the test builds the game from its setup, feeds the recorded inputs
one step at a time, and compares, after every step, the whole state (``to_data()``), the
public view and every event (its data and its English text) with the recording, as
canonical JSON strings. Any change in what a game does for the same seed and inputs fails
here, at the first step that differs.
"""
from __future__ import annotations

import gzip
import json

import pytest

from outspeed.rules import Choice, EventKind, Game, parse_tile

from .record import FILE, canonical

DATA = json.loads(gzip.decompress(FILE.read_bytes()))


def _tiles(dice):
    return [parse_tile(t, "golden game", dice=tuple(dice), require_faces=(), max_number=None)
            for t in DATA["tiles"]]


def test_the_recording_covers_the_cases_it_is_for():
    games = DATA["games"]
    assert sorted({len(g["setup"]["players"]) for g in games}) == [3, 4, 5, 6]
    assert {g["setup"]["token_mode"] for g in games} == {"virtual", "physical"}
    kinds = {json.loads(e)["kind"] for g in games for st in g["steps"] for e in st["events"]}
    for kind in (EventKind.ELIMINATED, EventKind.BOARD_LAID, EventKind.BOARD_REMOVED, EventKind.MARKER_PLACED,
                 EventKind.MARKERS_REMOVED, EventKind.DRAW, EventKind.FLIP, EventKind.GAME_OVER):
        assert kind in kinds
    assert any(c[1] is not None for g in games for st in g["steps"]
               if st["input"] and "program" in st["input"] for c in st["input"]["program"].values())
    assert any(st["input"] and "keep" in st["input"] for g in games for st in g["steps"])


@pytest.mark.parametrize("index", range(len(DATA["games"])))
def test_a_recorded_game_replays_byte_for_byte(index):
    record = DATA["games"][index]
    setup = record["setup"]
    game = Game.new(setup["players"], _tiles(setup["dice"]), seed=setup["seed"],
                    first_game=setup["first_game"], dice=setup["dice"],
                    token_counts=setup["token_counts"], markers=setup["markers"],
                    token_mode=setup["token_mode"])
    for n, step in enumerate(record["steps"]):
        inp = step["input"]
        if inp is None:
            events = []
        elif "bonus" in inp:
            events = game.play_bonus(inp["bonus"])
        elif "program" in inp:
            events = game.program({p: Choice(path, number) for p, (path, number) in inp["program"].items()})
        else:
            player, token = inp["keep"]
            events = game.keep(player, token)
        where = f"game {index} step {n} ({inp})"
        assert [e.text() for e in events] == step["texts"], where
        assert [canonical(e.to_data()) for e in events] == step["events"], where
        assert canonical(game.public_view()) == step["view"], where
        assert canonical(game.to_data()) == step["state"], where
    assert game.finished
