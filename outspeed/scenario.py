"""Rule scenarios (format: docs/scenarios.md): a position, some turns, and what must come out.

``outspeed scenario FILE...`` runs each file and prints one JSON line per file; exit 0 if
every file met its ``expect``, 1 if any did not, 2 if a file could not be read or is not a
valid scenario (the message names the file and the field). The runner (the JSON lines, the
exit codes, :class:`ScenarioError`, the field readers, the comparisons) is the console's
(:mod:`bitbox.games.scenarios`); this module is Outspeed's format, :data:`FORMAT` (the
cartridge's ``scenarios``).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from bitbox.games import scenarios as sc_
from bitbox.games.scenarios import Outcome, ScenarioError, listing, mapping, unknown_fields, whole_number

from .content import ConfigError, Content, load_content, load_yaml
from .rules import FACES, PATHS, REFUSAL_CODES, TOKENS, Choice, Game, GameState, Refused, RulesError, Tile, TileError, parse_tile
from .rules.game import BOARD, MAX_PLAYERS, MIN_PLAYERS, START_FUEL

TOP_KEYS = {"name", "players", "tile", "face", "stack", "track", "ships", "fuel", "held",
            "force_fields", "pile", "discards", "seed", "turns", "expect"}
TURN_KEYS = {"bonus", "program", "choose", "dice", "keep"}
EXPECT_KEYS = {"ships", "fuel", "eliminated", "held_count", "force_fields", "track", "finished",
               "winner", "refused"}


@dataclass
class Turn:
    bonus: dict[str, str | None] = field(default_factory=dict)
    program: dict[str, Choice] = field(default_factory=dict)
    dice: dict[str, list[int]] = field(default_factory=dict)
    keep: dict[str, list[str]] = field(default_factory=dict)


Scenario = sc_.Scenario


# ---------------------------------------------------------------------------- parsing

_int = whole_number
_map = mapping
_list = listing
_players_map = sc_.players_map


def _token(value: Any, where: str) -> str:
    return sc_.name(value, where, TOKENS, "bonus token")


class _Tiles:
    """Tile numbers resolved against config/, loaded only when a scenario uses one."""

    def __init__(self, content: Content | None) -> None:
        self._content = content

    def content(self) -> Content:
        if self._content is None:
            self._content = load_content()
        return self._content

    def resolve(self, value: Any, where: str, dice: tuple[str, ...]) -> Tile:
        if isinstance(value, Mapping):
            try:
                return parse_tile(value, "", dice=dice, require_faces=(), max_number=None)
            except TileError as exc:
                raise ScenarioError(where, str(exc)) from None
        n = _int(value, where, 1, 16)
        return self.content().tile(n)


def parse_scenario(data: Any, content: Content | None = None) -> Scenario:
    if not isinstance(data, Mapping):
        raise ScenarioError("", "a scenario is a YAML mapping (players, tile, ships, turns, expect, ...)")
    unknown_fields(data, sorted(TOP_KEYS))
    tiles = _Tiles(content)

    players = sc_.players(data.get("players"), "Outspeed", MIN_PLAYERS, MAX_PLAYERS)

    dice_faces = tiles.content().dice
    dice_names = tuple(dice_faces)

    if "tile" not in data:
        raise ScenarioError("tile", "missing: the current tile (a number or an inline tile)")
    tile = tiles.resolve(data["tile"], "tile", dice_names)
    stack = [tiles.resolve(t, f"stack[{i}]", dice_names) for i, t in enumerate(_list(data.get("stack"), "stack"))]
    face = data.get("face", "3-4" if len(players) <= 4 else "5-6")
    if face not in FACES:
        raise ScenarioError("face", f"must be \"3-4\" or \"5-6\", got {face!r}")
    if face not in tile.faces:
        raise ScenarioError("tile", f"the current tile has no {face!r} face")

    track = _map(data.get("track"), "track")
    unknown_fields(track, ("rear", "boards"), "track")
    rear = _int(track.get("rear", 1), "track.rear", 1)
    boards = _int(track.get("boards", 2), "track.boards", 2, 3)
    front = rear + BOARD * boards - 1

    ships = _players_map(data.get("ships"), "ships", players)
    zone = {p: _int(ships.get(p, 3), f"ships.{p}", rear, front) for p in players}
    fuel_map = _players_map(data.get("fuel"), "fuel", players)
    fuel = {p: _int(fuel_map.get(p, START_FUEL), f"fuel.{p}", 0, 10**6) for p in players}
    held_map = _players_map(data.get("held"), "held", players)
    held = {p: [_token(t, f"held.{p}[{i}]") for i, t in enumerate(_list(held_map.get(p), f"held.{p}"))]
            for p in players}

    content_counts, marker_total = dict(tiles.content().token_counts), tiles.content().markers
    markers = [_int(z, f"force_fields[{i}]", rear, front) for i, z in enumerate(_list(data.get("force_fields"), "force_fields"))]
    if len(markers) > marker_total:
        raise ScenarioError("force_fields", f"{len(markers)} markers, but the game has only {marker_total}")
    discards = [_token(t, f"discards[{i}]") for i, t in enumerate(_list(data.get("discards"), "discards"))]
    seed = _int(data.get("seed", 0), "seed", 0, 2**63)
    rng = random.Random(seed)
    if "pile" in data:
        pile = [_token(t, f"pile[{i}]") for i, t in enumerate(_list(data.get("pile"), "pile"))]
    else:
        # Default pile: the tokens not held and not discarded, shuffled with the seed.
        left = dict(content_counts)
        for t in [t for h in held.values() for t in h] + discards:
            left[t] = max(0, left[t] - 1)
        pile = [t for t in TOKENS for _ in range(left[t])]
        rng.shuffle(pile)

    state = GameState(
        players=players, zone=zone, fuel=fuel, held=held, active=list(players), eliminated=[],
        rear=rear, boards=boards, markers=markers, marker_total=marker_total, pile=pile,
        discards=discards, tile=tile, stack=stack, face=face, next_face=face,
        dice=dict(dice_faces), rng=rng, seed=seed)
    game = Game(state)

    turns = [_parse_turn(t, f"turns[{i}]", players) for i, t in enumerate(_list(data.get("turns"), "turns"))]
    expect = dict(_map(data.get("expect"), "expect"))
    unknown_fields(expect, sorted(EXPECT_KEYS), "expect")
    _check_expect(expect, players)
    return Scenario(str(data.get("name", "")), game, turns, expect)


def _parse_turn(data: Any, where: str, players: Sequence[str]) -> Turn:
    data = _map(data, where)
    unknown_fields(data, sorted(TURN_KEYS), where)
    turn = Turn()
    for p, t in _players_map(data.get("bonus"), f"{where}.bonus", players).items():
        turn.bonus[p] = None if t in (None, "none") else _token(t, f"{where}.bonus.{p}")
    choose = _players_map(data.get("choose"), f"{where}.choose", players)
    for p, path in _players_map(data.get("program"), f"{where}.program", players).items():
        if path not in PATHS:
            raise ScenarioError(f"{where}.program.{p}", f"must be one of {', '.join(PATHS)}, got {path!r}")
        number = _int(choose[p], f"{where}.choose.{p}", -1000, 1000) if p in choose else None
        turn.program[p] = Choice(path, number)
    for p in choose:
        if p not in turn.program:
            raise ScenarioError(f"{where}.choose.{p}", "a number without a programmed path")
    for p, rolls in _players_map(data.get("dice"), f"{where}.dice", players).items():
        rolls = rolls if isinstance(rolls, list) else [rolls]
        turn.dice[p] = [_int(r, f"{where}.dice.{p}[{i}]", -1000, 1000) for i, r in enumerate(rolls)]
    for p, k in _players_map(data.get("keep"), f"{where}.keep", players).items():
        ks = k if isinstance(k, list) else [k]
        turn.keep[p] = [_token(t, f"{where}.keep.{p}") for t in ks]
    return turn


def _check_expect(expect: Mapping[str, Any], players: Sequence[str]) -> None:
    for key in ("ships", "fuel", "held_count", "refused"):
        if key in expect:
            m = _players_map(expect[key], f"expect.{key}", players)
            for p, v in m.items():
                if key == "refused":
                    if v not in REFUSAL_CODES:
                        raise ScenarioError(f"expect.refused.{p}", f"unknown refusal code {v!r} (known: {', '.join(REFUSAL_CODES)})")
                else:
                    _int(v, f"expect.{key}.{p}")
    for key in ("eliminated", "winner"):
        if key in expect:
            for i, p in enumerate(_list(expect[key], f"expect.{key}")):
                if p not in players:
                    raise ScenarioError(f"expect.{key}[{i}]", f"unknown player {p!r}")
    if "force_fields" in expect:
        for i, z in enumerate(_list(expect["force_fields"], "expect.force_fields")):
            _int(z, f"expect.force_fields[{i}]")
    if "track" in expect:
        t = expect["track"]
        if not isinstance(t, Mapping) or not t or set(t) - {"rear", "boards"}:
            raise ScenarioError("expect.track", f"expected a mapping with rear and/or boards, got {t!r}")
        for k, v in t.items():
            _int(v, f"expect.track.{k}")
    if "finished" in expect and not isinstance(expect["finished"], bool):
        raise ScenarioError("expect.finished", f"must be true or false, got {expect['finished']!r}")


# ---------------------------------------------------------------------------- running

def run_scenario(sc: Scenario, problems: list[str] | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """Play the turns; return the final state summary and the refusals (if a turn was refused).
    A ``keep`` naming a token the player did not draw is reported in ``problems`` (a
    mismatch with the engine's draws) and the first token drawn is kept."""
    game = sc.game
    s = game.state
    refused: dict[str, str] = {}
    problems = [] if problems is None else problems
    for i, turn in enumerate(sc.turns):
        if s.finished:
            break
        if s.tile is None:
            raise ScenarioError(f"turns[{i}]", "no tile left to play (give the next tiles in 'stack')")
        s.forced_dice = {p: list(r) for p, r in turn.dice.items()}
        keep = {p: list(k) for p, k in turn.keep.items()}
        try:
            game.play_bonus(turn.bonus)
            if s.finished:
                break
            game.program(turn.program)
            while s.phase == "draw":
                p = s.draw_queue[0]
                wanted = keep[p].pop(0) if keep.get(p) else None
                if wanted is not None and wanted not in s.drawn:
                    problems.append(f"turns[{i}].keep.{p}: {p} drew {' and '.join(s.drawn)}, not {wanted}")
                    wanted = None
                game.keep(p, wanted)
        except Refused as r:
            refused = r.codes
            break
        except (RulesError, TileError) as exc:
            raise ScenarioError(f"turns[{i}]", str(exc)) from None
    return summary(game), refused


def summary(game: Game) -> dict[str, Any]:
    s = game.state
    return {
        "ships": {p: s.zone[p] for p in s.players if p in s.active},
        "fuel": {p: s.fuel[p] for p in s.players},
        "eliminated": [e[0] for e in s.eliminated],
        "held_count": {p: len(s.held[p]) for p in s.players},
        "force_fields": sorted(s.markers),
        "track": {"rear": s.rear, "boards": s.boards},
        "finished": s.finished,
        "winner": list(s.winners),
    }


def _play(scenario: Scenario) -> Outcome:
    problems: list[str] = []
    state, refused = run_scenario(scenario, problems)
    return Outcome(state, refused, problems)


#: Outspeed's scenario file format for the console's runner (the cartridge's ``scenarios``).
#: Compared: ships/fuel/held_count per player, eliminated/winner/force_fields in any order,
#: track per field given, finished exactly (refused: the console's check).
FORMAT = sc_.Format(
    "docs/scenarios.md", (ConfigError,),
    {"ships": sc_.each("absent (eliminated)"), "fuel": sc_.each(), "held_count": sc_.each(),
     "eliminated": sc_.as_set, "winner": sc_.as_set, "force_fields": sc_.as_set, "track": sc_.each()},
    load=load_content, read=load_yaml, parse=parse_scenario, play=_play)


def run_file(path: str | Path, content: Content | None = None) -> dict[str, Any]:
    """Run one file; raises ScenarioError/ConfigError when it is not a valid scenario."""
    return sc_.run_file(FORMAT, path, content)


def main(files: Sequence[str], out: Any = None, err: Any = None) -> int:
    return sc_.run_scenarios(FORMAT, files, prog="outspeed scenario", out=out, err=err)
