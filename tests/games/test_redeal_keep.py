"""Cartridge.redeal(game, seed, keep=player): the player's private view stays as it is (what
they know), while what is hidden from them is still drawn again; without ``keep`` nothing of
anyone's hand is kept. The OpenSpiel adapter's resample_from_infostate rests on it."""
from __future__ import annotations

import json

import pytest

from bitbox.games import conformance as cf
from bitbox.games import find


def _dump(value) -> str:
    return json.dumps(value, sort_keys=True, default=str)


@pytest.mark.parametrize("name,players", [("outspeed", 4), ("lastonealive", 4)])
def test_redeal_keeps_what_the_kept_player_knows(name, players):
    cartridge = find(name)
    seen = {"kept": 0, "changed": 0, "own_changed": 0}

    def step(game, n):
        for k, p in enumerate(game.players):
            other = cartridge.redeal(game, n * 10 + k, keep=p)
            assert _dump(other.private_view(p)) == _dump(game.private_view(p)), (name, n, p)
            assert _dump(other.public_view()) == _dump(game.public_view())
            seen["kept"] += 1
            seen["changed"] += _dump(other.to_data()) != _dump(game.to_data())
            plain = cartridge.redeal(game, n * 10 + k)
            seen["own_changed"] += _dump(plain.private_view(p)) != _dump(game.private_view(p))

    for seed in range(3):
        cf.play_random(cartridge, players, seed, None, step)
    assert seen["kept"] > 50 and seen["changed"] > 0
    assert seen["own_changed"] > 0           # without keep, a player's own hidden parts are drawn again
