"""A record per game, as CSV (``games.csv`` beside ``results.json``): one writer for every
``simulate`` command.

The file has a header row, then one row per game in game-index order (the same file for any
number of workers). The columns every game has come first (:func:`common_columns`); a game
adds its own, and its per-seat ones (:func:`seat_columns`). Seats are counted from 1, as in
the tables: ``seat1_bot`` is the bot in seat 1, whose player has the first colour (red).
Lists in a cell (several winners…) are separated by spaces; an empty cell means "none"
(a ship still racing has no cause of elimination).

Each row is formatted as it is added (the run keeps a line of text per game, not the game's
record), so a long run costs little memory.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

FILENAME = "games.csv"


@dataclass(frozen=True)
class Column:
    """A CSV column: its header and what it holds (docs/simulate.md lists them)."""

    name: str
    meaning: str


def common_columns(players: int) -> list[Column]:
    """The columns every game's CSV starts with."""
    return [Column("game", "the game's index in the run, from 0 (it and the run's configuration replay the game)"),
            Column("seed", "the game's seed, derived from the run seed and the index"),
            Column("players", "players in the game"),
            *seat_columns(players, [("bot", "the bot playing seat K")]),
            Column("winners", "the winning seats, counted from 1, separated by spaces (empty: nobody won)"),
            Column("winner_colours", "the winners' colours, in the same order"),
            Column("turns", "the turns the game lasted")]


def seat_columns(players: int, fields: Sequence[tuple[str, str]]) -> list[Column]:
    """``seat1_FIELD … seatP_FIELD`` for each ``(FIELD, meaning)``, seat by seat."""
    return [Column(f"seat{k}_{name}", meaning.replace("seat K", f"seat {k}"))
            for k in range(1, players + 1) for name, meaning in fields]


def cell(value: object) -> str:
    """A value as a CSV cell: None is empty, a list is space-separated, a float at most 6 decimals."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        return " ".join(cell(v) for v in value)
    return str(value)


class GameLog:
    """The rows of ``games.csv``, one per game, added in game-index order."""

    def __init__(self, columns: Sequence[Column]) -> None:
        names = [c.name for c in columns]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate CSV columns: {names}")
        self.columns = list(columns)
        self._lines: list[str] = []

    def add(self, row: Mapping[str, object]) -> None:
        """One game's row: a value for every column (KeyError naming a missing one)."""
        missing = [c.name for c in self.columns if c.name not in row]
        if missing:
            raise KeyError(f"no value for the CSV column(s) {', '.join(missing)}")
        self._lines.append(self._format([cell(row[c.name]) for c in self.columns]))

    def extend(self, rows: Iterable[Mapping[str, object]]) -> GameLog:
        for r in rows:
            self.add(r)
        return self

    def __len__(self) -> int:
        return len(self._lines)

    @staticmethod
    def _format(cells: Sequence[str]) -> str:
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerow(cells)
        return buf.getvalue()

    def text(self) -> str:
        return self._format([c.name for c in self.columns]) + "".join(self._lines)

    def write(self, folder: Path) -> Path:
        """Write ``games.csv`` into ``folder``; return its path."""
        path = folder / FILENAME
        path.write_text(self.text(), encoding="utf-8", newline="")
        return path


def common_row(index: int, seed: int, bots: Sequence[str], wins: Sequence[float], colours: Sequence[str],
               turns: object = None) -> dict[str, object]:
    """The values of :func:`common_columns` for one game: ``wins`` is each seat's share of the
    win, ``colours`` the seats' colours (the winners' are named); ``turns`` the game's length."""
    winners = seat_numbers(wins)
    return {"game": index, "seed": seed, "players": len(wins),
            **{f"seat{k + 1}_bot": bot for k, bot in enumerate(bots)},
            "winners": winners, "winner_colours": [colours[k - 1] for k in winners], "turns": turns}


def seat_numbers(wins: Sequence[float]) -> list[int]:
    """The winning seats (counted from 1) of a record's per-seat win shares."""
    return [k + 1 for k, w in enumerate(wins) if w > 0]


__all__ = ["FILENAME", "Column", "GameLog", "cell", "common_columns", "common_row", "seat_columns", "seat_numbers"]
