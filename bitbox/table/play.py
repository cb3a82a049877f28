"""``play``: the console's table flow, the same for every game.

:func:`play` does what every game's ``play`` does, once: Ctrl-C and SIGTERM, a display or
headless (said in a line), the pace, the controllers' config, the snapshot folder, the
journal, the hub, a new game (seats found or simulated, the lobby) or the last unfinished
one resumed, the status lines in the table's language, the drivers of bots and keyboard
players, the table loop, and the last line (the winners, or how to resume). A game gives
what is its own through a :class:`GameTable`: how to deal a game and what to record of it,
its referee session, its bot and keyboard drivers, its table loop (display and sounds).
"""
from __future__ import annotations

import logging
import os
import shlex
import secrets
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping, Protocol, Sequence, TextIO

from bitbox.display.ending import ending_lines, ending_of
from bitbox.display.model import LogEntry
from bitbox.i18n import Words

from .journal import GameInfo, GameRecord, Journal, JournalError, journal_option, rebuild, turns_by_input
from .journal_commands import TableKit
from .names import named, names_of, seat_names
from .seating import LeftLobby, SeatRequest, SeatRules, TableError, connect
from .seating import plans as seat_plans

log = logging.getLogger("bitbox.table")

SECRET_SEED_BITS = 128


def new_seed() -> int:
    """A game's secret seed, from the operating system: it decides everything hidden, so it
    must not be guessable. Never shown before the game ends."""
    return secrets.randbits(SECRET_SEED_BITS)


@dataclass
class PlayRequest:
    """What the command line asked of ``play`` (None: the game's default, or decided from the
    controllers found)."""

    players: int | None = None
    bots: int | None = None                   # how many seats bots take
    bot: str | None = None                    # the bots, comma-separated, cycled over their seats
    keyboard: bool = False
    seed: int | None = None
    lang: str | None = None
    headless: bool = False
    snapshots: str | None = None
    keep_snapshots: int | None = None         # snapshot folders kept (None: bitbox.table.snapshots.KEEP_SNAPSHOTS)
    journal: str | None = None
    resume: bool = False
    speed: float | None = None
    fullscreen: bool | None = None
    size: tuple[int, int] | None = None
    controllers: Sequence[str] = ()
    max_seconds: float | None = None          # give up (exit 3) after this long (tests, CI)
    mute: bool = False
    lobby: str = "auto"                       # auto | always | never (bitbox.table.lobby)
    options: Mapping[str, Any] = field(default_factory=dict)      # the game's own, as given
    out: TextIO | None = None
    then_home: bool = False                   # started from the home screen: after the winner, a lock goes on
    names: Sequence[str] = ()                 # the people's names, in seat order (bitbox.table.names)
    think: int | None = None                  # the search bot's milliseconds per decision (--think)
    rollouts: int | None = None               # the search bot's rollouts per decision (--rollouts)


@dataclass(frozen=True)
class TableDefaults:
    """A table's defaults where the command line says nothing (config/table.yaml,
    :mod:`bitbox.table.config`): the console's fields, and ``fields``, the game's own
    (its cartridge's ``table_fields``, by name)."""

    language: str = "en"
    speed: float = 1.0
    window: tuple[int, int] = (1280, 720)
    fullscreen: bool = False
    wait_for_controllers: float = 3.0
    snapshots: str = "snapshots"
    journal: str | None = None
    sound: bool = True
    bot: str | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class NewGame:
    """A game just dealt: the game, its settings to record (besides seats, language, bots and
    the seed kind, which the console records) and the notes of its options for the status
    line, in the table's language (``before`` and ``after`` the seed's)."""

    game: Any
    settings: dict[str, Any]
    before: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)


class GameTable(Protocol):
    """What a game gives the console's play flow."""

    kit: TableKit
    seating: SeatRules

    def defaults(self) -> TableDefaults: ...
    def words(self, code: str) -> Any: ...
    def prepare(self, req: PlayRequest, headless: bool) -> str: ...          # check; the bots to seat
    def bot_cycle(self, bot: str) -> Sequence[str]: ...                      # the bots cycled over the bot seats
    def deal(self, seats: list[dict], seed: int, req: PlayRequest, words: Any) -> NewGame: ...
    def resume(self, game: Any, settings: Mapping[str, Any]) -> None: ...
    def session(self, game: Any, plans: list[Any], record: GameRecord, pace: Any, inputs: int,
                printer: Any) -> Any: ...
    def bot_driver(self, player: str, sim: Any, bot: str, game: Any, pace: Any) -> Any: ...
    def keyboard(self, sims: Mapping[str, Any], words: Any) -> Any: ...
    def loop(self) -> type: ...
    def turn(self, game: Any) -> int: ...
    def seed(self, game: Any) -> int: ...
    def winners(self, game: Any) -> list[str]: ...
    def started(self, game: Any, given: bool) -> dict[str, Any]: ...
    def lobby_options(self, req: PlayRequest, words: Any, bot: str) -> list[str]: ...


class Printer:
    """The game's events on stdout, in its words: headlines flush left, the rest indented."""

    def __init__(self, words: Any, out: TextIO, headlines: frozenset[str]) -> None:
        self.words, self.out, self.headlines = words, out, headlines
        self.events: list[tuple[str, Any]] = []     # every public event of the game (the end screen's figures)

    def __call__(self, entry: Any) -> None:
        self.events.append((str(entry.kind), entry.data))
        prefix = "" if entry.kind in self.headlines else "  "
        print(prefix + self.words.event(entry.kind, entry.data), file=self.out, flush=True)


def play(table: GameTable, req: PlayRequest, errors: tuple[type[BaseException], ...] = ()) -> int:
    """``COMMAND play``: the exit code; every expected problem is one line on stderr (exit 2),
    Ctrl-C 130 and SIGTERM 143 (the journal keeps the game: ``--resume``)."""
    from bitbox.config import ConfigError as DeviceConfigError

    from .app import StopRequest, Terminated
    out = req.out or sys.stdout
    prog = f"{table.kit.command} play"
    stop = StopRequest()
    previous = stop.catch()
    said: list[Words] = [Words(req.lang or "en")]      # the table's language, once it is known
    try:
        return _play(table, req, out, said, stop)
    except LeftLobby:
        logging.getLogger(f"bitbox.{table.kit.name}").info("%s", said[0].t("status.left_lobby", command=prog))
        return 0
    except (DeviceConfigError, JournalError, TableError) + errors as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    except Terminated:
        print(said[0].t("status.terminated", command=prog), file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print(said[0].t("status.interrupted", command=prog), file=sys.stderr)
        return 130
    finally:
        StopRequest.restore(previous)


def lobby_names(journal: Journal) -> list[str]:
    """The names the journal's games gave their seats, most recent first (the lobby's wheel)."""
    from .names import known_names
    return known_names(journal, 64)


def earlier_events(journal: Journal, game_id: int, rules: Any) -> list[tuple[str, Any]]:
    """The public events of a game so far, replayed from the journal (a resumed game's end
    screen counts them); none when it cannot be replayed."""
    from .history import replay_frames
    try:
        return [(e.kind, e.data) for f in replay_frames(journal, game_id, rules) for e in f.events]
    except Exception:                           # the figures must not stop a resume (rebuild checked the game)
        return []


def check_snapshots_for(req: PlayRequest, cfg: TableDefaults, headless: bool) -> Path | None:
    from .options import check_snapshots
    return check_snapshots(req.snapshots or cfg.snapshots if headless or req.snapshots else None)


def resumed_turn(table: GameTable, game: Any, inputs: int) -> int:
    """The turn a resumed game goes on at (a game without turns of its own: one per input)."""
    return inputs + 1 if turns_by_input(table.kit.rules, game) else table.turn(game)


def _play(table: GameTable, req: PlayRequest, out: TextIO, said: list[Words], stop: Any) -> int:
    from bitbox.controllers import load_controllers_config
    from bitbox.hub import Hub
    from bitbox.sound import Sounds

    from .app import display_available
    from .journal import default_journal_path
    from .options import game_folder
    from .referee import Pace

    kit = table.kit
    log = logging.getLogger(f"bitbox.{kit.name}")        # status lines under the game's name (--log-file)
    prog = f"{kit.command} play"
    cfg = table.defaults()
    words = table.words(req.lang or cfg.language)
    said[0] = say = Words(words.code)           # the console's status lines, in the table's language
    if getattr(words, "untranslated", False):   # never silently: the game's own lines fall back to English
        from bitbox.i18n import LANGUAGE_NAMES
        log.info("%s", say.t("status.untranslated", title=kit.title, language=LANGUAGE_NAMES[words.code]))
    bot = table.prepare(req, req.headless)
    if req.names and req.resume:
        raise TableError("--resume keeps the game's names: leave --names out")
    most = req.players or table.seating.max_players
    if len(req.names) > most:
        raise TableError(f"--names gives {len(req.names)} names for {most} players (one name per seat, in seat order)")
    headless = req.headless
    no_display = False
    if not headless and not display_available():
        if not req.resume:                      # resumed: said once the saved game's language is known
            log.info("%s", say.t("status.headless"))
        headless = no_display = True
    if headless and req.keyboard:
        raise TableError("--keyboard needs a screen and a keyboard (no display found)")
    speed = req.speed if req.speed is not None else (0.0 if headless else cfg.speed)
    pace = Pace().scaled(speed)
    controllers = load_controllers_config()     # a mistake in it: one clear line, exit 2
    snapshots = check_snapshots_for(req, cfg, headless)
    from .options import user_path
    journal_path = user_path(req.journal or cfg.journal or default_journal_path())
    journal = Journal(journal_path, kit.rules, command=kit.command)
    for line in journal.notices:
        log.info("%s", say.t("status.note", line=line))
    try:
        hub = Hub(config=controllers)
    except BaseException:
        journal.close()
        raise
    request = SeatRequest(players=req.players, bots=req.bots, keyboard=req.keyboard, urls=tuple(req.controllers),
                          wait=cfg.wait_for_controllers, lang=words.code)
    claimed: int | None = None                  # the game this table plays: its claim goes at the end
    try:
        resumed: GameInfo | None = None
        if req.resume:
            resumed = journal.resumable()       # the last one no other table is playing now
            if resumed is None:
                raise TableError(f"no unfinished {kit.title} game to resume in {journal_path}: it holds no unfinished "
                                 f"game (see `{kit.command} history{journal_option(journal_path)}`)")
            game, n_inputs = rebuild(journal, resumed.id)
            journal.claim(resumed.id, n_inputs)     # refused (one line) if another table took it meanwhile
            claimed = resumed.id
            settings = resumed.settings
            bot = settings.get("bot", bot) or bot
            table.resume(game, settings)
            named(words, names_of(settings))
            if not req.lang and settings.get("lang") in ("en", "es", "fr", "de"):
                words = named(table.words(settings["lang"]), names_of(settings))
                said[0] = say = Words(words.code)
                request = replace(request, lang=words.code)
            if no_display:
                log.info("%s", say.t("status.headless"))
            wanted = [dict(s) for s in settings.get("seats", [])]
            if req.players is not None or req.bots is not None:
                log.info("%s", say.t("status.note", line=say.t("status.resume_seats")))
            if any(s.get("kind") == "keyboard" for s in wanted) and headless:
                raise TableError("this game has keyboard players: it needs a screen to resume")
            seats, sims, pending = connect(hub, table.seating, request, wanted, out)
            record = GameRecord(journal, resumed.id, n_inputs)
            log.info("%s", say.t("status.resuming_seed" if resumed.seed_public else "status.resuming",
                                 game=resumed.id, seed=resumed.seed, turn=resumed_turn(table, game, n_inputs),
                                 inputs=n_inputs,
                                 journal=journal_path))
        else:
            arrange = None
            if req.lobby != "never":                # keyboard players too: they are named there
                from .lobby import arrange as lobby
                options = [say.t("lobby.opt.players", count=req.players)] if req.players else []
                options += table.lobby_options(req, words, bot)
                arrange = lobby(hub, table.seating.names, table.seating.max_players, urls=req.controllers,
                                window=not headless, title=kit.title, options=" · ".join(options), bots=req.bots,
                                min_players=table.seating.min_players, out=out, size=req.size or cfg.window,
                                fullscreen=cfg.fullscreen if req.fullscreen is None else req.fullscreen,
                                max_seconds=req.max_seconds, always=req.lobby == "always", lang=words.code,
                                known=lobby_names(journal), after_home=req.then_home, game=kit.name,
                                keyboard=req.keyboard, players=req.players)
            seats, sims, pending = connect(hub, table.seating, request, None, out, arrange=arrange)
            seed = req.seed if req.seed is not None else new_seed()
            seed_kind = "given" if req.seed is not None else "secret"
            names = seat_names(req.names, [s["player"] for s in seats])
            chosen = getattr(arrange, "chosen", None) or {}     # the names chosen in the lobby (--names first)
            names.update({table.seating.names[i]: n for i, n in chosen.items()
                          if i < len(table.seating.names) and table.seating.names[i] not in names
                          and n.casefold() not in {v.casefold() for v in names.values()}})
            named(words, names)
            dealt = table.deal(seats, seed, req, words)
            game = dealt.game
            settings = {"seats": [{k: s[k] for k in ("player", "kind", "controller_id")} for s in seats],
                        "lang": words.code, "bot": bot, **dealt.settings, "seed": seed_kind}
            if names:
                settings["names"] = names
            record = journal.new_game(game, settings, claim=True)
            claimed = record.id
            n_inputs = 0
            who = ", ".join(say.t("status.named_seat", name=names[s["player"]], player=getattr(words, "colour", words.player)(s["player"]),
                                  kind=say.t(f"kind.{s['kind']}")) if s["player"] in names else
                            say.t("status.seat", player=words.player(s["player"]), kind=say.t(f"kind.{s['kind']}"))
                            for s in seats)
            seed_note = say.t("status.seed", seed=seed) if seed_kind == "given" else say.t("status.secret_seed")
            log.info("%s", say.t("status.new_game", title=kit.title, game=record.id, seats=who,
                                 options=say.t("word.semicolon").join([*dealt.before, seed_note, *dealt.after]),
                                 journal=journal_path))
        if snapshots is not None:
            snapshots = game_folder(snapshots, f"{kit.name}-{record.id}")
            log.info("%s", say.t("status.snapshots", game=record.id, folder=f"{snapshots}{os.sep}"))
            from .snapshots import KEEP_SNAPSHOTS, prune, removed_line
            keep = KEEP_SNAPSHOTS if req.keep_snapshots is None else req.keep_snapshots
            removed = prune(snapshots.parent, keep, snapshots)
            if removed:
                log.info("%s", removed_line(removed, keep, say))
        printer = Printer(words, out, getattr(table, "headlines", kit.headlines))
        if resumed:                             # the events before the resume count in the end's figures
            printer.events = earlier_events(journal, record.id, kit.rules)
        session = table.session(game, seat_plans(seats), record, pace, n_inputs, printer)
        if resumed:
            session.log_message("resumed", {"turn": resumed_turn(table, game, n_inputs)})
        else:                                   # a secret seed is never shown before the end
            session.log_message("started", table.started(game, seed_kind == "given"))
        drivers: list[Any] = []
        kb_sims = {}
        cycle = list(table.bot_cycle(bot))
        n_bot = 0
        for s in seats:
            if s["kind"] == "bot":
                drivers.append(table.bot_driver(s["player"], sims[s["player"]], cycle[n_bot % len(cycle)], game, pace))
                n_bot += 1
            elif s["kind"] == "keyboard":
                kb_sims[s["player"]] = sims[s["player"]]
        keyboard = table.keyboard(kb_sims, words) if kb_sims else None
        if keyboard is not None:
            drivers.append(keyboard)
        for e in pending:                       # what the hub said while the seats were set up
            session.handle(e)
        sound = Sounds.open(muted=req.mute or not cfg.sound or headless)     # headless runs are silent
        loop = table.loop()(session, hub, drivers, keyboard, words, headless=headless, out=out, snapshots=snapshots,
                            size=req.size or ((1920, 1080) if headless else cfg.window),
                            fullscreen=cfg.fullscreen if req.fullscreen is None else req.fullscreen,
                            max_seconds=req.max_seconds, sound=sound)
        loop.stop = stop
        if req.then_home:                       # the home screen's: a lock (or Enter) after the winner goes on
            loop.then_home = {s["seat"] for s in seats if s["kind"] == "controller"}
        loop.ending = lambda: ending_of(words, [s["player"] for s in seats], table.winners(session.game),
                                        [LogEntry(k, d) for k, d in printer.events], session.game.public_view(),
                                        kit.figures)
        try:
            code = int(loop.run())
        except KeyboardInterrupt as exc:        # Ctrl-C, or SIGTERM (Terminated)
            from .app import Terminated
            code = 143 if isinstance(exc, Terminated) else 130
        from .audit import keep as keep_audit
        problem = keep_audit(journal, record.id, session, hub)      # ended or stopped: one transaction
        if problem is not None:
            log.warning("%s", say.t("status.note", line=problem))
        if code in (130, 143):                  # a status line (-q hides it); how to resume comes last
            log.info("%s", say.t("status.terminated" if code == 143 else "status.interrupted", command=kit.title))
        if snapshots is not None:               # how much the snapshots now take (they do not pile up unnoticed)
            from .snapshots import report
            log.info("%s", report(snapshots, say))
        if session.finished:
            winners = table.winners(session.game)
            for line in ending_lines(loop.ending()):
                print(line, file=out, flush=True)
            print(words.t("ui.winner", players=words.players(winners)) if winners else words.t("ui.no_winner"),
                  file=out, flush=True)
        else:
            log.warning("%s", say.t("status.saved", game=record.id,
                                    command=f"{prog} --resume --journal {shlex.quote(str(journal_path))}"))
        return code
    finally:
        hub.close()
        if claimed is not None:
            try:
                journal.release(claimed)
            except JournalError as exc:         # left behind, it is stale once this process ends
                log.info("%s", say.t("status.note", line=str(exc)))
        journal.close()


__all__ = ["GameTable", "NewGame", "PlayRequest", "Printer", "SECRET_SEED_BITS", "TableDefaults", "new_seed", "play"]
