"""The benchmark suite: every speed figure the project claims, from one command.

    python -m bitbox_tools.bench                 # everything (about a minute)
    python -m bitbox_tools.bench --quick         # shorter runs, rougher figures
    python -m bitbox_tools.bench --only engine,codec
    python -m bitbox_tools.bench --json          # the rows as JSON too
    python -m bitbox_tools.bench --only engine --instructions f7bfeb9   # + instructions a game
    python -m bitbox_tools.bench --only startup --instructions f7bfeb9  # + instructions to the first frame

Each row is a figure, a baseline measured in the same run, their ratio, the target and
whether it is met; a part of the project that is not there yet gives a "not available"
row saying why instead of stopping the suite. docs/bench.md explains every row.
"""
from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from dataclasses import asdict, dataclass
from typing import Any, Callable, Sequence

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@dataclass
class Row:
    name: str
    figure: str = ""
    baseline: str = ""
    ratio: str = ""
    target: str = ""
    ok: bool | None = None          # None: no verdict (not available, or no target)
    note: str = ""
    value: float | None = None      # the figure as a number, for --json
    baseline_value: float | None = None

    @property
    def result(self) -> str:
        if self.ok is None:
            return "n/a"
        return "PASS" if self.ok else "FAIL"


def not_available(name: str, why: str, target: str = "") -> Row:
    return Row(name, figure=f"not available: {why}", target=target)


def _kwargs(fn: Callable, wanted: dict[str, Any]) -> dict[str, Any]:
    """The subset of ``wanted`` that ``fn`` accepts."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {}
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return dict(wanted)
    return {k: v for k, v in wanted.items() if k in params}


def _import(module: str):
    """Import a benchmark module, or return the reason it cannot be used."""
    import importlib
    try:
        return importlib.import_module(module), ""
    except ModuleNotFoundError as exc:
        if exc.name and (exc.name == module or module.startswith(exc.name + ".")):
            return None, f"{module} is not written yet"
        return None, f"{module} needs {exc.name}, which is missing"
    except Exception as exc:                                        # noqa: BLE001
        return None, f"{module} fails to import: {type(exc).__name__}: {exc}"


# --------------------------------------------------------------------------- rows

# --instructions [REV]: None, or the revision to compare with ("": none); see engine_rows.
INSTRUCTIONS: dict[str, str | None] = {"against": None}


def engine_rows(quick: bool) -> list[Row]:
    """Rules engine: full 6-player games with random bots per second, one core."""
    from . import engine
    rows = []
    rev = INSTRUCTIONS["against"]
    if rev is not None:
        name = "engine: instructions a game (callgrind)"
        try:
            now, before = engine.print_instructions(rev, games=50 if quick else 100)
        except RuntimeError as exc:
            rows.append(not_available(name, str(exc)))
        else:
            rows.append(Row(name, figure=f"{now:,.0f}", value=now,
                            baseline=f"{before:,.0f} ({rev})" if before else "",
                            ratio=f"{now / before:.3f}" if before else "",
                            target=f"<= {rev}'s" if before else "", ok=now <= before if before else None,
                            baseline_value=before, note="6 players, random bots, seeds from 0, PYTHONHASHSEED=0"))
    r = engine.run(seconds=1.0 if quick else 4.0)
    return rows + [Row("engine: 6-player random games", figure=f"{r['games_per_s']:,.0f} games/s",
                baseline=f"{r['baseline_games_per_s']:,.0f} games/s (the bots' decisions alone, no rules)",
                ratio=f"{r['ratio']:.3f}", target=f">= {engine.TARGET:,.0f} games/s",
                ok=r["games_per_s"] >= engine.TARGET, value=r["games_per_s"],
                baseline_value=r["baseline_games_per_s"],
                note=f"{r['ms_per_game']:.2f} ms a game over {r['games']} games")]


#: Research and scale targets (ratios in one run): an environment plays at least half as many
#: games a second as the protocol loop; ``bitbox simulate`` on one worker at least 0.8 of the
#: bare engine loop; Last One Alive's engine at least as fast as Outspeed's (5 players each).
ENV_TARGET = 0.5
SIMULATE_TARGET = 0.8
LOA_ENGINE_TARGET = 1.0


def lastonealive_rows(quick: bool) -> list[Row]:
    """Last One Alive engine: 5-player random games per second, next to Outspeed's."""
    name = "lastonealive: 5-player random games"
    mod, why = _import("bitbox_tools.bench.lastonealive")
    if mod is None:
        return [not_available(name, why)]
    r = mod.run(seconds=1.0 if quick else 3.0)
    return [Row(name, figure=f"{r['games_per_s']:,.0f} games/s",
                baseline=f"{r['baseline_games_per_s']:,.0f} games/s (Outspeed, 5 players, same run)",
                ratio=f"{r['ratio']:.3f}", target=f">= {LOA_ENGINE_TARGET:g}", ok=r["ratio"] >= LOA_ENGINE_TARGET,
                value=r["games_per_s"], baseline_value=r["baseline_games_per_s"],
                note=f"{r['ms_per_game']:.2f} ms a game over {r['games']} games, "
                     f"{r['decisions_per_game']:.0f} decisions a game")]


def research_rows(quick: bool) -> list[Row]:
    """Research and scale: environment steps against the engine; simulate on 1, 2 workers and Ray."""
    names = ("research: Outspeed ParallelEnv", "research: Last One Alive AECEnv", "simulate: 1 worker",
             "simulate: 2 workers", "simulate: Ray pool", "simulate: cost by games", "simulate: cost by players")
    mod, why = _import("bitbox_tools.bench.research")
    if mod is None:
        return [not_available(n, why) for n in names]
    from bitbox.research import missing
    if missing():
        return [not_available(n, str(missing())) for n in names]
    r = mod.run(quick=quick)
    rows = []
    for e, name in zip(r["env"], names):
        rows.append(Row(name, figure=f"{e['env_steps_per_s']:,.0f} steps/s ({e['env_games_per_s']:,.0f} games/s)",
                        baseline=f"{e['engine_games_per_s']:,.0f} games/s (engine + cartridge + random bots, no env)",
                        ratio=f"{e['ratio']:.3f}", target=f">= {ENV_TARGET:g}", ok=e["ratio"] >= ENV_TARGET,
                        value=e["env_steps_per_s"], baseline_value=e["engine_games_per_s"],
                        note=f"{e['players']} players, {e['steps_per_game']:.0f} steps a game, uniform random "
                             f"actions under the mask; ratio = env games/s / engine games/s"))
    s = r["simulate"]
    base = s["engine_games_per_s"]
    for label, name in (("1 worker", names[2]), ("2 workers", names[3]), ("ray pool", names[4])):
        if label not in s:
            rows.append(not_available(name, s.get("ray_missing") or "not measured"))
            continue
        note = f"{s['games']} Outspeed games, 4 random players, {s['cores']} cores; records identical to 1 worker"
        if label == "1 worker":
            proto = s["protocol_games_per_s"]
            note = (f"{s['games']} Outspeed games, 4 random players, bitbox simulate's path (the cartridge's playout; "
                    f"records checked identical to the protocol's); the engine loop plays the same games (same "
                    f"winners); the same games through the protocol alone: {proto:,.0f} games/s (protocol / engine "
                    f"{proto / base:.2f}, simulate / protocol {s[label] / proto:.2f})")
            cpu = s.get("cpu_games_per_s")
            if cpu:
                note += (f"; by CPU time (this process's, less moved by the machine's load): simulate / engine "
                         f"{cpu['1 worker'] / cpu['engine']:.2f}, protocol / engine {cpu['protocol'] / cpu['engine']:.2f}")
        if label == "ray pool":
            note += f"; a local Ray instance ({s['ray_cpus']} CPUs) started in {s['ray_start_s']:.1f} s, not counted"
        target = {"target": f">= {SIMULATE_TARGET:g}", "ok": s[label] / base >= SIMULATE_TARGET} \
            if label == "1 worker" else {}
        rows.append(Row(name, figure=f"{s[label]:,.0f} games/s",
                        baseline=f"{base:,.0f} games/s (the same games: the rules engine and its bots in a loop)",
                        ratio=f"{s[label] / base:.2f}", value=s[label], baseline_value=base, note=note,
                        **target))
    if INSTRUCTIONS["against"] is not None:     # --instructions: simulate's loops counted by callgrind
        name = "simulate: instructions a game (callgrind)"
        try:
            counts = mod.print_instructions(100 if quick else 200)
        except RuntimeError as exc:
            rows.append(not_available(name, str(exc)))
        else:
            now, engine_n = counts["simulate"], counts["engine loop"]
            rows.append(Row(name, figure=f"{now:,.0f}", value=now, baseline=f"{engine_n:,.0f} (the engine loop)",
                            baseline_value=engine_n, ratio=f"{engine_n / now:.3f}", target=f">= {SIMULATE_TARGET:g}",
                            ok=engine_n / now >= SIMULATE_TARGET,
                            note=f"the same games: protocol loop {counts['protocol loop']:,.0f}, simulate through "
                                 f"the protocol only {counts['simulate, protocol only']:,.0f}; ratio = engine / simulate"))
    g = r["growth"]
    rows.append(Row(names[5], figure=", ".join(f"{n}: {ms:.2f}" for n, ms in g["games"].items()) + " ms a game",
                    note="Outspeed, 4 random players, 1 worker: a run costs games x the cost of a game"))
    rows.append(Row(names[6], figure=", ".join(f"{game[:4]} {p}p {ms:.2f}" for (game, p), ms in g["players"].items())
                    + " ms a game", note="every player count of each game, random bots, 1 worker"))
    return rows


def display_rows(quick: bool) -> list[Row]:
    """Display: one 1920x1080 frame headless, full redraw and typical dirty-rect update."""
    from . import display
    names = ("display: full redraw 1920x1080", "display: typical update (dirty rects)")
    targets = (f"< {display.TARGET_FULL_MS:g} ms", f"< {display.TARGET_UPDATE_MS:g} ms")
    for module in ("outspeed.display", "outspeed.display.render"):
        mod, why = _import(module)
        if mod is None:
            return [not_available(n, why, t) for n, t in zip(names, targets)]
    try:
        r = display.run(frames=30 if quick else 100)
    except Exception as exc:                                        # noqa: BLE001
        why = f"the display raised {type(exc).__name__}: {exc}"
        return [not_available(n, why, t) for n, t in zip(names, targets)]
    base = f"{r['baseline_ms']:.2f} ms (background + 50 sprites)"
    return [
        Row(names[0], figure=f"{r['full_ms']:.2f} ms", baseline=base, ratio=f"{r['full_ratio']:.1f}x",
            target=targets[0], ok=r["full_ms"] < display.TARGET_FULL_MS, value=r["full_ms"],
            baseline_value=r["baseline_ms"], note=f"median, {r['views']} views of a real game"),
        Row(names[1], figure=f"{r['update_ms']:.2f} ms", baseline=base, ratio=f"{r['update_ratio']:.1f}x",
            target=targets[1], ok=r["update_ms"] < display.TARGET_UPDATE_MS, value=r["update_ms"],
            baseline_value=r["baseline_ms"],
            note=f"one controller locks in; {100 * r['dirty_share']:.0f} % of the screen redrawn"),
    ]


def codec_rows(quick: bool) -> list[Row]:
    """Codec: decode frames/s against the split-and-checksum baseline (bitbox_tools.bench.codec)."""
    name, target = "codec: decode", ">= 500,000 frames/s"
    mod, why = _import("bitbox_tools.bench.codec")
    if mod is None or not hasattr(mod, "run"):
        return [not_available(name, why or "bitbox_tools.bench.codec has no run()", target)]
    try:
        r = mod.run(**_kwargs(mod.run, {"seconds": 0.5 if quick else 2.0}))
        goal = float(r.get("targets", {}).get("frames_per_s", 500_000))
        return [Row(name, figure=f"{r['frames_per_s']:,.0f} frames/s",
                    baseline=f"{r['baseline_frames_per_s']:,.0f} frames/s (split + COBS + CRC, no objects)",
                    ratio=f"{r['ratio']:.3f}", target=f">= {goal:,.0f} frames/s", ok=r["frames_per_s"] >= goal,
                    value=r["frames_per_s"], baseline_value=r["baseline_frames_per_s"],
                    note=f"{r.get('frame_bytes', '?')}-byte frames read {r.get('chunk_bytes', '?')} bytes at a time")]
    except Exception as exc:                                        # noqa: BLE001
        return [not_available(name, f"bitbox_tools.bench.codec.run raised {type(exc).__name__}: {exc}", target)]


def device_rows(quick: bool) -> list[Row]:
    """Device: wheel change to hub event latency over pseudo-terminals, p50/p99, against raw
    pyserial reads, idle and while rendering (bitbox_tools.bench.device)."""
    name, target = "device: wheel-to-event latency", "added p99 < 1 ms"
    mod, why = _import("bitbox_tools.bench.device")
    if mod is None or not hasattr(mod, "run"):
        return [not_available(name, why or "bitbox_tools.bench.device has no run()", target)]
    try:
        r = mod.run(**_kwargs(mod.run, {"quick": quick, "seconds": 1.5 if quick else 4.0}))
    except Exception as exc:                                        # noqa: BLE001
        return [not_available(name, f"bitbox_tools.bench.device.run raised {type(exc).__name__}: {exc}", target)]
    return device_result_rows(r, name, target)


def device_result_rows(r: Any, name: str, target: str) -> list[Row]:
    """Rows from :func:`bitbox_tools.bench.device.run`'s result: per mode ("idle", and "busy":
    the main thread rendering at 60 frames/s), ``{"baseline": {p50_ms, p99_ms, ...}, "hub":
    {...}, "added_p50_ms", "added_p99_ms"}``. A list of row dicts under ``"rows"`` is taken
    as is."""
    if isinstance(r, dict) and isinstance(r.get("rows"), list):
        return [Row(**{k: v for k, v in row.items() if k in Row.__dataclass_fields__}) for row in r["rows"]]
    labels = {"idle": "idle", "busy": "while rendering"}
    rows = []
    for mode, label in labels.items():
        d = r.get(mode) if isinstance(r, dict) else None
        if d is None:
            continue
        try:
            hub, base = d["hub"], d["baseline"]
            p50, p99 = float(hub["p50_ms"]), float(hub["p99_ms"])
            b50, b99 = float(base["p50_ms"]), float(base["p99_ms"])
        except (KeyError, TypeError, ValueError):
            keys = ", ".join(sorted(map(str, d))) if isinstance(d, dict) else type(d).__name__
            rows.append(not_available(f"{name} ({label})", f"unrecognised result ({keys})", target))
            continue
        added = float(d.get("added_p99_ms", p99 - b99))
        missing = hub.get("missing", 0) or 0
        extra = f"; render {r['render_ms']} ms a frame at {r.get('fps', '?')} fps" if mode == "busy" and "render_ms" in r else ""
        rows.append(Row(f"{name} ({label})", figure=f"p50 {p50:.3f} ms, p99 {p99:.3f} ms",
                        baseline=f"p50 {b50:.3f} ms, p99 {b99:.3f} ms (raw pyserial reads)",
                        ratio=f"{p99 / b99:.2f}" if b99 else "", target=target,
                        ok=added < 1.0 and not missing, value=p99, baseline_value=b99,
                        note=f"added p50 {d.get('added_p50_ms', p50 - b50):.3f} ms, added p99 {added:.3f} ms, "
                             f"{hub.get('n', '?')} changes" + (f", {missing} missing" if missing else "") + extra))
    return rows or [not_available(name, "the device benchmark returned no idle or busy figures", target)]


def startup_rows(quick: bool) -> list[Row]:
    """`outspeed play` from start to first frame."""
    from . import startup
    name, target = "outspeed play: start to first frame", f"< {startup.TARGET_S * 1000:.0f} ms"
    rows = startup_instruction_rows(INSTRUCTIONS["against"], quick)
    try:
        r = startup.run(runs=2 if quick else 5)
    except Exception as exc:                                        # noqa: BLE001
        return rows + [not_available(name, f"{type(exc).__name__}: {exc}", target)]
    base = (f"{r['baseline_seconds'] * 1000:.0f} ms (python + pygame + set_mode + flip)"
            if r["baseline_seconds"] is not None else "")
    if r["seconds"] is None:
        row = not_available(name, r["why"], target)
        row.baseline = base
        return rows + [row]
    return rows + [Row(name, figure=f"{r['seconds'] * 1000:.0f} ms", baseline=base,
                ratio=f"{r['ratio']:.1f}x" if r["ratio"] else "", target=target,
                ok=r["seconds"] < startup.TARGET_S, value=r["seconds"] * 1000,
                baseline_value=(r["baseline_seconds"] or 0) * 1000,
                note=f"`{r['command']}`, median of {r['runs']} fresh processes; "
                     f"first frame seen at {r['first_frame_by']}()")]


def startup_instruction_rows(rev: str | None, quick: bool) -> list[Row]:
    """With --instructions REV: `outspeed play`'s instructions (callgrind), Python function
    calls (cProfile) and CPU time to the first frame, this source against REV in one run."""
    from . import startup
    if rev is None:
        return []
    name = "outspeed play: instructions to first frame (callgrind)"
    try:
        if not rev:
            now = startup.counts()
            print(f"startup: {now['instructions']:,} instructions, {now['calls']:,} Python function calls "
                  f"to the first frame")
            return [Row(name, figure=f"{now['instructions']:,}", value=now["instructions"],
                        note=f"{now['calls']:,} Python function calls; PYTHONHASHSEED=0")]
        r = startup.print_comparison(rev, runs=4 if quick else 10)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        return [not_available(name, str(exc))]
    now, before = r["now"], r["before"]
    rows = []
    for label, key, unit in (("instructions to first frame (callgrind)", "instructions", ""),
                             ("Python function calls to first frame", "calls", ""),
                             ("CPU time to first frame (median)", "cpu_ms", " ms")):
        rows.append(Row(f"outspeed play: {label}", figure=f"{now[key]:,.0f}{unit}", value=now[key],
                        baseline=f"{before[key]:,.0f}{unit} ({rev})", baseline_value=before[key],
                        ratio=f"{now[key] / before[key]:.3f}", target=f"<= {rev}'s",
                        ok=now[key] <= before[key] if key != "cpu_ms" else None,    # times move with the load
                        note=f"{r['runs']} alternating runs each for the times; load average {r['load'][0]:.2f}"))
    return rows


def table_rows(quick: bool) -> list[Row]:
    """Table: a headless game of bots only at --speed 0, each game: wall time within 1.5 x CPU."""
    from . import table
    rows = []
    for r in table.run(runs=1 if quick else 3):
        rows.append(Row(f"table: {r['game']} bots-only game at --speed 0", figure=f"{r['wall']:.2f} s wall",
                        baseline=f"{r['cpu']:.2f} s CPU (user + system)", ratio=f"{r['ratio']:.2f}",
                        target=f"<= {table.TARGET_RATIO:g}", ok=r["ratio"] <= table.TARGET_RATIO, value=r["wall"],
                        baseline_value=r["cpu"],
                        note=f"median of {r['runs']}; main thread blocked {r['blocked']:.3f} s, waiting for a "
                             f"processor {r['queued']:.2f} s; (CPU + blocked) / CPU {r['unloaded']:.2f}; "
                             f"load average {r['load']:.1f}"))
    return rows


SECTIONS: dict[str, Callable[[bool], list[Row]]] = {
    "engine": engine_rows,
    "lastonealive": lastonealive_rows,
    "research": research_rows,
    "display": display_rows,
    "codec": codec_rows,
    "device": device_rows,
    "startup": startup_rows,
    "table": table_rows,
}


# --------------------------------------------------------------------------- output

def summary_table(rows: Sequence[Row]) -> str:
    headers = ["benchmark", "figure", "baseline", "ratio", "target", "result"]
    cells = [[r.name, r.figure, r.baseline, r.ratio, r.target, r.result] for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h) for i, h in enumerate(headers)]

    def line(cs: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cs, widths)) + " |"

    out = [line(headers), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(c) for c in cells]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bitbox_tools.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    from bitbox.console import add_version
    add_version(parser)
    parser.add_argument("--quick", action="store_true", help="shorter runs (rougher figures)")
    parser.add_argument("--only", metavar="NAMES", help=f"comma-separated sections: {','.join(SECTIONS)}")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON to FILE ('-' for stdout)")
    parser.add_argument("--instructions", nargs="?", const="", metavar="REV",
                        help="engine: also count instructions a game with valgrind (about 30 s a source); "
                             "startup: instructions and Python calls to the first frame (about 30 s a source); "
                             "and for the git revision REV in the same run if given (e.g. f7bfeb9)")
    args = parser.parse_args(argv)
    INSTRUCTIONS["against"] = args.instructions
    names = list(SECTIONS)
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in names if n not in SECTIONS]
        if unknown or not names:
            parser.error(f"unknown section {unknown[0] if unknown else '(none)'!r} in --only "
                         f"(known: {', '.join(SECTIONS)})")

    print(f"bitbox benchmarks{' (quick)' if args.quick else ''}: Python {platform.python_version()} "
          f"on {platform.machine()}, {os.cpu_count()} cores, {platform.system()}")
    rows: list[Row] = []
    failed: list[str] = []
    for name in names:
        print(f"\n== {name}: {(SECTIONS[name].__doc__ or '').strip().splitlines()[0]}", flush=True)
        t0 = time.perf_counter()
        try:
            got = SECTIONS[name](args.quick)
        except Exception as exc:                                    # noqa: BLE001
            # A section that raises is a bug of the suite (a missing part gives a "not available"
            # row instead): one line naming it and where it was raised, a FAIL row, exit 1.
            where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
            at = f" at {os.path.basename(where.filename)}:{where.lineno}" if where else ""
            why = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}".rstrip(": ")
            print(f"{parser.prog}: the {name} section failed ({why}{at})", file=sys.stderr, flush=True)
            failed.append(name)
            got = [Row(name, figure=f"failed: {why}", target="runs", ok=False, note=f"raised{at}")]
        for r in got:
            print(f"  {r.name}: {r.figure}" + (f"  | baseline {r.baseline}" if r.baseline else "")
                  + (f"  | ratio {r.ratio}" if r.ratio else "") + (f"  | target {r.target}: {r.result}" if r.target else "")
                  + (f"\n    ({r.note})" if r.note else ""))
        print(f"  [{time.perf_counter() - t0:.1f} s]", flush=True)
        rows += got

    print("\nSummary\n")
    print(summary_table(rows))
    if args.json:
        data = json.dumps([{**asdict(r), "result": r.result} for r in rows], indent=1)
        if args.json == "-":
            print(data)
        else:
            with open(args.json, "w", encoding="utf-8") as f:
                f.write(data + "\n")
    if failed:
        print(f"{parser.prog}: {len(failed)} section{'s' if len(failed) > 1 else ''} failed: {', '.join(failed)}",
              file=sys.stderr)
        return 1
    return 0
