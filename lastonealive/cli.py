"""The `lastonealive` command: play, history, replay, export, import, scenario, dice show, simulate."""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from bitbox.console import BotsError, add_logging_options, add_version, bots_help, command_bots, logging_from, \
    run_main
from bitbox.table.options import journal_arg, size_arg, speed_arg

from .content import ConfigError, load_dice
from .rules import BANGS, SYMBOLS, TYPES


def _cmd_scenario(args: argparse.Namespace) -> int:
    from .scenario import main as run
    return run(args.files)


def _cmd_dice_show(args: argparse.Namespace) -> int:
    try:
        faces, counts = load_dice(args.file)
    except ConfigError as exc:
        print(f"lastonealive dice show: {exc}", file=sys.stderr)
        return 2
    print("Last One Alive dice (a reconstruction: check them against your own dice, see the file's header)")
    for t in TYPES:
        fs = faces[t]
        n = len(fs)
        print(f"  {t:<9} ×{counts[t]:<2} {', '.join(fs)}")
        parts = []
        for f in dict.fromkeys(fs):
            parts.append(f"{f} {fs.count(f)}/{n}")
        sym = sum(SYMBOLS.get(f, 0) for f in fs) / n
        bang = sum(BANGS.get(f, 0) for f in fs) / n
        extra = []
        if sym:
            extra.append(f"{sym:.2f} zombie/ambush symbols a roll")
        if bang:
            extra.append(f"{bang:.2f} bangs a roll before \"+\" re-rolls")
        print(f"            {'; '.join(parts)}" + (f" — {', '.join(extra)}" if extra else ""))
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from .rules.game import MAX_PLAYERS
    from .strategy import BOT_NAMES
    from .table import PlayOptions, play
    try:
        spec = command_bots(args.bots, args.bot, BOT_NAMES, most=MAX_PLAYERS)
    except BotsError as exc:
        print(f"lastonealive play: {exc}", file=sys.stderr)
        return 2
    return play(PlayOptions(
        players=args.players, bots=spec.count if spec is not None else None,
        bot=",".join(spec.names) if spec is not None and spec.names else "careful", keyboard=args.keyboard, seed=args.seed, lang=args.lang,
        headless=args.headless, snapshots=args.snapshots, journal=args.journal, resume=args.resume, speed=args.speed,
        variant=args.variant or (), tokens=args.tokens, controllers=args.controller or [],
        fullscreen=args.fullscreen, size=args.size, max_seconds=args.max_seconds))


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
    parser = argparse.ArgumentParser(prog="lastonealive", description="Last One Alive on the 8Bitbox bridge")
    add_version(parser)
    sub = parser.add_subparsers(dest="command", required=True)
    from .strategy import BOT_NAMES
    from .table import VARIANT_CHOICES
    from .rules.game import MAX_PLAYERS, MIN_PLAYERS
    from .words import LANGUAGES
    p = sub.add_parser("play", help="play at the table (a bot demo when no controller is found)",
                       description="Play Last One Alive with the controllers found; with none, a demo on simulated "
                                   "controllers driven by bots. See docs/last-one-alive.md.")
    p.add_argument("--players", type=int, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
                   metavar=f"{MIN_PLAYERS}..{MAX_PLAYERS}", help="number of players (default: the controllers found, or 4)")
    p.add_argument("--bots", metavar="N|NAMES|N:NAMES",
                   help=bots_help(BOT_NAMES, "careful; as many as the seats without controllers, or 4 for a demo"))
    p.add_argument("--bot", help=argparse.SUPPRESS)             # deprecated: --bots NAME
    p.add_argument("--keyboard", action="store_true", help="keyboard hot-seat players instead of controllers")
    p.add_argument("--seed", type=int, help="the game's seed, for a reproducible game (default: a secret one)")
    p.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the screen and the printed events")
    p.add_argument("--variant", action="append", choices=VARIANT_CHOICES,
                   help="a variant (repeatable): survivors, day_night, zombies_everywhere")
    p.add_argument("--tokens", choices=("physical", "virtual"), default="virtual",
                   help="tokens drawn by the bridge (virtual) or from a real bag, entered with the left wheel (physical)")
    p.add_argument("--controller", action="append", metavar="URL", help="a controller to open (device path or URL)")
    p.add_argument("--headless", action="store_true", help="no window: a PNG per turn and the events printed")
    p.add_argument("--snapshots", metavar="DIR", help="where to write the PNGs: a folder of its own per game under DIR "
                        "(headless default: ./snapshots)")
    p.add_argument("--journal", metavar="PATH", type=journal_arg,
                   help="the journal file (default: journal.sqlite in the user's data folder: ~/.local/share/8bitbox/ "
                        "on Linux)")
    p.add_argument("--resume", action="store_true", help="continue the last unfinished Last One Alive game")
    p.add_argument("--speed", type=speed_arg, help="speed of the show (1 = table speed; 0 = no waiting)")
    p.add_argument("--fullscreen", action="store_true", help="start full screen (F11 toggles)")
    p.add_argument("--size", type=size_arg, metavar="WxH", help="window (or headless frame) size, e.g. 1920x1080")
    p.add_argument("--max-seconds", type=float, help=argparse.SUPPRESS)
    add_logging_options(p)
    p.set_defaults(func=_cmd_play)
    from bitbox.table.gamefile import add_journal_commands
    add_journal_commands(sub, "lastonealive", _cmd_history, _cmd_export, _cmd_import)

    p = sub.add_parser("replay", help="step through a game of the journal, turn by turn")
    from bitbox.table.gamefile import game_id_arg
    p.add_argument("game", type=game_id_arg, nargs="?",
                   help="its id (see `lastonealive history`; default: the last finished)")
    p.add_argument("--journal", metavar="PATH", type=journal_arg)
    p.add_argument("--lang", choices=LANGUAGES)
    p.add_argument("--headless", action="store_true", help="print the turns (and write PNGs with --snapshots)")
    p.add_argument("--snapshots", metavar="DIR", help="write a PNG per turn into a folder of its own under DIR")
    add_logging_options(p)
    p.set_defaults(func=_cmd_replay)
    p = sub.add_parser("scenario", help="run rule scenarios (docs/last-one-alive-scenarios.md)",
                       description="Run each scenario file; one JSON line per file; exit 0 if all met their "
                                   "expect, 1 if any did not, 2 if a file is not a valid scenario.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(func=_cmd_scenario)
    dice = sub.add_parser("dice", help="the dice data").add_subparsers(dest="dice_command", required=True)
    p = dice.add_parser("show", help="print the dice faces (default: config/lastonealive/dice.yaml)")
    p.add_argument("file", nargs="?")
    p.set_defaults(func=_cmd_dice_show)
    from .sim.cli import add_parser as add_simulate
    add_simulate(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run_main(lambda: _main(argv))


def _main(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    problem = logging_from(args, f"lastonealive {args.command}")
    if problem is not None:
        return problem
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
