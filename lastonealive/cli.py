"""The `lastonealive` command: the console's table command for Last One Alive
(:mod:`bitbox.table.command`: play, history, replay, export, import, simulate, scenario), with
its own command, ``dice show``, which the cartridge adds
(:meth:`lastonealive.cartridge.LastOneAliveCartridge.add_commands`)."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from bitbox.table.command import add_own_command, game_main

from .content import ConfigError, load_dice
from .rules import BANGS, SYMBOLS, TYPES


main = game_main("lastonealive", "lastonealive.cartridge:CARTRIDGE")   # its entry point (no scan of every package's)


def add_commands(sub: Any, prog: str) -> None:
    """``dice show [FILE]``."""
    dice = sub.add_parser("dice", help="the dice data").add_subparsers(dest="dice_command", required=True)
    p = add_own_command(dice, "show", f"{prog} dice", _dice_show, (ConfigError,),
                        help="print the dice faces (default: config/lastonealive/dice.yaml)")
    p.add_argument("file", nargs="?")


def _dice_show(args: argparse.Namespace) -> None:
    faces, counts = load_dice(args.file)
    print("Last One Alive dice (a reconstruction: check them against your own dice, see the file's header)")
    for t in TYPES:
        fs = faces[t]
        n = len(fs)
        print(f"  {t:<9} ×{counts[t]:<2} {', '.join(fs)}")
        parts = [f"{f} {fs.count(f)}/{n}" for f in dict.fromkeys(fs)]
        sym = sum(SYMBOLS.get(f, 0) for f in fs) / n
        bang = sum(BANGS.get(f, 0) for f in fs) / n
        extra = []
        if sym:
            extra.append(f"{sym:.2f} zombie/ambush symbols a roll")
        if bang:
            extra.append(f"{bang:.2f} bangs a roll before \"+\" re-rolls")
        print(f"            {'; '.join(parts)}" + (f" — {', '.join(extra)}" if extra else ""))


if __name__ == "__main__":
    sys.exit(main())
