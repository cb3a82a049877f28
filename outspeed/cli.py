"""The `outspeed` command: play, history, replay, export, import, scenario, simulate, tiles."""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from bitbox.colours import SEAT_COLOURS
from bitbox.console import BotsError, add_logging_options, add_version, bots_help, command_bots, logging_from, \
    run_main
from bitbox.table.options import journal_arg, size_arg, speed_arg

from .content import ConfigError, load_content, load_tiles
from .rules import FACES, PATHS
from .rules.game import MAX_PLAYERS, MIN_PLAYERS

COLOURS = SEAT_COLOURS

#: Bounds of the numbers given on the command line. Seeds and game ids are stored as SQLite
#: integers (signed 64-bit); a window or headless frame is at most 8K UHD.
MAX_SEED = 2**63 - 1
MAX_GAME_ID = 2**63 - 1


from bitbox.console import OneLineParser as _Parser  # noqa: E402 (the console's: one-line usage errors)


def _bounded_int(lo: int, hi: int, what: str):
    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, a whole number, not {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"expected {what} from {lo} to {hi}, not {text}")
        return value
    parse.__name__ = what       # argparse names the type in some messages
    return parse


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
    from .bots import BOTS, MIXED
    from .table import PlayOptions, play
    size = args.size                    # checked by size_arg
    try:
        spec = command_bots(args.bots, args.bot, tuple(BOTS), MIXED, most=MAX_PLAYERS)
    except BotsError as exc:
        print(f"outspeed play: {exc}", file=sys.stderr)
        return 2
    return play(PlayOptions(
        players=args.players, seed=args.seed, first_game=args.first_game, lang=args.lang,
        bots=spec.count if spec is not None else None,
        keyboard=args.keyboard, headless=args.headless, snapshots=args.snapshots, journal=args.journal,
        resume=args.resume, speed=args.speed, fullscreen=True if args.fullscreen else None, tokens=args.tokens,
        controllers=args.controller or [], bot=",".join(spec.names) if spec is not None and spec.names else None,
        size=size, table_config=args.table_config,
        max_seconds=args.max_seconds, mute=args.mute, lobby=args.lobby))


def _cmd_history(args: argparse.Namespace) -> int:
    from .table import history
    return history(args.journal, as_json=args.json)


def _cmd_export(args: argparse.Namespace) -> int:
    from .table import export_game
    return export_game(args.game, args.file, args.journal, include_secrets=args.include_secrets)


def _cmd_import(args: argparse.Namespace) -> int:
    from .table import import_game
    return import_game(args.file, args.journal)


def _cmd_replay(args: argparse.Namespace) -> int:
    from .table import replay_game
    return replay_game(args.game, args.journal, lang=args.lang, headless=args.headless, snapshots=args.snapshots)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="outspeed", description="Outspeed on the 8Bitbox bridge")
    add_version(parser)
    sub = parser.add_subparsers(dest="command", required=True)
    from .bots import BOTS

    from .words import LANGUAGES
    p = sub.add_parser("play", help="play a game at the table (a bot demo when no controller is found)",
                       description="Play Outspeed with the controllers found (or configured); with none, a demo "
                                   "on simulated controllers driven by bots. See docs/table.md.")
    p.add_argument("--players", type=int, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
                   metavar=f"{MIN_PLAYERS}..{MAX_PLAYERS}",
                   help="number of players (default: the controllers found, or 4 for a demo)")
    p.add_argument("--bots", metavar="N|NAMES|N:NAMES",
                   help=bots_help(tuple(BOTS), "config/table.yaml `bot:`, mixed; as many as the seats "
                                               "without controllers, or 4 for a demo"))
    p.add_argument("--bot", help=argparse.SUPPRESS)             # deprecated: --bots NAME
    p.add_argument("--keyboard", action="store_true", help="keyboard hot-seat players instead of controllers")
    p.add_argument("--seed", type=_bounded_int(0, MAX_SEED, "a seed"),
                   help="the game's seed, for a reproducible game (default: a secret 128-bit one from the OS, "
                        "shown by history once the game is over)")
    p.add_argument("--first-game", action="store_true", help="tiles 1-13 in order")
    p.add_argument("--lang", choices=LANGUAGES, help="language of the screen (default: config/table.yaml)")
    p.add_argument("--tokens", choices=("physical", "virtual"), help="bonus tokens held on the table or by the bridge")
    p.add_argument("--controller", action="append", metavar="URL",
                   help="a controller to open besides the discovered ones (a device path or pyserial URL); repeatable")
    p.add_argument("--headless", action="store_true", help="no window: PNG snapshots per turn and printed events")
    p.add_argument("--snapshots", metavar="DIR", help="where to write the PNGs: a folder of its own per game under DIR (headless default: ./snapshots)")
    p.add_argument("--journal", metavar="PATH", type=journal_arg,
                   help="the journal file (default: journal.sqlite in the user's data folder: ~/.local/share/8bitbox/ "
                        "on Linux)")
    p.add_argument("--resume", action="store_true", help="continue the last unfinished game of the journal")
    p.add_argument("--speed", type=speed_arg, help="speed of the show (1 = table speed; 0 = no waiting)")
    p.add_argument("--fullscreen", action="store_true", help="start full screen (F11 toggles)")
    p.add_argument("--size", metavar="WxH", type=size_arg,
                   help="window (or headless frame) size, e.g. 1920x1080 (a window is at least 1024x576)")
    p.add_argument("--mute", action="store_true", help="no sound (default: config/table.yaml `sound:`)")
    p.add_argument("--lobby", choices=("auto", "always", "never"), default="auto",
                   help="the lobby screen before the game: auto (when there are controllers to seat and a "
                        "window), always, never")
    p.add_argument("--table-config", metavar="PATH", help="another table.yaml")
    p.add_argument("--max-seconds", type=float, help=argparse.SUPPRESS)
    add_logging_options(p)
    p.set_defaults(func=_cmd_play)

    from bitbox.table.gamefile import add_journal_commands
    add_journal_commands(sub, "outspeed", _cmd_history, _cmd_export, _cmd_import)

    p = sub.add_parser("replay", help="step through a game of the journal, turn by turn")
    from bitbox.table.gamefile import game_id_arg
    p.add_argument("game", type=game_id_arg, nargs="?",
                   help="its id (see `outspeed history`; default: the last finished)")
    p.add_argument("--journal", metavar="PATH", type=journal_arg)
    p.add_argument("--lang", choices=LANGUAGES)
    p.add_argument("--headless", action="store_true", help="print the turns (and write PNGs with --snapshots)")
    p.add_argument("--snapshots", metavar="DIR", help="write a PNG per turn into a folder of its own under DIR")
    add_logging_options(p)
    p.set_defaults(func=_cmd_replay)

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
