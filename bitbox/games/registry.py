"""The shelf of cartridges: games found by name, without the console importing any game.

A distribution declares its cartridges as entry points in the group ``bitbox.games``; the
value names a :class:`~bitbox.games.protocol.Cartridge` object (or a class or function
that makes one)::

    [project.entry-points."bitbox.games"]
    outspeed = "outspeed.cartridge:CARTRIDGE"

A game being written, not yet installed, can be put on the shelf for one shell with the
environment variable ``BITBOX_GAMES`` (``name=module:attribute``, several separated by
commas; the module must be importable, e.g. through ``PYTHONPATH``); an installed game of
the same name comes first. The console's own tests put the tutorial game there (and its
research encoding in ``BITBOX_RESEARCH``, the same way: :mod:`bitbox.research`).

:func:`names` lists them without importing them; :func:`find` imports and checks one.
"""
from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from ..safetext import printable
from .protocol import Cartridge, GameError, OptionSpec

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GROUP = "bitbox.games"


class UnknownGame(GameError):
    """No cartridge of that name is installed (the message lists the known ones)."""


def _entry_points(group: str = GROUP, variable: str = "BITBOX_GAMES") -> dict[str, "EntryPoint"]:
    """The entry points of ``group`` by name: the installed ones, then those the environment
    variable ``variable`` names (``bitbox.research`` encodings: ``BITBOX_RESEARCH``)."""
    # importlib.metadata costs about 15 ms to import: only when a game is looked up, not for
    # every program that imports the game protocol (`outspeed play`'s start-up).
    from importlib.metadata import entry_points
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=group):
        found.setdefault(ep.name, ep)          # the first installed wins, as for console scripts
    for ep in _from_environment(group, variable):
        found.setdefault(ep.name, ep)
    return dict(sorted(found.items()))


def _from_environment(group: str = GROUP, variable: str = "BITBOX_GAMES") -> list["EntryPoint"]:
    """The games ``BITBOX_GAMES`` names (``name=module:attribute,...``); a malformed entry is
    skipped (:func:`find` of its name then says it is unknown)."""
    import os
    from importlib.metadata import EntryPoint
    out = []
    for item in os.environ.get(variable, "").split(","):
        name, sep, value = item.strip().partition("=")
        if sep and name.strip() and ":" in value:
            out.append(EntryPoint(name.strip(), value.strip(), group))
    return out


def names() -> list[str]:
    """The names of the installed cartridges, sorted (nothing is imported)."""
    return list(_entry_points())


def find(name: str) -> Cartridge:
    """The cartridge called ``name``. Raises :class:`UnknownGame` if none is installed under
    that name, :class:`GameError` if the entry point cannot be loaded or is not a cartridge."""
    eps = _entry_points()
    ep = eps.get(name)
    if ep is None:
        raise UnknownGame(f"no game called {name!r} (installed: {', '.join(eps) or 'none'})")
    try:
        obj: object = ep.load()
    except (Exception, SystemExit) as exc:     # a broken cartridge must not take the console down (nor exit it)
        raise GameError(f"game {name!r} ({printable(ep.value, 80)}) cannot be loaded: {type(exc).__name__}: {printable(exc, 200)}") from None
    try:
        is_maker = isinstance(obj, type) or (not isinstance(obj, Cartridge) and callable(obj))
    except Exception as exc:                   # a member that raises when looked at
        raise GameError(f"game {name!r} ({printable(ep.value, 80)}) is not a cartridge: reading it raised "
                        f"{type(exc).__name__}: {printable(exc, 120)}") from None
    if is_maker:
        maker = cast(Callable[[], object], obj)     # a class or a factory: make the cartridge
        try:
            obj = maker()
        except (Exception, SystemExit) as exc:
            raise GameError(f"game {name!r} ({printable(ep.value, 80)}) cannot be made: {type(exc).__name__}: {printable(exc, 200)}") from None
    try:
        problem = _shape(obj, name)
    except Exception as exc:                   # a member that raises when read (a property, __getattr__)
        problem = f"reading it raised {type(exc).__name__}: {printable(exc, 120)}"
    if problem is not None:
        raise GameError(f"game {name!r} ({printable(ep.value, 80)}) is not a cartridge: {problem}")
    return cast(Cartridge, obj)                # _shape: it is one


#: The most players a cartridge may seat (the table seats fewer: its seat colours).
MAX_PLAYERS = 100


def _shape(obj: object, name: str) -> str | None:
    """What is wrong with ``obj`` as the cartridge ``name``, in a few words, or None: the
    protocol's members present, and the ones every command reads before a game starts of the
    right type (name, title, player bounds, options), so that a broken cartridge is refused
    here, in one line naming it, not in the middle of a command."""
    if not isinstance(obj, Cartridge):
        missing = [m for m in ("name", "title", "min_players", "max_players", "options", "new", "from_data",
                               "redeal", "action_to_data", "action_from_data") if not hasattr(obj, m)]
        return f"{type(obj).__name__}" + (f" (no {', '.join(missing)})" if missing else "")
    if obj.name != name:
        return f"it calls itself {printable(repr(obj.name), 60)}"
    if not isinstance(obj.title, str) or not obj.title.strip():
        return f"its title is {printable(repr(obj.title), 60)}, not a name"
    lo, hi = obj.min_players, obj.max_players
    for what, n in (("min_players", lo), ("max_players", hi)):
        if type(n) is not int:
            return f"its {what} is {printable(repr(n), 60)}, not a whole number"
    if not 1 <= lo <= hi <= MAX_PLAYERS:
        return f"its players {lo} to {hi} are not 1 <= min_players <= max_players <= {MAX_PLAYERS}"
    options = obj.options
    if isinstance(options, (str, bytes)) or not isinstance(options, (tuple, list)):
        return f"its options are {printable(repr(options), 60)}, not a list of OptionSpec"
    seen: set[str] = set()
    for spec in options:
        if not isinstance(spec, OptionSpec):
            return f"an option is {printable(repr(spec), 60)}, not an OptionSpec"
        if not isinstance(spec.name, str) or not spec.name.isidentifier() or spec.name in seen:
            return f"an option's name {printable(repr(spec.name), 60)} is not a new identifier"
        seen.add(spec.name)
        for value in (spec.default, *spec.choices):
            if not (value is None or isinstance(value, (bool, int, str))
                    or (isinstance(value, float) and math.isfinite(value))):
                return f"its option {spec.name} has the value {printable(repr(value), 60)}: not a number, text or on/off"
    bots = getattr(obj, "bot_names", None)          # optional members every table reads
    if bots is not None and (not isinstance(bots, (tuple, list)) or not all(isinstance(b, str) and b for b in bots)):
        return f"its bot_names are {printable(repr(bots), 60)}, not a list of names"
    locale = getattr(obj, "locale", None)
    if locale is not None and not isinstance(locale, (str, os.PathLike)):
        return f"its locale is {printable(repr(locale), 60)}, not a folder"
    return None


def cartridges() -> list[Cartridge]:
    """Every installed cartridge, by name."""
    return [find(n) for n in names()]


__all__ = ["GROUP", "MAX_PLAYERS", "UnknownGame", "cartridges", "find", "names"]
