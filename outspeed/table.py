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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, TextIO

from bitbox.i18n import Words
from bitbox.table.app import TableLoop as ConsoleLoop
from bitbox.table.play import EngineTable, PlayRequest, TableDefaults
from bitbox.table.journal import GameInfo, Journal, default_journal_path
from bitbox.table.seating import SeatRules, TableError

from .content import ConfigError, load_yaml
from .display.model import PLAYER_ORDER, TableView
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
class TableConfig(TableDefaults):
    """``config/table.yaml``: the console's table defaults (:class:`bitbox.table.play.TableDefaults`)
    and Outspeed's token mode."""

    tokens: str = "physical"
    bot: str = "mixed"


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
class PlayOptions(PlayRequest):
    """``outspeed play``'s options: the console's (:class:`bitbox.table.play.PlayRequest`) and
    Outspeed's own."""

    first_game: bool = False
    tokens: str | None = None
    table_config: str | None = None


SEATING = SeatRules("Outspeed", PLAYER_ORDER, min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, demo_players=4)


# ---------------------------------------------------------------------------- play

from bitbox.table.play import SECRET_SEED_BITS  # noqa: E402, F401 (the console's; re-exported for the tests)
from bitbox.table.play import new_seed as _new_seed  # noqa: E402, F401


def bot_kinds(bot: str) -> tuple[str, ...]:
    """The bots of ``bot`` (``mixed``, a name, or names comma-separated), cycled over the bot
    seats: ``mixed`` is :data:`outspeed.bots.MIXED`."""
    from .bots import MIXED
    kinds: list[str] = []
    for name in (b.strip() for b in bot.split(",")):
        kinds.extend(MIXED if name == "mixed" else (name,))
    return tuple(kinds)




def session_of(game: Any, plans: Any, wheel_map: Any, **kwargs: Any) -> Any:
    """Outspeed at the console's session (:class:`bitbox.table.session.Session`): the
    cartridge's game around ``game`` (the engine's), Outspeed's controls on ``wheel_map``;
    ``kwargs``: the session's (journal, pace, clock, inputs_applied, on_event)."""
    from bitbox.table.session import Session

    from .cartridge import CARTRIDGE, OutspeedGame
    from .controls import Controls
    return Session(CARTRIDGE, OutspeedGame(engine_of(game)), plans, controls=Controls(wheel_map), **kwargs)


def bot_of(player: str, sim: Any, bot: str, wheel_map: Any, *, seed: int, think: float = 0.0,
           budget: Any = None) -> Any:
    """One of Outspeed's bots (or the console's search bot, with ``budget``) playing ``player``
    on the simulated controller ``sim`` (:class:`bitbox.table.session.BotDriver`)."""
    from bitbox.bots import make_bot
    from bitbox.table.session import BotDriver

    from .cartridge import CARTRIDGE
    from .controls import Controls
    return BotDriver(player, sim, make_bot(CARTRIDGE, bot, 0, budget), Controls(wheel_map), seed=seed,
                     think=think)


def engine_of(game: Any) -> Game:
    """The rules engine's game of a cartridge's game (or the engine's game itself)."""
    return getattr(game, "engine", game)


def play(opts: PlayOptions) -> int:
    """`outspeed play`. Returns the exit code; every expected problem is one line on stderr."""
    from bitbox.table.play import play as console_play
    opts.options = {"first_game": opts.first_game, "tokens": opts.tokens}
    return console_play(OutspeedTable(opts.table_config), opts, errors=(ConfigError, RulesError))


class OutspeedTable(EngineTable):
    """Outspeed at the console's table (:mod:`bitbox.table.play`): its table.yaml, content and
    wheel map, how a game is dealt and recorded, its referee session, drivers and loop."""

    seating = SEATING
    headlines = frozenset({EventKind.TURN, EventKind.GAME_OVER})
    none_to_resume = "no unfinished game"

    def __init__(self, table_config: str | None = None) -> None:
        self.kit = table_kit(table_config)
        self.table_config = table_config
        self.cfg = TableConfig()                    # read by defaults(), inside play (a bad file: one line)
        self.content: Any = None
        self.wheel_map: Any = None
        self.controls: Any = None
        self.budget: Any = None                     # the search bot's (--think, --rollouts)

    def defaults(self) -> Any:
        self.cfg = load_table_config(self.table_config)     # read here, inside play: a bad file is one line
        return self.cfg

    def words(self, code: str) -> Lang:
        return Lang(code)

    def prepare(self, req: Any, headless: bool) -> str:
        from .bots import BOTS
        from .cartridge import CARTRIDGE
        from .content import load_content
        from .wheelmap import load_outspeed_wheel_map
        from bitbox.bots.search import SEARCH, Budget

        from .controls import Controls
        bot_name = req.bot or self.cfg.bot
        if not all(b in BOTS or b == SEARCH for b in bot_kinds(bot_name)):
            raise TableError(f"unknown bot {bot_name!r} (known: mixed, {', '.join(BOTS)}, {SEARCH})")
        self.budget = Budget.at_table(getattr(req, "rollouts", None), getattr(req, "think", None))
        self.content = load_content()           # read now (a file changed since is read again)
        CARTRIDGE.use_content(self.content)     # and the bots read the same: loaded once
        self.wheel_map = load_outspeed_wheel_map(tiles=self.content.tiles)   # checked: a mistake is one line, exit 2
        self.controls = Controls(self.wheel_map)
        return str(bot_name)

    def deal(self, seats: list[dict], seed: int, req: Any, words: Lang) -> Any:
        from bitbox.table.play import NewGame
        names = [s["player"] for s in seats]
        mode = req.options.get("tokens") or self.cfg.tokens
        if mode == "physical" and {s["kind"] for s in seats} != {"controller"}:
            log.info("%s", Words(words.code).t("status.cardboard"))      # never silently
            mode = "virtual"
        first_game = bool(req.options.get("first_game"))
        c = self.content
        game = Game.new(names, c.tiles, seed=seed, first_game=first_game, dice=c.dice, token_counts=c.token_counts,
                        markers=c.markers, token_mode=mode)
        return NewGame(game, {"first_game": first_game, "tokens": mode}, after=[words.t(f"status.tokens.{mode}")])

    def session(self, game: Any, plans: list[Any], record: Any, pace: Any, inputs: int, printer: Any) -> Any:
        """The console's session (:mod:`bitbox.table.session`) with Outspeed's controls and
        presentation; its game is the cartridge's (``game``: the engine's, dealt or rebuilt)."""
        return session_of(game, plans, self.wheel_map, journal=record, pace=pace, inputs_applied=inputs,
                          on_event=printer)

    def bot_driver(self, player: str, sim: Any, bot: str, game: Any, pace: Any) -> Any:
        return bot_of(player, sim, bot, self.wheel_map, seed=engine_of(game).state.seed, think=pace.think,
                      budget=self.budget)

    def bot_cycle(self, bot: str) -> tuple[str, ...]:
        return bot_kinds(bot)

    def keyboard(self, sims: Mapping[str, Any], words: Any) -> Any:
        from bitbox.table.session import KeyboardDriver
        return KeyboardDriver(sims, self.controls, words)

    def turn(self, game: Any) -> int:
        return int(engine_of(game).state.turn)

    def seed(self, game: Any) -> int:
        return int(engine_of(game).state.seed)

    def winners(self, game: Any) -> list[str]:
        return list(engine_of(game).state.winners)

    def loop(self) -> type:
        return TableLoop

    def started(self, game: Any, given: bool) -> dict[str, Any]:
        return {"seed": game.state.seed} if given else {}

    def lobby_options(self, req: Any, words: Lang, bot: str) -> list[str]:
        say = Words(words.code)
        options = [LANGUAGE_NAMES[words.code], say.t("lobby.opt.bots", bots=bot),
                   words.t(f"status.tokens.{req.options.get('tokens') or self.cfg.tokens}")]
        if req.options.get("first_game"):
            options.append(words.t("status.first_game"))
        return options


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



# ---------------------------------------------------------------------------- history and replay

def table_kit(table_config: str | None = None) -> "TableKit":
    """Outspeed for the console's journal commands (:mod:`bitbox.table.journal_commands`):
    its journal rules, words, display and replay frames; its journal defaults to
    config/table.yaml's ``journal:``."""
    from bitbox.table.journal_commands import TableKit

    from .cartridge import CARTRIDGE

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
                    default_lang=lambda: load_table_config(table_config).language, path_errors=(ConfigError,),
                    figures=CARTRIDGE.figures)


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
