"""The simulation harness: many games with bots, reproducible from one seed.

* :mod:`.seeds`: each game's and each seat's seed derived from the run seed;
* :mod:`.pool`: games on worker processes, results in game-index order;
* :mod:`.progress`: a progress bar;
* :mod:`.report`: plain-text tables and the run line of a report;
* :mod:`.games`: any registered cartridge played by its bots, with win rates by seat and bot
  (``bitbox simulate GAME``). A game adds its own statistics on top (``outspeed simulate``);
* :mod:`.cli`: what every ``simulate`` command shares (the common options, their checks,
  the cap on workers, Ctrl-C/SIGTERM, ``--ray``, ``--out``, printing the report).
"""
from __future__ import annotations

from .pool import default_workers, run_indexed
from .progress import Progress
from .seeds import bot_seed, derive, game_seed

__all__ = ["Progress", "bot_seed", "default_workers", "derive", "game_seed", "run_indexed"]
