"""The tutorial game with one more rule, for tests/tutorial/test_turns_without_an_answer.py:
the prize 1 is not bid for: when it is turned up (and more prizes are left) it is set aside
and the next prize is turned up at once. The answer that turns it up so ends two rounds, the
second with no answer of its own (as a press-your-luck game's stop can end the next players'
turns too): the table gives each round a snapshot, the replay each round a frame."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from goofspiel import Event, Goofspiel, GoofspielCartridge

from bitbox.games import JSON, Player, check_options, check_players
from bitbox.games.chance import Chance


class SkippingGoofspiel(Goofspiel):
    def _turn_up(self) -> list[Event]:
        events = super()._turn_up()
        if self.prize == 1 and self.pile:
            events.append(Event("set_aside", {"card": 1, "round": self.round}))
            events += super()._turn_up()
        return events


class SkippingCartridge(GoofspielCartridge):
    def new(self, players: Sequence[Player], seed: int, options: Mapping[str, JSON]) -> Goofspiel:
        players = check_players(self, players)
        cards = int(check_options(self, options)["cards"])     # type: ignore[call-overload]
        game = SkippingGoofspiel(players, cards, seed, Chance(seed))
        game.chance.shuffle(game.pile)
        game._turn_up()
        return game

    def from_data(self, data: Mapping[str, JSON]) -> Goofspiel:
        game = super().from_data(data)
        game.__class__ = SkippingGoofspiel
        return game


CARTRIDGE = SkippingCartridge()
