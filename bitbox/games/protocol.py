"""The game protocol: what the console asks of a game, and nothing more.

A *cartridge* (:class:`Cartridge`) is a game as the console sees it on the shelf: a name,
its player-count bounds, its options, and how to start a game (:meth:`Cartridge.new`) or
bring one back from saved data (:meth:`Cartridge.from_data`). A *game* (:class:`Game`) is
one game in progress: who acts now (:meth:`Game.prompts`), the legal answers of each of
them (:attr:`Prompt.options`), applying the answers (:meth:`Game.apply`, which returns the
:class:`GameEvent` s that say what happened), what the table may see
(:meth:`Game.public_view`) and what one player may see (:meth:`Game.private_view`), the
whole state as data (:meth:`Game.to_data`), and forced chance for tests
(:meth:`Game.force`). The console (the table's referee loop, the bots, the simulator, the
scenario runner, the conformance test) uses only these; it never imports a game.

The loop every host runs::

    game = cartridge.new(players, seed, options)
    while not game.finished:
        prompts = game.prompts()                  # one per player who must act now
        answers = {p.player: pick(p) for p in prompts}   # a controller, a bot, a keyboard
        events = game.apply(answers)              # all answers at once; raises Refusal

**One model for two kinds of games.**

* *Simultaneous and secret* (Outspeed): in the programming phase every active player
  sets their wheels in secret and the choices are revealed together. :meth:`Game.prompts`
  returns one prompt per active player, all open at once; the host collects every answer
  (at the table: each player locks their controller), shows nobody's answer, and calls
  :meth:`Game.apply` once with all of them. The reveal is the events ``apply`` returns.
  A phase where a single player decides (Outspeed's "keep one of the two tokens drawn")
  is simply a moment with one prompt.
* *Turn-based, prompt by prompt* (Last One Alive): one player acts at a time and each
  step asks one question (roll or stop, which die to re-roll, whom to give a zombie die,
  which token to use). :meth:`Game.prompts` returns one prompt, its :attr:`Prompt.kind`
  names the question (the game's controls and words use it to show it), its options are
  the legal answers, and :meth:`Game.apply` takes a one-entry mapping. A step that needs
  nobody (a roll) happens inside ``apply``; chance never waits for a prompt.

**Legality has one source.** An answer is legal exactly when it is one of the options of
its player's prompt. :meth:`Game.refusal` gives the code that explains why an answer is
not (computed only when it is not among the options); :meth:`Game.apply` refuses the
whole mapping with :class:`Refusal` (``codes``: player -> code) and changes nothing if any
answer is not legal. A host may ask :meth:`Game.refusal` before submitting (to tell a player
at once), but it never needs to re-derive the rules.

**Secrets.** :meth:`Game.public_view` and every event are public: nothing in them may depend
on hidden information (token types held, pile order, unrevealed tiles, answers not yet
applied, the random state). A prompt is private to its player: its options may reveal what
only that player knows (Outspeed's draw offers the two tokens drawn), so a host sends a
prompt to that player's controller, bot or screen area only. :meth:`Cartridge.redeal` gives
a game with the same public information and the hidden parts drawn again; the conformance
test (:mod:`bitbox.games.conformance`) checks that the public view cannot tell them apart.
A game may also give ``private_views(players)`` (optional, not part of :class:`Game`): the
private view of each listed player, all made from one public view, for a host that needs
every player's view at the same moment (the research environments).

**Determinism.** A game is a pure function of its seed, options and answers: all chance
comes from a generator held in the state (:class:`bitbox.games.chance.Chance` is one a new
game can use), so :meth:`Game.to_data` after the same inputs is the same data, and
:meth:`Cartridge.from_data` of it plays on exactly as the original.

**Optional members.** A game may also give ``turn`` (an int: the turn it is in; a host takes
a turn's end as a milestone: the table's snapshot and replay frame, the journal's position of
an input) and ``seed`` (an int: the seed it was dealt with; without it, ``to_data()["seed"]``,
else 0). :func:`turn_of` and :func:`seed_of` read them. With ``players``, ``finished`` and
``winners`` they are all a journal needs to list a game (the console's journal rules,
:mod:`bitbox.table.protocol_rules`).

Values that cross the boundary (views, event data, saved state, options, answers as data)
are :data:`JSON` values, so a journal, a log or another process can hold them.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeAlias, Union, runtime_checkable

#: A JSON value: what views, event data, saved states and options are made of.
JSON: TypeAlias = Union[None, bool, int, float, str, Sequence["JSON"], Mapping[str, "JSON"]]

#: A player of a game: a seat name chosen by the host (Outspeed's are colours).
Player: TypeAlias = str

#: An answer to a prompt: a hashable value of the game's own type (a token name, a
#: frozen dataclass, None for "nothing"), compared by equality with the prompt's options.
#: :meth:`Cartridge.action_to_data` / :meth:`Cartridge.action_from_data` turn it into
#: JSON and back, for a journal.
Action: TypeAlias = Hashable


class GameError(ValueError):
    """A request that makes no sense for this game: an unknown player, an answer for a player
    who has no prompt, a missing answer, bad saved data. Nothing was changed."""


class Refusal(Exception):
    """Answers refused by the rules; nothing was changed. ``codes`` maps each refused player to
    a short code (the game's words explain the codes to players)."""

    def __init__(self, codes: Mapping[Player, str], message: str = "") -> None:
        self.codes: dict[Player, str] = dict(codes)
        super().__init__(message or "; ".join(f"{p}: {c}" for p, c in self.codes.items()))


class OptionError(ValueError):
    """A game option that is unknown or has a bad value; ``option`` names it."""

    def __init__(self, option: str, message: str) -> None:
        self.option = option
        self.message = message
        super().__init__(f"option {option}: {message}")


@dataclass(frozen=True)
class Prompt:
    """A question to one player, open now.

    ``kind`` names the question in the game's terms (Outspeed: ``"bonus"``, ``"program"``,
    ``"keep"``); the game's controls and words decide how to ask it. ``options`` are every
    legal answer, listed in full, in a stable order, without repeats (bots and the
    conformance test pick among them; a host may show them); never empty. A game whose
    answers form families (Last One Alive's re-roll of any set of dice in the tray) lists
    every member. A prompt with a single option may be answered by the host without asking
    when that reveals nothing (Outspeed: a player holding no token plays none). ``context``
    is what the player needs to answer that is not in their private view (Outspeed's draw:
    the two tokens drawn, in order; may be empty). Private to ``player`` (see the module
    docstring).
    """

    player: Player
    kind: str
    options: tuple[Action, ...]
    context: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class OptionSpec:
    """One option a game takes at :meth:`Cartridge.new`: its name, default and allowed values
    (``choices``; empty means any value of ``default``'s type), a line of help, and
    ``players``: when a value other than the default is for some player counts only, their
    ``(min, max)`` (``Cartridge.new`` refuses it at other counts with a :class:`GameError`;
    the conformance checks hold it to that); ``None``: every count the game takes.

    Two more fields say how the table's command spells and plays it (:mod:`bitbox.table.command`):
    ``flag``, for an on/off option, a flag it shares with others, repeatable
    (``flag="variant"``: ``--variant survivors --variant day_night``; default: ``--NAME`` and
    ``--no-NAME``); ``controllers_only``, the values the table plays only when every seat is a
    controller (another seat gets the default, said in one line: physical tokens)."""

    name: str
    default: JSON
    help: str = ""
    choices: tuple[JSON, ...] = ()
    players: tuple[int, int] | None = None
    flag: str | None = None
    controllers_only: tuple[JSON, ...] = ()

    def barred(self, value: JSON, players: int) -> bool:
        """``value`` of this option cannot be played by ``players`` players."""
        return self.players is not None and value != self.default and \
            not self.players[0] <= players <= self.players[1]


@runtime_checkable
class GameEvent(Protocol):
    """Something that happened, public by construction: a ``kind`` (a ``str``, or a ``str``
    enum member) and its ``data``. A game's words turn it into a sentence."""

    @property
    def kind(self) -> str: ...

    @property
    def data(self) -> Mapping[str, JSON]: ...


@runtime_checkable
class Game(Protocol):
    """One game in progress (see the module docstring for the loop and the rules)."""

    @property
    def players(self) -> Sequence[Player]:
        """Every player, in seat order, eliminated ones included."""
        ...

    @property
    def finished(self) -> bool:
        """True once the game is over: :meth:`prompts` is then empty."""
        ...

    @property
    def winners(self) -> Sequence[Player]:
        """The winners (several on a tie; none if nobody won); empty until finished."""
        ...

    def prompts(self) -> Sequence[Prompt]:
        """Who acts now: one prompt per player who must answer before the game can go on, in
        seat order (several for a simultaneous phase, one for a turn-based step, none once
        finished). Calling it changes nothing."""
        ...

    def refusal(self, player: Player, action: Action) -> str | None:
        """None when ``action`` is among the options of ``player``'s prompt; else the code
        saying why not (``"not_your_turn"`` when the player has no prompt open)."""
        ...

    def apply(self, answers: Mapping[Player, Action]) -> Sequence[GameEvent]:
        """Apply one answer per open prompt, all at once, and return the events that say
        what happened (chance included), in order. Raises :class:`Refusal` if an answer is
        not legal, :class:`GameError` if an answer is missing or has no prompt; either way
        nothing changed."""
        ...

    def public_view(self) -> Mapping[str, JSON]:
        """What the whole table may see now. Depends on nothing hidden."""
        ...

    def private_view(self, player: Player) -> Mapping[str, JSON]:
        """The public view plus what ``player`` alone knows (their hidden hand, their draw)."""
        ...

    def to_data(self) -> Mapping[str, JSON]:
        """The whole state, hidden parts and random state included, as JSON data: the same
        data after the same seed, options and answers. :meth:`Cartridge.from_data` reads it."""
        ...

    def force(self, outcomes: Mapping[str, Sequence[int | str]]) -> None:
        """For tests and scenarios: the next chance outcomes, by source, instead of random
        ones. What a source is belongs to the game (Outspeed: a player's name, for the dice
        rolled for that player; Last One Alive: a die type). Values are consumed first in,
        first out; when a source's values run out, chance is random again."""
        ...


@runtime_checkable
class Cartridge(Protocol):
    """A game on the shelf: found by name in the registry (:mod:`bitbox.games.registry`)."""

    @property
    def name(self) -> str:
        """The registry name, lower case, no spaces (``"outspeed"``)."""
        ...

    @property
    def title(self) -> str:
        """The name people read (``"Outspeed"``)."""
        ...

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    @property
    def options(self) -> Sequence[OptionSpec]:
        """The options :meth:`new` takes (may be empty)."""
        ...

    def new(self, players: Sequence[Player], seed: int, options: Mapping[str, JSON]) -> Game:
        """A new game for ``players`` (distinct names, seat order), all its chance drawn from
        ``seed``. Raises :class:`GameError` for a bad player list and :class:`OptionError`
        for an unknown option or a bad value (see :func:`bitbox.games.check_options`)."""
        ...

    def from_data(self, data: Mapping[str, JSON]) -> Game:
        """The game :meth:`Game.to_data` saved; :class:`GameError` if the data is not one."""
        ...

    def redeal(self, game: Game, seed: int, keep: Player | None = None) -> Game:
        """Another game with the same public information as ``game`` and its hidden parts
        (pile order, held token types, unrevealed tiles, random state) drawn again from
        ``seed``: what a player cannot tell apart from ``game`` (a seed the game keeps in its
        data is ``seed`` too: the true one would deal the hidden parts again). With ``keep``, what that
        player knows stays as it is (their own hand, their draw: their private view is the
        same), and only what is hidden from them is drawn again: a world consistent with
        what ``keep`` has seen (the OpenSpiel adapter's ``resample_from_infostate``, the search
        bot's determinisations), and the result depends only on what ``keep`` knows and on
        ``seed``: put the hidden parts in a fixed order (sort them) before shuffling, so that
        two games that differ only in what ``keep`` cannot see give the same game (the
        conformance test checks it). A game without hidden information returns a copy."""
        ...

    def action_to_data(self, action: Action) -> JSON:
        """An answer as JSON data (for a journal)."""
        ...

    def action_from_data(self, data: JSON) -> Action:
        """The answer :meth:`action_to_data` wrote; :class:`GameError` if it is not one."""
        ...


def redeal_keeping(cartridge: Cartridge, game: Game, seed: int, player: Player) -> Game | None:
    """``cartridge.redeal(game, seed, keep=player)``, or None for a cartridge whose ``redeal``
    takes no ``keep`` (written before it was part of the protocol): its callers then fall back
    (the search bot draws plain redeals until the player's view matches)."""
    import inspect
    try:
        params = inspect.signature(cartridge.redeal).parameters
    except (TypeError, ValueError):
        params = {}                                         # type: ignore[assignment]
    if "keep" not in params and not any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return None
    return cartridge.redeal(game, seed, keep=player)


def check_options(cartridge: Cartridge, given: Mapping[str, JSON]) -> dict[str, JSON]:
    """``given`` checked against ``cartridge.options`` and completed with the defaults.
    Raises :class:`OptionError` naming the first unknown option or bad value."""
    if not isinstance(given, Mapping):
        raise GameError(f"the options are a mapping of option names to values, not {_shown(given)}")
    specs = {s.name: s for s in cartridge.options}
    for name in given:
        if name not in specs:
            known = ", ".join(specs) or "none"
            raise OptionError(str(name), f"unknown option for {cartridge.name} (known: {known})")
    out: dict[str, JSON] = {}
    for name, spec in specs.items():
        value = given.get(name, spec.default)
        if spec.choices:
            if value not in spec.choices:
                allowed = ", ".join(map(repr, spec.choices))
                raise OptionError(name, f"must be one of {allowed}, not {value!r}")
        elif spec.default is not None and type(value) is not type(spec.default):
            raise OptionError(name, f"expected a {type(spec.default).__name__}, not {value!r}")
        out[name] = value
    return out


def _shown(value: object) -> str:
    from bitbox.safetext import printable
    return printable(repr(value), 60)


def check_players(cartridge: Cartridge, players: Sequence[Player]) -> tuple[Player, ...]:
    """``players`` as a tuple, checked: between the cartridge's bounds, distinct, non-empty
    strings. Raises :class:`GameError` with one line saying what is wrong."""
    if isinstance(players, (str, bytes)) or not isinstance(players, Iterable):
        raise GameError(f"the players are a list of names, not {_shown(players)}")
    players = tuple(players)
    lo, hi = cartridge.min_players, cartridge.max_players
    if not lo <= len(players) <= hi:
        raise GameError(f"{cartridge.title} is for {lo} to {hi} players, not {len(players)}")
    for p in players:
        if not isinstance(p, str) or not p:
            raise GameError(f"a player is a non-empty name, not {p!r}")
    if len(set(players)) != len(players):
        raise GameError(f"players must be distinct: {', '.join(players)}")
    return players



def turn_of(game: object) -> int | None:
    """``game.turn`` (an optional member of :class:`Game`), or None when the game has none."""
    t = getattr(game, "turn", None)
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def seed_of(game: Game) -> int:
    """``game.seed`` (an optional member of :class:`Game`), else ``to_data()["seed"]``, else 0."""
    seed = getattr(game, "seed", None)
    if seed is None:
        seed = game.to_data().get("seed", 0)
    return int(seed) if isinstance(seed, int) and not isinstance(seed, bool) else 0


__all__ = ["JSON", "Action", "Cartridge", "Game", "GameError", "GameEvent", "OptionError", "OptionSpec",
           "Player", "Prompt", "Refusal", "check_options", "check_players", "redeal_keeping", "seed_of", "turn_of"]
