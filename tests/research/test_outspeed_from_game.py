"""Outspeed's encoding read from the game itself (``public_part_of``, ``private_entries_of``: the
environments build no view for an observation) gives exactly what its view path gives, value
for value and entry for entry, at every step of many games (every player count, both token
modes, the first-game tiles, eliminations and finished games), and reads nothing hidden:
since it equals the encoding of the public view (and of the player's own private view), and
those views hold nothing hidden, neither does it; changing hidden state leaves it as it was."""
from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra is installed by ./dev test")

from bitbox.research import parallel_env  # noqa: E402
from outspeed.research import OutspeedEncoding  # noqa: E402
from outspeed.rules import TOKENS  # noqa: E402


def _both(enc: OutspeedEncoding, game, size: int) -> None:
    by_view = np.zeros(size, dtype=np.float32)
    enc.public_part(game.public_view(), by_view)
    by_game = np.full(size, 0.0, dtype=np.float32)
    enc.public_part_of(game, by_game)
    np.testing.assert_array_equal(by_game, by_view)
    assert by_game.dtype == by_view.dtype


def _entries_both(enc: OutspeedEncoding, game, player, prompt) -> None:
    by_view = enc.private_entries(game.private_view(player), player, prompt)
    by_game = enc.private_entries_of(game, player, prompt)
    assert list(by_game.items()) == list(by_view.items())


@pytest.mark.parametrize("players,options", [(3, {}), (4, {}), (5, {"tokens": "physical"}),
                                             (6, {"first_game": True})])
def test_the_parts_read_from_the_game_are_the_views(players, options):
    env = parallel_env("outspeed", players, options)
    table = env.table
    enc = table.encoding
    assert isinstance(enc, OutspeedEncoding)
    size = enc.observation_size + table.n_actions
    rng = random.Random(players)
    steps = 0
    for seed in range(6):
        env.reset(seed=100 * players + seed)
        while True:
            game = table.game
            _both(enc, game, size)
            _both(OutspeedEncoding(enc.max_number), game, size)      # a fresh one: nothing remembered
            for p in table.players:
                for prompt in (table.prompt(p), None, *game.prompts()):
                    _entries_both(enc, game, p, prompt)
            if not env.agents:
                break
            env.step({a: rng.choice(env.legal_actions(a)) for a in env.agents})
            steps += 1
    assert steps > 50
    assert table.game.finished


def test_hidden_state_changes_nothing_read_from_the_game():
    """The pile's order, the random state, the forced dice and the types of the tokens other
    players hold are hidden: changing them leaves the public part and a player's entries as
    they were."""
    env = parallel_env("outspeed", 5)
    rng = random.Random(3)
    compared = 0
    for seed in range(8, 14):
        env.reset(seed=seed)
        compared += _hide_and_compare(env, rng)
    assert compared > 10


def _hide_and_compare(env, rng: random.Random) -> int:
    table = env.table
    enc = table.encoding
    size = enc.observation_size + table.n_actions
    compared = 0
    while env.agents:
        s = table.game.engine.state
        if any(s.held.values()):
            before = np.zeros(size, dtype=np.float32)
            enc.public_part_of(table.game, before)
            mine = {p: enc.private_entries_of(table.game, p, table.prompt(p)) for p in table.players}
            saved = (list(s.pile), {p: list(h) for p, h in s.held.items()}, s.rng.getstate(), dict(s.forced_dice))
            rng.shuffle(s.pile)
            s.rng.seed(rng.random())
            s.forced_dice = {p: [6, 6] for p in s.players}
            first = table.players[0]
            for p, held in s.held.items():
                if p != first:
                    s.held[p] = [rng.choice(TOKENS) for _ in held]     # other types, the same count
            after = np.zeros(size, dtype=np.float32)
            enc.public_part_of(table.game, after)
            np.testing.assert_array_equal(after, before)
            assert enc.private_entries_of(table.game, first, table.prompt(first)) == mine[first]
            s.pile, s.held, forced = saved[0], saved[1], saved[3]
            s.rng.setstate(saved[2])
            s.forced_dice = forced
            compared += 1
        env.step({a: rng.choice(env.legal_actions(a)) for a in env.agents})
    return compared
