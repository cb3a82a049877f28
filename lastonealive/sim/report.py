"""The terminal report of a Last One Alive simulation (the tables are bitbox.simulation.report's)."""
from __future__ import annotations

from typing import Any

from bitbox.i18n import counted
from bitbox.simulation.rates import rate_of
from bitbox.simulation.report import CI_HEADER, NONE, SMALL_NOTE, ci, num, pct, rate, run_line, table

from .runner import COLOURS, SimConfig
from .stats import Stats


def _pp(x: float | None) -> str:
    return NONE if x is None else f"{100 * x:+.1f} pp"


def _rate(row: dict[str, Any], key: str, digits: int = 1) -> str:
    return rate(rate_of(row, key), digits)


def _ci(row: dict[str, Any], key: str) -> str:
    return ci(rate_of(row, key))


def describe(config: SimConfig) -> str:
    seating = "rotated over the seats game by game" if config.rotate else "fixed seats"
    variants = ", ".join(config.variants) or "base game"
    zombie = "" if config.first_zombie == "each" else ", starting zombie for the first player only"
    return (f"{config.players} players, bots {','.join(config.bots)} ({seating}), {variants}{zombie}, "
            f"seed {config.seed}")


def render(stats: Stats, config: SimConfig, *, seconds: float, workers: int) -> str:
    out: list[str] = [f"Last One Alive simulation: {counted(stats.games, 'game', 'games')}, {describe(config)}",
                      run_line(stats.games, seconds, workers), SMALL_NOTE]
    survivors = "survivors" in config.variants

    out.append("\nWin rate by seat")
    out.append(table(["seat", "colour", "games", "wins", "win %", CI_HEADER, "turns survived", "out"],
                     [[r["seat"], COLOURS[r["seat"] - 1], r["games"], num(r["wins"]), _rate(r, "win_rate"),
                       _ci(r, "win_rate"), num(r["turns_survived"]), _rate(r, "out", 0)]
                      for r in stats.by_seat()], right=range(2, 8)))

    out.append("\nWin rate by bot")
    headers = ["bot", "seats", "wins", "win %", CI_HEADER, "turns survived", "out", "turn survival",
               "heroes earned", "drawn up/down"]
    if survivors:
        headers.insert(7, "lives lost")
    rows = []
    for r in stats.by_bot():
        row = [r["bot"], r["games"], num(r["wins"]), _rate(r, "win_rate"), _ci(r, "win_rate"),
               num(r["turns_survived"]), _rate(r, "out", 0), _rate(r, "turn_survival"), num(r["heroes_earned"], 2),
               f"{r['drawn_face_up']:.2f}/{r['drawn_face_down']:.2f}"]
        if survivors:
            row.insert(7, num(r["lives_lost"], 2))
        rows.append(row)
    out.append(table(headers, rows, right=range(1, len(headers))))

    length = stats.length()
    ends = "; ".join(f"{n} by {why}" for why, n in length["ends"].items())
    out.append(f"\nGame length: {length['mean']:.1f} turns on average (turns of players still in the game); "
               f"ended {ends}")
    hist = length["histogram"]
    buckets: dict[str, int] = {}
    width = 5 if max(hist, default=0) <= 60 else 10
    for t, n in hist.items():
        lo = (t - 1) // width * width + 1
        key = f"{lo}-{lo + width - 1}"
        buckets[key] = buckets.get(key, 0) + n
    top = max(buckets.values(), default=1)
    out.append(table(["turns", "games", "share", ""],
                     [[k, n, pct(n / stats.games), "#" * max(1, round(30 * n / top))] for k, n in buckets.items()],
                     right=(0, 1, 2)))

    out.append("\nApocalypse level over time (mean level at the start of the turn, over the games still going)")
    levels = stats.levels()
    marks = [r for r in levels if r["turn"] in (1, 2, 3, 5) or r["turn"] % 10 == 0]
    out.append(table(["turn", "games going", "mean level"],
                     [[r["turn"], r["games"], num(r["mean_level"], 2)] for r in marks], right=(0, 1, 2)))
    out.append("level when the game ended: " + ", ".join(
        f"{lv}: {pct(n / stats.games, 0)}" for lv, n in stats.final_levels().items()))

    out.append("\nTokens: how they are used and how they pay off (turn survival when used, next to the bot's "
               "turn survival over all its turns; win % of the seats that used it, and its difference from "
               "the bot's win %; the medkit rolls itself: 'survived' is its saves)")
    out.append(table(["bot", "token", "uses", "per game", "how", "survived", CI_HEADER, "all turns", "win % users",
                      CI_HEADER, "contribution"],
                     [[r["bot"], r["token"], r["uses"], num(r["per_game"], 2),
                       " ".join(f"{m} {n}" for m, n in r["modes"].items()), _rate(r, "survived"), _ci(r, "survived"),
                       pct(r["turn_survival"]), _rate(r, "win_rate_users"), _ci(r, "win_rate_users"),
                       _pp(r["contribution"])]
                      for r in stats.token_rows()], right=(2, 3, 5, 6, 7, 8, 9, 10)))
    return "\n".join(out)


__all__ = ["describe", "render"]
