"""What every simulation chart shares (matplotlib, headless "Agg" backend).

* :func:`rate_bars`: rates as bars on a 0–100 % axis (:func:`percent_axis`), each with its 95 % Wilson interval as
  an error bar; a rate over fewer than ``SMALL_SAMPLE`` trials hatched, pale and marked
  ``n=…``; a rate with nothing to count (a path never taken, a token never used) drawn as no
  bar at all, with ``—`` and ``n=0`` where the bar would be (never a 0 % bar);
* :func:`whole_turns`: whole-number ticks on a turn axis (no "turn 2.5");
* :func:`counts_from_zero`: count axes start at 0, so small gaps are not blown up.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .rates import SMALL_SAMPLE, Rate
from .report import NONE

SMALL_HATCH = "///"
SMALL_ALPHA = 0.45
FAIR_STYLE = {"color": "black", "linestyle": "--", "linewidth": 1}


def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend (no window, no display needed)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def whole_turns(axis: Any) -> None:
    """Integer ticks only on ``axis`` (``ax.xaxis`` or ``ax.yaxis``)."""
    from matplotlib.ticker import MaxNLocator
    axis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))


def counts_from_zero(ax: Any) -> None:
    """The y axis of a count starts at 0 (whole numbers only)."""
    ax.set_ylim(bottom=0)
    whole_turns(ax.yaxis)


def rate_bars(ax: Any, xs: Sequence[float], rates: Sequence[Rate], colours: Sequence[str] | str,
              width: float = 0.8, label: str | None = None, top: float = 100.0) -> list[Any]:
    """Bars of ``rates`` (in %) at ``xs`` with their Wilson intervals; return the bars drawn
    (one per rate with a value; see the module docstring for small and empty samples)."""
    if isinstance(colours, str):
        colours = [colours] * len(rates)
    drawn: list[Any] = []
    for x, r, colour in zip(xs, rates, colours):
        value = r.value
        if value is None:                   # nothing to count: no bar, a mark where it would be
            ax.text(x, top * 0.01, f"{NONE}\nn=0", ha="center", va="bottom", fontsize=7, color="#555555")
            continue
        lo, hi = r.ci95 or (value, value)
        small = r.small
        bar = ax.bar([x], [100 * value], width, color=colour, alpha=SMALL_ALPHA if small else 1.0,
                     hatch=SMALL_HATCH if small else None, edgecolor="#333333" if small else colour,
                     label=label if not drawn else None)[0]
        drawn.append(bar)
        ax.errorbar([x], [100 * value], yerr=[[max(0.0, 100 * (value - lo))], [max(0.0, 100 * (hi - value))]], fmt="none",
                    ecolor="black", elinewidth=1, capsize=3)
        if small:
            ax.text(x, 100 * hi + top * 0.01, f"n={r.n}", ha="center", va="bottom", fontsize=7)
    percent_axis(ax, top)
    return drawn


def percent_axis(ax: Any, top: float = 100.0) -> None:
    """A y axis of rates from 0 to ``top`` % (ticks up to ``top``; a little room above for the
    ``n=…`` marks)."""
    step = 20 if top > 50 else 10 if top > 20 else 5
    ax.set_yticks([step * i for i in range(int(top // step) + 1)])
    ax.set_ylim(0, top * 1.08)


def save_figures(figures: Mapping[str, Any], out: Path) -> list[Path]:
    """Each figure (file name → matplotlib figure) as a PNG in ``out`` (made if need be),
    laid out with room for the foot note, then closed; return the paths."""
    plt = pyplot()
    out.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    for name, fig in figures.items():
        path = out / name
        fig.tight_layout(rect=(0, 0.03, 1, 1))
        fig.savefig(path, dpi=100)
        plt.close(fig)
        files.append(path)
    return files


def small_sample_note(fig: Any) -> None:
    """A line at the foot of a figure saying what the marks mean."""
    fig.text(0.005, 0.005, f"bars: 95 % Wilson intervals; hatched, n=…: fewer than {SMALL_SAMPLE} trials; "
             f"{NONE} n=0: nothing to count", fontsize=7, color="#444444", ha="left", va="bottom")


def seat_colour(name: str) -> str:
    """A seat colour's hex code (its controller's light), for the bars of that seat."""
    from ..colours import LIGHT_RGB
    r, g, b = LIGHT_RGB[name]
    return f"#{r:02x}{g:02x}{b:02x}"


def bot_rates(ax: Any, bots: Sequence[Mapping[str, Any]], key: str, title: str, colour: str = "#8172b2") -> None:
    """A rate of each bot (the rate rows hold under ``key``) on ``ax``, the bots named under
    their bars."""
    from .rates import rate_of
    xs = range(len(bots))
    rate_bars(ax, xs, [rate_of(dict(r), key) for r in bots], colour)
    ax.set_xticks(xs, [r["bot"] for r in bots])
    ax.set_title(title)


def win_rate_figure(seats: Sequence[Mapping[str, Any]], bots: Sequence[Mapping[str, Any]], colours: Sequence[str],
                    players: int) -> Any:
    """Win rate by seat (each in its colour) and by bot, with their intervals and the fair
    share (1 / ``players``); rows as :func:`bitbox.simulation.report.win_rate_tables` takes."""
    from .rates import rate_of
    plt = pyplot()
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.4))
    rate_bars(a, range(len(seats)), [rate_of(dict(r), "win_rate") for r in seats],
              [seat_colour(colours[r["seat"] - 1]) for r in seats])
    a.set_xticks(range(len(seats)), [f"{r['seat']} {colours[r['seat'] - 1]}" for r in seats])
    a.axhline(100 / players, label="fair share", **FAIR_STYLE)
    a.set_title("Win rate by seat")
    a.set_ylabel("win %")
    a.legend()
    rate_bars(b, range(len(bots)), [rate_of(dict(r), "win_rate") for r in bots], "#4c72b0")
    b.set_xticks(range(len(bots)), [r["bot"] for r in bots])
    b.axhline(100 / players, **FAIR_STYLE)
    b.set_title("Win rate by bot")
    b.set_ylabel("win %")
    return fig


__all__ = ["FAIR_STYLE", "SMALL_ALPHA", "SMALL_HATCH", "bot_rates", "counts_from_zero", "percent_axis", "pyplot", "rate_bars",
           "save_figures", "seat_colour", "small_sample_note", "whole_turns", "win_rate_figure"]
