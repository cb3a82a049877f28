"""The Outspeed rules engine: pure and deterministic (see :mod:`outspeed.rules.game`).

This package imports nothing of the rest of the project.
"""
from .events import Event, EventKind
from .game import (DEFAULT_DICE, DEFAULT_TOKEN_COUNTS, REFUSAL_CODES, REFUSAL_TEXT, TOKENS, UNKNOWN,
                   Choice, Game, GameState, Refused, RulesError)
from .tiles import FACES, PATHS, Amount, Effect, Path, Tile, TileError, parse_tile

__all__ = [
    "Amount", "Choice", "DEFAULT_DICE", "DEFAULT_TOKEN_COUNTS", "Effect", "Event", "EventKind", "FACES", "Game",
    "GameState", "PATHS", "Path", "REFUSAL_CODES", "REFUSAL_TEXT", "Refused", "RulesError", "TOKENS",
    "Tile", "TileError", "UNKNOWN", "parse_tile",
]
