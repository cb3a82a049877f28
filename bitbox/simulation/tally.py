"""What a cartridge's statistics (:class:`bitbox.simulation.runner.Tally`) share: a tally per
seat and per bot of games and wins, game lengths and why games ended.

A game's tally subclasses :class:`SeatTally` (its own per-player figures added to
:meth:`SeatTally.row`) and its statistics :class:`Tallies` (its own per-game figures). Records
are added in game-index order (floating-point sums are then the same for any number of
worker processes); seats are counted from 1 in every row.

* **win rate**: wins / games played in that seat (or by that bot); a shared victory counts
  1/k to each of the k winners; with its 95 % Wilson interval, number of games and
  small-sample flag (:mod:`bitbox.simulation.rates`).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

from .rates import Rate


class SeatTally:
    """Games and wins of one seat or one bot."""

    __slots__ = ("games", "wins")

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0.0

    def add_game(self, win: float) -> None:
        self.games += 1
        self.wins += win

    def row(self) -> dict[str, Any]:
        """``games``, ``wins`` (rounded to 3 decimals) and the win rate's data (``win_rate``…)."""
        return {"games": self.games, "wins": round(self.wins, 3), **Rate(self.wins, self.games).data("win_rate")}


T = TypeVar("T", bound=SeatTally)


class Tallies(Generic[T]):
    """A :class:`SeatTally` per seat and per bot (by first appearance), game lengths and ends."""

    def __init__(self, players: int, tally: Callable[[], T]) -> None:
        self.players = players
        self.games = 0
        self._tally = tally
        self.seat: list[T] = [tally() for _ in range(players)]
        self.bot: dict[str, T] = {}
        self.lengths: Counter[int] = Counter()
        self.ends: Counter[str] = Counter()

    def add(self, rec: Mapping[str, Any]) -> None:
        """A game's record (the game's statistics add their own figures, then call this). Its
        ``turns`` (the game's length) and ``end`` (how it ended) are counted when the record has
        them: a game whose record gives neither has no lengths or ends, never a ``KeyError``."""
        self.games += 1
        if rec.get("turns") is not None:
            self.lengths[rec["turns"]] += 1
        if rec.get("end") is not None:
            self.ends[rec["end"]] += 1

    def tally(self, seat: int, bot: str) -> tuple[T, T]:
        """The tallies of the seat (0-based) and of its bot (made on first use)."""
        t = self.bot.get(bot)
        if t is None:
            t = self.bot[bot] = self._tally()
        return self.seat[seat], t

    def extend(self, records: Iterable[Mapping[str, Any]]) -> Tallies[T]:
        for r in records:
            self.add(r)
        return self

    def by_seat(self) -> list[dict[str, Any]]:
        return [{"seat": k + 1, **t.row()} for k, t in enumerate(self.seat)]

    def by_bot(self) -> list[dict[str, Any]]:
        return [{"bot": name, **t.row()} for name, t in self.bot.items()]

    def length(self) -> dict[str, Any]:
        """The mean game length and its histogram (length → games), over the games whose record
        gave their ``turns``."""
        n = max(sum(self.lengths.values()), 1)
        return {"mean": sum(t * c for t, c in self.lengths.items()) / n,
                "histogram": {t: self.lengths[t] for t in sorted(self.lengths)}}


__all__ = ["SeatTally", "Tallies"]
