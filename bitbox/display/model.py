"""What a table screen draws, for every game: public values only, no pygame.

A :class:`ShellView` is a game's public view (or an intermediate public view while a
resolution is shown step by step) plus the referee's public facts: who is connected,
locked, lost, what each player must do now (:class:`PlayerStatus`), the dice being shown,
the prompt, the banner and the log. Nothing in it can carry a hidden choice: the referee
builds it from public information only, and the display reads nothing else. A game's
display may extend it (Outspeed's ``TableView``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Self


class Words(Protocol):
    """A game's wording catalogue in one language (e.g. ``outspeed.words.Lang``): what the
    display shell and the table loop ask of it."""

    code: str

    def t(self, key: str, **data: Any) -> str: ...
    def event(self, kind: str, data: Mapping[str, Any] | None = None) -> str: ...
    def player(self, name: Any) -> str: ...
    def players(self, names: Any) -> str: ...
    def token(self, token: Any) -> str: ...


@dataclass(frozen=True)
class PlayerStatus:
    """A player's public status at the table.

    ``status`` is one of: "" (nothing to do), "waiting" (no controller yet), "to_act",
    "unlock" (must open the lock before choosing), "ready" (locked with a legal
    programming), "declared_token", "declared_none", "refused" (must re-program),
    "refused_bonus" (must choose again), "drawing", "eliminated", "winner", "thinking" (a
    bot searching for its answer).
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
    die: str                            # which of the box's dice: yellow | blue
    value: int
    rolling: bool = False               # still tumbling (the face shown is not the result)
    face: int | None = None             # the face shown while rolling


@dataclass(frozen=True)
class LogEntry:
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ShellView:
    """What a table screen draws: a game's public view plus the referee's public facts."""

    view: Mapping[str, Any]
    players: tuple[PlayerStatus, ...] = ()
    stage: str = ""                     # the referee's stage (Outspeed: waiting|bonus|...|replay)
    prompt: tuple[str, Mapping[str, Any]] | None = None
    banner: tuple[str, Mapping[str, Any]] | None = None      # e.g. the pause banner
    dice: tuple[DieShown, ...] = ()
    log: tuple[LogEntry, ...] = ()
    pad: Mapping[str, Any] | None = None  # keyboard hot-seat pad (keyboard mode only)

    @classmethod
    def from_public(cls, view: Mapping[str, Any]) -> Self:
        """A table view of a bare public view (for benchmarks and replays)."""
        players = tuple(
            PlayerStatus(p["player"], kind="", status="" if p.get("active", True) else "eliminated")
            for p in view.get("players", ()))
        return cls(view=view, players=players, stage=view.get("phase", ""))

    def status_of(self, player: str) -> PlayerStatus:
        for s in self.players:
            if s.player == player:
                return s
        return PlayerStatus(player)
