"""A random player for Last One Alive: simulations, property tests and the benchmark.

:func:`play_game` drives a game prompt by prompt: an ``auto`` prompt gets its default (as a
table does; :meth:`~lastonealive.rules.Game.auto_answer` finds it without making the prompt),
any other a bot's pick among the legal answers.
"""
from __future__ import annotations

import random
from operator import attrgetter
from typing import Callable, Mapping

from .rules import Action, Event, Game, Prompt


_ARG = attrgetter("arg")


class RandomBot:
    """Picks uniformly among the legal answers (a family of answers counts as one), except
    that it draws every token it may half of the time, so games see the whole bag."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, game: Game, prompt: Prompt) -> Action:
        if prompt.kind in ("draw", "draw_barricades") and self.rng.random() < 0.5:
            return max(prompt.legal.actions, key=_ARG)
        return prompt.legal.sample(self.rng)


def play_game(game: Game, bots: Mapping[str, RandomBot], max_decisions: int = 100_000,
              on_event: Callable[[Event], None] | None = None) -> int:
    """Play to the end; return the number of decisions applied."""
    n = 0
    state = game.state
    auto_answer, apply = game.auto_answer, game.apply
    while not state.finished:
        action = auto_answer()                      # an auto prompt's default, made without the prompt
        if action is None:
            pr = game.prompt()
            assert pr is not None
            action = bots[pr.player].decide(game, pr)
            assert action is not None               # every prompt has a default or a bot's answer
        if on_event is None:
            apply(action)
        else:
            for e in apply(action):
                on_event(e)
        n += 1
        if n >= max_decisions:
            raise RuntimeError(f"no end after {n} decisions")
    return n
