"""The game's contents from config/: tiles, dice faces and bonus-token counts.

Every file is read with ``yaml.safe_load`` and validated; an error is a :class:`ConfigError`
whose message names the file, then the entry (tile, face, path) and the field.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import yaml

from bitbox_config import config_path

from .rules.game import DEFAULT_MARKERS
from .rules import DEFAULT_DICE, TOKENS, Tile, TileError, parse_tile


class ConfigError(ValueError):
    """A config file that is missing, malformed or wrong; the message says where."""


class StrictLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses a key given twice in one mapping (PyYAML would
    silently keep the last one, hiding a typo)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            try:
                duplicate = key in seen
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, f"a mapping key must be a plain value, not {key!r}", key_node.start_mark) from None
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} is given twice", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


MAX_YAML_BYTES = 4 * 1024 * 1024


def load_yaml(path: str | Path) -> Any:
    """Read a YAML file safely (``safe_load`` semantics, duplicate keys refused); every
    failure is a ConfigError naming the file (and the line when the YAML is malformed)."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_YAML_BYTES:
            raise ConfigError(f"{path}: too large for a config file ({path.stat().st_size} bytes)")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}") from None
    try:
        return yaml.load(text, Loader=StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}, column {mark.column + 1}:" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(f"{path}:{where} not valid YAML: {problem}") from None
    except (RecursionError, ValueError, OverflowError, MemoryError) as exc:
        raise ConfigError(f"{path}: not usable YAML: {type(exc).__name__}: {str(exc)[:200]}") from None


def _mapping(data: Any, path: Path, key: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping) or key not in data:
        raise ConfigError(f"{path}: expected a mapping with the key {key!r} at the top")
    return data


def _check_keys(data: Mapping[str, Any], allowed: set[str], path: Path, where: str = "") -> None:
    unknown = sorted(map(str, set(data) - allowed))
    if unknown:
        raise ConfigError(f"{path}: {where}unknown field {unknown[0]!r} (known: {', '.join(sorted(allowed))})")


def load_dice(path: str | Path | None = None) -> dict[str, tuple[int, ...]]:
    path = Path(path) if path else config_path("dice.yaml")
    data = _mapping(load_yaml(path), path, "dice")
    _check_keys(data, {"dice"}, path)
    dice = data["dice"]
    if not isinstance(dice, Mapping):
        raise ConfigError(f"{path}: field dice: expected a mapping of die name to faces")
    out: dict[str, tuple[int, ...]] = {}
    for name in DEFAULT_DICE:
        faces = dice.get(name)
        if not isinstance(faces, list) or not faces or not all(isinstance(f, int) and not isinstance(f, bool) and f != 0 for f in faces):
            raise ConfigError(f"{path}: die {name}, field faces: expected a list of non-zero whole numbers, got {faces!r}")
        out[name] = tuple(faces)
    _check_keys(dice, set(DEFAULT_DICE), path, "dice: ")
    if any(f > 0 for f in out["yellow"]):
        raise ConfigError(f"{path}: die yellow, field faces: the yellow die shows fuel costs as negative numbers, got {list(out['yellow'])}")
    if any(f < 0 for f in out["blue"]):
        raise ConfigError(f"{path}: die blue, field faces: the blue die shows zones as positive numbers, got {list(out['blue'])}")
    return out


def load_tokens(path: str | Path | None = None) -> tuple[dict[str, int], int]:
    """Bonus-token counts by type and the number of force-field markers."""
    path = Path(path) if path else config_path("tokens.yaml")
    data = _mapping(load_yaml(path), path, "tokens")
    _check_keys(data, {"tokens", "force_field_markers"}, path)
    tokens = data["tokens"]
    if not isinstance(tokens, Mapping):
        raise ConfigError(f"{path}: field tokens: expected a mapping of token type to count")
    _check_keys(tokens, set(TOKENS), path, "tokens: ")
    counts = {}
    for t in TOKENS:
        n = tokens.get(t)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ConfigError(f"{path}: token {t}, field count: expected a whole number ≥ 0, got {n!r}")
        counts[t] = n
    markers = data.get("force_field_markers", DEFAULT_MARKERS)
    if not isinstance(markers, int) or isinstance(markers, bool) or markers < 0:
        raise ConfigError(f"{path}: field force_field_markers: expected a whole number ≥ 0, got {markers!r}")
    return counts, markers


def parse_tiles(data: Any, path: Path, dice: tuple[str, ...]) -> list[Tile]:
    if not isinstance(data, list):
        raise ConfigError(f"{path}: expected a list of tiles (each '- number: N ...')")
    tiles: list[Tile] = []
    seen: dict[int, int] = {}
    for i, entry in enumerate(data):
        try:
            tile = parse_tile(entry, f"entry {i + 1}", dice=dice)
        except TileError as exc:
            raise ConfigError(f"{path}: {exc}") from None
        if tile.number in seen:
            raise ConfigError(f"{path}: entry {i + 1}: tile {tile.number}, field number: duplicate "
                              f"(already entry {seen[tile.number] + 1})")
        seen[tile.number] = i
        tiles.append(tile)
    missing = sorted(set(range(1, 17)) - set(seen))
    if missing:
        raise ConfigError(f"{path}: tiles {', '.join(map(str, missing))} are missing (a set has tiles 1-16)")
    return sorted(tiles, key=lambda t: t.number)


def load_tiles(path: str | Path | None = None, dice: tuple[str, ...] = tuple(DEFAULT_DICE)) -> list[Tile]:
    path = Path(path) if path else config_path("tiles.yaml")
    return parse_tiles(load_yaml(path), path, dice)


@dataclass(frozen=True)
class Content:
    tiles: tuple[Tile, ...]
    dice: Mapping[str, tuple[int, ...]]
    token_counts: Mapping[str, int]
    markers: int

    def tile(self, number: int) -> Tile:
        for t in self.tiles:
            if t.number == number:
                return t
        raise KeyError(number)


def load_content(tiles: str | Path | None = None, dice: str | Path | None = None,
                 tokens: str | Path | None = None) -> Content:
    d = load_dice(dice)
    counts, markers = load_tokens(tokens)
    return Content(tuple(load_tiles(tiles, tuple(d))), d, counts, markers)
