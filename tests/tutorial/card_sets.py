"""A tiny regression game for answers made of parts over hidden hands (docs/games.md,
docs/research.md: "An answer made of several parts"): **Card Sets**. A deck of the cards 1 to 4,
three of each, is shuffled and every player is dealt three (hidden). For two rounds every
player bids, in secret and all at once, a non-empty set of cards from their hand (a sorted
tuple: two 2s are ``(2, 2)``); the bids are revealed together, the highest total scores a
point (a tie for it: nobody), the cards bid are spent, and after the first round every player
draws a card from the deck (hidden). The most points win.

Its research encoding chooses a bid one card a step (``card_1`` … ``card_4``, a card held twice
may be chosen twice) then *confirm* when it could grow: what tests/tutorial/test_composite_secrecy.py
checks never reaches another player before the reveal.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from bitbox.games import JSON, GameError, Player, Prompt, Refusal, check_options, check_players
from bitbox.games.chance import Chance
from bitbox.research.encoding import RESERVED, EncodingBase

NAME = "cardsets"
ROUNDS = 2


@dataclass(frozen=True)
class Event:
    kind: str
    data: Mapping[str, JSON] = field(default_factory=dict)


def bids_of(hand: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    found = {c for k in range(1, len(hand) + 1) for c in combinations(sorted(hand), k)}
    return tuple(sorted(found, key=lambda b: (len(b), b)))


class CardSets:
    def __init__(self, players: Sequence[Player], seed: int, chance: Chance) -> None:
        self._players, self.seed, self.chance = tuple(players), seed, chance
        self.hands: dict[Player, list[int]] = {p: [] for p in self._players}
        self.scores: dict[Player, int] = {p: 0 for p in self._players}
        self.deck: list[int] = []
        self.round = 1

    players = property(lambda self: self._players)
    turn = property(lambda self: self.round)
    finished = property(lambda self: self.round > ROUNDS)

    @property
    def winners(self) -> Sequence[Player]:
        if not self.finished:
            return ()
        best = max(self.scores.values())
        return tuple(p for p in self._players if self.scores[p] == best)

    def prompts(self) -> Sequence[Prompt]:
        if self.finished:
            return ()
        return tuple(Prompt(p, "bid", bids_of(self.hands[p])) for p in self._players)

    def refusal(self, player: Player, action: Any) -> str | None:
        if self.finished or player not in self.hands:
            return "not_your_turn"
        if not isinstance(action, tuple) or not action or list(action) != sorted(action) \
                or not all(type(c) is int for c in action) or Counter(action) - Counter(self.hands[player]):
            return "not_in_hand"
        return None

    def apply(self, answers: Mapping[Player, Any]) -> Sequence[Event]:
        if self.finished or set(answers) != set(self._players):
            raise GameError("an answer from every player, and from nobody else")
        codes = {p: c for p, a in answers.items() if (c := self.refusal(p, a)) is not None}
        if codes:
            raise Refusal(codes)
        totals = {p: sum(answers[p]) for p in self._players}
        for p in self._players:
            for card in answers[p]:
                self.hands[p].remove(card)
        top = [p for p in self._players if totals[p] == max(totals.values())]
        if len(top) == 1:
            self.scores[top[0]] += 1
        for p in self._players if self.round < ROUNDS else ():   # a card each: never an empty hand
            card = int(self.chance.roll("draw", sorted(self.deck)))             # type: ignore[call-overload]
            self.deck.remove(card)
            self.hands[p] = sorted(self.hands[p] + [card])
        self.round += 1
        return [Event("bids", {"bids": {p: list(answers[p]) for p in self._players}, "scorer": top[0] if len(top) == 1
                               else None})]

    def public_view(self) -> Mapping[str, JSON]:
        return {"round": self.round, "deck": len(self.deck),
                "players": [{"player": p, "score": self.scores[p], "cards": len(self.hands[p])} for p in self._players]}

    def private_view(self, player: Player) -> Mapping[str, JSON]:
        if player not in self.hands:
            raise GameError(f"unknown player {player!r}")
        return {**self.public_view(), "me": player, "hand": list(self.hands[player])}

    def to_data(self) -> Mapping[str, JSON]:
        return {"game": NAME, "players": list(self._players), "seed": self.seed, "round": self.round,
                "hands": {p: list(h) for p, h in self.hands.items()}, "scores": dict(self.scores),
                "deck": list(self.deck), "chance": self.chance.to_data()}

    def force(self, outcomes: Mapping[str, Sequence[int | str]]) -> None:
        raise GameError("Card Sets has no chance to force after the deal")


class CardSetsCartridge:
    name, title, min_players, max_players, options = NAME, "Card Sets", 2, 3, ()

    def new(self, players: Sequence[Player], seed: int, options: Mapping[str, JSON]) -> CardSets:
        game = CardSets(check_players(self, players), seed, Chance(seed))
        check_options(self, options)
        deck = [v for v in range(1, 5) for _ in range(3)]
        game.chance.shuffle(deck)
        for p in game.players:
            game.hands[p], deck = sorted(deck[:3]), deck[3:]
        game.deck = sorted(deck)
        return game

    def from_data(self, data: Mapping[str, JSON]) -> CardSets:
        try:
            game = CardSets(check_players(self, list(data["players"])), int(data["seed"]),   # type: ignore[arg-type]
                            Chance.from_data(data["chance"]))                              # type: ignore[arg-type]
            game.round = int(data["round"])                                                # type: ignore[arg-type]
            game.hands = {p: [int(c) for c in data["hands"][p]] for p in game.players}  # type: ignore[index]
            game.scores = {p: int(data["scores"][p]) for p in game.players}             # type: ignore[index]
            game.deck = [int(c) for c in data["deck"]]                                  # type: ignore[union-attr]
        except (KeyError, TypeError, ValueError) as exc:
            raise GameError(f"not a saved Card Sets game: {exc}") from None
        return game

    def redeal(self, game: Any, seed: int, keep: str | None = None) -> CardSets:
        copy = self.from_data(game.to_data())
        copy.chance = Chance(seed)
        others = [p for p in copy.players if p != keep]
        pool = sorted(copy.deck + [c for p in others for c in copy.hands[p]])
        copy.chance.shuffle(pool)
        for p in others:
            n = len(copy.hands[p])
            copy.hands[p], pool = sorted(pool[:n]), pool[n:]
        copy.deck = sorted(pool)
        return copy

    def action_to_data(self, action: Any) -> JSON:
        return [int(c) for c in action]

    def action_from_data(self, data: JSON) -> Any:
        if not isinstance(data, list) or not all(type(c) is int for c in data):
            raise GameError(f"a bid is a list of card numbers, not {data!r}")
        return tuple(data)


class CardSetsEncoding(EncodingBase):
    """Parts ``card_1`` … ``card_4``; the observation: round, deck, then per seat (the observer's
    first) score and cards held, then the observer's hand, a count per card."""

    names = tuple(f"card_{v}" for v in range(1, 5))
    observation_size = 2 + 3 * 2 + 4
    observation_high = 12.0

    def ids(self, prompt: Prompt, option: Any) -> tuple[int, ...]:
        return tuple(RESERVED + int(c) - 1 for c in option)

    def observe(self, view: Mapping[str, JSON], player: Player, prompt: Prompt | None) -> np.ndarray:
        out = np.zeros(self.observation_size, dtype=np.float32)
        out[:2] = [int(view["round"]), int(view["deck"])]                          # type: ignore[arg-type]
        seats: list[Any] = list(view["players"])                                   # type: ignore[arg-type]
        names = [s["player"] for s in seats]
        first = names.index(player) if player in names else 0
        for k in range(len(seats)):
            seat = seats[(first + k) % len(seats)]
            out[2 + 2 * k:4 + 2 * k] = [int(seat["score"]), int(seat["cards"])]
        for card in view.get("hand") or ():                                        # type: ignore[union-attr]
            out[8 + int(card) - 1] += 1
        return out


CARTRIDGE = CardSetsCartridge()


def encoding() -> CardSetsEncoding:
    return CardSetsEncoding()
