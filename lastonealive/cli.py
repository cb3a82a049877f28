"""The `lastonealive` command: play, history, replay, export, import, scenario, dice show, simulate."""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from bitbox.console import BotsError, add_version, bots_help, command_bots, logging_from, \
    run_main

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
    from bitbox.bots import seat_names

    from .cartridge import CARTRIDGE
    from .rules.game import MAX_PLAYERS
    from .table import PlayOptions, play
    try:
        spec = command_bots(args.bots, args.bot, tuple(seat_names(CARTRIDGE)), most=MAX_PLAYERS)
    except BotsError as exc:
        print(f"lastonealive play: {exc}", file=sys.stderr)
        return 2
    return play(PlayOptions(
        players=args.players, bots=spec.count if spec is not None else None,
        bot=",".join(spec.names) if spec is not None and spec.names else None, keyboard=args.keyboard, seed=args.seed, lang=args.lang,
        headless=args.headless, snapshots=args.snapshots, journal=args.journal, resume=args.resume, speed=args.speed,
        variant=args.variant or (), keep_snapshots=args.keep_snapshots, tokens=args.tokens, first_zombie=args.first_zombie, controllers=args.controller or [],
        fullscreen=bool(args.fullscreen), size=args.size, max_seconds=args.max_seconds, mute=args.mute,
        lobby=args.lobby, names=args.names, then_home=args.then_home, think=args.think, rollouts=args.rollouts))


def build_parser() -> argparse.ArgumentParser:
    from bitbox.console import OneLineParser
    from bitbox.table.command import add_play_arguments, add_search_arguments, add_table_commands

    from .table import table_kit
    parser = OneLineParser(prog="lastonealive", description="Last One Alive on the 8Bitbox bridge")
    add_version(parser)
    sub = parser.add_subparsers(dest="command", required=True)
    from .strategy import BOT_NAMES
    from .table import VARIANT_CHOICES
    from .rules.game import MAX_PLAYERS, MIN_PLAYERS
    p = sub.add_parser("play", help="play at the table (a bot demo when no controller is found)",
                       description="Play Last One Alive with the controllers found; with none, a demo on simulated "
                                   "controllers driven by bots. See docs/last-one-alive.md.")
    add_play_arguments(p, title="Last One Alive", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
                       bots=bots_help((*BOT_NAMES, "search"), "careful and random in turn; as many as the seats without controllers, "
                                                 "or 4 for a demo (3 with survivors)"),
                       lang_help="language of the screen and the printed events (default en)")
    add_search_arguments(p)
    p.add_argument("--variant", action="append", choices=VARIANT_CHOICES,
                   help="a variant (repeatable): survivors (2 or 3 players), day_night, zombies_everywhere, "
                        "zombified_rolls (eliminated players roll a zombie die on their turn)")
    p.add_argument("--first-zombie", choices=("each", "first"), default="each",
                   help="the starting 1-zombie die for each player (default) or the first only (L-4)")
    p.add_argument("--tokens", choices=("physical", "virtual"), default="virtual",
                   help="tokens drawn by the bridge (virtual) or from a real bag, entered with the left wheel (physical)")
    p.set_defaults(func=_cmd_play)
    add_table_commands(sub, "lastonealive", lambda args: table_kit())
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
