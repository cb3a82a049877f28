"""PNG charts of a Last One Alive simulation (matplotlib, headless "Agg" backend).

Every rate is a bar on an axis from 0 (0–100 %) with its 95 % Wilson interval; small samples
are hatched and marked ``n=…``; a rate with nothing to count (a token a bot never used) is no
bar, marked ``—`` (the console's :mod:`bitbox.simulation.charts`). Turn axes have whole-turn
ticks; count and level axes start at 0.
"""
from __future__ import annotations

from typing import Any

from bitbox.simulation import charts
from bitbox.simulation.charts import pyplot, rate_bars, small_sample_note, whole_turns
from bitbox.simulation.rates import SMALL_SAMPLE, Rate, rate_of

from .runner import COLOURS
from .stats import TOKENS, Stats


def figures(stats: Stats, config: Any) -> dict[str, Any]:
    """The charts as matplotlib figures, by file name (the console's runner saves them)."""
    plt = pyplot()
    title = f"Last One Alive: {stats.games} games, {config.describe()}"
    figs: dict[str, Any] = {}

    # Win rate by seat and by bot, with 95 % intervals and the fair share.
    seats, bots = stats.by_seat(), stats.by_bot()
    figs["win_rate.png"] = charts.win_rate_figure(seats, bots, COLOURS, config.players)

    # Turns survived and turn survival by bot; game length.
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))
    labels = [r["bot"] for r in bots]
    xs = range(len(bots))
    axes[0].bar(list(xs), [r["turns_survived"] for r in bots], 0.8, color="#55a868")
    axes[0].set_xticks(xs, labels)
    axes[0].set_ylim(bottom=0)
    axes[0].set_title("Turns survived per game")
    charts.bot_rates(axes[1], bots, "turn_survival", "Turns not ending overrun (%)")
    hist = stats.length()["histogram"]
    axes[2].bar(list(hist), list(hist.values()), color="#4c72b0")
    axes[2].set_title(f"Game length (mean {stats.length()['mean']:.1f} turns)")
    axes[2].set_xlabel("turns")
    axes[2].set_ylabel("games")
    whole_turns(axes[2].xaxis)
    charts.counts_from_zero(axes[2])
    figs["turns.png"] = fig

    # The apocalypse level over time.
    levels = stats.levels()
    fig, ax = plt.subplots(figsize=(8, 4))
    turns = [r["turn"] for r in levels]
    means = [r["mean_level"] for r in levels]
    # turns where fewer than SMALL_SAMPLE games are still going: a pale dashed line (a small sample)
    ax.plot(turns, means, color="#c44e52", alpha=0.45, linestyle="--",
            label=f"mean level, fewer than {SMALL_SAMPLE} games going")
    ax.plot(turns, [m if r["games"] >= SMALL_SAMPLE else float("nan") for m, r in zip(means, levels)],
            color="#c44e52", label="mean level")
    ax.set_xlabel("game turn")
    ax.set_ylabel("apocalypse level")
    ax.set_ylim(0, max([r["mean_level"] for r in levels], default=1) + 0.5)
    whole_turns(ax.xaxis)
    twin = ax.twinx()
    twin.fill_between(turns, [100 * r["games"] / max(stats.games, 1) for r in levels], color="#cccccc", alpha=0.5,
                      step="mid", label="games still going (%)")
    twin.set_ylabel("games still going (%)")
    twin.set_ylim(0, 100)
    ax.set_zorder(twin.get_zorder() + 1)
    ax.patch.set_visible(False)
    ax.set_title("Apocalypse level at the start of each turn")
    ax.legend(loc="upper left", fontsize=8)
    figs["level.png"] = fig

    # Tokens: uses per game by bot, and turn survival when used next to all turns.
    rows = stats.token_rows()
    names = list(stats.bot)
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.8))
    width = 0.8 / max(len(names), 1)
    for i, name in enumerate(names):
        per = {r["token"]: r for r in rows if r["bot"] == name}
        xs_bot = [j - 0.4 + width * (i + 0.5) for j in range(len(TOKENS))]
        a.bar(xs_bot, [per[t]["per_game"] if t in per else 0 for t in TOKENS], width, label=name, color=f"C{i}")
        # a token the bot never used has no survival rate: no bar, marked "—" (not 0 %)
        rate_bars(b, xs_bot, [rate_of(per[t], "survived") if t in per else Rate(0, 0) for t in TOKENS],
                  f"C{i}", width, label=name)
        base = stats.bot[name].row()["turn_survival"]
        if base is not None:
            b.axhline(100 * base, linestyle="--", linewidth=1, color=f"C{i}")
    for ax in (a, b):
        ax.set_xticks(range(len(TOKENS)), TOKENS, rotation=30)
        ax.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=f"C{i}") for i in range(len(names))], labels=names)
    a.set_ylim(bottom=0)
    a.set_title("Tokens used per game (medkit: rolls)")
    b.set_title("Turns survived when used (%; dashed: all turns; medkit: saves)")
    figs["tokens.png"] = fig
    for fig in figs.values():
        fig.suptitle(title, fontsize=9)
        small_sample_note(fig)
    return figs


__all__ = ["figures"]
