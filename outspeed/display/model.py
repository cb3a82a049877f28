"""What the table display draws: public values only, no pygame.

A :class:`TableView` is the rules engine's ``public_view()`` (or an intermediate public view
while a resolution is shown step by step) plus the session's public facts: who is
connected, locked, lost; who has declared *that* they play a bonus token; who must
re-program; the dice being shown; the prompt and the log. Nothing in it can carry a hidden
choice: the session builds it from public information only, and the display reads nothing
else (see tests/table/test_secrecy.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from bitbox.colours import SCREEN_RGB, SEAT_COLOURS
from bitbox.display.model import DieShown, LogEntry, PlayerStatus, ShellView  # noqa: F401 (re-exported: the session and the display package import them from here)

#: Player colours (RGB) by name; ships also get a distinct shape each (colour-blind safe).
COLOURS: dict[str, tuple[int, int, int]] = {c: SCREEN_RGB[c] for c in SEAT_COLOURS}
SHAPES: dict[str, str] = {
    "red": "circle", "blue": "square", "green": "triangle",
    "yellow": "diamond", "purple": "star", "orange": "hexagon",
}
PLAYER_ORDER: tuple[str, ...] = tuple(COLOURS)
TOTAL_TURNS = 13


def colour_of(player: str) -> tuple[int, int, int]:
    return COLOURS.get(player, (200, 200, 200))


def shape_of(player: str) -> str:
    return SHAPES.get(player, "circle")


@dataclass(frozen=True)
class TableView(ShellView):
    """The console's :class:`~bitbox.display.model.ShellView` with what Outspeed's track shows."""

    zone_prompt: int | None = None      # the zone asked to declare bonus tokens
    moving: tuple[str, ...] = ()        # players whose ship just moved (highlight)
