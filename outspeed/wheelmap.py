"""Outspeed's wheel map: ``config/wheels.yaml`` checked against what the game knows.

The console's :class:`bitbox.wheels.WheelMap` turns raw detent positions into words and
numbers; which words and numbers mean something is the game's business. Outspeed reads

- the right wheel as a path of the current tile (:data:`~outspeed.rules.PATHS`);
- the centre wheel as the X of a "choose X" path (a whole number, as tiles allow);
- the left wheel as a bonus token (:data:`~outspeed.rules.TOKENS`) or ``none``.

Every meaning in the file must be one of these (``centre`` for the path ``center`` is
refused, naming the file, the wheel and the position), and every path, every token,
``none`` and every X the tiles can ask for must have a position: otherwise a player could
never choose it, and a bot would fail at turn 1.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path

from bitbox.wheels import Meaning, WheelMap, load_wheel_map

from .rules import PATHS, TOKENS, Tile
from .rules.tiles import MAX_AMOUNT

__all__ = ["KNOWN_MEANINGS", "load_outspeed_wheel_map"]

#: What each wheel can mean to Outspeed.
KNOWN_MEANINGS: dict[str, Collection[Meaning]] = {
    "right": PATHS,
    "centre": range(0, MAX_AMOUNT + 1),
    "left": ("none", *TOKENS),
}


def load_outspeed_wheel_map(path: str | Path | None = None, tiles: Iterable[Tile] = ()) -> WheelMap:
    """The ``outspeed`` map of ``path`` (default: the shipped ``config/wheels.yaml``),
    checked; ``tiles``: the tiles in play, whose "choose X" numbers must be on the centre
    wheel. Raises :class:`bitbox.config.ConfigError`."""
    numbers = sorted({x for tile in tiles for paths in tile.faces.values() for p in paths.values()
                      if p is not None and p.choose is not None for x in range(p.choose[0], p.choose[1] + 1)})
    needed: dict[str, Collection[Meaning]] = {"right": PATHS, "left": KNOWN_MEANINGS["left"], "centre": numbers}
    return load_wheel_map(path, game="outspeed", known=KNOWN_MEANINGS, needed=needed)
