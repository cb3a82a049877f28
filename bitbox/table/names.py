"""People's names at the table: ``play --names Ana,Luis`` and ``settings["names"]``.

A seat is a colour (the game's player, the seat's mark on the screen and the controller's
light); a person sitting there may give a name. The names a game was played with are part of
its record in the journal: ``settings["names"]``, a mapping ``{player: name}`` (the contract
:mod:`bitbox.standings` reads: docs/analysis.md). The names go to the seats in seat order
(the first name to the first colour seated), whoever sits there: a person at a controller or
the keyboard, or a bot a person named (the standings still rate a bot seat as its bot).
A seat without a name is shown by its colour.

Everything that words a player (:meth:`bitbox.i18n.Words.player`) says the name once the
table's words know them (:meth:`bitbox.i18n.Words.named`): the screen's panels, the printed
events, the replay; ``history`` lists each seat as ``Ana (red)``, and ``history --json``
gives each player's ``person``.

A name given on the command line is checked (one line, exit 2): it has 1 to
:data:`MAX_NAME` characters after trimming spaces, no control characters, and no two names
are the same (compared ignoring case and extra spaces, as the standings compare them). A
name read from a record is shown only if it is one (:func:`bitbox.standings.clean_name`);
anything else leaves its seat unnamed.
"""
from __future__ import annotations

import argparse
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bitbox.standings import MAX_NAME, clean_name

from .seating import TableError


def check_names(text: str) -> tuple[str, ...]:
    """``--names``: comma-separated names (see the module docstring), or ArgumentTypeError
    naming the first problem."""
    raw = text.split(",")
    out: list[str] = []
    seen: dict[str, str] = {}
    for k, given in enumerate(raw, 1):
        bad = next((ch for ch in given if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn")
                    and ch != " "), None)
        if bad is not None:
            raise argparse.ArgumentTypeError(f"name {k} has a control character (U+{ord(bad):04X}): "
                                             f"names are plain text")
        name = " ".join(given.split())
        if not name:
            raise argparse.ArgumentTypeError(f"name {k} is empty (give names separated by commas: --names Ana,Luis)")
        if len(name) > MAX_NAME:
            raise argparse.ArgumentTypeError(f"name {k} has {len(name)} characters: at most {MAX_NAME}")
        if clean_name(name) != name:            # e.g. a character that is not printable
            raise argparse.ArgumentTypeError(f"name {k} is not printable text")
        key = name.casefold()
        if key in seen:
            raise argparse.ArgumentTypeError(f"{name!r} is given twice (each person's name once)")
        seen[key] = name
        out.append(name)
    return tuple(out)


def seat_names(names: Sequence[str], players: Sequence[str]) -> dict[str, str]:
    """``settings["names"]`` of a game whose seats are ``players`` (in seat order): the names
    in that order; more names than seats is a :class:`TableError` (one line)."""
    if len(names) > len(players):
        raise TableError(f"--names gives {len(names)} names for {len(players)} "
                         f"player{'s' if len(players) != 1 else ''} (one name per seat, in seat order)")
    return dict(zip(players, names))


def names_of(settings: Mapping[str, Any]) -> dict[str, str]:
    """The names of a game's record (``settings["names"]``): only the ones that are names."""
    given = settings.get("names")
    if not isinstance(given, Mapping):
        return {}
    out: dict[str, str] = {}
    for player, value in given.items():
        name = clean_name(value)
        if isinstance(player, str) and name is not None:
            out[player] = name
    return out


def named(words: Any, names: Mapping[str, str]) -> Any:
    """``words`` saying the seats' names (:meth:`bitbox.i18n.Words.named`; a game's own words
    without it keep saying colours); returns ``words``."""
    name = getattr(words, "named", None)
    if callable(name):
        name(names)
    return words


def names_in(games: Iterable[Any], limit: int | None = None) -> list[str]:
    """The names some journal records gave their seats (``settings["names"]``, only those that
    are names), the most recently played game first, in seat order, each once (compared as
    the standings compare them, shown as last written), at most ``limit``."""
    seen: dict[str, str] = {}
    for info in sorted(games, key=lambda g: -int(getattr(g, "id", 0))):
        names = names_of(getattr(info, "settings", {}) or {})
        order = [p for p in getattr(info, "players", ()) if p in names] or list(names)
        for player in order:
            seen.setdefault(names[player].casefold(), names[player])
            if limit is not None and len(seen) >= limit:
                return list(seen.values())
    return list(seen.values())


def known_names(journal: Any, limit: int | None = None) -> list[str]:
    """The names of a journal's games (any game), as :func:`names_in` gives them: what a lobby
    offers on a wheel. A record that cannot be read is left out; a journal that cannot be read
    gives none."""
    try:
        games, _ = journal.readable_games()
    except Exception:                           # a damaged journal: nothing to offer
        return []
    return names_in(games, limit)


def seat_label(player: str, names: Mapping[str, str], colour: str | None = None) -> str:
    """A seat as a listing shows it: ``Ana (red)``, or its colour alone when unnamed."""
    shown = colour if colour is not None else player
    name = names.get(player)
    return f"{name} ({shown})" if name else shown


__all__ = ["MAX_NAME", "check_names", "known_names", "named", "names_in", "names_of", "seat_label", "seat_names"]
