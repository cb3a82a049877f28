"""What a bot knows and how it judges a position.

Everything here works from what a player can see: the public view plus their own tokens
(``Game.private_view``), the tile data (public, in the view) and the dice faces (public,
``config/dice.yaml``). Nothing reads the real game's state.

* :func:`position_value` scores one ship's situation in "zone" units (1.0 = one zone of
  progress): progress, lead over the best opponent, fuel against what the rest of the race
  needs, tokens held, and the danger of being on the rear board when someone is about to
  pass the front (that board is then removed with the ships on it).
* :func:`path_outlook` gives the distribution of what a path does for one player, from the
  tile data and the dice faces, with a naive guess of the other players' choices
  (each lit path equally likely); the greedy bot and the lookahead bot's opponent model use it.
* :func:`model_game` builds a hypothetical :class:`~outspeed.rules.Game` from a view, for
  the lookahead bot: opponents' tokens are unknown (``UNKNOWN``, so any token counts as
  playable for them), the bonus pile is unknown (the model runs in the engine's "physical"
  token mode: a draw adds one unknown token), the tiles after the current one are unknown.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb
from typing import Any, Iterable, Mapping, Sequence

from ..rules import DEFAULT_DICE, DEFAULT_TOKEN_COUNTS, UNKNOWN, Game, GameState, Path, Tile, parse_tile
from ..rules.game import BOARD, MAX_BOARDS


@dataclass(frozen=True)
class Weights:
    """The terms of :func:`position_value`, in zones. Tuned by simulation (docs/simulate.md)."""

    zone: float = 1.0          # one zone of progress
    lead: float = 0.35         # per zone ahead of (or behind) the best opponent, within ±6
    fuel_per_turn: float = 1.0 # fuel a ship needs per remaining turn
    fuel: float = 0.8          # per fuel unit, up to what the rest of the race needs
    spare: float = 0.12        # per fuel unit beyond it (the tie-break at the finish)
    short: float = 1.5         # per (fuel unit short of the need)², divided by the turns left
    low_fuel: float = 2.5      # per unit under 3 fuel while turns remain
    token: float = 0.6         # per token held (up to 3)
    danger: float = 4.0        # per zone short of the safe line when a board may be removed
    eliminated: float = -60.0
    win: float = 25.0


DEFAULT_WEIGHTS = Weights()

#: How likely an unseen token is of each type: the counts in the box.
TOKEN_WEIGHT = DEFAULT_TOKEN_COUNTS
#: The numbers of a path that takes none: one program, without a number.
NO_NUMBER: tuple[int | None, ...] = (None,)


def position_value(zone: int, fuel: float, tokens: int, *, rear: int, boards: int,
                   others_max: int | None, turns_left: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """Score an active ship's position (higher is better), in zones."""
    v = w.zone * zone
    if others_max is not None:
        v += w.lead * max(-6, min(6, zone - others_max))
    need = w.fuel_per_turn * turns_left
    v += w.fuel * min(fuel, need) + w.spare * max(0.0, fuel - need)
    if fuel < need and w.short:
        v -= w.short * (need - fuel) ** 2 / turns_left
    if turns_left > 0 and fuel < 3:
        v -= w.low_fuel * (3 - fuel)
    v += w.token * min(tokens, 3)
    if turns_left > 0:
        front = rear + BOARD * boards - 1
        leader = zone if others_max is None else max(zone, others_max)
        room = front - leader                 # zones until a third board is laid
        threat = min(1.0, max(0.0, (5 - room) / 5))
        short = rear + BOARD - zone           # zones to gain to be off the rear board
        if threat and short > 0:
            v -= w.danger * threat * short
    return v


def state_value(state: GameState, me: str, turns_left: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """Score a (hypothetical) game state for ``me``."""
    if me not in state.zone:
        return w.eliminated
    others = [state.zone[p] for p in state.active if p != me]
    v = position_value(state.zone[me], state.fuel[me], len(state.held[me]), rear=state.rear,
                       boards=min(state.boards, 2), others_max=max(others) if others else None,
                       turns_left=0 if state.finished else turns_left, w=w)
    if state.finished and me in state.winners:
        v += w.win / len(state.winners)
    return v


# --------------------------------------------------------------------------- distributions

Dist = list[tuple[float, float]]     # (value, probability)


def _convolve(a: Dist, b: Dist) -> Dist:
    out: dict[float, float] = {}
    for va, pa in a:
        for vb, pb in b:
            out[va + vb] = out.get(va + vb, 0.0) + pa * pb
    return list(out.items())


_DIE_CACHE: dict[tuple[tuple[int, ...], int], Dist] = {}


def die_dist(faces: Sequence[int], times: int = 1) -> Dist:
    key = (tuple(faces), times)
    d = _DIE_CACHE.get(key)
    if d is None:
        one: dict[float, float] = {}
        for f in faces:
            one[abs(f)] = one.get(abs(f), 0.0) + 1 / len(faces)
        d = [(0.0, 1.0)]
        for _ in range(times):
            d = _convolve(d, list(one.items()))
        _DIE_CACHE[key] = d
    return d


def amount_dist(amount, dice: Mapping[str, Sequence[int]], counts: Mapping[str, float],
                number: int | None) -> Dist:
    k = amount.kind
    if k == "fixed":
        return [(float(amount.value), 1.0)]
    if k == "die":
        return die_dist(dice[amount.die], amount.times)
    if k == "count":
        return [(counts.get(amount.path, 0.0), 1.0)]
    return [(float(number or 0), 1.0)]


def line_dist(effects: Iterable, kind: str, dice, counts, number) -> Dist:
    d: Dist = [(0.0, 1.0)]
    for e in effects:
        if e.kind == kind:
            d = _convolve(d, amount_dist(e.amount, dice, counts, number))
    return d


def _binom_le(n: int, p: float, k: int) -> float:
    """P(X <= k) for X ~ Binomial(n, p)."""
    return sum(comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(0, min(k, n) + 1))


def path_outlook(path: Path, paths: Mapping[str, Path], n_others: int,
                 dice: Mapping[str, Sequence[int]], number: int | None = None,
                 share: Mapping[str, float] | None = None) -> list[tuple[float, float, float, float, float]]:
    """Outcomes of programming ``path`` for one player: a list of
    ``(probability, fuel paid, move, fuel gained, tokens drawn)``. The other ``n_others``
    players each pick path ``k`` with probability ``share[k]`` (default: equally likely)."""
    lit = len(paths)
    share = share or {k: 1 / lit for k in paths}
    counts = {k: n_others * share.get(k, 0.0) + (1.0 if k == path.key else 0.0) for k in paths}
    q = share.get(path.key, 0.0)
    cost = line_dist(path.cost, "fuel", dice, counts, number)
    move = line_dist(path.gain, "move", dice, counts, number)
    gain = sum(v * p for v, p in line_dist(path.gain, "fuel", dice, counts, number))
    draws = sum(v * p for v, p in line_dist(path.gain, "bonus", dice, counts, number))
    out: list[tuple[float, float, float, float, float]] = []
    if path.solo:
        alone = (1 - q) ** n_others
        for m, pm in move:
            out.append((alone * pm, 0.0, m, gain, draws))
        for c, pc in cost:
            out.append(((1 - alone) * pc, c, 0.0, 0.0, 0.0))
        return out
    through = 1.0 if path.capacity is None else _binom_le(n_others, q, path.capacity - 1)
    if through < 1.0:
        out.append((1 - through, 0.0, 0.0, 0.0, 0.0))
    for c, pc in cost:
        for m, pm in move:
            out.append((through * pc * pm, c, m, gain, draws))
    return out


def move_target(zone: int, move: float, rear: int, markers: Iterable[int]) -> int:
    """Where a forward move of ``move`` zones ends: stopped by force fields, never past
    the front of a three-board track."""
    target = min(zone + int(round(move)), rear + BOARD * MAX_BOARDS - 1)
    for z in sorted(markers):
        if zone < z <= target:
            return z
    return target


def expected_path_value(path: Path, paths: Mapping[str, Path], *, zone: int, fuel: int, tokens: int,
                        rear: int, boards: int, others_max: int | None, n_others: int,
                        markers: Sequence[int], turns_left: int, finish: bool,
                        dice: Mapping[str, Sequence[int]], number: int | None = None,
                        share: Mapping[str, float] | None = None, w: Weights = DEFAULT_WEIGHTS) -> float:
    """The expected :func:`position_value` after programming ``path``, others standing still."""
    total = 0.0
    for p, paid, move, gained, draws in path_outlook(path, paths, n_others, dice, number, share):
        if p <= 0:
            continue
        left = fuel - paid
        if left < 0 or (left == 0 and paid > 0 and not finish):
            total += p * w.eliminated
            continue
        z = move_target(zone, move, rear, markers) if move else zone
        total += p * position_value(z, int(left + gained), tokens + int(round(draws)), rear=rear,
                                    boards=boards, others_max=others_max, turns_left=turns_left, w=w)
    return total


# --------------------------------------------------------------------------- views

class TileBook:
    """Tiles parsed from the views' tile data, cached by number."""

    def __init__(self, dice: Mapping[str, Sequence[int]]) -> None:
        self.dice = dice
        self._tiles: dict[int, tuple[Any, Tile]] = {}

    def tile(self, data: Mapping[str, Any]) -> Tile:
        got = self._tiles.get(data["number"])
        if got is not None and (got[0] is data or got[0] == data):
            return got[1]
        tile = parse_tile(data, "view", dice=tuple(self.dice), require_faces=(), max_number=None)
        self._tiles[data["number"]] = (data, tile)
        return tile

    def paths(self, view: Mapping[str, Any]) -> Mapping[str, Path]:
        return self.tile(view["tile"]).face(view["face"])


def seats(view: Mapping[str, Any]) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """(zone of each active player, fuel of each player, token count of each player)."""
    zone, fuel, tokens = {}, {}, {}
    for s in view["players"]:
        p = s["player"]
        fuel[p] = s["fuel"]
        tokens[p] = s["tokens"]
        if s["active"]:
            zone[p] = s["zone"]
    return zone, fuel, tokens


def model_game(view: Mapping[str, Any], book: TileBook, rng: random.Random) -> Game:
    """A hypothetical game built from ``view`` (see the module docstring)."""
    me = view["me"]
    zone, fuel, tokens = seats(view)
    players = tuple(s["player"] for s in view["players"])
    active = [p for p in players if p in zone]
    held = {p: (list(view["held"]) if p == me else [UNKNOWN] * tokens[p]) if p in zone else [] for p in players}
    markers = list(view["force_fields"])
    return Game(GameState(
        players=players, zone=zone, fuel=fuel, held=held, active=active,
        eliminated=[list(e) for e in view["eliminated"]], rear=view["track"]["rear"],
        boards=view["track"]["boards"], markers=markers, marker_total=len(markers) + view["markers_left"],
        pile=[], discards=[], tile=book.tile(view["tile"]) if view["tile"] else None, stack=[],
        face=view["face"], next_face=view["next_face"], dice={k: tuple(v) for k, v in book.dice.items()},
        rng=rng, token_mode="physical", seed=0, turn=view["turn"], phase=view["phase"]))


def clone(game: Game, rng: random.Random) -> Game:
    """A cheap copy of a model game, drawing its chance from ``rng``."""
    s = game.state
    return Game(GameState(
        players=s.players, zone=dict(s.zone), fuel=dict(s.fuel), held={p: list(h) for p, h in s.held.items()},
        active=list(s.active), eliminated=list(s.eliminated), rear=s.rear, boards=s.boards,
        markers=list(s.markers), marker_total=s.marker_total, pile=[], discards=[], tile=s.tile, stack=[],
        face=s.face, next_face=s.next_face, dice=s.dice, rng=rng, token_mode="physical", seed=0,
        turn=s.turn, phase=s.phase))


def token_value(token: str, *, rearmost: bool = False, fuel: int = 12, finish_next: bool = False) -> float:
    """How much a bonus token is worth to keep, in zones (for the draw choice)."""
    if token == "nitro":
        return 1.0
    if token == "fuel_tank":
        return 2 * (DEFAULT_WEIGHTS.fuel if fuel < 8 else DEFAULT_WEIGHTS.spare * 3)
    if token == "flamethrower":
        return 1.1
    if token == "electromagnet":
        return 2.2 if rearmost else 1.2
    if token == "ion_cannon":
        return 1.8 if rearmost else 1.0
    if token == "force_field":
        return 0.4 if finish_next else 0.8
    return 0.5


def keep_choice(view: Mapping[str, Any], drawn: Sequence[str]) -> str:
    """The drawn token worth most to keep (the first of equals)."""
    zone, fuel, _ = seats(view)
    me = view["me"]
    rearmost = me in zone and zone[me] == min(zone.values())
    best = max(drawn, key=lambda t: token_value(t, rearmost=rearmost, fuel=fuel.get(me, 0),
                                                finish_next=view["tiles_left"] <= 1))
    return best


def dice_of(dice: Mapping[str, Sequence[int]] | None) -> dict[str, tuple[int, ...]]:
    return {k: tuple(v) for k, v in (dice or DEFAULT_DICE).items()}


# --------------------------------------------------------------------------- choices

def option_values(me: str, zone: Mapping[str, int], fuel: Mapping[str, int], tokens: Mapping[str, int], *,
                  rear: int, boards: int, markers: Sequence[int], paths: Mapping[str, Path],
                  legal: Mapping[str, Sequence[int]], dice: Mapping[str, Sequence[int]], turns_left: int,
                  finish: bool, share: Mapping[str, float] | None = None,
                  w: Weights = DEFAULT_WEIGHTS) -> list[tuple[float, str, int | None]]:
    """``(expected value, path, number)`` of each legal program of ``me``, others standing still."""
    others = [z for p, z in zone.items() if p != me]
    out: list[tuple[float, str, int | None]] = []
    for key in sorted(legal):
        for n in (legal[key] or NO_NUMBER):
            v = expected_path_value(paths[key], paths, zone=zone[me], fuel=fuel[me], tokens=tokens[me],
                                    rear=rear, boards=boards, others_max=max(others) if others else None,
                                    n_others=len(others), markers=markers, turns_left=turns_left,
                                    finish=finish, dice=dice, number=n, share=share, w=w)
            out.append((v, key, n))
    return out
