"""The table command of any game, built by the console from its cartridge.

``bitbox game NAME COMMAND ...`` (and ``bitbox play --game NAME`` for a game that brings no
table of its own) runs any installed cartridge with no code of the game's besides its rules,
its cartridge object and (optionally) its bots, controls and words:

* ``play``: controllers found (or simulated ones for bots), ``--bots``, ``--keyboard``,
  ``--seed``, ``--lang``, ``--headless``, ``--snapshots``, ``--journal``, ``--resume``,
  ``--speed``, ``--size``, ``--fullscreen``, ``--mute``, ``--lobby``, and one option per
  option of the cartridge (``--cards 5``);
* ``history`` (``--json``), ``replay``, ``export``, ``import``: the journal's, the same as
  every game's;
* ``simulate``: the console's harness (``bitbox simulate NAME``);
* ``scenario``: for a cartridge with a scenario format (``scenarios``), the console's
  runner (:mod:`bitbox.games.scenarios`).

A game's package can give its players a command of its own name with a console script
pointing at :func:`main` (``goofspiel = "bitbox.table.command:main"``): the script's name
chooses the cartridge.
"""
from __future__ import annotations

import argparse
import logging
import os
import secrets
import signal
import sys
from pathlib import Path
from typing import Any, Sequence, TextIO

from bitbox.colours import SEAT_COLOURS
from bitbox.games.protocol import Cartridge, GameError, OptionError, OptionSpec, check_options

from .journal import GameInfo, GameRecord, Journal, JournalError, default_journal_path, rebuild, verify
from .seating import LeftLobby, SeatRequest, SeatRules, TableError, connect
from .seating import plans as seat_plans

log = logging.getLogger("bitbox.table")

SECRET_SEED_BITS = 128


# ---------------------------------------------------------------------------- signals
class Terminated(KeyboardInterrupt):
    """SIGTERM: stop as on Ctrl-C."""


class StopRequest:
    """Ctrl-C and SIGTERM while the table loop runs: a request the loop reads at its next
    frame (never an exception in the middle of the hub's or the journal's work); outside the
    loop, or a second one, raises as Ctrl-C does."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self.in_loop = False

    def __call__(self, signum: int, frame: Any) -> None:
        if self.in_loop and self.signum is None:
            self.signum = signum
            return
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    def exit_code(self) -> int | None:
        if self.signum is None:
            return None
        return 143 if self.signum == signal.SIGTERM else 130

    def catch(self) -> dict[int, Any]:
        os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
        self.signum, self.in_loop = None, False
        previous: dict[int, Any] = {}
        try:
            for sig in (signal.SIGINT, signal.SIGTERM):
                previous[sig] = signal.signal(sig, self)
        except ValueError:                       # not the main thread
            pass
        return previous


# ---------------------------------------------------------------------------- options
def seed_arg(text: str) -> int:
    """A seed on the command line: a whole number from 0 to 2^128 - 1 (ASCII digits)."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0, not {text[:20]!r}")
    value = int(text)
    if value >= 2 ** SECRET_SEED_BITS:
        raise argparse.ArgumentTypeError(f"a seed is below 2^{SECRET_SEED_BITS}")
    return value


def option_flag(spec: OptionSpec) -> str:
    return "--" + spec.name.replace("_", "-")


def add_game_options(p: argparse.ArgumentParser, cartridge: Cartridge) -> None:
    """One command-line option per option of the cartridge (its help, its choices)."""
    group = p.add_argument_group(f"{cartridge.title}'s options")
    for spec in cartridge.options:
        flag, dest = option_flag(spec), f"opt_{spec.name}"
        if isinstance(spec.default, bool):
            group.add_argument(flag, dest=dest, action=argparse.BooleanOptionalAction, default=None,
                               help=f"{spec.help} (default {'on' if spec.default else 'off'})")
        else:
            kind: Any = type(spec.default) if isinstance(spec.default, (int, float, str)) else str
            choices = list(spec.choices) or None
            group.add_argument(flag, dest=dest, type=kind, choices=choices, default=None, metavar="VALUE" if not choices else None,
                               help=f"{spec.help} (default {spec.default})")


def given_options(args: argparse.Namespace, cartridge: Cartridge) -> dict[str, Any]:
    return {s.name: getattr(args, f"opt_{s.name}") for s in cartridge.options
            if getattr(args, f"opt_{s.name}", None) is not None}


def seat_rules(cartridge: Cartridge) -> SeatRules:
    if cartridge.max_players > len(SEAT_COLOURS):
        raise TableError(f"{cartridge.title} seats up to {cartridge.max_players} players; the table has "
                         f"{len(SEAT_COLOURS)} seat colours")
    return SeatRules(cartridge.title, SEAT_COLOURS[:cartridge.max_players], min_players=cartridge.min_players,
                     max_players=cartridge.max_players,
                     demo_players=min(cartridge.max_players, max(cartridge.min_players, 4)))


def build_parser(cartridge: Cartridge, prog: str) -> argparse.ArgumentParser:
    from bitbox.console import OneLineParser, add_logging_options, add_version

    from .gamefile import add_journal_commands, game_id_arg
    from .options import size_arg, speed_arg
    parser = OneLineParser(prog=prog, description=f"{cartridge.title} at the 8Bitbox table.")
    add_version(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("play", help="play a game at the table (controllers, bots, keyboard)")
    p.add_argument("--players", type=int, metavar="N",
                   help=f"players ({cartridge.min_players}-{cartridge.max_players}; default: the controllers found, or a demo)")
    p.add_argument("--bots", metavar="N|NAMES|N:NAMES", help="bots: a count, names cycled over their seats, or both")
    p.add_argument("--keyboard", action="store_true", help="hot-seat: the players share this keyboard")
    p.add_argument("--seed", type=seed_arg, help="the game's seed, 0 to 2^128-1 (default: a secret one)")
    p.add_argument("--lang", choices=("en", "es", "fr", "de"), help="the table's language (default en)")
    p.add_argument("--headless", action="store_true", help="no window: print the events, save a PNG per turn")
    p.add_argument("--snapshots", metavar="DIR", help="where headless games save their PNGs (default ./snapshots)")
    p.add_argument("--journal", metavar="PATH", help="the journal (default: the user's data folder)")
    p.add_argument("--resume", action="store_true", help="continue the last unfinished game of this game")
    p.add_argument("--speed", type=speed_arg, help="pace of the table (0: instant; default 1, headless 0)")
    p.add_argument("--size", type=size_arg, metavar="WxH", help="window or snapshot size (default 1280x720)")
    p.add_argument("--fullscreen", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument("--mute", action="store_true", help="no sounds")
    p.add_argument("--lobby", choices=("auto", "always", "never"), default="auto",
                   help="the lobby before a new game (auto: with a window and controllers)")
    p.add_argument("--controller", action="append", metavar="URL", default=[],
                   help="a controller to open besides the discovered ones; repeatable")
    p.add_argument("--max-seconds", type=float, help=argparse.SUPPRESS)
    add_game_options(p, cartridge)
    add_logging_options(p)
    p.set_defaults(func=lambda a: play(cartridge, a, prog))
    p = sub.add_parser("replay", help="step through a game of the journal, turn by turn")
    p.add_argument("game", nargs="?", type=game_id_arg, metavar="ID", help="the game (default: the last finished)")
    p.add_argument("--journal", metavar="PATH")
    p.add_argument("--lang", choices=("en", "es", "fr", "de"))
    p.add_argument("--headless", action="store_true")
    p.add_argument("--snapshots", metavar="DIR", help="headless: save one PNG per turn under DIR")
    p.add_argument("--size", type=size_arg, metavar="WxH")
    add_logging_options(p)
    p.set_defaults(func=lambda a: replay(cartridge, a, prog))
    add_journal_commands(sub, prog, lambda a: history(cartridge, a, prog),
                         lambda a: export(cartridge, a, prog), lambda a: import_(cartridge, a, prog))
    p = sub.add_parser("simulate", help="play many games with bots (the console's harness)", add_help=False)
    p.set_defaults(func=None)
    scenarios = getattr(cartridge, "scenarios", None)
    if scenarios is not None:
        p = sub.add_parser("scenario", help=f"run scenario files (format: {scenarios.doc})",
                           description="Run each scenario file; one JSON line per file; exit 0 if all met their "
                                       "expect, 1 if any did not, 2 if a file is not a valid scenario.")
        p.add_argument("files", nargs="+", metavar="FILE")
        p.set_defaults(func=lambda a: scenario(scenarios, a.files, prog))
    return parser


def journal_path(given: str | None) -> Path:
    if given is not None and not given.strip():
        raise TableError("--journal: an empty path (give a file, or leave the option out)")
    return Path(given or default_journal_path()).expanduser()


def _name_of(cartridge: Cartridge, game: str) -> str:
    return f"`{game} ...`" if game == cartridge.name else f"`bitbox game {game} ...`"


def check_game_of(info: GameInfo, cartridge: Cartridge, prog: str, sub: str) -> None:
    """A record of another cartridge: one line naming the command that handles it."""
    game = info.game
    if game != cartridge.name:
        raise TableError(f"game {info.id} is a game of {game!r}, not {cartridge.name!r}: use `bitbox game {game} {sub}`")


# ---------------------------------------------------------------------------- play
def play(cartridge: Cartridge, args: argparse.Namespace, prog: str, out: TextIO | None = None) -> int:
    from bitbox.config import ConfigError as DeviceConfigError
    from bitbox.console import logging_from
    code = logging_from(args, prog)
    if code is not None:
        return code
    out = out or sys.stdout
    stop = StopRequest()
    previous = stop.catch()
    try:
        return _play(cartridge, args, f"{prog} play", out, stop)
    except LeftLobby:
        log.info("%s: left the lobby: no game started", prog)
        return 0
    except (DeviceConfigError, JournalError, TableError, GameError, OptionError) as exc:
        print(f"{prog} play: {exc}", file=sys.stderr)
        return 2
    except Terminated:
        print(f"{prog} play: terminated (an unfinished game continues with --resume)", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print(f"{prog} play: interrupted (an unfinished game continues with --resume)", file=sys.stderr)
        return 130
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _bot_cycle(cartridge: Cartridge, bots: str | None) -> tuple[int | None, tuple[str, ...]]:
    from bitbox.bots import bot_names
    from bitbox.console import BotsError, parse_bots
    known = tuple(bot_names(cartridge))
    mixed = tuple(getattr(cartridge, "mixed_bots", None) or known)     # a lively demo: every bot in turn
    if bots is None:
        return None, mixed
    try:
        spec = parse_bots(bots, known, getattr(cartridge, "mixed_bots", None))
    except BotsError as exc:
        raise TableError(f"--bots: {exc}") from None
    return spec.count, spec.kinds(mixed)


def _play(cartridge: Cartridge, args: argparse.Namespace, prog: str, out: TextIO, stop: StopRequest) -> int:
    from bitbox.bots import make_bot
    from bitbox.controllers import load_controllers_config
    from bitbox.hub import Hub
    from bitbox.i18n import Words
    from bitbox.sound import Sounds

    from .app import display_available
    from .controls import controls_of
    from .options import game_folder
    from .protocol_rules import ProtocolJournalRules
    from .referee import Pace
    from .session import BotDriver, KeyboardDriver, Session
    from .words import words_of

    rules_seats = seat_rules(cartridge)
    headless = args.headless
    if not headless and not display_available():
        log.info("%s", Words(args.lang or "en").t("status.headless"))
        headless = True
    if headless and args.keyboard:
        raise TableError("--keyboard needs a screen and a keyboard (no display found)")
    if args.resume and given_options(args, cartridge):
        raise TableError("--resume keeps the game's options: leave the game's options out")
    options = check_options(cartridge, given_options(args, cartridge))
    n_bots, cycle = _bot_cycle(cartridge, args.bots)
    speed = args.speed if args.speed is not None else (0.0 if headless else 1.0)
    pace = Pace().scaled(speed)
    controllers = load_controllers_config()
    path = journal_path(args.journal)
    snapshots = None
    journal = Journal(path, ProtocolJournalRules(cartridge), command=prog.split()[0])
    for line in journal.notices:
        log.info("note: %s", line)
    try:
        hub = Hub(config=controllers)
    except BaseException:
        journal.close()
        raise
    try:
        lang_code = args.lang or "en"
        resumed: GameInfo | None = None
        request = SeatRequest(players=args.players, bots=n_bots, keyboard=args.keyboard, urls=tuple(args.controller),
                              wait=3.0, lang=lang_code)
        if args.resume:
            resumed = next((g for g in reversed(journal.games()) if g.status != "finished"
                            and g.game == cartridge.name), None)
            if resumed is None:
                raise TableError(f"no unfinished {cartridge.title} game to resume in {path}")
            game, n_inputs = rebuild(journal, resumed.id)
            settings = resumed.settings
            lang_code = args.lang or settings.get("lang", "en")
            bots_setting = settings.get("bot")
            if isinstance(bots_setting, str) and bots_setting:
                cycle = tuple(bots_setting.split(","))
            wanted = [dict(s) for s in settings.get("seats", [])]
            if any(s.get("kind") == "keyboard" for s in wanted) and headless:
                raise TableError("this game has keyboard players: it needs a screen to resume")
            seats, sims, pending = connect(hub, rules_seats, request, wanted, out)
            record = GameRecord(journal, resumed.id, n_inputs)
            log.info("Resuming game %s at turn %s, %s replayed from %s", resumed.id,
                     ProtocolJournalRules(cartridge).turn(game), f"{n_inputs} input{'s' if n_inputs != 1 else ''}", path)
        else:
            lobby = None
            if args.lobby != "never" and not args.keyboard:
                from .lobby import arrange
                shown = ", ".join(f"{o.name} {v}" for o, v in zip(cartridge.options, options.values()))
                lobby = arrange(hub, rules_seats.names, rules_seats.max_players, urls=args.controller,
                                window=not headless, title=cartridge.title, options=shown, bots=n_bots,
                                min_players=rules_seats.min_players, out=out, size=args.size or (1280, 720),
                                fullscreen=bool(args.fullscreen), max_seconds=args.max_seconds,
                                always=args.lobby == "always", lang=lang_code)
            seats, sims, pending = connect(hub, rules_seats, request, None, out, arrange=lobby)
            names = [s["player"] for s in seats]
            seed = args.seed if args.seed is not None else secrets.randbits(SECRET_SEED_BITS)
            game = cartridge.new(names, seed, options)
            settings = {"seats": [{k: s[k] for k in ("player", "kind", "controller_id")} for s in seats],
                        "lang": lang_code, "bot": ",".join(cycle), "options": dict(options),
                        "seed": "given" if args.seed is not None else "secret"}
            record = journal.new_game(game, settings)
            n_inputs = 0
            who = ", ".join(f"{s['player']} ({s['kind']})" for s in seats)
            log.info("%s game %s: %s; %s; journal %s", cartridge.title, record.id, who,
                     f"seed {seed}" if args.seed is not None else "secret seed (shown by history once it ends)", path)
        words = words_of(cartridge, lang_code)
        if headless or args.snapshots:
            from .options import check_snapshots
            base = check_snapshots(args.snapshots or "snapshots")
            assert base is not None
            snapshots = game_folder(base, f"{cartridge.name}-{record.id}")
            log.info("snapshots of game %s: %s%s", record.id, snapshots, os.sep)

        def printer(entry: Any) -> None:
            print(("" if entry.kind in ("game_over",) else "  ") + words.event(entry.kind, entry.data), file=out, flush=True)

        controls = controls_of(cartridge)
        session = Session(cartridge, game, seat_plans(seats), controls=controls, journal=record, pace=pace,
                          inputs_applied=n_inputs, on_event=printer)
        if resumed:
            session.log_message("resumed", {"turn": ProtocolJournalRules(cartridge).turn(game)})
        else:
            session.log_message("started", {"seed": game_seed_of(game)} if args.seed is not None else {})
        drivers: list[Any] = []
        kb_sims = {}
        seed = game_seed_of(game)
        n_bot = 0
        for s in seats:
            if s["kind"] == "bot":
                name = cycle[n_bot % len(cycle)]
                n_bot += 1
                bot = make_bot(cartridge, name, None)
                drivers.append(BotDriver(s["player"], sims[s["player"]], bot, controls, seed=seed, think=pace.think))
            elif s["kind"] == "keyboard":
                kb_sims[s["player"]] = sims[s["player"]]
        keyboard = KeyboardDriver(kb_sims, controls, words) if kb_sims else None
        if keyboard is not None:
            drivers.append(keyboard)
        for e in pending:
            session.handle(e)
        sound = Sounds.open(muted=args.mute or headless)
        loop = GameLoop(session, hub, drivers, keyboard, words, headless=headless, out=out, snapshots=snapshots,
                        size=args.size or ((1920, 1080) if headless else (1280, 720)),
                        fullscreen=bool(args.fullscreen), max_seconds=args.max_seconds, sound=sound)
        loop.cartridge, loop.stop = cartridge, stop
        loop.caption = f"{cartridge.title} — 8Bitbox"
        loop.command = prog
        try:
            code = loop.run()
        except KeyboardInterrupt as exc:
            code = 143 if isinstance(exc, Terminated) else 130
        if session.finished:
            winners = list(session.game.winners)
            print(words.t("ui.winner", players=words.players(winners)) if winners else words.t("ui.no_winner"),
                  file=out, flush=True)
        else:
            log.warning("game %s saved: `%s --resume --journal %s` continues it", record.id, prog, path)
        return code
    finally:
        hub.close()
        journal.close()


def game_seed_of(game: Any) -> int:
    from .protocol_rules import game_seed
    return game_seed(game)


def _loop_class() -> Any:
    from .app import TableLoop

    class GameLoop(TableLoop):
        """The console's table loop with the generic display of any game."""

        cartridge: Any = None
        stop: StopRequest | None = None
        SOUNDS = {"game_over": "winner"}

        def make_display(self, size: tuple[int, int], surface: Any = None) -> Any:
            return make_display(self.cartridge, self.lang, size, surface)

        def run(self) -> int:
            if self.stop is not None:
                self.stop.in_loop = True
            try:
                return int(super().run())
            finally:
                if self.stop is not None:
                    self.stop.in_loop = False

        def stop_requested(self) -> int | None:
            return self.stop.exit_code() if self.stop is not None else None

    return GameLoop


def GameLoop(*args: Any, **kwargs: Any) -> Any:                    # noqa: N802 - a class made on first use
    """The table loop (:class:`bitbox.table.app.TableLoop`) with the game's display; pygame
    is imported only when a game is played."""
    return _loop_class()(*args, **kwargs)


def make_display(cartridge: Cartridge, words: Any, size: tuple[int, int], surface: Any = None) -> Any:
    """The cartridge's own display (``display(size, words, surface)``) or the console's."""
    own = getattr(cartridge, "display", None)
    if callable(own):
        return own(size, words, surface)
    from bitbox.display.generic import GenericDisplay
    return GenericDisplay(size, words, surface, title=cartridge.title, words=words)


# ---------------------------------------------------------------------------- journal commands
def _journal_for(cartridge: Cartridge, given: str | None, prog: str) -> Path:
    path = journal_path(given)
    if not path.exists() and not path.is_symlink():
        raise JournalError(f"{path}: no journal here (no game has been played with it)")
    return path


def history(cartridge: Cartridge, args: argparse.Namespace, prog: str, out: TextIO | None = None) -> int:
    from bitbox.console import logging_from

    from .history import print_history_json, print_journal_history
    code = logging_from(args, prog)
    if code is not None:
        return code
    out = out or sys.stdout
    try:
        path = journal_path(args.journal)
        if not path.exists() and not path.is_symlink():
            if args.json:
                print_history_json([], str(path.absolute()), out)
            else:
                print(f"no games yet ({path} does not exist)", file=out)
            return 0
        with Journal(path, create=False, command=prog) as j:
            games = [verify(j, g.id) for g in j.games()]
    except (JournalError, TableError) as exc:
        print(f"{prog} history: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print_history_json(games, str(path.absolute()), out)
    elif not games:
        print(f"no games yet in {path}", file=out)
    else:
        print_journal_history(games, out, cartridge.name)
    return 0


def export(cartridge: Cartridge, args: argparse.Namespace, prog: str) -> int:
    from .gamefile import export_command
    try:
        path = journal_path(args.journal)
    except TableError as exc:
        print(f"{prog} export: {exc}", file=sys.stderr)
        return 2
    return export_command(f"{prog} export", path, args.game, args.file, include_secrets=args.include_secrets,
                          command=prog)


def import_(cartridge: Cartridge, args: argparse.Namespace, prog: str) -> int:
    from .gamefile import import_command
    try:
        path = journal_path(args.journal)
    except TableError as exc:
        print(f"{prog} import: {exc}", file=sys.stderr)
        return 2
    return import_command(f"{prog} import", path, args.file, command=prog)


def replay(cartridge: Cartridge, args: argparse.Namespace, prog: str, out: TextIO | None = None) -> int:
    """``replay ID``: the game turn by turn (← → in the window; headless: its events printed,
    with one PNG per turn under ``--snapshots``). Each frame is the table after its turn."""
    from dataclasses import replace

    from bitbox.console import logging_from
    from bitbox.display.model import ShellView

    from .app import display_available, init_pygame
    from .history import replay_frames, replay_headless
    from .options import check_snapshots
    from .protocol_rules import ProtocolJournalRules
    from .words import words_of
    code = logging_from(args, prog)
    if code is not None:
        return code
    out = out or sys.stdout
    rules = ProtocolJournalRules(cartridge)
    try:
        path = _journal_for(cartridge, args.journal, prog)
        snapshot_dir = check_snapshots(args.snapshots) if args.snapshots else None
        with Journal(path, create=False, command=prog) as j:
            game_id = args.game
            if game_id is None:
                games = [g for g in j.games() if g.status == "finished" and g.game == cartridge.name]
                if not games:
                    raise JournalError(f"{path}: no finished {cartridge.title} game to replay")
                game_id = games[-1].id
            info = j.game(game_id)
            check_game_of(info, cartridge, prog, f"replay {game_id}")
            frames = replay_frames(j, game_id, rules)
    except (JournalError, TableError) as exc:
        print(f"{prog} replay: {exc}", file=sys.stderr)
        return 2
    words: Any = words_of(cartridge, args.lang or info.settings.get("lang") or "en")
    players = list(info.players)
    winners = list(info.winners or [])

    def table(i: int) -> ShellView:
        f = frames[i]
        done = i == len(frames) - 1 and info.status == "finished"
        view = {"players": [{"player": p, "active": True} for p in players], "winners": winners if done else [],
                "game": f.view, "turn": f.turn or None}
        base = ShellView(view=view)
        return replace(base, stage="finished" if done else "replay", log=tuple(f.log))

    headless = args.headless
    if not headless and not display_available():
        headless = True
    pygame = init_pygame(headless)
    if headless:
        display = make_display(cartridge, words, args.size or (1920, 1080))

        def draw(i: int) -> Any:
            display.render(table(i), full=True)
            return display.surface

        return int(replay_headless(
            frames, prog=f"{prog} replay", folder=f"replay-{cartridge.name}-{game_id}", draw=draw,
            line=lambda e: ("" if e.kind == "game_over" else "  ") + words.event(e.kind, e.data),
            snapshots=snapshot_dir, out=out, status=lambda folder: f"snapshots of the replay of game {game_id}: {folder}",
            last_line=words.t("ui.winner", players=words.players(winners)) if winners else words.t("ui.no_winner")))
    screen = pygame.display.set_mode(args.size or (1280, 720), pygame.RESIZABLE)
    pygame.display.set_caption(f"{cartridge.title} — replay of game {game_id}")
    display = make_display(cartridge, words, screen.get_size(), screen)
    clock = pygame.time.Clock()
    i = len(frames) - 1 if len(frames) == 1 else 1
    while True:
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT or (ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE, pygame.K_q)):
                return 0
            if ev.type == pygame.KEYDOWN:
                if ev.key in (pygame.K_RIGHT, pygame.K_SPACE):
                    i = min(len(frames) - 1, i + 1)
                elif ev.key in (pygame.K_LEFT, pygame.K_BACKSPACE):
                    i = max(0, i - 1)
                elif ev.key == pygame.K_HOME:
                    i = 0
                elif ev.key == pygame.K_END:
                    i = len(frames) - 1
        dirty = display.render(table(i), surface=pygame.display.get_surface())
        if dirty:
            pygame.display.update(dirty)
        clock.tick(30)


def scenario(scenarios: Any, files: Sequence[str], prog: str) -> int:
    """``PROG scenario FILE...``: the cartridge's scenario format on the console's runner."""
    from bitbox.games.scenarios import run_scenarios
    return run_scenarios(scenarios, files, prog=f"{prog} scenario")


# ---------------------------------------------------------------------------- entry points
def run(cartridge: Cartridge, argv: Sequence[str], prog: str) -> int:
    """``PROG COMMAND ...`` for ``cartridge`` (``play`` when the first word is an option)."""
    argv = list(argv)
    if argv[:1] == ["simulate"]:
        from bitbox.cli import main as bitbox_main
        return int(bitbox_main(["simulate", cartridge.name, *argv[1:]]))
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version")):
        argv = ["play", *argv]
    parser = build_parser(cartridge, prog)
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


def main(argv: Sequence[str] | None = None, name: str | None = None) -> int:
    """A cartridge's own command: ``name`` (default: the program's name, so that a console
    script ``goofspiel = "bitbox.table.command:main"`` runs the cartridge ``goofspiel``)."""
    from bitbox.console import run_main
    from bitbox.games import find
    name = name or Path(sys.argv[0]).name
    try:
        cartridge = find(name)
    except GameError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    return run_main(lambda: run(cartridge, sys.argv[1:] if argv is None else argv, name))


__all__ = ["build_parser", "main", "play", "replay", "run"]
