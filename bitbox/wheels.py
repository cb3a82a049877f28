"""Wheel maps: raw detent positions -> what they mean to a game (``config/wheels.yaml``).

The hub reports raw positions (``WheelsChanged.left/centre/right``); a game reads them through
a :class:`WheelMap`::

    wm = load_wheel_map(game="outspeed")
    wm.meaning("right", 2)            # "center"
    wm.position_for("right", "left")  # 1 (for simulated players and bots)

Positions not in the map mean nothing (``None``).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .config import ConfigError, load_yaml

__all__ = ["WHEELS", "WheelMap", "load_wheel_map", "ConfigError"]

#: The three wheels of a controller, in the order of the protocol (left, centre, right).
WHEELS: tuple[str, str, str] = ("left", "centre", "right")
_MAX_POSITION = 15          # firmware_protocol.constants.MAX_POSITIONS - 1

Meaning = str | int | None


@dataclass(frozen=True)
class WheelMap:
    """One game's meanings of each wheel's positions. Immutable."""

    game: str
    wheels: Mapping[str, Mapping[int, Meaning]]
    source: str = ""

    def meaning(self, wheel: str, position: int) -> Meaning:
        """What ``position`` of ``wheel`` means; ``None`` for a position the map does not list."""
        return self._wheel(wheel).get(position)

    def position_for(self, wheel: str, meaning: Meaning) -> int:
        """The position of ``wheel`` that means ``meaning`` (the inverse of :meth:`meaning`).
        Raises KeyError if no position means it."""
        for position, value in self._wheel(wheel).items():
            if value == meaning and type(value) is type(meaning):
                return position
        raise KeyError(f"{self.game}: no position of the {wheel} wheel means {meaning!r} "
                       f"(it has {sorted(v for v in self._wheel(wheel).values() if v is not None) !r})")

    def meanings(self, wheel: str) -> dict[int, Meaning]:
        """Position -> meaning for ``wheel`` (empty for a wheel the game does not use)."""
        return dict(self._wheel(wheel))

    def read(self, left: int, centre: int, right: int) -> dict[str, Meaning]:
        """The meanings of a whole controller state, e.g. from a ``WheelsChanged`` event."""
        return {"left": self.meaning("left", left), "centre": self.meaning("centre", centre),
                "right": self.meaning("right", right)}

    def _wheel(self, wheel: str) -> Mapping[int, Meaning]:
        if wheel not in WHEELS:
            raise ValueError(f"unknown wheel {wheel!r}: expected one of {', '.join(WHEELS)}")
        return self.wheels.get(wheel, {})


def parse_wheel_maps(data: Any, source: str) -> dict[str, WheelMap]:
    """Validate the parsed YAML of a wheels file; every game's map by name."""
    if not isinstance(data, Mapping) or "games" not in data:
        raise ConfigError(f"{source}: expected a mapping with the key 'games' at the top")
    extra = sorted(map(str, set(data) - {"games"}))
    if extra:
        raise ConfigError(f"{source}: unknown field {extra[0]!r} (known: games)")
    games = data["games"]
    if not isinstance(games, Mapping) or not games:
        raise ConfigError(f"{source}: field games: expected a mapping of game name to wheel map")
    out: dict[str, WheelMap] = {}
    for game, wheels in games.items():
        where = f"{source}: game {game!r}"
        if not isinstance(wheels, Mapping):
            raise ConfigError(f"{where}: expected a mapping of wheel (left, centre, right) to positions")
        parsed: dict[str, dict[int, Meaning]] = {}
        for wheel, positions in wheels.items():
            if wheel not in WHEELS:
                hint = " (spelled 'centre' here)" if wheel == "center" else ""
                raise ConfigError(f"{where}: unknown wheel {wheel!r}{hint}; expected one of {', '.join(WHEELS)}")
            parsed[wheel] = _parse_positions(positions, f"{where}, wheel {wheel}")
        out[str(game)] = WheelMap(str(game), parsed, source)
    return out


def _parse_positions(positions: Any, where: str) -> dict[int, Meaning]:
    if not isinstance(positions, Mapping):
        raise ConfigError(f"{where}: expected a mapping of position (0..{_MAX_POSITION}) to meaning, "
                          f"got {positions!r}")
    out: dict[int, Meaning] = {}
    seen: dict[Any, int] = {}
    for position, meaning in positions.items():
        if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= _MAX_POSITION:
            raise ConfigError(f"{where}: position {position!r}: a position is a whole number 0..{_MAX_POSITION}")
        if meaning is not None and (isinstance(meaning, bool) or not isinstance(meaning, (str, int))):
            raise ConfigError(f"{where}, position {position}, field meaning: expected a word, a whole "
                              f"number or null, got {meaning!r}")
        if isinstance(meaning, str) and not meaning.strip():
            raise ConfigError(f"{where}, position {position}, field meaning: empty word (use null for nothing)")
        if meaning is not None:
            key = (type(meaning), meaning)
            if key in seen:
                raise ConfigError(f"{where}, position {position}, field meaning: {meaning!r} is already "
                                  f"the meaning of position {seen[key]}")
            seen[key] = position
        out[position] = meaning
    return dict(sorted(out.items()))


def load_wheel_map(path: str | Path | None = None, game: str = "outspeed") -> WheelMap:
    """The wheel map of ``game`` from ``path`` (default: the shipped ``config/wheels.yaml``).
    Raises :class:`ConfigError` naming file, game, wheel, position and field."""
    if path is None:
        from bitbox_config import config_path
        path = config_path("wheels.yaml")
    maps = parse_wheel_maps(load_yaml(path), str(path))
    if game not in maps:
        raise ConfigError(f"{path}: no wheel map for game {game!r} (the file has: {', '.join(maps)})")
    return maps[game]
