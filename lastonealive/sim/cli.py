"""``lastonealive simulate``: the console's simulate command (:mod:`bitbox.simulation.command`)
with Last One Alive's options ``--variant`` and ``--first-zombie`` and its statistics."""
from __future__ import annotations

import argparse
from typing import Any

from bitbox.simulation import command

from ..rules.game import VARIANT_PLAYERS, variant_problem
from .runner import SIM_VARIANTS

PROG = "lastonealive simulate"


def _cartridge() -> Any:
    from ..cartridge import CARTRIDGE
    return CARTRIDGE


DESCRIPTION = ("Play N games of Last One Alive with bots, in parallel, and report win rates by seat and bot, "
               "turns survived, game length, the apocalypse level over time, and how each token is used and pays "
               "off. The same --seed gives the same figures whatever --workers.")


def _variants(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", default="", metavar="NAMES",
                   help=f"comma-separated variants ({', '.join(SIM_VARIANTS)}; default: the base game); "
                        "survivors is for 2 or 3 players")
    p.add_argument("--first-zombie", choices=("each", "first"), default="each",
                   help="the starting 1-zombie die for each player (default) or the first only (L-4)")


def add_parser(sub: Any) -> argparse.ArgumentParser:
    return command.add_parser(sub, _cartridge(), DESCRIPTION, 500, _variants, run)


def run(args: argparse.Namespace) -> int:
    from .runner import SimConfig
    variants = command.names(args.variant)

    def check(players: int) -> str | None:
        bad = [v for v in variants if v not in SIM_VARIANTS]
        if bad:
            return f"unknown variant {bad[0]!r} in --variant (known: {', '.join(SIM_VARIANTS)})"
        problem = variant_problem(variants, players)
        if problem is not None:                 # the engine's own check (play, the cartridge)
            v = next(v for v in variants if variant_problem([v], players))
            lo, hi = VARIANT_PLAYERS[v]
            return f"--variant {v} is for {lo} or {hi} players, not --players {players}"
        return None

    return command.run(PROG, args, _cartridge(), lambda players, bots: SimConfig(
        games=args.games, players=players, bots=bots, seed=args.seed, variants=variants,
        first_zombie=args.first_zombie, rotate=not args.fixed_seats), check)
