"""A cartridge's ``playout`` plays the same games as the protocol's loop (``bitbox.bots.play``):
the same answers to the same prompts, the same events apply by apply, the same final state,
and so the same simulation records, field for field (docs/games.md, "playout")."""
from __future__ import annotations

import itertools

import pytest

import bitbox.simulation.runner as runner_module
from bitbox.bots import RandomBot, make_bot, play
from bitbox.bots.search import Budget, SearchBot
from bitbox.colours import SEAT_COLOURS
from bitbox.games import find
from bitbox.simulation import runner
from bitbox.simulation.games import Run
from bitbox.simulation.games import records as simulate_records
from lastonealive.sim.runner import SimConfig as LastOneAliveConfig
from outspeed.sim.runner import SimConfig as OutspeedConfig

# Each bot alone and the bots mixed, with the games played of each (the slow bots fewer).
OUTSPEED_SEATS = [(("random",), 5), (("greedy",), 2), (("lookahead",), 1), (("lookahead", "greedy", "random"), 2)]
LASTONEALIVE_SEATS = [(("random",), 6), (("careful",), 2), (("careful", "random"), 3)]
CASES = [("outspeed", p, bots, games) for p in range(3, 7) for bots, games in OUTSPEED_SEATS] + \
        [("lastonealive", p, bots, games) for p in range(2, 6) for bots, games in LASTONEALIVE_SEATS]


class Recorded:
    """A bot whose answers are written down with their prompts (the protocol's side)."""

    def __init__(self, bot, player, seen):
        self.bot, self.player, self.seen, self.name = bot, player, seen, bot.name

    def choose(self, view, prompt):
        action = self.bot.choose(view, prompt)
        self.seen.append((self.player, prompt, action))
        return action


def _bots(cartridge, players, kinds, seed):
    return {p: make_bot(cartridge, kinds[k % len(kinds)], seed * 10 + k) for k, p in enumerate(players)}


def _traces(name, players, kinds, seed, options=None):
    """The same game played through the protocol and through the playout: for each, every
    answer with its prompt, every apply's events, the final state and the winners."""
    cartridge = find(name)
    names = SEAT_COLOURS[:players]
    out = []
    for through_playout in (False, True):
        game = cartridge.new(names, seed, options or {})
        bots = _bots(cartridge, names, kinds, seed)
        answers: list = []
        applies: list = []
        if through_playout:
            count = cartridge.playout(game, bots, applies.append, lambda *a, seen=answers: seen.append(a))
            assert count == len(applies)                # it says how many applies it made
        else:
            play(game, {p: Recorded(b, p, answers) for p, b in bots.items()}, applies.append)
        assert game.finished and not game.prompts()
        out.append((answers, [[(e.kind, dict(e.data)) for e in events] for events in applies],
                    game.to_data(), tuple(game.winners)))
    return out


@pytest.mark.parametrize("name, players, kinds, games", CASES,
                         ids=[f"{n}-{p}-{'+'.join(b)}" for n, p, b, _ in CASES])
def test_the_playout_plays_the_protocols_game(name, players, kinds, games):
    for seed in range(games):
        protocol, playout = _traces(name, players, kinds, 100 + seed)
        assert playout[0] == protocol[0]                # every answer, to the same prompt
        assert playout[1] == protocol[1]                # every apply's events, in order
        assert playout[2:] == protocol[2:]              # the final state, the winners


def test_last_one_alive_variants_play_the_same_games():
    for options, players in (({"survivors": True}, 2), ({"day_night": True, "zombies_everywhere": True}, 4),
                             ({"zombified_rolls": True, "zombies_everywhere": True, "first_zombie": "first"}, 5)):
        for seed in range(3):
            protocol, playout = _traces("lastonealive", players, ("careful", "random"), seed, options)
            assert playout == protocol


def _both(make_records):
    """The records of a run played with the playout, and through the protocol only."""
    return list(make_records(True)), list(make_records(False))


@pytest.mark.parametrize("config", [
    OutspeedConfig(games=12, players=4, bots=("random",), seed=7),
    OutspeedConfig(games=6, players=5, bots=("lookahead", "greedy", "random"), seed=8, first_game=True),
    LastOneAliveConfig(games=16, players=4, bots=("random",), seed=7),
    LastOneAliveConfig(games=8, players=3, bots=("careful", "random"), seed=8, variants=("day_night",)),
], ids=["outspeed-random", "outspeed-mixed", "lastonealive-random", "lastonealive-mixed"])
def test_a_games_own_simulate_gives_the_same_records(config):
    """With the game's statistics hook (Last One Alive's sees every answer too): every field."""
    cartridge = config.cartridge()
    fast, general = _both(lambda playout: runner.records(config, cartridge=cartridge, playout=playout))
    assert fast == general
    assert len(fast) == config.games and {"prompts", "wins", "turns", "end"} <= set(fast[0])


@pytest.mark.parametrize("run, workers", [
    (Run("outspeed", 8, 6, ("greedy", "random"), seed=4), 2),
    (Run("lastonealive", 8, 5, ("careful", "random"), seed=4), 1),
    (Run("lastonealive", 16, 2, ("random",), seed=5, options={"survivors": True}), 2),
], ids=["outspeed", "lastonealive", "lastonealive-survivors"])
def test_bitbox_simulate_gives_the_same_records(run, workers):
    fast, general = _both(lambda playout: simulate_records(run, playout=playout))
    assert fast == general
    if workers > 1:                                     # the playout in the worker processes too
        assert list(simulate_records(run, workers=workers)) == fast


@pytest.mark.parametrize("name", ["outspeed", "lastonealive"])
def test_the_runner_plays_own_bots_by_the_playout_and_others_through_the_protocol(name, monkeypatch):
    calls = []
    monkeypatch.setattr(runner_module, "play", lambda *a, **k: calls.append(a) or play(*a, **k))
    cartridge = find(name)
    list(simulate_records(Run(name, 3, 3, ("random",), seed=1)))
    assert calls == []                                  # every game by the playout
    list(simulate_records(Run(name, 3, 3, ("random",), seed=1), playout=False))
    assert len(calls) == 3
    calls.clear()

    class Foreign(RandomBot):                           # a bot the cartridge does not know
        name = "foreign"

    game = cartridge.new(SEAT_COLOURS[:3], 1, {})
    before = game.to_data()
    bots = _bots(cartridge, SEAT_COLOURS[:3], ("random",), 1)
    states = [b.rng.getstate() if hasattr(b, "rng") and b.rng is not None else None for b in bots.values()]
    for odd in (Foreign(3), SearchBot(cartridge, 3, Budget(rollouts=2))):
        assert cartridge.playout(game, {**bots, SEAT_COLOURS[2]: odd}) is None
        assert game.to_data() == before                 # nothing done: not a draw, not an apply
        assert [b.rng.getstate() if hasattr(b, "rng") and b.rng is not None else None
                for b in bots.values()] == states
    assert cartridge.playout(game, {p: b for p, b in itertools.islice(bots.items(), 2)}) is None  # a seat without a bot


def test_a_seat_the_playout_does_not_know_goes_through_the_protocol():
    """A search bot in one seat: the runner plays that game through the protocol (the same
    records as with the playout switched off)."""
    run = Run("lastonealive", 2, 2, ("random", "search"), seed=2, search=Budget(rollouts=2))
    fast, general = _both(lambda playout: simulate_records(run, playout=playout))
    assert fast == general


def test_an_auto_prompt_with_several_options_is_the_bots_to_answer():
    """With the bag empty a draw is ``auto`` yet lists every count of draws: the bots answer
    it (the random bot draws among them) in the playout as through the protocol."""
    cartridge = find("lastonealive")
    names = SEAT_COLOURS[:3]
    several = 0
    for seed in range(4):
        out = []
        for through_playout in (False, True):
            game = cartridge.new(names, seed, {})
            game.engine.state.bag = []                  # by hand: nothing left to draw
            game.engine.changed()
            bots = _bots(cartridge, names, ("random",), seed)
            applies: list = []
            if through_playout:
                assert cartridge.playout(game, bots, applies.append) == len(applies)
            else:
                seen: list = []
                play(game, {p: Recorded(b, p, seen) for p, b in bots.items()}, applies.append)
                several += sum(1 for _, prompt, _ in seen if prompt.context.get("auto") and len(prompt.options) > 1)
            out.append(([[(e.kind, dict(e.data)) for e in events] for events in applies], game.to_data()))
        assert out[1] == out[0]
    assert several > 0                                  # the case was met
