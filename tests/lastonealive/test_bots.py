"""Last One Alive's bots through the console's bot protocol: every bot plays legal games to
the end, decisions depend only on what the player sees, the careful bot uses each token
where it helps (positions set by hand, read through the cartridge's views and prompts) and
beats the random bot clearly (a fixed-seed statistical test with a margin, not a timing)."""
from __future__ import annotations

import copy

import pytest

from bitbox.bots import LazyView, RandomBot, bot_names, make_bot, play
from bitbox.games import find
from bitbox.simulation.rates import wilson
from lastonealive.cartridge import CARTRIDGE, LastOneAliveGame
from lastonealive.rules import Action, Die
from lastonealive.sim import SimConfig, simulate
from lastonealive.strategy import CarefulBot

NAMES = ("red", "blue", "green", "yellow", "purple")


def test_the_cartridge_offers_random_and_careful() -> None:
    c = find("lastonealive")
    assert bot_names(c) == ["random", "careful"]
    assert isinstance(make_bot(c, "random", 1), RandomBot)
    assert isinstance(make_bot(c, "careful", 1), CarefulBot)
    with pytest.raises(ValueError, match=r"unknown bot 'clever' for lastonealive \(known: random, careful\)"):
        make_bot(c, "clever", 1)


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("options", [{}, {"day_night": True}, {"zombies_everywhere": True, "zombified_rolls": True},
                                     {"first_zombie": "first"}])
def test_careful_bots_play_legal_games_to_the_end(players: int, options: dict) -> None:
    names = NAMES[:players]
    game = CARTRIDGE.new(names, 5 + players, options)
    seen: dict[str, set[str]] = {}

    class Spy(CarefulBot):
        def choose(self, view, prompt):                                  # type: ignore[no-untyped-def]
            assert isinstance(view, LazyView)
            seen.setdefault(prompt.player, set()).add(str(view["me"]))
            choice = super().choose(view, prompt)
            assert choice in prompt.options
            return choice

    play(game, {p: Spy(i) for i, p in enumerate(names)})               # apply() refuses any illegal answer
    assert game.finished and len(game.winners) == 1
    assert all(seen[p] == {p} for p in seen)


def test_survivors_games_end_with_scores() -> None:
    game = CARTRIDGE.new(NAMES[:3], 4, {"survivors": True})
    play(game, {p: CarefulBot(i) for i, p in enumerate(NAMES[:3])})
    assert game.finished and game.winners
    assert game.public_view()["scores"]


@pytest.mark.parametrize("seed", range(3))
def test_decisions_depend_only_on_what_the_player_sees(seed: int) -> None:
    """At every prompt, the careful bot decides the same in the game and in its redeal (the
    bag's order, the random state and the hidden sides of face-down tokens drawn again)."""
    names = NAMES[:4]
    game = CARTRIDGE.new(names, seed, {})
    bots = {p: CarefulBot(seed * 10 + i) for i, p in enumerate(names)}
    compared = 0
    while not game.finished:
        (prompt,) = game.prompts()
        bot = bots[prompt.player]
        if prompt.kind != "setup":                  # the setup token itself is redrawn
            other = CARTRIDGE.redeal(game, seed * 1000 + compared)
            (twin,) = other.prompts()
            assert copy.deepcopy(bot).choose(other.private_view(prompt.player), twin) == \
                copy.deepcopy(bot).choose(game.private_view(prompt.player), prompt)
            compared += 1
        game.apply({prompt.player: bot.choose(game.private_view(prompt.player), prompt)})
    assert compared > 20


# ----------------------------------------------------------------------------- positions

def _position(held: list[str], front: list[tuple[str, str]], *, phase: str = "before",
              tray: list[tuple[str, str, str]] = (), hero: bool = False, level: int = 1) -> LastOneAliveGame:
    """A two-player game at red's turn: red holds ``held`` (object names face up,
    ``barricade`` face down), has ``front`` (type, face) dice in front, and the prompt is
    ``phase`` with ``tray`` (id, type, face) rolled this turn."""
    game = CARTRIDGE.new(("red", "blue"), 3, {})
    while game.prompts()[0].kind == "setup":
        game.apply({game.prompts()[0].player: Action("side", None, "object")})
    s = game.engine.state
    assert s.active == "red" and s.phase == "before"
    s.held = {"red": [[t, "axe" if t == "barricade" else t] for t in held], "blue": []}
    s.hero["red"] = hero
    s.front["red"] = [Die(t, f, f"f{i}") for i, (t, f) in enumerate(front, 1)]
    s.front["blue"] = []
    s.level = level
    for t, f in front:
        s.pool[t] -= 1
    s.phase = phase
    s.tray = [Die(t, f, i) for i, t, f in tray]
    s.rolled = [i for i, _, _ in tray]
    for _, t, _ in tray:
        s.pool[t] -= 1
    game.engine.changed()
    return game


def _decide(game: LastOneAliveGame, seed: int = 0) -> Action:
    (prompt,) = game.prompts()
    choice = CarefulBot(seed).choose(game.private_view(prompt.player), prompt)
    assert choice in prompt.options
    return choice


def test_flare_passes_the_biggest_zombie_dice_when_many_are_in_front() -> None:
    game = _position(["flare"], [("zombie", "zombie2"), ("zombie", "zombie1"), ("zombie", "zombie2")])
    assert _decide(game) == Action("use", "flare", ("f1", "f3"))


def test_tokens_are_kept_when_nothing_threatens() -> None:
    game = _position(["pistol", "axe", "chainsaw"], [])
    assert _decide(game) == Action("pass")


def test_pistol_before_the_roll_when_the_zombies_in_front_need_bangs() -> None:
    game = _position(["pistol"], [("zombie", "zombie2"), ("zombie", "zombie2"), ("zombie", "zombie2")], level=3)
    assert _decide(game) == Action("use", "pistol")


def test_radio_brings_two_more_dice_when_in_danger() -> None:
    game = _position(["radio"], [("zombie", "zombie2"), ("zombie", "zombie2"), ("zombie", "zombie2")])
    choice = _decide(game)
    assert choice.kind == "use" and choice.token == "radio"
    assert set(choice.arg) <= {"shoot", "barricade"}


def test_dice_are_shoot_and_barricade_dice_when_zombies_are_in_front() -> None:
    game = _position([], [("zombie", "zombie2"), ("zombie", "zombie2")])
    game.apply({"red": Action("pass")})
    choice = _decide(game)
    assert choice.kind == "dice" and choice.arg[0] == 0 and choice.arg[1] + choice.arg[3] == 4


def test_chainsaw_discards_an_ambush_that_nothing_can_shoot() -> None:
    game = _position(["chainsaw"], [], phase="after", tray=[("z1", "zombie", "ambush"), ("s1", "shoot", "blank")])
    assert _decide(game) == Action("use", "chainsaw", "z1")


def test_pistol_rerolls_a_blank_shoot_die_when_bangs_are_missing() -> None:
    game = _position(["pistol"], [], phase="after", tray=[("z1", "zombie", "ambush"), ("s1", "shoot", "blank")])
    assert _decide(game) == Action("use", "pistol", "s1")


def test_axe_rerolls_a_barricade_die_showing_an_ambush() -> None:
    game = _position(["axe"], [("zombie", "zombie2")], phase="after",
                     tray=[("b1", "barricade", "ambush"), ("s1", "shoot", "bang1")])
    assert _decide(game) == Action("use", "axe", "b1")


def test_hero_rerolls_the_ambushes_and_blank_shoot_dice() -> None:
    game = _position([], [("zombie", "zombie1")], phase="after", hero=True,
                     tray=[("z1", "zombie", "ambush"), ("s1", "shoot", "blank"), ("s2", "shoot", "bang1"),
                           ("o1", "object", "ambush"), ("b1", "barricade", "barricade")])
    choice = _decide(game)
    assert choice.token == "hero" and {"z1", "s1", "o1"} <= set(choice.arg) and "b1" not in choice.arg


def test_hero_is_kept_after_a_good_roll() -> None:
    game = _position([], [], phase="after", hero=True, tray=[("s1", "shoot", "bang2"), ("z1", "zombie", "zombie2")])
    assert _decide(game) == Action("pass")


def test_barricade_token_passes_a_die_the_results_cannot() -> None:
    game = _position(["barricade"], [("zombie", "zombie1"), ("zombie", "zombie2")], phase="before_barricades",
                     tray=[("b1", "barricade", "barricade")])
    assert _decide(game) == Action("use", "barricade", "f2")


def test_shooting_clears_ambushes_first_and_giving_passes_the_biggest_die() -> None:
    game = _position([], [("zombie", "zombie2"), ("zombie", "zombie1"), ("object", "ambush")], phase="shoot",
                     tray=[("b1", "barricade", "barricade")])
    game.engine.state.bangs_left = 2
    game.engine.changed()
    assert _decide(game) == Action("shoot", None, ("f3", 1))
    game.apply({"red": Action("shoot", None, ("f3", 1))})
    assert _decide(game) == Action("shoot", None, ("f2", 1))       # the zombie2 goes with the barricade
    game = _position([], [("zombie", "zombie1"), ("zombie", "zombie2")], phase="give")
    game.engine.state.gives_left = 1
    game.engine.changed()
    assert _decide(game) == Action("give", None, "f2")


def test_keeps_the_most_useful_tokens() -> None:
    game = _position(["radio", "medkit", "axe", "flare"], [], phase="keep")
    assert sorted(_decide(game).arg) == ["axe", "flare", "medkit"]       # the radio goes


# ----------------------------------------------------------------------------- strength

def test_careful_beats_random_clearly() -> None:
    """300 two-player games, seats alternating, a fixed run seed: the low end of the careful
    bot's 95 % interval stays above 80 % (random would be 50 %)."""
    result = simulate(SimConfig(games=300, players=2, bots=("careful", "random"), seed=12))
    row = {r["bot"]: r for r in result.stats.by_bot()}["careful"]
    assert row["games"] == row["win_rate_n"] == 300
    assert row["win_rate_ci95"][0] > 0.80, row
    # the interval is the console's Wilson score interval of the wins over the games
    assert row["win_rate_ci95"] == pytest.approx(list(wilson(row["win_rate"] * 300, 300)))
