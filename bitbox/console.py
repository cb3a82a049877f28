"""What every command of the console and of the games shares (``bitbox``, ``outspeed``,
``lastonealive``, ``python -m bitbox_tools.reliability`` / ``bench``): one place for

* ``--version`` (:func:`add_version`): the installed package's version, from
  :mod:`importlib.metadata`;
* the ``--bots`` vocabulary (:func:`parse_bots`, :class:`BotSpec`, :func:`simulated_seats`): a count
  (``--bots 2``), the bots' names cycled over the seats bots take (``--bots greedy,random``,
  ``--bots mixed``), or both (``--bots 2:greedy``) — docs/table.md and docs/simulate.md;
* logging (:func:`add_logging_options`, :func:`setup_logging`): ``-v``, ``-q`` and
  ``--log-file PATH`` through the standard :mod:`logging` module — the game's events go to
  stdout, the status lines ("no display found: running headless", notes, the journal) to
  stderr and the log file, through the logger ``bitbox`` (:data:`log`);
* a closed pipe (:func:`run_main`): ``outspeed play | head`` stops quietly, with no traceback
  and no "Exception ignored" line.

Light on purpose: a command's parser imports it before anything heavy.
"""
from __future__ import annotations

import argparse
import logging
import math
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: The distribution the console scripts come from (pyproject.toml ``[project] name``).
DISTRIBUTION = "bitbox-outspeed"

#: Status lines (not the game's events): ``log.info("no display found: running headless")``.
log = logging.getLogger("bitbox")

#: The exit code of a command whose output was closed early (``play | head``): the shell's own
#: code for a process ended by SIGPIPE (128 + 13), so ``set -o pipefail`` scripts can tell.
BROKEN_PIPE_EXIT = 141


# ---------------------------------------------------------------------------- --version

def version() -> str:
    """The installed package's version (pyproject.toml), or "unknown" when not installed."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version
    try:
        return dist_version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown (not installed)"


class OneLineParser(argparse.ArgumentParser):
    """argparse with one-line usage errors: ``outspeed play: argument --seed: ... (see --help)``,
    exit 2 (the rule for every command: one clear line, no wall of usage). Subcommands made
    with ``add_subparsers`` are of this class too."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


class _VersionAction(argparse.Action):
    """argparse's ``version`` action with the version looked up only when asked for: reading
    the installed distribution's metadata (``importlib.metadata``) is no part of a start."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: Any = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        sys.stdout.write(f"{parser.prog} {version()}\n")
        sys.stdout.flush()
        parser.exit()


def add_version(parser: argparse.ArgumentParser) -> None:
    """``--version``: prints ``PROG VERSION`` (on stdout) and exits 0."""
    parser.add_argument("--version", action=_VersionAction, help="print the version and exit")


# ---------------------------------------------------------------------------- waits

#: The longest a device command waits for a controller to answer (``--wait``, ``--timeout``):
#: ten minutes is more than any plugging in takes; an infinite or 10**308-second wait is a typo.
MAX_WAIT_S = 600.0


def wait_arg(text: str) -> float:
    """An argparse type for a wait in seconds: a finite number from 0 to :data:`MAX_WAIT_S`
    (NaN, infinity, negative and larger numbers are one usage line, exit 2)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= MAX_WAIT_S):
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to {MAX_WAIT_S:g}, not {text!r}")
    return value


# ---------------------------------------------------------------------------- --bots

class BotsError(ValueError):
    """A ``--bots`` value that does not parse: one line saying why."""


@dataclass(frozen=True)
class BotSpec:
    """What ``--bots`` said: how many seats bots take (None: not said, the command decides)
    and which bots, cycled over those seats (empty: not said, the command's default)."""

    count: int | None = None
    names: tuple[str, ...] = ()

    def kinds(self, default: Sequence[str]) -> tuple[str, ...]:
        """The names, or ``default`` when none were given."""
        return self.names or tuple(default)

    def __str__(self) -> str:
        parts = [] if self.count is None else [str(self.count)]
        if self.names:
            parts.append(",".join(self.names))
        return ":".join(parts)


def parse_bots(text: str, known: Sequence[str], mixed: Sequence[str] | None = None,
               most: int | None = None, extra: Sequence[str] = ()) -> BotSpec:
    """``--bots`` in every command: ``N`` (a count), ``NAME[,NAME...]`` (the bots, cycled over
    the seats bots take) or ``N:NAME[,NAME...]`` (both). ``known``: the game's bot registry;
    ``mixed`` (the name ``mixed``): the game's mix of bots (default: every known bot), expanded
    in place; ``most``: the largest count allowed; ``extra``: the console's bots the command
    also seats (``search`` in every ``simulate``: never in ``mixed``). :class:`BotsError` (one
    line) otherwise."""
    def digits(t: str) -> bool:
        return t.isascii() and t.isdigit()
    text = str(text).strip()
    if not text:
        raise BotsError(f"--bots needs a number or at least one bot name ({', '.join(('mixed', *known))})")
    count_text, sep, names_text = text.partition(":")
    if not sep:
        count_text, names_text = (text, "") if digits(text) else ("", text)
    count: int | None = None
    if count_text or sep:
        count_text = count_text.strip()
        if not digits(count_text):
            raise BotsError(f"--bots {text!r}: expected a number of bots, bot names, or N:NAMES "
                            f"(e.g. 2, {known[0] if known else 'random'}, 2:{known[0] if known else 'random'})")
        count = int(count_text)
        if most is not None and count > most:
            raise BotsError(f"--bots {count}: at most {most} bots")
    names: list[str] = []
    if names_text or (sep and not names_text):
        items = [n.strip() for n in names_text.split(",")]
        if not any(items):
            raise BotsError(f"--bots needs at least one bot name ({', '.join(('mixed', *known))})")
        for item in items:
            if not item:
                continue
            if item == "mixed":
                names.extend(mixed if mixed is not None else known)
            elif item in known or item in extra:
                names.append(item)
            else:
                raise BotsError(f"unknown bot {item!r} in --bots (known: {', '.join(('mixed', *known))})")
    return BotSpec(count, tuple(names))


BOTS_HELP = ("bots: a number (2), the bots' names cycled over the seats they take ({names}), or both "
             "(2:{first}); see docs/table.md")


def bots_help(known: Sequence[str], default: str) -> str:
    """The help line of ``--bots``, the same for every command."""
    return BOTS_HELP.format(names=", ".join(("mixed", *known)), first=known[0] if known else "random") + \
        f" (default {default})"


def simulated_seats(players: int | None, spec: BotSpec | None, default_players: int,
                    default_bots: Sequence[str]) -> tuple[int, tuple[str, ...]]:
    """Every ``simulate``: how many players and which bots, cycled over the seats. Every seat of
    a simulation is a bot, so ``--bots N`` is the number of players; with a different
    ``--players`` it is a :class:`BotsError` (one line)."""
    if spec is not None and spec.count is not None:
        if players is not None and players != spec.count:
            raise BotsError(f"--players {players} and --bots {spec.count} disagree: every seat of a simulation "
                            f"is a bot (give only one of them)")
        if spec.count < 1:
            raise BotsError("--bots 0: a simulation needs at least one bot")
        players = spec.count
    return (default_players if players is None else players), (spec.kinds(default_bots) if spec else
                                                               tuple(default_bots))


_warned: set[str] = set()


def command_bots(bots: str | None, bot: str | None, known: Sequence[str], mixed: Sequence[str] | None = None,
                 most: int | None = None, extra: Sequence[str] = ()) -> BotSpec | None:
    """A command's ``--bots`` (:func:`parse_bots`, ``extra`` included; None when not given), with
    the old ``--bot NAME`` folded in (``--bots N --bot NAME`` is ``--bots N:NAME``) and one warning
    saying it is deprecated; both naming bots, or a bad value, is a :class:`BotsError` (one line)."""
    spec = None if bots is None else parse_bots(bots, known, mixed, most, extra)
    if bot is None:
        return spec
    if spec is not None and spec.names:
        raise BotsError(f"--bot {bot} and --bots {bots} both name the bots: give only --bots")
    named = parse_bots(bot, known, mixed, extra=extra)
    if "--bot" not in _warned:
        _warned.add("--bot")
        log.warning("note: --bot is deprecated: use --bots %s (the same for every command)", bot)
    return BotSpec(spec.count if spec is not None else None, named.names)


# ---------------------------------------------------------------------------- logging

def add_logging_options(parser: argparse.ArgumentParser, quiet: bool = True) -> None:
    """``-v``/``--verbose``, ``-q``/``--quiet`` and ``--log-file PATH`` (see :func:`setup_logging`).
    ``quiet=False``: the command already has its own ``-q``/``--quiet`` (simulate's, which also
    hides the progress bar), read by :func:`logging_from` all the same."""
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help="more status detail on stderr (the devices' traffic: connections, frames and bad frames)")
    if quiet:
        parser.add_argument("-q", "--quiet", action="store_true",
                            help="no status lines on stderr (errors and warnings still shown; "
                                 "the game's events still on stdout)")
    parser.add_argument("--log-file", metavar="PATH",
                        help="also write every status line, time-stamped and with the debug detail, to PATH")


class _StderrHandler(logging.StreamHandler):
    """A handler on whatever ``sys.stderr`` is when a line is written (a test's capture, a
    redirection), not the one it was when the command started."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr        # not setStream(): it would flush the old one, maybe closed
        super().emit(record)


class _LogFileHandler(logging.FileHandler):
    """``--log-file``: a file that stops being writable (a full disk, /dev/full) is said once,
    in one line, and the file is given up; the game goes on (logging's default prints a
    traceback for every record)."""

    def handleError(self, record: logging.LogRecord) -> None:
        exc = sys.exc_info()[1]
        log.removeHandler(self)
        why = getattr(exc, "strerror", None) or exc
        print(f"--log-file {self.baseFilename}: cannot write there any more ({why}); no longer logging to it",
              file=sys.stderr)


def refuse_unread_pipe(path: str) -> None:
    """A named pipe as an output file (``--log-file``, ``bitbox emulate --trace``, ``bitbox
    diagnose --out``) is fine while something reads it (``tail -f``-like); with nobody at the
    other end, opening it would block the command for ever before it starts: an
    :class:`OSError` instead (the non-blocking open says ENXIO)."""
    import errno
    import stat
    try:
        if not stat.S_ISFIFO(os.stat(path).st_mode):
            return
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "a named pipe that nothing reads") from None
        return                          # no such file yet, or the open below says what is wrong
    os.close(fd)


def setup_logging(verbose: int = 0, quiet: bool = False, log_file: str | None = None) -> None:
    """The logger ``bitbox`` for a command: status lines (INFO) on stderr, only warnings and
    errors with ``quiet`` (which wins over ``verbose``), the debug detail (and the hub's device
    chatter) with ``verbose``; everything (DEBUG, time-stamped) in ``log_file`` when given.
    A second call replaces the handlers of the first (and leaves others alone). An
    unwritable ``log_file`` is an :class:`OSError` for the command to report."""
    for handler in list(log.handlers):
        if getattr(handler, "bitbox_console", False):
            log.removeHandler(handler)
            handler.close()
    log.setLevel(logging.DEBUG)
    console = _StderrHandler()
    console.setLevel(logging.WARNING if quiet else logging.DEBUG if verbose else logging.INFO)
    console.setFormatter(logging.Formatter("%(message)s"))
    if not verbose:                 # the hub's device chatter (connected, reopened): with -v only
        console.addFilter(lambda record: record.levelno >= logging.WARNING or
                          not record.name.startswith(("bitbox.hub", "bitbox.transports")))
    handlers: list[logging.Handler] = [console]
    if log_file:
        refuse_unread_pipe(os.path.expanduser(log_file))
        handler = _LogFileHandler(os.path.expanduser(log_file), encoding="utf-8")
        handler.setLevel(logging.DEBUG)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        handlers.append(handler)
    for handler in handlers:
        setattr(handler, "bitbox_console", True)
        log.addHandler(handler)


def logging_from(args: argparse.Namespace, prog: str) -> int | None:
    """:func:`setup_logging` from a command's parsed options; None, or 2 after one line when
    the log file cannot be opened."""
    try:
        setup_logging(getattr(args, "verbose", 0) or 0, bool(getattr(args, "quiet", False)),
                      getattr(args, "log_file", None))
    except OSError as exc:
        print(f"{prog}: --log-file {args.log_file}: cannot write there ({exc.strerror or exc})", file=sys.stderr)
        return 2
    return None


# ---------------------------------------------------------------------------- closed pipes

def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def run_main(main: Callable[[], int | None]) -> int:
    """Run a command's ``main``: its exit code, or :data:`BROKEN_PIPE_EXIT` without a word
    when its output is closed early (``outspeed play | head``, ``outspeed history | head``).
    Every console script goes through it (their ``main`` calls it)."""
    try:
        code = main()
        sys.stdout.flush()
        return int(code or 0)
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE_EXIT


__all__ = ["BROKEN_PIPE_EXIT", "MAX_WAIT_S", "BotSpec", "BotsError", "OneLineParser", "add_logging_options",
           "add_version", "bots_help", "command_bots", "log", "logging_from", "parse_bots", "refuse_unread_pipe",
           "run_main", "setup_logging", "simulated_seats", "version", "wait_arg"]
