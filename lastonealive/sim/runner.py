"""Last One Alive's simulation: its run configuration and its statistics hook on the console's
runner (:mod:`bitbox.simulation.runner`: seeds, bots, the protocol loop, the pool, Ray).

Game ``i`` of a run seeded ``S`` is seeded from ``(S, i)`` and the bot in the seat of 0-based
index ``k`` from ``(game seed, k)`` (namespace ``lastonealive-simulate``; a record's seats are
list positions, 0-based; every output counts seats from 1).

A record is plain data (cheap to pickle): the console's fields (``index``, ``seed``, ``prompts``,
``bots``: the bot in each seat; ``wins``: each seat's share of the win, 1/k for k winners) and:

* ``own_turns``: the turns each seat played alive; ``out``: the game turn each seat was
  eliminated on (None if it was not); ``lives_lost`` (Survivors);
* ``levels``: the apocalypse level at the start of each turn of the game, in order;
* ``uses``: every token used, ``[seat, token, mode, window, survived]``: ``mode`` is
  ``before`` (the before-the-roll effect: axe, chainsaw, pistol), ``reroll`` (pistol, axe,
  hero), ``discard`` (chainsaw after the roll), ``pass`` (flare, barricade), ``dice``
  (radio); ``survived`` says whether the user ended that turn without being overrun;
* ``medkits``: ``[seat, saved]`` for every medkit rolled (automatic, L-19);
* ``heroes``: the hero tokens each seat earned; ``drawn``: the tokens each seat drew face up
  (object results) and face down (barricade results);
* ``turns``: the turns the game lasted; ``end``: why it ended.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from bitbox.colours import SEAT_COLOURS
from bitbox.games.protocol import JSON, Prompt
from bitbox.simulation import runner, seeds
from bitbox.simulation.gamelog import Column, seat_columns
from bitbox.simulation.progress import Progress

from ..rules import VARIANTS
from ..rules.game import VARIANT_PLAYERS, variant_problem

NAMESPACE = "lastonealive-simulate"
COLOURS = SEAT_COLOURS
#: The variants ``--variant`` takes (``zombified_rolls`` implies ``zombies_everywhere``, LA-4).
SIM_VARIANTS = VARIANTS
SURVIVORS_PLAYERS = VARIANT_PLAYERS["survivors"]


@dataclass(frozen=True)
class SimConfig(runner.Config):
    """What to simulate (:class:`bitbox.simulation.runner.Config`), with the variants played and
    who starts with a 1-zombie die (``each`` player, or the ``first`` only)."""

    game: ClassVar[str] = "lastonealive"
    namespace: ClassVar[str] = NAMESPACE
    games: int
    players: int = 4
    bots: tuple[str, ...] = ("random",)
    seed: int = 0
    variants: tuple[str, ...] = ()
    first_zombie: str = "each"
    rotate: bool = True
    search: Any = None                  # the search bot's budget (bitbox.bots.search.Budget), when it plays

    def check(self) -> None:
        bad = [v for v in self.variants if v not in SIM_VARIANTS]
        if bad:
            raise ValueError(f"unknown variant {bad[0]!r} (known: {', '.join(SIM_VARIANTS)})")
        problem = variant_problem(self.variants, self.players)
        if problem is not None:
            raise ValueError(problem)
        if self.first_zombie not in ("each", "first"):
            raise ValueError(f"first zombie must be each or first, not {self.first_zombie!r}")

    def cartridge_options(self) -> dict[str, JSON]:
        return {**{v: v in self.variants for v in SIM_VARIANTS}, "first_zombie": self.first_zombie}

    def describe(self) -> str:
        variants = ", ".join(self.variants) or "base game"
        zombie = "" if self.first_zombie == "each" else ", starting zombie for the first player only"
        return (f"{self.players} players, bots {','.join(self.bots)} ({self.seating()}), {variants}{zombie}, "
                f"seed {self.seed}")


def game_seed(seed: int, index: int) -> int:
    return seeds.game_seed(NAMESPACE, seed, index)


def bot_seed(seed_of_game: int, seat: int) -> int:
    return seeds.bot_seed(NAMESPACE, seed_of_game, seat)


def _mode(token: str, arg: Any) -> str:
    if token in ("axe", "pistol", "chainsaw") and arg is None:
        return "before"
    if token in ("pistol", "axe", "hero"):
        return "reroll"
    if token == "chainsaw":
        return "discard"
    if token == "radio":
        return "dice"
    return "pass"


class Watch:
    """One game's record from its events and the tokens its bots use (see the module docstring)."""

    def __init__(self, players: Sequence[str], game: Any = None) -> None:
        n = len(players)
        state = getattr(getattr(game, "engine", game), "state", None)
        self.state = state                  # the engine's state: the level when the game ends
        self.seat_of = {p: k for k, p in enumerate(players)}
        self.uses: list[list[Any]] = []
        self.own_turns = [0] * n
        self.out: list[int | None] = [None] * n
        self.lives_lost = [0] * n
        self.heroes = [0] * n
        self.drawn_up = [0] * n
        self.drawn_down = [0] * n
        self.medkits: list[list[Any]] = []
        self.levels: list[int] = []
        self.end = ""
        if state is not None and state.finished:     # L-25: over in the setup draws, before any turn
            self.end = SETUP_END
        self.open_uses = 0                  # uses[open_uses:] belong to the turn being played
        self.overrun: int | None = None     # the seat overrun in the turn being played

    def answered(self, seat: int, prompt: Prompt, action: Any) -> None:
        if getattr(action, "kind", None) == "use":
            self.uses.append([seat, action.token, _mode(action.token, action.arg), prompt.kind, None])

    def _close_turn(self) -> None:
        for u in self.uses[self.open_uses:]:
            u[4] = u[0] != self.overrun
        self.open_uses = len(self.uses)

    def events(self, events: Sequence[Any]) -> None:
        seat_of = self.seat_of
        for e in events:
            kind, data = str(e.kind), e.data
            if kind == "turn":
                self._close_turn()
                self.overrun = None
                self.levels.append(int(data["level"]))
                self.own_turns[seat_of[data["player"]]] += 1
            elif kind == "overrun":
                self.overrun = seat_of[data["player"]]
                if "lives" in data:
                    self.lives_lost[seat_of[data["player"]]] += 1
            elif kind == "eliminated":
                self.out[seat_of[data["player"]]] = len(self.levels)
            elif kind == "medkit":
                self.medkits.append([seat_of[data["player"]], bool(data["saved"])])
            elif kind == "hero_gained":
                self.heroes[seat_of[data["player"]]] += 1
            elif kind == "drew":
                self.drawn_up[seat_of[data["player"]]] += 1
            elif kind == "drew_face_down":
                self.drawn_down[seat_of[data["player"]]] += 1
            elif kind == "game_over":
                self.end = SETUP_END if data.get("setup") else str(data["why"])

    def record(self) -> dict[str, Any]:
        self._close_turn()
        return {"own_turns": self.own_turns, "out": self.out, "lives_lost": self.lives_lost, "heroes": self.heroes,
                "drawn": [[u, d] for u, d in zip(self.drawn_up, self.drawn_down)],
                "levels": self.levels, "uses": self.uses, "medkits": self.medkits,
                "turns": len(self.levels), "end": self.end,
                "final_level": int(self.state.level) if self.state is not None else
                (self.levels[-1] if self.levels else None)}


#: why a game ended that ended in its setup draws (Survivors' third apocalypse token, L-25)
SETUP_END = "the third apocalypse token, in the setup draws"


def final_level(record: Mapping[str, Any]) -> int | None:
    """The apocalypse level when the game ended (a record written before it was kept: the
    level at the start of its last turn)."""
    level = record.get("final_level")
    if level is None and record.get("levels"):
        level = record["levels"][-1]
    return level


class Statistics:
    """Last One Alive's statistics hook (:class:`bitbox.simulation.runner.Statistics`): the
    cartridge's ``statistics``."""

    def watch(self, game: Any, players: Sequence[str]) -> Watch:
        return Watch(players, game)

    def columns(self, players: int) -> list[Column]:
        """Last One Alive's columns of ``games.csv`` (docs/simulate.md), after the console's."""
        return [Column("end", "why the game ended (the last one alive, or Survivors' third apocalypse token…)"),
                Column("final_level", "the apocalypse level when the game ended"),
                *seat_columns(players, [
                    ("turns", "the turns seat K played while still in the game"),
                    ("out_turn", "the game turn seat K was eliminated on (empty: not eliminated)"),
                    ("tokens", "the tokens seat K played, in order (the medkit, rolled by the referee, is apart)"),
                    ("medkit_rolls", "the medkits rolled for seat K"),
                    ("medkit_saves", "those that saved seat K"),
                    ("heroes", "the hero tokens seat K earned"),
                    ("lives_lost", "the lives seat K lost (Survivors; 0 otherwise)")])]

    def row(self, record: Mapping[str, Any]) -> dict[str, object]:
        players = len(record["wins"])
        row: dict[str, object] = {"end": record["end"],
                                  "final_level": final_level(record)}
        tokens: list[list[str]] = [[] for _ in range(players)]
        for seat, token, *_ in record["uses"]:
            tokens[seat].append(token)
        rolls, saves = [0] * players, [0] * players
        for seat, saved in record["medkits"]:
            rolls[seat] += 1
            saves[seat] += bool(saved)
        for k in range(players):
            seat = f"seat{k + 1}_"
            row.update({seat + "turns": record["own_turns"][k],
                        seat + "out_turn": record["out"][k], seat + "tokens": tokens[k],
                        seat + "medkit_rolls": rolls[k], seat + "medkit_saves": saves[k],
                        seat + "heroes": record["heroes"][k], seat + "lives_lost": record["lives_lost"][k]})
        return row

    def tally(self, config: Any) -> Any:
        from .stats import Stats
        return Stats(config.players)


STATISTICS = Statistics()


def csv_columns(players: int) -> list[Column]:
    """The columns of ``games.csv`` (docs/simulate.md): the console's, then Last One Alive's."""
    return runner.csv_columns(STATISTICS, players)


def play_one(config: SimConfig, index: int, cartridge: Any = None) -> dict[str, Any]:
    """Play game ``index`` of the run; return its record (see the module docstring)."""
    if cartridge is None:
        from ..cartridge import CARTRIDGE as cartridge
    return runner.play_one(config, index, cartridge, STATISTICS)


def run_games(config: SimConfig, workers: int = 1, progress: Progress | None = None, ray: str | None = None,
              on_start: Callable[[int], None] | None = None) -> Iterator[dict[str, Any]]:
    """Every game's record, in game-index order (:func:`bitbox.simulation.runner.records`)."""
    return runner.records(config, workers, progress, ray, on_start)


__all__ = ["COLOURS", "NAMESPACE", "SIM_VARIANTS", "STATISTICS", "SimConfig", "Statistics", "Watch", "bot_seed",
           "csv_columns", "game_seed", "play_one", "run_games"]
