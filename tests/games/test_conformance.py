"""Every registered cartridge passes the conformance checks (bitbox.games.conformance).

Parametrised over the registry: a game that declares a ``bitbox.games`` entry point is
checked here without a line of test of its own.
"""
from __future__ import annotations

import pytest

from bitbox.games import conformance as cf
from bitbox.games import find, names

GAMES = names()
SEEDS = range(4)


def test_the_registry_holds_outspeed() -> None:
    assert "outspeed" in GAMES


def _counts(name: str) -> list[int]:
    c = find(name)
    return list(range(c.min_players, c.max_players + 1))


def _cases() -> list[tuple[str, int, int]]:
    return [(name, n, seed) for name in GAMES for n in _counts(name) for seed in SEEDS]


@pytest.mark.parametrize("name", GAMES)
def test_setup_bounds_and_options(name: str) -> None:
    cf.check_setup(find(name))


@pytest.mark.parametrize("name,players,seed", _cases())
def test_random_play_never_refuses_a_generated_option(name: str, players: int, seed: int) -> None:
    game = cf.check_random_play(find(name), players, seed)
    assert game.finished


@pytest.mark.parametrize("name,players,seed", _cases())
def test_every_option_value_plays(name: str, players: int, seed: int) -> None:
    c = find(name)
    for spec in c.options:
        for value in spec.choices[1:] or ((not spec.default,) if isinstance(spec.default, bool) else ()):
            cf.play_random(c, players, seed, {spec.name: value})


@pytest.mark.parametrize("name", GAMES)
def test_determinism_from_seed_and_inputs(name: str) -> None:
    c = find(name)
    for n in _counts(name):
        cf.check_determinism(c, n, seed=11 + n)


@pytest.mark.parametrize("name", GAMES)
def test_data_round_trip_at_every_step(name: str) -> None:
    c = find(name)
    for n in (c.min_players, c.max_players):
        cf.check_round_trip(c, n, seed=21 + n)


@pytest.mark.parametrize("name", GAMES)
def test_no_hidden_information_in_the_public_view(name: str) -> None:
    c = find(name)
    for n in (c.min_players, c.max_players):
        for seed in (31, 32):
            cf.check_public_view(c, n, seed)


def test_the_public_view_check_compares_different_games() -> None:
    """Outspeed has hidden parts (pile, held tokens, tile order): redeal must change them, or
    the public-view check would compare a game with itself."""
    assert cf.check_redeal_hides_something(find("outspeed"), 4, 5)
