"""PNG charts of a Last One Alive simulation (matplotlib, headless "Agg" backend)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bitbox.colours import LIGHT_RGB

from .report import describe
from .runner import COLOURS, SimConfig
from .stats import TOKENS, Stats


def _pyplot() -> Any:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _hex(name: str) -> str:
    r, g, b = LIGHT_RGB[name]
    return f"#{r:02x}{g:02x}{b:02x}"


def write_charts(stats: Stats, config: SimConfig, out: Path) -> list[Path]:
    """Write the charts into ``out``; return their paths."""
    plt = _pyplot()
    out.mkdir(parents=True, exist_ok=True)
    title = f"Last One Alive: {stats.games} games, {describe(config)}"
    files: list[Path] = []

    def save(fig: Any, name: str) -> None:
        path = out / name
        fig.suptitle(title, fontsize=9)
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
        files.append(path)

    # Win rate by seat and by bot, with 95 % intervals and the fair share.
    seats, bots = stats.by_seat(), stats.by_bot()
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    a.bar([f"{r['seat']} {COLOURS[r['seat'] - 1]}" for r in seats], [100 * r["win_rate"] for r in seats],
          yerr=[100 * r["win_ci95"] for r in seats], color=[_hex(COLOURS[r["seat"] - 1]) for r in seats], capsize=4)
    a.axhline(100 / config.players, color="black", linestyle="--", linewidth=1, label="fair share")
    a.set_title("Win rate by seat")
    a.set_ylabel("win %")
    a.legend()
    b.bar([r["bot"] for r in bots], [100 * r["win_rate"] for r in bots],
          yerr=[100 * r["win_ci95"] for r in bots], color="#4c72b0", capsize=4)
    b.axhline(100 / config.players, color="black", linestyle="--", linewidth=1)
    b.set_title("Win rate by bot")
    save(fig, "win_rate.png")

    # Turns survived and turn survival by bot; game length.
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    labels = [r["bot"] for r in bots]
    axes[0].bar(labels, [r["turns_survived"] for r in bots], color="#55a868")
    axes[0].set_title("Turns survived per game")
    axes[1].bar(labels, [100 * (r["turn_survival"] or 0) for r in bots], color="#8172b2")
    axes[1].set_title("Turns not ending overrun (%)")
    axes[1].set_ylim(0, 100)
    hist = stats.length()["histogram"]
    axes[2].bar(list(hist), list(hist.values()), color="#4c72b0")
    axes[2].set_title(f"Game length (mean {stats.length()['mean']:.1f} turns)")
    axes[2].set_xlabel("turns")
    axes[2].set_ylabel("games")
    save(fig, "turns.png")

    # The apocalypse level over time.
    levels = stats.levels()
    fig, ax = plt.subplots(figsize=(8, 4))
    turns = [r["turn"] for r in levels]
    ax.plot(turns, [r["mean_level"] for r in levels], color="#c44e52", label="mean level")
    ax.set_xlabel("game turn")
    ax.set_ylabel("apocalypse level")
    ax.set_ylim(bottom=1)
    twin = ax.twinx()
    twin.fill_between(turns, [100 * r["games"] / max(stats.games, 1) for r in levels], color="#cccccc", alpha=0.5,
                      step="mid", label="games still going (%)")
    twin.set_ylabel("games still going (%)")
    twin.set_ylim(0, 100)
    ax.set_zorder(twin.get_zorder() + 1)
    ax.patch.set_visible(False)
    ax.set_title("Apocalypse level at the start of each turn")
    save(fig, "level.png")

    # Tokens: uses per game by bot, and turn survival when used next to all turns.
    rows = stats.token_rows()
    names = list(stats.bot)
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.5))
    width = 0.8 / max(len(names), 1)
    for i, name in enumerate(names):
        per = {r["token"]: r for r in rows if r["bot"] == name}
        xs = [j + i * width for j in range(len(TOKENS))]
        a.bar(xs, [per[t]["per_game"] if t in per else 0 for t in TOKENS], width, label=name)
        b.bar(xs, [100 * per[t]["survived"] if t in per else 0 for t in TOKENS], width, label=name)
        base = stats.bot[name].row()["turn_survival"]
        if base is not None:
            b.axhline(100 * base, linestyle="--", linewidth=1, color=f"C{i}")
    for ax in (a, b):
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(TOKENS))], TOKENS, rotation=30)
        ax.legend()
    a.set_title("Tokens used per game (medkit: rolls)")
    b.set_title("Turns survived when used (%; dashed: all turns; medkit: saves)")
    b.set_ylim(0, 100)
    save(fig, "tokens.png")
    return files


__all__ = ["write_charts"]
