"""History and replay of the journal's games, for every game.

:func:`print_history` lists the games of a journal (each verified: replayed from its inputs,
refused when its stored result disagrees), a game's seed shown only once it has ended, in
columns that stay aligned whatever their widths; :func:`print_history_json` is the same
listing as one JSON document (``history --json``).
:func:`replay_frames` rebuilds one game as one frame per turn: the public view at the end of
the turn, the turn's log (in the same words as at the table: the game's
:meth:`ReplayRules.log_data` is the referee's own) and the dice rolled.
"""
from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Protocol, Sequence, TextIO

from bitbox.display.model import DieShown, LogEntry
from bitbox.safetext import printable

from .names import names_of, seat_label
from .journal import (GameInfo, Journal, JournalError, check_result, command_of, game_title, journal_option, replay,
                      turns_by_input, verify)


class ReplayRules(Protocol):
    """What a replay needs of a game, besides its journal rules."""

    def turn(self, game: Any) -> int: ...
    def finished(self, game: Any) -> bool: ...
    def seed(self, game: Any) -> int: ...
    def public_view(self, game: Any) -> Mapping[str, Any]: ...
    def log_data(self, event: Any, before: Mapping[str, Any], after: Mapping[str, Any], game: Any) -> dict[str, Any]: ...
    def die(self, event: Any) -> DieShown | None: ...


@dataclass
class ReplayFrame:
    turn: int
    view: Mapping[str, Any]
    log: list[LogEntry]
    dice: list[DieShown]
    inputs: int = 0                 # the journal's inputs applied up to the end of this frame
    repeat: bool = False            # the frame before, again: a turn the same answer ended

    @property
    def events(self) -> list[LogEntry]:
        """The frame's own events: none for a repeat (it shows the events of the frame it
        repeats, which says them)."""
        return [] if self.repeat else self.log


def replay_frames(journal: Journal, game_id: int, rules: ReplayRules) -> list[ReplayFrame]:
    """One frame per turn: the public view at its end and the turn's public events. One
    answer that ended several turns (the game went from turn 3 to turn 6 on it: turns 4 and
    5 had no answer of their own) gives each of them a frame, as the table gives each a
    snapshot: the same view and events, each frame naming its own turn, the copies marked
    ``repeat`` (their events are the first's: said once). The game is rebuilt from its inputs
    and refused when its stored result disagrees; its seed is shown only once it has ended
    (or when it was chosen with --seed)."""
    info = journal.own_game(game_id, "replay {id}")
    game0 = journal.initial(game_id)
    started = {"seed": rules.seed(game0)} if info.seed_public else {}
    view = rules.public_view(game0)
    frames = [ReplayFrame(0, view, [LogEntry("started", started)], [])]
    game = game0
    log: list[LogEntry] = []
    dice: list[DieShown] = []
    turn = rules.turn(game0)
    by_input = turns_by_input(rules, game0)     # a game without turns of its own: a frame per input
    for rec, game, events in replay(journal, game_id):
        after = rules.public_view(game)
        for e in events:
            die = rules.die(e)
            if die is not None:
                dice.append(die)
            log.append(LogEntry(e.kind, rules.log_data(e, view, after, game)))
        if by_input or rules.finished(game) or rules.turn(game) != turn:
            shown = after                   # the table after every event of the frame (never lagging them)
            now = rules.turn(game)
            ended = [rec.seq + 1] if by_input else [turn] if rules.finished(game) else list(range(turn, max(now, turn + 1)))
            for n, t in enumerate(ended):
                frames.append(ReplayFrame(t, shown, log, dice, rec.seq + 1, repeat=n > 0))
            log, dice = [], []
            turn = now
        view = after
    check_result(journal, info, game)
    return frames


def replay_headless(frames: Sequence[ReplayFrame], *, prog: str, folder: str, line: Callable[[LogEntry], str],
                    draw: Callable[[int], Any], snapshots: Path | None, status: Callable[[str], str],
                    last_line: str, out: TextIO) -> int:
    """A replay without a window, for every game: each frame's events printed (``line``
    gives an entry's text), and with ``snapshots`` one PNG per turn (``draw(i)``: frame ``i``
    rendered, its surface) in a folder of its own under it (``folder``-TIME, announced with
    ``status(path)`` as a status line); then ``last_line``. 0, or 2 after one line (``prog:
    ...``) when the folder or a PNG cannot be written."""
    import logging
    import os

    import pygame

    from .options import game_folder
    from .seating import TableError
    if snapshots is not None:
        try:
            snapshots = game_folder(snapshots, folder)
        except TableError as exc:
            print(f"{prog}: {exc}", file=sys.stderr)
            return 2
        logging.getLogger("bitbox").info("%s", status(f"{snapshots}{os.sep}"))
    for i, f in enumerate(frames):
        for e in f.events:
            print(line(e), file=out)
        if snapshots is not None:
            name = snapshots / f"turn-{f.turn:02d}.png"
            try:
                pygame.image.save(draw(i), str(name))
            except (OSError, pygame.error) as exc:
                print(f"{prog}: cannot write the snapshot {name} ({exc})", file=sys.stderr)
                return 2
    print(last_line, file=out)
    return 0


def _cell_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: wide (East Asian) characters two, combining marks
    and zero-width characters none."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _pad(text: str, width: int, right: bool = False) -> str:
    fill = " " * max(0, width - _cell_width(text))
    return fill + text if right else text + fill


HISTORY_COLUMNS = ("id", "date", "turns", "players", "result", "seed")
_RIGHT = {"id", "turns"}


def history_rows(games: Sequence[GameInfo], resume_hint: str) -> list[tuple[str, ...]]:
    """The cells of :func:`print_history`'s table, one tuple per game (names made printable)."""
    rows: list[tuple[str, ...]] = []
    for g in games:
        kinds = {s.get("player"): s.get("kind", "") for s in g.settings.get("seats", [])}
        names = names_of(g.settings)
        players = ", ".join(seat_label(p, names, printable(p, 60)) + ("*" if kinds.get(p) == "bot" else "")
                            for p in g.players)
        if g.status == "finished":
            result = ("winner: " + " and ".join(names.get(w) or printable(w, 60) for w in g.winners)) if g.winners \
                else "no winner"
        elif g.playing is not None:                 # a table is playing it now (its claim)
            result = f"being played now ({g.playing.holder()})"
        else:
            result = f"unfinished ({resume_hint})"
        seed = str(g.seed) if g.seed_public else "(secret until the end)"
        rows.append((str(g.id), printable(g.created[:19].replace("T", " "), 30), str(g.turns), players, result, seed))
    return rows


def print_history(games: Sequence[GameInfo], out: TextIO, resume_hint: str) -> None:
    """The table of ``games`` (id, date, turns, players with bots starred, result, seed), its
    columns as wide as their widest cell (wide characters counted as two), two spaces apart."""
    rows = history_rows(games, resume_hint)
    widths = [max([_cell_width(h)] + [_cell_width(r[i]) for r in rows]) for i, h in enumerate(HISTORY_COLUMNS)]
    last = len(HISTORY_COLUMNS) - 1
    for row in [HISTORY_COLUMNS, *rows]:
        cells = [c if i == last else _pad(c, widths[i], HISTORY_COLUMNS[i] in _RIGHT) for i, c in enumerate(row)]
        print("  ".join(cells).rstrip(), file=out)
    print("(* bot)", file=out)


def verified_games(journal: Journal) -> tuple[list[GameInfo], list[JournalError]]:
    """Every game of ``journal`` that can be read and replays to its stored result (each with
    its own game's rules, whatever the command), and what is wrong with each other one: one
    damaged or altered game hides no other (``history`` lists the others and names it)."""
    games, problems = journal.readable_games()
    good: list[GameInfo] = []
    for g in games:
        try:
            good.append(verify(journal, g.id))
        except JournalError as exc:
            problems.append(exc)
    return good, problems


def print_journal_history(games: Sequence[GameInfo], out: TextIO, own: str, journal: str | Path | None = None) -> None:
    """Every game of a journal (one journal serves every game): one table per game, the
    calling command's game ``own`` first, each titled when the journal holds more than one
    game, each with its own resume hint (``NAME play --resume``, :func:`command_of`, with
    ``--journal PATH`` when ``journal`` is not the default one)."""
    by_game: dict[str, list[GameInfo]] = {}
    for g in games:
        by_game.setdefault(g.game, []).append(g)
    order = sorted(by_game, key=lambda name: (name != own, name))
    for i, name in enumerate(order):
        if len(order) > 1:
            print(("\n" if i else "") + f"{game_title(name)}:", file=out)
        where = journal_option(journal) if journal is not None else ""
        print_history(by_game[name], out, f"{command_of(name)} play --resume{where}")


def history_document(games: Sequence[GameInfo], journal: str) -> dict[str, Any]:
    """``history --json``: the journal and its games, one object each with the same keys
    whatever the game (see docs/table.md). ``seed`` (decimal digits, as text: a seed has up
    to 128 bits) is null while the game may not show it (unfinished, and not chosen with
    --seed); the other fields hold nothing secret."""
    out = []
    for g in games:
        kinds = {s.get("player"): s.get("kind") for s in g.settings.get("seats", [])}
        options = {k: v for k, v in g.settings.items() if k not in ("seats", "game", "seed", "names")}
        names = names_of(g.settings)
        out.append({
            "id": g.id,
            "game": g.game,
            "created": g.created,
            "ended": g.ended,
            "status": g.status,
            "turns": g.turns,
            "inputs": g.inputs,
            "players": [{"name": p, "kind": kinds.get(p), "person": names.get(p)} for p in g.players],
            "winners": list(g.winners or []) if g.status == "finished" else None,
            "seed": str(g.seed) if g.seed_public else None,
            "seed_given": g.settings.get("seed") == "given",
            "options": options,
        })
    return {"format": "8bitbox-history", "version": 1, "journal": journal, "games": out}


def print_history_json(games: Sequence[GameInfo], journal: str, out: TextIO) -> None:
    print(json.dumps(history_document(games, journal), indent=2, ensure_ascii=False), file=out)
