"""The table command of every game, built by the console from its cartridge.

``outspeed``, ``lastonealive``, ``bitbox play --game NAME`` and ``bitbox game NAME ...`` all
run this module's parser (:func:`build_parser`) and table (:class:`CartridgeTable`) for the
cartridge: a game writes no command and no table of its own, only its rules, its cartridge
object and, optionally, bots, controls, words and the members of docs/games.md ("The table
command"):

* ``play``: controllers found (or simulated ones for bots), ``--bots``, ``--keyboard``,
  ``--seed``, ``--lang``, ``--headless``, ``--snapshots``, ``--journal``, ``--resume``,
  ``--speed``, ``--size``, ``--fullscreen``, ``--mute``, ``--lobby``, ``--table-config``,
  and one option per option of the cartridge and of its ``table_options`` (``--cards 5``,
  ``--variant survivors`` for options sharing a ``flag``);
* ``history`` (``--json``), ``replay``, ``export``, ``import``: the journal's, the same as
  every game's;
* ``simulate``: the console's (:mod:`bitbox.simulation.command`, the same as ``bitbox simulate
  NAME``), with the cartridge's statistics when it has a ``simulation`` member;
* ``scenario``: for a cartridge with a scenario format (``scenarios``), the console's
  runner (:mod:`bitbox.games.scenarios`);
* the game's own subcommands (its cartridge's ``add_commands``: Outspeed's ``tiles``).

A game's package gives its players a command of its own name with a console script
pointing at :func:`main` (``goofspiel = "bitbox.table.command:main"``: the script's name
chooses the cartridge) or at a one-line ``main = game_main("outspeed")``.
"""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from bitbox.colours import SEAT_COLOURS
from bitbox.games.protocol import Cartridge, GameError, OptionError, OptionSpec, check_options
from bitbox.safetext import printable

from .seating import SeatRules, TableError

log = logging.getLogger("bitbox.table")



# ---------------------------------------------------------------------------- options
MAX_SEED = 2**63 - 1                  # a seed on the command line (a journal's SQLite integer)


def seed_arg(text: str) -> int:
    """``--seed``: a whole number from 0 to 2^63 - 1, in ASCII digits."""
    if not (text.isascii() and text.strip().lstrip("+").isdigit()):
        raise argparse.ArgumentTypeError(f"expected a seed, a whole number, not {text!r}")
    value = int(text)
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"expected a seed from 0 to {MAX_SEED}, not {text}")
    return value


def add_play_arguments(p: argparse.ArgumentParser, *, title: str, min_players: int, max_players: int,
                       bots: str, lang_help: str = "the table's language (default en)") -> None:
    """The options of every game's ``play`` (docs/table.md): seats, bots, keyboard, seed,
    language, controllers, headless and snapshots, journal and resume, pace, window, sound,
    lobby, and the status lines' -v/-q/--log-file. A game adds its own after them."""
    from bitbox.console import add_logging_options

    from .names import check_names
    from .options import journal_arg, size_arg, speed_arg
    from .snapshots import KEEP_SNAPSHOTS, keep_arg
    p.add_argument("--players", type=int, choices=range(min_players, max_players + 1),
                   metavar=f"{min_players}..{max_players}",
                   help="number of players (default: the controllers found, or 4 for a demo)")
    p.add_argument("--bots", metavar="N|NAMES|N:NAMES", help=bots)
    p.add_argument("--bot", help=argparse.SUPPRESS)             # deprecated: --bots NAME
    p.add_argument("--names", type=check_names, default=(), metavar="NAME,NAME,...",
                   help="the players' names, in seat order (the first to the first colour); shown on the screen, "
                        "in the events and the journal")
    p.add_argument("--keyboard", action="store_true", help="keyboard hot-seat players instead of controllers")
    p.add_argument("--seed", type=seed_arg,
                   help="the game's seed, for a reproducible game (default: a secret 128-bit one from the OS, "
                        "shown by history once the game is over)")
    p.add_argument("--lang", choices=("en", "es", "fr", "de"), help=lang_help)
    p.add_argument("--controller", action="append", metavar="URL", default=[],
                   help="a controller to open besides the discovered ones (a device path or pyserial URL); repeatable")
    p.add_argument("--headless", action="store_true", help="no window: PNG snapshots per turn and printed events")
    p.add_argument("--snapshots", metavar="DIR",
                   help="where to write the PNGs: a folder of its own per game under DIR (headless default: ./snapshots)")
    p.add_argument("--keep-snapshots", metavar="N", type=keep_arg, default=None,
                   help=f"keep the snapshot folders of the last N games only, older ones removed and said "
                        f"(default {KEEP_SNAPSHOTS}; 0: keep them all)")
    p.add_argument("--journal", metavar="PATH", type=journal_arg,
                   help="the journal file (default: journal.sqlite in the user's data folder: ~/.local/share/8bitbox/ "
                        "on Linux)")
    p.add_argument("--resume", action="store_true", help=f"continue the last unfinished {title} game of the journal that no other table is playing now")
    p.add_argument("--speed", type=speed_arg, help="speed of the show (1 = table speed; 0 = no waiting)")
    p.add_argument("--fullscreen", action="store_true", default=None, help="start full screen (F11 toggles)")
    p.add_argument("--size", metavar="WxH", type=size_arg,
                   help="window (or headless frame) size, e.g. 1920x1080 (a window is at least 1024x576)")
    p.add_argument("--mute", action="store_true", help="no sound")
    p.add_argument("--lobby", choices=("auto", "always", "never"), default="auto",
                   help="the lobby screen before the game: auto (when there are controllers to seat and a "
                        "window), always, never")
    p.add_argument("--max-seconds", type=float, help=argparse.SUPPRESS)
    p.add_argument("--then-home", action="store_true", help=argparse.SUPPRESS)     # bitbox.table.home's
    add_logging_options(p)


def positive_int(text: str, most: int | None = None) -> int:
    """A whole number from 1 (to ``most``, when given)."""
    if not (text.isascii() and text.strip().isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1, not {text!r}")
    if most is not None and int(text) > most:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to {most}, not {text}")
    return int(text)


def think_arg(text: str) -> int:
    """``--think MS`` of ``play``: 1 to :data:`bitbox.bots.search.MAX_THINK_MS` milliseconds."""
    from bitbox.bots.search import MAX_THINK_MS
    return positive_int(text, MAX_THINK_MS)


def rollouts_arg(text: str) -> int:
    """``--rollouts N`` of ``play``: 1 to :data:`bitbox.analysis.MAX_ROLLOUTS` (as ``analyse``'s)."""
    from bitbox.analysis import MAX_ROLLOUTS
    return positive_int(text, MAX_ROLLOUTS)


def add_search_arguments(p: argparse.ArgumentParser) -> None:
    """``--think MS`` and ``--rollouts N`` of ``play``: the search bot's budget per decision
    at the table (:meth:`bitbox.bots.search.Budget.at_table`)."""
    from bitbox.bots.search import DEFAULT_ROLLOUTS, TABLE_THINK_MS
    p.add_argument("--think", type=think_arg, metavar="MS",
                   help=f"the search bot's time per decision in milliseconds (default: at most {TABLE_THINK_MS}, "
                        f"or {DEFAULT_ROLLOUTS} rollouts if sooner)")
    p.add_argument("--rollouts", type=rollouts_arg, metavar="N",
                   help="the search bot's rollouts per decision: alone, its decisions are reproducible "
                        "(the same seed, the same game); with --think, whichever ends first")


def add_table_commands(sub: Any, command: str, kit: Any) -> None:
    """``history``, ``export``, ``import`` and ``replay`` of a game's command, the same for
    every game: ``kit(args)`` gives the game's :class:`~bitbox.table.journal_commands.TableKit`."""
    from bitbox.console import add_logging_options

    from . import journal_commands as jc
    from .gamefile import add_journal_commands, game_id_arg
    from .options import journal_arg, size_arg
    add_journal_commands(sub, command, lambda a: jc.history(kit(a), a.journal, as_json=a.json),
                         lambda a: jc.export(kit(a), a.game, a.file, a.journal, include_secrets=a.include_secrets,
                                             analysis=a.analysis),
                         lambda a: jc.import_(kit(a), a.file, a.journal))
    p = sub.add_parser("replay", help="step through a game of the journal, turn by turn")
    p.add_argument("game", type=game_id_arg, nargs="?", help=f"its id (see `{command} history`; default: the last finished)")
    p.add_argument("--journal", metavar="PATH", type=journal_arg)
    p.add_argument("--lang", choices=("en", "es", "fr", "de"))
    p.add_argument("--headless", action="store_true", help="print the turns (and write PNGs with --snapshots)")
    p.add_argument("--snapshots", metavar="DIR", help="write a PNG per turn into a folder of its own under DIR")
    p.add_argument("--size", metavar="WxH", type=size_arg,
                   help="the window, PNG or GIF frame size (default: 1280x720 window, 1920x1080 PNGs, 960x540 GIF)")
    add_replay_arguments(p)
    add_logging_options(p)
    p.set_defaults(func=lambda a: jc.replay(kit(a), a.game, a.journal, lang=a.lang, headless=a.headless,
                                            snapshots=a.snapshots, size=a.size, gif=a.gif, suggest=a.suggest,
                                            analysis=a.analysis, rollouts=a.rollouts, think_ms=a.think,
                                            as_json=a.json))


def add_replay_arguments(p: argparse.ArgumentParser) -> None:
    """``replay``'s GIF, bot and chances options (:mod:`bitbox.table.replay`)."""
    from .replay import GIF_FRAME_MS, SUGGEST_ROLLOUTS, SUGGEST_THINK_MS

    from bitbox.analysis import MAX_ROLLOUTS
    from bitbox.bots.search import MAX_THINK_MS

    def rollouts_arg(text: str) -> int:
        if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= MAX_ROLLOUTS:
            raise argparse.ArgumentTypeError(f"expected a number of rollouts from 1 to {MAX_ROLLOUTS}, not {text!r}")
        return int(text)

    def turn_arg(text: str) -> int:
        if not text.isascii() or not text.isdigit():
            raise argparse.ArgumentTypeError(f"expected a turn number (0: the start), not {text!r}")
        return int(text)
    p.add_argument("--gif", metavar="FILE",
                   help=f"write the game as an animated GIF (one frame per turn, {GIF_FRAME_MS} ms each, a hold on "
                        "the last; no window)")
    p.add_argument("--suggest", metavar="TURN", type=turn_arg,
                   help="print what the search bot would play after turn TURN (0: the start) for each player with a "
                        "choice then, from that player's information only (a finished game)")
    p.add_argument("--rollouts", metavar="N", type=rollouts_arg, default=SUGGEST_ROLLOUTS,
                   help=f"the bot's rollouts per option (default {SUGGEST_ROLLOUTS})")
    def ms_arg(text: str) -> int:
        if not text.isascii() or not text.isdigit() or int(text) > MAX_THINK_MS:
            raise argparse.ArgumentTypeError(f"expected milliseconds from 0 (no limit) to {MAX_THINK_MS}, not {text!r}")
        return int(text)
    p.add_argument("--think", metavar="MS", type=ms_arg, default=SUGGEST_THINK_MS,
                   help=f"... and at most MS milliseconds per player's choice (default {SUGGEST_THINK_MS}; 0: no "
                        "limit, the rollouts alone: reproducible)")
    p.add_argument("--json", action="store_true", help="--suggest as JSON")
    p.add_argument("--analysis", metavar="PATH",
                   help="the window's win-chance graph from this analysis.json (or its folder), as written by "
                        "`analyse ID` (default: analysis-ID/analysis.json when there is one; else key A estimates it)")


def option_flag(spec: OptionSpec) -> str:
    return "--" + spec.name.replace("_", "-")


def play_options(cartridge: Cartridge) -> list[OptionSpec]:
    """The options of a game's ``play``: its rules' (``options``), then how its table plays
    it (the optional ``table_options``, never given to ``Cartridge.new``)."""
    return [*cartridge.options, *(getattr(cartridge, "table_options", None) or ())]


def add_game_options(p: argparse.ArgumentParser, cartridge: Cartridge, specs: Sequence[OptionSpec] | None = None,
                     listed: bool = False) -> None:
    """One command-line option per option of the cartridge (its help, its choices); on/off
    options that share a ``flag`` are one repeatable ``--FLAG NAME``. ``specs``: these options
    only (default: :func:`play_options`); ``listed``: a shared flag also takes comma-separated
    names, checked by the command (``simulate``: :func:`bitbox.simulation.command.given_options`)."""
    group = p.add_argument_group(f"{cartridge.title}'s options")
    shared: dict[str, list[OptionSpec]] = {}
    for spec in (play_options(cartridge) if specs is None else specs):
        flag, dest = option_flag(spec), f"opt_{spec.name}"
        if isinstance(spec.default, bool) and spec.flag:
            if spec.flag not in shared:
                shared[spec.flag] = []
            shared[spec.flag].append(spec)
        elif isinstance(spec.default, bool):
            group.add_argument(flag, dest=dest, action=argparse.BooleanOptionalAction, default=None,
                               help=f"{spec.help} (default {'on' if spec.default else 'off'})")
        else:
            kind: Any = type(spec.default) if isinstance(spec.default, (int, float, str)) else str
            choices = list(spec.choices) or None
            group.add_argument(flag, dest=dest, type=kind, choices=choices, default=None, metavar="VALUE" if not choices else None,
                               help=f"{spec.help} (default {spec.default})")
    for name, members in shared.items():
        group.add_argument(f"--{name.replace('_', '-')}", dest=f"flag_{name}", action="append",
                           choices=None if listed else [s.name for s in members], metavar="NAMES" if listed else "NAME",
                           help=f"a {name} (repeatable{', or comma-separated' if listed else ''}): "
                                + "; ".join(f"{s.name}: {s.help}" for s in members))


def given_options(args: argparse.Namespace, cartridge: Cartridge) -> dict[str, Any]:
    """The options the command line gives (a shared flag's names: on)."""
    out: dict[str, Any] = {}
    for s in play_options(cartridge):
        if isinstance(s.default, bool) and s.flag:
            if s.name in (getattr(args, f"flag_{s.flag}", None) or ()):
                out[s.name] = True
        elif getattr(args, f"opt_{s.name}", None) is not None:
            out[s.name] = getattr(args, f"opt_{s.name}")
    return out


def seat_rules(cartridge: Cartridge) -> SeatRules:
    if cartridge.max_players > len(SEAT_COLOURS):
        raise TableError(f"{cartridge.title} seats up to {cartridge.max_players} players; the table has "
                         f"{len(SEAT_COLOURS)} seat colours")
    return SeatRules(cartridge.title, SEAT_COLOURS[:cartridge.max_players], min_players=cartridge.min_players,
                     max_players=cartridge.max_players,
                     demo_players=min(cartridge.max_players, max(cartridge.min_players, 4)))


def build_parser(cartridge: Cartridge, prog: str, command: str | None = None) -> argparse.ArgumentParser:
    """``PROG play|history|replay|export|import|simulate|scenario`` of any cartridge, and
    the commands it adds of its own (its optional ``add_commands(sub, prog)``). ``command``:
    the command word about to run, when known (for another command than ``scenario``, the
    game's scenario format is not loaded)."""
    from bitbox.bots import bot_names, seat_names
    from bitbox.console import OneLineParser, add_version, bots_help

    parser = OneLineParser(prog=prog, description=f"{cartridge.title} at the 8Bitbox table.")
    add_version(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("play", help="play a game at the table (a bot demo when no controller is found)",
                       description=f"Play {cartridge.title} with the controllers found; with none, a demo on "
                                   "simulated controllers driven by bots. See docs/table.md.")
    add_play_arguments(p, title=cartridge.title, min_players=cartridge.min_players, max_players=cartridge.max_players,
                       bots=bots_help(tuple(seat_names(cartridge)), f"{', '.join(bot_names(cartridge))} in turn; as many as the seats without "
                                                                   "controllers, or a demo"))
    p.add_argument("--table-config", metavar="PATH", help="another table.yaml (default: config/table.yaml)")
    add_search_arguments(p)
    add_game_options(p, cartridge)
    p.set_defaults(func=lambda a: play(cartridge, a, prog))
    add_table_commands(sub, prog, lambda a: kit_of(cartridge, prog))
    from bitbox.simulation import command as simulate_command
    simulate_command.add_parser(sub, cartridge).set_defaults(     # the same for `bitbox simulate NAME`
        func=lambda a: simulate_command.run(f"{prog} simulate", a, cartridge))
    own = getattr(cartridge, "add_commands", None)
    if callable(own):
        own(sub, prog)
    if "scenario" in sub.choices:
        return parser
    if command in sub.choices and isinstance(getattr(type(cartridge), "scenarios", None), property):
        # another command runs: its format is not loaded (its module is a start-up cost)
        p = sub.add_parser("scenario", help="run scenario files")
        p.add_argument("files", nargs="+", metavar="FILE")
        p.set_defaults(func=lambda a: scenario(getattr(cartridge, "scenarios"), a.files, prog))
        return parser
    scenarios = getattr(cartridge, "scenarios", None)
    if scenarios is not None:
        p = sub.add_parser("scenario", help=f"run scenario files (format: {scenarios.doc})",
                           description="Run each scenario file; one JSON line per file; exit 0 if all met their "
                                       "expect, 1 if any did not, 2 if a file is not a valid scenario. "
                                       f"The format: {scenarios.doc}.")
        p.add_argument("files", nargs="+", metavar="FILE")
        p.set_defaults(func=lambda a: scenario(scenarios, a.files, prog))
    return parser


class CommandError(Exception):
    """What a game's own subcommand says went wrong (a bad argument): one line, exit 2."""


def add_own_command(parent: Any, name: str, prog: str, run: Callable[[argparse.Namespace], int | None],
                    errors: tuple[type[BaseException], ...] = (), **kwargs: Any) -> argparse.ArgumentParser:
    """A game's own subcommand ``name`` under ``parent`` (from its ``add_commands``): ``run(args)``;
    a :class:`CommandError`, or an exception of ``errors`` (its file cannot be read...), is one
    line ``PROG: why`` on stderr and exit 2 (``prog``: the words of the command so far)."""
    p = parent.add_parser(name, **kwargs)

    caught: tuple[type[BaseException], ...] = (CommandError, *errors)

    def func(args: argparse.Namespace) -> int:
        try:
            return int(run(args) or 0)
        except caught as exc:
            print(f"{prog} {name}: {exc}", file=sys.stderr)
            return 2
    p.set_defaults(func=func)
    return p


def kit_of(cartridge: Cartridge, prog: str, table_config: str | None = None) -> Any:
    from .journal_commands import kit_of as journal_kit
    return journal_kit(cartridge, prog, table_config)


# ---------------------------------------------------------------------------- play
def play(cartridge: Cartridge, args: argparse.Namespace, prog: str, out: TextIO | None = None) -> int:
    """``PROG play``: the console's table flow (:mod:`bitbox.table.play`) with the game's rules."""
    from bitbox.bots import bot_names
    from bitbox.console import BotsError, command_bots

    from .play import PlayRequest
    from .play import play as console_play
    try:
        spec = command_bots(args.bots, args.bot, tuple(bot_names(cartridge)), getattr(cartridge, "mixed_bots", None),
                            most=cartridge.max_players, extra=("search",))
        given = given_options(args, cartridge)
        if args.resume and given:
            raise TableError("--resume keeps the game's options: leave the game's options out")
    except (BotsError, TableError, OptionError) as exc:
        print(f"{prog} play: {exc}", file=sys.stderr)
        return 2
    req = PlayRequest(players=args.players, bots=spec.count if spec is not None else None,
                      bot=",".join(spec.names) if spec is not None and spec.names else None, keyboard=args.keyboard,
                      seed=args.seed, lang=args.lang, headless=args.headless, snapshots=args.snapshots,
                      keep_snapshots=args.keep_snapshots, journal=args.journal, resume=args.resume, speed=args.speed, fullscreen=args.fullscreen,
                      size=args.size, controllers=tuple(args.controller), max_seconds=args.max_seconds, mute=args.mute,
                      lobby=args.lobby, options=given, out=out, names=args.names, then_home=args.then_home,
                      think=getattr(args, "think", None), rollouts=getattr(args, "rollouts", None))
    errors = (GameError, OptionError, *getattr(cartridge, "rules_errors", ()))
    return console_play(CartridgeTable(cartridge, prog, getattr(args, "table_config", None)), req, errors=errors)


def played(cartridge: Cartridge, game: Any) -> Any:
    """``game`` as the cartridge plays it: a game rebuilt by rules written for its engine
    (no ``prompts``) wrapped in the cartridge's game (its ``game_class``, else through its data)."""
    if callable(getattr(game, "prompts", None)):
        return game
    wrap = getattr(cartridge, "game_class", None)
    return wrap(game) if wrap is not None else cartridge.from_data(game.to_data())


def session_of(cartridge: Cartridge, game: Any, plans: Any, controls: Any = None, **kwargs: Any) -> Any:
    """``cartridge``'s ``game`` at the console's session (:class:`bitbox.table.session.Session`)
    with ``controls`` (default: the cartridge's); ``kwargs``: the session's (journal, pace,
    clock, inputs_applied, on_event)."""
    from .controls import controls_of
    from .session import Session
    return Session(cartridge, played(cartridge, game), plans,
                   controls=controls if controls is not None else controls_of(cartridge), **kwargs)


def bot_of(cartridge: Cartridge, player: str, sim: Any, bot: str, controls: Any = None, *, seed: int,
           think: float = 0.0, budget: Any = None) -> Any:
    """The bot ``bot`` of ``cartridge`` (or the console's search bot, with ``budget``) playing
    ``player`` on the simulated controller ``sim`` (:class:`bitbox.table.session.BotDriver`)."""
    from bitbox.bots import make_bot

    from .controls import controls_of
    from .session import BotDriver
    return BotDriver(player, sim, make_bot(cartridge, bot, None, budget),
                     controls if controls is not None else controls_of(cartridge), seed=seed, think=think)


class CartridgeTable:
    """Any cartridge at the console's table (:class:`bitbox.table.play.GameTable`): the
    console's own session (:class:`bitbox.table.session.Session`), drivers and display, with
    what the cartridge adds, each optional (docs/games.md, "At the table: what a game may add"):
    ``table_fields`` (its fields of table.yaml), ``table_options``, ``use_content`` /
    ``load_content`` (its content, loaded once a game), ``table_controls(settings)``,
    ``new_at_table(players, seed, options)``, ``table_settings(options, game)`` (what a game records
    of its options), ``table_notes(settings, words)`` (its status lines when dealt),
    ``lobby_lines(settings, words)``, ``headlines``, ``sounds``, ``display``, ``words``."""

    def __init__(self, cartridge: Cartridge, prog: str, table_config: str | None = None) -> None:
        from .config import defaults_of
        self.cartridge = cartridge
        self.table_config = table_config
        self.kit = kit_of(cartridge, prog, table_config)
        self.seating = seat_rules(cartridge)
        self.headlines = frozenset(getattr(cartridge, "headlines", None) or {"game_over"})
        self.cfg = defaults_of(cartridge)
        self.controls: Any = None
        self.options: dict[str, Any] = {}        # the game's options, complete (rules' and table's)
        self.budget: Any = None                  # the search bot's, from the request (prepare)

    def _hook(self, name: str) -> Any:
        hook = getattr(self.cartridge, name, None)
        return hook if callable(hook) else None

    def defaults(self) -> Any:
        from .config import load_table_config
        self.cfg = load_table_config(self.table_config, self.cartridge)   # read here, inside play: a bad file is one line
        return self.cfg

    def words(self, code: str) -> Any:
        return self.kit.words(code)

    def complete(self, given: Any) -> dict[str, Any]:
        """The options of a game: the given ones, else table.yaml's field of the same name,
        else the option's default; checked (:class:`OptionError`)."""
        table = list(getattr(self.cartridge, "table_options", None) or ())
        rules = {s.name for s in self.cartridge.options}
        start = {s.name: self.cfg.fields[s.name] for s in play_options(self.cartridge) if s.name in self.cfg.fields}
        start.update(given)
        options = check_options(self.cartridge, {k: v for k, v in start.items() if k in rules})
        for spec in table:
            value = start.get(spec.name, spec.default)
            if spec.choices and value not in spec.choices:
                raise OptionError(spec.name, f"must be one of {', '.join(map(repr, spec.choices))}, not {value!r}")
            options[spec.name] = value
        unknown = [k for k in given if k not in options]
        if unknown:
            raise OptionError(str(unknown[0]), f"unknown option for {self.cartridge.name}")
        return options

    def rules_options(self, options: Any) -> dict[str, Any]:
        rules = {s.name for s in self.cartridge.options}
        return {k: v for k, v in options.items() if k in rules}

    def settings_of(self, options: Any, game: Any = None) -> dict[str, Any]:
        """What a game records of its options (the cartridge's ``table_settings(options, game)``;
        ``game``: the game dealt, None before)."""
        own = self._hook("table_settings")
        return dict(own(dict(options), game)) if own is not None else {"options": dict(options)}

    def make_controls(self, settings: Any) -> Any:
        from .controls import controls_of
        return controls_of(self.cartridge, settings)

    def prepare(self, req: Any, headless: bool) -> str:
        from dataclasses import replace

        from bitbox.bots.search import Budget
        self.budget = Budget.at_table(getattr(req, "rollouts", None), getattr(req, "think", None))
        load, use = self._hook("load_content"), self._hook("use_content")
        if load is not None and use is not None:
            use(load())                          # read now (a file changed since is read again), once a game
        self.options = options = self.complete(req.options)
        barred = [s for s in play_options(self.cartridge) if s.players is not None and options.get(s.name) != s.default]
        for spec in barred:                      # an option for some player counts only: before anyone is seated
            if req.players is not None and spec.barred(options[spec.name], req.players):
                lo, hi = spec.players or (0, 0)
                what = f"the {spec.name} {spec.flag}" if spec.flag else f"the {spec.name} option"
                raise TableError(f"{what} is for {lo} {'or' if hi == lo + 1 else 'to'} {hi} players, not {req.players}")
        most = min([spec.players[1] for spec in barred if spec.players is not None], default=None)
        if most is not None and req.players is None and most < self.seating.demo_players:
            self.seating = replace(self.seating, demo_players=most)       # a demo the option allows
        if not req.resume:                       # checked now: a mistake in the game's controls is one line
            self.controls = self.make_controls(self.settings_of(options))
        mixed = getattr(self.cartridge, "mixed_bots", None)
        demo = getattr(self.cartridge, "demo_bots", None) or ",".join(mixed or self._bot_names())
        return str(req.bot or self.cfg.bot or demo)

    def _bot_names(self) -> list[str]:
        from bitbox.bots import bot_names
        return list(bot_names(self.cartridge))

    def bot_cycle(self, bot: str) -> list[str]:
        mixed = list(getattr(self.cartridge, "mixed_bots", None) or ())
        out: list[str] = []
        for name in (b.strip() for b in bot.split(",") if b.strip()):
            out.extend(mixed if name == "mixed" and mixed else (name,))
        return out

    def deal(self, seats: list[dict], seed: int, req: Any, words: Any) -> Any:
        from bitbox.i18n import Words

        from .play import NewGame
        from .words import option_shown
        options = dict(self.options)
        if {s["kind"] for s in seats} != {"controller"}:
            for spec in play_options(self.cartridge):
                if options.get(spec.name) in spec.controllers_only:       # never silently
                    logging.getLogger(f"bitbox.{self.cartridge.name}").info("%s", Words(words.code).t("status.cardboard"))
                    options[spec.name] = spec.default
        players = [s["player"] for s in seats]
        new = self._hook("new_at_table") or self.cartridge.new
        game = new(players, seed, self.rules_options(options))
        settings = self.settings_of(options, game)
        notes = self._hook("table_notes")
        before, after = notes(settings, words) if notes is not None else \
            ([], [option_shown(words, o.name, options[o.name]) for o in play_options(self.cartridge) if o.name in options])
        self.controls = self.make_controls(settings)
        return NewGame(game, settings, before=list(before), after=list(after))

    def resume(self, game: Any, settings: Any) -> None:
        self.controls = self.make_controls(settings)

    def session(self, game: Any, plans: list[Any], record: Any, pace: Any, inputs: int, printer: Any) -> Any:
        return session_of(self.cartridge, game, plans, self.controls, journal=record, pace=pace,
                          inputs_applied=inputs, on_event=printer)

    def bot_driver(self, player: str, sim: Any, bot: str, game: Any, pace: Any) -> Any:
        return bot_of(self.cartridge, player, sim, bot, self.controls, seed=self.seed(game), think=pace.think,
                      budget=self.budget)

    def keyboard(self, sims: Any, words: Any) -> Any:
        from .session import KeyboardDriver
        return KeyboardDriver(sims, self.controls, words)

    def loop(self) -> type:
        return table_loop(self.cartridge, self.kit)

    def turn(self, game: Any) -> int:
        return self.kit.rules.turn(game) if hasattr(self.kit.rules, "turn") else 0

    def seed(self, game: Any) -> int:
        return int(self.kit.rules.seed(game))

    def winners(self, game: Any) -> list[str]:
        return list(self.kit.rules.winners(game))

    def started(self, game: Any, given: bool) -> dict[str, Any]:
        return {"seed": self.seed(game)} if given else {}

    def lobby_options(self, req: Any, words: Any, bot: str) -> list[str]:
        from bitbox.i18n import LANGUAGE_NAMES, Words
        lines = self._hook("lobby_lines")
        own = lines(self.settings_of(self.options), words) if lines is not None else \
            [f"{k} {v}" for k, v in self.options.items()]
        return [LANGUAGE_NAMES[words.code], Words(words.code).t("lobby.opt.bots", bots=bot), *own]


def table_loop(cartridge: Cartridge, kit: Any) -> type:
    """The console's table loop (:class:`bitbox.table.app.TableLoop`) for ``cartridge``: its
    caption and command, its display (the kit's) and its sounds by event kind (its optional
    ``sounds``; default: the winner's)."""
    from .app import TableLoop

    class GameLoop(TableLoop):
        caption = f"{cartridge.title} — 8Bitbox"
        command = f"{kit.command} play"
        SOUNDS = dict(getattr(cartridge, "sounds", None) or {"game_over": "winner"})

        def make_display(self, size: tuple[int, int], surface: Any = None) -> Any:
            return kit.display(size, self.lang, surface)

    return GameLoop


def scenario(scenarios: Any, files: Sequence[str], prog: str) -> int:
    """``PROG scenario FILE...``: the cartridge's scenario format on the console's runner."""
    from bitbox.games.scenarios import run_scenarios
    return run_scenarios(scenarios, files, prog=f"{prog} scenario")


# ---------------------------------------------------------------------------- entry points
def run(cartridge: Cartridge, argv: Sequence[str], prog: str) -> int:
    """``PROG COMMAND ...`` for ``cartridge`` (``play`` when the first word is an option)."""
    argv = list(argv)
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version")):
        argv = ["play", *argv]
    parser = build_parser(cartridge, prog, argv[0] if argv else None)
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 2
    from bitbox.console import logging_from
    problem = logging_from(args, f"{prog} {args.command}")
    if problem is not None:
        return problem
    try:                                     # no frame added: a journal's JSON may nest up to the recursion limit
        return int(args.func(args) or 0)
    except (Exception, SystemExit) as exc:
        code = fault_said(cartridge, f"{prog} {args.command}", exc)
        if code is None:
            raise
        return code


def guarded(cartridge: Cartridge, prog: str, call: Callable[[], int | None]) -> int:
    """``call()``'s exit code, or :func:`fault_said`'s for what it raised."""
    try:
        return int(call() or 0)
    except (Exception, SystemExit) as exc:
        code = fault_said(cartridge, prog, exc)
        if code is None:
            raise
        return code


def fault_said(cartridge: Cartridge, prog: str, exc: BaseException) -> int | None:
    """A :class:`GameError` a command let out (a game that broke the protocol, found by the
    console) is ``prog``'s one line, exit 2, and so is anything raised, or a ``SystemExit``, in
    the cartridge's own code (:func:`game_fault`: the game and where): the exit code once said;
    None for anything else (the console's own fault, a traceback; a broken pipe, run_main's
    quiet exit)."""
    if isinstance(exc, BrokenPipeError):
        return None
    if isinstance(exc, GameError):
        print(f"{prog}: {printable(exc, 300)}", file=sys.stderr)
        return 2
    where = game_fault(cartridge, exc)
    if where is None:
        return None
    log.debug("the game's traceback", exc_info=exc)               # the whole of it in --log-file
    print(f"{prog}: the game {cartridge.name} failed in its own code ({where}): "
          f"{type(exc).__name__}: {printable(exc, 200)}", file=sys.stderr)
    return 2


def game_fault(cartridge: Cartridge, exc: BaseException) -> str | None:
    """Where ``exc`` was raised in the cartridge's own code (``file:line in function``, its
    innermost frame there: a cartridge that raises, exits or recurses at the table), or None
    when no frame of its traceback is the cartridge's (its package's files, or its module's)."""
    import os
    import traceback
    module = sys.modules.get(type(cartridge).__module__.split(".")[0])
    if module is None:
        return None
    roots = [os.path.abspath(p) + os.sep for p in getattr(module, "__path__", ())]
    file = getattr(module, "__file__", None)
    own = {os.path.abspath(file)} if file and not roots else set()
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        name = os.path.abspath(frame.filename)
        if name in own or any(name.startswith(r) for r in roots):
            found = frame
    if found is None:
        return None
    return f"{os.path.basename(found.filename)}:{found.lineno} in {found.name}"


def command_name(cartridge: Cartridge) -> str:
    """The name a game's command goes by: its console script's (``outspeed``), else the
    console's ``bitbox game NAME``."""
    from .journal import command_of
    return command_of(str(cartridge.name))


def own_command(cartridge: Cartridge, argv: list[str], command: str | None = "play") -> int:
    """``bitbox play --game NAME ARGS`` (and ``bitbox game NAME COMMAND ARGS``, ``command``
    None): the game's command, the same code path as its own script's (``NAME play ARGS``),
    named as that script when it has one."""
    argv = [command, *argv] if command is not None else list(argv)
    return run(cartridge, argv, command_name(cartridge))


def main(argv: Sequence[str] | None = None, name: str | None = None,
         cartridge_of: Callable[[], Cartridge] | None = None) -> int:
    """A cartridge's own command: ``name`` (default: the program's name, so that a console
    script ``goofspiel = "bitbox.table.command:main"`` runs the cartridge ``goofspiel``);
    ``cartridge_of``: how the game's own script gets its cartridge without looking through
    every installed package's entry points (the registry's scan: a start-up cost)."""
    from bitbox.console import run_main
    from bitbox.games import find
    name = name or Path(sys.argv[0]).name
    try:
        cartridge = cartridge_of() if cartridge_of is not None else find(name)
    except GameError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    return run_main(lambda: run(cartridge, sys.argv[1:] if argv is None else argv, name))


def game_main(name: str, cartridge: str | None = None) -> Any:
    """The console-script target of the game ``name``'s own command (``outspeed =
    "outspeed.cli:main"`` where ``main = game_main("outspeed", "outspeed.cartridge:CARTRIDGE")``;
    ``cartridge``: where its cartridge is, as its entry point names it, else it is found by
    name among the installed games)."""
    def cartridge_of() -> Cartridge:
        from importlib import import_module
        module, _, attribute = str(cartridge).partition(":")
        found: Cartridge = getattr(import_module(module), attribute)
        return found

    def main_of(argv: Sequence[str] | None = None) -> int:
        return main(argv, name, cartridge_of if cartridge is not None else None)
    return main_of


__all__ = ["CartridgeTable", "CommandError", "add_own_command", "add_play_arguments", "add_table_commands", "bot_of", "build_parser", "fault_said", "game_fault", "game_main", "guarded", "main",
           "own_command", "play", "played", "run", "seed_arg", "session_of", "table_loop"]
