"""Reading the console's YAML files (controllers, wheel maps) with errors that say where.

Every file is read with ``yaml.safe_load``; a problem is a :class:`ConfigError` whose message
starts with the file, then names the entry and the field, so a maker editing the file by hand
knows what to fix. (``outspeed.content`` has the same idea for the game's files; ``bitbox``
imports nothing of the game, hence this small module.)
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .colours import LIGHT_RGB

__all__ = ["ConfigError", "load_yaml", "parse_int", "parse_colour"]


class ConfigError(ValueError):
    """A config file that is missing, malformed or wrong; the message says where."""


def load_yaml(path: str | Path) -> Any:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}, column {mark.column + 1}:" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(f"{path}:{where} not valid YAML: {problem}") from None


def parse_int(value: Any, *, lo: int, hi: int) -> int:
    """A whole number in ``lo..hi``: YAML ints (``0x1209`` is read as one) or strings such as
    ``"0x1209"`` or ``"8B17_0000_0000_0001"`` (hex when prefixed ``0x``). Raises ValueError
    with a short reason."""
    if isinstance(value, bool):
        raise ValueError(f"expected a whole number, got {value!r}")
    if isinstance(value, str):
        text = value.strip().replace("_", "")
        try:
            value = int(text, 16) if text.lower().startswith("0x") else int(text, 10)
        except ValueError:
            raise ValueError(f"expected a whole number (decimal or 0x-hex), got {value!r}") from None
    if not isinstance(value, int):
        raise ValueError(f"expected a whole number, got {value!r}")
    if not lo <= value <= hi:
        bound = f"{hi:#x}" if hi > 0xFFFF else str(hi)
        raise ValueError(f"expected {lo}..{bound}, got {value}")
    return value


#: Colour names accepted in config files, besides "#rrggbb" and [r, g, b].
#: The seat colours are the lights' palette (bitbox.colours), then a few more.
COLOUR_NAMES: dict[str, tuple[int, int, int]] = {
    **LIGHT_RGB, "white": (255, 255, 255), "black": (0, 0, 0), "pink": (240, 110, 170),
    "cyan": (40, 200, 220),
}


def parse_colour(value: Any) -> tuple[int, int, int]:
    """``"#rrggbb"``, a colour name (:data:`COLOUR_NAMES`) or ``[r, g, b]`` with 0..255 each."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in COLOUR_NAMES:
            return COLOUR_NAMES[text]
        if len(text) == 7 and text[0] == "#":
            try:
                return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))
            except ValueError:
                pass
        raise ValueError(f"expected '#rrggbb', [r, g, b] or one of {', '.join(COLOUR_NAMES)}; got {value!r}")
    if (isinstance(value, (list, tuple)) and len(value) == 3
            and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)):
        return (value[0], value[1], value[2])
    raise ValueError(f"expected '#rrggbb', [r, g, b] (0..255 each) or a colour name; got {value!r}")
