"""The pieces of a simulation report: plain-text tables, percentages, the run line."""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], right: Iterable[int] = ()) -> str:
    """A plain-text table; columns listed in ``right`` are right-aligned."""
    cells = [[str(c) for c in r] for r in rows]
    right = set(right)
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def fmt(line: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(line, widths))).rstrip()

    return "\n".join([fmt(headers), fmt(["-" * w for w in widths])] + [fmt(r) for r in cells])


def pct(x: float | None, digits: int = 1) -> str:
    """``x`` as a percentage (``-`` for None)."""
    return "-" if x is None else f"{100 * x:.{digits}f}%"


def num(x: float | None, digits: int = 1) -> str:
    """``x`` with ``digits`` decimals (``-`` for None)."""
    return "-" if x is None else f"{x:.{digits}f}"


def run_line(games: int, seconds: float, workers: int) -> str:
    """How long the run took: ``played in 2.0 s (500 games/s) on 2 workers``."""
    rate = games / seconds if seconds > 0 else 0.0
    return f"played in {seconds:.1f} s ({rate:,.0f} games/s) on {workers} worker{'s' if workers != 1 else ''}"


def win_ci95(wins: float, wins_sq: float, games: int) -> float:
    """The half-width of the 95 % confidence interval of a win rate: 1.96 standard errors of
    the per-game win shares (a shared win counts 1/k), normal approximation."""
    g = max(games, 1)
    rate = wins / g
    var = max(wins_sq / g - rate * rate, 0.0)
    return 1.96 * math.sqrt(var / g)


__all__ = ["num", "pct", "run_line", "table", "win_ci95"]
