"""The Last One Alive rules engine: pure and deterministic (see :mod:`lastonealive.rules.game`).

This package imports nothing of the rest of the project.
"""
from .events import Event
from .game import (APOCALYPSE_TOKENS, BANGS, DEFAULT_COUNTS, DEFAULT_FACES, DEFAULT_MIX, FACES, HELD,
                   MAX_PLAYERS, MIN_PLAYERS, OBJECTS, REFUSAL_CODES, REFUSAL_TEXT, SYMBOLS, TYPES, UNSTARTED,
                   VARIANTS, Action, Die, ForcedRollError, Game, GameState, Legal, Prompt, Refused, RulesError)

__all__ = [
    "APOCALYPSE_TOKENS", "Action", "BANGS", "DEFAULT_COUNTS", "DEFAULT_FACES", "DEFAULT_MIX", "Die", "Event",
    "FACES", "ForcedRollError", "Game", "GameState", "HELD", "Legal", "MAX_PLAYERS", "MIN_PLAYERS", "OBJECTS",
    "Prompt", "REFUSAL_CODES", "REFUSAL_TEXT", "Refused", "RulesError", "SYMBOLS", "TYPES", "UNSTARTED", "VARIANTS",
]
