"""Aggregate game records (:mod:`.runner`) into the figures ``lastonealive simulate`` reports.

Records are added in game-index order (floating-point sums are then the same for any number
of worker processes). Definitions:

* **win rate**: wins / games played in that seat (or by that bot); a shared victory (Survivors)
  counts 1/k to each of the k winners. Every rate comes with its 95 % Wilson interval
  (``*_ci95``), its number of trials (``*_n``) and the small-sample flag
  (:mod:`bitbox.simulation.rates`); a rate with no trials is None.
* **turns survived**: the turns a player played while still in the game (the winner's count
  too); **out** is the share of players eliminated; **turn survival** is the share of a bot's
  turns that did not end overrun.
* **level over time**: the mean apocalypse level at the start of game turn *t* over the games
  still going at turn *t* (turns are counted across the table: turn 5 is the fifth turn
  played).
* **tokens**: for every token and bot, the uses per game (each use counted; a flare or a hero
  re-roll is one use whatever the number of dice), how they were used (``before``, ``reroll``,
  ``discard``, ``pass``, ``dice``: see :mod:`.runner`), **turn survival when used** (the share
  of the turns it was used in that the user ended without being overrun, to read next to the
  bot's turn survival over all its turns: a token used when things look bad can pay off and
  still show a lower figure), and **win % of users** (the win rate of the seats of that bot
  that used it at least once in a game) with its **contribution** (that minus the bot's win
  rate over all its seats, in percentage points). The medkit is rolled automatically: its
  figure is the share of medkit rolls that saved the player.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from bitbox.simulation.rates import Rate
from bitbox.simulation.tally import SeatTally, Tallies

from ..rules import HELD
from .runner import final_level

MODES = ("before", "reroll", "discard", "pass", "dice")
TOKENS = HELD           # axe, chainsaw, flare, pistol, medkit, radio, barricade, hero


class _Tally(SeatTally):
    __slots__ = ("own_turns", "out", "overruns", "lives_lost", "heroes", "up", "down")

    def __init__(self) -> None:
        super().__init__()
        self.own_turns = self.out = self.overruns = self.lives_lost = self.heroes = self.up = self.down = 0

    def add(self, win: float, own: int, out: bool, lives_lost: int, heroes: int, up: int, down: int) -> None:
        self.add_game(win)
        self.own_turns += own
        self.out += out
        self.overruns += lives_lost + out
        self.lives_lost += lives_lost
        self.heroes += heroes
        self.up += up
        self.down += down

    def row(self) -> dict[str, Any]:
        g = max(self.games, 1)
        return {**super().row(), "turns_survived": self.own_turns / g, **Rate(self.out, self.games).data("out"),
                **Rate(max(self.own_turns - self.overruns, 0), self.own_turns).data("turn_survival"),
                "lives_lost": self.lives_lost / g, "heroes_earned": self.heroes / g,
                "drawn_face_up": self.up / g, "drawn_face_down": self.down / g}


class _TokenTally:
    __slots__ = ("uses", "survived", "modes", "games_used", "wins_used")

    def __init__(self) -> None:
        self.uses = self.survived = self.games_used = 0
        self.wins_used = 0.0
        self.modes: Counter[str] = Counter()


class Stats(Tallies[_Tally]):
    """Running totals over game records (see the module docstring)."""

    def __init__(self, players: int) -> None:
        super().__init__(players, _Tally)
        self.level_sum: Counter[int] = Counter()       # game turn -> sum of levels
        self.level_n: Counter[int] = Counter()         # game turn -> games still going
        self.final_level: Counter[int] = Counter()
        self.tokens: dict[tuple[str, str], _TokenTally] = {}
        self.medkit: dict[str, list[int]] = {}         # bot -> [rolls, saves]

    def _token(self, bot: str, token: str) -> _TokenTally:
        t = self.tokens.get((bot, token))
        if t is None:
            t = self.tokens[(bot, token)] = _TokenTally()
        return t

    def add(self, rec: Mapping[str, Any]) -> None:
        super().add(rec)
        bots, wins = rec["bots"], rec["wins"]
        for k in range(self.players):
            for seat_or_bot in self.tally(k, bots[k]):
                seat_or_bot.add(wins[k], rec["own_turns"][k], rec["out"][k] is not None, rec["lives_lost"][k],
                                rec["heroes"][k], rec["drawn"][k][0], rec["drawn"][k][1])
        for t, level in enumerate(rec["levels"], 1):
            self.level_sum[t] += level
            self.level_n[t] += 1
        level = final_level(rec)
        if level is not None:
            self.final_level[level] += 1
        used: set[tuple[int, str]] = set()
        for seat, token, mode, _window, survived in rec["uses"]:
            tally = self._token(bots[seat], token)
            tally.uses += 1
            tally.survived += bool(survived)
            tally.modes[mode] += 1
            used.add((seat, token))
        for seat, saved in rec["medkits"]:
            tally = self._token(bots[seat], "medkit")
            tally.uses += 1
            tally.survived += bool(saved)
            tally.modes["auto"] += 1
            used.add((seat, "medkit"))
            m = self.medkit.setdefault(bots[seat], [0, 0])
            m[0] += 1
            m[1] += bool(saved)
        for seat, token in sorted(used):
            tally = self._token(bots[seat], token)
            tally.games_used += 1
            tally.wins_used += wins[seat]

    # ------------------------------------------------------------------ figures
    def length(self) -> dict[str, Any]:
        return {**super().length(), "ends": dict(sorted(self.ends.items()))}

    def levels(self) -> list[dict[str, Any]]:
        """The mean level at the start of each game turn, with the games still going."""
        return [{"turn": t, "games": self.level_n[t], "mean_level": self.level_sum[t] / self.level_n[t]}
                for t in sorted(self.level_n)]

    def final_levels(self) -> dict[int, int]:
        return {lv: self.final_level[lv] for lv in sorted(self.final_level)}

    def token_rows(self) -> list[dict[str, Any]]:
        """One row per bot and token used at least once (see the module docstring)."""
        rows = []
        for name, tally in self.bot.items():
            base = tally.row()
            for token in TOKENS:
                t = self.tokens.get((name, token))
                if t is None or not t.uses:
                    continue
                win_users = t.wins_used / t.games_used if t.games_used else None
                rows.append({
                    "bot": name, "token": token, "uses": t.uses, "per_game": t.uses / max(tally.games, 1),
                    "modes": {m: t.modes[m] for m in (*MODES, "auto") if t.modes[m]},
                    **Rate(t.survived, t.uses).data("survived"), "turn_survival": base["turn_survival"],
                    "games_used": t.games_used, **Rate(t.wins_used, t.games_used).data("win_rate_users"),
                    "contribution": None if win_users is None else win_users - base["win_rate"]})
        return rows

    def to_data(self) -> dict[str, Any]:
        return {"games": self.games, "players": self.players, "by_seat": self.by_seat(), "by_bot": self.by_bot(),
                "length": self.length(), "levels": self.levels(), "final_levels": self.final_levels(),
                "tokens": self.token_rows()}

    def report(self, config: Any) -> str:
        """The tables after the report's heading (:mod:`.report`)."""
        from .report import tables
        return tables(self, config)

    def figures(self, config: Any) -> dict[str, Any]:
        """The charts (:mod:`.charts`)."""
        from .charts import figures
        return figures(self, config)


__all__ = ["MODES", "Stats", "TOKENS"]
