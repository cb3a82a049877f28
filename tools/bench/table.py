"""Table benchmark: a headless game of bots only at ``--speed 0``, for every game, computes.

    python -m bitbox_tools.bench.table [--runs N]

Each run starts a fresh Python process (``SDL_VIDEODRIVER=dummy``) that plays one game to its
end as a person would start it::

    outspeed play --headless --speed 0 --bots 4 --seed S --journal J --snapshots D --lobby never
    lastonealive play ...                     (the same options)
    bitbox play --game goofspiel ...          (the tutorial game of docs/games.md, 2 bots)

The figures are the process's wall time and its CPU time (user + system, every thread, from
the operating system's accounting of the child) and their ratio; a table that waits for
nothing spends its wall time computing: the ratio stays near 1 (the target is at most 1.5).
On a busy machine the wall time also holds the time the process waited for a processor,
which is not the table's doing: the probe in the child reads it from Linux's
``/proc/thread-self/schedstat`` for the table's main thread and reports what is left of its
wall time once its own CPU time and that wait are taken off (``blocked``: sleeping, polling,
waiting for the disk or another thread), and ``(CPU + blocked) / CPU``, the ratio the table
would have on an idle machine. The median of the runs is printed for each game, with the load
average.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

TARGET_RATIO = 1.5

#: The child: the game's own command, with the main thread's clocks read around it.
PROBE = r"""
import sys, time
def _queued():
    try:
        with open('/proc/thread-self/schedstat') as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0
w0, c0, q0 = time.perf_counter(), time.thread_time(), _queued()
import importlib
main = getattr(importlib.import_module(sys.argv[1]), "main")
try:
    code = main(sys.argv[2:])
except SystemExit as exc:
    code = exc.code
wall, cpu, queued = time.perf_counter() - w0, time.thread_time() - c0, _queued() - q0
sys.stderr.write("TABLE_MAIN %.6f %.6f %.6f\n" % (wall, cpu, queued))
sys.exit(code or 0)
"""


def _tutorial() -> Path | None:
    """tests/tutorial of this source tree (the tutorial game is not installed with the project)."""
    import bitbox
    folder = Path(bitbox.__file__).resolve().parents[1] / "tests" / "tutorial"
    return folder if (folder / "goofspiel.py").is_file() else None


def games() -> list[tuple[str, str, list[str], dict[str, str]]]:
    """(name, module with ``main``, arguments before the common ones, environment) of each game."""
    out: list[tuple[str, str, list[str], dict[str, str]]] = [
        ("outspeed", "outspeed.cli", ["play", "--bots", "4"], {}),
        ("lastonealive", "lastonealive.cli", ["play", "--bots", "4"], {}),
    ]
    tutorial = _tutorial()
    if tutorial is not None:
        path = os.pathsep.join(p for p in (str(tutorial), os.environ.get("PYTHONPATH", "")) if p)
        out.append(("goofspiel (tutorial)", "bitbox.cli", ["play", "--game", "goofspiel", "--bots", "2"],
                    {"BITBOX_GAMES": "goofspiel=goofspiel:CARTRIDGE", "PYTHONPATH": path}))
    return out


def run_one(module: str, args: Sequence[str], env: dict[str, str], seed: int) -> dict[str, Any]:
    """One game in a fresh process: wall, CPU (user + system) and the main thread's figures."""
    with tempfile.TemporaryDirectory(prefix="bench-table-") as tmp:
        cmd = [sys.executable, "-c", PROBE, module, *args, "--headless", "--speed", "0", "--seed", str(seed),
               "--journal", os.path.join(tmp, "journal.sqlite"), "--snapshots", os.path.join(tmp, "snapshots"),
               "--lobby", "never"]
        full_env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                    "PYGAME_HIDE_SUPPORT_PROMPT": "1", **env}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run(cmd, env=full_env, cwd=tmp, capture_output=True, text=True, timeout=300)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise RuntimeError(f"{module} {' '.join(args)} exited {p.returncode}: {p.stderr.strip()[-300:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    main = next((line.split()[1:] for line in p.stderr.splitlines() if line.startswith("TABLE_MAIN ")), None)
    m_wall, m_cpu, m_queued = (float(x) for x in main) if main else (wall, cpu, 0.0)
    blocked = max(0.0, m_wall - m_cpu - m_queued)
    return {"wall": wall, "cpu": cpu, "ratio": wall / cpu if cpu > 0 else float("inf"),
            "blocked": blocked, "queued": m_queued, "unloaded": (cpu + blocked) / cpu if cpu > 0 else float("inf")}


def run(runs: int = 3) -> list[dict[str, Any]]:
    out = []
    for name, module, args, env in games():
        got = [run_one(module, args, env, seed) for seed in range(1, runs + 1)]
        out.append({"game": name, "runs": runs, "load": os.getloadavg()[0],
                    **{k: statistics.median(g[k] for g in got)
                       for k in ("wall", "cpu", "ratio", "blocked", "queued", "unloaded")}})
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bitbox_tools.bench.table", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="games per game (seeds 1..N); medians (default 3)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    print(f"{'game':22} {'wall s':>7} {'CPU s':>7} {'wall/CPU':>9} {'blocked s':>10} {'queued s':>9} "
          f"{'(CPU+blocked)/CPU':>18}  load")
    for r in run(args.runs):
        print(f"{r['game']:22} {r['wall']:7.2f} {r['cpu']:7.2f} {r['ratio']:9.2f} {r['blocked']:10.3f} "
              f"{r['queued']:9.2f} {r['unloaded']:18.2f}  {r['load']:.1f}")
    print(f"(target: wall/CPU <= {TARGET_RATIO}; blocked: the table's main thread neither computing nor "
          f"waiting for a processor; queued: waiting for a processor; (CPU+blocked)/CPU: the ratio without "
          f"the wait for a processor, as on an idle machine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
