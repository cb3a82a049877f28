"""The bot protocol, the random bot and the loop that plays a game with bots."""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..games.protocol import JSON, Action, Cartridge, Game, GameError, GameEvent, Player, Prompt


@runtime_checkable
class Bot(Protocol):
    """A player. :meth:`choose` gets the player's private view (valid during the call) and
    one open prompt of theirs, and returns one of ``prompt.options``."""

    name: str

    def choose(self, view: Mapping[str, JSON], prompt: Prompt) -> Action: ...


@runtime_checkable
class BotShelf(Protocol):
    """What a cartridge implements to offer bots of its own (besides :class:`RandomBot`)."""

    @property
    def bot_names(self) -> Sequence[str]:
        """The names :meth:`make_bot` knows, the strongest last."""
        ...

    def make_bot(self, name: str, seed: int | None) -> Bot:
        """The bot ``name``, seeded; ValueError for a name not in :attr:`bot_names`."""
        ...


class RandomBot:
    """Uniform among the options, whatever the game."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, JSON], prompt: Prompt) -> Action:
        options = prompt.options
        n = len(options)
        if n == 1:
            return options[0]
        rng = self.rng
        if type(rng) is random.Random:              # randrange(n)'s very draw, without its checks
            return options[rng._randbelow(n)]       # type: ignore[attr-defined]
        return options[rng.randrange(n)]            # another source: its own randrange


def bot_names(cartridge: Cartridge) -> list[str]:
    """The bots a cartridge can seat: its own (if it offers any) and ``random``."""
    names = list(cartridge.bot_names) if isinstance(cartridge, BotShelf) else []
    return names if "random" in names else ["random", *names]


def seat_names(cartridge: Cartridge) -> list[str]:
    """Every bot ``--bots`` may name for ``cartridge``: :func:`bot_names` and the console's
    search bot (``search``, :mod:`bitbox.bots.search`), which plays any game."""
    names = bot_names(cartridge)
    return names if "search" in names else [*names, "search"]


def make_bot(cartridge: Cartridge, name: str, seed: int | None = None, budget: Any = None) -> Bot:
    """The bot ``name`` for ``cartridge``'s games: the cartridge's own bot of that name if it
    has one, else the console's :class:`RandomBot` for ``random`` and
    :class:`~bitbox.bots.search.SearchBot` for ``search`` (``budget``: its
    :class:`~bitbox.bots.search.Budget`, default 200 rollouts per decision). ValueError otherwise."""
    if isinstance(cartridge, BotShelf) and name in cartridge.bot_names:
        return cartridge.make_bot(name, seed)
    if name == "random":
        return RandomBot(seed)
    if name == "search":
        from .search import SearchBot
        return SearchBot(cartridge, seed, budget)
    raise ValueError(f"unknown bot {name!r} for {cartridge.name} (known: {', '.join(bot_names(cartridge))})")


class _Viewable(Protocol):
    def private_view(self, player: Player) -> Mapping[str, JSON]: ...


class LazyView(Mapping[str, JSON]):
    """``game.private_view(player)``, built on first read.

    Building a view can cost more than a random bot's whole decision, so :func:`play` hands
    bots this instead: a bot that never reads its view costs nothing. Valid during the call
    it was passed to (the game moves on afterwards); :func:`play` resets ``_view`` before
    each use."""

    __slots__ = ("_game", "_player", "_view")

    def __init__(self, game: _Viewable, player: Player) -> None:
        self._game = game
        self._player = player
        self._view: Mapping[str, JSON] | None = None

    @property
    def game(self) -> _Viewable:
        """The game this is a view of, for a bot that searches (:mod:`bitbox.bots.search`): it
        may only hand it to the cartridge's redeal from this player's information, never read
        its hidden parts."""
        return self._game

    def _get(self) -> Mapping[str, JSON]:
        if self._view is None:
            self._view = self._game.private_view(self._player)
        return self._view

    def __getitem__(self, key: str) -> JSON:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return f"LazyView({self._player!r}, {self._get()!r})"


def play(game: Game, bots: Mapping[Player, Bot],
         on_events: Callable[[Sequence[GameEvent]], None] | None = None, fallback: Bot | None = None) -> Game:
    """Play ``game`` to its end, every prompt answered by its player's bot (all the prompts
    open at once are answered, then applied together). Each bot sees only its own private
    view. ``on_events`` gets the events of each apply. A prompt for a player without a bot is
    answered by ``fallback`` with no view (Last One Alive asks the table who starts); without
    one it is a GameError, as is a game that stops asking while not finished."""
    # Each player's view and bot, found once per game: a simulation runs the loop below for
    # every decision of hundreds of thousands of games.
    seats = {p: (LazyView(game, p), bots.get(p)) for p in game.players}
    while True:
        prompts = game.prompts()            # none once finished (and only then)
        if not prompts:
            if game.finished:
                return game
            raise GameError("the game is not finished but asks nobody anything")
        answers: dict[Player, Action] = {}
        for prompt in prompts:
            player = prompt.player
            view, bot = seats.get(player) or (None, None)
            if view is None or bot is None:
                bot = bots.get(player)
                if bot is None:
                    if fallback is None:
                        raise GameError(f"no bot plays {player}")
                    answers[player] = fallback.choose({}, prompt)
                    continue
                view = LazyView(game, player)
                seats[player] = (view, bot)
            view._view = None
            answers[player] = bot.choose(view, prompt)
        events = game.apply(answers)
        if on_events is not None:
            on_events(events)
