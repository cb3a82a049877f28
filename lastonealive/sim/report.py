"""The tables of a Last One Alive simulation's report, after the console's heading
(:class:`bitbox.simulation.runner.Result`; the layout is :mod:`bitbox.simulation.report`'s)."""
from __future__ import annotations

from typing import Any

from bitbox.simulation.report import CI_HEADER, Cell, ci_cell, num, pct, points, rate_cell, table, win_rate_tables

from .runner import COLOURS
from .stats import Stats


def tables(stats: Stats, config: Any) -> str:
    survivors = "survivors" in config.variants
    seat_cells = (Cell("turns survived", lambda r: num(r["turns_survived"])), Cell("out", lambda r: rate_cell(r, "out", 0)))
    bot_cells = [*seat_cells, Cell("turn survival", lambda r: rate_cell(r, "turn_survival")),
                 Cell("heroes earned", lambda r: num(r["heroes_earned"], 2)),
                 Cell("drawn up/down", lambda r: f"{r['drawn_face_up']:.2f}/{r['drawn_face_down']:.2f}")]
    if survivors:
        bot_cells.insert(2, Cell("lives lost", lambda r: num(r["lives_lost"], 2)))
    out = win_rate_tables(stats.by_seat(), stats.by_bot(), COLOURS, seat_cells, bot_cells)

    length = stats.length()
    ends = "; ".join(f"{n} by {why}" for why, n in length["ends"].items())
    out.append(f"\nGame length: {length['mean']:.1f} turns on average (turns of players still in the game); "
               f"ended {ends}")
    hist = length["histogram"]
    buckets: dict[str, int] = {}
    width = 5 if max(hist, default=0) <= 60 else 10
    for t, n in hist.items():
        lo = (t - 1) // width * width + 1
        key = f"{lo}-{lo + width - 1}" if t > 0 else "0 (ended in the setup draws)"
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
                       " ".join(f"{m} {n}" for m, n in r["modes"].items()), rate_cell(r, "survived"), ci_cell(r, "survived"),
                       pct(r["turn_survival"]), rate_cell(r, "win_rate_users"), ci_cell(r, "win_rate_users"),
                       points(r["contribution"])]
                      for r in stats.token_rows()], right=(2, 3, 5, 6, 7, 8, 9, 10)))
    return "\n".join(out)


__all__ = ["tables"]
