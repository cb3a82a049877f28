"""Research and scale: the PettingZoo environments against the engine alone, and simulations
on 1 and 2 worker processes and on Ray's pool against the engine alone.

    python -m bitbox_tools.bench.research [--quick] [--no-ray]

* **Environment steps per second.** Whole games through :class:`GameParallelEnv` (Outspeed,
  4 players) and :class:`GameAECEnv` (Last One Alive, 4 players), every action drawn
  uniformly among the ids the mask allows (``rng.choice(env.legal_actions(agent))``: the
  mask's ids as a tuple, the same draws as ``rng.choice(np.flatnonzero(mask))``); baseline:
  whole games of the same game and seats through the game protocol alone
  (``bitbox.bots.play`` with random bots: the engine, the cartridge and the bots, no
  environment). Three rounds of each, taken in turn, the best of
  each counted. The ratio (environment games/s ÷ engine games/s) is
  what the adapter costs: observations, masks, the steps themselves.
* **Simulation throughput.** The same run (Outspeed, 4 random players; ``bitbox simulate``'s
  records) on 1 worker (in this process), on 2 worker processes (their start-up counted), and
  on Ray's pool (a local instance with this machine's cores; its start-up is reported apart);
  the records of the three are checked identical. Baseline: the very same games (the run's
  game seeds and bot seeds, derived before the clock runs) played by the rules engine with
  its own random bots in a plain loop (``outspeed.bots.play_game``: no cartridge, no
  protocol, no harness), checked to give the same winners game for game. Ratio = throughput
  ÷ baseline: what the cartridge, the protocol, the harness and the pool cost together. The
  same games through the protocol alone (``bitbox.bots.play`` with the cartridge's random
  bots: no harness) split that cost: protocol ÷ engine, and simulate ÷ protocol (the
  harness's share). The engine, the protocol and 1 worker are taken in turn, twice, the best
  of each counted.
  ``bitbox simulate`` plays these games by the cartridge's ``playout`` (its own bots in its own
  loop, docs/games.md); the records are also checked identical to those of the same run with
  every game through the protocol (``playout=False``), untimed.
* **Instructions** (``--instructions``, needs valgrind): the same four loops counted by
  callgrind in fresh interpreters (``PYTHONHASHSEED=0``; a count for N games minus the count for
  none, divided by N): the engine loop, the protocol loop, ``bitbox simulate`` as a user runs
  it, and ``bitbox simulate`` with every game through the protocol. Unlike games/s they do
  not move with the machine's load.
* **Growth.** Milliseconds per game (1 worker) for 250, 500 and 1,000 games at 4 players,
  and for every player count of each game: a run costs its number of games times the cost
  of one game, and that cost grows with the players.
"""
from __future__ import annotations

import argparse
import random
import time
from typing import Any

from bitbox.bots import RandomBot, play
from bitbox.games import find
from bitbox.games.conformance import player_names
from bitbox.simulation.games import Run

from . import simloops
from .simloops import engine_loop, protocol_loop, same_games, wins


def _timed(fn, seconds: float) -> tuple[float, int, int]:
    """Call ``fn(i)`` (returns steps) for about ``seconds``; (elapsed, calls, steps)."""
    n = steps = 0
    t0 = time.perf_counter()
    while True:
        steps += fn(n)
        n += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return elapsed, n, steps


def env_figures(seconds: float) -> list[dict[str, Any]]:
    from bitbox.research import aec_env, parallel_env
    out = []
    for game, players, kind in (("outspeed", 4, "parallel"), ("lastonealive", 4, "aec")):
        cartridge = find(game)
        names = player_names(cartridge, players)
        rng = random.Random(1)

        def engine_game(i: int) -> int:
            count = [0]
            play(cartridge.new(names, 1000 + i, {}), {p: RandomBot(i * 10 + k) for k, p in enumerate(names)},
                 lambda _: count.__setitem__(0, count[0] + 1))
            return count[0]

        if kind == "parallel":
            env = parallel_env(game, players)

            def env_game(i: int) -> int:
                env.reset(seed=1000 + i)
                n = 0
                while env.agents:
                    env.step({a: rng.choice(env.legal_actions(a)) for a in env.agents})
                    n += 1
                return n
        else:
            aec = aec_env(game, players)

            def env_game(i: int) -> int:
                aec.reset(seed=1000 + i)
                n = 0
                for agent in aec.agent_iter():
                    _, _, term, trunc, _ = aec.last()
                    aec.step(None if term or trunc else rng.choice(aec.legal_actions(agent)))
                    n += 1
                return n

        best_env = best_engine = (0.0, 0.0, 0.0)
        for _ in range(3):                  # rounds taken in turn, best of each: load moves both alike
            e_s, e_games, e_steps = _timed(env_game, seconds / 3)
            b_s, b_games, b_applies = _timed(engine_game, seconds / 3)
            best_env = max(best_env, (e_games / e_s, e_steps / e_s, e_steps / e_games))
            best_engine = max(best_engine, (b_games / b_s, b_applies / b_games, 0.0))
        out.append({"game": game, "players": players, "kind": kind,
                    "env_games_per_s": best_env[0], "env_steps_per_s": best_env[1], "steps_per_game": best_env[2],
                    "engine_games_per_s": best_engine[0], "applies_per_game": best_engine[1],
                    "ratio": best_env[0] / best_engine[0]})
    return out


# The simulate rows' loops (tools/bench/simloops.py, light enough for --instructions).
_same_games, _wins, _engine_loop, _protocol_loop = same_games, wins, engine_loop, protocol_loop
INSTRUCTION_SCRIPTS, _INSTRUCTION_PRELUDE = simloops.INSTRUCTION_SCRIPTS, simloops.PRELUDE


def instructions(games: int = 200) -> dict[str, float]:
    """Instructions a game (callgrind) of each loop of :data:`INSTRUCTION_SCRIPTS`, the same
    ``games`` Outspeed games each (RuntimeError without valgrind). The engine and protocol
    loops are given without the seeds' derivation (counted apart and taken off: the
    wall-clock baselines derive them before the clock runs; simulate derives its own)."""
    from .engine import instructions_per_game
    seeds = instructions_per_game(games, 4, script=_INSTRUCTION_PRELUDE)
    counts = {label: instructions_per_game(games, 4, script=script) for label, script in INSTRUCTION_SCRIPTS.items()}
    for label in ("engine loop", "protocol loop"):
        counts[label] -= seeds
    return counts


def print_instructions(games: int = 200) -> dict[str, float]:
    counts = instructions(games)
    engine = counts["engine loop"]
    for label, n in counts.items():
        print(f"instructions a game, {label}: {n:,.0f} (engine / this, the speed ratio: {engine / n:.3f})")
    return counts


def simulate_figures(games: int, use_ray: bool) -> dict[str, Any]:
    from bitbox.simulation.games import records
    from bitbox.simulation.pool import usable_cores
    run = Run("outspeed", games, 4, ("random",), seed=3)
    same = _same_games(run)
    out: dict[str, Any] = {"games": games, "cores": usable_cores()}
    reference: list[Any] = []
    best = {"engine": 0.0, "protocol": 0.0, "1 worker": 0.0}
    cpu = {"engine": 0.0, "protocol": 0.0, "1 worker": 0.0}      # games per CPU second of this process
    for _ in range(2):                  # taken in turn, the best of each: a change of load moves all alike
        rate, engine_wins, engine_cpu = _engine_loop(run, same)
        best["engine"], cpu["engine"] = max(best["engine"], rate), max(cpu["engine"], engine_cpu)
        rate, protocol_cpu = _protocol_loop(run, same)
        best["protocol"], cpu["protocol"] = max(best["protocol"], rate), max(cpu["protocol"], protocol_cpu)
        c0, t0 = time.process_time(), time.perf_counter()
        got = list(records(run, workers=1))
        best["1 worker"] = max(best["1 worker"], games / (time.perf_counter() - t0))
        cpu["1 worker"] = max(cpu["1 worker"], games / (time.process_time() - c0))
        if not reference:                   # (untimed) the same records with every game through the protocol
            assert got == list(records(run, workers=1, playout=False)), "the playout played other games"
        reference = reference or got
        assert got == reference
        assert [r["wins"] for r in got] == engine_wins, "the engine loop played other games than simulate"
    out["engine_games_per_s"], out["protocol_games_per_s"], out["1 worker"] = \
        best["engine"], best["protocol"], best["1 worker"]
    out["cpu_games_per_s"] = cpu
    t0 = time.perf_counter()
    got = list(records(run, workers=2))
    out["2 workers"] = games / (time.perf_counter() - t0)
    assert got == reference
    if use_ray:
        from bitbox.simulation import cluster
        try:
            import ray
        except ImportError:
            out["ray_missing"] = cluster.missing()
            return out
        import logging
        t0 = time.perf_counter()
        ray.init(num_cpus=usable_cores(), include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
        out["ray_start_s"] = time.perf_counter() - t0
        try:
            cpus: list[int] = []
            t0 = time.perf_counter()
            got = list(records(run, ray="", on_start=cpus.append))
            out["ray pool"] = games / (time.perf_counter() - t0)
            out["ray_cpus"] = cpus[0]
            assert got == reference
        finally:
            ray.shutdown()
    return out


def growth_figures(base: int) -> dict[str, Any]:
    from bitbox.simulation.games import Run, records
    out: dict[str, Any] = {"games": {}, "players": {}}
    for n in (base, 2 * base, 4 * base):
        t0 = time.perf_counter()
        list(records(Run("outspeed", n, 4, ("random",), seed=5)))
        out["games"][n] = 1000 * (time.perf_counter() - t0) / n
    for game in ("outspeed", "lastonealive"):
        c = find(game)
        for p in range(c.min_players, c.max_players + 1):
            t0 = time.perf_counter()
            list(records(Run(game, base, p, ("random",), seed=5)))
            out["players"][(game, p)] = 1000 * (time.perf_counter() - t0) / base
    return out


def run(quick: bool = False, use_ray: bool = True) -> dict[str, Any]:
    return {"env": env_figures(0.7 if quick else 2.5),
            "simulate": simulate_figures(800 if quick else 3000, use_ray),
            "growth": growth_figures(100 if quick else 250)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bitbox_tools.bench.research", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray pool")
    parser.add_argument("--instructions", type=int, nargs="?", const=200, metavar="GAMES",
                        help="only count the simulate loops' instructions a game (valgrind; default 200 games)")
    args = parser.parse_args(argv)
    if args.instructions is not None:
        try:
            print_instructions(args.instructions)
        except RuntimeError as exc:
            print(f"instructions: {exc}")
            return 1
        return 0
    r = run(args.quick, not args.no_ray)
    for e in r["env"]:
        print(f"{e['game']} ({e['kind']} env, {e['players']} players): {e['env_steps_per_s']:,.0f} steps/s, "
              f"{e['env_games_per_s']:,.0f} games/s ({e['steps_per_game']:.0f} steps a game); engine alone "
              f"{e['engine_games_per_s']:,.0f} games/s; ratio {e['ratio']:.3f}")
    s = r["simulate"]
    print(f"simulate, {s['games']} Outspeed games at 4 players: engine alone {s['engine_games_per_s']:,.0f} games/s, "
          f"the same games through the protocol {s['protocol_games_per_s']:,.0f} games/s "
          f"(ratio {s['protocol_games_per_s'] / s['engine_games_per_s']:.2f})")
    c = s["cpu_games_per_s"]
    print(f"  by CPU time: engine {c['engine']:,.0f}, protocol {c['protocol']:,.0f}, 1 worker {c['1 worker']:,.0f} "
          f"games per CPU second (1 worker / engine {c['1 worker'] / c['engine']:.2f})")
    for label in ("1 worker", "2 workers", "ray pool"):
        if label in s:
            print(f"  {label}: {s[label]:,.0f} games/s (ratio {s[label] / s['engine_games_per_s']:.2f})")
    if "ray_start_s" in s:
        print(f"  Ray instance start-up: {s['ray_start_s']:.1f} s ({s['ray_cpus']} CPUs)")
    g = r["growth"]
    print("ms a game by games: " + ", ".join(f"{n}: {ms:.2f}" for n, ms in g["games"].items()))
    print("ms a game by players: " + ", ".join(f"{game} {p}: {ms:.2f}" for (game, p), ms in g["players"].items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
