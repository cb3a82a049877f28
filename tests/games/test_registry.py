"""The registry finds cartridges by entry point; `bitbox games` lists them; the Outspeed
cartridge maps the engine's phases to prompts and forwards forced rolls."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bitbox.games import GameError, OptionError, Refusal, UnknownGame, check_options, find, names
from bitbox.games.chance import Chance
from outspeed.cartridge import BONUS, KEEP, PROGRAM, OutspeedGame
from outspeed.rules import Choice


def test_find_by_name_and_unknown_names() -> None:
    assert "outspeed" in names()
    c = find("outspeed")
    assert (c.name, c.title, c.min_players, c.max_players) == ("outspeed", "Outspeed", 3, 6)
    with pytest.raises(UnknownGame, match=r"no game called 'chess' \(installed: .*outspeed"):
        find("chess")


def test_the_console_imports_no_game() -> None:
    code = ("import sys, bitbox.games, bitbox.games.registry, bitbox.games.conformance, bitbox.cli; "
            "bitbox.games.names(); print([m for m in sys.modules if m.split('.')[0] in ('outspeed', 'lastonealive')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_bitbox_games_lists_the_cartridges() -> None:
    run = subprocess.run([sys.executable, "-m", "bitbox.cli", "games", "--json"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    games = {g["name"]: g for g in map(json.loads, run.stdout.splitlines())}
    assert games["outspeed"] == {"name": "outspeed", "title": "Outspeed", "min_players": 3, "max_players": 6,
                                 "options": {"first_game": False, "tokens": "virtual"}}
    run = subprocess.run([sys.executable, "-m", "bitbox.cli", "games"], capture_output=True, text=True)
    assert run.returncode == 0 and "outspeed" in run.stdout and "3-6 players" in run.stdout


def test_bad_players_and_options_get_one_clear_line() -> None:
    c = find("outspeed")
    with pytest.raises(GameError, match="Outspeed is for 3 to 6 players, not 2"):
        c.new(["red", "blue"], 1, {})
    with pytest.raises(GameError, match="players must be distinct"):
        c.new(["red", "red", "blue"], 1, {})
    with pytest.raises(OptionError, match=r"option tokens: must be one of 'virtual', 'physical', not 'paper'"):
        c.new(["red", "blue", "green"], 1, {"tokens": "paper"})
    with pytest.raises(OptionError, match=r"option first_game: expected a bool, not 'yes'"):
        check_options(c, {"first_game": "yes"})
    with pytest.raises(GameError, match="not a saved Outspeed game"):
        c.from_data({"format": 1, "players": ["red"]})
    with pytest.raises(GameError, match="not an Outspeed answer"):
        c.action_from_data({"path": "sideways"})


def _to_phase(game: OutspeedGame, phase: str) -> None:
    import random
    rng = random.Random(0)
    while game.engine.state.phase != phase:
        game.apply({p.player: rng.choice(p.options) for p in game.prompts()})


def test_outspeed_phases_as_prompts() -> None:
    c = find("outspeed")
    game = c.new(["red", "blue", "green", "yellow"], 3, {})
    assert isinstance(game, OutspeedGame)
    prompts = game.prompts()
    assert [(p.player, p.kind, p.options) for p in prompts] == [(p, BONUS, (None,)) for p in game.players]
    game.apply({p: None for p in game.players})
    prompts = game.prompts()
    assert {p.kind for p in prompts} == {PROGRAM} and len(prompts) == 4
    assert all(isinstance(o, Choice) for p in prompts for o in p.options)
    # a number on a path that takes none is the same answer (the engine ignores it)
    plain = next(o for o in prompts[0].options if o.number is None)
    assert game.refusal("red", Choice(plain.path, 4)) is None
    assert game.refusal("red", "nitro") == "not_a_choice"
    with pytest.raises(GameError, match="no answer from blue"):
        game.apply({"red": plain})
    with pytest.raises(Refusal) as refused:
        game.apply({p.player: ("nitro" if p.player == "red" else p.options[0]) for p in prompts})
    assert refused.value.codes == {"red": "not_a_choice"}


def test_the_draw_is_one_private_prompt() -> None:
    c = find("outspeed")
    for seed in range(40):
        game = c.new(["red", "blue", "green"], seed, {})
        import random
        rng = random.Random(seed)
        while not game.finished and game.engine.state.phase != "draw":
            game.apply({p.player: rng.choice(p.options) for p in game.prompts()})
        if game.finished:
            continue
        (prompt,) = game.prompts()
        s = game.engine.state
        assert prompt.kind == KEEP and prompt.player == s.draw_queue[0]
        assert set(prompt.options) == set(s.drawn)
        assert game.refusal(prompt.player, "banana") == "not_drawn"
        other = next(p for p in game.players if p != prompt.player)
        assert game.refusal(other, prompt.options[0]) == "not_your_turn"
        return
    pytest.fail("no draw in 40 games")


def test_forced_rolls_go_to_the_engine() -> None:
    c = find("outspeed")
    game = c.new(["red", "blue", "green"], 1, {})
    game.force({"red": [3, -2]})
    assert game.engine.state.forced_dice == {"red": [3, -2]}
    with pytest.raises(GameError, match="unknown player 'pink'"):
        game.force({"pink": [1]})
    with pytest.raises(GameError, match="whole numbers"):
        game.force({"red": ["six"]})


def test_chance_forced_outcomes_and_saved_state() -> None:
    a = Chance(5)
    a.force({"zombie": ["ambush", "blank"]})
    assert a.roll("zombie", ("blank", "ambush", "zombie1")) == "ambush"
    b = Chance.from_data(json.loads(json.dumps(a.to_data())))      # the queue and the generator saved
    assert a.roll("zombie", ("blank", "x")) == b.roll("zombie", ("blank", "x")) == "blank"
    assert [a.below("d6", 6) for _ in range(20)] == [b.below("d6", 6) for _ in range(20)]
    assert len(set(a.below("d6", 6) for _ in range(200))) == 6       # random again once the queue is empty
    c = Chance(1)
    c.force({"d": [7]})
    with pytest.raises(GameError, match="forced outcome 7 for d is not one of"):
        c.roll("d", (1, 2))
    with pytest.raises(GameError, match="not a saved random state"):
        Chance.from_data({"rng": 3})
