"""``config/table.yaml``: the table's settings, one schema for every game.

The console's fields (``language``, ``speed``, ``window``, ``fullscreen``,
``wait_for_controllers``, ``snapshots``, ``journal``, ``sound``) and the fields a game adds
(its cartridge's optional ``table_fields``, :class:`~bitbox.games.protocol.OptionSpec` s:
Outspeed's ``tokens`` and ``bot``). A game's field named like one of its options (or table
options) is that option's default at the table; a field named ``bot`` is the bots seated
when ``--bots`` names none. A field another installed game adds is left to that game; any
other field is a mistake. Every mistake is one :class:`~bitbox.config.ConfigError` naming
the file and the field.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Mapping, Sequence

from bitbox.config import ConfigError, load_yaml
from bitbox.i18n import LANGUAGES

from .play import TableDefaults

CONSOLE_FIELDS = ("language", "speed", "wait_for_controllers", "window", "fullscreen", "sound", "snapshots", "journal")


def table_fields(cartridge: Any) -> Sequence[Any]:
    """The game's own fields of table.yaml (none when it adds none)."""
    return tuple(getattr(cartridge, "table_fields", ()) or ()) if cartridge is not None else ()


def defaults_of(cartridge: Any) -> TableDefaults:
    """The table's defaults for ``cartridge`` when table.yaml says nothing."""
    fields = {spec.name: spec.default for spec in table_fields(cartridge)}
    return TableDefaults(bot=fields.get("bot"), fields=fields)


def _others_fields(cartridge: Any) -> set[str]:
    """The fields the other installed games add (left to them)."""
    from bitbox.games import GameError, find, names
    out: set[str] = set()
    for name in names():
        if cartridge is not None and name == getattr(cartridge, "name", None):
            continue
        try:
            out.update(spec.name for spec in table_fields(find(name)))
        except GameError:
            continue
    return out


def _bot_field(path: Path, cartridge: Any, value: Any) -> str:
    from bitbox.bots import bot_names
    known = list(bot_names(cartridge))
    allowed = set(known) | ({"mixed"} if getattr(cartridge, "mixed_bots", None) else set())
    if not isinstance(value, str) or not all(b.strip() in allowed for b in value.split(",")):
        mixed = "mixed or " if "mixed" in allowed else ""
        raise ConfigError(f"{path}: field bot: expected {mixed}one of {', '.join(known)} "
                          f"(or several, comma-separated), got {value!r}")
    return value


def _game_field(path: Path, spec: Any, value: Any) -> Any:
    if spec.choices:
        if value not in spec.choices:
            names = [str(c) for c in spec.choices]
            expected = " or ".join(names) if len(names) == 2 else "one of " + ", ".join(names)
            raise ConfigError(f"{path}: field {spec.name}: expected {expected}, got {value!r}")
    elif spec.default is not None and type(value) is not type(spec.default):
        raise ConfigError(f"{path}: field {spec.name}: expected a {type(spec.default).__name__}, got {value!r}")
    return value


def load_table_config(path: str | Path | None = None, cartridge: Any = None) -> TableDefaults:
    """``config/table.yaml`` (or ``path``) for ``cartridge``'s table, validated; errors name
    the file and the field. No file (and no ``path``): the defaults."""
    if path is None:
        from bitbox_config import config_path
        path = config_path("table.yaml")
        if not Path(path).exists():
            return defaults_of(cartridge)
    path = Path(path)
    data = load_yaml(path) or {}
    if not isinstance(data, Mapping):
        raise ConfigError(f"{path}: expected a mapping of settings (language: en, speed: 1, ...)")
    own = {spec.name: spec for spec in table_fields(cartridge)}
    known = set(CONSOLE_FIELDS) | set(own)
    unknown = sorted(map(str, set(data) - known))
    if unknown:
        others = _others_fields(cartridge)
        unknown = [k for k in unknown if k not in others]
        if unknown:
            raise ConfigError(f"{path}: unknown field {unknown[0]!r} (known: {', '.join(sorted(known))})")
    out: dict[str, Any] = {}
    if "language" in data:
        if data["language"] not in LANGUAGES:
            raise ConfigError(f"{path}: field language: expected one of {', '.join(LANGUAGES)}, got {data['language']!r}")
        out["language"] = data["language"]
    for key in ("speed", "wait_for_controllers"):
        if key in data:
            v = data[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise ConfigError(f"{path}: field {key}: expected a number ≥ 0, got {v!r}")
            out[key] = float(v)
    if "window" in data:
        v = data["window"]
        if (not isinstance(v, list) or len(v) != 2 or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 320 for n in v)
                or v[0] > 7680 or v[1] > 4320):
            raise ConfigError(f"{path}: field window: expected [width, height] in pixels (≥ 320, at most 7680x4320), "
                              f"got {v!r}")
        out["window"] = (v[0], v[1])
    for key in ("fullscreen", "sound"):
        if key in data:
            if not isinstance(data[key], bool):
                raise ConfigError(f"{path}: field {key}: expected true or false, got {data[key]!r}")
            out[key] = data[key]
    for key in ("snapshots", "journal"):
        if key in data and data[key] is not None:
            if not isinstance(data[key], str) or not data[key].strip():
                raise ConfigError(f"{path}: field {key}: expected a path, got {data[key]!r}")
            out[key] = data[key]
    fields = {name: spec.default for name, spec in own.items()}
    for name, spec in own.items():
        if name in data:
            fields[name] = _bot_field(path, cartridge, data[name]) if name == "bot" else _game_field(path, spec, data[name])
    return TableDefaults(**out, bot=fields.get("bot"), fields=fields)


def journal_path_of(given: str | None, table_config: str | None = None, cartridge: Any = None) -> Path:
    """The journal a command uses: ``--journal``, else table.yaml's ``journal:``, else the
    user's data folder (ConfigError when table.yaml cannot be read)."""
    from .journal import default_journal_path
    from .options import user_path
    from .seating import TableError
    if given is not None and not given.strip():
        raise TableError("--journal: an empty path is not a journal file (leave --journal out for the default one)")
    if given:
        return user_path(given)
    cfg = load_table_config(table_config, cartridge)
    return user_path(cfg.journal or default_journal_path())


__all__ = ["CONSOLE_FIELDS", "ConfigError", "defaults_of", "journal_path_of", "load_table_config", "table_fields"]
