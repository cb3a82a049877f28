"""Last One Alive's data from config/lastonealive/: the dice faces and the token mix.

Files are read with the project's strict YAML loader (duplicate keys refused, size capped,
see :func:`outspeed.content.load_yaml`) and validated; an error is a :class:`ConfigError`
whose message names the file, then the entry and the field.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from bitbox_config import config_path
# The one strict YAML loader of the project (it moves to the console with issue 10).
from outspeed.content import ConfigError, load_yaml

from .rules import APOCALYPSE_TOKENS, DEFAULT_COUNTS, FACES, OBJECTS, TYPES

__all__ = ["ConfigError", "Content", "load_content", "load_dice", "load_tokens", "load_yaml"]

MAX_DICE = 100        # per type: a bound so a wrong file cannot make a huge game
MAX_TOKENS = 100


def _count(value: Any, path: Path, where: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ConfigError(f"{path}: {where}: expected a whole number from {low} to {high}, got {str(value)[:60]!r}")
    return value


def _unknown(data: Mapping[Any, Any], allowed: tuple[str, ...], path: Path, where: str) -> None:
    extra = sorted(str(k) for k in data if k not in allowed)
    if extra:
        raise ConfigError(f"{path}: {where}unknown field {extra[0]!r} (known: {', '.join(allowed)})")


def parse_dice(data: Any, path: Path) -> tuple[dict[str, tuple[str, ...]], dict[str, int]]:
    if not isinstance(data, Mapping) or "dice" not in data:
        raise ConfigError(f"{path}: expected a mapping with the key 'dice' at the top")
    _unknown(data, ("dice",), path, "")
    dice = data["dice"]
    if not isinstance(dice, Mapping):
        raise ConfigError(f"{path}: field dice: expected a mapping of die type to {{count, faces}}")
    _unknown(dice, TYPES, path, "dice: ")
    faces: dict[str, tuple[str, ...]] = {}
    counts: dict[str, int] = {}
    for t in TYPES:
        entry = dice.get(t)
        if not isinstance(entry, Mapping):
            raise ConfigError(f"{path}: die {t}: missing or not a mapping {{count, faces}}")
        _unknown(entry, ("count", "faces"), path, f"die {t}: ")
        counts[t] = _count(entry.get("count", DEFAULT_COUNTS[t]), path, f"die {t}, field count", 1, MAX_DICE)
        fs = entry.get("faces")
        if not isinstance(fs, list) or not 1 <= len(fs) <= 20:
            raise ConfigError(f"{path}: die {t}, field faces: expected a list of faces (six on a real die), got {str(fs)[:60]!r}")
        for i, f in enumerate(fs):
            if f not in FACES:
                raise ConfigError(f"{path}: die {t}, field faces[{i}]: unknown face {str(f)[:40]!r} "
                                  f"(known: {', '.join(FACES)})")
        if all(f == "bang1plus" for f in fs):
            raise ConfigError(f"{path}: die {t}, field faces: every face is bang1plus, so its \"+\" re-rolls "
                              "would never end")
        faces[t] = tuple(fs)
    return faces, counts


def load_dice(path: str | Path | None = None) -> tuple[dict[str, tuple[str, ...]], dict[str, int]]:
    """The faces and counts of the four dice (config/lastonealive/dice.yaml)."""
    path = Path(path) if path else config_path("lastonealive/dice.yaml")
    return parse_dice(load_yaml(path), path)


def parse_tokens(data: Any, path: Path) -> tuple[dict[str, int], int]:
    if not isinstance(data, Mapping) or "objects" not in data:
        raise ConfigError(f"{path}: expected a mapping with the key 'objects' at the top")
    _unknown(data, ("objects", "apocalypse"), path, "")
    objects = data["objects"]
    if not isinstance(objects, Mapping):
        raise ConfigError(f"{path}: field objects: expected a mapping of object to count")
    _unknown(objects, OBJECTS, path, "objects: ")
    mix = {t: _count(objects.get(t, 0), path, f"object {t}, field count", 0, MAX_TOKENS) for t in OBJECTS}
    apocalypse = _count(data.get("apocalypse", APOCALYPSE_TOKENS), path, "field apocalypse", 0, MAX_TOKENS)
    return mix, apocalypse


def load_tokens(path: str | Path | None = None) -> tuple[dict[str, int], int]:
    """The object mix and the apocalypse tokens (config/lastonealive/tokens.yaml)."""
    path = Path(path) if path else config_path("lastonealive/tokens.yaml")
    return parse_tokens(load_yaml(path), path)


@dataclass(frozen=True)
class Content:
    faces: Mapping[str, tuple[str, ...]]
    counts: Mapping[str, int]
    mix: Mapping[str, int]
    apocalypse: int

    def game_options(self) -> dict[str, Any]:
        """Keyword arguments for :meth:`lastonealive.rules.Game.new`."""
        return {"faces": dict(self.faces), "counts": dict(self.counts), "mix": dict(self.mix),
                "apocalypse": self.apocalypse}


def load_content(dice: str | Path | None = None, tokens: str | Path | None = None) -> Content:
    faces, counts = load_dice(dice)
    mix, apocalypse = load_tokens(tokens)
    return Content(faces, counts, mix, apocalypse)
