"""Legality has one source: the generated options.

``legal_bonus_plays``/``program_options``/``keep_options`` generate; ``bonus_refusal``,
``programming_refusal``, ``play_bonus``, ``program`` and ``keep`` accept exactly those and
refuse everything else. Checked over random games with the tiles of config/ and with a tile
set where tile 5 has a "choose X" path with a second, fixed cost (``[{fuel: chosen},
{fuel: 2}]``), which the engine used to offer at X = fuel and then refuse as unaffordable.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from outspeed.bots import RandomBot, play_game
from outspeed.rules import PATHS, TOKENS, Choice, Game, Refused, RulesError, parse_tile

from .helpers import COLOURS

X_PLUS_TWO = {"choose": {"min": 1, "max": 6}, "cost": [{"fuel": "chosen"}, {"fuel": 2}],
              "gain": [{"move": "chosen"}]}


def x_plus_two_tiles(content):
    """config/'s tiles with tile 5's centre path made "choose X, pay X + 2, move X"."""
    out = []
    for t in content.tiles:
        if t.number == 5:
            data = t.to_data()
            for face in data["faces"].values():
                face["center"] = X_PLUS_TWO
            t = parse_tile(data, "test", dice=tuple(content.dice))
        out.append(t)
    return out


def make(content, tiles, players, seed, token_mode="virtual"):
    return Game.new(COLOURS[:players], tiles, seed=seed, dice=content.dice,
                    token_counts=content.token_counts, markers=content.markers, token_mode=token_mode)


def test_x_is_offered_only_where_it_is_affordable(content):
    game = make(content, x_plus_two_tiles(content), 3, 0)
    s = game.state
    s.tile = next(t for t in x_plus_two_tiles(content) if t.number == 5)
    s.phase = "programming"
    s.fuel["red"] = 5
    assert game.program_options()["red"]["center"] == (1, 2, 3)     # X + 2 ≤ 5
    assert game.legal_numbers("red", "center") == [1, 2, 3]
    assert game.programming_refusal("red", Choice("center", 3)) is None
    assert game.programming_refusal("red", Choice("center", 4)) == "unaffordable"
    assert game.programming_refusal("red", Choice("center", 5)) == "unaffordable"
    assert game.programming_refusal("red", Choice("center", 6)) == "choose_out_of_range"
    assert game.programming_refusal("red", Choice("center", 7)) == "choose_out_of_range"
    assert game.programming_refusal("red", Choice("center")) == "missing_choice"
    before = json.dumps(game.to_data(), sort_keys=True)
    with pytest.raises(Refused) as e:
        game.program({"red": Choice("center", 5), "blue": Choice("center", 1), "green": Choice("center", 1)})
    assert e.value.codes == {"red": "unaffordable"}
    assert json.dumps(game.to_data(), sort_keys=True) == before
    game.program({"red": Choice("center", 3), "blue": Choice("center", 1), "green": Choice("center", 1)})
    assert game.state.fuel["red"] == 0 or "red" not in game.state.active


def test_random_bots_finish_every_game_with_the_x_plus_two_tile(content):
    tiles = x_plus_two_tiles(content)
    for seed in range(60):
        game = make(content, tiles, 3 + seed % 4, seed)
        play_game(game, {p: RandomBot(seed * 10 + i) for i, p in enumerate(game.state.players)})
        assert game.finished


def _programs_offered(options, choice):
    numbers = options.get(choice.path)
    if numbers is None:
        return False
    return choice.number in numbers if numbers else True   # a number on a path taking none is ignored


def check_every_input(game: Game, rng: random.Random) -> None:
    """Every generated input is accepted and every other one refused, now."""
    s = game.state
    if s.phase == "bonus":
        for p in s.active:
            legal = game.legal_bonus_plays(p)
            assert legal[0] is None
            for t in (None, *TOKENS):
                assert (game.bonus_refusal(p, t) is None) == (t in legal), (p, t, legal)
        p = rng.choice(s.active)
        bad = [t for t in TOKENS if t not in game.legal_bonus_plays(p)]
        if bad:
            before = json.dumps(game.to_data(), sort_keys=True)
            with pytest.raises(Refused) as e:
                game.play_bonus({p: rng.choice(bad)})
            assert set(e.value.codes) == {p}
            assert json.dumps(game.to_data(), sort_keys=True) == before
    elif s.phase == "programming":
        options = game.program_options()
        assert list(options) == list(s.active)
        for p in s.active:
            assert options[p], f"{p} has no legal program"
            for path in PATHS:
                for n in (None, -1, 0, 1, 2, 3, 4, 5, 6, 7, 99):
                    c = Choice(path, n)
                    if path not in game.current_paths:
                        assert game.programming_refusal(p, c) == "unlit_path"
                        continue
                    code = game.programming_refusal(p, c)
                    assert (code is None) == _programs_offered(options[p], c), (p, c, dict(options[p]), code)
        # program() itself: one player off the options is refused, nothing changes.
        p = rng.choice(s.active)
        offered = {q: Choice(k, rng.choice(options[q][k]) if options[q][k] else None)
                   for q in s.active for k in [rng.choice(sorted(options[q]))]}
        bad = [Choice(k, n) for k in game.current_paths for n in (None, 0, 1, 3, 5, 6, 7)
               if not _programs_offered(options[p], Choice(k, n))]
        if bad:
            before = json.dumps(game.to_data(), sort_keys=True)
            with pytest.raises(Refused) as e:
                game.program({**offered, p: rng.choice(bad)})
            assert set(e.value.codes) == {p}
            assert json.dumps(game.to_data(), sort_keys=True) == before
    elif s.phase == "draw":
        p = s.draw_queue[0]
        assert game.keep_options(p) == list(s.drawn)
        for other in s.players:
            if other != p:
                assert game.keep_options(other) == []
        for t in TOKENS:
            if t not in s.drawn:
                with pytest.raises(RulesError):
                    game.keep(p, t)


def play_checking(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    bots = {p: RandomBot(seed * 10 + i) for i, p in enumerate(game.state.players)}
    s = game.state
    steps = 0
    while not s.finished:
        check_every_input(game, rng)
        if s.phase == "bonus":
            game.play_bonus({p: bots[p].bonus(None, legal) for p, legal in game.bonus_options().items()})
        elif s.phase == "programming":
            game.program({p: bots[p].program(None, legal) for p, legal in game.program_options().items()})
        else:
            p = s.draw_queue[0]
            game.keep(p, bots[p].keep(None, game.keep_options(p)))
        steps += 1
        assert steps < 500


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(3, 6), st.booleans(), st.sampled_from(["virtual", "physical"]))
def test_generated_inputs_are_accepted_and_others_refused(content, seed, players, x_plus_two, mode):
    tiles = x_plus_two_tiles(content) if x_plus_two else content.tiles
    game = make(content, tiles, players, seed, mode)
    play_checking(game, seed)
