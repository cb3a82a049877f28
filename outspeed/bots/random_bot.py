"""A bot that picks uniformly among the legal inputs."""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ..rules import Choice
from bitbox.games.engine import choice as _choice   # rng.choice with the same draws, cheaper (see there)

from ..rules.game import _NOTHING
from .base import Bot

_CHOICES: dict[Any, Choice] = {}    # Choices are immutable values: one of each serves every bot


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int | None = None, bonus_rate: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.bonus_rate = bonus_rate

    def bonus(self, view: Mapping[str, Any], legal: Sequence[str | None]) -> str | None:
        if legal is _NOTHING or not any(legal):    # (_NOTHING: Game.bonus_options' "holds no token")
            return None                         # no token to play (the usual case): no draw either
        tokens = [t for t in legal if t is not None]
        if tokens and self.rng.random() < self.bonus_rate:
            return _choice(self.rng, tokens)
        return None

    def program(self, view: Mapping[str, Any], legal: Mapping[str, Sequence[int]]) -> Choice:
        try:                                    # Game.program_options made them once for all
            keys, ready = legal.sorted_keys, legal.choices  # type: ignore[attr-defined]  # duck-typed: Game's _Options
        except AttributeError:
            keys, ready = sorted(legal), None
        n = len(keys)
        rng = self.rng
        if n and rng.__class__ is random.Random:    # _choice(rng, keys), inlined: the hottest pick
            k = n.bit_length()
            r = rng.getrandbits(k)
            while r >= n:
                r = rng.getrandbits(k)
            if ready is not None and ready[r] is not None:
                return ready[r]                 # a path without number: its Choice is made
            path = keys[r]
        else:
            path = _choice(rng, keys)
        numbers = legal[path]
        key = (path, _choice(rng, numbers)) if numbers else path
        choice = _CHOICES.get(key)
        if choice is None:
            choice = _CHOICES[key] = Choice(path, key[1]) if numbers else Choice(path)
        return choice

    def keep(self, view: Mapping[str, Any], drawn: Sequence[str]) -> str:
        return _choice(self.rng, list(drawn))
