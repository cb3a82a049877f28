"""Large-scale simulation: many games with bots, in parallel, with reports and charts.

``outspeed simulate`` (see docs/simulate.md) is :func:`simulate` plus argument checking.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bitbox.simulation.gamelog import GameLog

if TYPE_CHECKING:
    from .runner import COLOURS, Progress, SimConfig, bot_seed, game_seed, play_one, run_games
    from .stats import Stats

# The runner (and with it the worker pool and multiprocessing) is imported on first use, not
# when `outspeed` builds its command line: `outspeed play` never needs it.
_LAZY = {"COLOURS": "runner", "Progress": "runner", "SimConfig": "runner", "bot_seed": "runner",
         "game_seed": "runner", "play_one": "runner", "run_games": "runner", "Stats": "stats"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value


@dataclass
class SimResult:
    config: SimConfig
    stats: Stats
    seconds: float
    workers: int
    lit: dict[tuple[int, str], tuple[str, ...]]
    log: GameLog            # games.csv: a row per game

    def report(self) -> str:
        from .report import render
        return render(self.stats, self.config, seconds=self.seconds, workers=self.workers, lit=self.lit)

    def to_data(self) -> dict:
        return {"config": {"games": self.config.games, "players": self.config.players,
                           "bots": list(self.config.bots), "seed": self.config.seed,
                           "first_game": self.config.first_game, "rotate": self.config.rotate},
                **self.stats.to_data(self.lit)}

    def write(self, out: Path) -> list[Path]:
        """The PNG charts, ``results.json`` and ``games.csv`` (a row per game) into ``out``."""
        from .charts import write_charts
        files = write_charts(self.stats, self.config, out, self.lit)
        data = out / "results.json"
        data.write_text(json.dumps(self.to_data(), indent=1, default=str) + "\n", encoding="utf-8")
        return files + [data, self.log.write(out)]


def lit_paths(content) -> dict[tuple[int, str], tuple[str, ...]]:
    return {(t.number, face): tuple(paths) for t in content.tiles for face, paths in t.faces.items()}


def simulate(config: SimConfig, workers: int = 1, progress: TextIO | None = None, content=None,
             ray: str | None = None) -> SimResult:
    """Play ``config.games`` games on ``workers`` processes, or on Ray's pool when ``ray`` is
    not None (a cluster's address, or "" for a Ray instance on this machine); ``progress`` is
    the stream for the progress bar (None: no bar). The figures are the same either way."""
    from .runner import Progress, csv_columns, csv_row, run_games
    from .stats import Stats
    if content is None:
        from ..content import load_content
        content = load_content()
    bar = Progress(config.games, progress) if progress is not None else None
    start = time.perf_counter()
    stats = Stats(config.players)
    log = GameLog(csv_columns(config.players))
    used = [workers]
    try:
        for record in run_games(config, workers, content, bar, ray, lambda n: used.__setitem__(0, n)):
            stats.add(record)
            log.add(csv_row(record))
    finally:
        if bar:
            bar.close()
    workers = used[0]
    seconds = time.perf_counter() - start
    return SimResult(config, stats, seconds, workers, lit_paths(content), log)


__all__ = ["COLOURS", "Progress", "SimConfig", "SimResult", "Stats", "bot_seed", "game_seed", "lit_paths",
           "play_one", "run_games", "simulate"]

