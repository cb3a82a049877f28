"""The terminal report of a simulation: plain-text tables."""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from .runner import COLOURS, SimConfig
from .stats import CAUSES, Stats


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], right: Iterable[int] = ()) -> str:
    """A plain-text table; columns listed in ``right`` are right-aligned."""
    rows = [[str(c) for c in r] for r in rows]
    right = set(right)
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]

    def fmt(cells: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return "\n".join([fmt(headers), fmt(["-" * w for w in widths])] + [fmt(r) for r in rows])


def _pct(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{100 * x:.{digits}f}%"


def _num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _signed_pp(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:+.1f} pp"


def _elims(e: Mapping[str, int]) -> str:
    return "/".join(str(e[c]) for c in CAUSES)


def render(stats: Stats, config: SimConfig, *, seconds: float, workers: int,
           lit: Mapping[tuple[int, str], Iterable[str]] | None = None) -> str:
    out: list[str] = []
    seating = "rotated over the seats game by game" if config.rotate else "fixed seats"
    out.append(f"Outspeed simulation: {stats.games} games, {config.players} players, bots "
               f"{','.join(config.bots)} ({seating}), seed {config.seed}"
               + (", first game (tiles 1-13 in order)" if config.first_game else ""))
    rate = stats.games / seconds if seconds > 0 else 0.0
    out.append(f"played in {seconds:.1f} s ({rate:,.0f} games/s) on {workers} worker{'s' if workers != 1 else ''}")

    out.append("\nWin rate by seat")
    out.append(table(["seat", "colour", "games", "wins", "win %", "±95%", "survived", "avg zone", "avg place"],
                     [[r["seat"], COLOURS[r["seat"] - 1], r["games"], _num(r["wins"]), _pct(r["win_rate"]),
                       _pct(r["win_ci95"]), _pct(r["survived"], 0), _num(r["avg_zone"]), _num(r["avg_place"], 2)]
                      for r in stats.by_seat()], right=range(2, 9)))

    out.append("\nWin rate by bot")
    out.append(table(["bot", "seats", "wins", "win %", "±95%", "survived", "avg zone", "avg place",
                      "out: " + "/".join(CAUSES)],
                     [[r["bot"], r["games"], _num(r["wins"]), _pct(r["win_rate"]), _pct(r["win_ci95"]),
                       _pct(r["survived"], 0), _num(r["avg_zone"]), _num(r["avg_place"], 2), _elims(r["eliminated"])]
                      for r in stats.by_bot()], right=range(1, 8)))

    out.append("\nEliminations by cause")
    out.append(table(["cause", "count", "per game", "% of ships", "avg turn"],
                     [[r["cause"], r["count"], _num(r["per_game"], 2), _pct(r["share_of_ships"]), _num(r["avg_turn"])]
                      for r in stats.eliminations()], right=range(1, 5)))

    length = stats.length()
    out.append(f"\nGame length: {length['mean']:.2f} turns on average; "
               f"{length['ends']['finish']} to the finish tile, {length['ends']['last ship']} won by the last "
               f"ship racing, {length['ends']['nobody']} with every ship out")
    top = max(length["histogram"].values(), default=1)
    out.append(table(["turns", "games", "share", ""],
                     [[t, n, _pct(n / stats.games), "#" * max(1, round(30 * n / top))]
                      for t, n in length["histogram"].items()], right=(0, 1, 2)))

    out.append("\nPaths by tile face (pick % = share of the programs on that face; "
               "contribution = win % of pickers minus that of everyone on that face)")
    out.append(table(["tile", "face", "path", "picks", "pick %", "win % of pickers", "contribution"],
                     [[r["tile"], r["face"], r["path"], r["picks"], _pct(r["pick_rate"]), _pct(r["win_rate"]),
                       _signed_pp(r["contribution"])] for r in stats.path_rows(lit)], right=(0, 3, 4, 5, 6)))
    return "\n".join(out)
