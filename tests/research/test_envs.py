"""The PettingZoo environments: PettingZoo's own API and seeding tests on both games (each
game through both adapters), masks that are exactly the game's options, refusals that
change nothing, observations that hide what a player may not see, and seeds that deal the
cartridge's own game."""
from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra is installed by ./dev test")

from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402

from bitbox.games import find  # noqa: E402
from bitbox.research import aec_env, parallel_env  # noqa: E402
from bitbox.research.encoding import CONFIRM, NOOP  # noqa: E402

GAMES = [("outspeed", 4), ("lastonealive", 3)]


@pytest.mark.parametrize("game,players", GAMES)
def test_parallel_api(game, players):
    parallel_api_test(parallel_env(game, players), num_cycles=400)


@pytest.mark.parametrize("game,players", GAMES)
def test_aec_api(game, players):
    api_test(aec_env(game, players), num_cycles=200)


@pytest.mark.parametrize("game,players", GAMES)
def test_parallel_seeding(game, players):
    parallel_seed_test(lambda: parallel_env(game, players), num_cycles=100)


@pytest.mark.parametrize("game,players", GAMES)
def test_aec_seeding(game, players):
    seed_test(lambda: aec_env(game, players), num_cycles=100)


def _first_ids(table, agent):
    """The first id of every option of the agent's prompt (what the mask must allow)."""
    prompt = table.prompt(agent)
    return {k for o in prompt.options for k in table.encoding.ids(prompt, o)}


@pytest.mark.parametrize("game,players", GAMES + [("outspeed", 6), ("lastonealive", 5)])
def test_masks_are_the_options_and_random_play_ends(game, players):
    env = parallel_env(game, players)
    rng = random.Random(7)
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        while env.agents:
            table = env.table
            for agent in env.agents:
                mask = obs[agent]["action_mask"]
                assert env.observation_space(agent).contains(obs[agent])
                if table.prompt(agent) is None:
                    assert mask.tolist() == [1] + [0] * (len(mask) - 1)
                elif not table.selection(agent):
                    assert set(np.flatnonzero(mask)) == _first_ids(table, agent)
            actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
            obs, rewards, terms, _, infos = env.step(actions)
            assert not any("refused" in i for i in infos.values()), infos
        assert sum(rewards.values()) in (0.0, pytest.approx(1.0))


@pytest.mark.parametrize("game,players", GAMES)
def test_an_illegal_action_is_refused_and_changes_nothing(game, players):
    env = aec_env(game, players)
    env.reset(seed=11)
    for _ in range(8):                        # somewhere into the game
        agent = env.agent_selection
        env.step(env.action_space(agent).sample(env.observe(agent)["action_mask"]))
    assert not env.table.finished
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    before = (env.table.game.to_data(), dict(env.table.pending), Counter(env.table.selection(agent)))
    for bad in [NOOP, CONFIRM if not mask[CONFIRM] else NOOP, int(np.flatnonzero(mask == 0)[-1]), -1,
                len(mask), 10**9, "left", 2.0, None]:
        env.step(bad)
        assert env.agent_selection == agent
        refused = env.infos[agent].get("refused", "")
        assert refused and "\n" not in refused, bad
        assert (env.table.game.to_data(), dict(env.table.pending), Counter(env.table.selection(agent))) == before
    env.step(int(np.flatnonzero(mask)[0]))
    assert "refused" not in env.infos.get(agent, {})


def test_a_parallel_step_refuses_the_illegal_and_takes_the_legal():
    env = parallel_env("outspeed", 3)
    obs, _ = env.reset(seed=5)
    acting = [a for a in env.agents if env.prompt(a) is not None]
    assert len(acting) == 3                   # programming on turn 1: everyone at once
    data = env.table.game.to_data()
    bad = {a: int(np.flatnonzero(obs[a]["action_mask"] == 0)[-1]) for a in env.agents}
    obs, _, _, _, infos = env.step(bad)
    assert all("not legal now" in infos[a]["refused"] for a in env.agents)
    assert env.table.game.to_data() == data
    good = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents}
    good[acting[0]] = bad[acting[0]]
    obs, _, _, _, infos = env.step(good)
    assert set(infos[acting[0]]) == {"refused"} and all(not infos[a] for a in acting[1:])
    assert env.table.game.to_data() == data   # the phase waits for the last answer
    assert set(env.table.pending) == set(acting[1:])


def test_a_pending_answer_is_in_no_other_observation():
    """Outspeed's programming through the AEC adapter: red answers first; what blue and
    green see is the same whatever red chose."""
    seen = []
    for pick in (0, -1):
        env = aec_env("outspeed", 3)
        env.reset(seed=9)
        assert env.agent_selection == "red"
        mask = env.observe("red")["action_mask"]
        env.step(int(np.flatnonzero(mask)[pick]))
        assert env.agent_selection == "blue"
        seen.append([env.observe(a)["observation"] for a in ("blue", "green")])
    assert all(np.array_equal(x, y) for x, y in zip(*seen))


def test_the_bag_order_is_in_no_observation():
    env = aec_env("lastonealive", 4)
    env.reset(seed=3)
    for _ in range(15):
        agent = env.agent_selection
        env.step(env.action_space(agent).sample(env.observe(agent)["action_mask"]))
    before = {a: env.observe(a)["observation"] for a in env.agents}
    state = env.table.game.engine.state
    assert len(state.bag) > 2
    random.Random(1).shuffle(state.bag)
    env.table.game.engine.changed()
    assert all(np.array_equal(before[a], env.observe(a)["observation"]) for a in env.agents)


def test_outspeed_bonus_is_asked_zone_by_zone_front_to_back():
    env = parallel_env("outspeed", 5)
    rng = random.Random(2)
    seen_groups = 0
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        while env.agents:
            acting = [a for a in env.agents if env.prompt(a) is not None]
            if acting and env.prompt(acting[0]).kind == "bonus":
                zones = {p["player"]: p["zone"] for p in env.table.game.public_view()["players"]}
                waiting = [p.player for p in env.table.game.prompts()
                           if p.player not in env.table.pending and len(p.options) > 1]
                assert len({zones[a] for a in acting}) == 1
                assert all(zones[a] >= zones[w] for a in acting for w in waiting)
                seen_groups += 1
            actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
            obs, *_ = env.step(actions)
    assert seen_groups > 0


def test_outspeed_hidden_tokens_and_pile_order_are_in_no_observation():
    env = parallel_env("outspeed", 4)
    rng = random.Random(4)
    for seed in range(20):
        obs, _ = env.reset(seed=seed)
        while env.agents:
            state = env.table.game.engine.state
            holders = [p for p in env.agents if state.held[p]]
            if holders and len(state.pile) > 2:
                break
            obs, *_ = env.step({a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents})
        else:
            continue
        break
    else:
        pytest.fail("no game reached a held token")
    holder = holders[0]
    others = [a for a in env.agents if a != holder]
    before = {a: env.table.observation(a)["observation"] for a in others}
    state.pile.reverse()                                  # another pile order
    state.held[holder] = ["ion_cannon" if t != "ion_cannon" else "nitro" for t in state.held[holder]]
    assert all(np.array_equal(before[a], env.table.observation(a)["observation"]) for a in others)


@pytest.mark.parametrize("game,players", GAMES)
def test_reset_seed_deals_the_cartridges_game_and_replays(game, players):
    env = parallel_env(game, players)
    env.reset(seed=1234)
    cartridge = find(game)
    fresh = cartridge.new(env.possible_agents, 1234, {})
    while True:                               # answered for the players: nothing to decide
        prompts = fresh.prompts()
        if any(len(p.options) > 1 and p.context.get("auto") is not True for p in prompts):
            break
        fresh.apply({p.player: p.options[0] for p in prompts})
    assert env.table.game.to_data() == fresh.to_data()

    def run():
        rng = random.Random(3)
        obs, _ = env.reset(seed=1234)
        trail = []
        while env.agents:
            actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
            obs, rewards, *_ = env.step(actions)
            trail.append((actions, {a: o["observation"].tobytes() for a, o in obs.items()}, rewards))
        return trail, env.table.game.to_data()

    assert run() == run()
    env.reset(seed=1234)
    first = env.table.game.to_data()
    env.reset()
    env.reset(seed=1234)
    assert env.table.game.to_data() == first


def test_a_bot_of_ours_plays_through_the_environment():
    from bitbox.bots import make_bot
    from bitbox.research import BotPolicy
    env = parallel_env("outspeed", 4)
    cartridge = find("outspeed")
    bots = {a: make_bot(cartridge, "greedy", k) for k, a in enumerate(env.possible_agents)}
    policy = BotPolicy(env, bots)
    obs, _ = env.reset(seed=21)
    while env.agents:
        obs, rewards, _, _, infos = env.step({a: policy(a) for a in env.agents})
        assert not any(infos.values())
    assert sum(rewards.values()) == pytest.approx(1.0) or sum(rewards.values()) == 0.0


def test_composite_answers_go_part_by_part_then_confirm():
    """Last One Alive's dice choice is four parts; a bot's answer goes in id by id."""
    from bitbox.bots import RandomBot
    from bitbox.research import BotPolicy
    env = aec_env("lastonealive", 3)
    env.reset(seed=8)
    policy = BotPolicy(env, {a: RandomBot(k) for k, a in enumerate(env.possible_agents)})
    kinds = Counter()
    for agent in env.agent_iter():
        ob, _, term, trunc, info = env.last()
        assert "refused" not in info
        if not (term or trunc) and env.prompt(agent) is not None:
            kinds[env.prompt(agent).kind] += 1
            if env.prompt(agent).kind == "dice":
                assert ob["observation"][-env.table.n_actions:].sum() == sum(env.table.selection(agent).values())
        env.step(None if term or trunc else policy(agent))
    assert kinds["dice"] >= 4                 # four parts per chosen set of dice


def test_an_unknown_game_or_player_count_is_one_line():
    from bitbox.games import GameError
    with pytest.raises(GameError, match="no game called"):
        parallel_env("chess", 2)
    with pytest.raises(GameError, match="players"):
        parallel_env("outspeed", 9)
