"""``lastonealive simulate``: the sub-command's arguments and what it does (the options are
those of ``outspeed simulate``, plus ``--variant`` and ``--first-zombie``)."""
from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import Any

from ..rules.game import MAX_PLAYERS, MIN_PLAYERS
from ..strategy import BOT_NAMES
from .runner import SIM_VARIANTS

PROG = "lastonealive simulate"


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "simulate", help="play many games with bots and report statistics",
        description="Play N games of Last One Alive with bots, in parallel, and report win rates by seat and "
                    "bot, turns survived, game length, the apocalypse level over time, and how each token is "
                    "used and pays off. The same --seed gives the same figures whatever --workers.")
    p.add_argument("--games", type=int, default=500, metavar="N", help="games to play (default 500)")
    p.add_argument("--players", type=int, default=4, metavar="P",
                   help=f"players per game, {MIN_PLAYERS} to {MAX_PLAYERS} (default 4)")
    p.add_argument("--bots", default="random", metavar="NAMES",
                   help=f"comma-separated bot names cycled over the seats ({', '.join(BOT_NAMES)}; default random)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="run seed (default 0)")
    p.add_argument("--workers", type=int, default=1, metavar="W",
                   help=f"worker processes (default 1; this machine has {os.cpu_count() or 1} cores)")
    p.add_argument("--variant", default="", metavar="NAMES",
                   help=f"comma-separated variants ({', '.join(SIM_VARIANTS)}; default: the base game); "
                        "survivors is for 2 or 3 players")
    p.add_argument("--first-zombie", choices=("each", "first"), default="each",
                   help="the starting 1-zombie die for each player (default) or the first only (L-4)")
    p.add_argument("--fixed-seats", action="store_true",
                   help="do not rotate the bots over the seats from one game to the next")
    p.add_argument("--out", metavar="DIR", help="write PNG charts and results.json into DIR")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)
    return p


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 2


def _cap_workers(workers: int) -> int:
    """More worker processes than cores only adds interpreters to start: capped, with a warning."""
    from bitbox.simulation.pool import usable_cores
    cores = usable_cores()
    if workers > cores:
        print(f"{PROG}: --workers {workers} is more than the {cores} core(s) here: using {cores}", file=sys.stderr)
        return cores
    return workers


class _Terminated(KeyboardInterrupt):
    pass


def _raise_terminated(signum: int, frame: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise _Terminated()


def _names(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))


def run(args: argparse.Namespace) -> int:
    from . import simulate
    from .runner import SimConfig
    bots = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    variants = _names(args.variant)
    if args.games < 1:
        return _fail(f"--games must be 1 or more, not {args.games}")
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        return _fail(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {args.players}")
    if not bots:
        return _fail(f"--bots needs at least one bot name ({', '.join(BOT_NAMES)})")
    unknown = [b for b in bots if b not in BOT_NAMES]
    if unknown:
        return _fail(f"unknown bot {unknown[0]!r} in --bots (known: {', '.join(BOT_NAMES)})")
    bad = [v for v in variants if v not in SIM_VARIANTS]
    if bad:
        return _fail(f"unknown variant {bad[0]!r} in --variant (known: {', '.join(SIM_VARIANTS)})")
    if "survivors" in variants and args.players > 3:
        return _fail(f"--variant survivors is for 2 or 3 players, not --players {args.players}")
    if args.workers < 1:
        return _fail(f"--workers must be 1 or more, not {args.workers}")
    workers = _cap_workers(args.workers)
    out = Path(args.out) if args.out else None
    if out is not None:
        if out.exists() and not out.is_dir():
            return _fail(f"--out {out} exists and is not a directory")
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return _fail(f"cannot create --out {out}: {exc.strerror or exc}")
        if not os.access(out, os.W_OK):
            return _fail(f"cannot write into --out {out}")
    config = SimConfig(games=args.games, players=args.players, bots=bots, seed=args.seed, variants=variants,
                       first_zombie=args.first_zombie, rotate=not args.fixed_seats)
    try:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)   # SIGTERM stops the run as Ctrl-C does
    except ValueError:                      # not the main thread
        previous = None
    try:
        result = simulate(config, workers=workers, progress=None if args.quiet else sys.stderr)
    except KeyboardInterrupt as stop:       # Ctrl-C or SIGTERM: the pool's workers end with it
        bar_on_screen = not args.quiet and sys.stderr.isatty()
        print(("\n" if bar_on_screen else "") + f"{PROG}: interrupted", file=sys.stderr)
        return 143 if isinstance(stop, _Terminated) else 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    print(result.report())
    if out is not None:
        try:
            files = result.write(out)
        except OSError as exc:
            return _fail(f"cannot write into --out {out}: {exc.strerror or exc}")
        print(f"\ncharts and data written to {out}/: {', '.join(f.name for f in files)}")
    return 0
