"""Play many games of Last One Alive with bots: one game's record, on the console's simulation
harness (:mod:`bitbox.simulation`: seeds, worker pool, progress).

Every game is played through the game protocol (the cartridge, ``bitbox.bots.play``), each
bot seeing only its player's private view. Determinism: game ``i`` of a run seeded ``S`` is
seeded from ``(S, i)`` and the bot in the seat of 0-based index ``k`` from ``(game seed, k)``
(namespace ``lastonealive-simulate``; a record's seats are list positions, 0-based; every
output counts seats from 1); records come back in game-index order whatever the number of
worker processes and are aggregated in that order, so the figures are the same for any
``--workers``.

A record is plain data (cheap to pickle):

* ``bots``: the bot in each seat; ``wins``: each seat's share of the win (1/k for k winners);
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
from dataclasses import dataclass, field
from typing import Any

from bitbox.bots import make_bot, play
from bitbox.bots.search import SEARCH, Budget
from bitbox.colours import SEAT_COLOURS
from bitbox.games.protocol import JSON, Prompt
from bitbox.simulation import seeds
from bitbox.simulation.gamelog import Column, common_columns, common_row, seat_columns
from bitbox.simulation.pool import run_indexed
from bitbox.simulation.progress import Progress

from ..rules import VARIANTS
from ..rules.game import MAX_PLAYERS, MIN_PLAYERS
from ..strategy import BOT_NAMES

NAMESPACE = "lastonealive-simulate"
COLOURS = SEAT_COLOURS
#: The variants ``--variant`` takes (``zombified_rolls`` implies ``zombies_everywhere``, LA-4).
SIM_VARIANTS = VARIANTS
SURVIVORS_PLAYERS = (2, 3)


@dataclass(frozen=True)
class SimConfig:
    """What to simulate. ``bots`` are cycled over the seats; with ``rotate`` the cycle starts
    one seat further in each game, so every bot sits in every seat equally often."""

    games: int
    players: int = 4
    bots: tuple[str, ...] = ("random",)
    seed: int = 0
    variants: tuple[str, ...] = ()
    first_zombie: str = "each"
    rotate: bool = True
    search: Budget = field(default_factory=Budget)      # the search bot's budget per decision

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"the number of games must be 1 or more, not {self.games}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"Last One Alive is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players}")
        if not self.bots:
            raise ValueError("name at least one bot")
        unknown = [b for b in self.bots if b not in BOT_NAMES and b != SEARCH]
        if unknown:
            raise ValueError(f"unknown bot {unknown[0]!r} (known: {', '.join((*BOT_NAMES, SEARCH))})")
        bad = [v for v in self.variants if v not in SIM_VARIANTS]
        if bad:
            raise ValueError(f"unknown variant {bad[0]!r} (known: {', '.join(SIM_VARIANTS)})")
        if "survivors" in self.variants and self.players not in SURVIVORS_PLAYERS:
            raise ValueError(f"the survivors variant is for 2 or 3 players, not {self.players}")
        if self.first_zombie not in ("each", "first"):
            raise ValueError(f"first zombie must be each or first, not {self.first_zombie!r}")

    def seat_bots(self, index: int) -> list[str]:
        """The bot name in each seat of game ``index``."""
        shift = index if self.rotate else 0
        return [self.bots[(k + shift) % len(self.bots)] for k in range(self.players)]

    def options(self) -> dict[str, JSON]:
        """The cartridge's options for this run."""
        return {**{v: v in self.variants for v in SIM_VARIANTS}, "first_zombie": self.first_zombie}


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


class _Watch:
    """Wraps a seat's bot: passes the view and prompt through unchanged and notes the tokens
    it uses (the window is the prompt's kind)."""

    __slots__ = ("bot", "seat", "uses", "name")

    def __init__(self, bot: Any, seat: int, uses: list[list[Any]]) -> None:
        self.bot, self.seat, self.uses, self.name = bot, seat, uses, bot.name

    def choose(self, view: Mapping[str, JSON], prompt: Prompt) -> Any:
        action = self.bot.choose(view, prompt)
        if getattr(action, "kind", None) == "use":
            self.uses.append([self.seat, action.token, _mode(action.token, action.arg), prompt.kind, None])
        return action


def play_one(config: SimConfig, index: int, cartridge: Any = None) -> dict[str, Any]:
    """Play game ``index`` of the run; return its record (see the module docstring)."""
    if cartridge is None:
        from ..cartridge import CARTRIDGE as cartridge
    gseed = game_seed(config.seed, index)
    names = tuple(COLOURS[: config.players])
    seat_of = {p: k for k, p in enumerate(names)}
    kinds = config.seat_bots(index)
    uses: list[list[Any]] = []
    bots = {p: _Watch(make_bot(cartridge, kinds[k], bot_seed(gseed, k), config.search), k, uses)
            for k, p in enumerate(names)}
    n = config.players
    own_turns = [0] * n
    out: list[int | None] = [None] * n
    lives_lost = [0] * n
    heroes = [0] * n
    drawn_up = [0] * n
    drawn_down = [0] * n
    medkits: list[list[Any]] = []
    levels: list[int] = []
    end = [""]
    open_uses = [0]                 # uses[open_uses:] belong to the turn being played

    def close_turn(overrun: int | None) -> None:
        for u in uses[open_uses[0]:]:
            u[4] = u[0] != overrun
        open_uses[0] = len(uses)

    turn_overrun: list[int | None] = [None]

    def record(events: Sequence[Any]) -> None:
        for e in events:
            kind, data = str(e.kind), e.data
            if kind == "turn":
                close_turn(turn_overrun[0])
                turn_overrun[0] = None
                levels.append(int(data["level"]))
                own_turns[seat_of[data["player"]]] += 1
            elif kind == "overrun":
                turn_overrun[0] = seat_of[data["player"]]
                if "lives" in data:
                    lives_lost[seat_of[data["player"]]] += 1
            elif kind == "eliminated":
                out[seat_of[data["player"]]] = len(levels)
            elif kind == "medkit":
                medkits.append([seat_of[data["player"]], bool(data["saved"])])
            elif kind == "hero_gained":
                heroes[seat_of[data["player"]]] += 1
            elif kind == "drew":
                drawn_up[seat_of[data["player"]]] += 1
            elif kind == "drew_face_down":
                drawn_down[seat_of[data["player"]]] += 1
            elif kind == "game_over":
                end[0] = str(data["why"])

    game = cartridge.new(names, gseed, config.options())
    play(game, bots, record)
    close_turn(turn_overrun[0])
    winners = set(game.winners)
    share = 1 / len(winners) if winners else 0.0
    return {
        "index": index, "seed": gseed, "bots": kinds,
        "wins": [share if p in winners else 0.0 for p in names],
        "own_turns": own_turns, "out": out, "lives_lost": lives_lost, "heroes": heroes,
        "drawn": [[u, d] for u, d in zip(drawn_up, drawn_down)],
        "levels": levels, "uses": uses, "medkits": medkits,
        "turns": len(levels), "end": end[0],
    }


def csv_columns(players: int) -> list[Column]:
    """The columns of ``games.csv`` (docs/simulate.md): the console's, then Last One Alive's."""
    return [*common_columns(players),
            Column("end", "why the game ended (the last one alive, or Survivors' third apocalypse token…)"),
            Column("final_level", "the apocalypse level at the start of the game's last turn"),
            *seat_columns(players, [
                ("turns", "the turns seat K played while still in the game"),
                ("out_turn", "the game turn seat K was eliminated on (empty: not eliminated)"),
                ("tokens", "the tokens seat K played, in order (the medkit, rolled by the referee, is apart)"),
                ("medkit_rolls", "the medkits rolled for seat K"),
                ("medkit_saves", "those that saved seat K"),
                ("heroes", "the hero tokens seat K earned"),
                ("lives_lost", "the lives seat K lost (Survivors; 0 otherwise)")])]


def csv_row(record: Mapping[str, Any]) -> dict[str, object]:
    """A game's record (:func:`play_one`) as its row of ``games.csv``."""
    players = len(record["wins"])
    row = common_row(record["index"], record["seed"], record["bots"], record["wins"], COLOURS, record["turns"])
    row.update({"end": record["end"], "final_level": record["levels"][-1] if record["levels"] else None})
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


class Job:
    """:func:`play_one` for a run, as the harness's picklable job (the cartridge is found
    again in each worker process)."""

    def __init__(self, config: SimConfig) -> None:
        self.config = config
        self.cartridge: Any = None

    def __getstate__(self) -> SimConfig:
        return self.config

    def __setstate__(self, config: SimConfig) -> None:
        self.config, self.cartridge = config, None

    def __call__(self, index: int) -> dict[str, Any]:
        if self.cartridge is None:
            from ..cartridge import CARTRIDGE
            self.cartridge = CARTRIDGE
        return play_one(self.config, index, self.cartridge)


def run_games(config: SimConfig, workers: int = 1, progress: Progress | None = None, ray: str | None = None,
              on_start: Callable[[int], None] | None = None) -> Iterator[dict[str, Any]]:
    """Yield every game's record, in game-index order, played on ``workers`` processes, or on
    Ray's pool when ``ray`` is not None (an address, or "" for a Ray instance on this machine:
    :mod:`bitbox.simulation.cluster`; ``on_start`` gets its number of pool processes); the
    records are the same either way."""
    if ray is not None:
        from bitbox.simulation import cluster
        return cluster.run_indexed(Job(config), config.games, ray, progress, on_start)
    return run_indexed(Job(config), config.games, workers, progress)


__all__ = ["COLOURS", "Job", "NAMESPACE", "SIM_VARIANTS", "SimConfig", "bot_seed", "csv_columns", "csv_row",
           "game_seed", "play_one", "run_games"]
