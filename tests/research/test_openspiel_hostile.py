"""Hostile input to the OpenSpiel games (red team): a tampered serialised state is one
SpielError line and never runs anything (pyspiel's default for a Python game unpickled it);
a player count out of range is said as given."""
from __future__ import annotations

import base64
import json
import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
bos = pytest.importorskip("bitbox.research.openspiel")

from bitbox.games import GameError  # noqa: E402


class _Runs:
    """Unpickling it would append to RAN (what a hostile state string would do with os.system)."""

    def __reduce__(self):
        return (RAN.append, ("ran",))


RAN: list[str] = []


def _played(game, moves: int, seed: int = 2):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_a_pickled_state_string_is_refused_and_never_run():
    game = pyspiel.load_game("bitbox_lastonealive", {"players": 3, "seed": 3})
    evil = "history=0\nmove_number=1\n__dict__=" + base64.b64encode(pickle.dumps({"x": _Runs()})).decode()
    with pytest.raises(pyspiel.SpielError, match="^not a serialised bitbox_lastonealive state: not its JSON"):
        game.deserialize_state(evil)
    assert RAN == []


def test_serialised_states_round_trip_also_resampled_ones():
    game = pyspiel.load_game("bitbox_lastonealive", {"players": 3, "seed": 3})
    state = _played(game, 20)
    text = state.serialize()
    assert json.loads(text)["format"] == bos.STATE_FORMAT
    back = game.deserialize_state(text)
    assert str(back) == str(state) and back.history() == state.history()
    assert back.information_state_string(0) == state.information_state_string(0)
    world = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    again = game.deserialize_state(world.serialize())
    assert str(again) == str(world)
    assert [again.information_state_string(p) for p in range(3)] == [world.information_state_string(p) for p in range(3)]


def _edit(text: str, edit) -> str:
    data = json.loads(text)
    edit(data)
    return json.dumps(data)


@pytest.mark.parametrize("what,edit,says", [
    ("seed", lambda d: d.__setitem__("seed", -1), "its seed -1 is not a whole number"),
    ("move", lambda d: d["history"].__setitem__(0, 10**6), "move 1, action 1000000, is not legal there"),
    ("count", lambda d: d.__setitem__("moves", 3), "its move count 3 is not the length"),
    ("field", lambda d: d.__setitem__("zz", 1), "its fields are not"),
    ("memory", lambda d: d.__setitem__("memory", 5), "its memory is not one"),
    ("game", lambda d: d["table"].__setitem__("data", {"a": 1}), "not a saved Last One Alive game"),
    ("selection", lambda d: d["table"].__setitem__("staged", {"red": [10**9]}), "a selection in progress"),
    ("answer", lambda d: d["table"].__setitem__("pending", {"red": {"zz": 1}}), "not a Last One Alive answer"),
])
def test_a_tampered_state_string_is_one_line(what, edit, says):
    game = pyspiel.load_game("bitbox_lastonealive", {"players": 3, "seed": 3})
    text = _played(game, 12).serialize()
    with pytest.raises(pyspiel.SpielError) as caught:
        game.deserialize_state(_edit(text, edit))
    message = str(caught.value)
    assert says in message and "\n" not in message, message


@pytest.mark.parametrize("text", ["", "[" * 100000, '{"format": NaN}', "x" * 100])
def test_junk_is_one_line(text):
    game = pyspiel.load_game("bitbox_outspeed", {"players": 3})
    with pytest.raises(pyspiel.SpielError, match="^not a serialised bitbox_outspeed state: [^\n]*$"):
        game.deserialize_state(text)


def test_a_negative_player_count_is_said_as_given():
    with pytest.raises(GameError, match="^Outspeed is for 3 to 6 players, not -1$"):
        pyspiel.load_game("bitbox_outspeed", {"players": -1})
