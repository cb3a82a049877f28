"""Aggregate game records into the figures ``outspeed simulate`` reports.

Records are added in game-index order (floating-point sums are then the same for any number
of worker processes). Definitions:

* **win rate**: wins / games played in that seat (or by that bot); a shared victory counts
  1/k to each of the k winners. Every rate comes with its 95 % Wilson interval (``*_ci95``),
  its number of trials (``*_n``) and the small-sample flag (:mod:`bitbox.simulation.rates`).
* **finishing zone**: the absolute zone (the start is zone 3) of a ship still racing at the
  end, averaged over those ships; **survived** is the share of ships still racing.
* **place**: 1 = winner; ships still racing are ranked by zone, fuel, tokens (equal ranks
  share a place), then the eliminated ones, the last eliminated first.
* **eliminations by cause**: fuel (reached 0), overpaid (could not pay, finish tile), board
  (left on the removed rear board), pushed (moved back off the rear of the track).
* **paths**: for every tile face played and each of its paths, **pick rate** = share of the
  programs on that tile face that took the path; **win % of pickers** = win rate of the
  players who took it (in games counted whole); **contribution** = that minus the win rate of
  every player who played that tile face, in percentage points: positive means the players
  who took this path won more often than those who did not.
* **game length**: the turn the game ended on (13 = played to the finish tile).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, Iterable, Mapping

from bitbox.simulation.rates import Rate
from bitbox.simulation.tally import SeatTally, Tallies

CAUSES = ("fuel", "overpaid", "board", "pushed")
PATHS = ("left", "center", "right")
Lit = Mapping[tuple[int, str], Iterable[str]]


class _Tally(SeatTally):
    __slots__ = ("zone_sum", "zone_n", "place_sum", "elim")

    def __init__(self) -> None:
        super().__init__()
        self.zone_sum = 0
        self.zone_n = 0
        self.place_sum = 0
        self.elim: Counter[str] = Counter()

    def add(self, win: float, zone: int | None, place: int, cause: str | None) -> None:
        self.add_game(win)
        self.place_sum += place
        if zone is not None:
            self.zone_sum += zone
            self.zone_n += 1
        if cause:
            self.elim[cause] += 1

    def row(self) -> dict[str, Any]:
        return {**super().row(), **Rate(self.zone_n, self.games).data("survived"),
                "avg_zone": self.zone_sum / self.zone_n if self.zone_n else None,
                "avg_place": self.place_sum / max(self.games, 1), "eliminated": {c: self.elim[c] for c in CAUSES}}


class Stats(Tallies[_Tally]):
    """Running totals over game records (see the module docstring); ``lit``: the paths lit on
    each tile face (:func:`outspeed.sim.lit_paths`), for the path figures."""

    def __init__(self, players: int, lit: Lit | None = None) -> None:
        super().__init__(players, _Tally)
        self.lit = lit
        self.causes: Counter[str] = Counter()
        self.cause_turn: dict[str, int] = defaultdict(int)
        self.elim_turns: Counter[int] = Counter()
        # (tile, face) -> [programs, wins of those programs, per path: [picks, wins]]
        self.paths: dict[tuple[int, str], list[Any]] = {}

    def add(self, rec: Mapping[str, Any]) -> None:
        super().add(rec)
        cause_of = {seat: cause for seat, cause, _ in rec["eliminated"]}
        for seat, cause, turn in rec["eliminated"]:
            self.causes[cause] += 1
            self.cause_turn[cause] += turn
            self.elim_turns[turn] += 1
        wins = rec["wins"]
        for k, bot in enumerate(rec["bots"]):
            for t in self.tally(k, bot):
                t.add(wins[k], rec["zone"][k], rec["place"][k], cause_of.get(k))
        for tile, face, picks in rec["picks"]:
            entry = self.paths.get((tile, face))
            if entry is None:
                entry = self.paths[(tile, face)] = [0, 0.0, {p: [0, 0.0] for p in PATHS}]
            for seat, path in picks:
                entry[0] += 1
                entry[1] += wins[seat]
                entry[2][path][0] += 1
                entry[2][path][1] += wins[seat]

    # ------------------------------------------------------------------ figures
    def eliminations(self) -> list[dict[str, Any]]:
        ships = max(self.games * self.players, 1)
        return [{"cause": c, "count": self.causes[c], "per_game": self.causes[c] / max(self.games, 1),
                 **Rate(self.causes[c], ships).data("share_of_ships"),
                 "avg_turn": self.cause_turn[c] / self.causes[c] if self.causes[c] else None}
                for c in CAUSES]

    def path_rows(self, lit: Lit | None = None) -> list[dict[str, Any]]:
        """One row per path of every tile face played (only the lit paths, if ``lit`` (else the
        statistics' own) maps (tile, face) to them)."""
        lit = lit if lit is not None else self.lit
        rows = []
        for (tile, face), (programs, wins, per) in sorted(self.paths.items()):
            base = wins / programs if programs else 0.0
            shown = set(lit[(tile, face)]) if lit and (tile, face) in lit else set(PATHS)
            for path in PATHS:
                if path not in shown:
                    continue
                picks, pwins = per[path]
                rate = pwins / picks if picks else None
                rows.append({"tile": tile, "face": face, "path": path, "picks": picks, "programs": programs,
                             **Rate(picks, programs).data("pick_rate"),
                             **Rate(pwins, picks).data("win_rate"),
                             "face_win_rate": base,
                             "contribution": (rate - base) if rate is not None else None})
        return rows

    def length(self) -> dict[str, Any]:
        return {**super().length(), "ends": {e: self.ends[e] for e in ("finish", "last ship", "nobody")},
                "eliminations_by_turn": {t: self.elim_turns[t] for t in sorted(self.elim_turns)}}

    def to_data(self, lit: Lit | None = None) -> dict[str, Any]:
        return {"games": self.games, "players": self.players, "by_seat": self.by_seat(),
                "by_bot": self.by_bot(), "eliminations": self.eliminations(),
                "paths": self.path_rows(lit), "length": self.length()}

    def report(self, config: Any) -> str:
        """The tables after the report's heading (:mod:`.report`)."""
        from .report import tables
        return tables(self, config)

    def figures(self, config: Any) -> dict[str, Any]:
        """The charts (:mod:`.charts`)."""
        from .charts import figures
        return figures(self, config)
