"""Wheel maps: raw detent positions -> what they mean to a game (``config/wheels.yaml``).

The hub reports raw positions (``WheelsChanged.left/centre/right``); a game reads them through
a :class:`WheelMap`::

    wm = load_wheel_map(game="outspeed")
    wm.meaning("right", 2)            # "center"
    wm.position_for("right", "left")  # 1 (for simulated players and bots)

Positions not in the map mean nothing (``None``).
"""
from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable, Mapping
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

    def check(self, known: Mapping[str, Collection[Meaning]],
              needed: Mapping[str, Iterable[Meaning]] | None = None) -> WheelMap:
        """Check the map against what the game knows; returns ``self``.

        ``known[wheel]``: every meaning the game understands on that wheel (e.g. its path
        names, or ``range(0, 101)`` for numbers); a listed position whose meaning is not in it
        is refused, as is a meaning on a wheel absent from ``known`` (the game does not use
        it). ``needed[wheel]``: meanings that must each have a position (a player, a bot or
        the keyboard must be able to choose them). Raises :class:`ConfigError` naming the
        file, the game, the wheel and the position (a KeyError at turn 1, or a path that can
        never be chosen, otherwise)."""
        where = f"{self.source or 'wheel map'}: game {self.game!r}"
        for wheel in WHEELS:
            allowed = known.get(wheel)
            for position, meaning in self._wheel(wheel).items():
                if meaning is None:
                    continue
                if allowed is None:
                    raise ConfigError(f"{where}, wheel {wheel}, position {position}: the game uses no {wheel} "
                                      f"wheel (give it no positions, or null)")
                if isinstance(meaning, bool) or meaning not in allowed:
                    raise ConfigError(f"{where}, wheel {wheel}, position {position}, field meaning: {meaning!r} "
                                      f"means nothing to the game{_suggest(meaning, allowed)}")
        for wheel, meanings in (needed or {}).items():
            have = {(type(v), v) for v in self._wheel(wheel).values() if v is not None}
            missing = [m for m in meanings if (type(m), m) not in have]
            if missing:
                raise ConfigError(f"{where}, wheel {wheel}: no position means {', '.join(map(repr, missing))} "
                                  f"(the game needs a position for each of {_describe(list(meanings))})")
        return self

    def _wheel(self, wheel: str) -> Mapping[int, Meaning]:
        if wheel not in WHEELS:
            raise ValueError(f"unknown wheel {wheel!r}: expected one of {', '.join(WHEELS)}")
        return self.wheels.get(wheel, {})


def _describe(allowed: Collection[Meaning] | Iterable[Meaning]) -> str:
    if isinstance(allowed, range):
        return f"the whole numbers {allowed.start}..{allowed.stop - 1}"
    return ", ".join(map(str, allowed))


def _suggest(meaning: Meaning, allowed: Collection[Meaning]) -> str:
    words = [str(m) for m in allowed if isinstance(m, str)] if not isinstance(allowed, range) else []
    close = difflib.get_close_matches(str(meaning), words, n=1) if isinstance(meaning, str) else []
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f" (it knows {_describe(allowed)}){hint}"


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


def load_wheel_map(path: str | Path | None = None, game: str = "outspeed", *,
                   known: Mapping[str, Collection[Meaning]] | None = None,
                   needed: Mapping[str, Iterable[Meaning]] | None = None) -> WheelMap:
    """The wheel map of ``game`` from ``path`` (default: the shipped ``config/wheels.yaml``),
    checked against ``known``/``needed`` when given (see :meth:`WheelMap.check`; a game
    passes what it understands). Raises :class:`ConfigError` naming file, game, wheel,
    position and field."""
    if path is None:
        from bitbox_config import config_path
        path = config_path("wheels.yaml")
    maps = parse_wheel_maps(load_yaml(path), str(path))
    if game not in maps:
        raise ConfigError(f"{path}: no wheel map for game {game!r} (the file has: {', '.join(maps)})")
    return maps[game] if known is None else maps[game].check(known, needed)
