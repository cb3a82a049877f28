"""The bot interface, and a loop that plays a whole game with bots."""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from bitbox.bots.base import LazyView  # the console's: a private view built on first read

from ..rules import Choice, Event, Game


class Bot:
    """A player. Each method gets the player's own view (``Game.private_view``) and the
    legal options the rules give for it; it returns one of them."""

    name = "bot"

    def bonus(self, view: Mapping[str, Any], legal: Sequence[str | None]) -> str | None:
        raise NotImplementedError

    def program(self, view: Mapping[str, Any], legal: Mapping[str, Sequence[int]]) -> Choice:
        """``legal`` maps each legal path to its legal centre-wheel numbers (empty if none
        needed). It is read-only (:func:`play_game` hands out :meth:`Game.program_options`)."""
        raise NotImplementedError

    def keep(self, view: Mapping[str, Any], drawn: Sequence[str]) -> str:
        raise NotImplementedError


def legal_programs(game: Game, player: str) -> Mapping[str, Sequence[int]]:
    """Each legal path of ``player`` with its legal centre-wheel numbers (empty if none
    needed): ``player``'s entry of :meth:`Game.program_options` (read-only)."""
    return game.program_options().get(player, {})


def play_game(game: Game, bots: Mapping[str, Bot],
              on_events: Callable[[list[Event]], None] | None = None) -> Game:
    """Play ``game`` to its end with one bot per player. Each bot sees only its own
    private view (a :class:`LazyView`, valid during the call) and its legal options
    (:meth:`Game.bonus_options`, :meth:`Game.program_options`: read-only, maybe shared)."""
    s = game.state
    # One view per player, emptied before each use; the bots' options asked for all the
    # players at once (a simulation runs this loop a few hundred thousand times).
    seats = {p: (LazyView(game, p), bots[p]) for p in s.players if p in bots}
    while not s.finished:
        phase = s.phase
        if phase == "bonus":
            plays = {}                                  # the tokens played (no entry: none)
            for p, legal in game.bonus_options().items():
                view, bot = seats[p]
                view._view = None
                token = bot.bonus(view, legal)
                if token is not None:
                    plays[p] = token
            events = game.play_bonus(plays)
        elif phase == "programming":
            choices = {}
            for p, programs in game.program_options().items():
                view, bot = seats[p]
                view._view = None
                choices[p] = bot.program(view, programs)
            events = game.program(choices)
        elif phase == "draw":
            p = s.draw_queue[0]
            view, bot = seats[p]
            view._view = None
            events = game.keep(p, bot.keep(view, list(s.drawn)))
        else:
            raise RuntimeError(f"unexpected phase {phase!r}")
        if on_events is not None:
            on_events(events)
    return game
