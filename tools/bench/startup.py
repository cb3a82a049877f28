"""Start-up benchmark: `outspeed play`, from the command to the first frame drawn.

    python -m bitbox_tools.bench.startup [--runs N] [--instructions REV]

Each run starts a fresh Python process (headless: ``SDL_VIDEODRIVER=dummy``) that runs
``outspeed play --headless`` (or plain ``outspeed play`` if it has no ``--headless``
option) with a probe that notes the time of the first frame (the first return of
``TableDisplay.render`` or the first ``pygame.display.flip``/``update``, whichever comes
first) and ends the process there. The figure is the median over the runs, measured from
just before the process is started.

Baseline, measured the same way in the same run: a Python process that imports pygame,
opens a 1920×1080 window, fills it and flips it: the least any pygame program pays for its
first frame. Target: under 1 s.

``--instructions REV`` (needs valgrind) compares this source with git revision REV in one
run: instructions to the first frame (callgrind), Python function calls (cProfile) and CPU
and wall medians over alternating runs; see :func:`compare` and docs/bench.md.
"""
from __future__ import annotations

import argparse
import io
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from contextlib import contextmanager
from typing import Any, Iterator, Sequence

TARGET_S = 1.0

PROBE = r"""
import os, sys, time
T0 = float(sys.argv[1])
if os.environ.get("BENCH_STARTUP_CALLS"):       # count Python function calls to the first frame
    import cProfile
    _PROFILE = cProfile.Profile()
    _PROFILE.enable()
else:
    _PROFILE = None

def _first_frame(how):
    if _PROFILE is not None:
        _PROFILE.disable()
        import pstats
        sys.stdout.write("CALLS %d\n" % pstats.Stats(_PROFILE).total_calls)
    sys.stdout.write("FIRST_FRAME %s %.6f\n" % (how, time.time() - T0))
    sys.stdout.flush()
    os._exit(0)

import pygame
for _name in ("flip", "update"):
    def _wrap(*a, _orig=getattr(pygame.display, _name), _n=_name, **k):
        _orig(*a, **k)
        _first_frame(_n)
    setattr(pygame.display, _name, _wrap)
try:
    from outspeed.display import render as _render
except ImportError:
    pass
else:
    _orig_render = _render.TableDisplay.render
    def _render_probe(self, *a, **k):
        _orig_render(self, *a, **k)
        _first_frame("render")
    _render.TableDisplay.render = _render_probe
from outspeed.cli import main
code = main(sys.argv[2:])
sys.stdout.write("NO_FRAME %s\n" % code)
sys.stdout.flush()
os._exit(0)
"""

BASELINE = r"""
import sys, time
T0 = float(sys.argv[1])
import pygame
pygame.display.init()
screen = pygame.display.set_mode((1920, 1080))
screen.fill((14, 18, 30))
pygame.display.flip()
sys.stdout.write("FIRST_FRAME flip %.6f\n" % (time.time() - T0))
"""


def _env(source: str | None = None) -> dict[str, str]:
    """The probe's environment; ``source``: a source tree run instead of the installed project."""
    env = dict(os.environ)
    # a start as a user's: the sources compiled once (the first run writes their __pycache__,
    # as an installed package has it) even where the shell sets PYTHONDONTWRITEBYTECODE, which
    # would make every run compile every module it imports and count that compiling
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update({"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"})
    if source is not None:                          # that source first, before the installed one
        env["PYTHONPATH"] = source + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _once(code: str, args: Sequence[str], timeout: float, cwd: str | None = None,
          source: str | None = None) -> tuple[float | None, str]:
    t0 = time.time()
    proc = subprocess.run([sys.executable, "-c", code, repr(t0), *args], capture_output=True, text=True,
                          timeout=timeout, env=_env(source), stdin=subprocess.DEVNULL, cwd=cwd)
    for line in proc.stdout.splitlines():
        if line.startswith("FIRST_FRAME "):
            _, how, seconds = line.split()
            return float(seconds), how
    if proc.returncode == 0:
        return None, "the command ended without drawing a frame (no table display in it yet?)"
    tail = (proc.stderr.strip().splitlines() or ["(no message)"])[-1]
    return None, f"no frame drawn; exit code {proc.returncode}: {tail[:120]}"


def play_arguments(scratch: str, source: str | None = None) -> list[str]:
    """``play --headless`` (if the play command has that option), writing its journal and
    snapshots into ``scratch``, never into the user's files."""
    proc = subprocess.run([sys.executable, "-m", "outspeed.cli", "play", "--help"], capture_output=True,
                          text=True, timeout=30, env=_env(source), cwd=scratch)
    options = proc.stdout
    args = ["play"]
    for flag, value in (("--headless", None), ("--seed", "1"), ("--speed", "0"),
                        ("--journal", os.path.join(scratch, "journal.sqlite")),
                        ("--snapshots", os.path.join(scratch, "snapshots"))):
        if flag in options:
            args += [flag] + ([value] if value is not None else [])
    return args


def run(runs: int = 5, timeout: float = 20.0) -> dict[str, Any]:
    """Start-up figures as a dict; ``seconds`` is None (and ``why`` says why) if `outspeed
    play` drew no frame."""
    base = [_once(BASELINE, [], timeout)[0] for _ in range(runs)]
    base_s = statistics.median([b for b in base if b is not None]) if any(b is not None for b in base) else None
    got: list[float] = []
    why = how = ""
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as scratch:
        args = play_arguments(scratch)
        for _ in range(runs):
            try:
                seconds, how = _once(PROBE, args, timeout, cwd=scratch)
            except subprocess.TimeoutExpired:
                seconds, how = None, f"no frame within {timeout:.0f} s"
            if seconds is None:
                why = how
                break
            got.append(seconds)
    figure = statistics.median(got) if got and not why else None
    shown = " ".join(a if not a.startswith(scratch) else "<tmp>" + a[len(scratch):] for a in args)
    return {"seconds": figure, "why": why, "baseline_seconds": base_s, "command": "outspeed " + shown,
            "first_frame_by": how if figure else "", "ratio": figure / base_s if figure and base_s else None,
            "runs": runs, "target_seconds": TARGET_S}


@contextmanager
def unpacked(rev: str) -> Iterator[str]:
    """The source of git revision ``rev``, unpacked with ``git archive`` into a temporary
    directory (with ``config``/``tools`` also reachable under their installed names)."""
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    if top.returncode != 0:
        raise RuntimeError("not in a git checkout: no revision to compare with")
    archive = subprocess.run(["git", "-C", top.stdout.strip(), "archive", "--format=tar", rev],
                             capture_output=True)
    if archive.returncode != 0:
        raise RuntimeError(f"git archive {rev}: {archive.stderr.decode(errors='replace').strip()}")
    with tempfile.TemporaryDirectory(prefix="bench-startup-src-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(tmp, filter="data")
        for installed, folder in (("bitbox_config", "config"), ("bitbox_tools", "tools")):
            if os.path.isdir(os.path.join(tmp, folder)):
                os.symlink(folder, os.path.join(tmp, installed))
        yield tmp


def _cpu_of_children() -> float:
    import resource
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _valgrind() -> str:
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise RuntimeError("valgrind is not installed (apt-get install valgrind): no instruction count")
    return valgrind


def counts(source: str | None = None, timeout: float = 600.0) -> dict[str, Any]:
    """Load-independent start-up figures of ``outspeed play`` (``source``: a source tree
    instead of the installed project): ``instructions`` executed from the start of the
    interpreter to the first frame (valgrind's callgrind, ``PYTHONHASHSEED=0``) and ``calls``,
    the Python function calls to the first frame (cProfile)."""
    valgrind = _valgrind()
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as scratch:
        args = play_arguments(scratch, source)
        env = dict(_env(source), PYTHONHASHSEED="0")
        command = [sys.executable, "-c", PROBE, "0", *args]
        warm = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=scratch,
                              env=dict(env, BENCH_STARTUP_CALLS="1"), stdin=subprocess.DEVNULL)
        calls = re.search(r"^CALLS (\d+)$", warm.stdout, re.M)         # also compiles the sources
        if calls is None or "FIRST_FRAME" not in warm.stdout:
            tail = (warm.stderr.strip().splitlines() or ["(no message)"])[-1]
            raise RuntimeError(f"no first frame from {'this source' if source is None else 'the revision'}: "
                               f"{tail[:120]}")
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(scratch, exist_ok=True)
        done = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                              capture_output=True, text=True, timeout=timeout, cwd=scratch, env=env,
                              stdin=subprocess.DEVNULL)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None or "FIRST_FRAME" not in done.stdout:
        raise RuntimeError(f"callgrind failed: {done.stderr.strip().splitlines()[-1:]}")
    return {"instructions": int(found.group(1)), "calls": int(calls.group(1))}


def compare(rev: str, runs: int = 10, timeout: float = 20.0) -> dict[str, Any]:
    """This source against revision ``rev`` in one run: :func:`counts` for each, and the
    medians of wall and CPU time to the first frame over ``runs`` fresh processes each, the
    two sources alternating (so a change in the machine's load touches both alike)."""
    _valgrind()
    with unpacked(rev) as old:
        now, before = counts(), counts(old)
        times: dict[str, dict[str, list[float]]] = {k: {"wall": [], "cpu": []} for k in ("now", "before")}
        with tempfile.TemporaryDirectory(prefix="bench-startup-") as scratch:
            sources = {"now": (None, play_arguments(scratch)), "before": (old, play_arguments(scratch, old))}
            for i in range(runs):
                for key in (("now", "before") if i % 2 == 0 else ("before", "now")):
                    source, args = sources[key]
                    cpu0 = _cpu_of_children()
                    seconds, how = _once(PROBE, args, timeout, cwd=scratch, source=source)
                    if seconds is None:
                        raise RuntimeError(f"{key}: {how}")
                    times[key]["cpu"].append(_cpu_of_children() - cpu0)
                    times[key]["wall"].append(seconds)
    for key, got in (("now", now), ("before", before)):
        got["wall_ms"] = statistics.median(times[key]["wall"]) * 1000
        got["cpu_ms"] = statistics.median(times[key]["cpu"]) * 1000
    return {"rev": rev, "now": now, "before": before, "runs": runs, "load": os.getloadavg()}


def print_comparison(rev: str, runs: int = 10) -> dict[str, Any]:
    r = compare(rev, runs)
    now, before = r["now"], r["before"]
    for label, key, unit in (("instructions", "instructions", ""), ("Python function calls", "calls", ""),
                             ("CPU time (median)", "cpu_ms", " ms"), ("wall time (median)", "wall_ms", " ms")):
        print(f"startup: {label} to the first frame: {now[key]:,.0f}{unit}; {rev}: {before[key]:,.0f}{unit} "
              f"(ratio {now[key] / before[key]:.3f})")
    print(f"startup: times over {runs} alternating runs each; load average {r['load'][0]:.2f} "
          f"{r['load'][1]:.2f} {r['load'][2]:.2f}")
    return r


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bitbox_tools.bench.startup", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--instructions", metavar="REV",
                        help="also compare with git revision REV in the same run: instructions (valgrind), "
                             "Python function calls, CPU and wall medians over alternating runs")
    args = parser.parse_args(argv)
    if args.instructions:
        try:
            print_comparison(args.instructions, max(args.runs, 2))
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
            print(f"startup: not compared with {args.instructions}: {exc}", file=sys.stderr)
            return 2
    r = run(args.runs)
    if r["seconds"] is None:
        print(f"{r['command']}: not available: {r['why']}")
    else:
        print(f"{r['command']}: first frame after {r['seconds'] * 1000:.0f} ms (median of {r['runs']}; "
              f"target < {TARGET_S * 1000:.0f} ms)")
    if r["baseline_seconds"] is not None:
        print(f"baseline (python + pygame + set_mode + flip): {r['baseline_seconds'] * 1000:.0f} ms")
    if r["ratio"]:
        print(f"ratio: {r['ratio']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
