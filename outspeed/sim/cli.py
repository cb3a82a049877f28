"""``outspeed simulate``: the sub-command's arguments and what it does (the options every
``simulate`` shares, their checks, interrupts and ``--ray`` are the console's:
:mod:`bitbox.simulation.cli`)."""
from __future__ import annotations

import argparse
from typing import Any

from bitbox.console import BotsError, add_logging_options, bots_help, parse_bots, simulated_seats
from bitbox.simulation import cli as common

from ..bots import BOTS
from ..rules.game import MAX_PLAYERS, MIN_PLAYERS

PROG = "outspeed simulate"


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "simulate", help="play many games with bots and report statistics",
        description="Play N games with bots, in parallel, and report win rates by seat and bot, finishing "
                    "zones, eliminations by cause, path pick rates and win contributions, and game length. "
                    "The same --seed gives the same report whatever --workers.")
    p.add_argument("--players", type=int, metavar="P", help=f"players per game, {MIN_PLAYERS} to {MAX_PLAYERS} (default 4)")
    p.add_argument("--bots", metavar="N|NAMES|N:NAMES",
                   help=bots_help((*BOTS, "search"), "random; every seat is a bot, so N is the number of players"))
    p.add_argument("--first-game", action="store_true", help="tiles 1-13 in order, as for a first game")
    p.add_argument("--fixed-seats", action="store_true",
                   help="do not rotate the bots over the seats from one game to the next")
    common.add_search_options(p)
    common.add_options(p, games=1000)
    add_logging_options(p, quiet=False)
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace) -> int:
    from ..bots import MIXED
    from . import SimConfig, simulate
    bots: tuple[str, ...] = ()
    budget: Any = None

    def check() -> str | None:
        nonlocal bots, budget
        try:
            spec = None if args.bots is None else parse_bots(args.bots, tuple(BOTS), MIXED, extra=("search",))
            args.players, bots = simulated_seats(args.players, spec, 4, ("random",))
            budget = common.search_budget(args)
        except (BotsError, ValueError) as exc:
            return str(exc)
        if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
            return f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {args.players}"
        return None

    def play(workers, progress, ray):
        from ..content import ConfigError, load_content
        try:
            content = load_content()
        except ConfigError as exc:
            raise common.Refused(str(exc)) from None
        config = SimConfig(games=args.games, players=args.players, bots=bots, seed=args.seed,
                           first_game=args.first_game, rotate=not args.fixed_seats, search=budget)
        return simulate(config, workers=workers, progress=progress, content=content, ray=ray)

    return common.run(PROG, args, play, check)
