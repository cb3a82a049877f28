"""The tutorial game with a statistics hook (docs/games.md "The statistics hook"), registered as
``goofstats`` for tests/tutorial/test_statistics_hook.py: each seat's score and the bids it
made (seen as the bots answer), the tied rounds from the events; a ``games.csv`` column per
seat and one for the ties; a table of mean scores by seat; one chart; and its ``simulation``
member, so that its ``simulate`` command runs with them."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from goofspiel import GoofspielCartridge

from bitbox.games import JSON, Prompt
from bitbox.simulation import runner
from bitbox.simulation.command import Simulation
from bitbox.simulation.gamelog import Column, seat_columns
from bitbox.simulation.report import num, table
from bitbox.simulation.tally import SeatTally, Tallies


@dataclass(frozen=True)
class SimConfig(runner.Config):
    game: ClassVar[str] = "goofstats"
    namespace: ClassVar[str] = "goofstats-simulate"
    games: int
    players: int = 3
    bots: tuple[str, ...] = ("random",)
    seed: int = 0
    cards: int = 6
    rotate: bool = True
    search: Any = None              # the search bot's budget, when it plays (--bots search)

    def check(self) -> None:
        if not 3 <= self.cards <= 8:
            raise ValueError(f"cards must be 3 to 8, not {self.cards}")

    def cartridge_options(self) -> dict[str, JSON]:
        return {"cards": self.cards}


class Watch:
    def __init__(self, game: Any, players: Sequence[str]) -> None:
        self.game, self.players = game, players
        self.bids: list[list[int]] = [[] for _ in players]
        self.ties = 0

    def answered(self, seat: int, prompt: Prompt, action: Any) -> None:
        self.bids[seat].append(int(action))

    def events(self, events: Sequence[Any]) -> None:
        self.ties += sum(e.kind == "tied" for e in events)

    def record(self) -> dict[str, Any]:
        return {"scores": [self.game.scores[p] for p in self.players], "bids": self.bids, "ties": self.ties,
                "turns": self.game.round, "end": "cards out"}


class _Tally(SeatTally):
    __slots__ = ("score",)

    def __init__(self) -> None:
        super().__init__()
        self.score = 0

    def row(self) -> dict[str, Any]:
        return {**super().row(), "mean_score": self.score / max(self.games, 1)}


class Stats(Tallies[_Tally]):
    def __init__(self, players: int) -> None:
        super().__init__(players, _Tally)

    def add(self, rec: Mapping[str, Any]) -> None:
        super().add(rec)
        for k, bot in enumerate(rec["bots"]):
            for t in self.tally(k, bot):
                t.add_game(rec["wins"][k])
                t.score += rec["scores"][k]

    def report(self, config: Any) -> str:
        return "\nMean score by seat\n" + table(["seat", "mean score"], [[r["seat"], num(r["mean_score"], 2)]
                                                                     for r in self.by_seat()], right=(0, 1))

    def to_data(self) -> dict[str, Any]:
        return {"games": self.games, "by_seat": self.by_seat(), "by_bot": self.by_bot(), "length": self.length()}

    def figures(self, config: Any) -> dict[str, Any]:
        from bitbox.simulation.charts import win_rate_figure
        return {"win_rate.png": win_rate_figure(self.by_seat(), self.by_bot(), ("red", "blue", "green", "yellow"),
                                                config.players)}


class Statistics:
    def watch(self, game: Any, players: Sequence[str]) -> Watch:
        return Watch(game, players)

    def columns(self, players: int) -> list[Column]:
        return [*seat_columns(players, [("score", "seat K's score")]), Column("ties", "the rounds tied")]

    def row(self, record: Mapping[str, Any]) -> dict[str, object]:
        return {**{f"seat{k + 1}_score": s for k, s in enumerate(record["scores"])}, "ties": record["ties"]}

    def tally(self, config: Any) -> Stats:
        return Stats(config.players)


def _config(games: int, players: int, bots: tuple[str, ...], seed: int, rotate: bool,
            options: Mapping[str, JSON]) -> SimConfig:
    return SimConfig(games=games, players=players, bots=bots, seed=seed, rotate=rotate,
                     cards=int(options.get("cards", 6)))      # type: ignore[arg-type]


class StatsCartridge(GoofspielCartridge):
    name = "goofstats"
    statistics = Statistics()
    # its `simulate` (bitbox simulate goofstats): this run, with the hook; --cards is the option's flag
    simulation = Simulation(_config, games=200, players=3, description="Goofspiel with its scores and ties.")


CARTRIDGE = StatsCartridge()
