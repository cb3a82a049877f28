"""How the environments make observations cheaply never changes what they are: the public part
is encoded once per phase applied, each agent's private part is added to it as a delta made
once per distinct entries, and every observation is a new array of its own. Checked against
a fresh encoding (remembering nothing) of each agent's private view, and ``legal_actions``
against the mask."""
from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra is installed by ./dev test")

from bitbox.research import aec_env, parallel_env  # noqa: E402
from lastonealive.research import LastOneAliveEncoding  # noqa: E402
from outspeed.research import OutspeedEncoding  # noqa: E402


def _fresh(env):
    """A new encoding like the environment's, remembering nothing: it encodes every part of
    the view from scratch."""
    enc = env.table.encoding
    if isinstance(enc, OutspeedEncoding):
        return OutspeedEncoding(enc.max_number)
    assert isinstance(enc, LastOneAliveEncoding)
    return LastOneAliveEncoding(env.table.cartridge.content.counts)


def _expected(env, agent, fresh=None) -> np.ndarray:
    """``agent``'s observation as a fresh encoding makes it from the private view, then the
    selection in progress (one count per action id)."""
    table = env.table
    fresh = fresh or _fresh(env)
    vec = np.zeros(fresh.observation_size + table.n_actions, dtype=np.float32)
    vec[:fresh.observation_size] = fresh.observe(table.game.private_view(agent), agent, table.prompt(agent))
    for k, n in table.selection(agent).items():
        vec[fresh.observation_size + k] = n
    return vec


@pytest.mark.parametrize("game,players", [("outspeed", 4), ("outspeed", 6), ("lastonealive", 3),
                                          ("lastonealive", 5)])
def test_parallel_observations_are_a_fresh_encodings_and_stay_as_handed_out(game, players):
    env = parallel_env(game, players)
    rng = random.Random(5)
    kept: list[tuple[np.ndarray, np.ndarray]] = []        # (observation handed out, its values then)
    steps = 0
    for seed in (11, 12):
        obs, _ = env.reset(seed=seed)
        while True:
            fresh = _fresh(env)                           # one a step: what it remembers is of this view
            for a in env.agents:
                got = obs[a]["observation"]
                assert got.dtype == np.float32 and got.flags.writeable
                np.testing.assert_array_equal(got, _expected(env, a, fresh))
                kept.append((got, got.copy()))
                legal = env.legal_actions(a)
                assert legal == tuple(int(k) for k in np.flatnonzero(obs[a]["action_mask"]))
                assert all(type(k) is int for k in legal)
            if not env.agents:
                break
            # An agent writing into its own observation changes no other agent's.
            first, second = env.agents[0], env.agents[1]
            before = obs[second]["observation"].copy()
            obs[first]["observation"][:] = 7.0
            np.testing.assert_array_equal(obs[second]["observation"], before)
            kept = [(o, o.copy() if o is obs[first]["observation"] else v) for o, v in kept]
            obs, *_ = env.step({a: rng.choice(env.legal_actions(a)) for a in env.agents})
            steps += 1
    assert steps > 20
    for o, values in kept:                                # nothing handed out earlier changed since
        np.testing.assert_array_equal(o, values)


@pytest.mark.parametrize("game,players", [("lastonealive", 4), ("outspeed", 3)])
def test_aec_observations_are_a_fresh_encodings(game, players):
    env = aec_env(game, players, flat=True)
    rng = random.Random(3)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    selections = 0
    for seed in (21, 22):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            ob, _, term, trunc, info = env.last()
            fresh = _fresh(env)
            np.testing.assert_array_equal(ob, _expected(env, agent, fresh))
            for other in env.agents:                      # every agent, not only the one to act
                np.testing.assert_array_equal(env.observe(other), _expected(env, other, fresh))
            kept.append((ob, ob.copy()))
            selections += bool(env.table.selection(agent))
            assert env.legal_actions() == env.legal_actions(agent) == \
                tuple(int(k) for k in np.flatnonzero(info["action_mask"]))
            env.step(None if term or trunc else rng.choice(env.legal_actions(agent)))
    if game == "lastonealive":
        assert selections > 0                             # composite answers chosen part by part
    for o, values in kept:
        np.testing.assert_array_equal(o, values)


def test_the_public_state_is_a_fresh_encodings():
    env = aec_env("lastonealive", 4)
    rng = random.Random(1)
    env.reset(seed=4)
    for agent in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        np.testing.assert_array_equal(env.state(), _fresh(env).state(env.table.game.public_view()))
        env.step(None if term or trunc else rng.choice(env.legal_actions(agent)))


def test_legal_actions_of_an_agent_with_no_prompt_is_no_op():
    env = parallel_env("outspeed", 6)
    rng = random.Random(2)
    env.reset(seed=2)
    idle = 0
    while env.agents:
        for a in env.possible_agents:
            legal = env.legal_actions(a)
            assert legal == tuple(int(k) for k in np.flatnonzero(env.action_mask(a)))
            if a not in env.table.acting:
                assert legal == (0,)
                idle += 1
        env.step({a: rng.choice(env.legal_actions(a)) for a in env.agents})
    assert idle > 0


@pytest.mark.parametrize("players,options", [
    (2, {"survivors": True, "zombified_rolls": True}), (3, {}),
    (4, {"day_night": True, "zombies_everywhere": True, "first_zombie": "first"}), (5, {"zombified_rolls": True})])
def test_last_one_alives_parts_from_the_game_are_its_views_parts(players, options):
    """The encoding's optional hooks (``public_part_of``, ``private_entries_of``: the parts
    written from the game itself, which the environments use) give, at every state of whole
    games, exactly what the parts encoded from the game's views give: value for value, entry
    for entry, in the same order. So they read nothing the views do not show."""
    from bitbox.research.table import Table
    table = Table.of("lastonealive", players, options)
    enc = table.encoding
    assert table._public_of is not None and table._entries_of is not None     # the environments use them
    rng = random.Random(players)
    states = 0
    for seed in range(4):
        table.new_game(seed)
        while True:
            game = table.game
            size = enc.observation_size + table.n_actions
            from_view, from_game = np.zeros(size, np.float32), np.zeros(size, np.float32)
            enc.public_part(game.public_view(), from_view)
            enc.public_part_of(game, from_game)
            assert from_view.tobytes() == from_game.tobytes()
            for p in table.players:
                prompt = table.prompt(p)
                want = enc.private_entries(game.private_view(p), p, prompt)
                got = enc.private_entries_of(game, p, prompt)
                assert list(got.items()) == list(want.items())
                assert [type(v) for v in got.values()] == [type(v) for v in want.values()]
            states += 1
            if table.finished:
                break
            agent = table.next_agent()
            table.act(agent, rng.choice(table.legal(agent)))
            table.settle()
    assert states > 40


def test_last_one_alives_part_from_another_game_goes_through_its_view():
    """A game that is not Last One Alive's engine behind its cartridge (here: a wrapper with
    only the protocol's views) is encoded from its views by the same hooks."""
    from bitbox.research.table import Table
    table = Table.of("lastonealive", 3)
    table.new_game(7)
    enc = table.encoding

    class Views:
        def __init__(self, game):
            self.public_view, self.private_view = game.public_view, game.private_view

    other = Views(table.game)
    size = enc.observation_size
    a, b = np.zeros(size, np.float32), np.zeros(size, np.float32)
    enc.public_part(table.game.public_view(), a)
    enc.public_part_of(other, b)
    np.testing.assert_array_equal(a, b)
    p = table.players[0]
    assert enc.private_entries_of(other, p, None) == enc.private_entries(table.game.private_view(p), p, None)
