"""Start-up benchmark: `outspeed play`, from the command to the first frame drawn.

    python -m bitbox_tools.bench.startup [--runs N]

Each run starts a fresh Python process (headless: ``SDL_VIDEODRIVER=dummy``) that runs
``outspeed play --headless`` (or plain ``outspeed play`` if it has no ``--headless``
option) with a probe that notes the time of the first frame (the first return of
``TableDisplay.render`` or the first ``pygame.display.flip``/``update``, whichever comes
first) and ends the process there. The figure is the median over the runs, measured from
just before the process is started.

Baseline, measured the same way in the same run: a Python process that imports pygame,
opens a 1920×1080 window, fills it and flips it: the least any pygame program pays for its
first frame. Target: under 1 s.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Sequence

TARGET_S = 1.0

PROBE = r"""
import os, sys, time
T0 = float(sys.argv[1])

def _first_frame(how):
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


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"})
    return env


def _once(code: str, args: Sequence[str], timeout: float, cwd: str | None = None) -> tuple[float | None, str]:
    t0 = time.time()
    proc = subprocess.run([sys.executable, "-c", code, repr(t0), *args], capture_output=True, text=True,
                          timeout=timeout, env=_env(), stdin=subprocess.DEVNULL, cwd=cwd)
    for line in proc.stdout.splitlines():
        if line.startswith("FIRST_FRAME "):
            _, how, seconds = line.split()
            return float(seconds), how
    if proc.returncode == 0:
        return None, "the command ended without drawing a frame (no table display in it yet?)"
    tail = (proc.stderr.strip().splitlines() or ["(no message)"])[-1]
    return None, f"no frame drawn; exit code {proc.returncode}: {tail[:120]}"


def play_arguments(scratch: str) -> list[str]:
    """``play --headless`` (if the play command has that option), writing its journal and
    snapshots into ``scratch``, never into the user's files."""
    proc = subprocess.run([sys.executable, "-m", "outspeed.cli", "play", "--help"], capture_output=True,
                          text=True, timeout=30, env=_env())
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bitbox_tools.bench.startup", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
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
