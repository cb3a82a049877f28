"""The tutorial game with one more rule, for tests/tutorial/test_turns_without_an_answer.py:
the prize 1 is not bid for: when it is turned up (and more prizes are left) it is set aside
and the next prize is turned up at once. The answer that turns it up so ends two rounds, the
second with no answer of its own (as a press-your-luck game's stop can end the next players'
turns too): the table gives each round a snapshot, the replay each round a frame."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from goofspiel import Event, Goofspiel, GoofspielCartridge

from bitbox.games import JSON, Player


class SkippingGoofspiel(Goofspiel):
    def _turn_up(self) -> list[Event]:
        return self.set_aside(super()._turn_up())

    def set_aside(self, events: list[Event]) -> list[Event]:
        """The prize 1 just turned up set aside, the next one turned up (``events`` and theirs)."""
        if self.prize == 1 and self.pile:
            events.append(Event("set_aside", {"card": 1, "round": self.round}))
            events += super()._turn_up()
        return events


class SkippingCartridge(GoofspielCartridge):
    def new(self, players: Sequence[Player], seed: int, options: Mapping[str, JSON]) -> Goofspiel:
        game = super().new(players, seed, options)
        game.__class__ = SkippingGoofspiel
        assert isinstance(game, SkippingGoofspiel)
        game.set_aside([])                  # a first prize of 1 is set aside too
        return game

    def from_data(self, data: Mapping[str, JSON]) -> Goofspiel:
        game = super().from_data(data)
        game.__class__ = SkippingGoofspiel
        return game


CARTRIDGE = SkippingCartridge()
