"""A game's own ``simulate`` command (``outspeed simulate``, ``lastonealive simulate``) on the
console's runner: ``--players`` and ``--bots`` (any bot name :mod:`bitbox.bots` knows for the
cartridge, ``mixed``, counts), the game's own options, ``--fixed-seats``, then the options every
``simulate`` shares (:mod:`bitbox.simulation.cli`). The game gives only its options and how they
make its run's :class:`~bitbox.simulation.runner.Config`; the run, the report, the charts,
``results.json`` and ``games.csv`` are the console's, with the cartridge's statistics hook.
"""
from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TextIO

from ..console import BotsError, add_logging_options, bots_help, parse_bots, simulated_seats
from ..games import Cartridge
from . import cli as common

#: The default number of players of a game's simulate command.
DEFAULT_PLAYERS = 4


def add_parser(sub: Any, cartridge: Cartridge, description: str, games: int,
               own: Callable[[argparse.ArgumentParser], None] | None,
               run: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
    """The ``simulate`` sub-command of ``cartridge``'s command (``games``: the default number of
    games; ``own`` adds the game's own options after ``--bots``; ``run(args)`` runs it)."""
    from ..bots import seat_names
    p = sub.add_parser("simulate", help="play many games with bots and report statistics", description=description)
    p.add_argument("--players", type=int, metavar="P", help=f"players per game, {cartridge.min_players} to "
                   f"{cartridge.max_players} (default {DEFAULT_PLAYERS})")
    p.add_argument("--bots", metavar="N|NAMES|N:NAMES",
                   help=bots_help(tuple(seat_names(cartridge)), "random; every seat is a bot, so N is the number of players"))
    if own is not None:
        own(p)
    p.add_argument("--fixed-seats", action="store_true",
                   help="do not rotate the bots over the seats from one game to the next")
    common.add_search_options(p)
    common.add_options(p, games=games)
    add_logging_options(p, quiet=False)
    p.set_defaults(func=run)
    return p


def run(prog: str, args: argparse.Namespace, cartridge: Cartridge,
        config: Callable[[int, tuple[str, ...]], Any], check: Callable[[int], str | None] | None = None,
        refused: tuple[type[Exception], ...] = ()) -> int:
    """Run the command: ``--players``/``--bots`` checked, then the game's ``check(players)``
    (None, or the one line saying what is wrong); ``config(players, bots)`` is the run; an
    exception of ``refused`` while it runs (its contents cannot be loaded…) is one line."""
    import dataclasses

    from ..bots import bot_names
    from .runner import simulate
    seats: list[tuple[int, tuple[str, ...]]] = []
    budget: list[Any] = [None]

    def checked() -> str | None:
        try:
            spec = None if args.bots is None else parse_bots(args.bots, tuple(bot_names(cartridge)),
                                                             getattr(cartridge, "mixed_bots", None), extra=("search",))
            players, bots = simulated_seats(args.players, spec, DEFAULT_PLAYERS, ("random",))
            budget[0] = common.search_budget(args) if "search" in bots else None
        except (BotsError, ValueError) as exc:
            return str(exc)
        if not cartridge.min_players <= players <= cartridge.max_players:
            return f"--players must be {cartridge.min_players} to {cartridge.max_players}, not {players}"
        seats.append((players, bots))
        return check(players) if check is not None else None

    def play(workers: int, progress: TextIO | None, ray: str | None) -> Any:
        try:
            run = config(*seats[0])
            if budget[0] is not None:
                run = dataclasses.replace(run, search=budget[0])
            return simulate(run, workers=workers, progress=progress, ray=ray, cartridge=cartridge)
        except refused as exc:
            raise common.Refused(str(exc)) from None

    return common.run(prog, args, play, checked)


def names(text: str) -> tuple[str, ...]:
    """A comma-separated list of names (``--variant a,b``), each once, in order."""
    return tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))


__all__ = ["DEFAULT_PLAYERS", "add_parser", "names", "run"]
