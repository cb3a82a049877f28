"""``lastonealive simulate``: the sub-command's arguments and what it does (the options every
``simulate`` shares, their checks, interrupts and ``--ray`` are the console's:
:mod:`bitbox.simulation.cli`; this game adds ``--variant`` and ``--first-zombie``)."""
from __future__ import annotations

import argparse
from typing import Any, TextIO

from bitbox.console import BotsError, add_logging_options, bots_help, parse_bots, simulated_seats
from bitbox.simulation import cli as common

from ..rules.game import MAX_PLAYERS, MIN_PLAYERS
from ..strategy import BOT_NAMES
from .runner import SIM_VARIANTS

PROG = "lastonealive simulate"


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "simulate", help="play many games with bots and report statistics",
        description="Play N games of Last One Alive with bots, in parallel, and report win rates by seat and "
                    "bot, turns survived, game length, the apocalypse level over time, and how each token is "
                    "used and pays off. The same --seed gives the same figures whatever --workers.")
    p.add_argument("--players", type=int, metavar="P",
                   help=f"players per game, {MIN_PLAYERS} to {MAX_PLAYERS} (default 4)")
    p.add_argument("--bots", metavar="N|NAMES|N:NAMES",
                   help=bots_help((*BOT_NAMES, "search"), "random; every seat is a bot, so N is the number of players"))
    p.add_argument("--variant", default="", metavar="NAMES",
                   help=f"comma-separated variants ({', '.join(SIM_VARIANTS)}; default: the base game); "
                        "survivors is for 2 or 3 players")
    p.add_argument("--first-zombie", choices=("each", "first"), default="each",
                   help="the starting 1-zombie die for each player (default) or the first only (L-4)")
    p.add_argument("--fixed-seats", action="store_true",
                   help="do not rotate the bots over the seats from one game to the next")
    common.add_search_options(p)
    common.add_options(p, games=500)
    add_logging_options(p, quiet=False)
    p.set_defaults(func=run)
    return p


def _names(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))


def run(args: argparse.Namespace) -> int:
    from . import simulate
    from .runner import SimConfig
    bots: tuple[str, ...] = ()
    budget: Any = None
    variants = _names(args.variant)

    def check() -> str | None:
        nonlocal bots, budget
        try:
            spec = None if args.bots is None else parse_bots(args.bots, BOT_NAMES, extra=("search",))
            args.players, bots = simulated_seats(args.players, spec, 4, ("random",))
            budget = common.search_budget(args)
        except (BotsError, ValueError) as exc:
            return str(exc)
        if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
            return f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {args.players}"
        bad = [v for v in variants if v not in SIM_VARIANTS]
        if bad:
            return f"unknown variant {bad[0]!r} in --variant (known: {', '.join(SIM_VARIANTS)})"
        if "survivors" in variants and args.players > 3:
            return f"--variant survivors is for 2 or 3 players, not --players {args.players}"
        return None

    def play(workers: int, progress: TextIO | None, ray: str | None) -> Any:
        config = SimConfig(games=args.games, players=args.players, bots=bots, seed=args.seed, variants=variants,
                           first_zombie=args.first_zombie, rotate=not args.fixed_seats, search=budget)
        return simulate(config, workers=workers, progress=progress, ray=ray)

    return common.run(PROG, args, play, check)
