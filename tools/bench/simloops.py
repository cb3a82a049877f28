"""The loops the ``research`` section's simulate rows compare (:mod:`.research`), in a module of
their own (light: no numpy) so that ``--instructions`` counts them in fresh interpreters
without the environments' imports.

* :func:`engine_loop`: the run's games played by the rules engine and its random bots in a
  plain loop (``outspeed.bots.play_game``), the baseline;
* :func:`protocol_loop`: the same games through the game protocol alone (``bitbox.bots.play``);
* ``bitbox simulate`` itself is :func:`bitbox.simulation.games.records`.
"""
from __future__ import annotations

import time
from typing import Any

from bitbox.bots import play
from bitbox.games import find
from bitbox.games.conformance import player_names

def same_games(run: Any) -> tuple[tuple[str, ...], list[int], list[list[int]]]:
    """The players, and each game's seed and its seats' bot seeds, as ``bitbox simulate``
    derives them for ``run`` (:mod:`bitbox.simulation.seeds`): the baselines play the very
    games the simulation plays."""
    from bitbox.simulation import seeds
    names = player_names(find(run.game), run.players)
    game_seeds = [seeds.game_seed(run.namespace, run.seed, i) for i in range(run.games)]
    bot_seeds = [[seeds.bot_seed(run.namespace, g, k) for k in range(run.players)] for g in game_seeds]
    return names, game_seeds, bot_seeds


def wins(winners: Any, names: Any) -> list[float]:
    won = set(winners)
    return [1 / len(won) if p in won else 0.0 for p in names]


def engine_loop(run: Any, same: Any) -> tuple[float, list[list[float]], float]:
    """Outspeed games/s of the rules engine and its random bots in a plain loop
    (``outspeed.bots.play_game``: no cartridge, no protocol, no harness), the run's games with
    the run's seeds; each game's shares of the win; and games per CPU second (this process's
    time: less moved by other work on the machine than the wall clock)."""
    from outspeed.bots import RandomBot as EngineBot
    from outspeed.bots import play_game
    from outspeed.content import load_content
    from outspeed.rules import Game
    c = load_content()
    names, game_seeds, bot_seeds = same
    shares = []
    c0, t0 = time.process_time(), time.perf_counter()
    for g, b in zip(game_seeds, bot_seeds):
        game = Game.new(names, c.tiles, seed=g, dice=c.dice, token_counts=c.token_counts, markers=c.markers)
        play_game(game, {p: EngineBot(b[k]) for k, p in enumerate(names)})
        shares.append(game.state.winners)
    rate, cpu = len(game_seeds) / (time.perf_counter() - t0), len(game_seeds) / (time.process_time() - c0)
    return rate, [wins(w, names) for w in shares], cpu


def protocol_loop(run: Any, same: Any) -> tuple[float, float]:
    """Games/s (and games per CPU second) of the same games through the game protocol alone:
    the cartridge's games and its random bots (``bitbox.bots.play``, each bot made as the
    runner makes it), no harness (no seeds derived, no records)."""
    from bitbox.simulation.runner import Seating
    cartridge = find(run.game)
    seating = Seating(run, cartridge)
    names, game_seeds, bot_seeds = same
    c0, t0 = time.process_time(), time.perf_counter()
    for g, b in zip(game_seeds, bot_seeds):
        play(cartridge.new(names, g, {}), {p: seating.bot("random", b[k]) for k, p in enumerate(names)})
    return len(game_seeds) / (time.perf_counter() - t0), len(game_seeds) / (time.process_time() - c0)


# The loops counted by research.instructions(): each a script run with the number of games (and the
# players' names, unused: the run says them), on the research section's run (seed 3, 4 random
# players). A first game, counted in both runs (N games and none), does any late import.
PRELUDE = """
import sys
from bitbox.simulation.games import Run
from bitbox_tools.bench.simloops import same_games
n = int(sys.argv[1])
run = Run("outspeed", n + 1, 4, ("random",), seed=3)
same = same_games(run)
"""
INSTRUCTION_SCRIPTS = {
    "engine loop": PRELUDE + "from bitbox_tools.bench.simloops import engine_loop\nengine_loop(run, same)\n",
    "protocol loop": PRELUDE + "from bitbox_tools.bench.simloops import protocol_loop\nprotocol_loop(run, same)\n",
    "simulate": PRELUDE + "from bitbox.simulation.games import records\nlist(records(run))\n",
    "simulate, protocol only": PRELUDE + "from bitbox.simulation.games import records\n"
                                         "list(records(run, playout=False))\n",
}


