"""A lookahead bot: expected value over the dice and the other players' likely choices, one
turn ahead.

It builds a model of the table from what it sees (:func:`~outspeed.bots.model.model_game`:
the engine itself, run on the public view and the bot's own tokens; opponents' tokens
unknown, the pile unknown, the later tiles unknown) and plays the rest of the turn out a
handful of times:

* an **opponent profile** is one sample of what every other player does: in the bonus
  phase a player holding tokens plays one with probability ``play_rate`` (token types
  weighted by how many the box holds, among those their position allows); in programming
  each picks a path with probability softmax(greedy value / ``temperature``) mixed with a
  little uniform noise (so random players are not a surprise);
* the **dice** come from the model's own generator, one seed per sample, the same seeds
  for every option (common random numbers, so options are compared on the same luck);
* every legal option is played against the same ``samples`` profiles and scored by
  :func:`~outspeed.bots.model.state_value` after the resolution; the best mean wins.

In the bonus phase each option is followed by the bot's own greedy program choice and the
sampled opponents' programs, so a token is judged by where the whole turn ends.
"""
from __future__ import annotations

import math
import random
from typing import Any, Mapping, Sequence

from ..rules import Choice, Game, Refused
from .base import Bot
from .model import (NO_NUMBER, DEFAULT_WEIGHTS, TOKEN_WEIGHT, Weights, TileBook, clone, dice_of, keep_choice, model_game,
                    option_values, state_value)

Profile = dict[str, Choice]


class LookaheadBot(Bot):
    name = "lookahead"

    def __init__(self, seed: int | None = None, dice: Mapping[str, Sequence[int]] | None = None,
                 samples: int = 8, bonus_samples: int = 6, temperature: float = 2.0,
                 noise: float = 0.15, play_rate: float = 0.4, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.rng = random.Random(seed)
        self.dice = dice_of(dice)
        self.book = TileBook(self.dice)
        self.samples = samples
        self.bonus_samples = bonus_samples
        self.temperature = temperature
        self.noise = noise
        self.play_rate = play_rate
        self.w = weights

    # ------------------------------------------------------------------ opponent model
    def _policy(self, game: Game, player: str, turns_left: int) -> list[tuple[float, Choice]]:
        """How likely ``player`` is to program each of their legal choices."""
        s = game.state
        assert s.tile is not None                   # a tile is drawn before anyone programs
        paths = s.tile.face(s.face)
        legal = game.programs_for(s.fuel[player])
        values = option_values(player, s.zone, s.fuel, {p: len(h) for p, h in s.held.items()},
                               rear=s.rear, boards=s.boards, markers=s.markers, paths=paths, legal=legal,
                               dice=s.dice, turns_left=turns_left,
                               finish=s.tile.finish, w=self.w)
        best_per_path: dict[str, tuple[float, int | None]] = {}
        for v, k, n in values:                     # a "choose X" path counts once, at its best X
            if k not in best_per_path or v > best_per_path[k][0]:
                best_per_path[k] = (v, n)
        top = max(v for v, _ in best_per_path.values())
        weights = {k: math.exp((v - top) / self.temperature) for k, (v, _) in best_per_path.items()}
        total = sum(weights.values())
        uniform = 1 / len(weights)
        return [((1 - self.noise) * w / total + self.noise * uniform, Choice(k, best_per_path[k][1]))
                for k, w in weights.items()]

    def _sample(self, policy: list[tuple[float, Choice]]) -> Choice:
        r = self.rng.random()
        for p, c in policy:
            r -= p
            if r <= 0:
                return c
        return policy[-1][1]

    def _bonus_plays(self, game: Game, me: str) -> dict[str, str]:
        plays = {}
        for p in game.state.active:
            if p == me or not game.state.held[p] or self.rng.random() >= self.play_rate:
                continue
            options = [t for t in game.bonus_plays_of(p) if t is not None]
            if options:
                plays[p] = self.rng.choices(options, [TOKEN_WEIGHT[t] for t in options])[0]
        return plays

    # ------------------------------------------------------------------ decisions
    def program(self, view: Mapping[str, Any], legal: Mapping[str, Sequence[int]]) -> Choice:
        options = [Choice(k, n) for k in sorted(legal) for n in (legal[k] or NO_NUMBER)]
        if len(options) == 1:
            return options[0]
        me = view["me"]
        model = model_game(view, self.book, self.rng)
        policies = {p: self._policy(model, p, view["tiles_left"]) for p in model.state.active if p != me}
        profiles = [{p: self._sample(pol) for p, pol in policies.items()} for _ in range(self.samples)]
        seeds = [self.rng.getrandbits(32) for _ in range(self.samples)]
        return self._best(options, lambda c, k: self._after_program(model, me, {**profiles[k], me: c}, seeds[k],
                                                                   view["tiles_left"]), self.samples)

    def bonus(self, view: Mapping[str, Any], legal: Sequence[str | None]) -> str | None:
        if not any(t is not None for t in legal):
            return None
        me = view["me"]
        model = model_game(view, self.book, self.rng)
        n = self.bonus_samples
        plays = [self._bonus_plays(model, me) for _ in range(n)]
        policies = {p: self._policy(model, p, view["tiles_left"]) for p in model.state.active if p != me}
        profiles = [{p: self._sample(pol) for p, pol in policies.items()} for _ in range(n)]
        seeds = [self.rng.getrandbits(32) for _ in range(n)]

        def outcome(token: str | None, k: int) -> float:
            g = clone(model, random.Random(seeds[k]))
            try:
                g.play_bonus({**plays[k], me: token})
            except Refused:
                return -math.inf
            if g.state.finished or me not in g.state.zone:
                return state_value(g.state, me, view["tiles_left"], self.w)
            return self._program_out(g, me, profiles[k], view["tiles_left"])

        return self._best(list(legal), outcome, n)

    def keep(self, view: Mapping[str, Any], drawn: Sequence[str]) -> str:
        return keep_choice(view, drawn)

    # ------------------------------------------------------------------ helpers
    def _best(self, options: list, outcome, n: int):
        best, best_v = options[0], -math.inf
        for opt in options:
            v = sum(outcome(opt, k) for k in range(n))
            if v > best_v + 1e-9:
                best, best_v = opt, v
        return best

    def _after_program(self, model: Game, me: str, choices: Profile, seed: int, turns_left: int) -> float:
        g = clone(model, random.Random(seed))
        try:
            g.program(choices)
        except Refused:
            return -math.inf
        return state_value(g.state, me, turns_left, self.w)

    def _program_out(self, g: Game, me: str, profile: Profile, turns_left: int) -> float:
        """Finish the turn of a model after its bonus phase: the bot programs greedily, the
        others as sampled (a sampled choice no longer affordable falls back to a legal one)."""
        s = g.state
        assert s.tile is not None
        paths = s.tile.face(s.face)
        choices: Profile = {}
        for p in s.active:
            legal = g.programs_for(s.fuel[p])
            if p == me:
                values = option_values(me, s.zone, s.fuel, {q: len(h) for q, h in s.held.items()},
                                       rear=s.rear, boards=s.boards, markers=s.markers, paths=paths,
                                       legal=legal, dice=s.dice, turns_left=turns_left, finish=s.tile.finish, w=self.w)
                _, k, n = max(values, key=lambda t: t[0])
                choices[p] = Choice(k, n)
            else:
                c = profile.get(p)
                if c is None or c.path not in legal or (legal[c.path] and c.number not in legal[c.path]):
                    k = sorted(legal)[0]
                    c = Choice(k, legal[k][0] if legal[k] else None)
                choices[p] = c
        try:
            g.program(choices)
        except Refused:
            return -math.inf
        return state_value(g.state, me, turns_left, self.w)
