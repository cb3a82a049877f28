"""PNG charts of a simulation (matplotlib, headless "Agg" backend)."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Iterable, Mapping

from .runner import COLOURS, SimConfig
from .stats import CAUSES, Stats

CAUSE_COLOURS = {"fuel": "#d62728", "overpaid": "#ff7f0e", "board": "#7f7f7f", "pushed": "#9467bd"}
SEAT_COLOURS = {"red": "#d62728", "blue": "#1f77b4", "green": "#2ca02c", "yellow": "#e5c100",
                "purple": "#9467bd", "orange": "#ff7f0e"}


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def write_charts(stats: Stats, config: SimConfig, out: Path,
                 lit: Mapping[tuple[int, str], Iterable[str]] | None = None) -> list[Path]:
    """Write the charts into ``out``; return their paths."""
    plt = _pyplot()
    out.mkdir(parents=True, exist_ok=True)
    title = f"{stats.games} games, {config.players} players, bots {','.join(config.bots)}"
    files = []

    def save(fig, name: str) -> None:
        path = out / name
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
        files.append(path)

    # Win rate by seat and by bot, with 95 % intervals and the fair share.
    seats, bots = stats.by_seat(), stats.by_bot()
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    names = [f"{r['seat']} {COLOURS[r['seat'] - 1]}" for r in seats]
    a.bar(names, [100 * r["win_rate"] for r in seats], yerr=[100 * r["win_ci95"] for r in seats],
          color=[SEAT_COLOURS[COLOURS[r["seat"] - 1]] for r in seats], capsize=4)
    a.axhline(100 / config.players, color="black", linestyle="--", linewidth=1, label="fair share")
    a.set_title("Win rate by seat")
    a.set_ylabel("win %")
    a.legend()
    b.bar([r["bot"] for r in bots], [100 * r["win_rate"] for r in bots],
          yerr=[100 * r["win_ci95"] for r in bots], color="#4c72b0", capsize=4)
    b.axhline(100 / config.players, color="black", linestyle="--", linewidth=1)
    b.set_title("Win rate by bot")
    fig.suptitle(title)
    save(fig, "win_rate.png")

    # Finishing: average zone of the ships still racing, survival, average place.
    fig, axes = plt.subplots(1, 3, figsize=(12, 4))
    labels = [r["bot"] for r in bots]
    zones = [r["avg_zone"] for r in bots if r["avg_zone"] is not None]
    axes[0].bar(labels, [r["avg_zone"] or 0 for r in bots], color="#55a868")
    axes[0].set_title("Average finishing zone\n(ships racing at the end)")
    if zones:
        axes[0].set_ylim(max(0, min(zones) - 4), max(zones) + 1)
    axes[1].bar(labels, [100 * r["survived"] for r in bots], color="#8172b2")
    axes[1].set_title("Ships still racing at the end (%)")
    axes[1].set_ylim(0, 100)
    axes[2].bar(labels, [r["avg_place"] - 1 for r in bots], bottom=1, color="#c44e52")
    axes[2].set_title("Average place\n(1 = winner, lower is better)")
    axes[2].set_ylim(1, config.players)
    fig.suptitle(title)
    save(fig, "finishing.png")

    # Eliminations by cause: per bot (stacked, % of its ships) and by turn.
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    bottom = [0.0] * len(bots)
    for c in CAUSES:
        vals = [100 * r["eliminated"][c] / max(r["games"], 1) for r in bots]
        a.bar(labels, vals, bottom=bottom, label=c, color=CAUSE_COLOURS[c])
        bottom = [x + y for x, y in zip(bottom, vals)]
    a.set_title("Eliminated ships by cause (% of the bot's ships)")
    a.legend()
    by_turn = stats.length()["eliminations_by_turn"]
    b.bar(list(by_turn), list(by_turn.values()), color="#7f7f7f")
    b.set_title("Eliminations by turn")
    b.set_xlabel("turn")
    fig.suptitle(title)
    save(fig, "eliminations.png")

    # Paths: pick rate and win contribution of each path of each tile face.
    rows = stats.path_rows(lit)
    faces = sorted({(r["tile"], r["face"]) for r in rows})
    if faces:
        index = {f: i for i, f in enumerate(faces)}
        cols = ("left", "center", "right")
        pick = [[float("nan")] * 3 for _ in faces]
        contrib = [[float("nan")] * 3 for _ in faces]
        for r in rows:
            i, j = index[(r["tile"], r["face"])], cols.index(r["path"])
            pick[i][j] = 100 * r["pick_rate"]
            if r["contribution"] is not None:
                contrib[i][j] = 100 * r["contribution"]
        fig, (a, b) = plt.subplots(1, 2, figsize=(10, 0.35 * len(faces) + 1.8))
        ylabels = [f"tile {t} ({f})" for t, f in faces]
        for ax, data, cmap, name, fmt in ((a, pick, "Blues", "pick rate (%)", "{:.0f}%"),
                                          (b, contrib, "RdBu", "win contribution (pp)", "{:+.1f}")):
            if ax is b:
                span = max([abs(v) for row in data for v in row if not math.isnan(v)] + [1.0])
                im = ax.imshow(data, cmap=cmap, aspect="auto", vmin=-span, vmax=span)
            else:
                im = ax.imshow(data, cmap=cmap, aspect="auto", vmin=0, vmax=100)
            ax.set_xticks(range(3), cols)
            ax.set_yticks(range(len(faces)), ylabels)
            ax.set_title(name)
            for i, row in enumerate(data):
                for j, v in enumerate(row):
                    if not math.isnan(v):
                        ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=7)
            fig.colorbar(im, ax=ax, shrink=0.6)
        fig.suptitle(title)
        save(fig, "paths.png")

    # Game length.
    length = stats.length()
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.bar(list(length["histogram"]), list(length["histogram"].values()), color="#4c72b0")
    ax.set_xlabel("turn the game ended on")
    ax.set_ylabel("games")
    ax.set_title(f"Game length (mean {length['mean']:.2f} turns)")
    fig.suptitle(title, fontsize=9)
    save(fig, "game_length.png")
    return files

