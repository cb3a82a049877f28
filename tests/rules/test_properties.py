"""Property tests: random legal play to the end over many seeds and 3-6 players."""
from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from outspeed.rules import UNKNOWN, EventKind, Game

from .helpers import bots_for, new_game, step

games = st.tuples(st.integers(0, 2**32 - 1), st.integers(3, 6), st.booleans())


def check_invariants(game: Game, content) -> None:
    s = game.state
    for p in s.active:
        assert s.rear <= s.zone[p] <= s.front, f"{p} off the track"
        assert s.fuel[p] >= 0
        if not (s.tile is not None and s.tile.finish and s.phase in ("draw", "resolution", "finished")):
            assert s.fuel[p] > 0 or s.finished, f"{p} active with no fuel"
    for p in s.players:
        assert s.fuel[p] >= 0
        if p not in s.active:
            assert s.held[p] == [] and p not in s.zone
    assert s.boards == 2 or s.phase not in ("bonus", "programming")
    assert len(s.markers) <= s.marker_total == content.markers
    assert all(s.rear <= z <= s.front for z in s.markers)
    if s.token_mode == "virtual":
        tokens = Counter(s.pile) + Counter(s.discards) + Counter(s.drawn)
        for h in s.held.values():
            tokens += Counter(h)
        assert tokens == Counter(content.token_counts), "the 32 tokens are not all accounted for"
    assert len(s.active) + len(s.eliminated) == len(s.players)
    assert s.turn <= 13


def play_checked(content, seed: int, players: int, first_game: bool, token_mode="virtual"):
    game = new_game(content, players, seed, first_game, token_mode)
    bots = bots_for(game, seed)
    events = []
    steps = 0
    while not game.finished:
        events += step(game, bots)
        check_invariants(game, content)
        steps += 1
        assert steps < 500
    return game, events


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_random_games_keep_the_invariants_and_end(content, params):
    seed, players, first_game = params
    game, events = play_checked(content, seed, players, first_game)
    s = game.state
    assert s.finished and s.phase == "finished"
    assert events[-1].kind == EventKind.GAME_OVER
    if len(s.active) >= 2:
        # Ended by the finish tile: 13 turns, and the winners are the best ranked.
        assert s.tile.finish and s.turn == 13
        assert s.winners and set(s.winners) <= set(s.active)
        best = max((s.zone[p], s.fuel[p], len(s.held[p])) for p in s.active)
        assert all((s.zone[p], s.fuel[p], len(s.held[p])) == best for p in s.winners)
    else:
        assert s.winners == list(s.active)


@settings(max_examples=40, deadline=None)
@given(games)
def test_same_seed_and_inputs_give_the_same_game_byte_for_byte(content, params):
    seed, players, first_game = params
    a, ea = play_checked(content, seed, players, first_game)
    b, eb = play_checked(content, seed, players, first_game)
    assert json.dumps(a.to_data(), sort_keys=True) == json.dumps(b.to_data(), sort_keys=True)
    assert [e.text() for e in ea] == [e.text() for e in eb]


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 200))
def test_a_game_saved_to_json_and_restored_plays_on_identically(content, params, cut):
    seed, players, first_game = params
    game = new_game(content, players, seed, first_game)
    bots = bots_for(game, seed)
    n = 0
    while not game.finished and n < cut:
        step(game, bots)
        n += 1
    saved = json.dumps(game.to_data(), sort_keys=True)
    restored = Game.from_data(json.loads(saved))
    assert json.dumps(restored.to_data(), sort_keys=True) == saved
    twin = bots_for(game, seed + 1)
    twin2 = bots_for(game, seed + 1)
    while not game.finished:
        ea = step(game, twin)
        eb = step(restored, twin2)
        assert [e.to_data() for e in ea] == [e.to_data() for e in eb]
    assert restored.to_data() == game.to_data()


@settings(max_examples=40, deadline=None)
@given(games)
def test_physical_tokens_games_end_too(content, params):
    seed, players, first_game = params
    game, _ = play_checked(content, seed, players, first_game, token_mode="physical")
    assert game.finished
    assert all(t == UNKNOWN for h in game.state.held.values() for t in h)
