"""``python -m bitbox_tools.reliability.cli_fuzz [PREFIX]``: every command and subcommand of
``bitbox``, ``outspeed`` and ``lastonealive`` (walked from their own parsers) with each of
their options given a hostile value in turn: huge, negative, NaN and non-ASCII numbers, empty
strings, control characters, RTL marks, markup, a 5,000-character name, a folder, a named
pipe, ``/dev/zero``, a loop of symbolic links, a file in a missing folder, ``-``.

Each case runs in a child forked from one process that has imported the commands already
(about 10 ms a case instead of a second for a new interpreter), with standard input from
``/dev/null``, its own session, ``HOME``/``XDG_*`` in a scratch folder and a time limit; the
commands that read a journal get one with a finished bot game of their own (played first). A case
is a **finding** when it ends with a traceback, an exit code other than 0 to 3, a usage error
(2) of more than one line, or does not end in time. Findings are printed one a line; the exit
code is 1 when there is any. ``PREFIX`` keeps only the cases whose command line starts with it
(``outspeed tiles``); ``--values`` limits the values tried per option (the first N), for a quick
run. ``flash`` is left out (it writes to a board), and so is ``bitbox game``/``bitbox play``
(the games' own commands are walked instead).

Found with it and fixed (tests/test_red_team.py): a named pipe as a config file blocked every
YAML-reading command, a too-long ``--journal`` was a traceback (and, second round, a YAML file
with a control character and a path ``~name`` of no user were tracebacks), ``bitbox``'s usage errors were
many lines, ``bitbox simulate --players 10**23`` hung, a pipe nobody reads as ``--log-file``
blocked. Linux/macOS only (``os.fork``)."""
from __future__ import annotations

import argparse
import importlib
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

__all__ = ["Case", "Outcome", "cases", "main", "run"]

PROGRAMS = {"bitbox": "bitbox.cli", "outspeed": "outspeed.cli", "lastonealive": "lastonealive.cli"}
SKIP = {"flash", "game", "play"}                    # (bitbox's play and game: the games' commands are walked)
#: Extra options so that a command does as little as possible besides the option under test.
QUIET = {
    "play": ["--headless", "--max-seconds", "3", "--speed", "0", "--players", "3", "--bots", "3"],
    "simulate": ["--games", "2", "--workers", "1"],
    "calibrate": ["--games", "1", "--rollouts", "1", "--points", "1"],
    "analyse": ["--rollouts", "1"],
    "emulate": ["--seconds", "1"],
    "test-controllers": ["--seconds", "1"],
    "monitor": ["--seconds", "1"],
    "identify": ["--wait", "0.5"],
    "diagnose": ["--listen", "0.2"],
    "ports": ["--no-probe"],
}


@dataclass(frozen=True)
class Case:
    program: str
    argv: tuple[str, ...]

    def line(self) -> str:
        return " ".join((self.program, *(a if len(a) <= 60 else a[:40] + f"…({len(a)} chars)" for a in self.argv)))


@dataclass
class Outcome:
    case: Case
    code: int | str                 # the exit code, or "timeout"
    stderr: str

    @property
    def finding(self) -> str | None:
        err = self.stderr.strip()
        if self.code == "timeout":
            return "did not end in time"
        if "Traceback (most recent call last)" in err:
            return "traceback: " + err.splitlines()[-1][:200]
        if self.code not in (0, 1, 2, 3):
            return f"exit code {self.code}"
        if self.code == 2 and len(err.splitlines()) != 1:
            return f"usage error in {len(err.splitlines())} lines"
        return None


def hostile_values(scratch: str) -> list[str]:
    """The values tried for every option (files made in ``scratch``)."""
    for name in ("dir", "cwd"):
        os.makedirs(os.path.join(scratch, name), exist_ok=True)
    fifo, loop = os.path.join(scratch, "fifo"), os.path.join(scratch, "loop1")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    if not os.path.islink(loop):
        os.symlink(os.path.join(scratch, "loop2"), loop)
        os.symlink(loop, os.path.join(scratch, "loop2"))
    open(os.path.join(scratch, "empty"), "w").close()
    with open(os.path.join(scratch, "escape.yaml"), "w") as f:      # a control character YAML refuses
        f.write('journal: "a\x1b[2Jb"\n')
    return ["", "-1", "0", "nan", "inf", "1e308", "9" * 23, "\u0663", "\uff11", "0x10", "\u202eevil",
            "a\x1b[31mb\x07", "<b>x</b>[red]y[/red]", "A" * 5000, os.path.join(scratch, "dir"), fifo, "/dev/zero",
            loop, os.path.join(scratch, "missing", "sub", "x"), os.path.join(scratch, "empty"), "-", "--help",
            "~no-such-user-8bitbox/x", os.path.join(scratch, "escape.yaml")]


def parsers() -> dict[str, argparse.ArgumentParser]:
    from bitbox.games import find
    from bitbox.table.command import build_parser
    out = {}
    for name, module in PROGRAMS.items():
        if name == "bitbox":
            out[name] = importlib.import_module(module)._parser()
        else:                                   # a game's command is the console's (bitbox.table.command)
            out[name] = build_parser(find(name), name)
    return out


def walk(parser: argparse.ArgumentParser, path: Sequence[str]) -> Iterator[tuple[list[str], list[argparse.Action]]]:
    """Every (sub)command under ``parser``: its words and its own actions."""
    actions = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from walk(sub, [*path, name])
        elif not isinstance(action, argparse._HelpAction):
            actions.append(action)
    yield list(path), actions


def cases(scratch: str, values: int | None = None) -> Iterator[Case]:
    tried = hostile_values(scratch)[:values]
    filler = {"port": os.path.join(scratch, "noport"), "game": "1", "id": "1", "file": os.path.join(scratch, "out.json"),
              "files": os.path.join(scratch, "empty"), "number": "3", "target": "1d1e"}
    for program, parser in parsers().items():
        for words, actions in walk(parser, []):
            if not words or words[-1] in SKIP or words[0] in SKIP or any(isinstance(a, argparse._SubParsersAction)
                                                                         for a in actions):
                continue
            first = ["outspeed"] if program == "bitbox" and words[0] in ("simulate", "analyse", "calibrate") else []
            positionals = [a for a in actions if not a.option_strings and not (first and a.dest == "game")]
            quiet = QUIET.get(words[-1], [])
            journal = any(a.dest == "journal" for a in actions)
            for action in actions:
                if action.nargs == 0:
                    continue
                for value in tried:
                    pos = [*first]
                    for p in positionals:
                        if p is action:
                            pos.append(value)
                        elif p.nargs != "?":
                            pos.append(filler.get(p.dest, "x"))
                    if action.option_strings:
                        flag = action.option_strings[-1]
                        rest = list(quiet)
                        if flag in rest:
                            i = rest.index(flag)
                            del rest[i:i + 2]
                        given = [f"{flag}={value}"] if value.startswith("-") else [flag, value]
                    else:
                        rest, given = list(quiet), []
                    extra = ["--journal", journal_of(scratch, program)] if journal and action.dest != "journal" else []
                    yield Case(program, (*words, *pos, *rest, *extra, *given))


def journal_of(scratch: str, program: str) -> str:
    """The journal a case of ``program`` reads: one per game (bitbox's commands read Outspeed's)."""
    return os.path.join(scratch, f"{'outspeed' if program == 'bitbox' else program}.sqlite")


def play_one_game(scratch: str, program: str) -> None:
    """A finished bot game (game 1) in ``program``'s journal, so that the commands that read a
    game (replay, export, analyse...) get as far as their own options."""
    import subprocess
    journal = journal_of(scratch, program)
    if os.path.exists(journal):
        return
    game = "outspeed" if program == "bitbox" else program
    subprocess.run([sys.executable, "-m", PROGRAMS[game], "play", "--headless", "--players", "3", "--bots", "3",
                    "--seed", "1", "--speed", "0", "-q", "--journal", journal, "--snapshots",
                    os.path.join(scratch, "snapshots")], stdin=subprocess.DEVNULL, capture_output=True, timeout=600,
                   check=True)


def _child(case: Case, out: str) -> None:
    """In the forked child: run the case, exit with its code (never returns)."""
    code = 97
    try:
        os.setsid()
        for fd, path, flags in ((0, "/dev/null", os.O_RDONLY), (1, out + ".out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                (2, out + ".err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            os.dup2(os.open(path, flags, 0o600), fd)
        sys.stdin, sys.stdout, sys.stderr = (open(0, closefd=False), open(1, "w", closefd=False),
                                             open(2, "w", closefd=False))
        sys.argv = [case.program, *case.argv]
        try:
            code = importlib.import_module(PROGRAMS[case.program]).main(list(case.argv))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:
            import traceback
            traceback.print_exc()
            code = 99
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code if isinstance(code, int) else 98)


def run(selected: Sequence[Case], scratch: str, *, jobs: int = 2, limit: float = 15.0,
        on_outcome: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Every case in a forked child, ``jobs`` at a time, each stopped after ``limit`` seconds
    (``on_outcome``: called with each outcome as it comes)."""
    todo, done = list(selected), []
    running: dict[int, tuple[Case, float, str]] = {}
    n = 0
    while todo or running:
        while todo and len(running) < jobs:
            case, n = todo.pop(0), n + 1
            out = os.path.join(scratch, f"case{n}")
            pid = os.fork()
            if pid == 0:
                _child(case, out)
            running[pid] = (case, time.monotonic(), out)
        time.sleep(0.01)
        for pid, (case, started, out) in list(running.items()):
            ended, status = os.waitpid(pid, os.WNOHANG)
            if ended == 0 and time.monotonic() - started < limit:
                continue
            if ended == 0:
                code: int | str = "timeout"
            else:
                code = os.waitstatus_to_exitcode(status)
            try:
                os.killpg(pid, signal.SIGKILL)          # the case's session: what it left running, or itself
            except OSError:
                pass
            if ended == 0:
                os.waitpid(pid, 0)
            with open(out + ".err", errors="replace") as f:
                err = f.read()
            for suffix in (".out", ".err"):
                os.unlink(out + suffix)
            del running[pid]
            done.append(Outcome(case, code, err))
            if on_outcome is not None:
                on_outcome(done[-1])
    return done


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bitbox_tools.reliability.cli_fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("prefix", nargs="?", default="", help="only the cases whose command line starts with it")
    parser.add_argument("--values", type=int, metavar="N", help="only the first N hostile values per option")
    parser.add_argument("--jobs", type=int, default=2, metavar="N", help="cases at a time (default 2)")
    args = parser.parse_args(argv)
    scratch = tempfile.mkdtemp(prefix="bitbox-cli-fuzz-")
    saved = {k: os.environ.get(k) for k in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME",
                                            "SDL_VIDEODRIVER", "SDL_AUDIODRIVER")}
    cwd = os.getcwd()
    try:
        os.environ.update(HOME=scratch, XDG_DATA_HOME=os.path.join(scratch, "data"),
                          XDG_CONFIG_HOME=os.path.join(scratch, "config"), XDG_CACHE_HOME=os.path.join(scratch, "cache"),
                          SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        selected = [c for c in cases(scratch, args.values) if c.line().startswith(args.prefix)]
        for program in sorted({c.program for c in selected if "--journal" in c.argv}):
            play_one_game(scratch, program)
        os.chdir(os.path.join(scratch, "cwd"))      # what a case writes in its folder stays in the scratch one
        print(f"{len(selected)} cases", file=sys.stderr)
        def say(o: Outcome) -> None:                  # each finding as soon as it is known
            if o.finding:
                print(f"{o.case.line()}: {o.finding}", flush=True)
        outcomes = run(selected, scratch, jobs=max(1, args.jobs), on_outcome=say)
    finally:
        os.chdir(cwd)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(scratch, ignore_errors=True)
    findings = [o for o in outcomes if o.finding]
    print(f"{len(outcomes)} cases, {len(findings)} findings", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())

