"""A base for cartridges: what every cartridge that wraps a rules engine writes alike.

A game's rules engine is a pure library (a ``state``, ``apply``, views, ``to_data``); its
cartridge adapts it to the protocol (:mod:`bitbox.games.protocol`). The common parts are here
(docs/games.md, "A base for cartridges"):

* :class:`EngineGame`: the :class:`~bitbox.games.protocol.Game` wrapper's forwarding to the
  engine (``players``, ``finished``, ``winners``, the views, ``to_data``), the unknown player
  of ``private_view`` and the check that every open prompt and no other has an answer
  (:meth:`EngineGame.check_answers`); a game writes ``prompts``, ``refusal``, ``apply`` and
  ``force``;
* :class:`EngineCartridge`: ``new`` with the player and option checks (``check_players``,
  ``check_options``) and the engine's errors as one-line ``GameError``\\ s (a game writes
  :meth:`~EngineCartridge.new_engine`), the game's contents loaded on first use, the bot
  shelf from a mapping name -> factory (:attr:`~EngineCartridge.bots`), :meth:`~EngineCartridge.starter`
  for many games of the same players and options (checked once), and answers that are
  already JSON (the default ``action_to_data``/``action_from_data``).

Everything is optional: a cartridge may implement the protocol directly (the tutorial's does).
"""
from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar, cast

from .protocol import JSON, Action, GameError, OptionSpec, Player, check_options, check_players

#: The rules engine a game wraps.
E = TypeVar("E", bound=Any)

#: A bot factory of :attr:`EngineCartridge.bots`: ``factory(cartridge, seed) -> bot``.
BotFactory = Callable[[Any, "int | None"], Any]


class EngineGame(Generic[E]):
    """One game in progress around a rules engine ``engine`` (of type ``E``: a game writes
    ``class MyGame(EngineGame[MyEngine])``) whose ``state`` has ``players``, ``finished`` and
    ``winners`` and which has ``public_view()``, ``private_view(player)`` and ``to_data()``."""

    __slots__ = ("engine",)

    def __init__(self, engine: E) -> None:
        self.engine = engine

    @property
    def state(self) -> Any:
        """The engine's state (for journal rules written against the engine: its ``seed``,
        ``turn``, ``players`` and ``winners``)."""
        return self.engine.state

    @property
    def players(self) -> Sequence[Player]:
        return self.engine.state.players

    @property
    def finished(self) -> bool:
        return bool(self.engine.state.finished)

    @property
    def winners(self) -> Sequence[Player]:
        return tuple(self.engine.state.winners)

    def public_view(self) -> Mapping[str, JSON]:
        return self.engine.public_view()

    def private_view(self, player: Player) -> Mapping[str, JSON]:
        if player not in self.players:
            raise GameError(f"unknown player {player!r} (players: {', '.join(self.players)})")
        return self.engine.private_view(player)

    def private_views(self, players: Sequence[Player]) -> Mapping[Player, Mapping[str, JSON]]:
        """:meth:`private_view` of several players from one public view (an optional part of the
        protocol: the research environments use it): the engine's ``add_private(view, player)``
        on copies of one public view (the copies share its values: read them, do not change them)."""
        for p in players:
            if p not in self.players:
                raise GameError(f"unknown player {p!r} (players: {', '.join(self.players)})")
        add = getattr(self.engine, "add_private", None)      # the engine's own part of a private view
        if add is None:
            return {p: self.engine.private_view(p) for p in players}
        view = self.engine.public_view()
        return {p: add(dict(view), p) for p in players}

    def to_data(self) -> Mapping[str, JSON]:
        return self.engine.to_data()

    @staticmethod
    def check_answers(answers: Mapping[Player, Action], waiting: Sequence[Player]) -> None:
        """For ``apply``: an answer from every player ``waiting`` and from no one else
        (:class:`GameError` naming the first one wrong)."""
        extra = [p for p in answers if p not in waiting]
        if extra:
            raise GameError(f"{extra[0]} has no prompt open (waiting for: {', '.join(waiting)})")
        missing = [p for p in waiting if p not in answers]
        if missing:
            raise GameError(f"no answer from {', '.join(missing)}")


class EngineCartridge(ABC):
    """A cartridge around a rules engine. A subclass sets ``name``, ``title``,
    ``min_players``, ``max_players``, ``options``, :attr:`game_class` (its
    :class:`EngineGame`), :attr:`rules_errors`, and writes :meth:`new_engine`,
    :meth:`from_data` and :meth:`redeal`; :meth:`load_content` and :attr:`bots` if it has
    contents and bots."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: Sequence[OptionSpec] = ()
    #: The game class wrapping an engine (``game(engine)``).
    game_class: ClassVar[type[EngineGame[Any]]]
    #: The engine's errors that :meth:`new` turns into :class:`GameError` (a bad setup).
    rules_errors: ClassVar[tuple[type[Exception], ...]] = ()

    def __init__(self, content: Any = None) -> None:
        self._content = content

    # -------------------------------------------------------------- contents
    def load_content(self) -> Any:
        """The game's contents (its config/ data); None when it has none."""
        return None

    @property
    def content(self) -> Any:
        """:meth:`load_content`'s, loaded on first use (or given to the constructor)."""
        if self._content is None:
            self._content = self.load_content()
        return self._content

    def use_content(self, content: Any) -> None:
        """Contents a table has just loaded (and checked) for a game: what :attr:`content`
        gives from now on, so that the game's bots read those and the files are read once."""
        self._content = content

    # -------------------------------------------------------------- new games
    def new(self, players: Sequence[Player], seed: int, options: Mapping[str, JSON]) -> Any:
        """Players and options checked (one-line :class:`GameError`/``OptionError``), then
        :meth:`new_engine` wrapped in :attr:`game_class`."""
        return self._games(players, options)(seed)

    def starter(self, players: Sequence[Player], options: Mapping[str, JSON]) -> Callable[[int], Any]:
        """:meth:`new` for many games of the same players and options (a simulation's): they
        are checked here, once, and the function returned makes the game of a seed. A
        subclass that overrides :meth:`new` gets its ``new`` called for every game."""
        if type(self).new is not EngineCartridge.new:
            return lambda seed: self.new(players, seed, options)
        return self._games(players, options)

    def _games(self, players: Sequence[Player], options: Mapping[str, JSON]) -> Callable[[int], Any]:
        checked = check_players(self, players)
        opts = check_options(self, options)
        new_engine, game_class, errors = self.new_engine, self.game_class, self.rules_errors

        def new(seed: int) -> Any:
            try:
                engine = new_engine(checked, seed, dict(opts))
            except errors as exc:
                raise GameError(str(exc)) from None
            return game_class(engine)
        return new

    @abstractmethod
    def new_engine(self, players: tuple[Player, ...], seed: int, options: dict[str, JSON]) -> Any:
        """The engine of a new game: players and options are checked, every option given."""

    @abstractmethod
    def from_data(self, data: Mapping[str, JSON]) -> Any:
        """The game ``to_data`` saved (the protocol's)."""

    @abstractmethod
    def redeal(self, game: Any, seed: int, keep: str | None = None) -> Any:
        """The same public information, the hidden parts drawn again (the protocol's)."""

    def redraw_chance(self, game: Any, seed: int) -> tuple[Any, random.Random]:
        """For :meth:`redeal`: a copy of ``game``'s engine whose random state is drawn again from
        ``seed`` and whose seed (the state's ``seed``, when it keeps one) is ``seed``: the true
        game's seed would deal its hidden parts again. With the generator to draw the rest of
        its hidden parts with (:class:`GameError` for a game of another cartridge)."""
        if not isinstance(game, self.game_class):
            article = "an" if self.title[:1].lower() in "aeiou" else "a"
            raise GameError(f"not {article} {self.title} game: {type(game).__name__}")
        copy = game.engine.copy()
        rng = random.Random(seed)
        copy.state.rng = random.Random(rng.getrandbits(64))
        if hasattr(copy.state, "seed"):
            copy.state.seed = seed
        return copy, rng

    # -------------------------------------------------------------- the table
    def play_main(self, argv: Sequence[str]) -> int:
        """``bitbox play --game NAME ARGS``: the console's table command for this game
        (:func:`bitbox.table.command.own_command`, named as its console script when it has one)."""
        from bitbox.table.command import own_command
        return own_command(self, list(argv))

    # -------------------------------------------------------------- bots
    @property
    def bots(self) -> Mapping[str, BotFactory]:
        """The game's bots, name -> ``factory(cartridge, seed)``, the strongest last (none)."""
        return {}

    @property
    def bot_names(self) -> Sequence[str]:
        """The names of :attr:`bots` (what :mod:`bitbox.bots` offers besides ``random``)."""
        return tuple(self.bots)

    def make_bot(self, name: str, seed: int | None) -> Any:
        """The bot ``name`` of :attr:`bots`, seeded; ValueError for another name."""
        bots = self.bots
        if name not in bots:
            raise ValueError(f"unknown bot {name!r} for {self.name} (known: {', '.join(bots)})")
        return bots[name](self, seed)

    # -------------------------------------------------------------- answers as data
    def action_to_data(self, action: Action) -> JSON:
        """An answer that is already JSON is its own data (override for other answers)."""
        if not _is_json(action):
            raise GameError(f"not a {self.title} answer: {action!r}")
        return cast(JSON, action)

    def action_from_data(self, data: JSON) -> Action:
        """The answer :meth:`action_to_data` wrote: the data itself."""
        if not _is_json(data):
            raise GameError(f"not a {self.title} answer: {data!r}")
        return data


def _is_json(value: object) -> bool:
    """``value`` reads back from JSON as itself (no tuples, sets, NaN or objects)."""
    try:
        return bool(json.loads(json.dumps(value, allow_nan=False)) == value)
    except (TypeError, ValueError, RecursionError):
        return False


__all__ = ["BotFactory", "EngineCartridge", "EngineGame"]
