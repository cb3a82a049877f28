"""Bots: legal play to the end, only what a player sees, determinism, and strength order."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from bitbox.colours import SEAT_COLOURS

from outspeed.bots import BOTS, GreedyBot, LazyView, LookaheadBot, RandomBot, legal_programs, make_bot, play_game
from outspeed.bots.model import model_game, TileBook
from outspeed.rules import TOKENS, Choice, Game

COLOURS = SEAT_COLOURS


def new_game(content, players, seed, first_game=False):
    return Game.new(COLOURS[:players], content.tiles, seed=seed, first_game=first_game, dice=content.dice,
                    token_counts=content.token_counts, markers=content.markers)


class Checked:
    """Wraps a bot: checks every answer is among the legal options and the view is the
    player's own private view."""

    def __init__(self, bot, game, player):
        self.bot, self.game, self.player = bot, game, player
        self.calls = Counter()

    def _check_view(self, view):
        assert dict(view) == self.game.private_view(self.player)

    def bonus(self, view, legal):
        self._check_view(view)
        self.calls["bonus"] += 1
        t = self.bot.bonus(view, legal)
        assert t in legal
        return t

    def program(self, view, legal):
        self._check_view(view)
        self.calls["program"] += 1
        c = self.bot.program(view, legal)
        assert isinstance(c, Choice) and c.path in legal
        assert (c.number in legal[c.path]) if legal[c.path] else c.number is None
        return c

    def keep(self, view, drawn):
        self._check_view(view)
        self.calls["keep"] += 1
        t = self.bot.keep(view, drawn)
        assert t in drawn
        return t


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.parametrize("players,seed,first", [(3, 1, False), (6, 2, False), (4, 3, True)])
def test_every_bot_plays_legal_games_to_the_end(content, name, players, seed, first):
    game = new_game(content, players, seed, first)
    bots = {p: Checked(make_bot(name, seed * 10 + i, dice=content.dice), game, p)
            for i, p in enumerate(game.state.players)}
    play_game(game, bots)
    assert game.finished
    assert sum(b.calls["program"] for b in bots.values()) > 0


def test_mixed_table_including_the_finish_choose_x_tile(content):
    # Finish tile 16 ("choose X") is exercised: play until one game ends on it.
    seen = False
    for seed in range(40):
        game = new_game(content, 4, seed)
        if game.state.stack[-1].number != 16:
            continue
        bots = {p: Checked(make_bot(("greedy", "lookahead", "random", "greedy")[i], seed + i, dice=content.dice), game, p)
                for i, p in enumerate(game.state.players)}
        play_game(game, bots)
        seen = True
        break
    assert seen


def test_make_bot_by_name_and_unknown_names(content):
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy", 1, dice=content.dice), GreedyBot)
    assert isinstance(make_bot("lookahead", 1, samples=4), LookaheadBot)
    assert {make_bot(n, 0).name for n in BOTS} == set(BOTS)
    with pytest.raises(ValueError, match="unknown bot 'clever'.*random, greedy, lookahead"):
        make_bot("clever")


@pytest.mark.parametrize("name", ["greedy", "lookahead"])
def test_same_seed_same_game(content, name):
    def play(seed):
        game = new_game(content, 5, seed)
        play_game(game, {p: make_bot(name, seed + i, dice=content.dice) for i, p in enumerate(game.state.players)})
        return json.dumps(game.to_data(), sort_keys=True)

    assert play(7) == play(7)


def _hide_differently(game: Game, me: str, seed: int) -> Game:
    """A copy of ``game`` that differs only in what ``me`` cannot see: the other players'
    token types, the pile order and the random generator."""
    other = game.copy()
    s = other.state
    rng = random.Random(seed)
    for p in s.active:
        if p != me:
            s.held[p] = [rng.choice(TOKENS) for _ in s.held[p]]
    rng.shuffle(s.pile)
    s.rng.seed(seed)
    return other


@pytest.mark.parametrize("name", ["random", "greedy", "lookahead"])
def test_decisions_depend_only_on_what_the_player_sees(content, name):
    checked = 0
    for seed in range(6):
        game = new_game(content, 5, seed)
        bots = {p: make_bot("random", seed + i) for i, p in enumerate(game.state.players)}
        # Play a few turns in, so tokens are held and ships spread out.
        while not game.finished and game.state.turn < 4 + seed % 3:
            s = game.state
            if s.phase == "bonus":
                game.play_bonus({p: bots[p].bonus(None, game.legal_bonus_plays(p)) for p in s.active})
            elif s.phase == "programming":
                game.program({p: bots[p].program(None, legal_programs(game, p)) for p in s.active})
            else:
                game.keep(s.draw_queue[0])
        if game.finished:
            continue
        for phase in ("bonus", "programming"):
            if game.state.phase != phase:
                game.play_bonus({p: None for p in game.state.active})
            me = game.state.active[0]
            twin = _hide_differently(game, me, seed + 100)
            assert twin.private_view(me) == game.private_view(me)
            answers = []
            for g in (game, twin):
                bot = make_bot(name, 99, dice=content.dice)
                view = g.private_view(me)
                if phase == "bonus":
                    answers.append(bot.bonus(view, g.legal_bonus_plays(me)))
                else:
                    answers.append(bot.program(view, legal_programs(g, me)))
            assert answers[0] == answers[1]
            checked += 1
    assert checked >= 6


def test_lazy_view_is_the_private_view_and_play_game_is_unchanged(content):
    game = new_game(content, 6, 11)
    view = LazyView(game, "red")
    assert dict(view) == game.private_view("red") and len(view) == len(game.private_view("red"))
    assert view["me"] == "red"

    # play_game with lazy views plays exactly the game an eager loop plays.
    def eager(seed):
        g = new_game(content, 6, seed)
        bots = {p: RandomBot(seed * 10 + i) for i, p in enumerate(g.state.players)}
        s = g.state
        while not s.finished:
            if s.phase == "bonus":
                g.play_bonus({p: bots[p].bonus(g.private_view(p), g.legal_bonus_plays(p)) for p in s.active})
            elif s.phase == "programming":
                g.program({p: bots[p].program(g.private_view(p), legal_programs(g, p)) for p in s.active})
            else:
                p = s.draw_queue[0]
                g.keep(p, bots[p].keep(g.private_view(p), list(s.drawn)))
        return g.to_data()

    for seed in (1, 2, 3):
        g = new_game(content, 6, seed)
        play_game(g, {p: RandomBot(seed * 10 + i) for i, p in enumerate(g.state.players)})
        assert g.to_data() == eager(seed)


def test_model_game_matches_what_the_engine_allows(content):
    book = TileBook(content.dice)
    for seed in range(5):
        game = new_game(content, 4, seed)
        bots = {p: RandomBot(seed + i) for i, p in enumerate(game.state.players)}
        while not game.finished:
            s = game.state
            if s.phase == "programming":
                for p in s.active:
                    model = model_game(game.private_view(p), book, random.Random(0))
                    assert model.programs_for(s.fuel[p]) == legal_programs(game, p)
                    assert model.state.zone == s.zone and model.state.fuel == s.fuel
                    assert model.state.held[p] == sorted(s.held[p])
                game.program({p: bots[p].program(None, legal_programs(game, p)) for p in s.active})
            elif s.phase == "bonus":
                game.play_bonus({p: bots[p].bonus(None, game.legal_bonus_plays(p)) for p in s.active})
            else:
                game.keep(s.draw_queue[0])


def test_greedy_beats_random_and_lookahead_beats_greedy(content):
    def wins(names, games, players):
        score = Counter()
        for seed in range(games):
            game = new_game(content, players, 1000 + seed)
            seat = {p: names[(i + seed) % len(names)] for i, p in enumerate(game.state.players)}
            play_game(game, {p: make_bot(seat[p], seed * 10 + i, dice=content.dice, **({"samples": 6} if seat[p] == "lookahead" else {}))
                             for i, p in enumerate(game.state.players)})
            for w in game.state.winners:
                score[seat[w]] += 1 / len(game.state.winners)
        return score

    s = wins(["random", "greedy"], 40, 4)
    assert s["greedy"] > 1.5 * s["random"], s
    s = wins(["greedy", "lookahead"], 16, 6)
    assert s["lookahead"] > s["greedy"], s
