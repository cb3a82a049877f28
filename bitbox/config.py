"""Reading every YAML file of the console and its games, strictly, with errors that say where.

One loader for every file (controllers, wheel maps, scripts, and the games' tiles, dice,
tokens, table settings and scenarios)::

    from bitbox.config import ConfigError, load_yaml, parse_yaml
    data = load_yaml("config/wheels.yaml")              # a file; errors start with its path
    data = load_yaml(path, what="scenario foo.yaml")    # errors start with ``what`` instead
    data = parse_yaml(text, what="--faults")            # text already in memory

Both return plain data (``yaml.safe_load`` semantics: dicts, lists, str, int, float, bool,
None, dates) or raise :class:`ConfigError`, whose message is one line starting with the file
(or ``what``), then the line and column when the YAML itself is wrong. Stricter than
``safe_load``:

- a key given twice in one mapping is refused (PyYAML would keep the last one, silently
  losing the first: a typo in a wheel map would lose a meaning);
- a file larger than :data:`MAX_YAML_BYTES` is refused before it is parsed, and so is
  anything that is not a regular file (a named pipe with nobody writing would block the
  command for ever; a device such as ``/dev/zero`` never ends);
- anchors and aliases (``&a``/``*a``, merge keys ``<<``) are allowed, but the document, with
  every alias expanded, may hold at most :data:`MAX_YAML_NODES` values and nest at most
  :data:`MAX_YAML_DEPTH` deep; an alias that contains itself is refused. This is checked on
  the parsed node graph (each shared node counted once per use, computed once) *before*
  anything is built, so a "billion laughs" of a few hundred bytes is refused at once
  instead of taking gigabytes in whatever walks the data next.

Games (``outspeed``, ``lastonealive``) import these from here; ``bitbox`` imports no game.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import yaml

from .colours import LIGHT_RGB

__all__ = ["ConfigError", "load_yaml", "parse_yaml", "MAX_YAML_BYTES", "MAX_YAML_NODES", "MAX_YAML_DEPTH",
           "parse_int", "parse_colour"]

#: The largest config file read, in bytes (the shipped ones are a few kilobytes).
MAX_YAML_BYTES = 4 * 1024 * 1024
#: The most values (scalars, lists and mappings, each alias counted as the values it stands
#: for) one document may hold once expanded.
MAX_YAML_NODES = 200_000
#: The deepest nesting of lists and mappings.
MAX_YAML_DEPTH = 64


class ConfigError(ValueError):
    """A config file that is missing, malformed or wrong; the message (one line) says where:
    the file, then the entry and the field. The one class for every file of the console and
    its games."""


class _StrictConstructor(yaml.constructor.SafeConstructor):
    """``yaml.SafeConstructor`` that refuses a key given twice in one mapping."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":     # "<<: *base": its keys may be overridden
                continue
            key = self.construct_object(key_node, deep=deep)
            try:
                duplicate = key in seen
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, f"a mapping key must be a plain value, not {_short(key)}", key_node.start_mark) from None
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {_short(key)} is given twice", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


class _StrictLoader(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer,
                    _StrictConstructor, yaml.resolver.Resolver):
    """``yaml.SafeLoader`` (pure Python) with the strict constructor."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)
        _StrictConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)


_StrictCLoader: Any = None
if getattr(yaml, "__with_libyaml__", False):
    class _StrictCLoader(yaml.cyaml.CParser, _StrictConstructor, yaml.resolver.Resolver):  # type: ignore[no-redef, name-defined]  # types-PyYAML does not export CParser
        """``yaml.CSafeLoader`` (libyaml's parser, ten times faster) with the strict constructor."""

        def __init__(self, stream: str) -> None:
            yaml.cyaml.CParser.__init__(self, stream)  # type: ignore[attr-defined]  # (as above)
            _StrictConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)


#: libyaml composes nested collections by recursion in C, which a hostile file nested
#: thousands deep would crash (a segmentation fault, not an exception). The nesting depth of
#: a text is at most the number of ``[ { - ?`` in it plus its indentation levels (at most
#: sqrt(2 x size)), so texts within these bounds (every shipped file, far inside) are
#: parsed by libyaml, and any other text by the pure-Python parser, which turns deep
#: nesting into a RecursionError (refused below). Both build the same data.
_C_MAX_BYTES = 1024 * 1024
_C_MAX_NESTERS = 4000


def _fast_loader_fits(text: str) -> bool:
    return (_StrictCLoader is not None and len(text) <= _C_MAX_BYTES
            and text.count("[") + text.count("{") + text.count("-") + text.count("?") <= _C_MAX_NESTERS)


class _TooBig(Exception):
    pass


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _check_expansion(root: yaml.Node) -> None:
    """Refuse a node graph that, aliases expanded, holds more than MAX_YAML_NODES values,
    nests deeper than MAX_YAML_DEPTH, or contains itself. Each distinct node is visited once
    (sizes are memoised), so this costs the size of the *text*, not of the expansion."""
    size: dict[int, int] = {}
    height: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            kids = _children(node)
            total = 1 + sum(size[id(k)] for k in kids)
            deep = 1 + max((height[id(k)] for k in kids), default=0)
            if total > MAX_YAML_NODES:
                raise _TooBig(f"{node.start_mark.line + 1}, column {node.start_mark.column + 1}: holds more than "
                              f"{MAX_YAML_NODES:,} values once its aliases are expanded (an alias bomb?)")
            if deep > MAX_YAML_DEPTH:
                raise _TooBig(f"{node.start_mark.line + 1}, column {node.start_mark.column + 1}: nested more "
                              f"than {MAX_YAML_DEPTH} deep")
            size[key], height[key] = total, deep
            continue
        if key in size:
            continue
        if key in on_path:
            raise _TooBig(f"{node.start_mark.line + 1}, column {node.start_mark.column + 1}: an alias that "
                          f"contains itself")
        on_path.add(key)
        stack.append((node, True))
        stack.extend((k, False) for k in _children(node) if id(k) not in size)


def _not_yaml(exc: Exception, what: str, text: str = "") -> ConfigError:
    """A YAML error as one line: where (line, column) and the problem."""
    from .safetext import printable
    mark = getattr(exc, "problem_mark", None)
    where = f" line {mark.line + 1}, column {mark.column + 1}:" if mark else ""
    if isinstance(exc, yaml.reader.ReaderError):     # a character YAML does not allow in its text
        before = text[:exc.position]
        where = f" line {before.count(chr(10)) + 1}, column {exc.position - before.rfind(chr(10))}:"
        code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
        problem = f"the character U+{code:04X} is not allowed (a control character)"
    else:
        problem = getattr(exc, "problem", None) or str(exc)
    return ConfigError(f"{what}:{where} not valid YAML: {printable(problem, 200)}")


def parse_yaml(text: str | bytes, *, what: str) -> Any:
    """Parse YAML ``text`` strictly (see the module); errors are :class:`ConfigError` starting
    with ``what`` (e.g. the file name)."""
    if len(text) > MAX_YAML_BYTES:
        raise ConfigError(f"{what}: too large for a config file ({len(text):,} bytes; at most {MAX_YAML_BYTES:,})")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{what}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if _fast_loader_fits(text):
        try:
            return _load(_StrictCLoader, text, what)
        except ConfigError:
            pass            # refused: parsed again below, so the message is the same either way
    return _load(_StrictLoader, text, what)


def _load(kind: Any, text: str, what: str) -> Any:
    try:
        loader = kind(text)         # its reader refuses control characters here (an ESC, a NUL)
    except yaml.YAMLError as exc:
        raise _not_yaml(exc, what, text) from None
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_expansion(node)
        return loader.construct_document(node)
    except _TooBig as exc:
        raise ConfigError(f"{what}: line {exc}; refused") from None
    except yaml.YAMLError as exc:
        raise _not_yaml(exc, what) from None
    except (RecursionError, ValueError, OverflowError, MemoryError) as exc:
        raise ConfigError(f"{what}: not usable YAML: {type(exc).__name__}: {_short(str(exc))}") from None
    finally:
        loader.dispose()


def load_yaml(path: str | os.PathLike[str], *, what: str | None = None) -> Any:
    """Read and parse the YAML file ``path`` strictly (see the module). Errors are
    :class:`ConfigError` starting with ``what`` (default: the path): no such file, not
    readable, not a regular file (a named pipe, a device), too large, not valid YAML (with
    line and column), a key given twice, an alias bomb."""
    path = Path(path)
    what = str(path) if what is None else what
    try:
        # O_NONBLOCK: opening a named pipe returns at once (a plain open waits for a writer);
        # it is then refused as not a regular file. It changes nothing for a regular file.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ConfigError(f"{what}: is not a regular file (a pipe, socket or device), not a config file")
            data = f.read(MAX_YAML_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError(f"{what}: no such file") from None
    except IsADirectoryError:
        raise ConfigError(f"{what}: is a folder, not a file") from None
    except OSError as exc:
        raise ConfigError(f"{what}: cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_YAML_BYTES:
        raise ConfigError(f"{what}: too large for a config file (more than {MAX_YAML_BYTES:,} bytes)")
    return parse_yaml(data, what=what)


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
