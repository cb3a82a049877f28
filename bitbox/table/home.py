"""The home screen: what a table chooses before a game, with the controllers or the keyboard
(any installed cartridge, the console's: docs/table.md, "The home screen").

``bitbox play`` (and ``./dev play``) with a screen opens it when the command line does not
settle everything: one row each for **the game** (every installed cartridge), **players**,
**bots** (without a controller found: the other seats are keyboard hot-seat players),
**language** and each of the chosen game's options (its :class:`OptionSpec` s with a list of
values: on/off, or its choices), then its **table options** (:func:`game_options`: how the
table plays it rather than its rules, e.g. Last One Alive's token mode). A row the command
line settles is not shown (``--game`` and ``--players`` given: neither is asked).

Every label, value and help line is in the chosen language: the console's words for its own
rows, the game's catalogue for the game's options (``setting.NAME`` the label,
``setting.NAME.VALUE`` a value, ``setting.NAME.help`` the help line; docs/games.md). A key the
game does not have falls back to English (the option's name and help), never an exception.

Controls, on any controller (each wheel counts the stops it is turned, from where it was):

* **left wheel**: which row (the arrow beside it);
* **centre wheel**: that row's value;
* **lock** (closing it): play; the lobby comes next (seats and names), then the game.

Keyboard: **↑/↓** the row, **←/→** the value, **Enter** plays, **Esc** leaves.

After the winner, a lock (or Enter) on the game's screen opens the **after-game** menu: play
again (the same choices), back home, or quit; the centre wheel (or ←/→) chooses, the lock (or
Enter) confirms.

The last choices are remembered in ``home.json`` in the user's config folder (through
:mod:`platformdirs`: ``~/.config/8bitbox/`` on Linux) and preselected next time; a file that
cannot be read, or holds nonsense, is one line on stderr and the defaults.

:class:`Home` and :class:`Menu` are the models (pure: events and keys in, choices out);
:func:`run_menu` is the loop on a window; :func:`home_play` is the whole flow, home → game →
after-game menu, around a ``dispatch(game, argv)`` that plays one game as ``bitbox play``.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from bitbox.events import Connected, Lost, WheelsChanged
from bitbox.i18n import LANGUAGE_NAMES, LANGUAGES, Words

PREFS_NAME = "home.json"
#: A choices file larger than this is not ours (a few hundred bytes are enough).
MAX_PREFS_BYTES = 64 * 1024
#: The game first offered when nothing was remembered.
DEFAULT_GAME = "outspeed"
STOPS = 16                          # stops of a wheel (the reference controller)


def prefs_path() -> Path:
    """``home.json`` in the user's config folder for 8bitbox (``BITBOX_CONFIG_DIR`` overrides
    the folder, for tests and portable setups)."""
    folder = os.environ.get("BITBOX_CONFIG_DIR")
    if folder:
        from .options import user_path
        return user_path(folder) / PREFS_NAME
    import platformdirs

    from .journal import APP_FOLDER
    return platformdirs.user_config_path(APP_FOLDER, appauthor=False) / PREFS_NAME


# ---------------------------------------------------------------------------- remembered choices
@dataclass
class Choices:
    """What the home screen chose (None: not chosen, the game's default)."""

    game: str | None = None
    players: int | None = None
    bots: int | None = None
    lang: str | None = None
    options: dict[str, dict[str, Any]] = field(default_factory=dict)     # game -> option -> value

    def to_data(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "bots": self.bots, "lang": self.lang,
                "options": self.options}


def _small_int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 99 else None


def _plain(v: Any) -> bool:
    return v is None or isinstance(v, (bool, int, str)) and (not isinstance(v, str) or len(v) <= 40)


def choices_from_data(data: Any) -> Choices:
    """The choices a file holds; whatever is not one (a wrong type, an unknown language, a
    long string) is left out, field by field."""
    if not isinstance(data, Mapping):
        raise ValueError("not a JSON object")
    game = data.get("game")
    lang = data.get("lang")
    options: dict[str, dict[str, Any]] = {}
    raw = data.get("options")
    if isinstance(raw, Mapping):
        for g, opts in list(raw.items())[:32]:
            if isinstance(g, str) and len(g) <= 40 and isinstance(opts, Mapping):
                options[g] = {k: v for k, v in list(opts.items())[:32] if isinstance(k, str) and len(k) <= 40
                              and _plain(v) and v is not None}
    return Choices(game=game if isinstance(game, str) and 0 < len(game) <= 40 else None,
                   players=_small_int(data.get("players")), bots=_small_int(data.get("bots")),
                   lang=lang if lang in LANGUAGES else None, options=options)


def load_choices(path: Path) -> tuple[Choices, str | None]:
    """The remembered choices, and a line saying why they could not be read (then: none)."""
    try:
        if not path.exists():
            return Choices(), None
        if not path.is_file():
            return Choices(), f"{path} is not a file: the home screen starts from its defaults"
        if path.stat().st_size > MAX_PREFS_BYTES:
            return Choices(), f"{path} is too large to be our choices: the home screen starts from its defaults"
        text = path.read_text(encoding="utf-8")
        return choices_from_data(json.loads(text)), None
    except (OSError, UnicodeError, ValueError, RecursionError) as exc:
        why = str(exc).splitlines()[0][:80] if str(exc) else type(exc).__name__
        return Choices(), f"cannot read the last choices in {path} ({why}): the home screen starts from its defaults"


def save_choices(path: Path, choices: Choices) -> str | None:
    """Write the choices (atomically); a line saying why not, or None."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(choices.to_data(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, path)
        return None
    except OSError as exc:
        return f"cannot remember the choices in {path} ({exc.strerror or exc})"


# ---------------------------------------------------------------------------- the command line
@dataclass
class Given:
    """What the command line of ``bitbox play`` settles (the rows it skips) and how the window
    opens."""

    game: str | None = None
    players: bool = False
    players_n: int | None = None                 # --players N, when N is a number
    bots: bool = False
    lang: bool = False
    keyboard: bool = False
    flags: frozenset[str] = frozenset()          # every --option given
    controllers: tuple[str, ...] = ()
    size: tuple[int, int] | None = None
    fullscreen: bool = False
    max_seconds: float | None = None
    mute: bool = False


def given_of(game: str | None, rest: Sequence[str]) -> Given:
    """Read the options of ``rest`` (a game's play options) that the home screen cares about;
    anything else (or anything malformed) is the game's to parse."""
    from .options import size_arg
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--players")
    p.add_argument("--bots")
    p.add_argument("--lang")
    p.add_argument("--keyboard", action="store_true")
    p.add_argument("--controller", action="append", default=[])
    p.add_argument("--size")
    p.add_argument("--fullscreen", action="store_true")
    p.add_argument("--max-seconds", type=float)
    p.add_argument("--mute", action="store_true")
    try:
        a, _ = p.parse_known_args(list(rest))
    except (SystemExit, argparse.ArgumentError):
        a = argparse.Namespace(players=None, bots=None, lang=None, keyboard=False, controller=[], size=None,
                               fullscreen=False, max_seconds=None, mute=False)
    size = None
    if a.size:
        try:
            size = size_arg(a.size)
        except argparse.ArgumentTypeError:
            size = None                     # the game says what is wrong with it
    flags = frozenset(t.split("=", 1)[0] for t in rest if t.startswith("--"))
    players_n = int(a.players) if a.players is not None and str(a.players).isdigit() else None
    return Given(game=game, players=a.players is not None, players_n=players_n, bots=a.bots is not None, lang=a.lang is not None,
                 keyboard=a.keyboard, flags=flags, controllers=tuple(a.controller), size=size,
                 fullscreen=a.fullscreen, max_seconds=a.max_seconds, mute=a.mute)


@lru_cache(maxsize=None)
def _has_own_script(name: str) -> bool:
    """Whether the game ``name`` has a console script of its own (looked up once: the
    installed entry points do not change while the table runs)."""
    from .journal import command_of
    return command_of(name) == name


def game_options(cartridge: Any) -> list[Any]:
    """What the home screen offers of a game: its ``options`` (the rules', given to
    ``Cartridge.new``), then its optional ``table_options`` (:class:`OptionSpec` s of how the
    table plays it, never given to ``Cartridge.new``: Last One Alive's token mode), when the
    game has a command of its own (a console script of its name). Both are flags of the game's
    play command (:func:`option_flags`)."""
    out: list[Any] = []
    own_table = callable(getattr(cartridge, "play_main", None)) and _has_own_script(str(cartridge.name))
    for attr in ("options", "table_options") if own_table else ("options",):
        try:
            out += list(getattr(cartridge, attr, ()) or ())
        except TypeError:
            pass                                # not a sequence: the game offers none
    return out


def option_flags(cartridge: Any, options: Mapping[str, Any]) -> list[str]:
    """The game's play options for ``options`` (name -> value), as the console's table command
    spells them (:mod:`bitbox.table.command`): ``--first-game`` for an option that is on,
    ``--no-NAME`` for one turned off whose default is on, ``--variant NAME`` for one that shares
    a flag, ``--tokens physical``; an option at its default gives no flag."""
    out: list[str] = []
    for spec in game_options(cartridge):
        if spec.name not in options or options[spec.name] == spec.default:
            continue
        flag = "--" + spec.name.replace("_", "-")
        value = options[spec.name]
        if isinstance(spec.default, bool) and getattr(spec, "flag", None):
            out += ["--" + str(spec.flag).replace("_", "-"), spec.name] if value else []
        elif isinstance(spec.default, bool):
            out.append(flag if value else "--no-" + spec.name.replace("_", "-"))
        else:
            out += [flag, str(value)]
    return out


# ---------------------------------------------------------------------------- the model
@dataclass
class Row:
    """One line of a menu: its key, the values it turns through, which is chosen."""

    key: str                                   # game | players | bots | lang | opt:NAME | then
    values: list[Any]
    index: int = 0

    @property
    def value(self) -> Any:
        return self.values[self.index]

    def step(self, n: int) -> None:
        self.index = (self.index + n) % len(self.values)

    def select(self, value: Any) -> bool:
        if value in self.values:
            self.index = self.values.index(value)
            return True
        return False


def wheel_step(old: int, new: int, stops: int = STOPS) -> int:
    """How many stops a wheel was turned from ``old`` to ``new`` (the shorter way round)."""
    d = (new - old) % stops
    return d - stops if d > stops // 2 else d


class Wheels:
    """Each controller's last wheels and lock, to read turns and lock closings (any controller
    steers; the first state a controller reports is where it starts, not a turn)."""

    def __init__(self) -> None:
        self.last: dict[int, tuple[int, int, int, bool]] = {}

    def read(self, e: WheelsChanged) -> tuple[int, int, int, bool]:
        """(left turn, centre turn, right turn, the lock closed now)."""
        before = self.last.get(e.seat)
        self.last[e.seat] = (e.left, e.centre, e.right, e.locked)
        if before is None:
            return 0, 0, 0, False
        return (wheel_step(before[0], e.left), wheel_step(before[1], e.centre), wheel_step(before[2], e.right),
                e.locked and not before[3])


class Menu:
    """Rows of values; a cursor on one row; the left wheel (or ↑/↓) moves the cursor, the
    centre wheel (or ←/→) the value, the lock (or Enter) confirms, Esc leaves."""

    def __init__(self, rows: list[Row], lang: str = "en") -> None:
        self.rows = rows
        self.cursor = 0
        self.lang = lang
        self.done = False               # confirmed
        self.left = False               # Esc, window closed
        self.controllers: set[int] = set()
        self._wheels = Wheels()

    @property
    def row(self) -> Row:
        return self.rows[self.cursor]

    def reset(self) -> None:
        """Shown again (on a new hub): nothing confirmed, no controller's wheels known yet."""
        self.done = self.left = False
        self.controllers = set()
        self._wheels = Wheels()

    def changed(self, row: Row | None) -> None:
        """A row's value changed (None: the controllers found); a subclass rebuilds what
        depends on it."""

    def move(self, n: int) -> None:
        if self.rows:
            self.cursor = max(0, min(len(self.rows) - 1, self.cursor + n))

    def turn(self, n: int) -> None:
        if self.rows and n:
            row = self.row
            row.step(n)
            self.changed(row)

    def handle(self, e: Any) -> None:
        before = len(self.controllers)
        self._handle(e)
        if len(self.controllers) != before:
            self.changed(None)

    def _handle(self, e: Any) -> None:
        if isinstance(e, Connected):
            self.controllers.add(e.seat)
        elif isinstance(e, Lost):
            self.controllers.discard(e.seat)
        elif isinstance(e, WheelsChanged):
            self.controllers.add(e.seat)
            left, centre, _right, closed = self._wheels.read(e)
            self.move(left)
            self.turn(centre)
            if closed:
                self.done = True

    def key(self, name: str) -> None:
        if name == "up":
            self.move(-1)
        elif name == "down":
            self.move(1)
        elif name in ("left", "right"):
            self.turn(-1 if name == "left" else 1)
        elif name == "enter":
            self.done = True
        elif name == "escape":
            self.left = True

    # what a screen shows
    def words(self) -> Words:
        return Words(self.lang)

    def label(self, row: Row) -> str:
        return self.words().t(f"home.row.{row.key}")

    def shown(self, row: Row, value: Any) -> str:
        return str(value)

    def note(self) -> str:
        return ""


class Home(Menu):
    """The home screen's rows (see the module docstring). ``games``: the cartridges by name;
    ``saved``: the remembered choices (preselected where they still fit)."""

    def __init__(self, games: Mapping[str, Any], given: Given, saved: Choices, lang: str = "en") -> None:
        super().__init__([], lang=saved.lang or lang)
        self.games, self.given, self.saved = dict(games), given, saved
        names = sorted(self.games, key=lambda n: (n != DEFAULT_GAME, n))
        first = given.game or (saved.game if saved.game in self.games else names[0] if names else None)
        self.game_row = Row("game", names or [None])
        self.game_row.select(first)
        self.lang_row = Row("lang", list(LANGUAGES))
        self.lang_row.select(self.lang)
        self.players_row = Row("players", [0])
        self.bots_row = Row("bots", [0])
        self.option_rows: list[Row] = []
        self._options_of: Any = None            # the game the option rows are of
        self.problem: str | None = None         # why the last game did not start (its one line)
        self._game_words: dict[tuple[Any, str], Any] = {}
        self._rebuild(keep=False)

    @property
    def cartridge(self) -> Any:
        return self.games.get(self.game_row.value)

    def _rebuild(self, keep: bool = True) -> None:
        """The rows of the chosen game: its player counts and its options."""
        c = self.cartridge
        players = self.given.players_n or (self.players_row.value if keep else self.saved.players)
        bots = self.bots_row.value if keep else self.saved.bots
        lo, hi = (c.min_players, c.max_players) if c is not None else (1, 1)
        self.players_row = Row("players", list(range(lo, hi + 1)))
        if not self.players_row.select(players):
            self.players_row.select(min(hi, max(lo, 4)))
        self._bots(bots)
        saved = dict(self.saved.options.get(self.game_row.value, {})) if c is not None else {}
        if keep and self.option_rows and self._options_of == self.game_row.value:
            saved.update({r.key[4:]: r.value for r in self.option_rows})     # as turned (a controller came)
        self._options_of = self.game_row.value
        self.option_rows = []
        for spec in (game_options(c) if c is not None else ()):
            values = [False, True] if isinstance(spec.default, bool) else list(spec.choices)
            barred = getattr(spec, "barred", None)      # values for other player counts only (OptionSpec.players)
            if callable(barred):
                values = [v for v in values if not barred(v, self.players_row.value)]
            if len(values) < 2 or self._settled(spec) or not self._expressible(spec, values):
                continue
            row = Row(f"opt:{spec.name}", values)
            if not row.select(saved.get(spec.name, spec.default)):
                row.select(spec.default)
            self.option_rows.append(row)
        key = self.rows[self.cursor].key if self.rows else None
        self.rows = [r for r in (self.game_row if self.given.game is None else None,
                                 self.players_row if not self.given.players else None,
                                 self.bots_row if not (self.given.bots or self.controllers) else None,
                                 self.lang_row if not self.given.lang else None) if r is not None]
        self.rows += self.option_rows
        keys = [r.key for r in self.rows]
        self.cursor = keys.index(key) if key in keys else min(self.cursor, max(0, len(self.rows) - 1))

    def _bots(self, bots: Any) -> None:
        n = self.players_row.value
        self.bots_row = Row("bots", list(range(0, n + 1)))
        if not self.bots_row.select(bots):
            self.bots_row.select(n)

    def _expressible(self, spec: Any, values: Sequence[Any]) -> bool:
        """The game's play command takes every value of this option (each value has a flag)."""
        return all(option_flags(self.cartridge, {spec.name: v}) for v in values if v != spec.default)

    def _settled(self, spec: Any) -> bool:
        """The command line gives this option (any flag it would be written with)."""
        c = self.cartridge
        for value in ([False, True] if isinstance(spec.default, bool) else spec.choices):
            for flag in option_flags(c, {spec.name: value}):
                if flag.startswith("--") and flag in self.given.flags:
                    return True
        return False

    def changed(self, row: Row | None) -> None:
        if row is None or row is self.game_row:
            self._rebuild(keep=True)
        elif row is self.players_row:
            self._bots(self.bots_row.value)
            self._rebuild(keep=True)
        elif row is self.lang_row:
            self.lang = row.value

    def settled(self) -> bool:
        """Nothing is left to choose."""
        return not self.rows

    # ---- out
    def choices(self) -> Choices:
        options = {k: dict(v) for k, v in self.saved.options.items()}
        if self.cartridge is not None:
            options[self.game_row.value] = {r.key[4:]: r.value for r in self.option_rows}
        return Choices(game=self.game_row.value, players=self.players_row.value, bots=self.bots_row.value,
                       lang=self.lang_row.value, options=options)

    def argv(self, controllers: int) -> list[str]:
        """The play options the chosen rows mean (none for a row the command line settles).
        With controllers found, ``--players`` (bots take the seats the lobby leaves free);
        with none, ``--players`` and ``--bots`` (and ``--keyboard`` for the other seats)."""
        out: list[str] = []
        g = self.given
        if not g.lang:
            out += ["--lang", self.lang_row.value]
        players, bots = self.players_row.value, self.bots_row.value
        if not g.players and not (controllers and g.bots):
            out += ["--players", str(players)]
        if not controllers and not g.bots:
            out += ["--bots", str(bots)]
            if bots < players and not g.keyboard:
                out.append("--keyboard")
        if self.cartridge is not None:
            out += option_flags(self.cartridge, {r.key[4:]: r.value for r in self.option_rows})
        return out

    # ---- words
    def game_words(self) -> Any:
        """The chosen game's words in the chosen language (:func:`bitbox.table.words.words_of`),
        or None when the game gives none that can be read."""
        key = (self.game_row.value, self.lang)
        if key not in self._game_words:
            words = None
            if self.cartridge is not None:
                try:
                    from .words import words_of
                    words = words_of(self.cartridge, self.lang)
                except Exception:  # noqa: BLE001 - a game's broken words: English labels
                    words = None
            self._game_words[key] = words
        return self._game_words[key]

    def setting(self, key: str, default: str) -> str:
        """The game's ``setting.…`` message ``key`` in the chosen language, else ``default``."""
        words = self.game_words()
        try:
            if words is not None and words.has(key):
                return str(words.t(key))
        except Exception:  # noqa: BLE001 - never an exception for a label
            pass
        return default

    def label(self, row: Row) -> str:
        if row.key.startswith("opt:"):
            name = row.key[4:]
            return self.setting(f"setting.{name}", name.replace("_", " ").capitalize())
        return super().label(row)

    def shown(self, row: Row, value: Any) -> str:
        say = self.words()
        if row.key == "game":
            c = self.games.get(value)
            return c.title if c is not None else "—"
        if row.key == "lang":
            return LANGUAGE_NAMES.get(value, str(value))
        if isinstance(value, bool):
            return say.t("home.on" if value else "home.off")
        if row.key.startswith("opt:"):
            return self.setting(f"setting.{row.key[4:]}.{value}", str(value))
        return str(value)

    def help(self, row: Row) -> str:
        """What the row under the cursor means (an option's help, the game's player counts)."""
        say = self.words()
        if row.key.startswith("opt:") and self.cartridge is not None:
            name = row.key[4:]
            spec = next((s for s in game_options(self.cartridge) if s.name == name), None)
            if spec is not None and row.value in getattr(spec, "controllers_only", ()) and not self.controllers:
                return say.t("status.cardboard")        # what the game will do: said before, not after
            return self.setting(f"setting.{name}.help", str(spec.help) if spec is not None else "")
        if row.key == "bots":
            people = self.players_row.value - self.bots_row.value
            return say.t("home.help.bots", people=people)
        return ""

    def note(self) -> str:
        if self.problem:
            return self.problem
        if not self.controllers and not self.given.bots:
            return self.words().t("home.no_controllers")
        return self.words().t("home.controllers", count=len(self.controllers))


AGAIN, HOME, QUIT = "again", "home", "quit"


class AfterGame(Menu):
    """After the winner: play again, back home, or quit."""

    def __init__(self, lang: str = "en") -> None:
        super().__init__([Row("then", [AGAIN, HOME, QUIT])], lang=lang)

    def shown(self, row: Row, value: Any) -> str:
        return self.words().t(f"home.then.{value}")


# ---------------------------------------------------------------------------- the loop
KEYS = {"K_UP": "up", "K_DOWN": "down", "K_LEFT": "left", "K_RIGHT": "right", "K_RETURN": "enter",
        "K_KP_ENTER": "enter", "K_SPACE": "enter", "K_ESCAPE": "escape"}


def run_menu(hub: Any, menu: Menu, *, title: str = "", max_seconds: float | None = None,
             keys: Callable[[], list[str]] | None = None,
             on_frame: Callable[[Any, Menu, Any], None] | None = None) -> bool:
    """Show ``menu`` in the window until it is confirmed (True) or left (False: Esc, the
    window closed, ``max_seconds`` passed). ``keys``: a test's key presses; ``on_frame``:
    called with the window's surface, the menu and its screen (:class:`HomeScreen`) after each
    frame is drawn."""
    import pygame

    from bitbox.display.home import HomeScreen
    view = HomeScreen()
    menu.reset()
    mapping = {getattr(pygame, k): v for k, v in KEYS.items()}
    clock = pygame.time.Clock()
    started = time.monotonic()
    while not (menu.done or menu.left):
        for e in hub.poll(timeout=0.0):
            menu.handle(e)
        for k in (keys() if keys is not None else []):
            menu.key(k)
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT:
                menu.left = True
            elif ev.type == pygame.KEYDOWN and ev.key in mapping:
                menu.key(mapping[ev.key])
        surface = pygame.display.get_surface()
        if surface is not None:
            view.draw(surface, menu, title=title)
            pygame.display.flip()
            if on_frame is not None:
                on_frame(surface, menu, view)
        if max_seconds is not None and time.monotonic() - started > max_seconds:
            return False
        clock.tick(30)
    return menu.done


def open_window(given: Given, caption: str) -> Any:
    import pygame

    from .app import MIN_WINDOW, init_pygame
    init_pygame(False)
    size = given.size or (1280, 720)
    flags = pygame.RESIZABLE | (pygame.FULLSCREEN if given.fullscreen else 0)
    screen = pygame.display.set_mode((0, 0) if given.fullscreen else (max(size[0], MIN_WINDOW[0]),
                                                                     max(size[1], MIN_WINDOW[1])), flags)
    pygame.display.set_caption(caption)
    return screen


def open_hub(given: Given) -> Any:
    """The controllers found and given (``--controller``), to steer the menus."""
    from bitbox.controllers import load_controllers_config
    from bitbox.hub import Hub
    from bitbox.transports import OpenError
    hub = Hub(config=load_controllers_config())
    for url in given.controllers:
        try:
            hub.add_url(url)
        except (OpenError, OSError, ValueError):
            pass                            # the game says it in its own line
    try:
        hub.scan()
    except Exception:  # noqa: BLE001 - discovery problems must not stop the home screen
        pass
    hub.start()
    return hub


def _menu(given: Given, menu: Menu, caption: str, title: str,
          keys: Callable[[], list[str]] | None, on_frame: Callable[[Any, Menu, Any], None] | None) -> tuple[bool, int]:
    """One menu on its own hub; (confirmed, controllers seen)."""
    open_window(given, caption)
    hub = open_hub(given)
    try:
        ok = run_menu(hub, menu, title=title, max_seconds=given.max_seconds, keys=keys, on_frame=on_frame)
    finally:
        hub.close()
    return ok, len(menu.controllers)


class _Tee:
    """stderr as it was, keeping the last line written (a game's one-line refusal)."""

    def __init__(self, out: Any) -> None:
        self.out, self.last = out, ""

    def write(self, text: str) -> int:
        lines = [t for t in str(text).splitlines() if t.strip()]
        if lines:
            self.last = lines[-1]
        return int(self.out.write(text) or 0)

    def flush(self) -> None:
        self.out.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.out, name)


def _watched(dispatch: Callable[[str, list[str]], int], name: str, argv: list[str]) -> tuple[int, str]:
    """``dispatch(name, argv)``'s exit code and the last line it wrote to stderr."""
    from contextlib import redirect_stderr
    tee = _Tee(sys.stderr)
    with redirect_stderr(tee):
        try:
            code = dispatch(name, argv)
        except SystemExit as exc:               # argparse's own exit (a bad option: 2)
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return code, tee.last[:200]


def wanted(rest: Sequence[str]) -> bool:
    """The home screen may open: a window, a new game, not a question (--help, --version)."""
    skip = {"--headless", "--resume", "-h", "--help", "--version"}
    if any(t.split("=", 1)[0] in skip for t in rest):
        return False
    from .app import display_available
    return display_available()


def home_play(game: str | None, rest: Sequence[str], dispatch: Callable[[str, list[str]], int], *,
              keys: Callable[[], list[str]] | None = None, on_frame: Callable[[Any, Menu, Any], None] | None = None,
              err: Any = None) -> int | None:
    """The home screen, the game, the after-game menu, round again as the table chooses.
    Returns None when the command line settles everything (no home screen: play as usual),
    else the exit code. ``dispatch(game, argv)`` plays one game (``bitbox play``'s own way)."""
    from bitbox.games import GameError, find, names
    err = err or sys.stderr
    given = given_of(game, rest)
    games: dict[str, Any] = {}
    for n in ([game] if game is not None else names()):
        try:
            games[n] = find(n)
        except GameError as exc:
            if game is not None:
                return None                     # the game says it
            print(f"bitbox play: {exc}", file=err)
    path = prefs_path()
    saved, problem = load_choices(path)
    if problem:
        print(f"bitbox play: {problem}", file=err)
    home = Home(games, given, saved)
    if home.settled() or not games:
        return None
    while True:
        ok, controllers = _menu(given, home, "8Bitbox", "8Bitbox", keys, on_frame)
        if not ok:
            return 0
        problem = save_choices(path, home.choices())
        if problem:
            print(f"bitbox play: {problem}", file=err)
        argv = [*home.argv(controllers), *rest, "--then-home"]
        name = str(home.game_row.value)
        home.problem = None
        while True:
            code, line = _watched(dispatch, name, argv)
            if code == 2 and line:              # refused in one line (e.g. more controllers than players):
                home.problem = line             # back home, with that line on the screen
                break
            if code != 0:
                return code
            after = AfterGame(home.lang)
            ok, _ = _menu(given, after, "8Bitbox", games[name].title, keys, on_frame)
            choice = after.row.value if ok else QUIT
            if choice == AGAIN:
                continue
            break
        if home.problem:
            continue
        if choice == QUIT:
            return 0
        home = Home(games, given, load_choices(path)[0])      # back home: the choices as remembered


__all__ = ["AfterGame", "Choices", "Given", "Home", "Menu", "Row", "game_options", "given_of", "home_play", "load_choices",
           "option_flags", "prefs_path", "run_menu", "save_choices", "wanted", "wheel_step"]
