"""The pieces of a simulation report: tables (laid out by ``rich``), percentages, rates with
their intervals, the run line.

The report is plain text (no colour, no terminal codes), the same on a terminal, in a pipe or
in a file: ``simulate ... > report.txt`` keeps exactly what the terminal showed.
"""
from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .rates import SMALL_SAMPLE, Rate, rate_of

# Columns two spaces apart, a line of dashes under the headers, nothing else (ASCII only).
_BOX_LINES = ("    ", "    ", "--  ", "    ", "    ", "    ", "    ", "    ")


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], right: Iterable[int] = ()) -> str:
    """A plain-text table; columns listed in ``right`` are right-aligned."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text
    right = set(right)
    t = Table(box=box.Box("\n".join(_BOX_LINES) + "\n", ascii=True), show_edge=False, pad_edge=False,
              padding=(0, 1, 0, 0), show_header=True)
    for i, h in enumerate(headers):
        t.add_column(Text(h), justify="right" if i in right else "left", no_wrap=True)
    for r in rows:
        t.add_row(*(Text(str(c)) for c in r))          # Text: a "[" in a cell is not markup
    console = Console(file=io.StringIO(), width=10_000, color_system=None, emoji=False, markup=False,
                      highlight=False, legacy_windows=False)
    console.print(t)
    text = console.file.getvalue()                       # type: ignore[attr-defined]
    return "\n".join(line.rstrip() for line in text.splitlines())


def pct(x: float | None, digits: int = 1) -> str:
    """``x`` as a percentage (``-`` for None)."""
    return "-" if x is None else f"{100 * x:.{digits}f}%"


def num(x: float | None, digits: int = 1) -> str:
    """``x`` with ``digits`` decimals (``-`` for None)."""
    return "-" if x is None else f"{x:.{digits}f}"


NONE = "—"
"""What a rate with nothing to count (a path never taken, ``n == 0``) shows: not 0 %."""


def rate(r: Rate, digits: int = 1) -> str:
    """A rate as a table cell: ``21.0%``; a small sample ``8.3% (n=12)``; no sample ``—``."""
    value = r.value
    if value is None:
        return NONE
    text = f"{100 * value:.{digits}f}%"
    return f"{text} (n={r.n})" if r.small else text


def ci(r: Rate, digits: int = 1) -> str:
    """A rate's 95 % Wilson interval as a table cell: ``18.6–23.6%`` (``—`` with no sample)."""
    bounds = r.ci95
    if bounds is None:
        return NONE
    return f"{100 * bounds[0]:.{digits}f}–{100 * bounds[1]:.{digits}f}%"


CI_HEADER = "95% CI"
SMALL_NOTE = (f"rates are given with their 95 % Wilson interval; (n=…) marks a rate over fewer than "
              f"{SMALL_SAMPLE} trials, {NONE} one with none")


def run_line(games: int, seconds: float, workers: int) -> str:
    """How long the run took: ``played in 2.0 s (500 games/s) on 2 workers``."""
    rate_ = games / seconds if seconds > 0 else 0.0
    return f"played in {seconds:.1f} s ({rate_:,.0f} games/s) on {workers} worker{'s' if workers != 1 else ''}"


def rate_cell(row: Mapping[str, Any], key: str, digits: int = 1) -> str:
    """:func:`rate` of the rate a row holds under ``key`` (:meth:`Rate.data`)."""
    return rate(rate_of(dict(row), key), digits)


def ci_cell(row: Mapping[str, Any], key: str) -> str:
    """:func:`ci` of the rate a row holds under ``key``."""
    return ci(rate_of(dict(row), key))


def points(x: float | None) -> str:
    """A difference of rates in percentage points: ``+2.5 pp`` (``—`` for None)."""
    return NONE if x is None else f"{100 * x:+.1f} pp"


class Cell(NamedTuple):
    """A column a game adds to the win-rate tables: its header, its cell from a row of
    ``by_seat()``/``by_bot()``, and whether it is right-aligned."""

    header: str
    cell: Callable[[Mapping[str, Any]], object]
    right: bool = True


def win_rate_tables(seats: Sequence[Mapping[str, Any]], bots: Sequence[Mapping[str, Any]], colours: Sequence[str],
                    seat_cells: Sequence[Cell] = (), bot_cells: Sequence[Cell] = ()) -> list[str]:
    """"Win rate by seat" and "Win rate by bot": games, wins, win % and its interval, then the
    game's own columns. A row has ``seat`` (from 1) or ``bot``, ``games``, ``wins`` and the
    ``win_rate`` data (:meth:`Rate.data`)."""
    def tally(r: Mapping[str, Any]) -> list[object]:
        return [r["games"], num(r["wins"]), rate_cell(r, "win_rate"), ci_cell(r, "win_rate")]

    def right(first: int, cells: Sequence[Cell]) -> list[int]:      # the 4 figures, then the game's
        return [*range(first, first + 4), *(first + 4 + i for i, c in enumerate(cells) if c.right)]

    seat_rows = [[r["seat"], colours[r["seat"] - 1], *tally(r), *(c.cell(r) for c in seat_cells)] for r in seats]
    bot_rows = [[r["bot"], *tally(r), *(c.cell(r) for c in bot_cells)] for r in bots]
    return ["\nWin rate by seat",
            table(["seat", "colour", "games", "wins", "win %", CI_HEADER, *(c.header for c in seat_cells)], seat_rows,
                  right=right(2, seat_cells)),
            "\nWin rate by bot",
            table(["bot", "seats", "wins", "win %", CI_HEADER, *(c.header for c in bot_cells)], bot_rows,
                  right=right(1, bot_cells))]


__all__ = ["CI_HEADER", "NONE", "SMALL_NOTE", "Cell", "ci", "ci_cell", "num", "pct", "points", "rate", "rate_cell",
           "run_line", "table", "win_rate_tables"]
