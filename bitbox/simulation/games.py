"""Any registered cartridge played many times by bots: win rates by seat and by bot, the same
figures for every game: the ``simulate`` of a cartridge with no ``simulation`` member
(:mod:`.command`).

The games are the console's runner's (:mod:`.runner`), without the cartridge's statistics: game
``i`` of a run is seeded from ``(run seed, i)`` and each seat's bot from ``(game seed, seat)``
in the namespace ``bitbox-simulate/GAME``. A cartridge with a ``simulation`` member
(``outspeed``) runs the same runner with its own run and its statistics hook.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import seat_names
from ..games import JSON, Cartridge, GameError, check_options, check_players, find
from ..games.conformance import player_names
from ..i18n import counted
from . import runner
from .gamelog import Column, GameLog, common_columns, common_row
from .progress import Progress
from .rates import Rate
from .report import CI_HEADER, SMALL_NOTE, ci, num, rate, run_line, table

Record = runner.Record


@dataclass(frozen=True)
class Run:
    """What to simulate: ``games`` games of the cartridge ``game`` for ``players`` players,
    ``bots`` cycled over the seats (one seat further each game when ``rotate``)."""

    game: str
    games: int
    players: int
    bots: tuple[str, ...] = ("random",)
    seed: int = 0
    rotate: bool = True
    options: Mapping[str, JSON] = field(default_factory=dict)
    search: Any = None                  # the search bot's budget (bitbox.bots.search.Budget), when it plays

    def check(self) -> Cartridge:
        """The cartridge, with every field checked (GameError/ValueError with one line)."""
        cartridge = find(self.game)
        if self.games < 1:
            raise ValueError(f"the number of games must be 1 or more, not {self.games}")
        check_players(cartridge, player_names(cartridge, self.players))
        check_options(cartridge, self.options)
        if not self.bots:
            raise ValueError("name at least one bot")
        known = seat_names(cartridge)
        for b in self.bots:
            if b not in known:
                raise ValueError(f"unknown bot {b!r} for {cartridge.name} (known: {', '.join(known)})")
        return cartridge

    def seat_bots(self, index: int) -> list[str]:
        shift = index if self.rotate else 0
        return [self.bots[(k + shift) % len(self.bots)] for k in range(self.players)]

    @property
    def namespace(self) -> str:
        """The seeds' namespace: ``bitbox-simulate/GAME``."""
        return f"bitbox-simulate/{self.game}"

    def cartridge_options(self) -> Mapping[str, JSON]:
        return self.options


@dataclass
class Summary:
    run: Run
    games: int = 0
    seconds: float = 0.0
    workers: int = 1
    steps: int = 0
    seat: list[list[float]] = field(default_factory=list)           # per seat: games, wins, wins²
    bot: dict[str, list[float]] = field(default_factory=dict)       # per bot: the same
    log: GameLog | None = None                                      # games.csv, a row per game
    names: Sequence[str] = ()                                       # the players, named by seat

    def rates(self) -> tuple[list[Rate], dict[str, Rate]]:
        """The win rate of each seat (the first is seat 1) and of each bot."""
        return ([Rate(w, int(g)) for g, w, _ in self.seat], {name: Rate(w, int(g)) for name, (g, w, _) in self.bot.items()})

    def add(self, r: Record) -> None:
        wins = r["wins"]
        if not self.seat:
            self.seat = [[0, 0.0, 0.0] for _ in wins]
        if self.log is None:
            self.log = GameLog(csv_columns(len(wins)))
            self.names = player_names(find(self.run.game), len(wins))     # found once, not per game
        row = common_row(r["index"], r["seed"], r["bots"], wins, self.names)
        del row["turns"]                    # a game's turns are its own: any cartridge has prompts
        self.log.add({**row, "prompts": r["prompts"]})
        self.games += 1
        self.steps += r["prompts"]
        for k, (name, w) in enumerate(zip(r["bots"], wins)):
            for t in (self.seat[k], self.bot.setdefault(name, [0, 0.0, 0.0])):
                t[0] += 1
                t[1] += w
                t[2] += w * w

    def report(self, title: str) -> str:
        run = self.run
        out = [f"{title} simulation: {counted(self.games, 'game', 'games')}, {run.players} players, bots {','.join(run.bots)} "
               f"({'rotated over the seats game by game' if run.rotate else 'fixed seats'}), seed {run.seed}"
               + "".join(f", {name} {json.dumps(value)}" for name, value in run.options.items()),
               run_line(self.games, self.seconds, self.workers),
               *([f"search bot: {run.search}"] if "search" in run.bots and run.search is not None else []),
               f"{self.steps / max(self.games, 1):.1f} prompts answered per game on average", SMALL_NOTE,
               "", "Win rate by seat"]
        seats, bots = self.rates()
        names = player_names(find(run.game), len(seats))          # the players are named by seat colour
        rows: Sequence[Sequence[object]] = [
            [k + 1, names[k], r.n, num(r.successes), rate(r), ci(r)] for k, r in enumerate(seats)]
        out.append(table(["seat", "colour", "games", "wins", "win %", CI_HEADER], rows, right=range(2, 6)))
        out += ["", "Win rate by bot"]
        rows = [[name, r.n, num(r.successes), rate(r), ci(r)] for name, r in bots.items()]
        out.append(table(["bot", "seats", "wins", "win %", CI_HEADER], rows, right=range(1, 5)))
        return "\n".join(out)

    def to_data(self) -> dict[str, Any]:
        """The run and its figures as plain data (``results.json``): every rate with its 95 %
        Wilson interval, its number of games and its small-sample flag; seats counted from 1.
        Nothing about how it ran (the time, the workers: ``timing.json``), so the same run
        gives the same data on 1 worker, on N workers and on Ray."""
        run = self.run
        seats, bots = self.rates()
        names = player_names(find(run.game), len(seats))
        return {"game": run.game, "games": self.games, "players": run.players, "bots": list(run.bots),
                "rotate": run.rotate, "seed": run.seed, "options": dict(run.options),
                **({"search": run.search.to_data()} if "search" in run.bots and run.search is not None else {}),
                "prompts_per_game": self.steps / max(self.games, 1),
                "seats": [{"seat": k + 1, "colour": names[k], **r.data("win_rate")} for k, r in enumerate(seats)],
                "bots_rates": [{"bot": name, **r.data("win_rate")} for name, r in bots.items()]}

    def write(self, out: Path) -> list[Path]:
        """``results.json``, ``timing.json`` (seconds and workers), ``games.csv`` and
        ``win_rate.png`` (by seat and by bot, with their intervals) into ``out``; return their
        paths."""
        from .charts import FAIR_STYLE, pyplot, rate_bars, small_sample_note
        data = out / "results.json"
        data.write_text(json.dumps(self.to_data(), indent=1) + "\n", encoding="utf-8")
        timing = out / "timing.json"                 # how the run went, apart: results.json is the same
        timing.write_text(json.dumps({"seconds": self.seconds, "workers": self.workers}, indent=1) + "\n",
                          encoding="utf-8")
        files = [data, timing]
        if self.log is not None:
            files.append(self.log.write(out))
        seats, bots = self.rates()
        names = player_names(find(self.run.game), len(seats))
        plt = pyplot()
        fig, (by_seat, by_bot) = plt.subplots(1, 2, figsize=(10, 4.2))
        rate_bars(by_seat, range(len(seats)), seats, "#4a7ab5")
        by_seat.set_xticks(range(len(seats)), [f"{k + 1}\n{names[k]}" for k in range(len(seats))])
        by_seat.set_title("win rate by seat")
        by_seat.set_ylabel("%")
        rate_bars(by_bot, range(len(bots)), list(bots.values()), "#b5784a")
        by_bot.set_xticks(range(len(bots)), list(bots))
        by_bot.set_title("win rate by bot")
        for ax in (by_seat, by_bot):
            ax.axhline(100 / max(len(seats), 1), **FAIR_STYLE)    # 1 / players: every seat even
        small_sample_note(fig)
        fig.tight_layout(rect=(0, 0.04, 1, 1))
        chart = out / "win_rate.png"
        fig.savefig(chart, dpi=100)
        plt.close(fig)
        return files + [chart]


def csv_columns(players: int) -> list[Column]:
    """``games.csv`` of ``bitbox simulate``: the common columns, the game's length counted in
    prompts answered (a game of any cartridge has those; turns are the game's own)."""
    return [c for c in common_columns(players) if c.name != "turns"] + [
        Column("prompts", "the prompts the bots answered in the game (every decision, all seats)")]


def records(run: Run, workers: int = 1, progress: Progress | None = None, ray: str | None = None,
            on_start: Callable[[int], None] | None = None, playout: bool = True) -> Iterator[Record]:
    """Every game's record, in game-index order, on ``workers`` processes, or on Ray's pool
    when ``ray`` is not None (an address, or "" for a Ray instance on this machine;
    :mod:`bitbox.simulation.cluster`): the same records either way. ``playout``: False plays
    every game through the protocol, never the cartridge's ``playout`` (the same records)."""
    run.check()
    return runner.records(run, workers, progress, ray, on_start, with_statistics=False, playout=playout)


def simulate(run: Run, workers: int = 1, progress: Progress | None = None, ray: str | None = None,
             playout: bool = True) -> Summary:
    start = time.perf_counter()
    summary = Summary(run, workers=workers)

    def started(n: int) -> None:
        summary.workers = n

    try:
        for r in records(run, workers, progress, ray, started, playout):
            summary.add(r)
    finally:
        if progress is not None:
            progress.close()
    summary.seconds = time.perf_counter() - start
    return summary


__all__ = ["GameError", "Record", "Run", "Summary", "csv_columns", "records", "simulate"]
