"""A bot that picks uniformly among the legal inputs."""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ..rules import Choice
from .base import Bot


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int | None = None, bonus_rate: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.bonus_rate = bonus_rate

    def bonus(self, view: Mapping[str, Any], legal: Sequence[str | None]) -> str | None:
        if len(legal) < 2 and (not legal or legal[0] is None):
            return None                         # nothing to play (the usual case): no draw either
        tokens = [t for t in legal if t is not None]
        if tokens and self.rng.random() < self.bonus_rate:
            return self.rng.choice(tokens)
        return None

    def program(self, view: Mapping[str, Any], legal: Mapping[str, Sequence[int]]) -> Choice:
        path = self.rng.choice(sorted(legal))
        numbers = legal[path]
        return Choice(path, self.rng.choice(numbers) if numbers else None)

    def keep(self, view: Mapping[str, Any], drawn: Sequence[str]) -> str:
        return self.rng.choice(list(drawn))
