"""PNG charts of a simulation (matplotlib, headless "Agg" backend).

Every rate is a bar on an axis from 0 (0–100 % for win and survival rates) with its 95 %
Wilson interval; small samples are hatched and marked ``n=…``; a rate with nothing to count
is no bar, marked ``—`` (the console's :mod:`bitbox.simulation.charts`). Turn axes have
whole-turn ticks; count and zone axes start at 0.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from bitbox.simulation.charts import (
    bot_rates,
    counts_from_zero,
    pyplot,
    rate_bars,
    small_sample_note,
    whole_turns,
    win_rate_figure,
)
from bitbox.simulation.rates import Rate, rate_of

from ..rules.tiles import PATH_NAMES
from .runner import COLOURS
from .stats import CAUSES, PATHS

if TYPE_CHECKING:
    from .stats import Stats

CAUSE_COLOURS = {"fuel": "#d62728", "overpaid": "#ff7f0e", "board": "#7f7f7f", "pushed": "#9467bd"}
PATH_COLOURS = {"left": "#4c72b0", "center": "#55a868", "right": "#c44e52"}
UNLIT = "×"


def _top(rates: Iterable[Rate]) -> float:
    """The top of a 0-based % axis for small rates: above every interval, a multiple of 10."""
    highs = [100 * r.ci95[1] for r in rates if r.ci95 is not None]
    return min(100.0, max(10.0, 10 * math.ceil(max(highs, default=0.0) * 1.1 / 10)))


def figures(stats: Stats, config: Any,
            lit: Mapping[tuple[int, str], Iterable[str]] | None = None) -> dict[str, Any]:
    """The charts as matplotlib figures, by file name (the console's runner saves them)."""
    plt = pyplot()
    title = f"{stats.games} games, {config.players} players, bots {','.join(config.bots)}"
    figs: dict[str, Any] = {}

    # Win rate by seat and by bot, with 95 % intervals and the fair share.
    seats, bots = stats.by_seat(), stats.by_bot()
    fig = win_rate_figure(seats, bots, COLOURS, config.players)
    fig.suptitle(title)
    small_sample_note(fig)
    figs["win_rate.png"] = fig

    # Finishing: average zone of the ships still racing, survival, average place.
    fig, axes = plt.subplots(1, 3, figsize=(12, 4.2))
    labels = [r["bot"] for r in bots]
    xs = range(len(bots))
    for x, r in zip(xs, bots):
        if r["avg_zone"] is None:           # every ship of that bot went out: no zone to average
            axes[0].text(x, 0.5, "—\nnone racing", ha="center", va="bottom", fontsize=7)
        else:
            axes[0].bar([x], [r["avg_zone"]], 0.8, color="#55a868")
    axes[0].set_xticks(xs, labels)
    axes[0].set_ylim(bottom=0)
    axes[0].set_title("Average finishing zone\n(ships racing at the end)")
    bot_rates(axes[1], bots, "survived", "Ships still racing at the end (%)")
    axes[2].bar(list(xs), [r["avg_place"] for r in bots], 0.8, color="#c44e52")
    axes[2].set_xticks(xs, labels)
    axes[2].set_ylim(0, config.players)
    axes[2].set_title("Average place\n(1 = winner, lower is better)")
    fig.suptitle(title)
    small_sample_note(fig)
    figs["finishing.png"] = fig

    # Eliminations by cause: per bot (% of its ships, grouped by cause) and by turn.
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.4))
    width = 0.8 / len(CAUSES)
    cause_rates = {c: [Rate(r["eliminated"][c], r["games"]) for r in bots] for c in CAUSES}
    top = _top(x for rs in cause_rates.values() for x in rs)
    for i, c in enumerate(CAUSES):
        rate_bars(a, [x - 0.4 + width * (i + 0.5) for x in xs], cause_rates[c], CAUSE_COLOURS[c], width,
                  label=c, top=top)
    a.set_xticks(xs, labels)
    a.set_title("Eliminated ships by cause (% of the bot's ships)")
    a.set_ylabel("% of ships")
    a.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=CAUSE_COLOURS[c]) for c in CAUSES], labels=list(CAUSES))
    by_turn = stats.length()["eliminations_by_turn"]
    b.bar(list(by_turn), list(by_turn.values()), color="#7f7f7f")
    b.set_title("Eliminations by turn")
    b.set_xlabel("turn")
    b.set_ylabel("ships eliminated")
    whole_turns(b.xaxis)
    counts_from_zero(b)
    fig.suptitle(title)
    small_sample_note(fig)
    figs["eliminations.png"] = fig

    # Paths: pick rate and win rate of the pickers, per tile face and path.
    rows = stats.path_rows(lit)
    faces = sorted({(r["tile"], r["face"]) for r in rows})
    if faces:
        by = {(r["tile"], r["face"], r["path"]): r for r in rows}
        fig, (a, b) = plt.subplots(2, 1, figsize=(max(8.0, 0.75 * len(faces) + 2), 8))
        path_width = 0.8 / len(PATHS)
        for j, path in enumerate(PATHS):
            xs_path = [i - 0.4 + path_width * (j + 0.5) for i in range(len(faces))]
            for ax, key in ((a, "pick_rate"), (b, "win_rate")):
                shown = [(px, by[(t, f, path)]) for px, (t, f) in zip(xs_path, faces) if (t, f, path) in by]
                rate_bars(ax, [px for px, _ in shown], [rate_of(r, key) for _, r in shown], PATH_COLOURS[path],
                          path_width, label=path)
                for px, (t, f) in zip(xs_path, faces):
                    if (t, f, path) not in by:          # not lit on that face: no rate at all
                        ax.text(px, 1, UNLIT, ha="center", va="bottom", fontsize=8, color="#777777")
        for i, (t, f) in enumerate(faces):         # the win % of everyone who played that face
            base = next(r["face_win_rate"] for r in rows if (r["tile"], r["face"]) == (t, f))
            b.hlines(100 * base, i - 0.45, i + 0.45, colors="black", linewidth=1.2)
        face_labels = [f"{t}\n{f}" for t, f in faces]
        for ax in (a, b):
            ax.set_xticks(range(len(faces)), face_labels, fontsize=8)
            ax.set_xlim(-0.6, len(faces) - 0.4)
        a.set_title(f"Pick rate of each lit path, by tile face (% of the programs on that face; "
                    f"{UNLIT}: path not lit)")
        a.set_ylabel("pick %")
        a.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=PATH_COLOURS[p]) for p in PATHS], labels=[PATH_NAMES[p] for p in PATHS],
                 ncols=3, fontsize=8)
        b.set_title("Win rate of the players who took the path (black line: everyone on that face; "
                    "— n=0: nobody took it)")
        b.set_ylabel("win % of pickers")
        b.set_xlabel("tile / face")
        fig.suptitle(title)
        small_sample_note(fig)
        figs["paths.png"] = fig

    # Game length.
    length = stats.length()
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.bar(list(length["histogram"]), list(length["histogram"].values()), color="#4c72b0")
    ax.set_xlabel("turn the game ended on")
    ax.set_ylabel("games")
    whole_turns(ax.xaxis)
    counts_from_zero(ax)
    ax.set_title(f"Game length (mean {length['mean']:.2f} turns)")
    fig.suptitle(title, fontsize=9)
    figs["game_length.png"] = fig
    return figs

