"""Helpers for rules tests: play whole games with random bots and check invariants."""
from __future__ import annotations

from outspeed.bots import RandomBot
from outspeed.bots.base import legal_programs
from outspeed.rules import Game

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")


def new_game(content, players: int, seed: int, first_game: bool = False, token_mode: str = "virtual") -> Game:
    return Game.new(COLOURS[:players], content.tiles, seed=seed, first_game=first_game, dice=content.dice,
                    token_counts=content.token_counts, markers=content.markers, token_mode=token_mode)


def step(game: Game, bots) -> list:
    """Apply one phase's inputs chosen by the bots; return the events."""
    s = game.state
    if s.phase == "bonus":
        return game.play_bonus({p: bots[p].bonus(game.private_view(p), game.legal_bonus_plays(p)) for p in s.active})
    if s.phase == "programming":
        return game.program({p: bots[p].program(game.private_view(p), legal_programs(game, p)) for p in s.active})
    if s.phase == "draw":
        p = s.draw_queue[0]
        return game.keep(p, bots[p].keep(game.private_view(p), list(s.drawn)))
    raise AssertionError(f"unexpected phase {s.phase}")


def bots_for(game: Game, seed: int) -> dict:
    return {p: RandomBot(seed * 7 + i) for i, p in enumerate(game.state.players)}
