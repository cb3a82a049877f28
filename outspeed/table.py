"""The table application: `outspeed play`, `outspeed history`, `outspeed replay`.

It wires the pieces together, in the pygame-ce examples/aliens.py loop style (events,
update, dirty-rect draw, tick): the hub's controllers (real ones, and simulated ones that
bots and the keyboard hot-seat turn), the referee session, the journal and the display.
With no display it runs headless: it renders off-screen, writes a PNG per turn, prints the
events and the winner.
"""
from __future__ import annotations

import os
import secrets
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence, TextIO

from .content import ConfigError, load_yaml
from .display.i18n import LANGUAGES, Lang
from .rules.game import MAX_PLAYERS, MIN_PLAYERS
from .display.model import PLAYER_ORDER, LogEntry, TableView
from .journal import GameInfo, Journal, JournalError, check_result, default_journal_path, replay, verify
from .rules import Event, EventKind, Game, RulesError

TOKEN_MODES = ("physical", "virtual")
MIXED = ("lookahead", "greedy", "random")       # the demo's bots, seat after seat


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
        if data["bot"] not in BOTS and data["bot"] != "mixed":
            raise ConfigError(f"{path}: field bot: expected mixed or one of {', '.join(BOTS)}, got {data['bot']!r}")
        out["bot"] = data["bot"]
    for key in ("speed", "wait_for_controllers"):
        if key in data:
            v = data[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                raise ConfigError(f"{path}: field {key}: expected a number ≥ 0, got {v!r}")
            out[key] = float(v)
    if "window" in data:
        v = data["window"]
        if (not isinstance(v, list) or len(v) != 2 or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 320 for n in v)):
            raise ConfigError(f"{path}: field window: expected [width, height] in pixels (≥ 320), got {v!r}")
        out["window"] = (v[0], v[1])
    if "fullscreen" in data:
        if not isinstance(data["fullscreen"], bool):
            raise ConfigError(f"{path}: field fullscreen: expected true or false, got {data['fullscreen']!r}")
        out["fullscreen"] = data["fullscreen"]
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
    bots: int | None = None
    keyboard: bool = False
    headless: bool = False
    snapshots: str | None = None
    journal: str | None = None
    resume: bool = False
    speed: float | None = None
    fullscreen: bool | None = None
    tokens: str | None = None
    controllers: list[str] = field(default_factory=list)
    bot: str | None = None
    size: tuple[int, int] | None = None
    table_config: str | None = None
    max_seconds: float | None = None          # give up (exit 3) after this long (tests, CI)
    out: TextIO | None = None


class TableError(Exception):
    """A problem the table explains in one line (no traceback)."""


def display_available() -> bool:
    """Whether a window can be opened (False: run headless)."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver in ("dummy", "offscreen"):
        return False
    if sys.platform.startswith("linux") and not driver and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        import pygame
        pygame.display.init()
        ok = pygame.display.get_init()
        pygame.display.quit()
        return bool(ok)
    except Exception:  # noqa: BLE001 - any failure means: no display
        return False


def _init_pygame(headless: bool) -> Any:
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    pygame.display.init()
    pygame.font.init()
    return pygame


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
    return secrets.randbits(SECRET_SEED_BITS)


def _tell(journal: Journal, out: TextIO) -> None:
    """The journal's notices (e.g. a mode made private), one line each, with the output (stderr
    is for what went wrong)."""
    for line in journal.notices:
        print(f"note: {line}", file=out, flush=True)


def check_snapshots(folder: str | Path | None, what: str = "--snapshots") -> Path | None:
    """The folder for PNG snapshots, made and tried before a game starts (a PNG that cannot be
    written at the end of turn 1 would stop the game): a file there, or a folder that cannot
    be written, is a :class:`TableError`."""
    if folder is None:
        return None
    path = Path(folder).expanduser()
    if path.exists() and not path.is_dir():
        raise TableError(f"{what} {path}: exists and is not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        import tempfile
        with tempfile.NamedTemporaryFile(dir=path, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise TableError(f"{what} {path}: cannot write there ({exc.strerror or exc})") from None
    return path


class Terminated(KeyboardInterrupt):
    """SIGTERM: stop as on Ctrl-C (SDL would otherwise turn it into a quit event that a
    headless table never reads)."""


class _StopRequest:
    """Ctrl-C (SIGINT) and SIGTERM during `outspeed play`. While the table loop runs, a signal
    is a request the loop reads at its next frame: never an exception in the middle of the
    hub's or the journal's work (a lock held, a thread half-joined); a second one, or one
    outside the loop (setting up), raises as Ctrl-C always does."""

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


_STOP = _StopRequest()


def _catch_signals() -> dict[int, Any]:
    """Route SIGINT and SIGTERM to :data:`_STOP` (main thread only) and keep SDL's own signal
    handlers off; returns the previous handlers (to restore)."""
    os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
    _STOP.signum, _STOP.in_loop = None, False
    previous: dict[int, Any] = {}
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, _STOP)
    except ValueError:                                  # not the main thread
        pass
    return previous


def play(opts: PlayOptions) -> int:
    """`outspeed play`. Returns the exit code; every expected problem is one line on stderr."""
    out = opts.out or sys.stdout
    from bitbox.config import ConfigError as DeviceConfigError
    previous = _catch_signals()
    try:
        return _play(opts, out)
    except (ConfigError, DeviceConfigError, JournalError, TableError, RulesError) as exc:
        print(f"outspeed play: {exc}", file=sys.stderr)
        return 2
    except Terminated:
        print("outspeed play: terminated (an unfinished game continues with --resume)", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print("outspeed play: interrupted (an unfinished game continues with --resume)", file=sys.stderr)
        return 130
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _play(opts: PlayOptions, out: TextIO) -> int:
    from bitbox.hub import Hub
    from bitbox.wheels import load_wheel_map

    from .bots import make_bot
    from .content import load_content
    from .session import BotDriver, KeyboardDriver, Pace, SeatPlan, Session

    cfg = load_table_config(opts.table_config)
    lang = Lang(opts.lang or cfg.language)
    bot_name = opts.bot or cfg.bot
    from .bots import BOTS
    if bot_name not in BOTS and bot_name != "mixed":
        raise TableError(f"unknown bot {bot_name!r} (known: mixed, {', '.join(BOTS)})")
    headless = opts.headless
    if not headless and not display_available():
        print("no display found: running headless", file=out, flush=True)
        headless = True
    if headless and opts.keyboard:
        raise TableError("--keyboard needs a screen and a keyboard (no display found)")
    speed = opts.speed if opts.speed is not None else (0.0 if headless else cfg.speed)
    pace = Pace().scaled(speed)
    content = load_content()
    wheel_map = load_wheel_map(game="outspeed")
    from bitbox.controllers import load_controllers_config
    controllers = load_controllers_config()     # a mistake in it: one clear line, exit 2
    snapshots = check_snapshots(opts.snapshots or cfg.snapshots if headless or opts.snapshots else None)
    journal_path = Path(opts.journal or cfg.journal or default_journal_path()).expanduser()
    journal = Journal(journal_path)
    _tell(journal, out)
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
            from .journal import rebuild
            game, n_inputs = rebuild(journal, resumed.id)
            settings = resumed.settings
            bot_name = settings.get("bot", bot_name)
            if not opts.lang and settings.get("lang") in LANGUAGES:
                lang = Lang(settings["lang"])
            wanted = [dict(s) for s in settings.get("seats", [])]
            if any(s.get("kind") == "keyboard" for s in wanted) and headless:
                raise TableError("this game has keyboard players: it needs a screen to resume")
            seats, sims, pending = _connect(hub, opts, cfg, wanted, out)
            record_id = resumed.id
            from .journal import GameRecord
            record = GameRecord(journal, record_id, n_inputs)
            seed_note = f" (seed {resumed.seed})" if resumed.seed_public else ""
            print(f"Resuming game {record_id}{seed_note} at turn {game.state.turn}, "
                  f"{n_inputs} inputs replayed from {journal_path}", file=out, flush=True)
        else:
            seats, sims, pending = _connect(hub, opts, cfg, None, out)
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
            who = ", ".join(f"{lang.player(s['player'])} ({s['kind']})" for s in seats)
            seed_note = f"seed {seed}" if seed_kind == "given" else "secret seed (shown by history once it ends)"
            print(f"Outspeed game {record.id}: {who}; {seed_note}; {mode} bonus tokens; journal {journal_path}",
                  file=out, flush=True)
        plans = [SeatPlan(s["player"], s["seat"], s["kind"], s.get("controller_id")) for s in seats]
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
        for s in seats:
            if s["kind"] == "bot":
                name = MIXED[n_bot % len(MIXED)] if bot_name == "mixed" else bot_name
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
        loop = TableLoop(session, hub, drivers, keyboard, lang, headless=headless, out=out,
                         snapshots=snapshots,
                         size=opts.size or ((1920, 1080) if headless else cfg.window),
                         fullscreen=cfg.fullscreen if opts.fullscreen is None else opts.fullscreen,
                         max_seconds=opts.max_seconds)
        try:
            code = loop.run()
        except KeyboardInterrupt as stop:          # Ctrl-C, or SIGTERM (Terminated)
            code = 143 if isinstance(stop, Terminated) else 130
        if session.finished:
            winners = session.game.state.winners
            print(lang.t("ui.winner", players=lang.players(winners)) if winners else lang.t("ui.no_winner"),
                  file=out, flush=True)
        else:
            print(f"game {record.id} saved: `outspeed play --resume --journal {journal_path}` continues it",
                  file=out, flush=True)
        return code
    finally:
        hub.close()
        journal.close()


def _connect(hub: Any, opts: PlayOptions, cfg: TableConfig, wanted: list[dict] | None,
             out: TextIO) -> tuple[list[dict], dict[str, Any], list[Any]]:
    """Find the controllers, add simulated ones for bots and keyboard players, and give
    every player a seat. ``wanted``: the seats of a resumed game (bound by controller id)."""
    from bitbox.events import Connected
    from bitbox.transports import OpenError

    for url in opts.controllers:
        try:
            hub.add_url(url)
        except (OpenError, OSError, ValueError) as exc:
            raise TableError(f"cannot open controller {url}: {exc}") from None
    try:
        hub.scan()
    except Exception as exc:  # noqa: BLE001 - discovery problems must not stop a demo
        print(f"(controller discovery failed: {exc})", file=out)
    hub.start()
    connected: dict[int, Any] = {}              # seat -> ControllerInfo
    real_links = [l for l in hub.links() if l.kind != "sim"]
    wait = cfg.wait_for_controllers if real_links else 0.0
    deadline = time.monotonic() + wait
    want_real = None if wanted is None else sum(1 for s in wanted if s["kind"] == "controller")
    pending: list[Any] = []
    while time.monotonic() < deadline:
        for e in hub.poll(timeout=0.05):
            if isinstance(e, Connected):
                connected[e.seat] = e.info
            pending.append(e)
        if want_real is not None and len(connected) >= want_real:
            break
    real_seats = sorted(connected)
    if wanted is None:
        n_real = len(real_seats)
        if opts.keyboard:
            total = opts.players or max(3, n_real + (opts.bots or 0))
            n_bots = opts.bots or 0
            n_kb = total - n_real - n_bots
            if n_kb < 1:
                raise TableError(f"--keyboard with {total} players leaves no seat for the keyboard")
        elif n_real:
            total = opts.players or max(3, n_real + (opts.bots or 0))
            n_bots = max(0, total - n_real) if opts.bots is None else opts.bots
            n_kb = 0
            if n_real + n_bots < 3:
                n_bots = 3 - n_real
                print(f"{n_real} controller(s) found: bots fill the table to 3 players", file=out)
        else:
            total = opts.players or 4
            n_bots, n_kb = total, 0
            print(f"no controllers found: a demo game, {total} bots on simulated controllers", file=out, flush=True)
        total = n_real + n_bots + n_kb
        if not MIN_PLAYERS <= total <= MAX_PLAYERS:
            raise TableError(f"Outspeed is for {MIN_PLAYERS} to {MAX_PLAYERS} players: {n_real} controller(s) + {n_bots} bot(s) "
                             f"+ {n_kb} keyboard player(s) make {total}")
        kinds = ["controller"] * n_real + ["keyboard"] * n_kb + ["bot"] * n_bots
        wanted_kinds = kinds
    else:
        wanted_kinds = [s["kind"] for s in wanted]
    n_sims = sum(1 for k in wanted_kinds if k != "controller")
    sims = hub.add_sim(n_sims) if n_sims else []
    sim_ids = {s.controller_id: s for s in sims}
    deadline = time.monotonic() + 5.0
    while sum(1 for i in connected.values() if i.controller_id in sim_ids) < n_sims and time.monotonic() < deadline:
        for e in hub.poll(timeout=0.05):
            if isinstance(e, Connected):
                connected[e.seat] = e.info
            pending.append(e)
    sim_seats = sorted(seat for seat, info in connected.items() if info.controller_id in sim_ids)
    if len(sim_seats) < n_sims:
        raise TableError("the simulated controllers did not answer")
    seats: list[dict] = []
    sim_of: dict[str, Any] = {}
    if wanted is None:
        order = [(seat, "controller") for seat in real_seats[:n_real]]
        virtual = [k for k in wanted_kinds if k != "controller"]
        order += list(zip(sim_seats, virtual))
        order.sort()
        for i, (seat, kind) in enumerate(order):
            info = connected[seat]
            player = PLAYER_ORDER[i]
            seats.append({"player": player, "seat": seat, "kind": kind, "controller_id": info.controller_id})
            if kind != "controller":
                sim_of[player] = sim_ids[info.controller_id]
    else:
        by_id = {info.controller_id: seat for seat, info in connected.items()}
        free_sims = list(sim_seats)
        unknown_seat = 10_000
        for s in wanted:
            if s["kind"] == "controller":
                seat = by_id.get(s.get("controller_id"))
                if seat is None:                    # not here yet: the session waits for it
                    seat, unknown_seat = unknown_seat, unknown_seat + 1
                seats.append({**s, "seat": seat})
            else:
                seat = free_sims.pop(0)
                seats.append({**s, "seat": seat, "controller_id": connected[seat].controller_id})
                sim_of[s["player"]] = sim_ids[connected[seat].controller_id]
    return seats, sim_of, pending


class TableLoop:
    """events → session → drivers → controllers → draw → tick, until the game ends (headless)
    or the window is closed."""

    def __init__(self, session: Any, hub: Any, drivers: Sequence[Any], keyboard: Any, lang: Lang, *,
                 headless: bool, out: TextIO, snapshots: Path | None, size: tuple[int, int],
                 fullscreen: bool = False, max_seconds: float | None = None, fps: int = 30) -> None:
        self.session, self.hub, self.drivers, self.keyboard = session, hub, list(drivers), keyboard
        self.lang, self.headless, self.out = lang, headless, out
        self.snapshots, self.size, self.fullscreen = snapshots, size, fullscreen
        self.max_seconds, self.fps = max_seconds, fps
        self.frames = 0

    def _apply_commands(self) -> None:
        from .session import AssignSeat, Identify, SetLights
        for c in self.session.take_commands():
            try:
                if isinstance(c, AssignSeat):
                    self.hub.assign_seat(c.seat, colour=c.colour)
                elif isinstance(c, SetLights):
                    self.hub.set_lights(c.seat, c.left, c.centre, c.right, colour=c.colour)
                elif isinstance(c, Identify):
                    self.hub.identify(c.seat, ms=c.ms)
            except KeyError:
                pass                                # that controller is not here (yet)

    def _snapshot(self, display: Any, name: str, table: TableView | None = None) -> None:
        if self.snapshots is None:
            return
        import pygame
        display.render(table if table is not None else self._table(), full=True)
        try:
            self.snapshots.mkdir(parents=True, exist_ok=True)
            pygame.image.save(display.surface, str(self.snapshots / name))
        except (OSError, pygame.error) as exc:          # e.g. a full disk: the journal has the game
            raise TableError(f"cannot write the snapshot {self.snapshots / name} ({exc}); "
                             f"the game continues with --resume") from None

    def _table(self) -> TableView:
        t = self.session.table()
        if self.keyboard is not None:
            pad = self.keyboard.pad(self.session, self.lang)
            if pad is not None:
                from dataclasses import replace
                t = replace(t, pad=pad)
        return t

    def run(self) -> int:
        _STOP.in_loop = True
        try:
            return self._run()
        finally:
            _STOP.in_loop = False

    def _run(self) -> int:
        pygame = _init_pygame(self.headless)
        from .display.render import TableDisplay
        s = self.session
        started = time.monotonic()
        if self.headless:
            display = TableDisplay(size=self.size, lang=self.lang)
            screen = None
        else:
            flags = pygame.RESIZABLE | (pygame.FULLSCREEN if self.fullscreen else 0)
            size = (0, 0) if self.fullscreen else self.size
            screen = pygame.display.set_mode(size, flags)
            pygame.display.set_caption("Outspeed — 8Bitbox")
            display = TableDisplay(size=screen.get_size(), lang=self.lang, surface=screen)
            ticker = pygame.time.Clock()
        running = True
        end_seen = False
        while running:
            stop = _STOP.exit_code()               # Ctrl-C or SIGTERM: the journal has every input
            if stop is not None:
                return stop
            now = time.monotonic()
            if screen is not None:
                for ev in pygame.event.get():
                    if ev.type == pygame.QUIT:
                        running = False
                    elif ev.type == pygame.KEYDOWN:
                        if ev.key == pygame.K_ESCAPE and (self.keyboard is None or s.finished):
                            running = False
                        elif ev.key in (pygame.K_F11,) or (ev.key == pygame.K_f and self.keyboard is None):
                            pygame.display.toggle_fullscreen()
                        elif self.keyboard is not None:
                            name = {pygame.K_LEFT: "left", pygame.K_RIGHT: "right", pygame.K_UP: "up",
                                    pygame.K_DOWN: "down", pygame.K_RETURN: "enter", pygame.K_KP_ENTER: "enter",
                                    pygame.K_SPACE: "enter", pygame.K_BACKSPACE: "backspace",
                                    pygame.K_TAB: "tab"}.get(ev.key)
                            if name:
                                self.keyboard.key(s, name)
                if not running:
                    break
            busy = s.stage == "showing" and s.pace.is_instant
            events = self.hub.poll(timeout=0.0 if (screen is not None or busy) else 0.004)
            for e in events:
                s.handle(e)
            s.update(now)
            for d in self.drivers:
                d.update(s, now)
            self._apply_commands()
            for kind, n, table in s.take_milestones():
                if kind == "turn_end":
                    self._snapshot(display, f"turn-{n:02d}.png", table)
            if s.finished and not end_seen:
                end_seen = True
                if screen is None:
                    running = False
            if screen is not None:
                current = pygame.display.get_surface()
                dirty = display.render(self._table(), surface=current)
                if dirty:
                    if len(dirty) >= 6:
                        pygame.display.flip()
                    else:
                        pygame.display.update(dirty)
                ticker.tick(self.fps)
            self.frames += 1
            if self.max_seconds is not None and time.monotonic() - started > self.max_seconds:
                print(f"outspeed play: gave up after {self.max_seconds:g} s (turn {s.game.state.turn}, "
                      f"stage {s.stage})", file=sys.stderr)
                return 3
        return 0


# ---------------------------------------------------------------------------- history and replay

def history(journal_path: str | None, out: TextIO | None = None, table_config: str | None = None) -> int:
    """`outspeed history`: every game, replayed from its inputs (a finished game whose stored
    result disagrees refuses the journal); a game's seed is shown once it has ended."""
    out = out or sys.stdout
    try:
        cfg = load_table_config(table_config)
        path = Path(journal_path or cfg.journal or default_journal_path()).expanduser()
        if not path.exists() and not path.is_symlink():
            print(f"no games yet ({path} does not exist)", file=out)
            return 0
        with Journal(path, create=False) as j:
            _tell(j, out)
            games = [verify(j, g.id) for g in j.games()]
    except (ConfigError, JournalError) as exc:
        print(f"outspeed history: {exc}", file=sys.stderr)
        return 2
    if not games:
        print(f"no games yet in {path}", file=out)
        return 0
    print(f"{'id':>4}  {'date':<19}  {'turns':>5}  {'players':<44}  {'result':<36}  seed", file=out)
    for g in games:
        kinds = {s.get("player"): s.get("kind", "") for s in g.settings.get("seats", [])}
        players = ", ".join(p + ("*" if kinds.get(p) == "bot" else "") for p in g.players)
        if g.status == "finished":
            result = ("winner: " + " and ".join(g.winners)) if g.winners else "no winner"
        else:
            result = "unfinished (outspeed play --resume)"
        seed = str(g.seed) if g.seed_public else "(secret until the end)"
        turns = str(g.turns)
        print(f"{g.id:>4}  {g.created[:19].replace('T', ' '):<19}  {turns:>5}  {players:<44}  {result:<36}  {seed}",
              file=out)
    print("(* bot)", file=out)
    return 0


@dataclass
class ReplayFrame:
    turn: int
    view: dict[str, Any]
    log: list[LogEntry]
    dice: list[Any]


def replay_frames(journal: Journal, game_id: int) -> list[ReplayFrame]:
    """One frame per turn: the public view at its end and the turn's public events. The game
    is rebuilt from its inputs and refused when its stored result disagrees; its seed is
    shown only once it has ended (or when it was chosen with --seed)."""
    from .display.model import DieShown
    info = journal.game(game_id)
    game0 = journal.initial(game_id)
    started = {"seed": game0.state.seed} if info.seed_public else {}
    frames = [ReplayFrame(0, game0.public_view(), [LogEntry("started", started)], [])]
    game = game0
    log: list[LogEntry] = []
    dice: list[Any] = []
    view = game0.public_view()
    turn = game0.state.turn
    for rec, game, events in replay(journal, game_id):
        after = game.public_view()
        for e in events:
            data = dict(e.data)
            if e.kind in (EventKind.TURN, EventKind.TILE_REVEALED):
                tile = (after if e.kind == EventKind.TILE_REVEALED else view).get("tile")
                if tile:
                    data.update(number=tile.get("number"), finish=tile.get("finish"))
            if e.kind == EventKind.DRAW:
                data["mode"] = game.state.token_mode
            if e.kind == EventKind.ROLL:
                dice.append(DieShown(e.data["player"], e.data["die"], int(e.data["value"])))
            log.append(LogEntry(e.kind, data))
        if game.finished or game.state.turn != turn:
            shown = after if game.finished else _end_of_turn_view(view, events, game)
            frames.append(ReplayFrame(turn, shown, log, dice))
            log, dice = [], []
            turn = game.state.turn
        view = after
    check_result(journal, info, game)
    return frames


def _end_of_turn_view(view: Mapping[str, Any], events: list[Event], game: Game) -> dict[str, Any]:
    """The view at the end of a turn, before the next tile: the last action's events applied."""
    from .session.animate import apply_event
    v = dict(view)
    for e in events:
        if e.kind == EventKind.TILE_REVEALED:
            break
        v = apply_event(v, e, game.state.token_mode)
    return v


def replay_game(game_id: int | None, journal_path: str | None, *, lang: str | None = None,
                headless: bool = False, snapshots: str | None = None, out: TextIO | None = None,
                table_config: str | None = None, size: tuple[int, int] | None = None) -> int:
    """`outspeed replay ID`: the game turn by turn (← → in the window; headless: printed,
    with one PNG per turn when ``snapshots`` is given)."""
    out = out or sys.stdout
    try:
        cfg = load_table_config(table_config)
        path = Path(journal_path or cfg.journal or default_journal_path()).expanduser()
        if not path.exists() and not path.is_symlink():
            raise JournalError(f"{path}: no journal here (no game has been played with it)")
        snapshot_dir = check_snapshots(snapshots) if snapshots else None
        with Journal(path, create=False) as j:
            _tell(j, out)
            if game_id is None:
                games = [g for g in j.games() if g.status == "finished"]
                if not games:
                    raise JournalError(f"{path}: no finished game to replay")
                game_id = games[-1].id
            info = j.game(game_id)
            frames = replay_frames(j, game_id)
    except (ConfigError, JournalError, TableError) as exc:
        print(f"outspeed replay: {exc}", file=sys.stderr)
        return 2
    L = Lang(lang or info.settings.get("lang") or cfg.language)
    if info.status != "finished":
        print(f"game {game_id} is not finished: replaying its {len(frames) - 1} turn(s) so far", file=out)
    if not headless and not display_available():
        print("no display found: running headless", file=out)
        headless = True
    pygame = _init_pygame(headless)
    from .display.render import TableDisplay

    def table(i: int) -> TableView:
        f = frames[i]
        base = TableView.from_public(f.view)
        from dataclasses import replace
        return replace(base, stage="replay", prompt=("prompt.replay", {"game": game_id}), log=tuple(f.log),
                       dice=tuple(f.dice))

    if headless:
        display = TableDisplay(size=size or (1920, 1080), lang=L)
        for i, f in enumerate(frames):
            for e in f.log:
                print(("" if e.kind == EventKind.TURN else "  ") + L.event(e.kind, e.data), file=out)
            if snapshot_dir is not None:
                display.render(table(i), full=True)
                name = snapshot_dir / f"replay-{game_id}-turn-{f.turn:02d}.png"
                try:
                    pygame.image.save(display.surface, str(name))
                except (OSError, pygame.error) as exc:
                    print(f"outspeed replay: cannot write the snapshot {name} ({exc})", file=sys.stderr)
                    return 2
        winners = info.winners or []
        print(L.t("ui.winner", players=L.players(winners)) if winners else L.t("ui.no_winner"), file=out)
        return 0
    screen = pygame.display.set_mode(size or cfg.window, pygame.RESIZABLE)
    pygame.display.set_caption(f"Outspeed — replay of game {game_id}")
    display = TableDisplay(size=screen.get_size(), lang=L, surface=screen)
    clock = pygame.time.Clock()
    i = len(frames) - 1 if len(frames) == 1 else 1
    while True:
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT or (ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE, pygame.K_q)):
                return 0
            if ev.type == pygame.KEYDOWN:
                if ev.key in (pygame.K_RIGHT, pygame.K_SPACE, pygame.K_PAGEDOWN):
                    i = min(len(frames) - 1, i + 1)
                elif ev.key in (pygame.K_LEFT, pygame.K_BACKSPACE, pygame.K_PAGEUP):
                    i = max(0, i - 1)
                elif ev.key == pygame.K_HOME:
                    i = 0
                elif ev.key == pygame.K_END:
                    i = len(frames) - 1
                elif ev.key == pygame.K_F11:
                    pygame.display.toggle_fullscreen()
        dirty = display.render(table(i), surface=pygame.display.get_surface())
        if dirty:
            pygame.display.update(dirty)
        clock.tick(30)
