"""PettingZoo environments for the console's games (the optional extra ``research``).

    pip install ".[research]"

:class:`GameParallelEnv` and :class:`GameAECEnv` play any cartridge whose distribution
declares a research encoding (entry points ``bitbox.research``: Outspeed and Last One
Alive); :func:`parallel_env` and :func:`aec_env` make them by game name. docs/research.md
documents the actions, the observations (their layout per game), rewards and seeding, with
an example.
"""
from __future__ import annotations

from typing import Any

INSTALL = 'pip install ".[research]"  (pettingzoo, gymnasium, numpy)'


def missing() -> str | None:
    """None when the research extra is installed, else one line saying how to install it."""
    import importlib.util
    for module in ("numpy", "gymnasium", "pettingzoo"):
        if importlib.util.find_spec(module) is None:
            return f"the research environments need {module}: {INSTALL}"
    return None


def parallel_env(game: str = "outspeed", players: Any = 4, options: Any = None, **kwargs: Any):
    """A :class:`~bitbox.research.envs.GameParallelEnv` of ``game``."""
    from .envs import GameParallelEnv
    return GameParallelEnv(game, players, options, **kwargs)


def aec_env(game: str = "lastonealive", players: Any = 3, options: Any = None, **kwargs: Any):
    """A :class:`~bitbox.research.envs.GameAECEnv` of ``game``."""
    from .envs import GameAECEnv
    return GameAECEnv(game, players, options, **kwargs)


def __getattr__(name: str) -> Any:
    if name in ("GameParallelEnv", "GameAECEnv", "BotPolicy"):
        from . import envs
        return getattr(envs, name)
    if name in ("Table", "find_encoding"):
        from . import table
        return getattr(table, name)
    raise AttributeError(name)


__all__ = ["BotPolicy", "GameAECEnv", "GameParallelEnv", "INSTALL", "Table", "aec_env", "find_encoding", "missing",
           "parallel_env"]
