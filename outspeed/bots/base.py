"""The bot interface, and a loop that plays a whole game with bots."""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ..rules import Choice, Event, Game


class Bot:
    """A player. Each method gets the player's own view (``Game.private_view``) and the
    legal options the rules give for it; it returns one of them."""

    name = "bot"

    def bonus(self, view: Mapping[str, Any], legal: Sequence[str | None]) -> str | None:
        raise NotImplementedError

    def program(self, view: Mapping[str, Any], legal: Mapping[str, Sequence[int]]) -> Choice:
        """``legal`` maps each legal path to its legal centre-wheel numbers ([] if none needed)."""
        raise NotImplementedError

    def keep(self, view: Mapping[str, Any], drawn: Sequence[str]) -> str:
        raise NotImplementedError


def legal_programs(game: Game, player: str) -> dict[str, list[int]]:
    return {path: game.legal_numbers(player, path) for path in game.legal_paths(player)}


def play_game(game: Game, bots: Mapping[str, Bot],
              on_events: Callable[[list[Event]], None] | None = None) -> Game:
    """Play ``game`` to its end with one bot per player."""
    s = game.state
    emit = on_events or (lambda events: None)
    while not s.finished:
        if s.phase == "bonus":
            plays = {p: bots[p].bonus(game.private_view(p), game.legal_bonus_plays(p)) for p in s.active}
            emit(game.play_bonus(plays))
        elif s.phase == "programming":
            choices = {p: bots[p].program(game.private_view(p), legal_programs(game, p)) for p in s.active}
            emit(game.program(choices))
        elif s.phase == "draw":
            p = s.draw_queue[0]
            emit(game.keep(p, bots[p].keep(game.private_view(p), list(s.drawn))))
        else:
            raise RuntimeError(f"unexpected phase {s.phase!r}")
    return game
