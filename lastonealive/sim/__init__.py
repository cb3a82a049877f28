"""Last One Alive's statistics on the console's simulation runner (:mod:`bitbox.simulation.runner`).

``lastonealive simulate`` (see docs/simulate.md) is :func:`simulate` plus argument checking;
what is Last One Alive's own is its statistics hook (:class:`.runner.Statistics`: the record of
a game, its ``games.csv`` columns), its figures (:mod:`.stats`), their tables (:mod:`.report`)
and charts (:mod:`.charts`).
"""
from __future__ import annotations

from typing import TextIO

from bitbox.simulation.runner import Result as SimResult
from bitbox.simulation.runner import simulate as _simulate

from .runner import SimConfig, bot_seed, game_seed, play_one, run_games
from .stats import Stats


def simulate(config: SimConfig, workers: int = 1, progress: TextIO | None = None,
             ray: str | None = None) -> SimResult:
    """Play ``config.games`` games on ``workers`` processes, or on Ray's pool when ``ray`` is
    not None (a cluster's address, or "" for a Ray instance on this machine); ``progress`` is
    the stream for the progress bar (None: no bar). The figures are the same either way."""
    return _simulate(config, workers, progress, ray)


__all__ = ["SimConfig", "SimResult", "Stats", "bot_seed", "game_seed", "play_one", "run_games", "simulate"]
