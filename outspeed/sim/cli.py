"""``outspeed simulate``: the console's simulate command (:mod:`bitbox.simulation.command`)
with Outspeed's option ``--first-game`` and its statistics."""
from __future__ import annotations

import argparse
from typing import Any

from bitbox.simulation import command

PROG = "outspeed simulate"


def _cartridge() -> Any:
    from ..cartridge import OutspeedCartridge
    return OutspeedCartridge()


DESCRIPTION = ("Play N games with bots, in parallel, and report win rates by seat and bot, finishing zones, "
               "eliminations by cause, path pick rates and win contributions, and game length. The same --seed "
               "gives the same report whatever --workers.")


def _first_game(p: argparse.ArgumentParser) -> None:
    p.add_argument("--first-game", action="store_true", help="tiles 1-13 in order, as for a first game")


def add_parser(sub: Any) -> argparse.ArgumentParser:
    return command.add_parser(sub, _cartridge(), DESCRIPTION, 1000, _first_game, run)


def run(args: argparse.Namespace) -> int:
    from ..content import ConfigError
    from .runner import SimConfig
    return command.run(PROG, args, _cartridge(), lambda players, bots: SimConfig(
        games=args.games, players=players, bots=bots, seed=args.seed, first_game=args.first_game,
        rotate=not args.fixed_seats), refused=(ConfigError,))
