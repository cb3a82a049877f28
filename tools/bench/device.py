"""Benchmark: latency from a wheel change inside the emulator to the hub's event.

    python -m bitbox_tools.bench.device [--seconds 6] [--controllers 6] [--json]

Setup, all in one run:

- ``bitbox emulate`` in a subprocess: N controllers (the reference firmware) on
  pseudo-terminals, all sending heartbeats, with ``--trace`` recording the moment each frame is
  written to its pseudo-terminal (``time.monotonic()``, the same clock in both processes).
- This process changes random wheels (through the emulator's command input) about
  ``rate`` times a second, and measures, for each State frame that carries a change:

  * **baseline**: raw pyserial reads of the same pseudo-terminals, one reader thread per port
    doing ``ser.read(ser.in_waiting or 1)`` (pyserial's own ``threaded`` reader); the frame
    arrives when the chunk holding its last byte is read;
  * **hub**: a :class:`bitbox.hub.Hub` on the same ports; the frame arrives when its
    ``WheelsChanged`` event is in the hub's queue (``event.t``, stamped after decoding).

- Both are measured twice: with an **idle** main thread, and with the main thread **busy**
  rendering frames at 60 per second with pygame (SDL_VIDEODRIVER=dummy), as the table will.

The debounce time of the firmware (50 ms) is not part of the figures: the clock starts when
the firmware writes the frame. "Added latency" is hub minus baseline at the same percentile.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import firmware_protocol as fp

__all__ = ["run", "main", "Renderer"]


# --- the busy main loop ------------------------------------------------------------------------

class Renderer:
    """A table-like frame: background, a track of tiles, ships, panels with text, dice, a
    scaled overlay; about half of a 60 Hz frame budget of CPU on a small machine."""

    def __init__(self, size: tuple[int, int] = (1280, 720), load: int = 1) -> None:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame
        self.pg = pygame
        pygame.display.init()
        pygame.font.init()
        self.screen = pygame.display.set_mode(size)
        self.font = pygame.font.Font(None, 28)
        self.clock = pygame.time.Clock()
        self.load = load
        self.rng = random.Random(7)
        self.tile = pygame.Surface((160, 120))
        self.tile.fill((90, 70, 40))
        for i in range(40):
            pygame.draw.circle(self.tile, (200, 180, 90), (self.rng.randrange(160), self.rng.randrange(120)), 6)
        self.frames = 0
        self.busy_s = 0.0
        self.wall_s = 0.0

    def frame(self) -> None:
        pg, screen, rng = self.pg, self.screen, self.rng
        t0 = time.perf_counter()
        for _ in range(self.load):
            screen.fill((20, 24, 30))
            for x in range(0, 1280, 160):
                for y in range(120, 600, 120):
                    screen.blit(self.tile, (x, y))
            for i in range(120):
                pg.draw.circle(screen, (rng.randrange(256), 90, 200), (rng.randrange(1280), rng.randrange(720)), 12)
                pg.draw.rect(screen, (40, rng.randrange(256), 90), (rng.randrange(1280), rng.randrange(720), 30, 18))
            for seat in range(6):
                panel = pg.Rect(10 + seat * 210, 620, 200, 90)
                pg.draw.rect(screen, (60, 60, 80), panel, border_radius=8)
                for line in range(3):
                    text = self.font.render(f"seat {seat + 1} fuel {rng.randrange(20)} tok {line}", True, (240, 240, 240))
                    screen.blit(text, (panel.x + 8, panel.y + 6 + line * 26))
            overlay = pg.transform.smoothscale(screen.subsurface((0, 0, 640, 360)), (320, 180))
            screen.blit(overlay, (950, 10))
        pg.display.flip()
        self.busy_s += time.perf_counter() - t0
        self.frames += 1
        self.clock.tick(60)
        self.wall_s += time.perf_counter() - t0

    def close(self) -> None:
        self.pg.display.quit()


class _Idle:
    frames = 0
    busy_s = 0.0

    def frame(self) -> None:
        time.sleep(1 / 60)
        self.frames += 1

    def close(self) -> None:
        pass


# --- the emulator ------------------------------------------------------------------------------

class _EmulatorProcess:
    def __init__(self, n: int, trace: Path) -> None:
        self.trace = trace
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bitbox_tools.emulate", "--controllers", str(n), "--trace", str(trace)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.ports: list[str] = []
        self.ids: list[int] = []
        assert self.proc.stdout is not None and self.proc.stdin is not None    # both piped
        self.stdin = self.proc.stdin
        for _ in range(n):
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the emulator did not start")
            entry = json.loads(line)
            self.ports.append(entry["port"])
            self.ids.append(entry["controller"])

    def command(self, line: str) -> None:
        self.stdin.write(line + "\n")
        self.stdin.flush()

    def stop(self) -> list[tuple[float, int, bytes]]:
        try:
            self.command("quit")
            self.stdin.close()
        except OSError:
            pass
        self.proc.wait(10)
        out = []
        for line in self.trace.read_text().splitlines():
            entry = json.loads(line)
            out.append((entry["t"], entry["index"], bytes.fromhex(entry["frame"])))
        return out


def _changes(emu: _EmulatorProcess, n: int, seconds: float, rate: float, rng: random.Random,
             stop: threading.Event) -> None:
    """Random wheel changes at about ``rate`` per second (each a new value)."""
    current = [[0, 0, 0] for _ in range(n)]
    end = time.monotonic() + seconds
    while time.monotonic() < end and not stop.is_set():
        i = rng.randrange(n)
        w = rng.randrange(3)
        current[i][w] = (current[i][w] + 1 + rng.randrange(14)) % 16
        emu.command(f"{i} {('left', 'centre', 'right')[w]}={current[i][w]}")
        time.sleep(rng.expovariate(rate))


def _written_changes(trace: list[tuple[float, int, bytes]], since: float, until: float) -> dict[tuple[int, int], float]:
    """(controller index, seq) -> write time, for each State frame that carries a change."""
    decoders: dict[int, fp.Decoder] = {}
    last: dict[int, tuple] = {}
    out = {}
    for t, index, frame in trace:
        for m in decoders.setdefault(index, fp.Decoder()).feed(frame):
            if type(m) is not fp.State:
                continue
            value = (m.left, m.centre, m.right, m.locked)
            if last.get(index) is not None and value != last[index] and since <= t <= until:
                out[(index, m.seq)] = t
            last[index] = value
    return out


# --- the two readers ---------------------------------------------------------------------------

def _baseline(emu: _EmulatorProcess, loop: Any, seconds: float, rate: float, rng: random.Random,
              switch_interval: float | None) -> dict[tuple[int, int], float]:
    """Raw pyserial reader threads: (index, seq) -> arrival time of each State."""
    import serial
    saved = sys.getswitchinterval()
    if switch_interval:
        sys.setswitchinterval(switch_interval)
    sers = [serial.Serial(p, timeout=0.05) for p in emu.ports]
    for s in sers:                          # welcome them so they send State (raw bytes, once)
        s.write(fp.encode(fp.Welcome(*fp.PROTOCOL_VERSION, True, "")))
    stop = threading.Event()
    chunks: list[list[tuple[float, bytes]]] = [[] for _ in sers]

    def reader(i: int) -> None:
        ser, rec, clock = sers[i], chunks[i], time.monotonic
        while not stop.is_set():
            data = ser.read(ser.in_waiting or 1)
            if data:
                rec.append((clock(), data))

    threads = [threading.Thread(target=reader, args=(i,), daemon=True) for i in range(len(sers))]
    for th in threads:
        th.start()
    time.sleep(0.1)
    driver = threading.Thread(target=_changes, args=(emu, len(sers), seconds, rate, rng, stop), daemon=True)
    driver.start()
    while driver.is_alive():
        loop.frame()
    time.sleep(0.2)
    stop.set()
    for th in threads:
        th.join(1)
    for s in sers:
        s.close()
    sys.setswitchinterval(saved)
    arrivals = {}
    for i, rec in enumerate(chunks):
        decoder = fp.Decoder()
        for t, data in rec:
            for m in decoder.feed(data):
                if type(m) is fp.State:
                    arrivals[(i, m.seq)] = t
    return arrivals


def _hub(emu: _EmulatorProcess, loop: Any, seconds: float, rate: float, rng: random.Random,
         switch_interval: float | None) -> dict[tuple[int, int], float]:
    """A Hub on the same ports: (index, seq) -> time of its WheelsChanged event."""
    from bitbox.controllers import ControllersConfig
    from bitbox.events import Connected, WheelsChanged
    from bitbox.hub import Hub
    index = {cid: i for i, cid in enumerate(emu.ids)}
    arrivals = {}
    hub = Hub(config=ControllersConfig(), switch_interval=switch_interval)
    for p in emu.ports:
        hub.add_url(p)
    with hub:
        connected: set[int] = set()                      # handshakes
        deadline = time.monotonic() + 3.0
        while len(connected) < len(emu.ports) and time.monotonic() < deadline:
            connected.update(e.seat for e in hub.poll(0.05) if isinstance(e, Connected))
        stop = threading.Event()
        driver = threading.Thread(target=_changes, args=(emu, len(emu.ports), seconds, rate, rng, stop), daemon=True)
        driver.start()
        while driver.is_alive():
            loop.frame()
            for e in hub.poll():
                if isinstance(e, WheelsChanged) and e.seq is not None:
                    arrivals[(index[e.controller_id], e.seq)] = e.t
        time.sleep(0.2)
        for e in hub.poll():
            if isinstance(e, WheelsChanged) and e.seq is not None:
                arrivals[(index[e.controller_id], e.seq)] = e.t
    return arrivals


def _percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0, "p50_ms": float("nan"), "p99_ms": float("nan"), "max_ms": float("nan")}
    qs = statistics.quantiles(values, n=100, method="inclusive") if len(values) > 1 else [values[0]] * 99
    return {"n": len(values), "p50_ms": round(qs[49] * 1000, 3), "p99_ms": round(qs[98] * 1000, 3),
            "max_ms": round(max(values) * 1000, 3)}


def run(seconds: float = 8.0, controllers: int = 6, rate: float = 150.0, seed: int = 1,
        switch_interval: float | None = None, modes: Sequence[str] = ("idle", "busy"),
        rounds: int = 2, render_load: int = 2, keep_samples: bool = False, quick: bool = False,
        log: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """Measure; returns {mode: {"baseline": {...}, "hub": {...}, "added_p50_ms", "added_p99_ms"}},
    each with n, p50_ms, p99_ms, max_ms, missing; plus "render_ms" (CPU per frame in busy
    mode), "fps" and "switch_interval_ms". Each of baseline and hub gets ``seconds`` per mode,
    in ``rounds`` alternating blocks (so slow drifts of the machine hit both alike).
    ``switch_interval`` None: the hub's default, used for both readers; False: Python's.
    ``quick``: one block per mode (the benchmark suite's --quick)."""
    from bitbox.hub import DEFAULT_SWITCH_INTERVAL
    interval = DEFAULT_SWITCH_INTERVAL if switch_interval is None else switch_interval
    rng = random.Random(seed)
    if quick:
        rounds = 1
    block = seconds / rounds
    results: dict[str, Any] = {"controllers": controllers, "seconds": seconds, "rate": rate,
                               "switch_interval_ms": interval * 1000 if interval else None}
    with tempfile.TemporaryDirectory() as tmp:
        emu = _EmulatorProcess(controllers, Path(tmp) / "trace.jsonl")
        time.sleep(1.0)                                  # let the emulator settle (imports, first Hellos)
        try:
            phases = []
            for mode in modes:
                loop: Renderer | _Idle = Renderer(load=render_load) if mode == "busy" else _Idle()
                try:
                    for k in range(rounds):
                        for who, fn in (("baseline", _baseline), ("hub", _hub)):
                            log(f"{mode}: {who} {k + 1}/{rounds} ...")
                            t0 = time.monotonic()
                            arrivals = fn(emu, loop, block, rate, rng, interval)
                            phases.append((mode, who, t0, time.monotonic(), arrivals))
                    if isinstance(loop, Renderer):
                        results["render_ms"] = round(loop.busy_s / max(1, loop.frames) * 1000, 2)
                        results["fps"] = round(loop.frames / max(loop.wall_s, 1e-9), 1)
                finally:
                    loop.close()
        finally:
            trace = emu.stop()
    samples: dict[tuple[str, str], list[float]] = {}
    missing: dict[tuple[str, str], int] = {}
    for mode, who, t0, t1, arrivals in phases:
        written = _written_changes(trace, t0, t1)
        samples.setdefault((mode, who), []).extend(arrivals[k] - t for k, t in written.items() if k in arrivals)
        missing[(mode, who)] = missing.get((mode, who), 0) + sum(1 for k in written if k not in arrivals)
    for (mode, who), lat in samples.items():
        entry: dict[str, Any] = dict(_percentiles(lat))
        entry["missing"] = missing[(mode, who)]
        if keep_samples:
            entry["samples_ms"] = [round(x * 1000, 4) for x in lat]
        results.setdefault(mode, {})[who] = entry
    for mode in modes:
        r = results[mode]
        r["added_p50_ms"] = round(r["hub"]["p50_ms"] - r["baseline"]["p50_ms"], 3)
        r["added_p99_ms"] = round(r["hub"]["p99_ms"] - r["baseline"]["p99_ms"], 3)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bitbox_tools.bench.device", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0,
                        help="of measuring for each of baseline/hub x idle/busy (default 8)")
    parser.add_argument("--rounds", type=int, default=2, help="alternating blocks per mode (default 2)")
    parser.add_argument("--controllers", type=int, default=6)
    parser.add_argument("--rate", type=float, default=150.0, help="wheel changes per second, all controllers")
    parser.add_argument("--render-load", type=int, default=2, help="scenes drawn per busy frame (default 2)")
    parser.add_argument("--switch-interval-ms", type=float,
                        help="interpreter switch interval for both readers (default: the hub's); 0 = leave at 5 ms")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    interval = None if args.switch_interval_ms is None else (args.switch_interval_ms / 1000 or False)
    res = run(args.seconds, args.controllers, args.rate, switch_interval=interval, rounds=args.rounds,
              render_load=args.render_load, log=lambda s: print(s, file=sys.stderr, flush=True))
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    print(f"{res['controllers']} emulated controllers on pseudo-terminals, heartbeats on, "
          f"{args.rate:g} changes/s, {res['seconds']:g} s per phase, switch interval "
          f"{res['switch_interval_ms'] or 5:g} ms")
    if "render_ms" in res:
        print(f"busy main thread: pygame frames at {res['fps']} fps, {res['render_ms']} ms of rendering each")
    print(f"{'':6} {'':9} {'n':>5} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for mode in ("idle", "busy"):
        if mode not in res:
            continue
        for who in ("baseline", "hub"):
            r = res[mode][who]
            print(f"{mode:6} {who:9} {r['n']:5d} {r['p50_ms']:8.3f} {r['p99_ms']:8.3f} {r['max_ms']:8.3f}"
                  + (f"  ({r['missing']} missing)" if r["missing"] else ""))
        print(f"{mode:6} {'added':9} {'':5} {res[mode]['added_p50_ms']:8.3f} {res[mode]['added_p99_ms']:8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
