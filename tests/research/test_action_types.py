"""Issue 21, item 5: an action that is not an integer is refused (docs/research.md, "Actions"),
however close it is to a legal one: the text "9", numpy.float32(9.9), 9.0, True. Integers of
every kind numpy and Python have (int, numpy.int64, a 0-d integer array) are actions."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra is installed by ./dev test")

from bitbox.research import aec_env, parallel_env  # noqa: E402

GAMES = [("outspeed", 4), ("lastonealive", 3)]


def not_integers(legal: int) -> list[object]:
    """Each would be taken as ``legal`` by int()."""
    return [str(legal), np.float32(legal + 0.9), float(legal), np.float64(legal), np.str_(str(legal)),
            *([True, np.bool_(True)] if legal == 1 else []), [legal], b"%d" % legal]


@pytest.mark.parametrize("game,players", GAMES)
def test_the_aec_env_refuses_an_action_that_is_not_an_integer(game, players):
    env = aec_env(game, players)
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    legal = [int(a) for a in np.flatnonzero(mask)]
    before = env.table.game.to_data()
    for action in (bad for a in legal[:3] for bad in not_integers(a)):
        env.step(action)
        refused = env.infos[agent].get("refused", "")
        assert "not an integer" in refused and "\n" not in refused, (action, refused)
        assert env.agent_selection == agent and env.table.game.to_data() == before
    env.step(np.array(legal[0]))                    # a 0-d integer array is an integer
    assert "refused" not in env.infos.get(agent, {})


@pytest.mark.parametrize("game,players", GAMES)
@pytest.mark.parametrize("kind", [str, np.float32, float])
def test_the_parallel_env_refuses_an_action_that_is_not_an_integer(game, players, kind):
    env = parallel_env(game, players)
    obs, _ = env.reset(seed=5)
    acting = [a for a in env.agents if env.prompt(a) is not None]
    data = env.table.game.to_data()
    legal = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents}
    bad = {a: kind(legal[a]) if kind is not np.float32 else np.float32(legal[a] + 0.9) for a in env.agents}
    _, _, _, _, infos = env.step(bad)
    for a in acting:
        assert "not an integer" in infos[a].get("refused", ""), infos[a]
    assert env.table.game.to_data() == data and not env.table.pending
    _, _, _, _, infos = env.step({a: np.int64(v) for a, v in legal.items()})    # numpy integers are actions
    assert not any("refused" in infos[a] for a in acting), infos
