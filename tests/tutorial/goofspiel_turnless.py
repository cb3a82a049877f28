"""The tutorial game without its optional ``turn`` member (docs/games.md, Step 1: "without it:
each answer is a turn"), for tests/tutorial/test_turnless_game.py: the same cartridge and
rules, registered under the same name, whose games do not number their turns."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from goofspiel import Goofspiel, GoofspielCartridge

from bitbox.games import JSON, Player


class TurnlessGoofspiel(Goofspiel):
    turn = None                             # type: ignore[assignment]  # no turn of its own


class TurnlessCartridge(GoofspielCartridge):
    def new(self, players: Sequence[Player], seed: int, options: Mapping[str, JSON]) -> Goofspiel:
        game = super().new(players, seed, options)
        game.__class__ = TurnlessGoofspiel
        return game

    def from_data(self, data: Mapping[str, JSON]) -> Goofspiel:
        game = super().from_data(data)
        game.__class__ = TurnlessGoofspiel
        return game


CARTRIDGE = TurnlessCartridge()
