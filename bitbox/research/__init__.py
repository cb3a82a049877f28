"""PettingZoo environments for the console's games (the optional extra ``research``).

    pip install ".[research]"

:class:`GameParallelEnv` and :class:`GameAECEnv` play any cartridge whose distribution
declares a research encoding (entry points ``bitbox.research``: Outspeed and Last One
Alive); :func:`parallel_env` and :func:`aec_env` make them by game name. As PettingZoo's own
environments, each game also has a versioned maker, ``<game>_v0`` (``outspeed_v0``,
``lastonealive_v0``, any other installed game with an encoding), with ``env()`` (the AEC
environment), ``parallel_env()`` and ``raw_env()``; :func:`make` takes the id as a string.
docs/research.md documents the actions, the observations (their layout per game), rewards
and seeding, with examples. :mod:`bitbox.research.openspiel` (the extra ``openspiel``) makes
the same games OpenSpiel games.
"""
from __future__ import annotations

from typing import Any

INSTALL = 'pip install ".[research]"  (pettingzoo, gymnasium, numpy, supersuit)'


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


VERSION = "v0"


class Maker:
    """A game's environments under a versioned id (``outspeed_v0``), as PettingZoo's own
    environment modules: ``env()`` and ``raw_env()`` make the AEC environment,
    ``parallel_env()`` the parallel one; each takes ``players``, ``options``,
    ``render_mode``, ``max_cycles`` and ``flat``."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.name = f"{game}_{VERSION}"

    def env(self, **kwargs: Any):
        return aec_env(self.game, **{"players": _default_players(self.game), **kwargs})

    raw_env = env

    def parallel_env(self, **kwargs: Any):
        return parallel_env(self.game, **{"players": _default_players(self.game), **kwargs})

    def __repr__(self) -> str:
        return f"<bitbox.research {self.name}>"


def _default_players(game: str) -> int:
    """4 players when the game takes 4, else the nearest count it takes."""
    from ..games import find
    cartridge = find(game)
    return min(max(4, cartridge.min_players), cartridge.max_players)


def make(env_id: str, parallel: bool = False, **kwargs: Any):
    """The environment ``env_id`` (``"outspeed_v0"``): the AEC one, or with
    ``parallel=True`` the parallel one; ``kwargs`` as :class:`Maker`'s."""
    maker = _maker(env_id)
    if maker is None:
        from ..games import GameError
        raise GameError(f"no environment called {env_id!r} (the ids are <game>_{VERSION}: "
                        f"{', '.join(env_ids()) or 'none'})")
    return maker.parallel_env(**kwargs) if parallel else maker.env(**kwargs)


def env_ids() -> list[str]:
    """The versioned ids of every installed game with a research encoding."""
    from ..games import names
    from .table import research_entry_points
    return sorted(f"{name}_{VERSION}" for name in research_entry_points() if name in set(names()))


def _maker(name: str) -> Maker | None:
    suffix = f"_{VERSION}"
    if isinstance(name, str) and name.endswith(suffix) and name in env_ids():     # make(5): not an id, one line
        return Maker(name[:-len(suffix)])
    return None


def __getattr__(name: str) -> Any:
    if not name.startswith("_"):
        maker = _maker(name)
        if maker is not None:
            return maker
    if name in ("GameParallelEnv", "GameAECEnv", "BotPolicy"):
        from . import envs
        return getattr(envs, name)
    if name in ("Table", "find_encoding"):
        from . import table
        return getattr(table, name)
    raise AttributeError(name)


__all__ = ["BotPolicy", "GameAECEnv", "GameParallelEnv", "INSTALL", "Maker", "Table", "aec_env", "env_ids",
           "find_encoding", "make", "missing", "parallel_env"]
