"""The ``bitbox`` command: tools for the people who build and test controllers.

    bitbox ports                 candidate devices and whether each answered the handshake
    bitbox monitor PORT          print every message a controller sends (--json, --count, --seconds)
    bitbox emulate -n N          N emulated controllers on pseudo-terminals
    bitbox udev-rules            the Linux udev rules for our USB ids
    bitbox games                 the games installed (cartridges), with their player counts
    bitbox games --check NAME    the conformance checks every game must pass, on NAME
    bitbox simulate GAME         many games of GAME played by bots: win rates by seat and bot

The subcommands live in ``tools/`` (installed as ``bitbox_tools``); docs/devices.md has the
details and examples.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _parser() -> argparse.ArgumentParser:
    from bitbox_tools import emulate, monitor, ports

    parser = argparse.ArgumentParser(prog="bitbox", description="8Bitbox controllers: list, sniff, emulate.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module, text in (("ports", ports, "list candidate devices and probe them"),
                               ("monitor", monitor, "print every message from a controller"),
                               ("emulate", emulate, "run emulated controllers on pseudo-terminals")):
        p = sub.add_parser(name, help=text, description=module.__doc__.split("\n\n")[0])
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
                                   "by seat and by bot. The same --seed gives the same report whatever --workers.")
    p.add_argument("game", help="the game's name (see `bitbox games`)")
    p.add_argument("--games", type=int, default=100, metavar="N", help="games to play (default 100)")
    p.add_argument("--players", type=int, metavar="P", help="players per game (default: the game's fewest)")
    p.add_argument("--bots", default="random", metavar="NAMES", help="comma-separated bot names cycled over the seats")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="run seed (default 0)")
    p.add_argument("--workers", type=int, default=1, metavar="W", help="worker processes (default 1)")
    p.add_argument("--fixed-seats", action="store_true", help="do not rotate the bots over the seats")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="run the games on Ray's pool: with no ADDRESS a Ray instance on this machine for the run, "
                        "else the cluster at ADDRESS (auto, HOST:6379, ray://HOST:10001); same report as a local run. "
                        "Needs the extra: pip install \".[cluster]\" (docs/research.md)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=_simulate)
    return parser


def _simulate(args: argparse.Namespace) -> int:
    from .games import GameError, find
    from .simulation.cluster import ClusterError
    from .simulation.games import Run, simulate
    from .simulation.progress import Progress
    try:
        cartridge = find(args.game)
        if args.workers < 1:
            raise ValueError(f"--workers must be 1 or more, not {args.workers}")
        run = Run(args.game, args.games, args.players or cartridge.min_players,
                  tuple(b.strip() for b in args.bots.split(",") if b.strip()), args.seed, not args.fixed_seats)
        run.check()
    except (GameError, ValueError) as exc:
        print(f"bitbox simulate: {exc}", file=sys.stderr)
        return 2
    if args.ray is not None:
        from .simulation.cluster import missing
        why = missing()
        if why:
            print(f"bitbox simulate: {why}", file=sys.stderr)
            return 2
    from .simulation.pool import usable_cores
    workers = args.workers
    if args.ray is None and workers > usable_cores():
        workers = usable_cores()
        print(f"bitbox simulate: --workers {args.workers} is more than the {workers} core(s) here: using {workers}",
              file=sys.stderr)
    try:
        summary = simulate(run, workers, None if args.quiet else Progress(run.games), ray=args.ray)
    except KeyboardInterrupt:               # Ctrl-C: the pool's workers are ended with it
        print("\nbitbox simulate: interrupted", file=sys.stderr)
        return 130
    except ClusterError as exc:             # --ray: the cluster cannot be reached or joined
        print(f"bitbox simulate: {exc}", file=sys.stderr)
        return 2
    print(summary.report(cartridge.title))
    return 0


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


def _check_game(name: str) -> int:
    from .games import GameError, find
    from .games.conformance import check_all
    try:
        cartridge = find(name)
    except GameError as exc:
        print(f"bitbox games: {exc}", file=sys.stderr)
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
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    return int(args.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
