"""The journal's commands of every game: ``history``, ``export``, ``import`` and ``replay``.

One implementation for every cartridge; a game's table command passes its :class:`TableKit`
(how it names itself, its journal rules, words, display and replay view, where its journal
is by default). A game that brings only its rules gets :func:`kit_of`'s defaults (the
protocol's journal rules, :class:`bitbox.table.words.GameWords`, the generic display).
"""
from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, TextIO

from bitbox.display.model import ShellView

from .history import ReplayFrame
from .journal import GameInfo, Journal, JournalError, default_journal_path
from .options import journal_exists, short_path, user_path
from .seating import TableError


def _default_path(given: str | None) -> Path:
    if given is not None and not given.strip():
        raise TableError("--journal: an empty path is not a journal file (leave --journal out for the default one)")
    return user_path(given or default_journal_path())


def generic_replay_view(frame: ReplayFrame, info: GameInfo, done: bool) -> ShellView:
    """A replay frame for the generic display: the players, the game's public view after the
    turn, its events; the last frame of a finished game names the winners."""
    view = {"players": [{"player": p, "active": True} for p in info.players],
            "winners": list(info.winners or []) if done else [], "game": frame.view, "turn": frame.turn or None}
    return ShellView(view=view, stage="finished" if done else "replay", log=tuple(frame.log))


@dataclass
class TableKit:
    """What the journal's commands need of a game besides its cartridge."""

    name: str                                     # the cartridge's name, recorded with each game
    title: str
    command: str                                  # the program that runs it: "outspeed", "bitbox game goofspiel"
    rules: Any                                    # bitbox.table.journal.JournalRules (and ReplayRules)
    words: Callable[[str], Any]                   # language code -> the game's words (event, t, players)
    display: Callable[[tuple[int, int], Any, Any], Any]      # (size, words, surface) -> a display
    replay_view: Callable[[ReplayFrame, GameInfo, bool], Any] = generic_replay_view    # frame, record, last of a finished game
    headlines: frozenset[str] = frozenset({"game_over"})     # event kinds printed without indent
    journal_path: Callable[[str | None], Path] = _default_path   # --journal, else the game's default
    default_lang: Callable[[], str] = field(default=lambda: "en")
    path_errors: tuple[type[BaseException], ...] = ()             # what journal_path may raise besides TableError
    figures: Any = None                           # the end screen's figures(view, events) (bitbox.display.ending)

    def line(self, entry: Any, words: Any) -> str:
        """An event as printed: a headline, or indented under it."""
        return ("" if entry.kind in self.headlines else "  ") + words.event(entry.kind, entry.data)


def kit_of(cartridge: Any, command: str | None = None, table_config: str | None = None) -> TableKit:
    """The kit of a cartridge (its optional members used when given: ``display``,
    ``replay_view``, ``words``, ``headlines`` / ``replay_headlines``, ``figures``, ``journal``);
    its journal and language default to config/table.yaml's (``table_config``: another file)."""
    from bitbox.config import ConfigError

    from .config import journal_path_of, load_table_config
    from .protocol_rules import journal_rules_of
    from .words import words_of

    def display(size: tuple[int, int], words: Any, surface: Any = None) -> Any:
        own = getattr(cartridge, "display", None)
        if callable(own):
            return own(size, words, surface)
        from bitbox.display.generic import GenericDisplay
        return GenericDisplay(size, words, surface, title=cartridge.title, words=words)

    view = getattr(cartridge, "replay_view", None)
    headlines = getattr(cartridge, "replay_headlines", None) or getattr(cartridge, "headlines", None) or {"game_over"}
    return TableKit(cartridge.name, cartridge.title, command or f"bitbox game {cartridge.name}",
                    journal_rules_of(cartridge), lambda code: words_of(cartridge, code), display,
                    replay_view=view if callable(view) else generic_replay_view, headlines=frozenset(headlines),
                    journal_path=lambda given: journal_path_of(given, table_config, cartridge),
                    default_lang=lambda: load_table_config(table_config, cartridge).language,
                    path_errors=(ConfigError,), figures=getattr(cartridge, "figures", None))


def _fail(prog: str, exc: BaseException) -> int:
    print(f"{prog}: {exc}", file=sys.stderr)
    return 2


def history(kit: TableKit, journal: str | None, *, as_json: bool = False, out: TextIO | None = None) -> int:
    """``history``: every game of the journal (each game's table, this one's first), replayed
    from its inputs; one damaged game hides no other (each named on stderr, exit 2)."""
    from .history import print_history_json, print_journal_history, verified_games
    out = out or sys.stdout
    prog = f"{kit.command} history"
    try:
        path = kit.journal_path(journal)
        if not journal_exists(path) and not path.is_symlink():
            if as_json:
                print_history_json([], str(path.absolute()), out)
            else:
                print(f"no games yet ({path} does not exist)", file=out)
            return 0
        with Journal(path, kit.rules, create=False, command=kit.command) as j:
            for line in j.notices:                 # status lines (stderr, --log-file), never in the listing
                logging.getLogger(f"bitbox.{kit.name}").info("%s", f"note: {line}")
            games, problems = verified_games(j)
            playing = j.claims()                   # the games tables are playing now
            games = [replace(g, playing=playing.get(g.id)) if g.status == "playing" else g for g in games]
    except (JournalError, TableError) + kit.path_errors as exc:
        return _fail(prog, exc)
    if as_json:
        print_history_json(games, str(path.absolute()), out)
    elif games:
        print_journal_history(games, out, kit.name, path)
    elif not problems:
        print(f"no games yet in {path}", file=out)
    for problem in problems:
        print(f"{prog}: {problem}", file=sys.stderr)
    return 2 if problems else 0


def export(kit: TableKit, game_id: int, target: str, journal: str | None, *, include_secrets: bool = False,
           analysis: str | None = None) -> int:
    """``export ID FILE``: one game in one portable file (:mod:`bitbox.table.gamefile`)."""
    from .gamefile import export_command
    try:
        path = kit.journal_path(journal)
    except (TableError,) + kit.path_errors as exc:
        return _fail(f"{kit.command} export", exc)
    return export_command(f"{kit.command} export", path, game_id, target, include_secrets=include_secrets,
                          command=kit.command, rules=kit.rules, analysis=analysis)


def import_(kit: TableKit, source: str, journal: str | None) -> int:
    """``import FILE``: a game file verified by replaying it, then added to the journal."""
    from .gamefile import import_command
    try:
        path = kit.journal_path(journal)
    except (TableError,) + kit.path_errors as exc:
        return _fail(f"{kit.command} import", exc)
    return import_command(f"{kit.command} import", path, source, command=kit.command, game=kit.name)


def replay(kit: TableKit, game_id: int | None, journal: str | None, *, lang: str | None = None,
           headless: bool = False, snapshots: str | None = None, size: tuple[int, int] | None = None,
           out: TextIO | None = None, gif: str | None = None, suggest: int | None = None,
           analysis: str | None = None, rollouts: int | None = None, as_json: bool = False,
           think_ms: int | None = None, hub: Any = None, keys: Any = None) -> int:
    """``replay [ID]``: a game turn by turn, each frame the table after its turn. In the window
    (:func:`bitbox.table.replay_window.run_window`): a move list, a scrubber, the win-chance
    graph and the bot's choice. Headless: its events printed, and one PNG per turn under
    ``snapshots``. ``gif``: the game as an animated GIF, no window. ``suggest``: what the
    search bot would play after that turn, printed (``as_json``: as JSON).
    ``hub``/``keys``: a test's controllers and key presses for the window."""
    from bitbox.i18n import Words

    from .app import display_available, init_pygame
    from .history import replay_frames, replay_headless
    from bitbox.display.ending import draw_ending, ending_lines, ending_of

    from .names import named, names_of
    from .options import check_snapshots
    from .replay import GIF_SIZE, SUGGEST_ROLLOUTS, SUGGEST_THINK_MS, ReplayError, ReplayGame, _cartridge
    out = out or sys.stdout
    prog = f"{kit.command} replay"
    try:
        path = kit.journal_path(journal)
        if not journal_exists(path) and not path.is_symlink():
            raise JournalError(f"{path}: no journal here (no game has been played with it)")
        snapshot_dir = check_snapshots(snapshots) if snapshots else None
        with Journal(path, kit.rules, create=False, command=kit.command) as j:
            if game_id is None:
                games = [g for g in j.games() if g.status == "finished" and j.owns(g)]
                if not games:
                    raise JournalError(f"{path}: no finished {kit.title} game to replay")
                game_id = games[-1].id
            info = j.own_game(game_id, "replay {id}")
            frames = replay_frames(j, game_id, kit.rules)
    except (JournalError, TableError) + kit.path_errors as exc:
        return _fail(prog, exc)
    rg = ReplayGame(info, frames, path, kit.rules, _cartridge(info.game))
    code = lang or info.settings.get("lang") or kit.default_lang()
    words = kit.words(code if code in ("en", "es", "fr", "de") else "en")
    named(words, names_of(info.settings))
    say = Words(words.code)
    log = logging.getLogger(f"bitbox.{kit.name}")          # status lines under the game's name
    if suggest is not None:
        from .replay import print_suggestions
        i = rg.index_of_turn(suggest)
        if i is None:
            turns = sorted({f.turn for f in frames[1:]})
            span = f"turns {turns[0]} to {turns[-1]}" if turns else "no turn"
            return _fail(prog, ReplayError(f"--suggest {suggest}: game {game_id} has {span} (0: the start)"))
        try:
            print_suggestions(rg, i, words, out, rollouts or SUGGEST_ROLLOUTS, as_json=as_json,
                              think_ms=SUGGEST_THINK_MS if think_ms is None else think_ms)
        except (ReplayError, JournalError) as exc:
            return _fail(prog, exc)
        return 0
    if info.status != "finished":
        log.info("%s", say.t("status.replay_unfinished", game=game_id, turns=len(frames) - 1))
    gif_path = None
    if gif is not None:
        gif_path = user_path(gif)
        if "\0" in gif:
            return _fail(prog, ReplayError("--gif: a path cannot hold a NUL character"))
        try:
            if not gif.strip() or gif_path.is_dir():
                return _fail(prog, ReplayError(f"--gif {gif}: give a file name (e.g. game-{game_id}.gif)"))
            if not gif_path.parent.is_dir():
                return _fail(prog, ReplayError(f"--gif {gif}: the folder {gif_path.parent} does not exist"))
        except OSError as exc:                  # a name the system refuses to look at (too long)
            return _fail(prog, ReplayError(f"--gif {short_path(gif)}: {exc.strerror or exc}"))
        headless = True
    elif not headless and not display_available():
        log.info("%s", say.t("status.headless"))
        headless = True
    init_pygame(headless)
    winners = list(info.winners or [])

    def table(i: int) -> Any:
        return kit.replay_view(frames[i], info, i == len(frames) - 1 and info.status == "finished")

    last_line = words.t("ui.winner", players=words.players(winners)) if winners else words.t("ui.no_winner")
    ending = None                               # the end screen over a finished game's last frame
    if info.status == "finished" and frames:
        ending = ending_of(words, info.players, winners, [e for f in frames for e in f.events], frames[-1].view,
                           kit.figures)
        last_line = "\n".join([*ending_lines(ending), last_line])
    if headless:
        display = kit.display(size or (GIF_SIZE if gif_path is not None else (1920, 1080)), words, None)

        def draw(i: int) -> Any:
            display.render(table(i), full=True)
            if ending is not None and i == len(frames) - 1:
                draw_ending(display, ending)
            return display.surface

        if gif_path is not None:
            from .replay import human_size, write_gif
            try:
                written = write_gif(draw, len(frames), gif_path)
            except (OSError, ValueError) as exc:
                return _fail(prog, ReplayError(f"cannot write the GIF {gif_path} ({exc})"))
            w, h = display.surface.get_size()
            print(_say(say, "status.replay_gif", "game {game}: {file} written (frames: {frames}, {width}x{height}, "
                       "{size})", game=game_id, file=gif_path, frames=len(frames), width=w, height=h,
                       size=human_size(written)), file=out)
            return 0
        return int(replay_headless(
            frames, prog=prog, folder=f"replay-{kit.name}-{game_id}", draw=draw, line=lambda e: kit.line(e, words),
            snapshots=snapshot_dir, out=out,
            status=lambda folder: say.t("status.replay_snapshots", game=game_id, folder=folder), last_line=last_line))
    from .replay_window import run_window
    try:
        return run_window(kit, rg, words, table, size=size, analysis=analysis, hub=hub, keys=keys, log=log,
                          rollouts=rollouts or SUGGEST_ROLLOUTS, think_ms=SUGGEST_THINK_MS if think_ms is None else think_ms,
                          ending=ending)
    except (ReplayError, JournalError) as exc:
        return _fail(prog, exc)


def _say(words: Any, key: str, english: str, **data: Any) -> str:
    return str(words.t(key, **data)) if words.has(key) else english.format(**data)


__all__ = ["TableKit", "export", "generic_replay_view", "history", "import_", "kit_of", "replay"]
