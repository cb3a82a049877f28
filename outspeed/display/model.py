"""What the table display draws: public values only, no pygame.

A :class:`TableView` is the rules engine's ``public_view()`` (or an intermediate public view
while a resolution is shown step by step) plus the session's public facts: who is
connected, locked, lost; who has declared *that* they play a bonus token; who must
re-program; the dice being shown; the prompt and the log. Nothing in it can carry a hidden
choice: the session builds it from public information only, and the display reads nothing
else (see tests/table/test_secrecy.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from bitbox.colours import SCREEN_RGB, SEAT_COLOURS

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
class PlayerStatus:
    """A player's public status at the table.

    ``status`` is one of: "" (nothing to do), "waiting" (no controller yet), "to_act",
    "unlock" (must open the lock before choosing), "ready" (locked with a legal
    programming), "declared_token", "declared_none", "refused" (must re-program),
    "refused_bonus" (must choose again), "drawing", "eliminated", "winner".
    """

    player: str
    kind: str = "controller"            # controller | bot | keyboard | "" (no controller: replays)
    connected: bool = True
    lost: bool = False
    locked: bool = False
    status: str = ""
    played: str | None = None           # bonus token revealed this turn


@dataclass(frozen=True)
class DieShown:
    player: str
    die: str                            # yellow | blue
    value: int
    rolling: bool = False               # still tumbling (the face shown is not the result)
    face: int | None = None             # the face shown while rolling


@dataclass(frozen=True)
class LogEntry:
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TableView:
    view: Mapping[str, Any]
    players: tuple[PlayerStatus, ...] = ()
    stage: str = ""                     # waiting|bonus|programming|draw|showing|finished|replay
    prompt: tuple[str, Mapping[str, Any]] | None = None
    banner: tuple[str, Mapping[str, Any]] | None = None      # e.g. the pause banner
    dice: tuple[DieShown, ...] = ()
    log: tuple[LogEntry, ...] = ()
    zone_prompt: int | None = None      # the zone asked to declare bonus tokens
    moving: tuple[str, ...] = ()        # players whose ship just moved (highlight)
    pad: Mapping[str, Any] | None = None  # keyboard hot-seat pad (keyboard mode only)

    @classmethod
    def from_public(cls, view: Mapping[str, Any]) -> "TableView":
        """A table view of a bare ``Game.public_view()`` (for benchmarks and replays)."""
        players = tuple(
            PlayerStatus(p["player"], kind="", status="" if p.get("active", True) else "eliminated")
            for p in view.get("players", ()))
        return cls(view=view, players=players, stage=view.get("phase", ""))

    def status_of(self, player: str) -> PlayerStatus:
        for s in self.players:
            if s.player == player:
                return s
        return PlayerStatus(player)
