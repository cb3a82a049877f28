"""Play many games with bots: seeds, one game's record, and the parallel runner.

Determinism: game ``i`` of a run seeded ``S`` is seeded from ``(S, i)`` and the bot in seat
``k`` of that game from ``(game seed, k)`` (:func:`game_seed`, :func:`bot_seed`); records
come back in game-index order whatever the number of worker processes, and are aggregated
in that order, so a run's report is the same for any ``--workers``.
"""
from __future__ import annotations

import hashlib
import multiprocessing
import contextlib
import os
import signal
import sys
import time
from dataclasses import dataclass
from typing import Any, Iterator, TextIO

from bitbox.colours import SEAT_COLOURS

from ..bots import BOTS, make_bot, play_game
from ..rules import EventKind, Game
from ..rules.game import MAX_PLAYERS, MIN_PLAYERS

COLOURS = SEAT_COLOURS


@dataclass(frozen=True)
class SimConfig:
    """What to simulate. ``bots`` are cycled over the seats; with ``rotate`` the cycle starts
    one seat further in each game, so every bot sits in every seat equally often."""

    games: int
    players: int = 4
    bots: tuple[str, ...] = ("random",)
    seed: int = 0
    first_game: bool = False
    rotate: bool = True

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"the number of games must be 1 or more, not {self.games}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"Outspeed is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players}")
        if not self.bots:
            raise ValueError("name at least one bot")
        unknown = [b for b in self.bots if b not in BOTS]
        if unknown:
            raise ValueError(f"unknown bot {unknown[0]!r} (known: {', '.join(BOTS)})")

    def seat_bots(self, index: int) -> list[str]:
        """The bot name in each seat of game ``index``."""
        shift = index if self.rotate else 0
        return [self.bots[(k + shift) % len(self.bots)] for k in range(self.players)]


def _derive(*parts: Any) -> int:
    digest = hashlib.sha256("/".join(map(str, ("outspeed-simulate",) + parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def game_seed(seed: int, index: int) -> int:
    return _derive(seed, index)


def bot_seed(seed_of_game: int, seat: int) -> int:
    return _derive(seed_of_game, "seat", seat)


def play_one(config: SimConfig, content, index: int) -> dict[str, Any]:
    """Play game ``index`` of the run; return its record (plain data, cheap to pickle)."""
    gseed = game_seed(config.seed, index)
    names = COLOURS[: config.players]
    seat_of = {p: k for k, p in enumerate(names)}
    game = Game.new(names, content.tiles, seed=gseed, first_game=config.first_game, dice=content.dice,
                    token_counts=content.token_counts, markers=content.markers)
    kinds = config.seat_bots(index)
    bots = {p: make_bot(kinds[k], bot_seed(gseed, k), dice=content.dice) for k, p in enumerate(names)}
    turns: list[list[Any]] = []        # [tile number, face, [[seat, path], ...]]
    end = ["finish"]
    s = game.state

    def record(events) -> None:
        for e in events:
            if e.kind == EventKind.TURN:
                turns.append([s.tile.number, e.data["face"], []])
            elif e.kind == EventKind.PROGRAMMED:
                turns[-1][2].append([seat_of[e.data["player"]], e.data["path"]])
            elif e.kind == EventKind.GAME_OVER:
                end[0] = "last ship" if e.data.get("why") == "last ship" else "finish" if e.data["winners"] else "nobody"

    play_game(game, bots, record)
    shares = {seat_of[p]: 1 / len(s.winners) for p in s.winners}
    # Finishing place: survivors by (zone, fuel, tokens), equal keys share a place; then the
    # eliminated, the last one out first.
    keys = sorted(((s.zone[p], s.fuel[p], len(s.held[p])) for p in s.active), reverse=True)
    place = {seat_of[p]: keys.index((s.zone[p], s.fuel[p], len(s.held[p]))) + 1 for p in s.active}
    for n, (p, _, _) in enumerate(reversed(s.eliminated)):
        place[seat_of[p]] = len(s.active) + n + 1
    return {
        "index": index,
        "seed": gseed,
        "bots": kinds,
        "wins": [shares.get(k, 0.0) for k in range(config.players)],
        "zone": [s.zone.get(p) if p in s.active else None for p in names],
        "place": [place[k] for k in range(config.players)],
        "eliminated": [[seat_of[p], cause, turn] for p, cause, turn in s.eliminated],
        "turns": s.turn,
        "end": end[0],
        "picks": turns,
    }


# --------------------------------------------------------------------------- parallel

_worker: dict[str, Any] = {}


def _init_worker(config: SimConfig) -> None:
    # Ctrl-C reaches every process of the terminal's group: the main process alone stops the
    # run (and ends the workers); a worker with a KeyboardInterrupt would print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from ..content import load_content
    _worker["config"] = config
    _worker["content"] = load_content()


def _play_range(bounds: tuple[int, int]) -> list[dict[str, Any]]:
    config, content = _worker["config"], _worker["content"]
    return [play_one(config, content, i) for i in range(*bounds)]


def run_games(config: SimConfig, workers: int = 1, content=None,
              progress: "Progress | None" = None) -> Iterator[dict[str, Any]]:
    """Yield every game's record, in game-index order, played on ``workers`` processes."""
    if workers <= 1 or config.games < 2:
        if content is None:
            from ..content import load_content
            content = load_content()
        for i in range(config.games):
            yield play_one(config, content, i)
            if progress:
                progress.update(1)
        return
    chunk = max(1, min(100, config.games // (workers * 20)))
    bounds = [(a, min(a + chunk, config.games)) for a in range(0, config.games, chunk)]
    ctx = multiprocessing.get_context("spawn")
    with _sigint_ignored():                 # workers start with Ctrl-C ignored, even while importing
        pool = ctx.Pool(min(workers, len(bounds)), initializer=_init_worker, initargs=(config,))
    with pool:
        for records in pool.imap(_play_range, bounds):
            yield from records
            if progress:
                progress.update(len(records))


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT while worker processes are started (they inherit it), then restore it."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:                      # not the main thread: nothing to do
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where known)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class Progress:
    """A text progress bar on a stream (stderr): redrawn in place on a terminal, a line per
    10 % otherwise."""

    def __init__(self, total: int, stream: TextIO | None = None, width: int = 30, label: str = "games") -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.width = width
        self.label = label
        self.done = 0
        self.start = time.perf_counter()
        self._last = 0.0
        self._tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._decile = -1

    def update(self, n: int) -> None:
        self.done += n
        now = time.perf_counter()
        if self._tty:
            if now - self._last >= 0.1 or self.done >= self.total:
                self._last = now
                self.stream.write("\r" + self.line(now))
                self.stream.flush()
        else:
            decile = self.done * 10 // self.total
            if decile > self._decile:
                self._decile = decile
                self.stream.write(self.line(now) + "\n")
                self.stream.flush()

    def line(self, now: float | None = None) -> str:
        elapsed = (now or time.perf_counter()) - self.start
        frac = self.done / self.total if self.total else 1.0
        filled = int(frac * self.width)
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        bar = "#" * filled + "-" * (self.width - filled)
        return f"[{bar}] {frac:4.0%} {self.done}/{self.total} {self.label}  {rate:,.0f}/s  eta {eta:.0f}s "

    def close(self) -> None:
        if self._tty:
            self.stream.write("\n")
            self.stream.flush()


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


__all__ = ["COLOURS", "Progress", "SimConfig", "bot_seed", "default_workers", "game_seed", "play_one", "run_games",
           "usable_cores"]
