"""Large-scale simulation of Last One Alive: many games with bots, in parallel, with reports
and charts, on the console's harness (:mod:`bitbox.simulation`).

``lastonealive simulate`` (see docs/simulate.md) is :func:`simulate` plus argument checking.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bitbox.simulation.gamelog import GameLog
from bitbox.simulation.progress import Progress

from .runner import SimConfig, bot_seed, csv_columns, csv_row, game_seed, play_one, run_games
from .stats import Stats


@dataclass
class SimResult:
    config: SimConfig
    stats: Stats
    seconds: float
    workers: int
    log: GameLog            # games.csv: a row per game

    def report(self) -> str:
        from .report import render
        return render(self.stats, self.config, seconds=self.seconds, workers=self.workers)

    def to_data(self) -> dict[str, Any]:
        """The figures as data (no timing: the same for the same seed, whatever ``--workers``)."""
        c = self.config
        return {"config": {"games": c.games, "players": c.players, "bots": list(c.bots), "seed": c.seed,
                           "variants": list(c.variants), "first_zombie": c.first_zombie, "rotate": c.rotate},
                **self.stats.to_data()}

    def write(self, out: Path) -> list[Path]:
        """The PNG charts, ``results.json`` and ``games.csv`` (a row per game) into ``out``."""
        from .charts import write_charts
        files = write_charts(self.stats, self.config, out)
        data = out / "results.json"
        data.write_text(json.dumps(self.to_data(), indent=1) + "\n", encoding="utf-8")
        return files + [data, self.log.write(out)]


def simulate(config: SimConfig, workers: int = 1, progress: TextIO | None = None,
             ray: str | None = None) -> SimResult:
    """Play ``config.games`` games on ``workers`` processes, or on Ray's pool when ``ray`` is
    not None (a cluster's address, or "" for a Ray instance on this machine); ``progress`` is
    the stream for the progress bar (None: no bar). The figures are the same either way."""
    bar = Progress(config.games, progress) if progress is not None else None
    start = time.perf_counter()
    stats = Stats(config.players)
    log = GameLog(csv_columns(config.players))
    used = [workers]
    try:
        for record in run_games(config, workers, bar, ray, lambda n: used.__setitem__(0, n)):
            stats.add(record)
            log.add(csv_row(record))
    finally:
        if bar:
            bar.close()
    workers = used[0]
    seconds = time.perf_counter() - start
    return SimResult(config, stats, seconds, workers, log)


__all__ = ["SimConfig", "SimResult", "Stats", "bot_seed", "game_seed", "play_one", "run_games", "simulate"]
