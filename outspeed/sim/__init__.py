"""Outspeed's statistics on the console's simulation runner (:mod:`bitbox.simulation.runner`).

``outspeed simulate`` (see docs/simulate.md) is the console's command (:mod:`bitbox.simulation.command`)
with the cartridge's ``simulation`` member (:data:`SIMULATION`: its run, :class:`.runner.SimConfig`,
its default games and description, its option ``--first-game``); what is Outspeed's own is its statistics hook (:class:`.runner.Statistics`: the record of a game,
its ``games.csv`` columns), its figures (:mod:`.stats`), their tables (:mod:`.report`) and
charts (:mod:`.charts`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TextIO

from bitbox.games import JSON
from bitbox.simulation.command import DEFAULT_PLAYERS, Simulation

from ..content import ConfigError

if TYPE_CHECKING:
    from bitbox.simulation.runner import Result as SimResult

    from ..content import Content
    from .runner import COLOURS, Progress, SimConfig, bot_seed, game_seed, lit_paths, play_one, run_games
    from .stats import Stats

# The runner (and with it the worker pool and multiprocessing) is imported on first use, not
# when `outspeed` builds its command line: `outspeed play` never needs it.
_LAZY = {"COLOURS": "runner", "Progress": "runner", "SimConfig": "runner", "bot_seed": "runner",
         "game_seed": "runner", "lit_paths": "runner", "play_one": "runner", "run_games": "runner",
         "Stats": "stats"}


def __getattr__(name: str) -> Any:
    if name == "SimResult":
        from bitbox.simulation.runner import Result
        return Result
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value


def _config(games: int, players: int, bots: tuple[str, ...], seed: int, rotate: bool,
            options: Mapping[str, JSON]) -> "SimConfig":
    from .runner import SimConfig
    return SimConfig(games=games, players=players, bots=bots, seed=seed, first_game=bool(options.get("first_game")),
                     rotate=rotate)


#: ``outspeed simulate`` (the cartridge's ``simulation``): its run, defaults and option.
SIMULATION = Simulation(
    _config, games=1000, players=DEFAULT_PLAYERS, options=("first_game",), refused=(ConfigError,),
    description="Play N games with bots, in parallel, and report win rates by seat and bot, finishing zones, "
                "eliminations by cause, path pick rates and win contributions, and game length. The same --seed "
                "gives the same report whatever --workers.")


def simulate(config: SimConfig, workers: int = 1, progress: TextIO | None = None, content: Content | None = None,
             ray: str | None = None) -> SimResult:
    """Play ``config.games`` games on ``workers`` processes, or on Ray's pool when ``ray`` is
    not None (a cluster's address, or "" for a Ray instance on this machine); ``progress`` is
    the stream for the progress bar (None: no bar). The figures are the same either way."""
    from bitbox.simulation import runner

    from ..cartridge import OutspeedCartridge
    return runner.simulate(config, workers, progress, ray, OutspeedCartridge(content))


__all__ = ["COLOURS", "Progress", "SIMULATION", "SimConfig", "SimResult", "Stats", "bot_seed", "game_seed", "lit_paths",
           "play_one", "run_games", "simulate"]
