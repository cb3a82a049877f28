"""Play many games of Outspeed with bots: one game's record, on the console's simulation
harness (:mod:`bitbox.simulation`: seeds, worker pool, progress).

Determinism: game ``i`` of a run seeded ``S`` is seeded from ``(S, i)`` and the bot in the
seat of 0-based index ``k`` of that game from ``(game seed, k)`` (:func:`game_seed`,
:func:`bot_seed`, namespace ``outspeed-simulate``). A record's seats are list positions
(0-based); every output (tables, charts, ``games.csv``, ``results.json``) counts seats from 1; records come back in game-index order whatever the number of worker
processes, and are aggregated in that order, so a run's report is the same for any ``--workers``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from bitbox.bots.search import SEARCH, Budget
from bitbox.colours import SEAT_COLOURS
from bitbox.simulation import seeds
from bitbox.simulation.gamelog import Column, common_columns, common_row, seat_columns
from bitbox.simulation.pool import default_workers, run_indexed, usable_cores
from bitbox.simulation.progress import Progress

from ..bots import BOTS, make_bot, play_game
from ..rules import EventKind, Game
from ..rules.game import MAX_PLAYERS, MIN_PLAYERS

if TYPE_CHECKING:
    from ..content import Content

COLOURS = SEAT_COLOURS
NAMESPACE = "outspeed-simulate"


@dataclass(frozen=True)
class SimConfig:
    """What to simulate. ``bots`` are cycled over the seats; with ``rotate`` the cycle starts
    one seat further in each game, so every bot sits in every seat equally often."""

    games: int
    players: int = 4
    bots: tuple[str, ...] = ("random",)
    seed: int = 0
    first_game: bool = False
    rotate: bool = True
    search: Budget = field(default_factory=Budget)      # the search bot's budget per decision

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"the number of games must be 1 or more, not {self.games}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"Outspeed is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players}")
        if not self.bots:
            raise ValueError("name at least one bot")
        unknown = [b for b in self.bots if b not in BOTS and b != SEARCH]
        if unknown:
            raise ValueError(f"unknown bot {unknown[0]!r} (known: {', '.join((*BOTS, SEARCH))})")

    def seat_bots(self, index: int) -> list[str]:
        """The bot name in each seat of game ``index``."""
        shift = index if self.rotate else 0
        return [self.bots[(k + shift) % len(self.bots)] for k in range(self.players)]


def _seat_bot(name: str, seed: int, player: str, content: Any, budget: Budget) -> Any:
    """Outspeed's bot ``name``, or the console's search bot in the engine's loop."""
    if name != SEARCH:
        return make_bot(name, seed, dice=content.dice)
    from bitbox.bots import make_bot as console_bot

    from ..cartridge import EngineSeat, OutspeedCartridge
    return EngineSeat(console_bot(OutspeedCartridge(content), SEARCH, seed, budget), player)


def game_seed(seed: int, index: int) -> int:
    return seeds.game_seed(NAMESPACE, seed, index)


def bot_seed(seed_of_game: int, seat: int) -> int:
    return seeds.bot_seed(NAMESPACE, seed_of_game, seat)


def play_one(config: SimConfig, content, index: int) -> dict[str, Any]:
    """Play game ``index`` of the run; return its record (plain data, cheap to pickle)."""
    gseed = game_seed(config.seed, index)
    names = COLOURS[: config.players]
    seat_of = {p: k for k, p in enumerate(names)}
    game = Game.new(names, content.tiles, seed=gseed, first_game=config.first_game, dice=content.dice,
                    token_counts=content.token_counts, markers=content.markers)
    kinds = config.seat_bots(index)
    bots = {p: _seat_bot(kinds[k], bot_seed(gseed, k), p, content, config.search) for k, p in enumerate(names)}
    turns: list[list[Any]] = []        # [tile number, face, [[seat, path], ...]]
    end = ["finish"]
    s = game.state

    def record(events) -> None:
        for e in events:
            if e.kind == EventKind.TURN:
                assert s.tile is not None           # a turn starts with its tile drawn
                turns.append([s.tile.number, e.data["face"], []])
            elif e.kind == EventKind.PROGRAMMED:
                turns[-1][2].append([seat_of[e.data["player"]], e.data["path"]])
            elif e.kind == EventKind.GAME_OVER:
                end[0] = "last ship" if e.data.get("why") == "last ship" else "finish" if e.data["winners"] else "nobody"

    play_game(game, bots, record)
    shares = {seat_of[p]: 1 / len(s.winners) for p in s.winners}
    # Finishing place: survivors by (zone, fuel, tokens), equal keys share a place; then the
    # eliminated, the last one out first.
    keys = sorted(((s.zone[p], s.fuel[p], len(s.held[p])) for p in s.active), reverse=True)
    place = {seat_of[p]: keys.index((s.zone[p], s.fuel[p], len(s.held[p]))) + 1 for p in s.active}
    for n, (p, _, _) in enumerate(reversed(s.eliminated)):
        place[seat_of[p]] = len(s.active) + n + 1
    return {
        "index": index,
        "seed": gseed,
        "bots": kinds,
        "wins": [shares.get(k, 0.0) for k in range(config.players)],
        "zone": [s.zone.get(p) if p in s.active else None for p in names],
        "place": [place[k] for k in range(config.players)],
        "eliminated": [[seat_of[p], cause, turn] for p, cause, turn in s.eliminated],
        "turns": s.turn,
        "end": end[0],
        "picks": turns,
    }


# --------------------------------------------------------------------------- games.csv

END_MEANING = ("why it ended: finish (played to the finish tile), last ship (one ship left racing), "
               "nobody (every ship out)")


def csv_columns(players: int) -> list[Column]:
    """The columns of ``games.csv`` (docs/simulate.md): the console's, then Outspeed's."""
    return [*common_columns(players),
            Column("end", END_MEANING),
            Column("tiles", "the tiles played, in order, as TILE/FACE (7/3-4: tile 7 on its 3-4 face)"),
            *seat_columns(players, [
                ("place", "seat K's finishing place (1 = winner; see the report)"),
                ("zone", "seat K's zone at the end (the start is zone 3; empty: eliminated)"),
                ("out", "why seat K was eliminated: fuel, overpaid, board or pushed (empty: still racing)"),
                ("out_turn", "the turn seat K was eliminated on (empty: still racing)"),
                ("paths", "the path seat K programmed each turn, in order (left, center, right)")])]


def csv_row(record: Mapping[str, Any]) -> dict[str, object]:
    """A game's record (:func:`play_one`) as its row of ``games.csv``."""
    players = len(record["wins"])
    row = common_row(record["index"], record["seed"], record["bots"], record["wins"], COLOURS, record["turns"])
    row.update({"end": record["end"], "tiles": [f"{tile}/{face}" for tile, face, _ in record["picks"]]})
    out = {seat: (cause, turn) for seat, cause, turn in record["eliminated"]}
    paths: list[list[str]] = [[] for _ in range(players)]
    for _, _, picks in record["picks"]:
        for seat, path in picks:
            paths[seat].append(path)
    for k in range(players):
        cause, turn = out.get(k, (None, None))
        row.update({f"seat{k + 1}_place": record["place"][k],
                    f"seat{k + 1}_zone": record["zone"][k], f"seat{k + 1}_out": cause,
                    f"seat{k + 1}_out_turn": turn, f"seat{k + 1}_paths": paths[k]})
    return row


# --------------------------------------------------------------------------- parallel

class Job:
    """:func:`play_one` for a run, as the harness's picklable job: the contents go to the
    worker processes by name (each loads config/ once), not by value."""

    def __init__(self, config: SimConfig, content: "Content | None" = None) -> None:
        self.config = config
        self.content = content

    def __getstate__(self) -> SimConfig:
        return self.config

    def __setstate__(self, config: SimConfig) -> None:
        self.config, self.content = config, None

    def __call__(self, index: int) -> dict[str, Any]:
        if self.content is None:
            from ..content import load_content
            self.content = load_content()
        return play_one(self.config, self.content, index)


def run_games(config: SimConfig, workers: int = 1, content=None,
              progress: "Progress | None" = None, ray: str | None = None,
              on_start=None) -> Iterator[dict[str, Any]]:
    """Yield every game's record, in game-index order, played on ``workers`` processes, or on
    Ray's pool when ``ray`` is not None (an address, or "" for a Ray instance on this machine:
    :mod:`bitbox.simulation.cluster`); the records are the same either way."""
    if ray is not None:
        from bitbox.simulation import cluster
        return cluster.run_indexed(Job(config, content), config.games, ray, progress, on_start)
    return run_indexed(Job(config, content), config.games, workers, progress)


__all__ = ["COLOURS", "Job", "Progress", "SimConfig", "bot_seed", "csv_columns", "csv_row", "default_workers",
           "game_seed", "play_one",
           "run_games", "usable_cores"]
