"""What the environments remember across steps and games (bitbox.research.table: the ids and
masks of a prompt found again by its options' identities or, for a new game's equal options,
by their values; the views and public part kept until the next apply) never changes what an
agent is handed: a table that has played other games first gives, step for step, the same
observations and masks as a fresh one."""
from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra is installed by ./dev test")

from bitbox.research import aec_env, parallel_env  # noqa: E402


def _play_parallel(env, seed: int, actions: list | None) -> tuple[list, list]:
    """One game (the actions given, else drawn under the mask); (what was handed out, actions)."""
    rng = random.Random(seed)
    obs, _ = env.reset(seed=seed)
    handed, taken = [obs], []
    while env.agents:
        step = actions[len(taken)] if actions is not None else \
            {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        taken.append(step)
        obs, *_ = env.step(step)
        handed.append(obs)
    return handed, taken


def _play_aec(env, seed: int, actions: list | None) -> tuple[list, list]:
    rng = random.Random(seed)
    env.reset(seed=seed)
    handed, taken = [], []
    for _ in env.agent_iter():
        ob, _, term, trunc, _ = env.last()
        handed.append(ob)
        if term or trunc:
            action = None
        elif actions is not None:
            action = actions[len(taken)]
        else:
            action = int(rng.choice(np.flatnonzero(ob["action_mask"])))
        taken.append(action)
        env.step(action)
    return handed, taken


def _same(a, b) -> None:
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
    else:
        assert a.dtype == b.dtype and np.array_equal(a, b)


@pytest.mark.parametrize("game,players,kind", [("outspeed", 4, "parallel"), ("lastonealive", 3, "aec"),
                                               ("outspeed", 3, "aec"), ("lastonealive", 2, "parallel")])
def test_a_table_that_played_before_hands_out_what_a_fresh_one_does(game, players, kind):
    make, play = (parallel_env, _play_parallel) if kind == "parallel" else (aec_env, _play_aec)
    used = make(game, players)
    for seed in range(3):                           # other games first: their prompts remembered
        play(used, seed, None)
    handed, taken = play(used, 7, None)
    fresh, _ = play(make(game, players), 7, taken)
    assert len(handed) == len(fresh) > 3
    for a, b in zip(handed, fresh):
        _same(a, b)
