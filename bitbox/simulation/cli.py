"""The parts every ``simulate`` command shares (``bitbox simulate GAME``, ``outspeed simulate``,
``lastonealive simulate``): one place for the common options and what they do.

* :func:`add_options`: ``--games``, ``--seed``, ``--workers``, ``--ray [ADDRESS]``, ``--out``
  (for a game that writes charts) and ``--quiet``;
* :func:`add_search_options`, :func:`search_budget`: ``--think MS`` and ``--rollouts N``, the
  search bot's budget (``--bots search,...`` in any game);
* :func:`run`: checks them (one line, exit 2), caps ``--workers`` at the usable cores with a
  one-line warning, says in one line when ``--ray`` needs Ray or its address does not answer,
  prepares the ``--out`` folder, runs the game's simulation with SIGTERM stopping it as Ctrl-C
  does ("PROG: interrupted", exit 130 for Ctrl-C, 143 for SIGTERM, the workers ended with it),
  then prints the game's report and writes its charts, ``results.json`` and ``games.csv``.

A game adds only its own options (players, bots, variants…) and gives :func:`run` its own
checks and its simulation.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, Protocol, TextIO

from bitbox.i18n import counted

from .pool import Terminated, WorkerLost, reap_workers

RAY_HELP = ("run the games on Ray's pool: with no ADDRESS a Ray instance on this machine for the run, "
            "else the cluster at ADDRESS (auto, HOST:6379, ray://HOST:10001); same report as a local run. "
            "Needs the extra: pip install \".[cluster]\" (docs/research.md)")


class Refused(Exception):
    """Raised by a game's simulation before it starts (its contents cannot be loaded…): one line."""


class Result(Protocol):
    def report(self) -> str: ...


#: The most games one run plays (far above any real run; a bigger count is a typo, refused).
MAX_GAMES = 10**9


def add_options(p: argparse.ArgumentParser, games: int, out: bool = True) -> None:
    """The common options, on the parser of a ``simulate`` command (``games``: the default
    number of games; ``out``: whether the game writes charts and data into ``--out DIR``)."""
    from bitbox.table.command import seed_arg
    p.add_argument("--games", type=int, default=games, metavar="N",
                   help=f"games to play (default {games}, at most {MAX_GAMES:,})")
    p.add_argument("--seed", type=seed_arg, default=0, metavar="S",
                   help="run seed, a whole number from 0 to 2^63 - 1, as play's (default 0)")
    p.add_argument("--workers", type=int, default=None, metavar="W",
                   help=f"worker processes (default 1; this machine has {os.cpu_count() or 1} cores; "
                        "not with --ray, whose pool has a process per CPU of the cluster)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS", help=RAY_HELP)
    if out:
        p.add_argument("--out", metavar="DIR",
                       help="write PNG charts, results.json and games.csv (a row per game) into DIR")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no status lines (errors still shown)")


def add_search_options(p: argparse.ArgumentParser) -> None:
    """``--think MS`` and ``--rollouts N``: the search bot's budget per decision
    (:mod:`bitbox.bots.search`), for a ``simulate`` whose ``--bots`` names ``search``."""
    from bitbox.bots.search import DEFAULT_ROLLOUTS
    p.add_argument("--think", type=int, metavar="MS",
                   help="the search bot's time per decision, in milliseconds (not reproducible: the figures "
                        "then depend on the machine); with --rollouts, whichever ends first")
    p.add_argument("--rollouts", type=int, metavar="N",
                   help=f"the search bot's rollouts per decision (reproducible; default {DEFAULT_ROLLOUTS} "
                        "without --think)")


def search_budget(args: argparse.Namespace) -> Any:
    """The search bot's :class:`~bitbox.bots.search.Budget` from ``--think``/``--rollouts``;
    ValueError (one line) for a bad value."""
    from bitbox.analysis import MAX_ROLLOUTS
    from bitbox.bots.search import MAX_THINK_MS, Budget
    think, rollouts = getattr(args, "think", None), getattr(args, "rollouts", None)
    if think is not None and think < 1:
        raise ValueError(f"--think must be 1 ms or more, not {think}")
    if think is not None and think > MAX_THINK_MS:
        raise ValueError(f"--think must be at most {MAX_THINK_MS} ms, not {think}")
    if rollouts is not None and rollouts < 1:
        raise ValueError(f"--rollouts must be 1 or more, not {rollouts}")
    if rollouts is not None and rollouts > MAX_ROLLOUTS:
        raise ValueError(f"--rollouts must be at most {MAX_ROLLOUTS}, not {rollouts}")
    return Budget.of(rollouts, think)


def fail(prog: str, message: str) -> int:
    print(f"{prog}: {message}", file=sys.stderr)
    return 2


def cap_workers(prog: str, workers: int) -> int:
    """More worker processes than cores only adds interpreters to start and switch between:
    capped at the cores, with a one-line warning."""
    from .pool import usable_cores
    cores = usable_cores()
    if workers > cores:
        print(f"{prog}: --workers {workers} is more than the {counted(cores, 'core', 'cores')} here: using {cores}", file=sys.stderr)
        return cores
    return workers


def _raise_terminated(signum: int, frame: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated()


class sigterm_interrupts:
    """SIGTERM stops the run as Ctrl-C does (the workers are ended, one line, no traceback)."""

    def __enter__(self) -> None:
        try:
            self.previous: Any = signal.signal(signal.SIGTERM, _raise_terminated)
        except ValueError:                  # not the main thread
            self.previous = None

    def __exit__(self, *exc: object) -> Literal[False]:
        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)
        return False


RESULTS = "results.json"      # every run's data; its "run" entry says which command wrote which files


def _previous_run(out: Path) -> list[str] | None:
    """``[command, file names...]`` of the run that wrote ``out`` (its ``results.json`` says:
    ``run.command`` and ``run.files``), or None when it holds no run of ours."""
    try:
        data = json.loads((out / RESULTS).read_text(encoding="utf-8"))
        run = data["run"]
        command, files = run["command"], run["files"]
    except (OSError, ValueError, TypeError, KeyError, RecursionError):
        return None
    if not isinstance(command, str) or not isinstance(files, list) or not all(
            isinstance(f, str) and f and "/" not in f and "\\" not in f and f not in (".", "..") for f in files):
        return None
    return [command, *files]


def _owned(prog: str, out: Path) -> str | None:
    """None when the folder ``out`` is empty or holds a previous run of ``prog`` and nothing
    else (that run's files are replaced), else why it is refused: a run owns its folder, so
    no chart of another run (or another command) is left beside this run's."""
    try:
        entries = sorted(e.name for e in out.iterdir())
    except OSError as exc:
        return f"cannot read --out {out}: {exc.strerror or exc}"
    if not entries:
        return None
    previous = _previous_run(out)
    if previous is None:
        return (f"--out {out} is not empty and holds no earlier simulate run (e.g. {entries[0]!r}): "
                f"choose a new or empty folder")
    command, *files = previous
    if command != prog:
        return (f"--out {out} holds a run of `{command}`, not of `{prog}`: choose a new or empty folder")
    others = [e for e in entries if e not in files and e != RESULTS]
    if others:
        return (f"--out {out} holds files that are not its earlier run's (e.g. {others[0]!r}): "
                f"choose a new or empty folder")
    return None


def _clear_previous(out: Path) -> None:
    """Remove what the previous run of this command wrote into ``out`` (checked by
    :func:`_owned`): this run's files replace them, none is left behind."""
    previous = _previous_run(out)
    for name in (previous[1:] if previous else []):
        path = out / name
        if path.is_file() and not path.is_symlink():
            path.unlink()


def _claim(prog: str, out: Path, files: list[Path]) -> None:
    """Record in ``results.json`` which command wrote which files (what the next run into the
    folder checks and replaces)."""
    path = out / RESULTS
    data = json.loads(path.read_text(encoding="utf-8"))
    data["run"] = {"command": prog, "files": sorted({f.name for f in files} | {RESULTS})}
    path.write_text(json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")


def _prepare_out(prog: str, out: Path) -> str | None:
    """None when ``out`` is a folder to write charts into (created if need be; empty or an
    earlier run of ``prog``), else why not."""
    from bitbox.table.options import short_path
    try:
        exists, is_dir = out.exists(), out.is_dir()
    except OSError as exc:                      # a name too long, a loop of links
        return f"cannot use --out {short_path(str(out))}: {exc.strerror or exc}"
    if exists and not is_dir:
        return f"--out {out} exists and is not a directory"
    if is_dir:
        problem = _owned(prog, out)
        if problem:
            return problem
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return "--out needs matplotlib for the charts (pip install matplotlib)"
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot create --out {short_path(str(out))}: {exc.strerror or exc}"
    if not os.access(out, os.W_OK):
        return f"cannot write into --out {out}"
    return None


def run(prog: str, args: argparse.Namespace, simulate: Callable[[int, TextIO | None, str | None], Any],
        check: Callable[[], str | None] | None = None,
        report: Callable[[Any], str] | None = None, owner: str | None = None) -> int:
    """A ``simulate`` command: the game's ``check()`` (None, or the one line saying what is
    wrong), then the common options checked, then ``simulate(workers, progress stream or None,
    ray address or None)`` (it may raise :class:`Refused`); its result's report printed
    (``report(result)``, else ``result.report()``) and, with ``--out``, ``result.write(out)``.
    ``owner``: the command ``results.json`` names as the folder's owner (default ``prog``: the
    game's own ``outspeed simulate`` also for ``bitbox simulate outspeed``, the same run)."""
    owner = owner or prog
    from .cluster import ClusterError
    problem = check() if check is not None else None    # first: bitbox simulate's names the game first
    if problem:
        return fail(prog, problem)
    if args.games < 1:
        return fail(prog, f"--games must be 1 or more, not {args.games}")
    if args.games > MAX_GAMES:
        return fail(prog, f"--games must be at most {MAX_GAMES:,}, not {args.games}")
    if args.workers is not None and args.workers < 1:
        return fail(prog, f"--workers must be 1 or more, not {args.workers}")
    if args.ray is not None:
        if args.workers is not None:
            return fail(prog, "--workers is not used with --ray: the Ray pool has a process per CPU of the cluster")
        from .cluster import missing
        why = missing()
        if why:
            return fail(prog, why)
    workers = cap_workers(prog, args.workers or 1) if args.ray is None else 1
    given = getattr(args, "out", None)
    out = Path(given) if given else None
    if out is not None:
        problem = _prepare_out(owner, out)
        if problem:
            return fail(prog, problem)
    try:
        with sigterm_interrupts():
            try:
                result = simulate(workers, None if args.quiet else sys.stderr, args.ray)
            finally:
                reap_workers()              # every worker killed and waited for before a word is said
    except KeyboardInterrupt as stop:       # Ctrl-C or SIGTERM: the pool's workers are ended with it
        # (the game's simulation has closed the progress bar: on a terminal the line is ended)
        print(f"{prog}: interrupted", file=sys.stderr)
        return 143 if isinstance(stop, Terminated) else 130
    except (ClusterError, Refused, WorkerLost) as exc:  # --ray: the cluster cannot be reached or joined
        return fail(prog, str(exc))
    print(report(result) if report is not None else result.report())
    if out is not None:
        try:
            _clear_previous(out)
            files = result.write(out)
            _claim(owner, out, files)
        except OSError as exc:
            return fail(prog, f"cannot write into --out {out}: {exc.strerror or exc}")
        print(f"\ncharts and data written to {out}/: {', '.join(f.name for f in files)}")
    return 0


__all__ = ["RAY_HELP", "Refused", "Terminated", "add_options", "add_search_options", "search_budget", "cap_workers", "fail", "run", "sigterm_interrupts"]
