"""The terminal report of an Outspeed simulation (the tables are bitbox.sim.report's)."""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from bitbox.i18n import counted
from bitbox.simulation.rates import rate_of
from bitbox.simulation.report import CI_HEADER, NONE, SMALL_NOTE, ci, num, pct, rate, run_line, table

from .runner import COLOURS, SimConfig
from ..rules.tiles import PATH_NAMES
from .stats import CAUSES, Stats


_pct, _num = pct, num


def _signed_pp(x: float | None) -> str:
    return NONE if x is None else f"{100 * x:+.1f} pp"


def _rate(row: Mapping[str, Any], key: str, digits: int = 1) -> str:
    return rate(rate_of(dict(row), key), digits)


def _ci(row: Mapping[str, Any], key: str) -> str:
    return ci(rate_of(dict(row), key))


def _elims(e: Mapping[str, int]) -> str:
    return "/".join(str(e[c]) for c in CAUSES)


def render(stats: Stats, config: SimConfig, *, seconds: float, workers: int,
           lit: Mapping[tuple[int, str], Iterable[str]] | None = None) -> str:
    out: list[str] = []
    seating = "rotated over the seats game by game" if config.rotate else "fixed seats"
    out.append(f"Outspeed simulation: {counted(stats.games, 'game', 'games')}, {config.players} players, bots "
               f"{','.join(config.bots)} ({seating}), seed {config.seed}"
               + (", first game (tiles 1-13 in order)" if config.first_game else ""))
    out.append(run_line(stats.games, seconds, workers))
    out.append(SMALL_NOTE)

    out.append("\nWin rate by seat")
    out.append(table(["seat", "colour", "games", "wins", "win %", CI_HEADER, "survived", "avg zone", "avg place"],
                     [[r["seat"], COLOURS[r["seat"] - 1], r["games"], _num(r["wins"]), _rate(r, "win_rate"),
                       _ci(r, "win_rate"), _rate(r, "survived", 0), _num(r["avg_zone"]), _num(r["avg_place"], 2)]
                      for r in stats.by_seat()], right=range(2, 9)))

    out.append("\nWin rate by bot")
    out.append(table(["bot", "seats", "wins", "win %", CI_HEADER, "survived", "avg zone", "avg place",
                      "out: " + "/".join(CAUSES)],
                     [[r["bot"], r["games"], _num(r["wins"]), _rate(r, "win_rate"), _ci(r, "win_rate"),
                       _rate(r, "survived", 0), _num(r["avg_zone"]), _num(r["avg_place"], 2), _elims(r["eliminated"])]
                      for r in stats.by_bot()], right=range(1, 8)))

    out.append("\nEliminations by cause")
    out.append(table(["cause", "count", "per game", "% of ships", CI_HEADER, "avg turn"],
                     [[r["cause"], r["count"], _num(r["per_game"], 2), _rate(r, "share_of_ships"),
                       _ci(r, "share_of_ships"), _num(r["avg_turn"])]
                      for r in stats.eliminations()], right=range(1, 6)))

    length = stats.length()
    out.append(f"\nGame length: {length['mean']:.2f} turns on average; "
               f"{length['ends']['finish']} to the finish tile, {length['ends']['last ship']} won by the last "
               f"ship racing, {length['ends']['nobody']} with every ship out")
    top = max(length["histogram"].values(), default=1)
    out.append(table(["turns", "games", "share", ""],
                     [[t, n, _pct(n / stats.games), "#" * max(1, round(30 * n / top))]
                      for t, n in length["histogram"].items()], right=(0, 1, 2)))

    out.append("\nPaths by tile face (pick % = share of the programs on that face; "
               "contribution = win % of pickers minus that of everyone on that face; "
               f"{NONE}: a lit path nobody took)")
    out.append(table(["tile", "face", "path", "picks", "pick %", CI_HEADER, "win % of pickers", CI_HEADER,
                      "contribution"],
                     [[r["tile"], r["face"], PATH_NAMES.get(r["path"], r["path"]), r["picks"], _rate(r, "pick_rate"), _ci(r, "pick_rate"),
                       _rate(r, "win_rate"), _ci(r, "win_rate"), _signed_pp(r["contribution"])]
                      for r in stats.path_rows(lit)], right=(0, 3, 4, 5, 6, 7, 8)))
    return "\n".join(out)
