"""Outspeed's research encoding (:mod:`bitbox.research.encoding`): its answers as fixed ids
and a player's private view as a fixed-size vector. Registered in the entry points
``bitbox.research`` as ``outspeed``; the environments are the console's
(``bitbox.research.parallel_env("outspeed")``).

Actions (after no-op 0 and confirm 1, which Outspeed never needs: each answer is one id):

* ``bonus:none``, ``bonus:<token>`` for the six tokens (TOKENS order);
* ``program:<path>`` and ``program:<path>:<x>`` for each path (left, center, right) and each
  centre-wheel number ``x`` from 0 to the largest "choose X" of the tiles (6 with the
  shipped tiles);
* ``keep:<token>`` for the six tokens.

The bonus phase is asked zone by zone, front to back (:meth:`OutspeedEncoding.acting`), as
the table does; the answers are applied together when the last zone has answered. The
programming phase is every racing player at once. A player holding no token is not asked in
the bonus phase, and a prompt with a single option is answered for its player.

Observation (float32; each value a count or a 0/1 flag, clipped to 0..255): the layout, index
by index, is in docs/research.md; :meth:`observe` writes exactly that.

Nothing in it depends on another player's tokens, an answer not yet revealed, the pile's
order or the random state: it is made from :meth:`Game.private_view` only.
"""
from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from bitbox.games.protocol import Action, Game, Player, Prompt
from bitbox.research.encoding import RESERVED, SplitEncoding

from .cartridge import BONUS, KEEP, PROGRAM, OutspeedGame
from .rules import PATHS, TOKENS, Choice, GameState

SEATS = 6
PHASES = ("bonus", "programming", "draw", "finished")
FACES = ("3-4", "5-6")
TILES = 16
ZONES = 21
SEAT_BLOCK = 13
OBSERVATION_SIZE = 149
_PHASE = {k: i for i, k in enumerate(PHASES)}
_FACE = {k: i for i, k in enumerate(FACES)}
_PATH = {k: i for i, k in enumerate(PATHS)}
_TOKEN = {k: i for i, k in enumerate(TOKENS)}
# The public part from the game (OutspeedEncoding.public_part_of): positions 0 .. 56 + 13 n
# written in one struct call, the one-hot groups as constant tuples.
_PHASE_ROW = {k: tuple(1.0 if j == i else 0.0 for j in range(len(PHASES))) for i, k in enumerate(PHASES)}
_PATH_ROW = {k: tuple(1.0 if j == i else 0.0 for j in range(len(PATHS))) for i, k in enumerate(PATHS)}
_NO_PHASE = (0.0,) * len(PHASES)
_NO_PATH = (0.0,) * len(PATHS)
_NO_FIELDS = (0.0,) * ZONES
_PROMPT_AT = {k: 146 + i for i, k in enumerate((BONUS, PROGRAM, KEEP))}    # my open prompt's position
_LAYOUT: list[Any] = [struct.Struct(f"<{56 + SEAT_BLOCK * n}f").pack_into for n in range(SEATS + 1)]


class OutspeedEncoding(SplitEncoding):
    observation_high = 255.0
    observation_size = OBSERVATION_SIZE

    def __init__(self, max_number: int) -> None:
        self.max_number = max_number
        names = ["bonus:none"] + [f"bonus:{t}" for t in TOKENS]
        for path in PATHS:
            names.append(f"program:{path}")
            names += [f"program:{path}:{x}" for x in range(max_number + 1)]
        names += [f"keep:{t}" for t in TOKENS]
        self.names = tuple(names)
        self._id = {n: RESERVED + k for k, n in enumerate(self.names)}
        # (tile data, face) -> the positions they set (see _tile_ones), by the data's identity
        self._tiles: dict[tuple[int, Any], tuple[Any, tuple[int, ...]]] = {}
        # (tile, face, next face) -> positions 5 .. 28 (see _tile_row), by the tile's identity
        self._rows: dict[tuple[int, Any, Any], tuple[Any, tuple[float, ...]]] = {}
        # the players' seats -> each player's "is me" position (see private_entries_of)
        self._me: tuple[Any, dict[str, int]] = ((), {})

    # ------------------------------------------------------------------ actions
    def ids(self, prompt: Prompt, option: Action) -> tuple[int, ...]:
        if prompt.kind == BONUS:
            return (self._id["bonus:none" if option is None else f"bonus:{option}"],)
        if prompt.kind == PROGRAM:
            assert isinstance(option, Choice)
            if option.number is None:
                return (self._id[f"program:{option.path}"],)
            return (self._id[f"program:{option.path}:{option.number}"],)
        return (self._id[f"keep:{option}"],)

    def acting(self, game: Game, prompts: Sequence[Prompt]) -> Sequence[Prompt]:
        """Bonus: the players of the frontmost zone among those still to declare (R-2's
        order); otherwise every open prompt."""
        if not prompts or prompts[0].kind != BONUS:
            return prompts
        s = _state(game)
        if s is not None:                   # the public view's zones, read from the state
            active = s.active
            zone = {p: (s.zone.get(p) or 0) if p in active else 0 for p in s.players}
        else:
            players = cast("list[Mapping[str, Any]]", game.public_view()["players"])
            zone = {p["player"]: p["zone"] or 0 for p in players}
        front = max(zone[p.player] for p in prompts)
        return [p for p in prompts if zone[p.player] == front]

    def display(self, size: tuple[int, int]) -> Any:
        """The table's screen (``render_mode="rgb_array"``), drawn from the public view."""
        from .display.render import TableDisplay
        return TableDisplay(size=size, lang="en")

    # ------------------------------------------------------------------ observations
    def public_part(self, view: Mapping[str, Any], o: np.ndarray) -> None:
        at_: list[int] = [0, 29, 30, 31, 53, 54, 55]          # positions given a value, and the values
        rear = view["track"]["rear"]
        values: list[Any] = [view["turn"], view["tiles_left"], rear, view["track"]["boards"], view["markers_left"],
                             view["pile_size"], view["discards"]]
        phase = "finished" if view["finished"] else view["phase"]
        ones = list(self._tile_ones(view["tile"], view["face"]))   # positions set to 1
        if phase in _PHASE:
            ones.append(1 + _PHASE[phase])
        if view.get("next_face") in _FACE:
            ones.append(24 + _FACE[view["next_face"]])
        ones += [32 + z - rear for z in view["force_fields"] if 0 <= z - rear < ZONES]
        revealed = view.get("revealed") or {}
        winners = view.get("winners") or ()
        eliminated = view.get("eliminated")
        out = {e[0] for e in eliminated} if eliminated else ()
        drawing = view.get("drawing")
        at = 56
        for p in view["players"][:SEATS]:
            name = p["player"]
            ones.append(at)
            if p["active"]:
                ones.append(at + 1)
            zone = p["zone"]
            if zone is not None:
                at_.append(at + 3)
                values.append(max(0, zone - rear))
            at_ += (at + 4, at + 5)
            values += (p["fuel"], p["tokens"])
            if drawing == name:
                ones.append(at + 6)
            if revealed:
                shown = revealed.get(name)
                if shown:
                    if shown[0] in _PATH:
                        ones.append(at + 7 + _PATH[shown[0]])
                    at_.append(at + 10)
                    values.append(shown[1] or 0)
            if name in out:
                ones.append(at + 11)
            if name in winners:
                ones.append(at + 12)
            at += SEAT_BLOCK
        o[at_] = values
        o[ones] = 1
        if max(values) > self.observation_high or min(values) < 0:   # each value within 0..high
            np.clip(o, 0, self.observation_high, out=o)

    def public_part_of(self, game: Game, o: np.ndarray) -> None:
        """:meth:`public_part` of ``game.public_view()``, read from the engine's state without
        building the view: the same values at the same positions (o: float32 zeros). Reads
        only what :meth:`Game.public_view` shows (the held tokens' count, never their types;
        not the pile's order, the drawn tokens, the random state nor the forced dice)."""
        s = game.engine.state if type(game) is OutspeedGame else _state(game)
        if s is None:
            self.public_part(game.public_view(), o)
            return
        rear = s.rear
        markers = s.markers
        if markers:
            fields: Sequence[float] = [0.0] * ZONES
            for z in markers:
                z -= rear
                if 0 <= z < ZONES:
                    fields[z] = 1.0                                 # type: ignore[index]
        else:
            fields = _NO_FIELDS
        revealed, winners, eliminated = s.revealed, s.winners, s.eliminated
        out = {e[0] for e in eliminated} if eliminated else ()
        drawing = s.draw_queue[0] if s.phase == "draw" else None
        active, zones, fuel, held = s.active, s.zone, s.fuel, s.held
        # Every position 0 .. 56 + 13 n in order (docs/research.md), then one write; the flags
        # are floats (constant rows), the values (nums, checked for the clip) the state's ints.
        nums = [s.turn, len(s.stack), rear, s.boards, s.marker_total - len(markers), len(s.pile), len(s.discards)]
        v: list[Any] = [nums[0], *_PHASE_ROW.get("finished" if s.finished else s.phase, _NO_PHASE),
                        *self._tile_row(s.tile, s.face, s.next_face), nums[1], rear, nums[3], *fields, *nums[4:]]
        players = s.players[:SEATS]
        for name in players:
            if name in active:
                zone = zones.get(name)
                seat = 1.0, 1.0, 0.0, 0 if zone is None else zone - rear if zone > rear else 0
            else:
                seat = 1.0, 0.0, 0.0, 0
            f, t = fuel[name], len(held[name])
            shown = revealed.get(name) if revealed else None
            if shown:
                number = shown[1] or 0
                v += (*seat, f, t, 1.0 if name == drawing else 0.0, *_PATH_ROW.get(shown[0], _NO_PATH), number,
                      1.0 if name in out else 0.0, 1.0 if name in winners else 0.0)
                nums += (seat[3], f, t, number)
            else:
                v += (*seat, f, t, 1.0 if name == drawing else 0.0, 0.0, 0.0, 0.0, 0.0,
                      1.0 if name in out else 0.0, 1.0 if name in winners else 0.0)
                nums += (seat[3], f, t)
        _LAYOUT[len(players)](o, 0, *v)
        if max(nums) > self.observation_high or min(nums) < 0:       # each value within 0..high
            np.clip(o, 0, self.observation_high, out=o)

    def _tile_row(self, tile: Any, face: Any, next_face: Any) -> tuple[float, ...]:
        """Positions 5 .. 28 of the public part (the tile, its face and lit paths, the next
        face), from :meth:`_tile_ones`: once per tile, face and next face."""
        key = (id(tile), face, next_face)
        known = self._rows.get(key)
        if known is not None and known[0] is tile:
            return known[1]
        row = [0.0] * 24
        for i in self._tile_ones(tile.view_data() if tile is not None else None, face):
            row[i - 5] = 1.0
        if next_face in _FACE:
            row[24 + _FACE[next_face] - 5] = 1.0
        if len(self._rows) > 256:              # a bound (tiles are few)
            self._rows.clear()
        self._rows[key] = (tile, tuple(row))
        return tuple(row)

    def _tile_ones(self, tile: Mapping[str, Any] | None, face: Any) -> tuple[int, ...]:
        """The positions the tile and its face set to 1: worked out once per tile data and face
        (the engine's views share one data per tile: :meth:`Tile.view_data`)."""
        key = (id(tile), face)
        known = self._tiles.get(key)
        if known is not None and known[0] is tile:
            return known[1]
        ones: list[int] = []
        if tile is not None:
            if 1 <= tile["number"] <= TILES:
                ones.append(5 + tile["number"] - 1)
            if tile.get("finish"):
                ones.append(21)
            paths = (tile.get("faces") or {}).get(face) or {}
            ones += [26 + k for k, path in enumerate(PATHS) if paths.get(path) is not None]
        if face in _FACE:
            ones.append(22 + _FACE[face])
        if len(self._tiles) > 256:             # views made from other data than the engine's (a bound)
            self._tiles.clear()
        self._tiles[key] = (tile, tuple(ones))
        return tuple(ones)

    def private_entries(self, view: Mapping[str, Any], player: Player, prompt: Prompt | None) -> dict[int, float]:
        out: dict[int, float] = {}
        for k, p in enumerate(view["players"][:SEATS]):
            if p["player"] == player:
                out[56 + SEAT_BLOCK * k + 2] = 1
        for t in view.get("held") or ():
            if t in _TOKEN:
                i = 134 + _TOKEN[t]
                out[i] = out.get(i, 0) + 1
        for t in view.get("drawn") or ():
            if t in _TOKEN:
                i = 140 + _TOKEN[t]
                out[i] = out.get(i, 0) + 1
        if prompt is not None:
            out[146 + (BONUS, PROGRAM, KEEP).index(prompt.kind)] = 1
        return out

    def private_entries_of(self, game: Game, player: Player, prompt: Prompt | None) -> dict[int, float]:
        """:meth:`private_entries` of ``game.private_view(player)``, read from the engine's
        state without building the view: the same entries in the same order (``player``'s
        seat, their tokens, their draw while they choose, the prompt's kind)."""
        s = game.engine.state if type(game) is OutspeedGame else _state(game)
        if s is None:
            return self.private_entries(game.private_view(player), player, prompt)
        players, me = self._me
        if players is not s.players:
            players = s.players
            me = {}
            for k, p in enumerate(players[:SEATS]):
                me.setdefault(p, 56 + SEAT_BLOCK * k + 2)
            self._me = (players, me)
        out: dict[int, float] = {}
        if player in me:
            out[me[player]] = 1
        held = s.held[player]
        if held:
            for t in sorted(held):
                if t in _TOKEN:
                    i = 134 + _TOKEN[t]
                    out[i] = out.get(i, 0) + 1
        if s.phase == "draw" and s.draw_queue and s.draw_queue[0] == player:
            for t in s.drawn:
                if t in _TOKEN:
                    i = 140 + _TOKEN[t]
                    out[i] = out.get(i, 0) + 1
        if prompt is not None:
            out[_PROMPT_AT[prompt.kind]] = 1
        return out


def _state(game: Any) -> GameState | None:
    """The engine's state of ``game`` (the cartridge's game), or None for another object."""
    s = getattr(getattr(game, "engine", None), "state", None)
    return s if isinstance(s, GameState) else None


def encoding() -> OutspeedEncoding:
    """The encoding for the tiles of config/ (the centre-wheel numbers up to their largest X)."""
    from .content import load_content
    tiles = load_content().tiles
    top = max((p.choose[1] for t in tiles for f in t.faces.values() for p in f.values()
               if p is not None and p.choose is not None), default=0)
    return OutspeedEncoding(top)


__all__ = ["OBSERVATION_SIZE", "OutspeedEncoding", "encoding"]
