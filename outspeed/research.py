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

from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from bitbox.games.protocol import Action, Game, Player, Prompt
from bitbox.research.encoding import RESERVED, SplitEncoding

from .cartridge import BONUS, KEEP, PROGRAM
from .rules import PATHS, TOKENS, Choice

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
        players = cast("list[Mapping[str, Any]]", game.public_view()["players"])
        zone = {p["player"]: p["zone"] or 0 for p in players}
        front = max(zone[p.player] for p in prompts)
        return [p for p in prompts if zone[p.player] == front]

    def display(self, size: tuple[int, int]) -> Any:
        """The table's screen (``render_mode="rgb_array"``), drawn from the public view."""
        from .display.render import TableDisplay
        return TableDisplay(size=size, lang="en")

    # ------------------------------------------------------------------ observations
    def public_part(self, view: Mapping[str, Any]) -> np.ndarray:
        o = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        ones: list[int] = []                       # positions set to 1
        o[0] = view["turn"]
        phase = "finished" if view["finished"] else view["phase"]
        if phase in _PHASE:
            ones.append(1 + _PHASE[phase])
        tile = view["tile"]
        face = view["face"]
        if tile is not None:
            if 1 <= tile["number"] <= TILES:
                ones.append(5 + tile["number"] - 1)
            if tile.get("finish"):
                ones.append(21)
            paths = (tile.get("faces") or {}).get(face) or {}
            ones += [26 + k for k, path in enumerate(PATHS) if paths.get(path) is not None]
        if face in _FACE:
            ones.append(22 + _FACE[face])
        if view.get("next_face") in _FACE:
            ones.append(24 + _FACE[view["next_face"]])
        o[29] = view["tiles_left"]
        rear = view["track"]["rear"]
        o[30] = rear
        o[31] = view["track"]["boards"]
        ones += [32 + z - rear for z in view["force_fields"] if 0 <= z - rear < ZONES]
        o[53] = view["markers_left"]
        o[54] = view["pile_size"]
        o[55] = view["discards"]
        revealed = view.get("revealed") or {}
        winners = view.get("winners") or ()
        out = {e[0] for e in view.get("eliminated") or ()}
        drawing = view.get("drawing")
        for k, p in enumerate(view["players"][:SEATS]):
            at = 56 + SEAT_BLOCK * k
            name = p["player"]
            ones.append(at)
            if p["active"]:
                ones.append(at + 1)
            if p["zone"] is not None:
                o[at + 3] = max(0, p["zone"] - rear)
            o[at + 4] = p["fuel"]
            o[at + 5] = p["tokens"]
            if drawing == name:
                ones.append(at + 6)
            shown = revealed.get(name)
            if shown:
                if shown[0] in _PATH:
                    ones.append(at + 7 + _PATH[shown[0]])
                o[at + 10] = shown[1] or 0
            if name in out:
                ones.append(at + 11)
            if name in winners:
                ones.append(at + 12)
        o[ones] = 1
        return o

    def private_part(self, o: np.ndarray, view: Mapping[str, Any], player: Player, prompt: Prompt | None) -> None:
        for k, p in enumerate(view["players"][:SEATS]):
            if p["player"] == player:
                o[56 + SEAT_BLOCK * k + 2] = 1
        for t in view.get("held") or ():
            if t in TOKENS:
                o[134 + TOKENS.index(t)] += 1
        for t in view.get("drawn") or ():
            if t in TOKENS:
                o[140 + TOKENS.index(t)] += 1
        if prompt is not None:
            o[146 + (BONUS, PROGRAM, KEEP).index(prompt.kind)] = 1


def encoding() -> OutspeedEncoding:
    """The encoding for the tiles of config/ (the centre-wheel numbers up to their largest X)."""
    from .content import load_content
    tiles = load_content().tiles
    top = max((p.choose[1] for t in tiles for f in t.faces.values() for p in f.values()
               if p is not None and p.choose is not None), default=0)
    return OutspeedEncoding(top)


__all__ = ["OBSERVATION_SIZE", "OutspeedEncoding", "encoding"]
