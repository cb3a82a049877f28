"""Last One Alive at the table: `lastonealive play`, `lastonealive history`,
`lastonealive replay` (and `bitbox play --game lastonealive`).

The console's pieces do the work (:mod:`bitbox.table`: seating, the table loop, the referee
session and its bot and keyboard drivers (:mod:`bitbox.table.session`), the journal, history
and replay; :mod:`bitbox.display`: the display shell); this module gives them Last One
Alive's controls (:class:`lastonealive.controls.TableControls`), display and words. With no screen it
runs headless: a PNG per turn, the events printed, ending with the winner's line.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Sequence, TextIO

from bitbox.i18n import Words
from bitbox.table.app import TableLoop as ConsoleLoop
from bitbox.table.play import EngineTable, PlayRequest
from bitbox.table.journal import GameInfo
from bitbox.table.seating import SeatRules
from bitbox.colours import SEAT_COLOURS

from .content import ConfigError
from .journaling import RULES as JOURNAL_RULES
from .rules import RulesError
from .rules.game import MAX_PLAYERS, MIN_PLAYERS
from .words import Lang

VARIANT_CHOICES = ("survivors", "day_night", "zombies_everywhere", "zombified_rolls")   # the engine's VARIANTS
#: the bots a demo seats when --bots names none: a mix, so a first game is lively
DEMO_BOTS = "careful,random"
SEATING = SeatRules("Last One Alive", SEAT_COLOURS[:MAX_PLAYERS], min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
                    demo_players=4)
SECRET_SEED_BITS = 128

#: Status lines (not the game's events): stderr and --log-file (see bitbox.console).
if TYPE_CHECKING:
    from bitbox.table.journal_commands import TableKit

log = logging.getLogger("bitbox.lastonealive")


@dataclass
class PlayOptions(PlayRequest):
    """``lastonealive play``'s options: the console's (:class:`bitbox.table.play.PlayRequest`)
    and Last One Alive's own."""

    variant: Sequence[str] = ()
    tokens: str = "virtual"
    first_zombie: str = "each"                  # L-4: the starting 1-zombie die for each player, or the first only
    wait: float = 3.0


class TableLoop(ConsoleLoop):
    caption = "Last One Alive — 8Bitbox"
    command = "lastonealive play"


    def make_display(self, size: tuple[int, int], surface: Any = None) -> Any:
        from .display import TableDisplay
        return TableDisplay(size=size, lang=self.lang, surface=surface)


def play(opts: PlayOptions) -> int:
    """`lastonealive play`; returns the exit code (every expected problem: one line, exit 2)."""
    from bitbox.table.play import play as console_play
    opts.options = {"variants": list(dict.fromkeys(opts.variant)), "tokens": opts.tokens,
                    "first_zombie": opts.first_zombie}
    return console_play(LastOneAliveTable(opts.wait), opts, errors=(ConfigError, RulesError))


class LastOneAliveTable(EngineTable):
    """Last One Alive at the console's table (:mod:`bitbox.table.play`): its content and wheel
    map, how a game is dealt and recorded (variants, token mode), its referee session,
    drivers and loop."""

    seating = SEATING
    headlines = frozenset({"turn", "game_over", "started", "resumed"})

    def __init__(self, wait: float = 3.0) -> None:
        self.kit = table_kit()
        self.wait = wait
        self.content: Any = None
        self.wheel_map: Any = None
        self.tokens = "virtual"
        self.budget: Any = None                  # the search bot's, from the request (prepare)

    def defaults(self) -> Any:
        from bitbox.table.play import TableDefaults
        return TableDefaults(wait_for_controllers=self.wait)

    def words(self, code: str) -> Lang:
        return Lang(code)

    def prepare(self, req: Any, headless: bool) -> str:
        from bitbox.wheels import load_wheel_map

        from .cartridge import CARTRIDGE
        from .content import load_content
        from bitbox.table.seating import TableError

        from .rules.game import VARIANT_PLAYERS, variant_problem
        from bitbox.bots.search import Budget
        self.budget = Budget.at_table(getattr(req, "rollouts", None), getattr(req, "think", None))
        self.content = load_content()           # read now (a file changed since is read again)
        CARTRIDGE.use_content(self.content)     # and the bots read the same: loaded once
        self.wheel_map = load_wheel_map(game="lastonealive")
        variants = list(req.options.get("variants") or ())
        problem = variant_problem(variants, req.players) if req.players else None
        if problem is not None:                 # the engine's own check, before anyone is seated
            raise TableError(problem)
        most = min([VARIANT_PLAYERS[v][1] for v in variants if v in VARIANT_PLAYERS], default=None)
        if most is not None and req.players is None and most < self.seating.demo_players:
            self.seating = replace(self.seating, demo_players=most)          # a demo the variant allows
        return str(req.bot or DEMO_BOTS)

    def bot_cycle(self, bot: str) -> list[str]:
        return [b.strip() for b in bot.split(",")]

    def deal(self, seats: list[dict], seed: int, req: Any, words: Lang) -> Any:
        from bitbox.table.play import NewGame

        from .session import new_game
        names = [s["player"] for s in seats]
        tokens = req.options.get("tokens") or "virtual"
        if tokens == "physical" and {s["kind"] for s in seats} != {"controller"}:
            log.info("%s", Words(words.code).t("status.cardboard"))      # the console's line, said by every game
            tokens = "virtual"
        self.tokens = tokens
        first_zombie = str(req.options.get("first_zombie") or "each")
        game = new_game(names, seed=seed, variants=list(req.options.get("variants") or ()),
                        first_zombie=first_zombie, **self.content.game_options())
        before = [self.variant_names(words, game.state.variants)]
        settings: dict[str, Any] = {"tokens": tokens, "variants": list(game.state.variants)}
        if first_zombie != "each":
            settings["first_zombie"] = first_zombie
            before.append(words.t("status.first_zombie.first"))
        return NewGame(game, settings, before=before, after=[words.t(f"status.tokens.{tokens}")])

    @staticmethod
    def variant_names(words: Lang, variants: Sequence[str]) -> str:
        """The variants as the table's language names them (the base game when none)."""
        return ", ".join(words.t(f"variant.{v}") for v in variants) or words.t("status.base_game")

    def resume(self, game: Any, settings: Any) -> None:
        self.tokens = settings.get("tokens", "virtual")

    def controls(self) -> Any:
        from .controls import TableControls
        return TableControls(self.wheel_map, self.tokens)

    def session(self, game: Any, plans: list[Any], record: Any, pace: Any, inputs: int, printer: Any) -> Any:
        from bitbox.table.session import Session

        from .cartridge import CARTRIDGE, LastOneAliveGame
        game = game if isinstance(game, LastOneAliveGame) else LastOneAliveGame(game)
        return Session(CARTRIDGE, game, plans, controls=self.controls(), journal=record, pace=pace,
                       inputs_applied=inputs, on_event=printer)

    def bot_driver(self, player: str, sim: Any, bot: str, game: Any, pace: Any) -> Any:
        from bitbox.bots import make_bot
        from bitbox.table.session import BotDriver

        from .cartridge import CARTRIDGE
        return BotDriver(player, sim, make_bot(CARTRIDGE, bot, None, self.budget), self.controls(),
                         seed=self.seed(game), think=pace.think)

    def keyboard(self, sims: Any, words: Any) -> Any:
        from bitbox.table.session import KeyboardDriver
        return KeyboardDriver(sims, self.controls(), words)

    @staticmethod
    def _engine(game: Any) -> Any:
        return getattr(game, "engine", game)

    def turn(self, game: Any) -> int:
        return int(self._engine(game).state.turn)

    def seed(self, game: Any) -> int:
        return int(self._engine(game).state.seed)

    def winners(self, game: Any) -> list[str]:
        return list(self._engine(game).state.winners)

    def loop(self) -> type:
        return TableLoop

    def started(self, game: Any, given: bool) -> dict[str, Any]:
        return {}

    def lobby_options(self, req: Any, words: Lang, bot: str) -> list[str]:
        from .words import LANGUAGE_NAMES
        say = Words(words.code)
        tokens = req.options.get("tokens") or "virtual"
        variants = self.variant_names(words, req.options.get("variants") or ())
        return [LANGUAGE_NAMES[words.code], say.t("lobby.opt.bots", bots=bot), variants,
                words.t(f"status.tokens.{tokens}")]


# ---------------------------------------------------------------------------- history and replay

def table_kit() -> "TableKit":
    """Last One Alive for the console's journal commands (:mod:`bitbox.table.journal_commands`):
    its journal rules, words, display and replay frames."""
    from bitbox.table.journal_commands import TableKit

    from .cartridge import CARTRIDGE

    def display(size: tuple[int, int], words: Any, surface: Any = None) -> Any:
        from .display import TableDisplay
        return TableDisplay(size=size, lang=words, surface=surface)

    def replay_view(frame: Any, info: GameInfo, done: bool) -> Any:
        from .session import TableView
        return replace(TableView.from_public(frame.view), stage="replay", prompt=None, log=tuple(frame.log))

    return TableKit("lastonealive", "Last One Alive", "lastonealive", JOURNAL_RULES, Lang, display, replay_view,
                    headlines=frozenset({"turn", "game_over", "started"}), figures=CARTRIDGE.figures)


def history(journal_path: str | None, out: TextIO | None = None, *, as_json: bool = False) -> int:
    """`lastonealive history`: every game of the journal, replayed from its inputs."""
    from bitbox.table import journal_commands
    return journal_commands.history(table_kit(), journal_path, as_json=as_json, out=out)


def export_game(game_id: int, target: str, journal_path: str | None, *, include_secrets: bool = False) -> int:
    """`lastonealive export ID FILE`: one game in one portable file (:mod:`bitbox.table.gamefile`)."""
    from bitbox.table import journal_commands
    return journal_commands.export(table_kit(), game_id, target, journal_path, include_secrets=include_secrets)


def import_game(source: str, journal_path: str | None) -> int:
    """`lastonealive import FILE`: a game file verified by replaying it, then added to the journal."""
    from bitbox.table import journal_commands
    return journal_commands.import_(table_kit(), source, journal_path)


def replay_game(game_id: int | None, journal_path: str | None, *, lang: str | None = None, headless: bool = False,
                snapshots: str | None = None, out: TextIO | None = None, size: tuple[int, int] | None = None) -> int:
    """`lastonealive replay [ID]`: a game turn by turn (← → in the window; headless: printed,
    and one PNG per turn with ``snapshots``)."""
    from bitbox.table import journal_commands
    return journal_commands.replay(table_kit(), game_id, journal_path, lang=lang, headless=headless,
                                   snapshots=snapshots, size=size, out=out)
