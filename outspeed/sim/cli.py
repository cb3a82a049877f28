"""``outspeed simulate``: the sub-command's arguments and what it does."""
from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import Literal

from ..bots import BOTS
from ..rules.game import MAX_PLAYERS, MIN_PLAYERS

PROG = "outspeed simulate"


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "simulate", help="play many games with bots and report statistics",
        description="Play N games with bots, in parallel, and report win rates by seat and bot, finishing "
                    "zones, eliminations by cause, path pick rates and win contributions, and game length. "
                    "The same --seed gives the same report whatever --workers.")
    p.add_argument("--games", type=int, default=1000, metavar="N", help="games to play (default 1000)")
    p.add_argument("--players", type=int, default=4, metavar="P", help=f"players per game, {MIN_PLAYERS} to {MAX_PLAYERS} (default 4)")
    p.add_argument("--bots", default="random", metavar="NAMES",
                   help=f"comma-separated bot names cycled over the seats ({', '.join(BOTS)}; default random)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="run seed (default 0)")
    p.add_argument("--workers", type=int, default=1, metavar="W",
                   help=f"worker processes (default 1; this machine has {os.cpu_count() or 1} cores)")
    p.add_argument("--first-game", action="store_true", help="tiles 1-13 in order, as for a first game")
    p.add_argument("--fixed-seats", action="store_true",
                   help="do not rotate the bots over the seats from one game to the next")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="run the games on Ray's pool: with no ADDRESS a Ray instance on this machine for the run, "
                        "else the cluster at ADDRESS (auto, HOST:6379, ray://HOST:10001); same report as a local run. "
                        "Needs the extra: pip install \".[cluster]\" (docs/research.md)")
    p.add_argument("--out", metavar="DIR", help="write PNG charts and results.json into DIR")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)
    return p


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 2


def _cap_workers(workers: int) -> int:
    """More worker processes than cores only adds interpreters to start and switch between:
    capped at the cores, with a one-line warning."""
    from .runner import usable_cores
    cores = usable_cores()
    if workers > cores:
        print(f"{PROG}: --workers {workers} is more than the {cores} core(s) here: using {cores}", file=sys.stderr)
        return cores
    return workers


class _Terminated(KeyboardInterrupt):
    pass


def _raise_terminated(signum, frame) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise _Terminated()


class _sigterm_interrupts:
    """SIGTERM stops the run as Ctrl-C does (the workers are ended, one line, no traceback)."""

    def __enter__(self) -> None:
        try:
            self.previous = signal.signal(signal.SIGTERM, _raise_terminated)
        except ValueError:                  # not the main thread
            self.previous = None

    def __exit__(self, *exc: object) -> Literal[False]:
        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)
        return False


def run(args: argparse.Namespace) -> int:
    from bitbox.simulation.cluster import ClusterError

    from . import SimConfig, simulate
    bots = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    if args.games < 1:
        return _fail(f"--games must be 1 or more, not {args.games}")
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        return _fail(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {args.players}")
    if not bots:
        return _fail(f"--bots needs at least one bot name ({', '.join(BOTS)})")
    unknown = [b for b in bots if b not in BOTS]
    if unknown:
        return _fail(f"unknown bot {unknown[0]!r} in --bots (known: {', '.join(BOTS)})")
    if args.workers < 1:
        return _fail(f"--workers must be 1 or more, not {args.workers}")
    if args.ray is not None:
        from bitbox.simulation.cluster import missing
        why = missing()
        if why:
            return _fail(why)
    workers = _cap_workers(args.workers) if args.ray is None else args.workers
    out = Path(args.out) if args.out else None
    if out is not None:
        if out.exists() and not out.is_dir():
            return _fail(f"--out {out} exists and is not a directory")
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            return _fail("--out needs matplotlib for the charts (pip install matplotlib)")
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return _fail(f"cannot create --out {out}: {exc.strerror or exc}")
        if not os.access(out, os.W_OK):
            return _fail(f"cannot write into --out {out}")
    from ..content import ConfigError, load_content
    try:
        content = load_content()
    except ConfigError as exc:
        return _fail(str(exc))
    config = SimConfig(games=args.games, players=args.players, bots=bots, seed=args.seed,
                       first_game=args.first_game, rotate=not args.fixed_seats)
    try:
        with _sigterm_interrupts():
            result = simulate(config, workers=workers, progress=None if args.quiet else sys.stderr, content=content,
                              ray=args.ray)
    except KeyboardInterrupt as stop:       # Ctrl-C or SIGTERM: the pool's workers are ended with it
        bar_on_screen = not args.quiet and sys.stderr.isatty()
        print(("\n" if bar_on_screen else "") + f"{PROG}: interrupted", file=sys.stderr)
        return 143 if isinstance(stop, _Terminated) else 130
    except ClusterError as exc:             # --ray: the cluster cannot be reached or joined
        return _fail(str(exc))
    print(result.report())
    if out is not None:
        files = result.write(out)
        print(f"\ncharts and data written to {out}/: {', '.join(f.name for f in files)}")
    return 0
