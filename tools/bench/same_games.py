"""The playout plays the protocol's games: ``results.json`` and ``games.csv`` of simulate runs
compared byte for byte, every game through the protocol against the cartridges' ``playout``.

    python -m bitbox_tools.bench.same_games [--games N] [--mixed-games N]

For ``bitbox simulate`` (both games, random and mixed bots) and each game's own ``simulate``
(its statistics hook: more fields a game, and Last One Alive's sees every answer), each run is
written with every game through the protocol (``playout=False``) on 1 and 2 workers, and with
the playout on 1 and 2 workers; the files must be identical. Prints one line a run and exits 1
at the first difference. A check, not a benchmark (docs/bench.md, "Round 5").
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

FILES = ("results.json", "games.csv")


def _runs(games: int, mixed: int) -> list[tuple[str, Callable[[int, bool, Path], None]]]:
    from bitbox.simulation import games as generic
    from bitbox.simulation import runner
    from lastonealive.sim.runner import SimConfig as LastOneAliveConfig
    from outspeed.sim.runner import SimConfig as OutspeedConfig

    def generic_run(run: Any) -> Callable[[int, bool, Path], None]:
        def write(workers: int, playout: bool, out: Path) -> None:
            generic.simulate(run, workers, playout=playout).write(out)
        return write

    def own_run(config: Any) -> Callable[[int, bool, Path], None]:
        def write(workers: int, playout: bool, out: Path) -> None:
            runner.simulate(config, workers, playout=playout).write(out)
        return write

    return [
        (f"bitbox simulate outspeed, {games} games, 4 players, random",
         generic_run(generic.Run("outspeed", games, 4, ("random",), seed=11))),
        (f"bitbox simulate outspeed, {mixed} games, 5 players, lookahead,greedy,random",
         generic_run(generic.Run("outspeed", mixed, 5, ("lookahead", "greedy", "random"), seed=12))),
        (f"bitbox simulate lastonealive, {games} games, 4 players, random",
         generic_run(generic.Run("lastonealive", games, 4, ("random",), seed=13))),
        (f"bitbox simulate lastonealive, {mixed} games, 3 players, careful,random",
         generic_run(generic.Run("lastonealive", mixed, 3, ("careful", "random"), seed=14))),
        (f"outspeed simulate, {games} games, 6 players, random",
         own_run(OutspeedConfig(games=games, players=6, bots=("random",), seed=15))),
        (f"outspeed simulate, {mixed} games, 4 players, lookahead,greedy,random, first game",
         own_run(OutspeedConfig(games=mixed, players=4, bots=("lookahead", "greedy", "random"), seed=16,
                                first_game=True))),
        (f"lastonealive simulate, {games} games, 5 players, random",
         own_run(LastOneAliveConfig(games=games, players=5, bots=("random",), seed=17))),
        (f"lastonealive simulate, {mixed} games, 2 players, careful,random, survivors",
         own_run(LastOneAliveConfig(games=mixed, players=2, bots=("careful", "random"), seed=18,
                                    variants=("survivors",)))),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bitbox_tools.bench.same_games", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games of the runs with random bots (1000)")
    parser.add_argument("--mixed-games", type=int, default=200, help="games of the runs with mixed bots (200)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="same-games-") as tmp:
        for k, (label, write) in enumerate(_runs(args.games, args.mixed_games)):
            written: dict[tuple[int, bool], dict[str, bytes]] = {}
            seconds = {}
            for playout in (False, True):
                for workers in (1, 2):
                    out = Path(tmp) / f"{k}-{workers}-{playout}"
                    out.mkdir()
                    t0 = time.perf_counter()
                    write(workers, playout, out)
                    seconds[(workers, playout)] = time.perf_counter() - t0
                    written[(workers, playout)] = {f: (out / f).read_bytes() for f in FILES}
            reference = written[(1, False)]
            differ = [f"{'playout' if p else 'protocol'} on {w} worker{'s' if w > 1 else ''}: {f}"
                      for (w, p), files in written.items() for f in FILES if files[f] != reference[f]]
            sizes = ", ".join(f"{f} {len(reference[f]):,} bytes" for f in FILES)
            print(f"{label}: {'DIFFERENT (' + '; '.join(differ) + ')' if differ else 'identical'} ({sizes}; "
                  f"1 worker {seconds[(1, False)]:.1f} s through the protocol, {seconds[(1, True)]:.1f} s by the playout)")
            if differ:
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
