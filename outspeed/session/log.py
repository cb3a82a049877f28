"""What the log says of an engine event: one source for the referee's log and the replay's.

An event's data are public; the log adds what the words need that the event does not carry:
a tile's number and whether it is the finish tile (``turn``, ``tile_revealed``; the words
name the tile by its number, not its English label), the token mode of a ``draw``, and
``again`` on a ``roll`` of the die the same player has just rolled (a cost or gain of two
blue dice rolls the box's blue die twice: "Red rolls the blue die again: 1", never the
same line twice).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..rules import Event, EventKind


def log_data(e: Event, before: Mapping[str, Any], after: Mapping[str, Any], token_mode: str,
             previous: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The data of ``e``'s log line; ``before``/``after``: the public views around the input
    that gave ``e`` (a revealed tile is in ``after``, the current one in ``before``);
    ``previous``: the data of the log line just before, when it is a roll of the same input."""
    data = dict(e.data)
    if e.kind == EventKind.ROLL and previous is not None and previous.get("player") == data.get("player") \
            and previous.get("die") == data.get("die"):
        data["again"] = True
    if e.kind in (EventKind.TURN, EventKind.TILE_REVEALED):
        tile = (after if e.kind == EventKind.TILE_REVEALED else before).get("tile")
        if tile:
            data.update(number=tile.get("number"), finish=tile.get("finish"))
    if e.kind == EventKind.DRAW:
        data["mode"] = token_mode
    return data
