"""The engine's quick paths give what the general ones give: ``Game.auto_answer`` is the auto
prompt's default, its draws are ``random.Random``'s, its lazy events are the events."""
from __future__ import annotations

import json
import pickle
import random

import pytest

from lastonealive.bots import RandomBot, play_game
from lastonealive.rules import VARIANTS, Event, Game, Refused, RulesError
from lastonealive.rules.events import _event
from lastonealive.rules.game import _below, _shuffle

NAMES = ("red", "blue", "green", "yellow", "purple")
# faces that reach the rare paths: "+" chains, ambushes on shoot dice, many ambushes
ODD_FACES = {"shoot": ("bang1plus", "bang1plus", "ambush", "bang2", "blank", "bang1"),
             "zombie": ("ambush", "zombie2", "zombie1", "blank", "ambush", "zombie2")}


def _games():
    for seed in range(48):
        players = 2 + seed % 4
        variants = [v for k, v in enumerate(VARIANTS) if seed >> k & 1]
        faces = ODD_FACES if seed % 3 == 0 else None
        yield Game.new(NAMES[:players], seed=seed, first=NAMES[seed % players], variants=variants, faces=faces), seed


def _record(events):
    return [json.dumps(e.to_data()) for e in events]


def test_auto_answer_is_the_default_of_an_auto_prompt_and_nothing_else():
    autos = decided = 0
    for game, seed in _games():
        bots = {p: RandomBot(seed * 10 + i) for i, p in enumerate(game.state.players)}
        assert game.auto_answer() is None or game.prompt().auto
        while not game.finished:
            pr = game.prompt()
            got = game.auto_answer()
            if pr.auto:
                assert got == pr.default and got is not None
                autos += 1
                # every other time the prompt's own default object, which goes through the check
                game.apply(got if autos % 2 else pr.default)
            else:
                assert got is None
                decided += 1
                game.apply(bots[pr.player].decide(game, pr))
        assert game.auto_answer() is None
    assert autos > 1000 and decided > 500


def test_play_game_plays_the_game_a_prompt_by_prompt_loop_plays():
    for game, seed in _games():
        twin = Game.from_data(game.to_data())
        bots = {p: RandomBot(seed * 10 + i) for i, p in enumerate(game.state.players)}
        twin_bots = {p: RandomBot(seed * 10 + i) for i, p in enumerate(game.state.players)}
        seen: list[Event] = []
        n = play_game(game, bots, on_event=seen.append)
        twin_seen: list[Event] = []
        m = 0
        while not twin.finished:
            pr = twin.prompt()
            twin_seen += twin.apply(pr.default if pr.auto else twin_bots[pr.player].decide(twin, pr))
            m += 1
        assert n == m
        assert _record(seen) == _record(twin_seen)
        assert json.dumps(game.to_data()) == json.dumps(twin.to_data())


def test_an_auto_answer_found_before_a_change_by_hand_is_checked_again():
    game = Game.new(NAMES[:3], seed=4, first="red")
    while game.auto_answer() is None:
        pr = game.prompt()
        game.apply(pr.legal.actions[0] if pr.legal.actions else next(iter(pr.legal)))
    answer = game.auto_answer()
    game.state.phase = "setup"                      # a position set by hand, then changed()
    game.changed()
    with pytest.raises((Refused, RulesError)):     # not taken as the answer found before
        game.apply(answer)


@pytest.mark.parametrize("seed", range(4))
def test_draws_are_the_generators_own(seed):
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in list(range(1, 70)) + [2**31, 10**20]:
        assert [_below(ours, n) for _ in range(20)] == [theirs.randrange(n) for _ in range(20)]
    for size in (0, 1, 2, 21, 22, 100):
        a, b = list(range(size)), list(range(size))
        _shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
    assert ours.getstate() == theirs.getstate()
    with pytest.raises(ValueError):
        _below(ours, 0)


def test_another_kind_of_generator_is_asked_its_own_draws():
    class Loaded(random.Random):
        def randrange(self, *args, **kwargs):       # type: ignore[override]
            return 0

        def shuffle(self, x, *args, **kwargs):      # type: ignore[override]
            x.reverse()

    assert [_below(Loaded(1), 6) for _ in range(5)] == [0] * 5
    x = [1, 2, 3]
    _shuffle(Loaded(1), x)
    assert x == [3, 2, 1]


def test_a_lazy_event_is_the_event_its_data_makes():
    lazy = _event("shot", ("player", "die", "bangs", "cleared", "face"), ("red", "f1", 1, False, "zombie1"))
    plain = Event("shot", {"player": "red", "die": "f1", "bangs": 1, "cleared": False, "face": "zombie1"})
    assert lazy == plain and repr(lazy) == repr(plain) and lazy.text() == plain.text()
    assert lazy.to_data() == plain.to_data() and list(lazy.data) == list(plain.data)
    assert lazy.player == "red" and lazy.data is lazy.data     # made once, then kept
    back = pickle.loads(pickle.dumps(lazy))
    assert back == plain and back.kind == "shot"
    lazy.data = {"player": "blue"}
    assert lazy.player == "blue"
