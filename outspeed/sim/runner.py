"""Outspeed's simulation: its run configuration and its statistics hook on the console's runner
(:mod:`bitbox.simulation.runner`: seeds, bots, the protocol loop, the pool, Ray).

Game ``i`` of a run seeded ``S`` is seeded from ``(S, i)`` and the bot in the seat of 0-based
index ``k`` from ``(game seed, k)`` (:func:`game_seed`, :func:`bot_seed`, namespace
``outspeed-simulate``). A record is the console's (``index``, ``seed``, ``bots``, ``wins``,
``prompts``) and Outspeed's: ``zone`` (each seat's zone at the end, None when eliminated),
``place``, ``eliminated`` (``[seat, cause, turn]``), ``turns``, ``end`` and ``picks`` (per turn
``[tile, face, [[seat, path], ...]]``); seats are 0-based in a record, counted from 1 in every
output.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from bitbox.colours import SEAT_COLOURS
from bitbox.games import JSON
from bitbox.simulation import runner, seeds
from bitbox.simulation.gamelog import Column, seat_columns
from bitbox.simulation.pool import default_workers, usable_cores
from bitbox.simulation.progress import Progress

from ..rules import EventKind

if TYPE_CHECKING:
    from ..cartridge import OutspeedCartridge, OutspeedGame
    from ..content import Content
    from .stats import Stats

COLOURS = SEAT_COLOURS
NAMESPACE = "outspeed-simulate"


@dataclass(frozen=True)
class SimConfig(runner.Config):
    """What to simulate (:class:`bitbox.simulation.runner.Config`); ``first_game``: tiles 1–13
    in order."""

    game: ClassVar[str] = "outspeed"
    namespace: ClassVar[str] = NAMESPACE
    games: int
    players: int = 4
    bots: tuple[str, ...] = ("random",)
    seed: int = 0
    first_game: bool = False
    rotate: bool = True
    search: Any = None                  # the search bot's budget (bitbox.bots.search.Budget), when it plays

    def cartridge_options(self) -> dict[str, JSON]:
        return {"first_game": self.first_game}

    def describe(self) -> str:
        return super().describe() + (", first game (tiles 1-13 in order)" if self.first_game else "")


def game_seed(seed: int, index: int) -> int:
    return seeds.game_seed(NAMESPACE, seed, index)


def bot_seed(seed_of_game: int, seat: int) -> int:
    return seeds.bot_seed(NAMESPACE, seed_of_game, seat)


class Watch:
    """One game's picks and ending, from its events; its places from the final state."""

    def __init__(self, game: "OutspeedGame", players: Sequence[str]) -> None:
        self.state = game.engine.state
        self.seat_of = {p: k for k, p in enumerate(players)}
        self.turns: list[list[Any]] = []        # [tile number, face, [[seat, path], ...]]
        self.end = "finish"

    def events(self, events: Sequence[Any]) -> None:
        for e in events:
            if e.kind == EventKind.TURN:
                assert self.state.tile is not None          # a turn starts with its tile drawn
                self.turns.append([self.state.tile.number, e.data["face"], []])
            elif e.kind == EventKind.PROGRAMMED:
                self.turns[-1][2].append([self.seat_of[e.data["player"]], e.data["path"]])
            elif e.kind == EventKind.GAME_OVER:
                self.end = "last ship" if e.data.get("why") == "last ship" else \
                    "finish" if e.data["winners"] else "nobody"

    def record(self) -> dict[str, Any]:
        s, seat_of = self.state, self.seat_of
        # Finishing place: survivors by (zone, fuel, tokens), equal keys share a place; then the
        # eliminated, the last one out first.
        keys = sorted(((s.zone[p], s.fuel[p], len(s.held[p])) for p in s.active), reverse=True)
        place = {seat_of[p]: keys.index((s.zone[p], s.fuel[p], len(s.held[p]))) + 1 for p in s.active}
        for n, (p, _, _) in enumerate(reversed(s.eliminated)):
            place[seat_of[p]] = len(s.active) + n + 1
        return {"zone": [s.zone.get(p) if p in s.active else None for p in seat_of],
                "place": [place[k] for k in range(len(seat_of))],
                "eliminated": [[seat_of[p], cause, turn] for p, cause, turn in s.eliminated],
                "turns": s.turn, "end": self.end, "picks": self.turns}


END_MEANING = ("why it ended: finish (played to the finish tile), last ship (one ship left racing), "
               "nobody (every ship out)")


class Statistics:
    """Outspeed's statistics hook (:class:`bitbox.simulation.runner.Statistics`): the cartridge's
    ``statistics``."""

    def __init__(self, cartridge: "OutspeedCartridge") -> None:
        self.cartridge = cartridge

    def watch(self, game: Any, players: Sequence[str]) -> Watch:
        return Watch(game, players)

    def columns(self, players: int) -> list[Column]:
        """Outspeed's columns of ``games.csv`` (docs/simulate.md), after the console's."""
        return [Column("end", END_MEANING),
                Column("tiles", "the tiles played, in order, as TILE/FACE (7/3-4: tile 7 on its 3-4 face)"),
                *seat_columns(players, [
                    ("place", "seat K's finishing place (1 = winner; see the report)"),
                    ("zone", "seat K's zone at the end (the start is zone 3; empty: eliminated)"),
                    ("out", "why seat K was eliminated: fuel, overpaid, board or pushed (empty: still racing)"),
                    ("out_turn", "the turn seat K was eliminated on (empty: still racing)"),
                    ("paths", "the path seat K programmed each turn, in order (left, center, right)")])]

    def row(self, record: Mapping[str, Any]) -> dict[str, object]:
        players = len(record["wins"])
        row: dict[str, object] = {"end": record["end"],
                                  "tiles": [f"{tile}/{face}" for tile, face, _ in record["picks"]]}
        out = {seat: (cause, turn) for seat, cause, turn in record["eliminated"]}
        paths: list[list[str]] = [[] for _ in range(players)]
        for _, _, picks in record["picks"]:
            for seat, path in picks:
                paths[seat].append(path)
        for k in range(players):
            cause, turn = out.get(k, (None, None))
            row.update({f"seat{k + 1}_place": record["place"][k], f"seat{k + 1}_zone": record["zone"][k],
                        f"seat{k + 1}_out": cause, f"seat{k + 1}_out_turn": turn, f"seat{k + 1}_paths": paths[k]})
        return row

    def tally(self, config: Any) -> "Stats":
        from .stats import Stats
        return Stats(config.players, lit_paths(self.cartridge.content))


def lit_paths(content: "Content") -> dict[tuple[int, str], tuple[str, ...]]:
    """The paths lit on each tile face."""
    return {(t.number, face): tuple(paths) for t in content.tiles for face, paths in t.faces.items()}


def _cartridge(content: "Content | None") -> "OutspeedCartridge":
    from ..cartridge import OutspeedCartridge
    return OutspeedCartridge(content)


def csv_columns(players: int) -> list[Column]:
    """The columns of ``games.csv`` (docs/simulate.md): the console's, then Outspeed's."""
    return runner.csv_columns(Statistics(_cartridge(None)), players)


def play_one(config: SimConfig, content: "Content | None", index: int) -> dict[str, Any]:
    """Play game ``index`` of the run; return its record (plain data, cheap to pickle)."""
    cartridge = _cartridge(content)
    return runner.play_one(config, index, cartridge, cartridge.statistics)


def run_games(config: SimConfig, workers: int = 1, content: "Content | None" = None,
              progress: Progress | None = None, ray: str | None = None,
              on_start: Callable[[int], None] | None = None) -> Iterator[dict[str, Any]]:
    """Every game's record, in game-index order (:func:`bitbox.simulation.runner.records`)."""
    return runner.records(config, workers, progress, ray, on_start, _cartridge(content))


__all__ = ["COLOURS", "NAMESPACE", "Progress", "SimConfig", "Statistics", "Watch", "bot_seed", "csv_columns",
           "default_workers", "game_seed", "lit_paths", "play_one", "run_games", "usable_cores"]
