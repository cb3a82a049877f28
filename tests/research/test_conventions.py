"""The PettingZoo environments by PettingZoo's conventions: truncation (max_cycles), the two
render modes, the flat observation with the mask in infos (SuperSuit's observation wrappers
in a vector pipeline), the public state, the conversions, and the versioned makers."""
from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra is installed by ./dev test")

from pettingzoo.test import api_test, parallel_api_test  # noqa: E402
from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec, turn_based_aec_to_parallel  # noqa: E402

from bitbox.games import GameError, find  # noqa: E402
from bitbox.research import aec_env, env_ids, make, parallel_env  # noqa: E402

GAMES = [("outspeed", 4), ("lastonealive", 3)]


def _random_action(rng, mask):
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("game,players", GAMES)
def test_max_cycles_truncates_every_agent_after_n_steps(game, players):
    env = parallel_env(game, players, max_cycles=5)
    rng = random.Random(1)
    obs, _ = env.reset(seed=3)
    for step in range(1, 6):
        obs, rewards, terms, truncs, _ = env.step({a: _random_action(rng, obs[a]["action_mask"]) for a in env.agents})
        assert all(t == (step == 5) for t in truncs.values()) and not any(terms.values())
    assert env.agents == [] and set(rewards.values()) == {0.0}
    obs, _ = env.reset(seed=3)                                  # a reset starts the count again
    assert env.agents and env.cycles == 0

    aec = aec_env(game, players, max_cycles=7)
    aec.reset(seed=3)
    moves = 0
    for agent in aec.agent_iter():
        ob, reward, term, trunc, _ = aec.last()
        if term or trunc:
            assert trunc and not term and reward == 0.0
            aec.step(None)
            continue
        aec.step(_random_action(rng, ob["action_mask"]))
        moves += 1
    assert moves == 7 and aec.agents == []


def test_a_game_that_ends_first_terminates_and_is_not_truncated():
    env = parallel_env("outspeed", 3, max_cycles=10_000)
    rng = random.Random(2)
    obs, _ = env.reset(seed=4)
    while env.agents:
        obs, rewards, terms, truncs, _ = env.step({a: _random_action(rng, obs[a]["action_mask"]) for a in env.agents})
    assert all(terms.values()) and not any(truncs.values())


@pytest.mark.parametrize("bad", [0, -3, 2.5, "100", True])
def test_a_bad_max_cycles_is_one_line(bad):
    with pytest.raises(GameError, match="max_cycles must be") as err:
        parallel_env("outspeed", 3, max_cycles=bad)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("game,players", GAMES)
def test_render_modes_ansi_and_rgb_array(game, players):
    assert parallel_env(game, players).metadata["render_modes"] == ["ansi", "rgb_array"]
    assert aec_env(game, players).metadata["render_modes"] == ["ansi", "rgb_array"]
    env = parallel_env(game, players, render_mode="ansi")
    env.reset(seed=5)
    text = env.render()
    assert isinstance(text, str) and text.startswith(find(game).title + "\n")
    assert all(p in text for p in env.possible_agents)
    # the public table: a game redealt (hidden parts drawn again) renders the same text
    env.table.game = env.table.cartridge.redeal(env.table.game, 99)
    assert env.render() == text

    aec = aec_env(game, players, render_mode="rgb_array")
    aec.reset(seed=5)
    frame = aec.render()
    assert frame.shape == (540, 960, 3) and frame.dtype == np.uint8 and len(np.unique(frame.reshape(-1, 3), axis=0)) > 8
    rng = random.Random(0)
    for _ in range(12):
        aec.step(_random_action(rng, aec.observe(aec.agent_selection)["action_mask"]))
    assert not np.array_equal(aec.render(), frame)                # the table moved on
    assert parallel_env(game, players).render() is None            # no render mode: nothing


def test_the_text_frame_serves_a_game_without_a_display():
    from bitbox.research.render import Frames
    from outspeed.research import encoding

    class NoDisplay:                                               # an encoding that names no display
        display = None
    env = parallel_env("outspeed", 3)
    env.reset(seed=1)
    frame = Frames(NoDisplay()).frame(env.table.game.public_view(), "Outspeed")
    assert frame.shape == (540, 960, 3) and frame.max() > 200        # text drawn on the dark frame
    assert Frames(encoding()).display is not None


@pytest.mark.parametrize("bad", ["human", "rgb", 3])
def test_a_bad_render_mode_is_one_line(bad):
    for make_env in (parallel_env, aec_env):
        with pytest.raises(GameError, match="render_mode must be one of ansi, rgb_array or None") as err:
            make_env("lastonealive", 3, render_mode=bad)
        assert "\n" not in str(err.value)


@pytest.mark.parametrize("game,players", GAMES)
def test_the_flat_observation_and_the_mask_in_infos(game, players):
    env = parallel_env(game, players, flat=True)
    space = env.observation_space(env.possible_agents[0])
    assert type(space).__name__ == "Box" and space.shape == (env.table.encoding.observation_size + env.table.n_actions,)
    obs, infos = env.reset(seed=6)
    rng = random.Random(6)
    for _ in range(30):
        if not env.agents:
            break
        for a in env.agents:
            assert space.contains(obs[a])
            assert np.array_equal(infos[a]["action_mask"], env.table.mask(a))
            assert np.array_equal(env.action_mask(a), infos[a]["action_mask"])
        first = next(a for a in env.agents if env.prompt(a) is not None)
        assert np.array_equal(env.action_mask(), env.table.mask(first))
        obs, _, _, _, infos = env.step({a: _random_action(rng, infos[a]["action_mask"]) for a in env.agents})
        assert not any("refused" in i for i in infos.values())

    aec = aec_env(game, players, flat=True)
    aec.reset(seed=6)
    for agent in aec.agent_iter(60):
        _, _, term, trunc, info = aec.last()
        if term or trunc:
            aec.step(None)
            continue
        assert np.array_equal(aec.action_mask(), info["action_mask"])
        aec.step(_random_action(rng, aec.action_mask()))


@pytest.mark.parametrize("game,players", GAMES)
def test_pettingzoos_api_tests_pass_with_the_flat_observation(game, players):
    parallel_api_test(parallel_env(game, players, flat=True, max_cycles=150), num_cycles=200)
    api_test(aec_env(game, players, flat=True, max_cycles=150), num_cycles=200)


@pytest.mark.parametrize("game,players", GAMES)
def test_a_supersuit_vector_pipeline_with_observation_wrappers(game, players):
    supersuit = pytest.importorskip("supersuit", reason="in the research extra")
    stack = 3
    env = parallel_env(game, players, flat=True, max_cycles=40)
    size = env.observation_space("red").shape[0]
    env = supersuit.dtype_v0(env, np.float32)
    env = supersuit.normalize_obs_v0(env, env_min=0.0, env_max=1.0)
    env = supersuit.frame_stack_v1(env, stack)
    venv = supersuit.concat_vec_envs_v1(supersuit.pettingzoo_env_to_vec_env_v1(env), 2, num_cpus=0,
                                        base_class="gymnasium")
    obs, infos = venv.reset(seed=1)
    assert obs.shape == (2 * players, size * stack) and obs.dtype == np.float32
    rng = random.Random(1)
    episodes = 0
    for _ in range(90):                                           # past the first truncation (auto reset)
        actions = np.array([_random_action(rng, i["action_mask"]) for i in infos])
        obs, rewards, terms, truncs, infos = venv.step(actions)
        assert obs.shape == (2 * players, size * stack) and 0.0 <= obs.min() and obs.max() <= 1.0
        assert not any("refused" in i for i in infos)
        episodes += int((terms | truncs).sum())
    assert episodes >= 2 * players
    venv.close()


def test_supersuits_black_death_wraps_the_flat_environment():
    supersuit = pytest.importorskip("supersuit", reason="in the research extra")
    env = supersuit.black_death_v3(parallel_env("lastonealive", 3, flat=True))
    obs, infos = env.reset(seed=2)
    rng = random.Random(2)
    steps = 0
    while not env.unwrapped.table.finished:                       # every agent stays until the game ends
        obs, rewards, *_, infos = env.step({a: _random_action(rng, infos[a]["action_mask"]) for a in env.agents})
        assert set(obs) == {"red", "blue", "green"} and all(o.shape == (env.unwrapped.table.encoding.observation_size
                                                                       + env.unwrapped.table.n_actions,)
                                                             for o in obs.values())
        steps += 1
    assert steps > 5 and sum(rewards.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("game,players", GAMES)
def test_the_public_state_hides_every_secret(game, players):
    env = parallel_env(game, players)
    with pytest.raises(GameError, match="reset"):
        env.state()
    obs, _ = env.reset(seed=8)
    rng = random.Random(8)
    for _ in range(20):
        obs, *_ = env.step({a: _random_action(rng, obs[a]["action_mask"]) for a in env.agents})
    state = env.state()
    assert env.state_space.contains(state) and state.any()
    table = env.table
    for seed in range(5):                                          # hidden parts drawn again: the same state
        table.game = table.cartridge.redeal(table.game, seed)
        assert np.array_equal(env.state(), state)
    aec = aec_env(game, players)
    aec.reset(seed=8)
    assert aec.state_space.contains(aec.state())


@pytest.mark.parametrize("game,players", GAMES)
def test_the_conversions(game, players):
    aec = aec_env(game, players)
    assert aec.metadata["is_parallelizable"] is False            # one agent at a time, not a cycle
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(aec)
    parallel_api_test(turn_based_aec_to_parallel(aec_env(game, players, flat=True)), num_cycles=100)
    api_test(parallel_to_aec(parallel_env(game, players)), num_cycles=100)


def test_the_versioned_makers():
    import bitbox.research as research
    from bitbox.research import lastonealive_v0, outspeed_v0
    from bitbox.research.envs import GameAECEnv, GameParallelEnv
    assert env_ids() == ["lastonealive_v0", "outspeed_v0"]
    env = outspeed_v0.env()
    assert isinstance(env, GameAECEnv) and env.metadata["name"] == "outspeed_v0" and len(env.possible_agents) == 4
    par = lastonealive_v0.parallel_env(players=5, max_cycles=9, render_mode="ansi")
    assert isinstance(par, GameParallelEnv) and par.metadata["name"] == "lastonealive_v0"
    assert len(par.possible_agents) == 5 and par.max_cycles == 9
    assert isinstance(outspeed_v0.raw_env(players=3), GameAECEnv)
    assert isinstance(make("outspeed_v0", parallel=True, flat=True), GameParallelEnv)
    with pytest.raises(GameError, match="no environment called 'chess_v0'"):
        make("chess_v0")
    with pytest.raises(AttributeError):
        getattr(research, "chess_v0")


def test_a_plain_encoding_and_a_game_without_private_views_give_the_same_features():
    """The fast path (one public view for every agent, the public part encoded once) and the
    plain one (each agent's private view, each encoded whole) agree."""
    from bitbox.research import Table
    from bitbox.research.encoding import EncodingBase

    class Plain(EncodingBase):                                     # the same encoding, observed whole
        def __init__(self, inner):
            self.inner, self.names = inner, inner.names
            self.observation_size, self.observation_high = inner.observation_size, inner.observation_high

        def ids(self, prompt, option):
            return self.inner.ids(prompt, option)

        def observe(self, view, player, prompt):
            return self.inner.observe(view, player, prompt)

        def acting(self, game, prompts):
            return self.inner.acting(game, prompts)

    class NoPrivateViews:                                          # a game without the optional method
        def __init__(self, game):
            self._game = game

        def __getattr__(self, name):
            if name == "private_views":
                raise AttributeError(name)
            return getattr(self._game, name)

    for game, players in GAMES:
        fast = Table.of(game, players)
        plain = Table(fast.cartridge, Plain(fast.encoding), fast.players)
        rng = random.Random(3)
        fast.new_game(3)
        plain.new_game(3)
        for _ in range(25):
            if fast.finished:
                break
            plain.game = NoPrivateViews(fast.game)
            plain.acting, plain.staged = fast.acting, fast.staged
            want = plain.features_of(fast.players)
            got = fast.features_of(fast.players)
            assert all(np.array_equal(got[p], want[p]) for p in fast.players)
            for p in list(fast.acting)[:1]:
                fast.act(p, _random_action(rng, fast.mask(p)))
            fast.settle()
