"""The protocol layer's shortcuts (docs/bench.md, "Round 4"): prompts made once per state and
shared, answers recognised by identity, players and options checked once per run. Each
shortcut must give what the general path gives: these tests play both and compare."""
from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Mapping, Sequence

import pytest

from bitbox.bots import RandomBot, play
from bitbox.games import GameError, OptionError, Prompt, find
from bitbox.games.conformance import player_names
from bitbox.simulation import seeds
from lastonealive.rules import Action
from outspeed.cartridge import OutspeedCartridge, OutspeedGame
from outspeed.rules import Choice

PLAYERS = ("red", "blue", "green", "yellow")


def _play_to(game: object, phase: str, rng: random.Random) -> None:
    while game.engine.state.phase != phase:                                 # type: ignore[attr-defined]
        game.apply({p.player: rng.choice(p.options) for p in game.prompts()})  # type: ignore[attr-defined]


def test_outspeed_prompts_are_kept_until_the_next_apply_and_shared_by_games() -> None:
    c = find("outspeed")
    one, two = c.new(PLAYERS, 7, {}), c.new(PLAYERS, 7, {})
    rng = random.Random(1)
    _play_to(one, "programming", rng)
    _play_to(two, "programming", random.Random(1))
    asked = one.prompts()
    assert one.prompts() is asked                                   # kept
    assert [p.options for p in two.prompts()] == [p.options for p in asked]
    assert all(a is b for a, b in zip(two.prompts(), asked))        # the very same prompts
    one.apply({p.player: p.options[0] for p in asked})
    assert one.prompts() is not asked                               # the state moved: made again


def test_outspeed_answers_equal_to_an_option_or_out_of_order_play_as_the_listed_ones() -> None:
    c = find("outspeed")
    for seed in range(6):
        listed, other = c.new(PLAYERS, seed, {}), c.new(PLAYERS, seed, {})
        rng = random.Random(seed)
        while not listed.finished:
            prompts = listed.prompts()
            answers = {p.player: rng.choice(p.options) for p in prompts}
            # other objects equal to the options, in the reverse seat order: the general path
            again = {p: copy.deepcopy(a) for p, a in reversed(list(answers.items()))}
            events = [(e.kind, dict(e.data)) for e in listed.apply(answers)]
            assert [(e.kind, dict(e.data)) for e in other.apply(again)] == events
            assert other.to_data() == listed.to_data()


def test_outspeed_a_state_changed_by_hand_is_seen_after_changed() -> None:
    c = find("outspeed")
    game = c.new(PLAYERS, 3, {})
    assert isinstance(game, OutspeedGame)
    s = game.engine.state
    assert s.phase == "bonus"
    before = game.prompts()
    s.held["red"] = ["nitro"]                                       # by hand: nothing tells the game
    assert game.prompts() is before
    game.changed()
    red = next(p for p in game.prompts() if p.player == "red")
    assert red.options == tuple(game.engine.bonus_options()["red"]) == (None, "nitro")


def test_outspeed_prompts_pickle_and_copy_as_plain_prompts() -> None:
    c = find("outspeed")
    game = c.new(PLAYERS, 5, {})
    _play_to(game, "programming", random.Random(5))
    for prompt in game.prompts():
        for back in (pickle.loads(pickle.dumps(prompt)), copy.deepcopy(prompt)):
            assert back == prompt and type(back.options) is tuple
            assert back == Prompt(prompt.player, prompt.kind, tuple(prompt.options), dict(prompt.context))
    answers = {p.player: pickle.loads(pickle.dumps(p)).options[-1] for p in game.prompts()}
    game.apply(answers)                                             # equal answers, other objects


def test_outspeed_an_illegal_answer_is_still_refused_with_its_code() -> None:
    c = find("outspeed")
    game = c.new(PLAYERS, 2, {})
    _play_to(game, "programming", random.Random(2))
    answers = {p.player: p.options[0] for p in game.prompts()}
    data = game.to_data()
    from bitbox.games import Refusal
    with pytest.raises(Refusal) as refused:
        game.apply({**answers, "red": Choice("nowhere")})
    assert list(refused.value.codes) == ["red"]
    assert game.to_data() == data
    with pytest.raises(GameError, match="no answer from"):
        game.apply({p: a for p, a in answers.items() if p != "blue"})


def test_last_one_alive_prompt_is_kept_until_the_state_moves() -> None:
    c = find("lastonealive")
    names = player_names(c, 3)
    for seed in range(4):
        listed, other = c.new(names, seed, {}), c.new(names, seed, {})
        rng = random.Random(seed)
        while not listed.finished:
            asked = listed.prompts()
            assert listed.prompts() is asked
            (prompt,) = asked
            answer = rng.choice(prompt.options)
            again = c.action_from_data(c.action_to_data(answer))     # equal, another object
            assert isinstance(again, Action)
            listed.apply({prompt.player: answer})
            other.apply({prompt.player: again})
            assert other.to_data() == listed.to_data()
    game = c.new(names, 1, {})
    asked = game.prompts()
    game.engine.changed()                                           # what a change by hand calls
    assert game.prompts() is not asked and game.prompts() == asked


def test_starter_checks_once_and_makes_the_games_new_makes() -> None:
    c = find("outspeed")
    start = c.starter(PLAYERS, {"first_game": True})
    for seed in (0, 9):
        assert start(seed).to_data() == c.new(PLAYERS, seed, {"first_game": True}).to_data()
    with pytest.raises(GameError, match="distinct"):
        c.starter(("red", "red", "blue"), {})
    with pytest.raises(OptionError, match="first_game"):
        c.starter(PLAYERS, {"first_game": 1})

    made: list[int] = []

    class Counted(OutspeedCartridge):
        def new(self, players: Sequence[str], seed: int, options: Mapping[str, object]) -> OutspeedGame:  # type: ignore[override]
            made.append(seed)
            return super().new(players, seed, options)              # type: ignore[arg-type]

    counted = Counted()
    assert counted.starter(PLAYERS, {})(4).to_data() == c.new(PLAYERS, 4, {}).to_data()
    assert made == [4]                                              # its own new, for every game


def test_the_seeds_made_directly_are_derive_s() -> None:
    for namespace, seed, index in (("bitbox-simulate/outspeed", 3, 0), ("x", -5, 10**12), ("outspeed-simulate", 0, 7)):
        g = seeds.game_seed(namespace, seed, index)
        assert g == seeds.derive(namespace, seed, index)
        assert [seeds.bot_seed(namespace, g, k) for k in range(4)] == \
            [seeds.derive(namespace, g, "seat", k) for k in range(4)]


def test_the_console_random_bot_draws_as_randrange() -> None:
    options = tuple(range(7))
    bot, rng = RandomBot(11), random.Random(11)
    for n in (1, 2, 3, 7, 5):
        prompt = Prompt("red", "pick", options[:n])
        assert bot.choose({}, prompt) == (options[rng.randrange(n)] if n > 1 else options[0])


def test_play_still_refuses_a_game_that_stops_asking() -> None:
    class Stuck:
        players = ("red",)
        finished = False

        def prompts(self) -> tuple[()]:
            return ()

    with pytest.raises(GameError, match="asks nobody anything"):
        play(Stuck(), {"red": RandomBot(1)})                        # type: ignore[arg-type]


def test_a_game_pickled_or_deep_copied_after_its_prompts_plays_on_as_the_original():
    """The prompts a game keeps are not pickled (their shared option tuples would travel as
    plain tuples): the copy makes them again and plays the same game."""
    original = find("outspeed").new(["red", "blue", "green"], 1, {})
    original.prompts()
    for other in (pickle.loads(pickle.dumps(original)), copy.deepcopy(original)):
        mine = find("outspeed").new(["red", "blue", "green"], 1, {})
        for _ in range(6):
            answers = {p.player: p.options[-1] for p in other.prompts()}
            assert {p.player: p.options[-1] for p in mine.prompts()} == answers
            assert [e.to_data() for e in other.apply(answers)] == [e.to_data() for e in mine.apply(dict(answers))]
