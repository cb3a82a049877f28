"""The ``simulate`` command of every game, built by the console from its cartridge: the same
parser and the same run for ``NAME simulate``, ``bitbox simulate NAME`` and ``bitbox game NAME
simulate`` (:func:`add_parser`, :func:`run`).

Its options: ``--players`` and ``--bots`` (any bot name :mod:`bitbox.bots` knows for the
cartridge, ``mixed``, counts), one option per option of the cartridge, spelled as ``play``
spells it (:func:`bitbox.table.command.add_game_options`: ``--first-game``, ``--first-zombie
first``, a repeatable ``--variant NAME`` for the on/off options sharing a ``flag``, which also
takes ``--variant a,b``), ``--fixed-seats``, then the options every ``simulate`` shares
(:mod:`bitbox.simulation.cli`).

A cartridge with a ``simulation`` member (a :class:`Simulation`: its run's
:class:`~bitbox.simulation.runner.Config`, default number of games and players, description,
the options it takes) is run on the console's runner with its statistics hook (its
``statistics``): its report, charts, ``results.json`` and ``games.csv`` columns. Any other
cartridge gets the console's win rates by seat and bot (:mod:`bitbox.simulation.games`).
"""
from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from ..console import BotsError, add_logging_options, bots_help, parse_bots, simulated_seats
from ..games import JSON, Cartridge, GameError, OptionError, OptionSpec, check_options
from . import cli as common

#: The default number of players of Outspeed's and Last One Alive's ``simulate`` (their
#: ``simulation``; another game's default is its own, else the fewest it takes).
DEFAULT_PLAYERS = 4
#: The default number of games of a cartridge whose ``simulation`` does not say, or with none.
PLAIN_GAMES = 100
PLAIN_DESCRIPTION = ("Play N games of {title} with bots and report win rates by seat and by bot. The same --seed "
                     "gives the same report whatever --workers.")


@dataclass(frozen=True)
class Simulation:
    """What a cartridge may give as its optional ``simulation`` member (docs/games.md), for its
    ``simulate`` to report its own statistics (with its ``statistics`` hook):

    * ``config(games, players, bots, seed, rotate, options)``: the run, a dataclass inheriting
      :class:`bitbox.simulation.runner.Config` (``options``: the cartridge options given, in the
      order given, checked; ValueError with one line for a run the game refuses);
    * ``games``: the default number of games; ``players``: the default number of players
      (None: the fewest the game takes); ``description``: the command's ``--help`` text;
    * ``options``: the names of the cartridge options ``simulate`` takes (None: all of them);
    * ``refused``: the exceptions that stop a run in one line (its contents cannot be loaded…).
    """

    config: Callable[..., Any]
    games: int = PLAIN_GAMES
    players: int | None = None
    description: str = ""
    options: tuple[str, ...] | None = None
    refused: tuple[type[Exception], ...] = ()


def simulation_of(cartridge: Cartridge) -> Simulation | None:
    """The cartridge's ``simulation`` member, or None when it has none."""
    hook = getattr(cartridge, "simulation", None)
    return hook if isinstance(hook, Simulation) else None


def _specs(cartridge: Cartridge) -> list[OptionSpec]:
    """The cartridge options ``simulate`` takes (its rules' options; not how a table plays it)."""
    hook = simulation_of(cartridge)
    names = hook.options if hook is not None else None
    return [s for s in cartridge.options if names is None or s.name in names]


def _default_players(cartridge: Cartridge) -> int:
    hook = simulation_of(cartridge)
    return hook.players if hook is not None and hook.players is not None else cartridge.min_players


def add_parser(sub: Any, cartridge: Cartridge) -> argparse.ArgumentParser:
    """The ``simulate`` sub-command of ``cartridge``'s command."""
    from ..bots import seat_names
    from ..table.command import add_game_options
    hook = simulation_of(cartridge)
    description = (hook.description if hook is not None and hook.description else
                   PLAIN_DESCRIPTION.format(title=cartridge.title))
    p = sub.add_parser("simulate", help="play many games with bots and report statistics", description=description)
    players = _default_players(cartridge)
    p.add_argument("--players", type=int, metavar="P", help=f"players per game, {cartridge.min_players} to "
                   f"{cartridge.max_players} (default {players})")
    p.add_argument("--bots", metavar="N|NAMES|N:NAMES",
                   help=bots_help(tuple(seat_names(cartridge)), "random; every seat is a bot, so N is the number of players"))
    specs = _specs(cartridge)
    if specs:
        add_game_options(p, cartridge, specs, listed=True)
    p.add_argument("--fixed-seats", action="store_true",
                   help="do not rotate the bots over the seats from one game to the next")
    common.add_search_options(p)
    common.add_options(p, games=hook.games if hook is not None else PLAIN_GAMES)
    add_logging_options(p, quiet=False)
    return p


def names(text: str) -> tuple[str, ...]:
    """A comma-separated list of names (``--variant a,b``), each once, in order."""
    return tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))


def _between(lo: int, hi: int) -> str:
    return f"{lo} or {hi}" if hi == lo + 1 else f"{lo} to {hi}"


def given_options(args: argparse.Namespace, cartridge: Cartridge, players: int) -> dict[str, JSON]:
    """The cartridge options the command line gives, in the order given for a shared flag's
    names (``--variant b,a``: b then a), checked; ValueError with one line."""
    from ..table.command import option_flag
    specs = _specs(cartridge)
    out: dict[str, JSON] = {}
    shared: dict[str, list[OptionSpec]] = {}
    for s in specs:
        if isinstance(s.default, bool) and s.flag:
            shared.setdefault(s.flag, []).append(s)
    for flag, members in shared.items():
        known = {s.name: s for s in members}
        for name in names(",".join(getattr(args, f"flag_{flag}", None) or ())):
            if name not in known:
                raise ValueError(f"unknown {flag} {name!r} in --{flag} (known: {', '.join(known)})")
            out[name] = True
    for s in specs:
        if not (isinstance(s.default, bool) and s.flag) and getattr(args, f"opt_{s.name}", None) is not None:
            out[s.name] = getattr(args, f"opt_{s.name}")
    for s in specs:
        if s.name in out and s.barred(out[s.name], players):
            lo, hi = s.players or (0, 0)
            said = f"--{s.flag} {s.name}" if s.flag else f"{option_flag(s)} {out[s.name]}"
            raise ValueError(f"{said} is for {_between(lo, hi)} players, not --players {players}")
    try:
        check_options(cartridge, out)
    except OptionError as exc:
        raise ValueError(str(exc)) from None
    return out


def owner(cartridge: Cartridge) -> str:
    """The command a run's ``results.json`` names as the owner of its ``--out`` folder: the
    game's own (``outspeed simulate``), whichever way it was called."""
    from ..table.command import command_name
    return f"{command_name(cartridge)} simulate"


def run(prog: str, args: argparse.Namespace, cartridge: Cartridge) -> int:
    """Run ``simulate`` of ``cartridge`` (``prog``: the command as typed, for its lines):
    ``--players``/``--bots`` and the options checked in one line, then the run."""
    hook = simulation_of(cartridge)
    if hook is None:
        return _run_plain(prog, args, cartridge)
    from ..bots import bot_names
    from .runner import simulate
    seats: list[tuple[int, tuple[str, ...], dict[str, JSON]]] = []
    budget: list[Any] = [None]
    refused: tuple[type[Exception], ...] = (ValueError, *hook.refused)

    def checked() -> str | None:
        try:
            spec = None if args.bots is None else parse_bots(args.bots, tuple(bot_names(cartridge)),
                                                             getattr(cartridge, "mixed_bots", None), extra=("search",))
            players, bots = simulated_seats(args.players, spec, _default_players(cartridge), ("random",))
            budget[0] = common.search_budget(args) if "search" in bots else None
            if not cartridge.min_players <= players <= cartridge.max_players:
                return f"--players must be {cartridge.min_players} to {cartridge.max_players}, not {players}"
            seats.append((players, bots, given_options(args, cartridge, players)))
        except (BotsError, ValueError) as exc:
            return str(exc)
        return None

    def play(workers: int, progress: TextIO | None, ray: str | None) -> Any:
        players, bots, options = seats[0]
        try:
            config = hook.config(args.games, players, bots, args.seed, not args.fixed_seats, options)
            if budget[0] is not None:
                if "search" not in {f.name for f in dataclasses.fields(config)}:
                    raise common.Refused(f"the search bot cannot play in {cartridge.name}'s simulation: its "
                                         f"configuration ({type(config).__name__}) has no field `search` to hold "
                                         f"its budget (docs/games.md, \"The statistics hook\")")
                config = dataclasses.replace(config, search=budget[0])
            return simulate(config, workers=workers, progress=progress, ray=ray, cartridge=cartridge)
        except refused as exc:
            raise common.Refused(str(exc)) from None

    return common.run(prog, args, play, checked, owner=owner(cartridge))


def _run_plain(prog: str, args: argparse.Namespace, cartridge: Cartridge) -> int:
    """A cartridge with no ``simulation``: the console's win rates by seat and by bot."""
    from ..bots import bot_names
    from .games import Run, Summary, simulate
    from .progress import Progress
    runs: list[Run] = []

    def check() -> str | None:
        try:
            known = tuple(bot_names(cartridge))
            spec = None if args.bots is None else parse_bots(args.bots, known, getattr(cartridge, "mixed_bots", None),
                                                             extra=("search",))
            players, bots = simulated_seats(args.players, spec, _default_players(cartridge), ("random",))
            runs.append(Run(str(cartridge.name), args.games, players, bots, args.seed, not args.fixed_seats,
                            search=common.search_budget(args)))
            runs[0].check()
            runs[0] = dataclasses.replace(runs[0], options=given_options(args, cartridge, players))
        except (GameError, BotsError, ValueError) as exc:
            return str(exc)
        return None

    def play(workers: int, progress: TextIO | None, ray: str | None) -> Summary:
        plain = runs[0]
        return simulate(plain, workers, Progress(plain.games, progress) if progress is not None else None, ray=ray)

    return common.run(prog, args, play, check, report=lambda summary: summary.report(cartridge.title),
                      owner=owner(cartridge))


__all__ = ["DEFAULT_PLAYERS", "Simulation", "add_parser", "given_options", "names", "owner", "run", "simulation_of"]
