"""Games on the console: the protocol every cartridge implements, the registry that finds
cartridges by name, seeded chance, a base for cartridges (:mod:`.base`), the scenario runner
and the conformance test.

The console imports no game: a cartridge declares itself in its distribution's entry points
(group ``bitbox.games``) and :func:`find` loads it by name.
"""
from __future__ import annotations

from .protocol import (JSON, Action, Cartridge, Game, GameError, GameEvent, OptionError, OptionSpec, Player,
                       Prompt, Refusal, check_options, check_players, redeal_keeping)
from .registry import UnknownGame, cartridges, find, names

__all__ = ["JSON", "Action", "Cartridge", "Game", "GameError", "GameEvent", "OptionError", "OptionSpec",
           "Player", "Prompt", "Refusal", "UnknownGame",
           "cartridges", "check_options", "check_players", "find", "names", "redeal_keeping"]
