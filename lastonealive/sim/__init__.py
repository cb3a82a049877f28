"""Last One Alive's statistics on the console's simulation runner (:mod:`bitbox.simulation.runner`).

``lastonealive simulate`` (see docs/simulate.md) is the console's command
(:mod:`bitbox.simulation.command`) with the cartridge's ``simulation`` member (:data:`SIMULATION`:
its run, :class:`.runner.SimConfig`, its default games and description; its options are the
cartridge's, ``--variant`` and ``--first-zombie``); what is Last One Alive's own is its statistics hook (:class:`.runner.Statistics`: the record of
a game, its ``games.csv`` columns), its figures (:mod:`.stats`), their tables (:mod:`.report`)
and charts (:mod:`.charts`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

from bitbox.games import JSON
from bitbox.simulation.command import DEFAULT_PLAYERS, Simulation
from bitbox.simulation.runner import Result as SimResult
from bitbox.simulation.runner import simulate as _simulate

from .runner import SIM_VARIANTS, SimConfig, bot_seed, game_seed, play_one, run_games
from .stats import Stats


def _config(games: int, players: int, bots: tuple[str, ...], seed: int, rotate: bool,
            options: Mapping[str, JSON]) -> SimConfig:
    variants = tuple(name for name, on in options.items() if name in SIM_VARIANTS and on is True)  # as given
    return SimConfig(games=games, players=players, bots=bots, seed=seed, variants=variants,
                     first_zombie=str(options.get("first_zombie", "each")), rotate=rotate)


#: ``lastonealive simulate`` (the cartridge's ``simulation``): its run, defaults and description.
SIMULATION = Simulation(
    _config, games=500, players=DEFAULT_PLAYERS,
    description="Play N games of Last One Alive with bots, in parallel, and report win rates by seat and bot, "
                "turns survived, game length, the apocalypse level over time, and how each token is used and pays "
                "off. The same --seed gives the same figures whatever --workers.")


def simulate(config: SimConfig, workers: int = 1, progress: TextIO | None = None,
             ray: str | None = None) -> SimResult:
    """Play ``config.games`` games on ``workers`` processes, or on Ray's pool when ``ray`` is
    not None (a cluster's address, or "" for a Ray instance on this machine); ``progress`` is
    the stream for the progress bar (None: no bar). The figures are the same either way."""
    return _simulate(config, workers, progress, ray)


__all__ = ["SIMULATION", "SimConfig", "SimResult", "Stats", "bot_seed", "game_seed", "play_one", "run_games", "simulate"]
