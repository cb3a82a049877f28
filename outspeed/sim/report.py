"""The tables of an Outspeed simulation's report, after the console's heading
(:class:`bitbox.simulation.runner.Result`; the layout is :mod:`bitbox.simulation.report`'s)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bitbox.simulation.report import CI_HEADER, NONE, Cell, ci_cell, num, pct, points, rate_cell, table, win_rate_tables

from ..rules.tiles import PATH_NAMES
from .runner import COLOURS
from .stats import CAUSES

if TYPE_CHECKING:
    from .stats import Stats


FINISHING = (Cell("survived", lambda r: rate_cell(r, "survived", 0)), Cell("avg zone", lambda r: num(r["avg_zone"])),
             Cell("avg place", lambda r: num(r["avg_place"], 2)))
OUT = Cell("out: " + "/".join(CAUSES), lambda r: "/".join(str(r["eliminated"][c]) for c in CAUSES), right=False)


def tables(stats: Stats, config: Any) -> str:
    out = win_rate_tables(stats.by_seat(), stats.by_bot(), COLOURS, FINISHING, (*FINISHING, OUT))

    out.append("\nEliminations by cause")
    out.append(table(["cause", "count", "per game", "% of ships", CI_HEADER, "avg turn"],
                     [[r["cause"], r["count"], num(r["per_game"], 2), rate_cell(r, "share_of_ships"),
                       ci_cell(r, "share_of_ships"), num(r["avg_turn"])]
                      for r in stats.eliminations()], right=range(1, 6)))

    length = stats.length()
    out.append(f"\nGame length: {length['mean']:.2f} turns on average; "
               f"{length['ends']['finish']} to the finish tile, {length['ends']['last ship']} won by the last "
               f"ship racing, {length['ends']['nobody']} with every ship out")
    top = max(length["histogram"].values(), default=1)
    out.append(table(["turns", "games", "share", ""],
                     [[t, n, pct(n / stats.games), "#" * max(1, round(30 * n / top))]
                      for t, n in length["histogram"].items()], right=(0, 1, 2)))

    out.append("\nPaths by tile face (pick % = share of the programs on that face; "
               "contribution = win % of pickers minus that of everyone on that face; "
               f"{NONE}: a lit path nobody took)")
    out.append(table(["tile", "face", "path", "picks", "pick %", CI_HEADER, "win % of pickers", CI_HEADER,
                      "contribution"],
                     [[r["tile"], r["face"], PATH_NAMES.get(r["path"], r["path"]), r["picks"], rate_cell(r, "pick_rate"),
                       ci_cell(r, "pick_rate"), rate_cell(r, "win_rate"), ci_cell(r, "win_rate"), points(r["contribution"])]
                      for r in stats.path_rows()], right=(0, 3, 4, 5, 6, 7, 8)))
    return "\n".join(out)
