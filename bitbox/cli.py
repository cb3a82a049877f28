"""The ``bitbox`` command: tools for the people who build and test controllers.

    bitbox ports                 candidate devices and whether each answered the handshake
    bitbox monitor PORT          print every message a controller sends (--json, --count, --seconds)
    bitbox emulate -n N          N emulated controllers on pseudo-terminals
    bitbox udev-rules            the Linux udev rules for our USB ids
    bitbox identify PORT|ID      blink one controller (by its port or its id)
    bitbox test-controllers      the controller test screen: live wheels, lock, bad frames, lights test
    bitbox diagnose              one file for a bug report: versions, ports kept or skipped, hellos, counters
    bitbox audit                 each controller's counters kept in the journal: games, locks, refusals, ...
    bitbox flash PORT            install the reference firmware on a MicroPython board (mpremote)
    bitbox games                 the games installed (cartridges), with their player counts
    bitbox games --check NAME    the conformance checks every game must pass, on NAME
    bitbox simulate GAME         many games of GAME played by bots: the game's own `simulate`
    bitbox analyse GAME ID       each player's chance to win at every turn of a recorded game
    bitbox calibrate GAME        how well analyse's chances match simulated games' outcomes
    bitbox standings             the named players of the journal ranked per game (openskill)
    bitbox play --game NAME ...  play a game at the table (the options are the game's own:
                                 `bitbox play --game outspeed` is `outspeed play`)

The subcommands live in ``tools/`` (installed as ``bitbox_tools``); docs/devices.md has the
details and examples, and the exit codes (one per kind of failure, :mod:`bitbox.exitcodes`).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any


def _parser() -> argparse.ArgumentParser:
    from bitbox_tools import emulate, monitor, ports

    from .simulation.cli import add_options as add_simulate_options
    from .simulation.cli import add_search_options

    from .analysis import add_analyse_arguments

    from .console import OneLineParser, add_logging_options, add_version, wait_arg
    parser = OneLineParser(prog="bitbox", description="8Bitbox controllers: list, sniff, emulate.")
    add_version(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module, text in (("ports", ports, "list candidate devices and probe them"),
                               ("monitor", monitor, "print every message from a controller"),
                               ("emulate", emulate, "run emulated controllers on pseudo-terminals")):
        p = sub.add_parser(name, help=text, description=(module.__doc__ or "").split("\n\n")[0])
        module.build_parser(p)
        p.set_defaults(run=module.run)
    p = sub.add_parser("udev-rules", help="print the udev rules file for our USB ids",
                       description="Print the udev rules that let a normal user open the controllers.")
    p.add_argument("--config", metavar="FILE", help="controllers config (default config/controllers.yaml)")
    p.set_defaults(run=_udev_rules)
    p = sub.add_parser("games", help="list the games installed (cartridges)",
                       description="List the games the console finds (entry points of the group bitbox.games): "
                                   "name, title, player counts and options.")
    p.add_argument("--json", action="store_true", help="one JSON object per game instead of a table")
    p.add_argument("--check", metavar="NAME", help="run the conformance checks on the game NAME instead "
                   "(exit 0 if it passes them all, 1 if not)")
    p.set_defaults(run=_games)
    p = sub.add_parser("simulate", help="play many games of a cartridge with bots",
                       description="Play N games of GAME with bots (any installed cartridge) and report win rates "
                                   "by seat and by bot, with the game's own statistics when it has them: the same "
                                   "command as the game's own `simulate` (its options too: see `bitbox simulate GAME "
                                   "--help`). The same --seed gives the same report whatever --workers.")
    p.add_argument("game", help="the game's name (see `bitbox games`)")
    p.add_argument("--players", type=int, metavar="P",
                   help="players per game (default: the game's own, else its fewest)")
    p.add_argument("--bots", metavar="N|NAMES|N:NAMES",
                   help="bots: a number (2), the bots' names cycled over the seats (mixed, the game's bots, "
                        "see `bitbox games`, or search), or both (2:random); every seat is a bot, so N is the number of "
                        "players (default random)")
    p.add_argument("--fixed-seats", action="store_true", help="do not rotate the bots over the seats")
    add_search_options(p)
    add_simulate_options(p, games=100)
    add_logging_options(p, quiet=False)
    p = sub.add_parser("analyse", help="each player's chance to win at every turn of a recorded game",
                       description="Estimate each player's chance to win at the start of every turn of game ID of "
                                   "GAME in the journal, from the public information (redeals and rollouts), with "
                                   "95 % intervals; write analysis.json and win-chance.png. See docs/analysis.md.")
    p.add_argument("game", help="the game's name (see `bitbox games`)")
    add_analyse_arguments(p)
    add_logging_options(p)
    p.set_defaults(run=_analyse)
    p = sub.add_parser("calibrate", help="how well analyse's chances match the outcomes of simulated games",
                       description="Play GAMES games of GAME with its rollout bots, estimate every player's chance "
                                   "at a few moments of each as analyse does, and compare with the outcomes: a "
                                   "reliability table and Brier scores. See docs/analysis.md.")
    p.add_argument("game", help="the game's name (see `bitbox games`)")
    p.add_argument("--games", type=int, default=20, metavar="N", help="games to play (default 20)")
    p.add_argument("--players", type=int, metavar="P", help="players per game (default: the game's fewest)")
    p.add_argument("--rollouts", type=int, default=100, metavar="N", help="rollouts a prediction (default 100)")
    p.add_argument("--points", type=int, default=8, metavar="K", help="predictions per game (default 8)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="run seed (default 0)")
    p.add_argument("--json", action="store_true", help="the figures as one JSON document")
    add_logging_options(p)
    p.set_defaults(run=_calibrate)
    p = sub.add_parser("standings", help="the named players of the journal ranked per game (openskill ratings)",
                       description="Rank the named players of every game in the journal (or of --game G) with "
                                   "openskill ratings, with games played, wins and each rating's interval; bots "
                                   "apart, unnamed seats counted but not listed. See docs/analysis.md.")
    p.add_argument("--game", metavar="G", help="only this game (see `bitbox games`)")
    p.add_argument("--json", action="store_true", help="the standings as one JSON document")
    p.add_argument("--journal", metavar="PATH", help="the journal (default: the table's)")
    add_logging_options(p)
    p.set_defaults(run=_standings)
    p = sub.add_parser("identify", help="blink one controller (by port or id)",
                       description="Make one controller blink: give its port (/dev/ttyACM0, socket://host:7000) "
                                   "or its id (16 hex digits from `bitbox ports`, or their first or last 4+).")
    p.add_argument("target", metavar="PORT|ID")
    p.add_argument("--ms", type=int, default=3000, help="how long it blinks, in milliseconds (default 3000)")
    p.add_argument("--wait", type=wait_arg, default=4.0, help="seconds to wait for it to answer (default 4, "
                   "at most 600)")
    p.add_argument("--controller", action="append", metavar="PORT|ID", default=[],
                   help="also look on this port (besides the discovered ones) when ID is an id; repeatable")
    p.set_defaults(run=_identify)
    p = sub.add_parser("test-controllers", help="the controller test screen (service mode)",
                       description="Every controller found, live: wheel positions (and, with --game, what they "
                                   "mean), the stops each wheel has reached, lock, firmware and protocol, age of "
                                   "the last frame, frames, bad frames and their rate; L runs the lights test "
                                   "(each light in turn), I blinks them all, Esc leaves (the lights are put back). "
                                   "Without a display, prints one line per controller after --seconds. No "
                                   "controller: one line, exit code 3.")
    p.add_argument("--controller", action="append", metavar="PORT|ID", default=[],
                   help="a controller to open besides the discovered ones: its port, or its id (16 hex digits, "
                        "or their first or last 4+) among the discovered ports; repeatable")
    p.add_argument("--wait", type=wait_arg, default=2.0,
                   help="seconds to wait for a first controller before saying there is none (default 2, at most 600)")
    p.add_argument("--seconds", type=float, help="stop after this long (default: at Esc; headless: 3)")
    p.add_argument("--lights", action="store_true", help="start with the lights test running")
    p.add_argument("--game", metavar="NAME", help="show what each wheel's position means in this game "
                   "(its map in config/wheels.yaml)")
    p.add_argument("--snapshot", metavar="FILE.png", help="save the last frame as a PNG")
    p.set_defaults(run=_test_controllers)
    from . import diagnose
    p = sub.add_parser("diagnose", help="write one file for a bug report",
                       description=(diagnose.__doc__ or "").split("\n\n")[0])
    diagnose.build_parser(p)
    p.set_defaults(run=diagnose.run)
    from .table import audit
    p = sub.add_parser("audit", help="each controller's counters kept in the journal",
                       description=(audit.__doc__ or "").split("\n\n")[0])
    audit.build_parser(p)
    p.set_defaults(run=audit.run)
    from . import flash
    p = sub.add_parser("flash", help="install the reference firmware on a MicroPython board",
                       description=(flash.__doc__ or "").split("\n\n")[0])
    flash.build_parser(p)
    p.set_defaults(run=flash.run)
    sub.add_parser("game", help="any installed game's table command: bitbox game NAME COMMAND [options]",
                   description="The table command of any installed game: play, history, replay, export, import, "
                               "simulate, scenario; see `bitbox game NAME --help`.")
    sub.add_parser("play", help="play a game at the table: bitbox play --game NAME [its options]",
                   description="Play a game at the table; see `bitbox play --game NAME --help`.")
    return parser


def simulate(argv: Sequence[str]) -> int:
    """``bitbox simulate NAME [options]``: the game's own ``simulate`` (the same parser and run
    as ``NAME simulate``: :mod:`bitbox.simulation.command`), its lines named ``bitbox simulate``."""
    argv = list(argv)
    if argv and not argv[0].startswith("-"):
        name, rest = argv[0], argv[1:]
    else:                                   # options first (`--games 3 outspeed`), or --help
        args, _ = _parser().parse_known_args(["simulate", *argv])
        name = args.game
        rest = argv[:]
        del rest[len(rest) - 1 - rest[::-1].index(name)]
    cartridge = _find(name, "bitbox simulate")
    if cartridge is None:
        return 2
    from .table.command import run
    return run(cartridge, ["simulate", *rest], "bitbox")


def _find(name: str, prog: str) -> Any:
    """The installed cartridge ``name``, or None once ``prog``'s one line says why not."""
    from .games import GameError, find
    try:
        return find(name)
    except GameError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return None


def _analyse(args: argparse.Namespace) -> int:
    from .analysis import analyse_command
    from .table.command import guarded
    cartridge = _find(args.game, "bitbox analyse")
    if cartridge is None:
        return 2
    return guarded(cartridge, "bitbox analyse", lambda: analyse_command("bitbox analyse", cartridge, args))


def _calibrate(args: argparse.Namespace) -> int:
    import json

    from .analysis import MAX_ROLLOUTS, calibrate
    from .games import GameError, check_players, find
    from .games.conformance import player_names
    try:
        cartridge = find(args.game)
        players = cartridge.min_players if args.players is None else args.players
        lo, hi = cartridge.min_players, cartridge.max_players
        if not lo <= players <= hi:              # before a name is made per player (10**23: for ever)
            raise GameError(f"{cartridge.title} is for {lo} to {hi} players, not {players}")
        check_players(cartridge, player_names(cartridge, players))
    except (GameError, ValueError) as exc:
        print(f"bitbox calibrate: {exc}", file=sys.stderr)
        return 2
    for name in ("games", "rollouts", "points"):
        if getattr(args, name) < 1:
            print(f"bitbox calibrate: --{name} must be 1 or more, not {getattr(args, name)}", file=sys.stderr)
            return 2
    if args.rollouts > MAX_ROLLOUTS:
        print(f"bitbox calibrate: --rollouts must be 1 to {MAX_ROLLOUTS}, not {args.rollouts}", file=sys.stderr)
        return 2
    from .simulation.cli import MAX_GAMES
    if args.games > MAX_GAMES:                  # simulate's bound (10**23 games ran for ever)
        print(f"bitbox calibrate: --games must be at most {MAX_GAMES:,}, not {args.games}", file=sys.stderr)
        return 2
    from .table.command import guarded

    def run() -> int:
        result = calibrate(cartridge, args.games, players, args.rollouts, args.points, args.seed,
                           progress=None if args.quiet else sys.stderr)
        print(json.dumps(result.to_data(), indent=1) if args.json else result.report())
        return 0
    return guarded(cartridge, "bitbox calibrate", run)          # a game that breaks: one line naming it


def _standings(args: argparse.Namespace) -> int:
    from .standings import standings_command
    return standings_command("bitbox standings", args.journal, args.game, args.json)


def _identify(args: argparse.Namespace) -> int:
    from .table.service import identify
    from . import exitcodes
    if not 0 < args.ms <= 0xFFFF:
        print(f"bitbox identify: --ms expects 1 to 65535, not {args.ms}", file=sys.stderr)
        return exitcodes.USAGE
    return identify(args.target, ms=args.ms, wait=args.wait, urls=args.controller)


def _test_controllers(args: argparse.Namespace) -> int:
    import math

    import time

    from . import exitcodes
    from .events import Connected
    from .hub import Hub
    from .table.app import display_available, init_pygame
    from .table.service import open_controllers, run_test_screen, unanswered_lines
    for name in ("seconds", "wait"):
        value = getattr(args, name)
        if value is not None and not (math.isfinite(value) and value >= 0):
            print(f"bitbox test-controllers: --{name} expects a number ≥ 0, not {value}", file=sys.stderr)
            return exitcodes.USAGE
    wheel_map = None
    if args.game:
        from .config import ConfigError
        from .wheels import load_wheel_map
        try:
            wheel_map = load_wheel_map(game=args.game)
        except ConfigError as exc:
            print(f"bitbox test-controllers: --game {args.game}: {exc}", file=sys.stderr)
            return exitcodes.USAGE
    headless = not display_available()
    hub = Hub()
    try:
        problem = open_controllers(hub, args.controller, "bitbox test-controllers")
        if problem is not None:
            return problem
        try:
            hub.scan()
        except Exception as exc:  # noqa: BLE001
            print(f"(controller discovery failed: {exc})", file=sys.stderr)
        hub.start()
        deadline = time.monotonic() + args.wait
        while not any(isinstance(e, Connected) for e in hub.poll(timeout=0.05)):
            if time.monotonic() >= deadline:
                print(f"bitbox test-controllers: no controller found within {args.wait:g} s (none plugged in or "
                      f"emulated, or all held by a game; `bitbox ports` lists the devices)", file=sys.stderr)
                return exitcodes.NO_DEVICE
        pygame = init_pygame(headless)
        screen = None
        if not headless:
            screen = pygame.display.set_mode((1280, 720), pygame.RESIZABLE)
            pygame.display.set_caption("8Bitbox — controller test")
        first = [True]

        def keys() -> list[str]:
            if first[0] and args.lights:
                first[0] = False
                return ["lights"]
            return []

        seconds = args.seconds if args.seconds is not None else (3.0 if headless else None)
        run_test_screen(hub, screen, seconds=seconds, snapshot=args.snapshot, keys=keys, out=sys.stdout,
                        wheel_map=wheel_map)
        for line in unanswered_lines(hub):         # a device with no row: say why
            print(line, file=sys.stderr)
        return exitcodes.OK
    except KeyboardInterrupt:
        return exitcodes.INTERRUPTED
    finally:
        hub.close()


def _games(args: argparse.Namespace) -> int:
    import json

    from .games import GameError, find, names
    if args.check:
        return _check_game(args.check)
    status = 0
    for name in names():
        try:
            c = find(name)
        except GameError as exc:
            print(f"bitbox games: {exc}", file=sys.stderr)
            status = 2
            continue
        options = {o.name: o.default for o in c.options}
        if args.json:
            print(json.dumps({"name": c.name, "title": c.title, "min_players": c.min_players,
                              "max_players": c.max_players, "options": options}))
        else:
            text = ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items()) or "no options"
            print(f"{c.name:<14} {c.title:<20} {c.min_players}-{c.max_players} players  ({text})")
    return status


def play(argv: Sequence[str]) -> int:
    """``bitbox play [--game NAME] [the game's play options]``: the game found by name in the
    registry plays at the console's table (:mod:`bitbox.table.command`). With a screen, the home screen
    (:mod:`bitbox.table.home`) chooses what the options leave open (the game among them), then
    the game, then play again or back home. Without a screen and ``--game``, the one game
    installed (or ``--default-game``: ``./dev play`` gives outspeed; a choice to make when there
    are several)."""
    from .console import OneLineParser
    from .games import names
    parser = OneLineParser(prog="bitbox play", add_help=False,
                           description="Play a game at the table; the other options are the game's own.")
    parser.add_argument("--game", metavar="NAME", help="which game (see `bitbox games`)")
    parser.add_argument("--default-game", metavar="NAME", help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args(argv)
    name = args.game
    from . import exitcodes
    from .table.home import home_play, wanted
    if wanted(rest):
        try:
            code = home_play(name, rest, _play_one)
        except KeyboardInterrupt:           # Ctrl-C on the home screen or the after-game menu (a game's own is its own)
            print("bitbox play: interrupted", file=sys.stderr)
            return exitcodes.INTERRUPTED
        if code is not None:
            return code
    if name is None and args.default_game in names():
        name = args.default_game
    if name is None:
        installed = names()
        if len(installed) != 1:
            if "-h" in rest or "--help" in rest:
                parser.print_help()
                return 0
            print(f"bitbox play: choose a game with --game NAME (installed: {', '.join(installed) or 'none'})",
                  file=sys.stderr)
            return 2
        name = installed[0]
    return _play_one(name, rest)


def _play_one(name: str, rest: Sequence[str]) -> int:
    """One game of ``name`` at the table, with its play options ``rest``."""
    cartridge = _find(name, "bitbox play")
    if cartridge is None:
        return 2
    from .table.command import own_command
    return own_command(cartridge, list(rest))     # the console's table, as the game's own command names it


def game(argv: Sequence[str]) -> int:
    """``bitbox game NAME COMMAND ...``: the table command the console builds for any installed
    cartridge (play, history, replay, export, import, simulate, scenario; bitbox.table.command)."""
    from .games import names
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: bitbox game NAME COMMAND [options]   (COMMAND: play, history, replay, export, import, "
              f"simulate, scenario; NAME: {', '.join(names()) or 'none installed'})")
        return 0 if argv else 2
    cartridge = _find(argv[0], "bitbox game")
    if cartridge is None:
        return 2
    from .table.command import own_command
    return own_command(cartridge, list(argv[1:]), None)      # the same as the game's own command


def _check_game(name: str) -> int:
    from .games.conformance import check_all
    cartridge = _find(name, "bitbox games")
    if cartridge is None:
        return 2
    failed = 0
    for what, problem in check_all(cartridge):
        print(f"{cartridge.name}: {what}: {'ok' if problem is None else 'FAILED: ' + problem}")
        failed += problem is not None
    return 1 if failed else 0


def _udev_rules(args: argparse.Namespace) -> int:
    from .config import ConfigError
    from .controllers import load_controllers_config
    from .udev import udev_rules
    try:
        config = load_controllers_config(args.config)
    except ConfigError as exc:
        print(f"bitbox udev-rules: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(udev_rules(config.usb))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    from .console import run_main
    return run_main(lambda: _main(argv))


def _main(argv: Sequence[str] | None) -> int:
    from .console import logging_from
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["play"]:                 # the game parses its own options
        return play(argv[1:])
    if argv[:1] == ["game"]:
        return game(argv[1:])
    if argv[:1] == ["simulate"] and argv[1:] and argv[1] not in ("-h", "--help"):
        return simulate(argv[1:])          # the game's options are its own
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    problem = logging_from(args, f"bitbox {args.command}")
    if problem is not None:
        return problem
    return int(args.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
