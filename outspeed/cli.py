"""The `outspeed` command: play, history, replay, export, import, scenario, simulate, tiles."""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from bitbox.colours import SEAT_COLOURS
from bitbox.console import BotsError, add_version, bots_help, command_bots, logging_from, \
    run_main

from .content import ConfigError, load_content, load_tiles
from .rules import FACES, PATHS
from .rules.game import MAX_PLAYERS, MIN_PLAYERS

COLOURS = SEAT_COLOURS

from bitbox.console import OneLineParser as _Parser  # noqa: E402 (the console's: one-line usage errors)


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
    from .rules.tiles import PATH_NAMES, PATH_SYMBOL
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
            print(f"  {light} {PATH_NAMES[key]:<6} " + (path.describe() if path else "(light off)"))
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from bitbox.bots.search import SEARCH

    from .bots import BOTS, MIXED
    from .table import PlayOptions, play
    size = args.size                    # checked by size_arg
    try:
        spec = command_bots(args.bots, args.bot, tuple(BOTS), MIXED, most=MAX_PLAYERS, extra=(SEARCH,))
    except BotsError as exc:
        print(f"outspeed play: {exc}", file=sys.stderr)
        return 2
    return play(PlayOptions(
        players=args.players, seed=args.seed, first_game=args.first_game, lang=args.lang,
        bots=spec.count if spec is not None else None,
        keyboard=args.keyboard, headless=args.headless, snapshots=args.snapshots, journal=args.journal,
        keep_snapshots=args.keep_snapshots,
        resume=args.resume, speed=args.speed, fullscreen=True if args.fullscreen else None, tokens=args.tokens,
        controllers=args.controller or [], bot=",".join(spec.names) if spec is not None and spec.names else None,
        size=size, table_config=args.table_config,
        max_seconds=args.max_seconds, mute=args.mute, lobby=args.lobby, names=args.names, then_home=args.then_home,
        think=args.think, rollouts=args.rollouts))


def build_parser() -> argparse.ArgumentParser:
    from bitbox.bots.search import SEARCH
    from bitbox.table.command import add_play_arguments, add_search_arguments, add_table_commands

    from .table import table_kit
    parser = _Parser(prog="outspeed", description="Outspeed on the 8Bitbox bridge")
    add_version(parser)
    sub = parser.add_subparsers(dest="command", required=True)
    from .bots import BOTS

    p = sub.add_parser("play", help="play a game at the table (a bot demo when no controller is found)",
                       description="Play Outspeed with the controllers found (or configured); with none, a demo "
                                   "on simulated controllers driven by bots. See docs/table.md.")
    add_play_arguments(p, title="Outspeed", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
                       bots=bots_help((*BOTS, SEARCH), "config/table.yaml `bot:`, mixed; as many as the seats "
                                                   "without controllers, or 4 for a demo"),
                       lang_help="language of the screen (default: config/table.yaml)")
    p.add_argument("--first-game", action="store_true", help="tiles 1-13 in order")
    p.add_argument("--tokens", choices=("physical", "virtual"), help="bonus tokens held on the table or by the bridge")
    p.add_argument("--table-config", metavar="PATH", help="another table.yaml")
    add_search_arguments(p)
    p.set_defaults(func=_cmd_play)
    add_table_commands(sub, "outspeed", lambda args: table_kit(getattr(args, "table_config", None)))

    p = sub.add_parser("scenario", help="run rule scenarios (format: docs/scenarios.md)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(func=_cmd_scenario)

    from .sim.cli import add_parser as add_simulate_parser
    add_simulate_parser(sub)

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
    return run_main(lambda: _main(argv))


def _main(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    problem = logging_from(args, f"outspeed {args.command}")
    if problem is not None:
        return problem
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
