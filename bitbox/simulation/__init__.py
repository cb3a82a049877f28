"""The simulation harness: many games with bots, reproducible from one seed.

* :mod:`.seeds`: each game's and each seat's seed derived from the run seed;
* :mod:`.pool`: games on worker processes, results in game-index order;
* :mod:`.progress`: a progress bar (``rich``'s on a terminal, a line per 10 % elsewhere);
* :mod:`.report`: plain-text tables (laid out by ``rich``), rate cells and the run line;
* :mod:`.rates`: the 95 % Wilson score interval and the small-sample flag of every rate;
* :mod:`.gamelog`: ``games.csv``, a row per game (the common columns, then the game's own);
* :mod:`.charts`: what every chart shares (rate bars with intervals, whole-turn ticks);
* :mod:`.runner`: the one runner: any cartridge's games played by its bots through the game
  protocol, with the cartridge's statistics hook when it gives one (docs/games.md);
* :mod:`.tally`: the games and wins of each seat and bot, for a game's statistics;
* :mod:`.games`: the win rates by seat and bot of a cartridge with no ``simulation`` member;
* :mod:`.command`: every game's ``simulate`` command (``NAME simulate``, ``bitbox simulate NAME``),
  built from its cartridge (its options, its optional ``simulation`` member and statistics hook);
* :mod:`.cli`: what every ``simulate`` command shares (the common options, their checks,
  the cap on workers, Ctrl-C/SIGTERM, ``--ray``, ``--out``, printing the report).
"""
from __future__ import annotations

from .pool import default_workers, run_indexed
from .progress import Progress
from .seeds import bot_seed, derive, game_seed

__all__ = ["Progress", "bot_seed", "default_workers", "derive", "game_seed", "run_indexed"]
