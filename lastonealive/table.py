"""Last One Alive at the table: `lastonealive play`, `lastonealive history`,
`lastonealive replay` (and `bitbox play --game lastonealive`).

The console's pieces do the work (:mod:`bitbox.table`: seating, the table loop, the journal,
history and replay; :mod:`bitbox.display`: the display shell); this module wires Last One
Alive's session (:mod:`lastonealive.session`), display and words to them. With no screen it
runs headless: a PNG per turn, the events printed, ending with the winner's line.
"""
from __future__ import annotations

import logging
import os
import secrets
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence, TextIO

from bitbox.i18n import Words
from bitbox.table.app import StopRequest, Terminated
from bitbox.table.app import TableLoop as ConsoleLoop
from bitbox.table.app import display_available
from bitbox.table.journal import GameInfo, GameRecord, Journal, JournalError, default_journal_path, rebuild
from bitbox.table.referee import Pace
from bitbox.table.options import check_snapshots
from bitbox.table.seating import SeatRequest, SeatRules, TableError, connect
from bitbox.table.seating import plans as seat_plans
from bitbox.colours import SEAT_COLOURS

from .content import ConfigError
from .journaling import RULES as JOURNAL_RULES
from .rules import RulesError
from .rules.game import MAX_PLAYERS, MIN_PLAYERS
from .words import LANGUAGES, Lang

VARIANT_CHOICES = ("survivors", "day_night", "zombies_everywhere")
SEATING = SeatRules("Last One Alive", SEAT_COLOURS[:MAX_PLAYERS], min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
                    demo_players=4)
SECRET_SEED_BITS = 128

#: Status lines (not the game's events): stderr and --log-file (see bitbox.console).
if TYPE_CHECKING:
    from bitbox.table.journal_commands import TableKit

log = logging.getLogger("bitbox.lastonealive")


@dataclass
class PlayOptions:
    players: int | None = None
    bots: int | None = None
    bot: str = "careful"
    keyboard: bool = False
    seed: int | None = None
    lang: str = "en"
    headless: bool = False
    snapshots: str | None = None
    journal: str | None = None
    resume: bool = False
    speed: float | None = None
    variant: Sequence[str] = ()
    tokens: str = "virtual"
    controllers: Sequence[str] = ()
    fullscreen: bool = False
    size: tuple[int, int] | None = None
    wait: float = 3.0
    max_seconds: float | None = None
    out: TextIO | None = None


class _Printer:
    def __init__(self, lang: Lang, out: TextIO) -> None:
        self.lang, self.out = lang, out

    def __call__(self, entry: Any) -> None:
        prefix = "" if entry.kind in ("turn", "game_over", "started", "resumed") else "  "
        print(prefix + self.lang.event(entry.kind, entry.data), file=self.out, flush=True)




_STOP = StopRequest()


class TableLoop(ConsoleLoop):
    caption = "Last One Alive — 8Bitbox"
    command = "lastonealive play"

    stop = _STOP                                # Ctrl-C or SIGTERM: the journal has every answer

    def make_display(self, size: tuple[int, int], surface: Any = None) -> Any:
        from .display import TableDisplay
        return TableDisplay(size=size, lang=self.lang, surface=surface)


def play(opts: PlayOptions) -> int:
    """`lastonealive play`; returns the exit code (every expected problem: one line, exit 2)."""
    out = opts.out or sys.stdout
    from bitbox.config import ConfigError as DeviceConfigError
    previous = _STOP.catch()
    try:
        return _play(opts, out)
    except (ConfigError, DeviceConfigError, JournalError, TableError, RulesError) as exc:
        print(f"lastonealive play: {exc}", file=sys.stderr)
        return 2
    except Terminated:
        print(Words(opts.lang).t("status.terminated", command="lastonealive play"), file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print(Words(opts.lang).t("status.interrupted", command="lastonealive play"), file=sys.stderr)
        return 130
    finally:
        StopRequest.restore(previous)


def _play(opts: PlayOptions, out: TextIO) -> int:
    from bitbox.controllers import load_controllers_config
    from bitbox.hub import Hub
    from bitbox.wheels import load_wheel_map

    from .content import load_content
    from .session import BotDriver, KeyboardDriver, Session, new_game

    lang = Lang(opts.lang)
    say = Words(lang.code)                      # the console's status lines, in the table's language
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
    speed = opts.speed if opts.speed is not None else (0.0 if headless else 1.0)
    pace = Pace().scaled(speed)
    content = load_content()
    wheel_map = load_wheel_map(game="lastonealive")
    controllers = load_controllers_config()
    snapshots = check_snapshots(opts.snapshots or "snapshots" if headless or opts.snapshots else None)
    journal_path = Path(opts.journal or default_journal_path()).expanduser()
    journal = Journal(journal_path, JOURNAL_RULES, command="lastonealive")
    for line in journal.notices:
        log.info("%s", say.t("status.note", line=line))
    try:
        hub = Hub(config=controllers)
    except BaseException:
        journal.close()
        raise
    request = SeatRequest(players=opts.players, bots=opts.bots, keyboard=opts.keyboard, urls=tuple(opts.controllers),
                          wait=opts.wait, lang=lang.code)
    try:
        resumed: GameInfo | None = None
        if opts.resume:
            resumed = journal.last_unfinished()
            if resumed is None:
                raise TableError(f"no unfinished Last One Alive game to resume in {journal_path} "
                                 f"(see `lastonealive history`)")
            game, n_inputs = rebuild(journal, resumed.id)
            settings = resumed.settings
            bot_name = settings.get("bot", opts.bot)
            tokens = settings.get("tokens", "virtual")
            if settings.get("lang") in LANGUAGES and opts.lang == "en":
                lang = Lang(settings["lang"])
                say = Words(lang.code)
                request = replace(request, lang=lang.code)
            if no_display:
                log.info("%s", say.t("status.headless"))
            wanted = [dict(s) for s in settings.get("seats", [])]
            if opts.players is not None or opts.bots is not None:
                log.info("%s", say.t("status.note", line=say.t("status.resume_seats")))
            if any(s.get("kind") == "keyboard" for s in wanted) and headless:
                raise TableError("this game has keyboard players: it needs a screen to resume")
            seats, sims, pending = connect(hub, SEATING, request, wanted, out)
            record = GameRecord(journal, resumed.id, n_inputs)
            log.info("%s", say.t("status.resuming_seed" if resumed.seed_public else "status.resuming",
                                 game=resumed.id, seed=resumed.seed, turn=game.state.turn, inputs=n_inputs,
                                 journal=journal_path))
        else:
            bot_name = opts.bot
            seats, sims, pending = connect(hub, SEATING, request, None, out)
            names = [s["player"] for s in seats]
            kinds = {s["kind"] for s in seats}
            tokens = opts.tokens
            if tokens == "physical" and kinds != {"controller"}:
                log.info("%s", lang.t("status.cardboard"))
                tokens = "virtual"
            seed = opts.seed if opts.seed is not None else secrets.randbits(SECRET_SEED_BITS)
            seed_kind = "given" if opts.seed is not None else "secret"
            game = new_game(names, seed=seed, variants=list(opts.variant), **content.game_options())
            settings = {"seats": [{k: s[k] for k in ("player", "kind", "controller_id")} for s in seats],
                        "lang": lang.code, "bot": bot_name, "tokens": tokens, "variants": list(game.state.variants),
                        "seed": seed_kind}
            record = journal.new_game(game, settings)
            n_inputs = 0
            who = ", ".join(say.t("status.seat", player=lang.player(s["player"]), kind=say.t(f"kind.{s['kind']}"))
                            for s in seats)
            seed_note = say.t("status.seed", seed=seed) if seed_kind == "given" else say.t("status.secret_seed")
            variants = ", ".join(game.state.variants) or lang.t("status.base_game")
            log.info("%s", say.t("status.new_game", title="Last One Alive", game=record.id, seats=who,
                                 options=say.t("word.semicolon").join([variants, seed_note,
                                                                      lang.t(f"status.tokens.{tokens}")]),
                                 journal=journal_path))
        if snapshots is not None:
            from bitbox.table.options import game_folder
            snapshots = game_folder(snapshots, f"lastonealive-{record.id}")
            log.info("%s", say.t("status.snapshots", game=record.id, folder=f"{snapshots}{os.sep}"))
        session = Session(game, seat_plans(seats), tokens=tokens, wheel_map=wheel_map, journal=record, pace=pace,
                          inputs_applied=n_inputs, on_event=_Printer(lang, out))
        session.log_message("resumed" if resumed else "started", {"turn": game.state.turn} if resumed else {})
        drivers: list[Any] = []
        kb_sims = {}
        bot_cycle = [b.strip() for b in bot_name.split(",")]     # cycled over the bot seats
        for s in seats:
            if s["kind"] == "bot":
                name = bot_cycle[sum(1 for d in drivers if isinstance(d, BotDriver)) % len(bot_cycle)]
                drivers.append(BotDriver(s["player"], sims[s["player"]], name, content.faces,
                                         seed=game.state.seed, think=pace.think, wheel_map=wheel_map))
            elif s["kind"] == "keyboard":
                kb_sims[s["player"]] = sims[s["player"]]
        keyboard = KeyboardDriver(kb_sims, wheel_map) if kb_sims else None
        if keyboard is not None:
            drivers.append(keyboard)
        for e in pending:
            session.handle(e)
        loop = TableLoop(session, hub, drivers, keyboard, lang, headless=headless, out=out, snapshots=snapshots,
                         size=opts.size or ((1920, 1080) if headless else (1280, 720)), fullscreen=opts.fullscreen,
                         max_seconds=opts.max_seconds)
        try:
            code = loop.run()
        except KeyboardInterrupt:
            code = 130
        if code in (130, 143):
            print(say.t("status.terminated" if code == 143 else "status.interrupted", command="lastonealive play"),
                  file=sys.stderr)
        if session.finished:
            winners = session.game.state.winners
            print(lang.t("ui.winner", players=lang.players(winners)) if winners else lang.t("ui.no_winner"),
                  file=out, flush=True)
        else:
            log.warning("%s", say.t("status.saved", game=record.id,
                                    command=f"lastonealive play --resume --journal {journal_path}"))
        return code
    finally:
        hub.close()
        journal.close()


# ---------------------------------------------------------------------------- history and replay

def table_kit() -> "TableKit":
    """Last One Alive for the console's journal commands (:mod:`bitbox.table.journal_commands`):
    its journal rules, words, display and replay frames."""
    from bitbox.table.journal_commands import TableKit

    def display(size: tuple[int, int], words: Any, surface: Any = None) -> Any:
        from .display import TableDisplay
        return TableDisplay(size=size, lang=words, surface=surface)

    def replay_view(frame: Any, info: GameInfo, done: bool) -> Any:
        from .session import TableView
        return replace(TableView.from_public(frame.view), stage="replay", prompt=None, log=tuple(frame.log))

    return TableKit("lastonealive", "Last One Alive", "lastonealive", JOURNAL_RULES, Lang, display, replay_view,
                    headlines=frozenset({"turn", "game_over", "started"}))


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
