"""The journal's commands of every game: ``history``, ``export``, ``import`` and ``replay``.

One implementation for every cartridge; a game's table command passes its :class:`TableKit`
(how it names itself, its journal rules, words, display and replay view, where its journal
is by default). A game that brings only its rules gets :func:`kit_of`'s defaults (the
protocol's journal rules, :class:`bitbox.table.words.GameWords`, the generic display).
"""
from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TextIO

from bitbox.display.model import ShellView

from .history import ReplayFrame
from .journal import GameInfo, Journal, JournalError, default_journal_path
from .seating import TableError


def _default_path(given: str | None) -> Path:
    if given is not None and not given.strip():
        raise TableError("--journal: an empty path is not a journal file (leave --journal out for the default one)")
    return Path(given or default_journal_path()).expanduser()


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

    def line(self, entry: Any, words: Any) -> str:
        """An event as printed: a headline, or indented under it."""
        return ("" if entry.kind in self.headlines else "  ") + words.event(entry.kind, entry.data)


def kit_of(cartridge: Any, command: str | None = None) -> TableKit:
    """The kit of a cartridge that brings only its rules (optional members used when given)."""
    from .protocol_rules import journal_rules_of
    from .words import words_of

    def display(size: tuple[int, int], words: Any, surface: Any = None) -> Any:
        own = getattr(cartridge, "display", None)
        if callable(own):
            return own(size, words, surface)
        from bitbox.display.generic import GenericDisplay
        return GenericDisplay(size, words, surface, title=cartridge.title, words=words)

    return TableKit(cartridge.name, cartridge.title, command or f"bitbox game {cartridge.name}",
                    journal_rules_of(cartridge), lambda code: words_of(cartridge, code), display)


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
        if not path.exists() and not path.is_symlink():
            if as_json:
                print_history_json([], str(path.absolute()), out)
            else:
                print(f"no games yet ({path} does not exist)", file=out)
            return 0
        with Journal(path, kit.rules, create=False, command=kit.command) as j:
            for line in j.notices:                 # status lines (stderr, --log-file), never in the listing
                logging.getLogger(f"bitbox.{kit.name}").info("%s", f"note: {line}")
            games, problems = verified_games(j)
    except (JournalError, TableError) + kit.path_errors as exc:
        return _fail(prog, exc)
    if as_json:
        print_history_json(games, str(path.absolute()), out)
    elif games:
        print_journal_history(games, out, kit.name)
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
    return import_command(f"{kit.command} import", path, source, command=kit.command)


def replay(kit: TableKit, game_id: int | None, journal: str | None, *, lang: str | None = None,
           headless: bool = False, snapshots: str | None = None, size: tuple[int, int] | None = None,
           out: TextIO | None = None) -> int:
    """``replay [ID]``: a game turn by turn (← → in the window; headless: its events printed,
    and one PNG per turn under ``snapshots``), each frame the table after its turn."""
    from bitbox.i18n import Words

    from .app import display_available, init_pygame
    from .history import replay_frames, replay_headless
    from .options import check_snapshots
    out = out or sys.stdout
    prog = f"{kit.command} replay"
    try:
        path = kit.journal_path(journal)
        if not path.exists() and not path.is_symlink():
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
    code = lang or info.settings.get("lang") or kit.default_lang()
    words = kit.words(code if code in ("en", "es", "fr", "de") else "en")
    say = Words(words.code)
    log = logging.getLogger(f"bitbox.{kit.name}")          # status lines under the game's name
    if info.status != "finished":
        log.info("%s", say.t("status.replay_unfinished", game=game_id, turns=len(frames) - 1))
    if not headless and not display_available():
        log.info("%s", say.t("status.headless"))
        headless = True
    pygame = init_pygame(headless)
    winners = list(info.winners or [])

    def table(i: int) -> Any:
        return kit.replay_view(frames[i], info, i == len(frames) - 1 and info.status == "finished")

    last_line = words.t("ui.winner", players=words.players(winners)) if winners else words.t("ui.no_winner")
    if headless:
        display = kit.display(size or (1920, 1080), words, None)

        def draw(i: int) -> Any:
            display.render(table(i), full=True)
            return display.surface

        return int(replay_headless(
            frames, prog=prog, folder=f"replay-{kit.name}-{game_id}", draw=draw, line=lambda e: kit.line(e, words),
            snapshots=snapshot_dir, out=out,
            status=lambda folder: say.t("status.replay_snapshots", game=game_id, folder=folder), last_line=last_line))
    screen = pygame.display.set_mode(size or (1280, 720), pygame.RESIZABLE)
    pygame.display.set_caption(f"{kit.title} — replay of game {game_id}")
    display = kit.display(screen.get_size(), words, screen)
    clock = pygame.time.Clock()
    i = len(frames) - 1 if len(frames) == 1 else 1
    window_events = {getattr(pygame, n) for n in ("VIDEORESIZE", "WINDOWSIZECHANGED", "WINDOWEXPOSED",
                                                   "WINDOWRESTORED") if hasattr(pygame, n)}
    while True:
        redraw = False
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT or (ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE, pygame.K_q)):
                return 0
            if ev.type in window_events:
                redraw = True
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
                    try:
                        pygame.display.toggle_fullscreen()
                    except pygame.error:
                        pass
                    redraw = True
        dirty = display.render(table(i), surface=pygame.display.get_surface(), full=redraw)
        if redraw:
            pygame.display.flip()
        elif dirty:
            pygame.display.update(dirty)
        clock.tick(30)


__all__ = ["TableKit", "export", "generic_replay_view", "history", "import_", "kit_of", "replay"]
