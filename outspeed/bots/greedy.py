"""A greedy bot: the best immediate position, fuel-aware.

* Programming: every legal path (and centre-wheel number) is scored by the expected
  :func:`~outspeed.bots.model.position_value` of the bot's own ship right after the
  resolution, over the dice faces, with the other players assumed to spread evenly over the
  lit paths (for capacity, the solo rule and counts) and to stand still. Paths that would
  leave the ship at 0 fuel (or unable to pay on the finish tile) score as an elimination.
* Bonus: every legal token is tried on a model of the table (the engine run on what the bot
  sees, nobody else playing) and the best position is kept if it beats holding the token.
* Draw: the token worth most to keep (:func:`~outspeed.bots.model.keep_choice`).
"""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ..rules import Choice, Refused
from .base import Bot
from .model import DEFAULT_WEIGHTS, TileBook, Weights, clone, dice_of, keep_choice, model_game, option_values, seats, state_value


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, seed: int | None = None, dice: Mapping[str, Sequence[int]] | None = None,
                 bonus_margin: float = 0.2, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.rng = random.Random(seed)
        self.dice = dice_of(dice)
        self.book = TileBook(self.dice)
        self.bonus_margin = bonus_margin
        self.w = weights

    def bonus(self, view: Mapping[str, Any], legal: Sequence[str | None]) -> str | None:
        tokens = [t for t in legal if t is not None]
        if not tokens:
            return None
        me = view["me"]
        model = model_game(view, self.book, self.rng)
        turns_left = view["tiles_left"] + 1          # this turn's resolution is still to come
        best, best_v = None, state_value(model.state, me, turns_left, self.w) + self.bonus_margin
        for t in tokens:
            g = clone(model, self.rng)
            try:
                g.play_bonus({me: t})
            except Refused:
                continue
            v = state_value(g.state, me, turns_left, self.w)
            if v > best_v:
                best, best_v = t, v
        return best

    def program(self, view: Mapping[str, Any], legal: Mapping[str, Sequence[int]]) -> Choice:
        if len(legal) == 1 and len(next(iter(legal.values()))) <= 1:
            (key, nums), = legal.items()
            return Choice(key, nums[0] if nums else None)
        zone, fuel, tokens = seats(view)
        tile = self.book.tile(view["tile"])
        values = option_values(view["me"], zone, fuel, tokens, rear=view["track"]["rear"],
                               boards=view["track"]["boards"], markers=view["force_fields"],
                               paths=tile.face(view["face"]), legal=legal, dice=self.dice,
                               turns_left=view["tiles_left"], finish=tile.finish, w=self.w)
        top = max(v for v, _, _ in values)
        best = [(k, n) for v, k, n in values if v >= top - 1e-9]
        key, n = best[0] if len(best) == 1 else self.rng.choice(best)
        return Choice(key, n)

    def keep(self, view: Mapping[str, Any], drawn: Sequence[str]) -> str:
        return keep_choice(view, drawn)
