"""The table application: `outspeed play`, `outspeed history`, `outspeed replay`.

It wires the pieces together, in the pygame-ce examples/aliens.py loop style (events,
update, dirty-rect draw, tick): the hub's controllers (real ones, and simulated ones that
bots and the keyboard hot-seat turn), the referee session, the journal and the display.
With no display it runs headless: it renders off-screen, writes a PNG per turn, prints the
events and the winner.
"""
from __future__ import annotations

import logging
import math
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, TextIO

from bitbox.i18n import Words
from bitbox.table.app import StopRequest, Terminated
from bitbox.table.app import TableLoop as ConsoleLoop
from bitbox.table.app import display_available
from bitbox.table.journal import GameInfo, Journal, JournalError, default_journal_path
from bitbox.table.options import check_snapshots
from bitbox.table.seating import LeftLobby, SeatRequest, SeatRules, TableError, connect
from bitbox.table.seating import plans as seat_plans

from .content import ConfigError, load_yaml
from .display.model import PLAYER_ORDER, LogEntry, TableView
from .journaling import RULES as JOURNAL_RULES
from .rules import EventKind, Game, RulesError
from .rules.game import MAX_PLAYERS, MIN_PLAYERS
from .words import LANGUAGE_NAMES, LANGUAGES, Lang

#: Status lines (not the game's events): stderr and --log-file (see bitbox.console).
log = logging.getLogger("bitbox.outspeed")

if TYPE_CHECKING:
    from bitbox.table.history import ReplayFrame
    from bitbox.table.journal_commands import TableKit

TOKEN_MODES = ("physical", "virtual")


# ---------------------------------------------------------------------------- table config

@dataclass(frozen=True)
class TableConfig:
    language: str = "en"
    tokens: str = "physical"
    bot: str = "mixed"
    speed: float = 1.0
    window: tuple[int, int] = (1280, 720)
    fullscreen: bool = False
    wait_for_controllers: float = 3.0
    snapshots: str = "snapshots"
    journal: str | None = None
    sound: bool = True


def load_table_config(path: str | Path | None = None) -> TableConfig:
    """``config/table.yaml`` validated; errors name the file and the field."""
    if path is None:
        from bitbox_config import config_path
        path = config_path("table.yaml")
        if not Path(path).exists():
            return TableConfig()
    path = Path(path)
    data = load_yaml(path) or {}
    if not isinstance(data, Mapping):
        raise ConfigError(f"{path}: expected a mapping of settings (language: en, tokens: physical, ...)")
    known = set(TableConfig.__dataclass_fields__)
    unknown = sorted(map(str, set(data) - known))
    if unknown:
        raise ConfigError(f"{path}: unknown field {unknown[0]!r} (known: {', '.join(sorted(known))})")
    out: dict[str, Any] = {}
    if "language" in data:
        if data["language"] not in LANGUAGES:
            raise ConfigError(f"{path}: field language: expected one of {', '.join(LANGUAGES)}, got {data['language']!r}")
        out["language"] = data["language"]
    if "tokens" in data:
        if data["tokens"] not in TOKEN_MODES:
            raise ConfigError(f"{path}: field tokens: expected physical or virtual, got {data['tokens']!r}")
        out["tokens"] = data["tokens"]
    if "bot" in data:
        from .bots import BOTS
        if not isinstance(data["bot"], str) or not all(b.strip() in BOTS or b.strip() == "mixed"
                                                      for b in data["bot"].split(",")):
            raise ConfigError(f"{path}: field bot: expected mixed or one of {', '.join(BOTS)} "
                              f"(or several, comma-separated), got {data['bot']!r}")
        out["bot"] = data["bot"]
    for key in ("speed", "wait_for_controllers"):
        if key in data:
            v = data[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise ConfigError(f"{path}: field {key}: expected a number ≥ 0, got {v!r}")
            out[key] = float(v)
    if "window" in data:
        v = data["window"]
        if (not isinstance(v, list) or len(v) != 2 or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 320 for n in v)
                or v[0] > 7680 or v[1] > 4320):
            raise ConfigError(f"{path}: field window: expected [width, height] in pixels (≥ 320, at most 7680x4320), "
                              f"got {v!r}")
        out["window"] = (v[0], v[1])
    for key in ("fullscreen", "sound"):
        if key in data:
            if not isinstance(data[key], bool):
                raise ConfigError(f"{path}: field {key}: expected true or false, got {data[key]!r}")
            out[key] = data[key]
    for key in ("snapshots", "journal"):
        if key in data and data[key] is not None:
            if not isinstance(data[key], str) or not data[key].strip():
                raise ConfigError(f"{path}: field {key}: expected a path, got {data[key]!r}")
            out[key] = data[key]
    return TableConfig(**out)


# ---------------------------------------------------------------------------- options

@dataclass
class PlayOptions:
    players: int | None = None
    seed: int | None = None
    first_game: bool = False
    lang: str | None = None
    bots: int | None = None                   # how many seats bots take (None: decided by seating)
    keyboard: bool = False
    headless: bool = False
    snapshots: str | None = None
    journal: str | None = None
    resume: bool = False
    speed: float | None = None
    fullscreen: bool | None = None
    tokens: str | None = None
    controllers: list[str] = field(default_factory=list)
    bot: str | None = None                    # the bots, comma-separated, cycled over their seats (or mixed)
    size: tuple[int, int] | None = None
    table_config: str | None = None
    max_seconds: float | None = None          # give up (exit 3) after this long (tests, CI)
    out: TextIO | None = None
    mute: bool = False
    lobby: str = "auto"                       # auto | always | never (see bitbox.table.lobby)


SEATING = SeatRules("Outspeed", PLAYER_ORDER, min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, demo_players=4)


def _seat_request(opts: PlayOptions, cfg: TableConfig, lang: str = "en") -> SeatRequest:
    return SeatRequest(players=opts.players, bots=opts.bots, keyboard=opts.keyboard, urls=tuple(opts.controllers),
                       wait=cfg.wait_for_controllers, lang=lang)


# ---------------------------------------------------------------------------- play

class _Printer:
    def __init__(self, lang: Lang, out: TextIO) -> None:
        self.lang, self.out = lang, out

    def __call__(self, entry: LogEntry) -> None:
        line = self.lang.event(entry.kind, entry.data)
        prefix = "" if entry.kind in (EventKind.TURN, EventKind.GAME_OVER) else "  "
        print(prefix + line, file=self.out, flush=True)


SECRET_SEED_BITS = 128


def _new_seed() -> int:
    """A game's secret seed, from the operating system: it gives the hidden tile order, the
    finish tile, the bonus pile and the dice, so it must not be guessable (a small range can
    be searched from the first revealed tiles). Never shown before the game ends."""
    import secrets              # here, not at the top: with --seed (or a resumed game) it is not needed
    return secrets.randbits(SECRET_SEED_BITS)


def _tell(journal: Journal, out: TextIO | None = None, say: Words | None = None) -> None:
    """The journal's notices (e.g. a mode made private), one status line each."""
    for line in journal.notices:
        log.info("%s", (say or Words()).t("status.note", line=line))


def bot_kinds(bot: str) -> tuple[str, ...]:
    """The bots of ``bot`` (``mixed``, a name, or names comma-separated), cycled over the bot
    seats: ``mixed`` is :data:`outspeed.bots.MIXED`."""
    from .bots import MIXED
    kinds: list[str] = []
    for name in (b.strip() for b in bot.split(",")):
        kinds.extend(MIXED if name == "mixed" else (name,))
    return tuple(kinds)




_STOP = StopRequest()


def play(opts: PlayOptions) -> int:
    """`outspeed play`. Returns the exit code; every expected problem is one line on stderr."""
    out = opts.out or sys.stdout
    from bitbox.config import ConfigError as DeviceConfigError
    previous = _STOP.catch()
    said: list[Words] = [Words(opts.lang or "en")]      # the table's language, once _play knows it
    try:
        return _play(opts, out, said)
    except LeftLobby:
        log.info("%s", said[0].t("status.left_lobby", command="outspeed play"))
        return 0
    except (ConfigError, DeviceConfigError, JournalError, TableError, RulesError) as exc:
        print(f"outspeed play: {exc}", file=sys.stderr)
        return 2
    except Terminated:
        print(said[0].t("status.terminated", command="outspeed play"), file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print(said[0].t("status.interrupted", command="outspeed play"), file=sys.stderr)
        return 130
    finally:
        StopRequest.restore(previous)


def _play(opts: PlayOptions, out: TextIO, said: list[Words] | None = None) -> int:
    """``said``: its one item is set to the console's words in the table's language."""
    from bitbox.hub import Hub

    from .bots import make_bot
    from .content import load_content
    from .session import BotDriver, KeyboardDriver, Pace, Session

    cfg = load_table_config(opts.table_config)
    lang = Lang(opts.lang or cfg.language)
    said = said if said is not None else [Words()]
    said[0] = say = Words(lang.code)            # the console's status lines, in the table's language
    bot_name = opts.bot or cfg.bot
    from .bots import BOTS
    if not all(b in BOTS for b in bot_kinds(bot_name)):
        raise TableError(f"unknown bot {bot_name!r} (known: mixed, {', '.join(BOTS)})")
    headless = opts.headless
    if not headless and not display_available():
        if not opts.resume:                     # resumed: said once the saved game's language is known
            log.info("%s", say.t("status.headless"))
        headless = True
        no_display = True
    else:
        no_display = False
    if headless and opts.keyboard:
        raise TableError("--keyboard needs a screen and a keyboard (no display found)")
    speed = opts.speed if opts.speed is not None else (0.0 if headless else cfg.speed)
    pace = Pace().scaled(speed)
    content = load_content()
    from .wheelmap import load_outspeed_wheel_map
    wheel_map = load_outspeed_wheel_map(tiles=content.tiles)     # checked: a mistake is one line, exit 2
    from bitbox.controllers import load_controllers_config
    controllers = load_controllers_config()     # a mistake in it: one clear line, exit 2
    snapshots = check_snapshots(opts.snapshots or cfg.snapshots if headless or opts.snapshots else None)
    journal_path = Path(opts.journal or cfg.journal or default_journal_path()).expanduser()
    journal = Journal(journal_path, JOURNAL_RULES, command="outspeed")
    _tell(journal, out, say)
    try:
        hub = Hub(config=controllers)
    except BaseException:
        journal.close()
        raise
    try:
        resumed: GameInfo | None = None
        if opts.resume:
            resumed = journal.last_unfinished()
            if resumed is None:
                raise TableError(f"no unfinished game to resume in {journal_path} (see `outspeed history`)")
            from bitbox.table.journal import rebuild
            game, n_inputs = rebuild(journal, resumed.id)
            settings = resumed.settings
            bot_name = settings.get("bot", bot_name)
            if not opts.lang and settings.get("lang") in LANGUAGES:
                lang = Lang(settings["lang"])
                said[0] = say = Words(lang.code)
            if no_display:
                log.info("%s", say.t("status.headless"))
            wanted = [dict(s) for s in settings.get("seats", [])]
            if opts.players is not None or opts.bots is not None:
                log.info("%s", say.t("status.note", line=say.t("status.resume_seats")))
            if any(s.get("kind") == "keyboard" for s in wanted) and headless:
                raise TableError("this game has keyboard players: it needs a screen to resume")
            seats, sims, pending = connect(hub, SEATING, _seat_request(opts, cfg, lang.code), wanted, out)
            record_id = resumed.id
            from bitbox.table.journal import GameRecord
            record = GameRecord(journal, record_id, n_inputs)
            log.info("%s", say.t("status.resuming_seed" if resumed.seed_public else "status.resuming",
                                 game=record_id, seed=resumed.seed, turn=game.state.turn, inputs=n_inputs,
                                 journal=journal_path))
        else:
            seats, sims, pending = connect(hub, SEATING, _seat_request(opts, cfg, lang.code), None, out,
                                           arrange=_lobby(opts, cfg, hub, headless, lang, bot_name, out))
            names = [s["player"] for s in seats]
            kinds = {s["kind"] for s in seats}
            mode = opts.tokens or cfg.tokens
            if mode == "physical" and kinds != {"controller"}:
                mode = "virtual"
            seed = opts.seed if opts.seed is not None else _new_seed()
            seed_kind = "given" if opts.seed is not None else "secret"
            game = Game.new(names, content.tiles, seed=seed, first_game=opts.first_game, dice=content.dice,
                            token_counts=content.token_counts, markers=content.markers, token_mode=mode)
            settings = {"seats": [{k: s[k] for k in ("player", "kind", "controller_id")} for s in seats],
                        "lang": lang.code, "bot": bot_name, "first_game": opts.first_game, "tokens": mode,
                        "seed": seed_kind}
            record = journal.new_game(game, settings)
            n_inputs = 0
            who = ", ".join(say.t("status.seat", player=lang.player(s["player"]), kind=say.t(f"kind.{s['kind']}"))
                            for s in seats)
            seed_note = say.t("status.seed", seed=seed) if seed_kind == "given" else say.t("status.secret_seed")
            log.info("%s", say.t("status.new_game", title="Outspeed", game=record.id, seats=who,
                                 options=say.t("word.semicolon").join([seed_note, lang.t(f"status.tokens.{mode}")]),
                                 journal=journal_path))
        if snapshots is not None:
            from bitbox.table.options import game_folder
            snapshots = game_folder(snapshots, f"outspeed-{record.id}")
            log.info("%s", say.t("status.snapshots", game=record.id, folder=f"{snapshots}{os.sep}"))
        plans = seat_plans(seats)
        printer = _Printer(lang, out)
        session = Session(game, plans, wheel_map=wheel_map, journal=record, pace=pace,
                          inputs_applied=n_inputs, on_event=printer)
        if resumed:
            session.log_message("resumed", {"turn": game.state.turn})
        else:                                   # a secret seed is never shown before the end
            session.log_message("started", {"seed": game.state.seed} if seed_kind == "given" else {})
        drivers: list[Any] = []
        kb_sims = {}
        n_bot = 0
        bot_cycle = bot_kinds(bot_name)
        for s in seats:
            if s["kind"] == "bot":
                name = bot_cycle[n_bot % len(bot_cycle)]
                n_bot += 1
                drivers.append(BotDriver(s["player"], sims[s["player"]], make_bot(name, 0, dice=content.dice),
                                         wheel_map, seed=game.state.seed, think=pace.think))
            elif s["kind"] == "keyboard":
                kb_sims[s["player"]] = sims[s["player"]]
        keyboard = KeyboardDriver(kb_sims, wheel_map) if kb_sims else None
        if keyboard is not None:
            drivers.append(keyboard)
        for e in pending:                      # what the hub said while the seats were set up
            session.handle(e)
        from bitbox.sound import Sounds
        sound = Sounds.open(muted=opts.mute or not cfg.sound or headless)   # headless runs are silent
        loop = TableLoop(session, hub, drivers, keyboard, lang, headless=headless, out=out,
                         snapshots=snapshots,
                         size=opts.size or ((1920, 1080) if headless else cfg.window),
                         fullscreen=cfg.fullscreen if opts.fullscreen is None else opts.fullscreen,
                         max_seconds=opts.max_seconds, sound=sound)
        try:
            code = loop.run()
        except KeyboardInterrupt as stop:          # Ctrl-C, or SIGTERM (Terminated)
            code = 143 if isinstance(stop, Terminated) else 130
        if session.finished:
            winners = session.game.state.winners
            print(lang.t("ui.winner", players=lang.players(winners)) if winners else lang.t("ui.no_winner"),
                  file=out, flush=True)
        else:
            log.warning("%s", say.t("status.saved", game=record.id,
                                    command=f"outspeed play --resume --journal {journal_path}"))
        return code
    finally:
        hub.close()
        journal.close()


def _lobby(opts: PlayOptions, cfg: TableConfig, hub: Any, headless: bool, lang: Lang, bot_name: str,
           out: TextIO) -> Any:
    """The console's lobby (:mod:`bitbox.table.lobby`) for a new game, or None (``--lobby
    never``, keyboard hot-seat). It shows its screen only with a window and someone to seat
    (``auto``) — headless, bot-only and demo runs never wait in it."""
    if opts.lobby == "never" or opts.keyboard:
        return None
    from bitbox.table.lobby import arrange
    say = Words(lang.code)
    options = [LANGUAGE_NAMES[lang.code], say.t("lobby.opt.bots", bots=bot_name),
               lang.t(f"status.tokens.{opts.tokens or cfg.tokens}")]
    if opts.players:
        options.insert(0, say.t("lobby.opt.players", count=opts.players))
    if opts.first_game:
        options.append(lang.t("status.first_game"))
    return arrange(hub, SEATING.names, SEATING.max_players, urls=opts.controllers, window=not headless,
                   title="Outspeed", options=" · ".join(options), bots=opts.bots, min_players=SEATING.min_players,
                   out=out,
                   size=opts.size or cfg.window,
                   fullscreen=cfg.fullscreen if opts.fullscreen is None else opts.fullscreen,
                   max_seconds=opts.max_seconds, always=opts.lobby == "always", lang=lang.code)


class TableLoop(ConsoleLoop):
    """The console's table loop (:class:`bitbox.table.app.TableLoop`) with Outspeed's display."""

    caption = "Outspeed — 8Bitbox"
    command = "outspeed play"
    lang: Lang                                  # Outspeed's catalogue (see play_table)
    SOUNDS = {EventKind.PROGRAMMED: "reveal", EventKind.BONUS_PLAYED: "reveal", EventKind.ROLL: "dice",
              EventKind.ELIMINATED: "eliminated", EventKind.GAME_OVER: "winner"}

    def make_display(self, size: tuple[int, int], surface: Any = None) -> Any:
        from .display.render import TableDisplay
        return TableDisplay(size=size, lang=self.lang, surface=surface)

    stop = _STOP                                # Ctrl-C or SIGTERM: the journal has every input


# ---------------------------------------------------------------------------- history and replay

def table_kit(table_config: str | None = None) -> "TableKit":
    """Outspeed for the console's journal commands (:mod:`bitbox.table.journal_commands`):
    its journal rules, words, display and replay frames; its journal defaults to
    config/table.yaml's ``journal:``."""
    from bitbox.table.journal_commands import TableKit

    def display(size: tuple[int, int], words: Any, surface: Any = None) -> Any:
        from .display.render import TableDisplay
        return TableDisplay(size=size, lang=words, surface=surface)

    def replay_view(frame: "ReplayFrame", info: GameInfo, done: bool) -> TableView:
        from dataclasses import replace
        return replace(TableView.from_public(frame.view), stage="replay", prompt=("prompt.replay", {"game": info.id}),
                       log=tuple(frame.log), dice=tuple(frame.dice))

    return TableKit("outspeed", "Outspeed", "outspeed", JOURNAL_RULES, Lang, display, replay_view,
                    headlines=frozenset({EventKind.TURN}),
                    journal_path=lambda given: journal_path_of(given, table_config),
                    default_lang=lambda: load_table_config(table_config).language, path_errors=(ConfigError,))


def history(journal_path: str | None, out: TextIO | None = None, table_config: str | None = None, *,
            as_json: bool = False) -> int:
    """`outspeed history`: every game, replayed from its inputs; a game's seed is shown once
    it has ended. ``as_json``: the same listing as one JSON document (`history --json`)."""
    from bitbox.table import journal_commands
    return journal_commands.history(table_kit(table_config), journal_path, as_json=as_json, out=out)


def journal_path_of(journal_path: str | None, table_config: str | None = None) -> Path:
    """The journal a command uses: ``--journal``, else config/table.yaml's ``journal:``, else
    the user's data folder (ConfigError when the table config cannot be read)."""
    cfg = load_table_config(table_config)
    return Path(journal_path or cfg.journal or default_journal_path()).expanduser()


def export_game(game_id: int, target: str, journal_path: str | None, *, include_secrets: bool = False,
                table_config: str | None = None) -> int:
    """`outspeed export ID FILE`: one game in one portable file (:mod:`bitbox.table.gamefile`)."""
    from bitbox.table import journal_commands
    return journal_commands.export(table_kit(table_config), game_id, target, journal_path,
                                   include_secrets=include_secrets)


def import_game(source: str, journal_path: str | None, *, table_config: str | None = None) -> int:
    """`outspeed import FILE`: a game file verified by replaying it, then added to the journal."""
    from bitbox.table import journal_commands
    return journal_commands.import_(table_kit(table_config), source, journal_path)


def replay_frames(journal: Journal, game_id: int) -> list["ReplayFrame"]:
    """One frame per turn of an Outspeed game (see :func:`bitbox.table.history.replay_frames`)."""
    from bitbox.table.history import replay_frames as console_replay_frames
    return console_replay_frames(journal, game_id, JOURNAL_RULES)


def replay_game(game_id: int | None, journal_path: str | None, *, lang: str | None = None,
                headless: bool = False, snapshots: str | None = None, out: TextIO | None = None,
                table_config: str | None = None, size: tuple[int, int] | None = None) -> int:
    """`outspeed replay ID`: the game turn by turn (← → in the window; headless: printed,
    with one PNG per turn when ``snapshots`` is given)."""
    from bitbox.table import journal_commands
    return journal_commands.replay(table_kit(table_config), game_id, journal_path, lang=lang, headless=headless,
                                   snapshots=snapshots, size=size, out=out)
