"""The `outspeed` command: the console's table command for Outspeed
(:mod:`bitbox.table.command`: play, history, replay, export, import, simulate, scenario), with
Outspeed's own commands, ``tiles check`` and ``tiles show``, which the cartridge adds
(:meth:`outspeed.cartridge.OutspeedCartridge.add_commands`)."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from bitbox.table.command import CommandError, add_own_command, game_main

from .content import ConfigError, load_content, load_tiles
from .rules import FACES, PATHS

main = game_main("outspeed", "outspeed.cartridge:CARTRIDGE")   # its entry point (no scan of every package's)


def add_commands(sub: Any, prog: str) -> None:
    """``tiles check [FILE]`` and ``tiles show N [--face F] [--file FILE]``."""
    tiles = sub.add_parser("tiles", help="check or show tile data").add_subparsers(dest="tiles_command", required=True)
    p = add_own_command(tiles, "check", f"{prog} tiles", _tiles_check, (ConfigError,),
                        help="validate a tile file (default: config/tiles.yaml)")
    p.add_argument("file", nargs="?")
    p = add_own_command(tiles, "show", f"{prog} tiles", _tiles_show, (ConfigError,), help="print a tile readably")
    p.add_argument("number", type=int)
    p.add_argument("--face", choices=FACES)
    p.add_argument("--file")


def _tiles(args: argparse.Namespace) -> Any:
    return load_tiles(args.file) if args.file else load_content().tiles


def _tiles_check(args: argparse.Namespace) -> None:
    tiles = _tiles(args)
    print(f"ok: {len(tiles)} tiles, {sum(len(t.faces) for t in tiles)} faces")


def _tiles_show(args: argparse.Namespace) -> None:
    from .rules.tiles import PATH_NAMES, PATH_SYMBOL
    match = [t for t in _tiles(args) if t.number == args.number]
    if not match:
        raise CommandError(f"no tile {args.number} (tiles: 1-16)")
    tile = match[0]
    for face in [args.face] if args.face else list(FACES):
        print(f"{tile.label()} — face {face}")
        paths = tile.faces.get(face, {})
        for key in PATHS:
            path = paths.get(key)
            light = PATH_SYMBOL[key] if path else "○"
            print(f"  {light} {PATH_NAMES[key]:<6} " + (path.describe() if path else "(light off)"))


if __name__ == "__main__":
    sys.exit(main())
