"""Goofspiel, the tutorial game of docs/games.md: a whole cartridge in one file.

Every player holds the cards 1 to N (``cards``, 6 by default). A prize card is turned up from
a shuffled prize pile (also 1 to N); every player bids one card of their hand **in secret**, and
the bids are revealed together. The highest bid no one else made wins the prize (it scores its
value); when every highest bid is matched, nobody does. The bid cards are spent. After N
rounds the highest score wins (a tie: shared).

It is a simultaneous, secret game (like Outspeed) with a hidden pile (what ``redeal`` draws
again) and chance (the shuffle): small, but it reaches every part of the game protocol. The
console plays it at the table, journals, replays and simulates it with no table code here.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bitbox.games import (JSON, GameError, OptionSpec, Player, Prompt, Refusal, check_options,
                          check_players)
from bitbox.games.chance import Chance

NAME = "goofspiel"


@dataclass(frozen=True)
class Event:
    """Something that happened, public: ``kind`` and ``data`` (the words make a sentence of it)."""

    kind: str
    data: Mapping[str, JSON] = field(default_factory=dict)


class Goofspiel:
    """One game in progress (the :class:`bitbox.games.Game` protocol)."""

    def __init__(self, players: Sequence[Player], cards: int, seed: int, chance: Chance) -> None:
        self._players = tuple(players)
        self.seed = seed                       # optional member: the journal keeps it
        self.cards = cards
        self.chance = chance
        self.hands: dict[Player, list[int]] = {p: list(range(1, cards + 1)) for p in self._players}
        self.scores: dict[Player, int] = {p: 0 for p in self._players}
        self.pile: list[int] = list(range(1, cards + 1))       # hidden order
        self.prize: int | None = None
        self.round = 0

    # ---- setting up
    def _turn_up(self) -> list[Event]:
        """The next prize from the pile (forced by ``force({"prize": [...]})`` in tests)."""
        forced = self.chance._forced("prize")
        if forced is not None:
            if forced not in self.pile:
                raise GameError(f"forced prize {forced!r} is not in the pile")
            self.pile.remove(int(forced))
            self.prize = int(forced)
        else:
            self.prize = self.pile.pop(0)
        self.round += 1
        return [Event("prize", {"card": self.prize, "round": self.round})]

    # ---- the protocol
    @property
    def players(self) -> Sequence[Player]:
        return self._players

    @property
    def turn(self) -> int:
        """The round (optional member: the console numbers snapshots and journal rows by it)."""
        return self.round

    @property
    def finished(self) -> bool:
        return self.prize is None and self.round > 0

    @property
    def winners(self) -> Sequence[Player]:
        if not self.finished:
            return ()
        best = max(self.scores.values())
        return tuple(p for p in self._players if self.scores[p] == best)

    def prompts(self) -> Sequence[Prompt]:
        if self.finished:
            return ()
        return tuple(Prompt(p, "bid", tuple(self.hands[p]), {"prize": self.prize}) for p in self._players)

    def refusal(self, player: Player, action: Any) -> str | None:
        if self.finished or player not in self.hands:
            return "not_your_turn"
        if action in self.hands[player] and type(action) is int:
            return None
        return "not_in_hand"

    def apply(self, answers: Mapping[Player, Any]) -> Sequence[Event]:
        open_ = {p.player for p in self.prompts()}
        extra = set(answers) - open_
        if extra:
            raise GameError(f"no prompt open for {', '.join(sorted(map(str, extra)))}")
        missing = open_ - set(answers)
        if missing:
            raise GameError(f"missing an answer from {', '.join(sorted(missing))}")
        codes = {p: c for p, a in answers.items() if (c := self.refusal(p, a)) is not None}
        if codes:
            raise Refusal(codes)
        assert self.prize is not None
        bids = {p: int(answers[p]) for p in self._players}
        events = [Event("bids", {"bids": dict(bids)})]
        for p, b in bids.items():
            self.hands[p].remove(b)
        top = max(bids.values())
        at_top = [p for p, b in bids.items() if b == top]
        if len(at_top) == 1:
            self.scores[at_top[0]] += self.prize
            events.append(Event("won", {"player": at_top[0], "card": self.prize, "score": self.scores[at_top[0]]}))
        else:
            events.append(Event("tied", {"players": at_top, "card": self.prize}))
        if self.pile:
            events += self._turn_up()
        else:
            self.prize = None
            events.append(Event("game_over", {"winners": list(self.winners), "scores": dict(self.scores)}))
        return events

    def public_view(self) -> Mapping[str, JSON]:
        return {"round": self.round, "rounds": self.cards, "prize": self.prize, "pile": len(self.pile),
                "players": [{"player": p, "score": self.scores[p], "hand": list(self.hands[p])} for p in self._players],
                "winners": list(self.winners)}

    def private_view(self, player: Player) -> Mapping[str, JSON]:
        if player not in self.hands:
            raise GameError(f"unknown player {player!r}")
        return {**self.public_view(), "me": player}      # nothing hidden is a player's own

    def to_data(self) -> Mapping[str, JSON]:
        return {"game": NAME, "players": list(self._players), "seed": self.seed, "cards": self.cards, "round": self.round,
                "prize": self.prize, "pile": list(self.pile), "hands": {p: list(h) for p, h in self.hands.items()},
                "scores": dict(self.scores), "chance": self.chance.to_data()}

    def force(self, outcomes: Mapping[str, Sequence[int | str]]) -> None:
        unknown = set(outcomes) - {"prize"}
        if unknown:
            raise GameError(f"unknown chance source {sorted(unknown)[0]!r} (known: prize)")
        self.chance.force(outcomes)


class Controls:
    """How the wheels answer a ``bid``: the left wheel's stop is the card (stop 3: the 3)."""

    def read(self, prompt: Prompt, wheels: tuple[int, int, int]) -> Any:
        return wheels[0]

    def wheels_for(self, prompt: Prompt, action: Any) -> tuple[int, int, int]:
        return (int(action), 0, 0)

    def hint(self, prompt: Prompt) -> tuple[int, int, int]:
        return (sum(1 << c for c in prompt.options if 0 <= c < 16), 0, 0)


class HighBot:
    """Bids its highest card on a prize above the middle, its lowest otherwise."""

    name = "high"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: Mapping[str, JSON], prompt: Prompt) -> Any:
        prize = int(prompt.context.get("prize") or 0)           # type: ignore[call-overload]
        rounds = int(view.get("rounds") or 1)                   # type: ignore[call-overload]
        options = sorted(prompt.options)
        return options[-1] if prize * 2 > rounds else options[0]


class GoofspielCartridge:
    """Goofspiel on the console's shelf."""

    name = NAME
    title = "Goofspiel"
    min_players = 2
    max_players = 4
    options = (OptionSpec("cards", 6, "cards in each hand and in the prize pile", choices=(3, 4, 5, 6, 7, 8)),)
    bot_names = ("random", "high")
    controls = Controls()
    locale = Path(__file__).resolve().parent / "locale"

    def new(self, players: Sequence[Player], seed: int, options: Mapping[str, JSON]) -> Goofspiel:
        players = check_players(self, players)
        cards = int(check_options(self, options)["cards"])     # type: ignore[call-overload]
        game = Goofspiel(players, cards, seed, Chance(seed))
        game.chance.shuffle(game.pile)
        game._turn_up()
        return game

    def from_data(self, data: Mapping[str, JSON]) -> Goofspiel:
        try:
            players = check_players(self, list(data["players"]))   # type: ignore[arg-type]
            game = Goofspiel(players, int(data["cards"]), int(data["seed"]),         # type: ignore[arg-type]
                             Chance.from_data(data["chance"]))                    # type: ignore[arg-type]
            game.round = int(data["round"])                         # type: ignore[arg-type]
            game.prize = None if data["prize"] is None else int(data["prize"])   # type: ignore[arg-type]
            game.pile = [int(c) for c in data["pile"]]              # type: ignore[union-attr]
            game.hands = {p: [int(c) for c in data["hands"][p]] for p in players}   # type: ignore[index]
            game.scores = {p: int(data["scores"][p]) for p in players}             # type: ignore[index]
        except (KeyError, TypeError, ValueError) as exc:
            raise GameError(f"not a saved Goofspiel game: {exc}") from None
        return game

    def redeal(self, game: Any, seed: int, keep: str | None = None) -> Goofspiel:
        """The prize pile shuffled again (``keep``: a player whose knowledge stays; every player
        knows the same here: the hands and scores are public)."""
        copy = self.from_data(game.to_data())
        copy.chance = Chance(seed)
        copy.seed = seed                    # the true game's seed would deal the true pile again
        copy.pile.sort()                    # a fixed order first: the result never depends on the true one
        copy.chance.shuffle(copy.pile)
        return copy

    def action_to_data(self, action: Any) -> JSON:
        return int(action)

    def action_from_data(self, data: JSON) -> Any:
        if type(data) is not int:
            raise GameError(f"a bid is a card number, not {data!r}")
        return data

    def figures(self, view: Mapping[str, JSON], events: Sequence[Any]) -> dict[str, list]:
        """The end screen's figures (optional member, docs/games.md): each player's score and
        the cards left in hand, from the final public view."""
        return {p["player"]: [("score", p["score"]), ("cards_left", len(p["hand"]))]   # type: ignore[index, arg-type]
                for p in view["players"]}                                          # type: ignore[union-attr]

    def make_bot(self, name: str, seed: int | None) -> Any:
        from bitbox.bots import RandomBot
        if name == "high":
            return HighBot(seed)
        if name == "random":
            return RandomBot(seed)
        raise ValueError(f"unknown bot {name!r} for goofspiel (known: random, high)")


CARTRIDGE = GoofspielCartridge()
