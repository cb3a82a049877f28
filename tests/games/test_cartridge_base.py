"""The console's base for cartridges (bitbox.games.base, docs/games.md "A base for
cartridges"): a small game written on it (a pure engine, its game class and cartridge, a bot
by name) passes every conformance check; the base's checks answer in one line; Outspeed and
Last One Alive stand on it."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from bitbox.bots import bot_names, make_bot
from bitbox.games import GameError, OptionError, OptionSpec, Prompt, Refusal
from bitbox.games.base import EngineCartridge, EngineGame
from bitbox.games.conformance import check_all


class RaceError(ValueError):
    """The engine's own error (a setup it cannot play)."""


@dataclass
class Event:
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class State:
    players: tuple[str, ...]
    goal: int
    seed: int
    rng: random.Random
    turn: int = 0
    positions: dict[str, int] = field(default_factory=dict)
    finished: bool = False
    winners: list[str] = field(default_factory=list)


class Race:
    """A pure engine: in turn, each player walks 1 or 2 steps, then a hidden die adds 0 or 1
    (the die's generator is the hidden part); the first at ``goal`` wins."""

    def __init__(self, state: State) -> None:
        self.state = state

    @classmethod
    def new(cls, players: tuple[str, ...], seed: int, goal: int) -> "Race":
        if goal > 6 and len(players) > 3:
            raise RaceError(f"a race to {goal} is too long for {len(players)} players")
        return cls(State(players, goal, seed, random.Random(seed), positions={p: 0 for p in players}))

    @property
    def active(self) -> str:
        return self.state.players[self.state.turn % len(self.state.players)]

    def walk(self, steps: int) -> list[Event]:
        s, player = self.state, self.active
        s.positions[player] = min(s.goal, s.positions[player] + steps + s.rng.randrange(2))
        events = [Event("walked", {"player": player, "at": s.positions[player]})]
        if s.positions[player] == s.goal:
            s.finished, s.winners = True, [player]
            events.append(Event("won", {"player": player}))
        s.turn += 1
        return events

    def public_view(self) -> dict[str, Any]:
        s = self.state
        return {"turn": s.turn, "goal": s.goal, "positions": dict(s.positions), "winners": list(s.winners)}

    def private_view(self, player: str) -> dict[str, Any]:
        return {**self.public_view(), "me": player}

    def to_data(self) -> dict[str, Any]:
        s = self.state
        version, internal, gauss = s.rng.getstate()
        return {"players": list(s.players), "goal": s.goal, "seed": s.seed, "turn": s.turn,
                "positions": dict(s.positions), "finished": s.finished, "winners": list(s.winners),
                "rng": [version, list(internal), gauss]}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "Race":
        rng = random.Random()
        version, internal, gauss = data["rng"]
        rng.setstate((version, tuple(internal), gauss))
        return cls(State(tuple(data["players"]), data["goal"], data["seed"], rng, data["turn"],
                         dict(data["positions"]), data["finished"], list(data["winners"])))


class RaceGame(EngineGame[Race]):
    __slots__ = ()

    def prompts(self) -> Sequence[Prompt]:
        return () if self.finished else (Prompt(self.engine.active, "walk", (1, 2)),)

    def refusal(self, player: str, action: Any) -> str | None:
        if self.finished or player != self.engine.active:
            return "not_your_turn"
        return None if action in (1, 2) and type(action) is int else "not_a_step"

    def apply(self, answers: Mapping[str, Any]) -> Sequence[Event]:
        if self.finished:
            raise GameError("the game is over")
        self.check_answers(answers, [self.engine.active])
        (player, steps), = answers.items()
        code = self.refusal(player, steps)
        if code:
            raise Refusal({player: code})
        return self.engine.walk(steps)

    def force(self, outcomes: Mapping[str, Sequence[int | str]]) -> None:
        raise GameError("the race forces nothing")


class Longest:
    """Always two steps."""

    name = "longest"

    def choose(self, view: Mapping[str, Any], prompt: Prompt) -> Any:
        return max(prompt.options)


class RaceCartridge(EngineCartridge):
    name, title = "race", "Race"
    min_players, max_players = 2, 4
    options = (OptionSpec("goal", 5, "steps to the goal", (5, 8)),)
    game_class = RaceGame
    rules_errors = (RaceError,)
    bots = {"longest": lambda cartridge, seed: Longest()}
    loads = 0

    def load_content(self) -> Any:
        RaceCartridge.loads += 1
        return {"loaded": True}

    def new_engine(self, players: tuple[str, ...], seed: int, options: dict[str, Any]) -> Race:
        return Race.new(players, seed, int(options["goal"]))

    def from_data(self, data: Mapping[str, Any]) -> RaceGame:
        try:
            return RaceGame(Race.from_data(data))
        except (KeyError, TypeError, ValueError) as exc:
            raise GameError(f"not a saved race: {exc}") from None

    def redeal(self, game: Any, seed: int) -> RaceGame:
        copy = Race.from_data(game.to_data())
        copy.state.rng = random.Random(seed)
        return RaceGame(copy)


def test_a_game_written_on_the_base_passes_every_conformance_check() -> None:
    results = check_all(RaceCartridge())
    assert results and all(problem is None for _, problem in results), results


def test_the_base_checks_players_options_and_the_engines_setup_in_one_line() -> None:
    race = RaceCartridge()
    with pytest.raises(GameError, match=r"^Race is for 2 to 4 players, not 1$"):
        race.new(["red"], 0, {})
    with pytest.raises(OptionError, match=r"option goal: must be one of 5, 8, not 6"):
        race.new(["red", "blue"], 0, {"goal": 6})
    with pytest.raises(GameError, match=r"^a race to 8 is too long for 4 players$"):
        race.new(["red", "blue", "green", "yellow"], 0, {"goal": 8})
    game = race.new(["red", "blue"], 0, {})
    assert isinstance(game, RaceGame) and game.players == ("red", "blue") and not game.finished
    with pytest.raises(GameError, match=r"^unknown player 'pink' \(players: red, blue\)$"):
        game.private_view("pink")
    with pytest.raises(GameError, match=r"^blue has no prompt open \(waiting for: red\)$"):
        game.apply({"red": 1, "blue": 1})
    with pytest.raises(GameError, match=r"^no answer from red$"):
        game.apply({})


def test_answers_that_are_json_are_their_own_data() -> None:
    race = RaceCartridge()
    for answer in (1, "left", None, [1, "a"], {"path": "left"}):
        assert race.action_from_data(race.action_to_data(answer)) == answer
    for answer in ((1, 2), {1: "a"}, float("nan"), object()):
        with pytest.raises(GameError, match="not a Race answer"):
            race.action_to_data(answer)


def test_the_bot_shelf_and_the_contents() -> None:
    race = RaceCartridge()
    assert race.bot_names == ("longest",) and bot_names(race) == ["random", "longest"]
    assert isinstance(make_bot(race, "longest", 1), Longest)
    with pytest.raises(ValueError, match=r"unknown bot 'clever' for race \(known: longest\)"):
        race.make_bot("clever", 1)
    before = RaceCartridge.loads
    assert race.content == {"loaded": True} and race.content == {"loaded": True}
    assert RaceCartridge.loads == before + 1
    assert RaceCartridge(content={"given": 1}).content == {"given": 1}


def test_outspeed_and_last_one_alive_stand_on_it() -> None:
    from lastonealive.cartridge import CARTRIDGE as LOA
    from outspeed.cartridge import CARTRIDGE as OUTSPEED
    for cartridge, bots in ((OUTSPEED, ("random", "greedy", "lookahead")), (LOA, ("random", "careful"))):
        assert isinstance(cartridge, EngineCartridge) and tuple(cartridge.bot_names) == bots
        game = cartridge.new(["red", "blue", "green"], 3, {})
        assert isinstance(game, EngineGame) and game.players == ("red", "blue", "green")
        with pytest.raises(GameError, match=r"^unknown player 'pink' \(players: red, blue, green\)$"):
            game.private_view("pink")
