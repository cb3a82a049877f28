"""The bot interface, and a loop that plays a whole game with bots."""
from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping, Sequence

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


class LazyView(Mapping[str, Any]):
    """``game.private_view(player)``, built on first use.

    Building a view costs more than a random bot's whole decision, so :func:`play_game`
    hands bots this instead: a bot that never looks at its view (the random bot) costs
    nothing, and one that does gets the full private view, taken when first read. It is
    valid during the call it was passed to (the state moves on afterwards)."""

    __slots__ = ("_game", "_player", "_view")

    def __init__(self, game: Game, player: str) -> None:
        self._game = game
        self._player = player
        self._view: dict[str, Any] | None = None

    def _get(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._game.private_view(self._player)
        return self._view

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return f"LazyView({self._player!r}, {self._get()!r})"


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
            for p, legal in game.program_options().items():
                view, bot = seats[p]
                view._view = None
                choices[p] = bot.program(view, legal)
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
