"""The one simulation runner: many games of any cartridge played by its bots, through the game
protocol, with the cartridge's own statistics when it gives a hook for them.

A game of a run is played like this (:func:`play_one`): game ``i`` of a run seeded ``S`` is
seeded from ``(S, i)`` and the bot in seat ``k`` (0-based) from ``(game seed, k)`` in the run's
namespace (:mod:`.seeds`); the players are the seat colours; ``cartridge.new(players, seed,
options)``; every seat's bot made by :func:`bitbox.bots.make_bot` (any bot name the cartridge or
the console knows); the prompts answered until the game ends (:func:`bitbox.bots.play`), or, when
the cartridge has a ``playout`` that plays every seat's bot itself, the game played by it: the
same game, its applies counted by it (docs/games.md, "The playout"). A
game's record is plain data (cheap to pickle): ``index``, ``seed``, ``bots`` (the bot in each
seat), ``wins`` (each seat's share of the win: 1/k for each of k winners), ``prompts`` (the
applies it took), then what the cartridge's statistics hook records. Records come back in
game-index order for any number of worker processes or on Ray (:func:`records`), so a run's
figures are the same however it is spread.

**The statistics hook** (:class:`Statistics`): a cartridge may give an object as its
``statistics`` attribute. For each game, in the worker process, ``statistics.watch(game,
players)`` returns a :class:`Watch` that sees the events of each apply, and, if it has an
``answered`` method, every answer of every seat; its :meth:`Watch.record` adds the game's own
fields to the record. In the main process, ``statistics.columns(players)`` and
``statistics.row(record)`` add its columns to ``games.csv``, and ``statistics.tally(config)``
makes the :class:`Tally` that adds the records up, gives the report's tables
(:meth:`Tally.report`), its figures for ``results.json`` (:meth:`Tally.to_data`) and its charts
(:meth:`Tally.figures`). Everything else — the seeds, the pool and Ray, the progress bar, the
report's heading, ``games.csv``'s common columns, ``results.json``, writing the charts — is
the console's (:func:`simulate`, :class:`Result`).

A game's ``simulate`` command describes its run with a :class:`Config` (a dataclass with
``games``, ``players``, ``bots``, ``seed``, ``rotate`` and its own options, mapped to the
cartridge's options by :meth:`Config.cartridge_options`).
"""
from __future__ import annotations

import dataclasses
import functools
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol, TextIO, runtime_checkable

from ..bots import Bot, BotShelf, make_bot, play
from ..games import JSON, Cartridge, Game, GameEvent, Player, Prompt, find
from ..games.conformance import player_names
from ..i18n import counted
from . import seeds
from .gamelog import Column, GameLog, common_columns, common_row
from .pool import run_indexed
from .progress import Progress
from .report import SMALL_NOTE, run_line

Record = dict[str, Any]


# --------------------------------------------------------------------------- the hook

@runtime_checkable
class Watch(Protocol):
    """One game seen by a cartridge's statistics (in the worker process that plays it).

    It may also have ``answered(seat, prompt, action)``: called with every answer a seat's
    bot gives (``seat`` 0-based), before it is applied."""

    def events(self, events: Sequence[GameEvent]) -> None:
        """The events of one apply, in order."""
        ...

    def record(self) -> Mapping[str, Any]:
        """The game's own fields of its record, once it is over (plain data: lists, numbers,
        strings; the keys ``index``, ``seed``, ``bots``, ``wins`` and ``prompts`` are the
        console's)."""
        ...


@runtime_checkable
class Tally(Protocol):
    """A cartridge's figures over the records of a run (in the main process)."""

    games: int

    def add(self, record: Mapping[str, Any]) -> None:
        """One game's record, in game-index order."""
        ...

    def report(self, config: Any) -> str:
        """The report's tables (what follows the console's heading lines)."""
        ...

    def to_data(self) -> Mapping[str, Any]:
        """The figures for ``results.json`` (after its ``config``)."""
        ...

    def figures(self, config: Any) -> Mapping[str, Any]:
        """The charts: file name -> matplotlib figure (the console saves and closes them)."""
        ...


@runtime_checkable
class Statistics(Protocol):
    """The statistics hook a cartridge may give as its ``statistics`` attribute (see the
    module docstring)."""

    def watch(self, game: Game, players: Sequence[Player]) -> Watch: ...

    def columns(self, players: int) -> Sequence[Column]:
        """``games.csv``'s columns after the common ones (:func:`bitbox.simulation.gamelog.seat_columns`
        for per-seat ones)."""
        ...

    def row(self, record: Mapping[str, Any]) -> Mapping[str, object]:
        """The values of :meth:`columns` for one game's record."""
        ...

    def tally(self, config: Any) -> Tally: ...


def statistics_of(cartridge: Cartridge) -> Statistics | None:
    """The cartridge's statistics hook, or None when it has none."""
    hook = getattr(cartridge, "statistics", None)
    return hook if isinstance(hook, Statistics) else None


# --------------------------------------------------------------------------- a run

class Config:
    """What every run has, for a game's configuration dataclass to inherit (it declares the
    fields ``games``, ``players``, ``bots``, ``seed``, ``rotate`` and its own, in the order
    ``results.json`` gives them): the checks, the seats' bots, the seed namespace.

    ``bots`` are cycled over the seats; with ``rotate`` the cycle starts one seat further in
    each game, so every bot sits in every seat equally often."""

    game: ClassVar[str]                 # the cartridge's name
    namespace: ClassVar[str]            # the seeds' namespace (:mod:`.seeds`)
    games: int
    players: int
    bots: tuple[str, ...]
    seed: int
    rotate: bool

    def __post_init__(self) -> None:
        from ..bots import seat_names
        if self.games < 1:
            raise ValueError(f"the number of games must be 1 or more, not {self.games}")
        c = self.cartridge()
        if not c.min_players <= self.players <= c.max_players:
            raise ValueError(f"{c.title} is for {c.min_players} to {c.max_players} players, not {self.players}")
        if not self.bots:
            raise ValueError("name at least one bot")
        known = seat_names(c)
        unknown = [b for b in self.bots if b not in known]
        if unknown:
            raise ValueError(f"unknown bot {unknown[0]!r} (known: {', '.join(known)})")
        self.check()

    def check(self) -> None:
        """The game's own checks (ValueError with one line)."""

    def cartridge(self) -> Cartridge:
        return find(self.game)

    def cartridge_options(self) -> Mapping[str, JSON]:
        """The cartridge's options for the games of this run."""
        return {}

    def seat_bots(self, index: int) -> list[str]:
        """The bot name in each seat of game ``index``."""
        shift = index if self.rotate else 0
        return [self.bots[(k + shift) % len(self.bots)] for k in range(self.players)]

    def seating(self) -> str:
        return "rotated over the seats game by game" if self.rotate else "fixed seats"

    def describe(self) -> str:
        """The run after its number of games in the report's first line (with the search bot's
        budget when it plays)."""
        search = getattr(self, "search", None)
        budget = f"; search bot: {search}" if search is not None and "search" in self.bots else ""
        return f"{self.players} players, bots {','.join(self.bots)} ({self.seating()}), seed {self.seed}{budget}"

    def to_data(self) -> dict[str, Any]:
        """The configuration as ``results.json`` gives it (the fields in order; the search bot's
        budget only when it plays)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):                             # type: ignore[arg-type]
            v = getattr(self, f.name)
            if f.name == "search":
                if v is not None and "search" in self.bots:
                    out["search"] = v.to_data()
                continue
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out


class _Answers:
    """A seat's bot whose every answer a :class:`Watch` sees (unchanged)."""

    __slots__ = ("bot", "seat", "seen", "name")

    def __init__(self, bot: Bot, seat: int, seen: Callable[[int, Prompt, Any], None]) -> None:
        self.bot, self.seat, self.seen, self.name = bot, seat, seen, bot.name

    def choose(self, view: Mapping[str, JSON], prompt: Prompt) -> Any:
        action = self.bot.choose(view, prompt)
        self.seen(self.seat, prompt, action)
        return action


class Seating:
    """What every game of a run seats, worked out once per run: the players (the seat
    colours), the cartridge's options, and, for each bot name, how its bots are made.

    A bot is made as :func:`bitbox.bots.make_bot` makes it (the cartridge's own bot of that
    name when its shelf has one, else the console's); asking a cartridge whether its shelf has
    a bot (a check of the :class:`~bitbox.bots.BotShelf` protocol and its list of names) costs
    more than making a bot, so it is asked once per name, not once per seat of every game. A
    game is ``cartridge.new(players, seed, options)``; a cartridge with a ``starter(players,
    options)`` (:meth:`bitbox.games.base.EngineCartridge.starter`) checks the players and
    options once per run, at the first game, instead of at every game.

    ``playout``: whether games may be played by the cartridge's ``playout`` when it has one
    (False: every game through :func:`bitbox.bots.play`; the records are the same either way)."""

    def __init__(self, config: Any, cartridge: Cartridge, playout: bool = True) -> None:
        self.cartridge = cartridge
        hook = getattr(cartridge, "playout", None) if playout else None
        #: the cartridge's ``playout`` (docs/games.md), or None: every game through the protocol
        self.playout: Callable[..., int | None] | None = hook if callable(hook) else None
        self.names = player_names(cartridge, config.players)
        self.options = config.cartridge_options()
        self.budget = getattr(config, "search", None)       # the search bot's, when it plays
        self._makers: dict[str, Callable[[int], Bot]] = {}
        self._new: Callable[[int], Game] | None = None

    def game(self, seed: int) -> Game:
        """The run's game of ``seed``: ``cartridge.new(players, seed, options)``."""
        new = self._new
        if new is None:
            c, names, options = self.cartridge, self.names, self.options
            starter = getattr(c, "starter", None)
            new = self._new = starter(names, options) if callable(starter) else \
                functools.partial(_new_game, c, names, options)
        return new(seed)

    def bot(self, name: str, seed: int) -> Bot:
        make = self._makers.get(name)
        if make is None:
            c = self.cartridge
            if isinstance(c, BotShelf) and name in c.bot_names:            # make_bot's first choice
                make = _shelf_maker(c, name)
            else:
                make = functools.partial(make_bot, c, name, budget=self.budget)
            self._makers[name] = make
        return make(seed)


def _new_game(cartridge: Cartridge, players: Sequence[Player], options: Mapping[str, JSON], seed: int) -> Game:
    return cartridge.new(players, seed, options)


def _shelf_maker(cartridge: Any, name: str) -> Callable[[int], Bot]:
    """``cartridge.make_bot(name, seed)`` as a function of the seed: the factory of its
    :class:`~bitbox.games.base.EngineCartridge` shelf itself when ``make_bot`` is that class's
    (which only looks the name up, and the name is known)."""
    from ..games.base import EngineCartridge
    if isinstance(cartridge, EngineCartridge) and type(cartridge).make_bot is EngineCartridge.make_bot:
        return functools.partial(cartridge.bots[name], cartridge)
    return functools.partial(cartridge.make_bot, name)


def play_one(config: Any, index: int, cartridge: Cartridge, statistics: Statistics | None = None,
             seating: Seating | None = None) -> Record:
    """Play game ``index`` of the run ``config``; return its record (see the module docstring).
    ``config`` has ``namespace``, ``seed``, ``players``, ``seat_bots(index)`` and
    ``cartridge_options()`` (a :class:`Config`, or ``bitbox simulate``'s run); ``seating``: the
    run's :class:`Seating` (made here when not given)."""
    if seating is None:
        seating = Seating(config, cartridge)
    namespace = config.namespace
    gseed = seeds.game_seed(namespace, config.seed, index)
    names = seating.names
    kinds = config.seat_bots(index)
    game = seating.game(gseed)
    watch = statistics.watch(game, names) if statistics is not None else None
    answered = getattr(watch, "answered", None)
    bots: dict[Player, Bot] = {}
    bot_seed = seeds.bot_seed
    for k, p in enumerate(names):
        bots[p] = seating.bot(kinds[k], bot_seed(namespace, gseed, k))
    playout = seating.playout
    by_player: Callable[[Player, Prompt, Any], None] | None = None
    if answered is not None:
        seat_of = {p: k for k, p in enumerate(names)}

        def seen_by_seat(player: Player, prompt: Prompt, action: Any) -> None:
            answered(seat_of[player], prompt, action)
        by_player = seen_by_seat
    # The cartridge's own loop when it plays these bots itself (the same game: docs/games.md;
    # it counts the applies), else the protocol's.
    applies = playout(game, bots, watch.events if watch is not None else None, by_player) \
        if playout is not None else None
    if applies is None:
        applied: list[Sequence[GameEvent]] = []         # each apply's events (counted)
        on_events: Callable[[Sequence[GameEvent]], None] = applied.append
        if watch is not None:
            seen = watch.events

            def both(events: Sequence[GameEvent]) -> None:
                applied.append(events)
                seen(events)
            on_events = both
        if answered is not None:
            bots = {p: _Answers(bot, k, answered) for k, (p, bot) in enumerate(bots.items())}
        play(game, bots, on_events)
        applies = len(applied)
    winners = set(game.winners)
    share = 1 / len(winners) if winners else 0.0
    record: Record = {"index": index, "seed": gseed, "bots": kinds,
                      "wins": [share if p in winners else 0.0 for p in names], "prompts": applies}
    if watch is not None:
        record.update(watch.record())
    return record


class Job:
    """:func:`play_one` for a run, as the pool's picklable job: the cartridge goes to the worker
    processes by name (found again there), not by value."""

    def __init__(self, config: Any, cartridge: Cartridge | None = None, with_statistics: bool = True,
                 playout: bool = True) -> None:
        self.config = config
        self.with_statistics = with_statistics
        self.playout = playout
        self._use(cartridge)

    def _use(self, cartridge: Cartridge | None) -> None:
        self.cartridge = cartridge
        self.hook = statistics_of(cartridge) if cartridge is not None and self.with_statistics else None
        self.seating = Seating(self.config, cartridge, self.playout) if cartridge is not None else None

    def __getstate__(self) -> tuple[Any, bool, bool]:
        return self.config, self.with_statistics, self.playout

    def __setstate__(self, state: tuple[Any, bool, bool]) -> None:
        self.config, self.with_statistics, self.playout = state
        self._use(None)

    def __call__(self, index: int) -> Record:
        if self.cartridge is None:
            self._use(find(self.config.game))
        assert self.cartridge is not None
        return play_one(self.config, index, self.cartridge, self.hook, self.seating)


def records(config: Any, workers: int = 1, progress: Progress | None = None, ray: str | None = None,
            on_start: Callable[[int], None] | None = None, cartridge: Cartridge | None = None,
            with_statistics: bool = True, playout: bool = True) -> Iterator[Record]:
    """Every game's record, in game-index order, played on ``workers`` processes, or on Ray's
    pool when ``ray`` is not None (an address, or "" for a Ray instance on this machine:
    :mod:`.cluster`; ``on_start`` gets its number of pool processes): the same records
    either way. ``cartridge``: the one to play in this process (else found by name).
    ``playout``: False plays every game through the protocol, never the cartridge's
    ``playout`` (the same records: a check of it)."""
    job = Job(config, cartridge, with_statistics, playout)
    if ray is not None:
        from . import cluster
        return cluster.run_indexed(job, config.games, ray, progress, on_start)
    return run_indexed(job, config.games, workers, progress)


# --------------------------------------------------------------------------- the result

@dataclass
class Result:
    """A run's figures: the cartridge's :class:`Tally` (``stats``) and ``games.csv`` (``log``)."""

    config: Any
    stats: Any                  # the cartridge's Tally
    seconds: float
    workers: int
    log: GameLog                # games.csv: a row per game
    title: str

    def report(self) -> str:
        """The plain-text report: the run in two lines, the note on rates, the game's tables."""
        return "\n".join([f"{self.title} simulation: {counted(self.stats.games, 'game', 'games')}, "
                          f"{self.config.describe()}", run_line(self.stats.games, self.seconds, self.workers),
                          SMALL_NOTE, self.stats.report(self.config)])

    def to_data(self) -> dict[str, Any]:
        """The configuration and the figures (no timing: the same for the same seed, whatever
        ``--workers``)."""
        return {"config": self.config.to_data(), **self.stats.to_data()}

    def write(self, out: Path) -> list[Path]:
        """The PNG charts, ``results.json`` and ``games.csv`` (a row per game) into ``out``."""
        from .charts import save_figures
        files = save_figures(self.stats.figures(self.config), out)
        data = out / "results.json"
        data.write_text(json.dumps(self.to_data(), indent=1, default=str) + "\n", encoding="utf-8")
        return files + [data, self.log.write(out)]


def csv_columns(statistics: Statistics, players: int) -> list[Column]:
    """``games.csv`` of a game with statistics: the common columns, then the game's own."""
    return [*common_columns(players), *statistics.columns(players)]


def simulate(config: Config, workers: int = 1, progress: TextIO | None = None, ray: str | None = None,
             cartridge: Cartridge | None = None, playout: bool = True) -> Result:
    """Play ``config.games`` games on ``workers`` processes, or on Ray's pool when ``ray`` is
    not None (a cluster's address, or "" for a Ray instance on this machine); ``progress`` is
    the stream for the progress bar (None: no bar). The figures are the same either way.
    ``cartridge``: the cartridge to use in this process (else the one registered under
    ``config.game``); it must have a statistics hook. ``playout``: as for :func:`records`."""
    c = cartridge if cartridge is not None else config.cartridge()
    hook = statistics_of(c)
    if hook is None:
        raise ValueError(f"{c.name} has no statistics hook (bitbox simulate {c.name} gives its win rates)")
    bar = Progress(config.games, progress) if progress is not None else None
    start = time.perf_counter()
    stats = hook.tally(config)
    log = GameLog(csv_columns(hook, config.players))
    colours = player_names(c, config.players)
    used = [workers]
    try:
        for record in records(config, workers, bar, ray, lambda n: used.__setitem__(0, n), c, playout=playout):
            stats.add(record)
            log.add({**common_row(record["index"], record["seed"], record["bots"], record["wins"], colours,
                                  record.get("turns")), **hook.row(record)})
    finally:
        if bar:
            bar.close()
    return Result(config, stats, time.perf_counter() - start, used[0], log, c.title)


__all__ = ["Config", "Job", "Record", "Result", "Seating", "Statistics", "Tally", "Watch", "csv_columns", "play_one",
           "records", "simulate", "statistics_of"]
