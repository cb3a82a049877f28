"""The tutorial game reaches the research environments with its encoding alone
(goofspiel_research.py): PettingZoo's own API and seeding tests through both adapters, masks
that are exactly the bids in hand, and the OpenSpiel game with OpenSpiel's random simulation
test."""
from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra is installed by ./dev test")

from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402

from bitbox.research.encoding import RESERVED  # noqa: E402


def envs():
    from bitbox.research import aec_env, env_ids, parallel_env
    assert "goofspiel_v0" in env_ids()
    return aec_env, parallel_env


@pytest.mark.parametrize("players", [2, 3])
def test_pettingzoos_api_and_seeding_tests_pass(players):
    aec_env, parallel_env = envs()
    api_test(aec_env("goofspiel", players), num_cycles=60)
    parallel_api_test(parallel_env("goofspiel", players), num_cycles=60)
    seed_test(lambda: aec_env("goofspiel", players), num_cycles=30)
    parallel_seed_test(lambda: parallel_env("goofspiel", players), num_cycles=30)


def test_the_mask_is_the_hand_and_random_play_ends_with_the_games_scores():
    _, parallel_env = envs()
    env = parallel_env("goofspiel", 3, {"cards": 5})
    rng = random.Random(3)
    obs, _ = env.reset(seed=2)
    rounds = 0
    while env.agents:
        game = env.table.game
        for agent in env.agents:
            hand = next(s["hand"] for s in game.public_view()["players"] if s["player"] == agent)
            mask = obs[agent]["action_mask"]
            assert {int(i) - RESERVED + 1 for i in np.flatnonzero(mask)} == set(hand)
            assert obs[agent]["observation"][4 + 1:4 + 1 + 8].nonzero()[0].tolist() == [c - 1 for c in hand]
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, rewards, terms, truncs, _ = env.step(actions)
        rounds += 1
    # the last round, one card each, is no decision: the environment answers it itself
    assert rounds == 4 and env.table.game.finished and env.table.game.round == 5


def test_the_openspiel_game_passes_openspiels_random_simulation_test():
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is installed by ./dev test")
    import bitbox.research.openspiel as bitbox_openspiel
    assert "bitbox_goofspiel" in bitbox_openspiel.register()
    game = pyspiel.load_game("bitbox_goofspiel", {"players": 3, "seed": 1, "cards": 4})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_a_resampled_openspiel_state_hides_a_bid_waiting_unseen():
    """The tutorial game's bids are simultaneous and secret: red bids its lowest or its highest
    card, then blue resamples; the two resampled states are the same in every history, string
    and tensor, serialised and read back, and play on to the same end."""
    pytest.importorskip("pyspiel", reason="the openspiel extra is installed by ./dev test")
    import bitbox.research.openspiel as bitbox_openspiel
    from tests.research.test_openspiel_resample import _paired_worlds, _same_worlds_to_the_end
    assert "bitbox_goofspiel" in bitbox_openspiel.register()

    def bid(state, which):
        assert state.current_player() == 0 and state._t().prompt("red").kind == "bid"
        state.apply_action(state.legal_actions()[(0, -1)[which]])
        assert state.current_player() == 1
        return 1

    game, worlds = _paired_worlds("bitbox_goofspiel", 5, bid)
    assert worlds[0].history() == []                                   # blue has not moved yet
    _same_worlds_to_the_end(game, worlds, 5)
