"""The console's bots: the protocol, the generic random bot, the cartridge's own bots."""
from __future__ import annotations

import json

import pytest

from bitbox.bots import Bot, LazyView, RandomBot, bot_names, make_bot, play
from bitbox.games import GameError, Prompt, find
from outspeed.bots import make_bot as outspeed_bot
from outspeed.bots import play_game
from outspeed.rules import Game

NAMES = ("red", "blue", "green", "yellow", "purple")


def test_random_bot_picks_among_the_options_only() -> None:
    bot = RandomBot(3)
    prompt = Prompt("red", "pick", ("a", "b", "c"))
    picks = [bot.choose({}, prompt) for _ in range(300)]
    assert set(picks) == {"a", "b", "c"}
    assert RandomBot(3).choose({}, prompt) == picks[0]          # seeded
    assert isinstance(bot, Bot)


def test_bots_by_name() -> None:
    c = find("outspeed")
    assert bot_names(c) == ["random", "greedy", "lookahead"]
    assert make_bot(c, "greedy", 1).name == "greedy"
    with pytest.raises(ValueError, match=r"unknown bot 'clever' for outspeed \(known: random, greedy, lookahead\)"):
        make_bot(c, "clever", 1)


@pytest.mark.parametrize("seed", range(3))
def test_outspeed_bots_play_the_same_through_the_protocol(seed: int) -> None:
    """Outspeed's bots answering prompts make the same game as outspeed.bots.play_game."""
    c = find("outspeed")
    kinds = ("random", "greedy", "random", "lookahead", "random")
    game = c.new(NAMES, seed, {})
    via_prompts: list[object] = []
    play(game, {p: make_bot(c, k, seed * 10 + i) for i, (p, k) in enumerate(zip(NAMES, kinds))},
         lambda events: via_prompts.extend((e.kind, e.data) for e in events))
    content = c.content
    engine = Game.new(NAMES, content.tiles, seed=seed, dice=content.dice, token_counts=content.token_counts,
                      markers=content.markers)
    direct: list[object] = []
    play_game(engine, {p: outspeed_bot(k, seed * 10 + i, dice=content.dice) for i, (p, k) in enumerate(zip(NAMES, kinds))},
              lambda events: direct.extend((e.kind, e.data) for e in events))
    assert via_prompts == direct
    assert json.dumps(game.to_data()) == json.dumps(engine.to_data())


def test_generic_random_bots_finish_a_game_and_see_only_their_view() -> None:
    c = find("outspeed")
    seen: dict[str, set[str]] = {}

    class Spy(RandomBot):
        def choose(self, view, prompt):                                  # type: ignore[no-untyped-def]
            assert isinstance(view, LazyView)
            seen.setdefault(prompt.player, set()).add(str(view["me"]))
            return super().choose(view, prompt)

    game = play(c.new(NAMES[:3], 8, {}), {p: Spy(i) for i, p in enumerate(NAMES[:3])})
    assert game.finished and game.winners
    assert seen == {p: {p} for p in NAMES[:3]}


def test_a_seat_without_a_bot_is_one_clear_error() -> None:
    c = find("outspeed")
    with pytest.raises(GameError, match="no bot plays green"):
        play(c.new(NAMES[:3], 1, {}), {"red": RandomBot(1), "blue": RandomBot(2)})
