"""The command line: ``python -m bitbox_tools.reliability`` and its internal subcommands."""
from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import logging
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bitbox.discovery import RUNTIME_ENV

from .core import FULL, QUICK, REPO
from .crash import kill_run_main
from .report import CAMPAIGNS, run_campaigns, table_lines, write_report
from .rogues import ROGUES, rogue_main


#: Where the report goes when no --out is given: the current folder, never the committed one.
DEFAULT_OUT = "reliability-report.md"


def report_target(out: str | None, update_report: bool, no_report: bool = False) -> Path | str | None:
    """Where the report is written: ``--out FILE`` (``-``: standard output), ``--update-report``
    (the repository's RELIABILITY.md), else DEFAULT_OUT in the current folder; None: nowhere."""
    if no_report:
        return None
    if update_report:
        committed = REPO / "RELIABILITY.md"
        if not (REPO / "pyproject.toml").is_file():
            raise ValueError(f"--update-report needs the repository (no pyproject.toml in {REPO}); use --out FILE")
        return committed
    if out == "-":
        return "-"
    path = Path(out) if out else Path.cwd() / DEFAULT_OUT
    if path.resolve() == (REPO / "RELIABILITY.md").resolve():
        raise ValueError(f"{path} is the committed report: write it with --update-report")
    if path.is_dir():
        raise ValueError(f"--out {path}: is a folder")
    if not path.parent.is_dir():
        raise ValueError(f"--out {path}: no folder {path.parent}")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["rogues"]:
        p = argparse.ArgumentParser(prog="bitbox_tools.reliability rogues")
        p.add_argument("--kinds", default=",".join(ROGUES))
        p.add_argument("--clone-id", default="0x8B17000000000003")
        p.add_argument("--seconds", type=float)
        a = p.parse_args(argv[1:])
        return rogue_main([k for k in a.kinds.split(",") if k], int(a.clone_id, 0), a.seconds)
    if argv[:1] == ["refusal-run"]:
        from .refusals import refusal_run_main
        p = argparse.ArgumentParser(prog="bitbox_tools.reliability refusal-run")
        p.add_argument("--game", choices=("outspeed", "lastonealive"), required=True)
        p.add_argument("--protocol", default="1.1")
        p.add_argument("--every", type=float, default=0.5)
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--note", required=True)
        p.add_argument("play", nargs=argparse.REMAINDER)
        a = p.parse_args(argv[1:])
        play = a.play[1:] if a.play[:1] == ["--"] else a.play
        return refusal_run_main(a.game, a.protocol, a.every, a.seed, a.note, play)
    if argv[:1] == ["kill-run"]:
        p = argparse.ArgumentParser(prog="bitbox_tools.reliability kill-run")
        p.add_argument("--kill", required=True)
        p.add_argument("--game", choices=("outspeed", "lastonealive"), default="outspeed")
        p.add_argument("--note")
        p.add_argument("play", nargs=argparse.REMAINDER)
        a = p.parse_args(argv[1:])
        play = a.play[1:] if a.play[:1] == ["--"] else a.play
        return kill_run_main(a.kill, a.note, play, a.game)
    p = argparse.ArgumentParser(prog="python -m bitbox_tools.reliability",
                                description="Run the reliability and security campaigns and write their report "
                                "(RELIABILITY.md with --update-report).")
    from bitbox.console import add_version
    add_version(p)
    p.add_argument("--quick", action="store_true", help="small counts (what tests/reliability runs)")
    p.add_argument("--only", help=f"comma-separated campaigns: {', '.join(CAMPAIGNS)}")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--out", metavar="FILE",
                       help=f"write the report to FILE ('-': print it); default: {DEFAULT_OUT} in the current folder")
    where.add_argument("--update-report", action="store_true",
                       help="write the repository's committed RELIABILITY.md (what a release records)")
    where.add_argument("--no-report", action="store_true", help="print the table only")
    p.add_argument("--workdir", help="keep the campaigns' files here (default: a temporary folder)")
    a = p.parse_args(argv)
    counts = dict(QUICK if a.quick else FULL)
    only = [c.strip() for c in a.only.split(",")] if a.only else list(CAMPAIGNS)
    unknown = [c for c in only if c not in CAMPAIGNS]
    if unknown:
        print(f"reliability: unknown campaign {unknown[0]!r} (known: {', '.join(CAMPAIGNS)})", file=sys.stderr)
        return 2
    try:
        target = report_target(a.out, a.update_report, a.no_report)
    except ValueError as exc:
        print(f"reliability: {exc}", file=sys.stderr)
        return 2
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    logging.getLogger("bitbox").propagate = False       # the campaigns' own noise: captured, not printed
    logging.getLogger("bitbox").addHandler(logging.NullHandler())
    started = _dt.datetime.now().astimezone()
    t0 = time.monotonic()
    with (contextlib.nullcontext(a.workdir) if a.workdir else tempfile.TemporaryDirectory(prefix="reliability-")) as wd:
        # the campaigns' own emulators register in a runtime folder of the run's: a `bitbox emulate`
        # someone else runs on the machine is no controller of these games (it was seated as one)
        runtime = Path(wd) / "runtime"
        runtime.mkdir(parents=True, exist_ok=True)
        os.environ[RUNTIME_ENV] = str(runtime)
        results = run_campaigns(counts, Path(wd), only, progress=lambda m: print(m, file=sys.stderr, flush=True))
        if target != "-":
            print("\n".join(table_lines(results)).replace(str(wd), "$TMP"))
        command = "./dev python -m bitbox_tools.reliability" + (" --quick" if a.quick else "") + \
                  (f" --only {a.only}" if a.only else "") + (" --update-report" if a.update_report else "")
        if target is not None:
            try:
                text = write_report(results, counts, None if target == "-" else Path(target), command=command,
                                    started=started, seconds=time.monotonic() - t0, workdir=Path(wd))
            except OSError as exc:
                print(f"reliability: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
                return 2
            if target == "-":
                print(text)
            else:
                print(f"written: {target}", file=sys.stderr)
    return 0 if all(r.ok for v in results.values() for r in v["rows"]) else 1
