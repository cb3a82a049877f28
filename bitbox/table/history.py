"""History and replay of the journal's games, for every game.

:func:`print_history` lists the games of a journal (each verified: replayed from its inputs,
refused when its stored result disagrees), a game's seed shown only once it has ended.
:func:`replay_frames` rebuilds one game as one frame per turn: the public view at the end of
the turn, the turn's log (in the same words as at the table: the game's
:meth:`ReplayRules.log_data` is the referee's own) and the dice rolled.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Protocol, Sequence, TextIO

from bitbox.display.model import DieShown, LogEntry

from .journal import GameInfo, Journal, check_result, replay


class ReplayRules(Protocol):
    """What a replay needs of a game, besides its journal rules."""

    def turn(self, game: Any) -> int: ...
    def finished(self, game: Any) -> bool: ...
    def seed(self, game: Any) -> int: ...
    def public_view(self, game: Any) -> Mapping[str, Any]: ...
    def log_data(self, event: Any, before: Mapping[str, Any], after: Mapping[str, Any], game: Any) -> dict[str, Any]: ...
    def die(self, event: Any) -> DieShown | None: ...
    def end_of_turn_view(self, view: Mapping[str, Any], events: Sequence[Any], game: Any) -> Mapping[str, Any]: ...


@dataclass
class ReplayFrame:
    turn: int
    view: Mapping[str, Any]
    log: list[LogEntry]
    dice: list[DieShown]


def replay_frames(journal: Journal, game_id: int, rules: ReplayRules) -> list[ReplayFrame]:
    """One frame per turn: the public view at its end and the turn's public events. The game
    is rebuilt from its inputs and refused when its stored result disagrees; its seed is
    shown only once it has ended (or when it was chosen with --seed)."""
    info = journal.game(game_id)
    game0 = journal.initial(game_id)
    started = {"seed": rules.seed(game0)} if info.seed_public else {}
    view = rules.public_view(game0)
    frames = [ReplayFrame(0, view, [LogEntry("started", started)], [])]
    game = game0
    log: list[LogEntry] = []
    dice: list[DieShown] = []
    turn = rules.turn(game0)
    for _rec, game, events in replay(journal, game_id):
        after = rules.public_view(game)
        for e in events:
            die = rules.die(e)
            if die is not None:
                dice.append(die)
            log.append(LogEntry(e.kind, rules.log_data(e, view, after, game)))
        if rules.finished(game) or rules.turn(game) != turn:
            shown = after if rules.finished(game) else rules.end_of_turn_view(view, events, game)
            frames.append(ReplayFrame(turn, shown, log, dice))
            log, dice = [], []
            turn = rules.turn(game)
        view = after
    check_result(journal, info, game)
    return frames


def print_history(games: Sequence[GameInfo], out: TextIO, resume_hint: str) -> None:
    """The table of ``games`` (id, date, turns, players with bots starred, result, seed)."""
    print(f"{'id':>4}  {'date':<19}  {'turns':>5}  {'players':<44}  {'result':<36}  seed", file=out)
    for g in games:
        kinds = {s.get("player"): s.get("kind", "") for s in g.settings.get("seats", [])}
        players = ", ".join(p + ("*" if kinds.get(p) == "bot" else "") for p in g.players)
        if g.status == "finished":
            result = ("winner: " + " and ".join(g.winners)) if g.winners else "no winner"
        else:
            result = f"unfinished ({resume_hint})"
        seed = str(g.seed) if g.seed_public else "(secret until the end)"
        turns = str(g.turns)
        print(f"{g.id:>4}  {g.created[:19].replace('T', ' '):<19}  {turns:>5}  {players:<44}  {result:<36}  {seed}",
              file=out)
    print("(* bot)", file=out)
