"""The `outspeed` command: play, scenario, tiles."""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from .content import ConfigError, load_content, load_tiles
from .rules import FACES, PATHS

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")


def _cmd_scenario(args: argparse.Namespace) -> int:
    from .scenario import main as run
    return run(args.files)


def _cmd_tiles_check(args: argparse.Namespace) -> int:
    try:
        tiles = load_tiles(args.file) if args.file else load_content().tiles
    except ConfigError as exc:
        print(f"outspeed tiles check: {exc}", file=sys.stderr)
        return 2
    print(f"ok: {len(tiles)} tiles, {sum(len(t.faces) for t in tiles)} faces")
    return 0


def _cmd_tiles_show(args: argparse.Namespace) -> int:
    from .rules.tiles import PATH_SYMBOL
    try:
        tiles = load_tiles(args.file) if args.file else load_content().tiles
    except ConfigError as exc:
        print(f"outspeed tiles show: {exc}", file=sys.stderr)
        return 2
    match = [t for t in tiles if t.number == args.number]
    if not match:
        print(f"outspeed tiles show: no tile {args.number} (tiles: 1-16)", file=sys.stderr)
        return 2
    tile = match[0]
    faces = [args.face] if args.face else list(FACES)
    for face in faces:
        print(f"{tile.label()} — face {face}")
        paths = tile.faces.get(face, {})
        for key in PATHS:
            path = paths.get(key)
            light = PATH_SYMBOL[key] if path else "○"
            print(f"  {light} {key:<6} " + (path.describe() if path else "(light off)"))
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from .bots import RandomBot, play_game
    from .rules import Game
    try:
        content = load_content()
    except ConfigError as exc:
        print(f"outspeed play: {exc}", file=sys.stderr)
        return 2
    players = COLOURS[: args.players]
    game = Game.new(players, content.tiles, seed=args.seed, first_game=args.first_game,
                    dice=content.dice, token_counts=content.token_counts, markers=content.markers)
    bots = {p: RandomBot(seed=args.seed * 10 + i) for i, p in enumerate(players)}
    print(f"Outspeed: {', '.join(players)} (random bots), seed {args.seed}")
    play_game(game, bots, lambda events: [print(" ", e.text()) for e in events])
    winners = game.state.winners
    print("Winner: " + (" and ".join(winners) if winners else "nobody"))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="outspeed", description="Outspeed on the 8Bitbox bridge")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("play", help="play a game")
    p.add_argument("--players", type=int, default=4, choices=range(3, 7), metavar="3..6")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--first-game", action="store_true", help="tiles 1-13 in order")
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("scenario", help="run rule scenarios (SCENARIOS.md)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(func=_cmd_scenario)

    tiles = sub.add_parser("tiles", help="check or show tile data").add_subparsers(dest="tiles_command", required=True)
    p = tiles.add_parser("check", help="validate a tile file (default: config/tiles.yaml)")
    p.add_argument("file", nargs="?")
    p.set_defaults(func=_cmd_tiles_check)
    p = tiles.add_parser("show", help="print a tile readably")
    p.add_argument("number", type=int)
    p.add_argument("--face", choices=FACES)
    p.add_argument("--file")
    p.set_defaults(func=_cmd_tiles_show)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
