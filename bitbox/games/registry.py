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

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

from .protocol import Cartridge, GameError

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
    except Exception as exc:                   # a broken cartridge must not take the console down
        raise GameError(f"game {name!r} ({ep.value}) cannot be loaded: {type(exc).__name__}: {exc}") from None
    if isinstance(obj, type) or (not isinstance(obj, Cartridge) and callable(obj)):
        maker: Callable[[], object] = obj      # a class or a factory: make the cartridge
        try:
            obj = maker()
        except Exception as exc:
            raise GameError(f"game {name!r} ({ep.value}) cannot be made: {type(exc).__name__}: {exc}") from None
    if not isinstance(obj, Cartridge):
        raise GameError(f"game {name!r} ({ep.value}) is not a cartridge: {type(obj).__name__}")
    if obj.name != name:
        raise GameError(f"game {name!r} ({ep.value}) calls itself {obj.name!r}")
    return obj


def cartridges() -> list[Cartridge]:
    """Every installed cartridge, by name."""
    return [find(n) for n in names()]


__all__ = ["GROUP", "UnknownGame", "cartridges", "find", "names"]
