"""OpenSpiel games for the console's cartridges (the optional extra ``openspiel``).

    pip install ".[openspiel]"
    import bitbox.research.openspiel          # registers bitbox_outspeed, bitbox_lastonealive, ...
    game = pyspiel.load_game("bitbox_outspeed", {"players": 3})

Importing this module registers every installed cartridge with a research encoding (the
entry points ``bitbox.research``, as for the PettingZoo environments) as the pyspiel game
``bitbox_<name>``. It is built on the game protocol through :class:`~bitbox.research.table.Table`,
as the environments are, so one game's particulars are only its encoding:

* **Turns.** Sequential: the player to move is the next with a prompt open, in seat order. A
  simultaneous phase (Outspeed's programming) is asked one player after another, the answers
  kept unseen until the last is in and then applied together, so it is a phase of imperfect
  information, as at the table. A composite answer (Last One Alive's chosen dice) is chosen
  one part per move, then *confirm* when it could grow; a prompt with one option, or one the
  game marks ``auto``, is answered without a move.
* **Chance** is drawn inside the game from its seed (``ChanceMode.SAMPLED_STOCHASTIC``: no
  chance nodes). Each new initial state takes the next seed from a generator seeded by the
  parameter ``seed`` (-1: from the OS; pyspiel itself makes initial states too, to clone a
  state and to size a tensor, so a run is repeatable as a whole, not state by state). Clones
  and serialised states carry the random state, so the same actions give the same game (a
  serialised resampled state carries its game's data and its history as it is: see below).
* **Actions.** The encoding's ids (``num_distinct_actions``: no-op, confirm, then the game's
  own); the legal ones are the mask of the player to move; ``action_to_string`` is the
  encoding's name of the id.
* **Observations.** ``observation_string``: the player's private view as JSON, the open
  prompt's kind and the selection in progress; ``observation_tensor``: the environments'
  observation vector. **Information state**: the same, plus the player's whole history: every
  public event of the game so far, each prompt they were asked (with what it showed them) and
  each of their moves (``information_state_string``); the tensor adds the count of each of
  their moves. Nothing in either depends on another player's hidden parts.
* **Rewards** at the end only: each winner's share of the win (1, or 1/k for k winners), 0
  for the others (``GENERAL_SUM``: Outspeed's game without a winner gives 0 to all). A game
  still going after ``max_game_length`` moves (a parameter) ends with 0 for everyone.
* **resample_from_infostate(player)**: a state the player cannot tell apart from this one,
  in which nothing depends on what is hidden from the player: :meth:`Cartridge.redeal` with
  ``keep=player`` (what the player knows stays, every other hidden part is drawn again; the
  game's seed is the redeal's), the other players' answers waiting unseen drawn again among
  their options, and a memory of the player's own and of what was public. Chance being inside
  the game, a history does not make a state, so a resampled state's **history is the
  player's own moves** in this state's history (``history()``, ``full_history()``,
  ``history_str()``, ``move_number()`` and its move count for ``max_game_length`` alike),
  followed by the moves applied to it afterwards; the other players' moves, whose parts, order
  and number may be hidden, are not in it. Its seed is the one its hidden parts were drawn
  from. ``probability_sampler`` is accepted for the signature; the draws come from the game's
  generator.

Parameters: ``players`` (a number), ``seed``, ``max_game_length``, then the game's own options
(``bitbox games`` lists them) with their defaults.
"""
from __future__ import annotations

import copy
import json
import operator
import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..games import GameError, find, names, redeal_keeping
from ..safetext import printable
from .table import Table, find_encoding

try:
    import pyspiel
except ImportError:                                                     # the extra is not installed
    raise ImportError('the OpenSpiel games need open-spiel: pip install ".[openspiel]"') from None

PREFIX = "bitbox_"
#: The default move limit: far above the longest game seen in random play (docs/research.md).
MAX_GAME_LENGTH = 5000


def _players(cartridge: Any) -> int:
    return min(max(4, cartridge.min_players), cartridge.max_players)


def game_type(name: str) -> Any:
    """The pyspiel ``GameType`` of the cartridge ``name``."""
    cartridge = find(name)
    params: dict[str, Any] = {"players": _players(cartridge), "seed": -1, "max_game_length": MAX_GAME_LENGTH}
    for spec in cartridge.options:
        if isinstance(spec.default, (bool, int, float, str)):
            params[spec.name] = spec.default
    return pyspiel.GameType(
        short_name=PREFIX + name, long_name=f"{cartridge.title} (bitbox)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cartridge.max_players, min_num_players=cartridge.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=params)


class BitboxGame(pyspiel.Game):
    """One cartridge as a pyspiel game (see the module docstring)."""

    def __init__(self, name: str, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        gtype = game_type(name)
        spec = gtype.parameter_specification
        unknown = sorted(set(params) - set(spec))
        if unknown:
            raise GameError(f"{PREFIX}{name} has no parameter {unknown[0]!r} (parameters: {', '.join(spec)})")
        values = {k: params.get(k, v) for k, v in spec.items()}
        cartridge = find(name)
        from ..games.conformance import player_names
        count = int(values["players"])
        if not cartridge.min_players <= count <= cartridge.max_players:      # before a name per player
            raise GameError(f"{cartridge.title} is for {cartridge.min_players} to {cartridge.max_players} players, "
                            f"not {count}")
        players = player_names(cartridge, count)
        options = {o.name: values[o.name] for o in cartridge.options if o.name in values}
        self.table = Table(cartridge, find_encoding(name), players, options)   # a template: never played
        self.max_length = int(values["max_game_length"])
        if self.max_length < 1:
            raise GameError(f"max_game_length must be 1 or more, not {self.max_length}")
        seed = int(values["seed"])
        self.rng = random.Random(seed if seed >= 0 else None)
        enc = self.table.encoding
        self.n_actions = self.table.n_actions
        self.observation_size = enc.observation_size + self.n_actions
        info = pyspiel.GameInfo(num_distinct_actions=self.n_actions, max_chance_outcomes=0,
                                num_players=len(players), min_utility=0.0, max_utility=1.0,
                                max_game_length=self.max_length)
        super().__init__(gtype, info, {k: values[k] for k in spec})

    def new_initial_state(self) -> "BitboxState":
        return BitboxState(self)

    def deserialize_state(self, text: str) -> "BitboxState":
        """The state :meth:`BitboxState.serialize` wrote: its seed's game dealt again and its
        moves replayed, each one checked legal (a state resampled from an information state is
        its game's data, read through the cartridge's ``from_data``, with its history as it
        is). Plain
        JSON: nothing in the text is ever run (pyspiel's own default unpickles it). A text
        that is not such a state raises ``pyspiel.SpielError`` with one line saying why."""
        return _deserialize(self, text)

    def next_seed(self) -> int:
        return self.rng.getrandbits(63)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "Observer":
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class Memory:
    """What each player has seen so far, entry by entry: ``(public, text)``; and the count
    of each of their moves (the information-state tensor's history part)."""

    def __init__(self, players: tuple[str, ...], n_actions: int) -> None:
        self.trail: dict[str, list[tuple[bool, str]]] = {p: [] for p in players}
        self.moves: dict[str, np.ndarray] = {p: np.zeros(n_actions, np.float32) for p in players}
        self.asked: dict[str, int] = {}                     # player -> the phase (Table.applied) last asked

    def __deepcopy__(self, memo: dict) -> "Memory":
        other = copy.copy(self)
        other.trail = {p: list(t) for p, t in self.trail.items()}
        other.moves = {p: m.copy() for p, m in self.moves.items()}
        other.asked = dict(self.asked)
        return other

    def to_data(self) -> dict[str, Any]:
        return {"trail": {p: [[public, text] for public, text in t] for p, t in self.trail.items()},
                "moves": {p: [float(x) for x in m] for p, m in self.moves.items()}, "asked": dict(self.asked)}

    @classmethod
    def from_data(cls, data: Any, players: tuple[str, ...], n_actions: int) -> "Memory":
        """:meth:`to_data` read back, every part checked (:class:`ValueError` says which)."""
        memory = cls(players, n_actions)
        if not isinstance(data, dict) or set(data) != {"trail", "moves", "asked"}:
            raise ValueError("its memory is not one")
        trail, moves, asked = data["trail"], data["moves"], data["asked"]
        if not (isinstance(trail, dict) and isinstance(moves, dict) and isinstance(asked, dict)) or \
                set(trail) != set(players) or set(moves) != set(players) or not set(asked) <= set(players):
            raise ValueError("its memory is not the players'")
        for p in players:
            entries = trail[p]
            if not isinstance(entries, list) or not all(
                    isinstance(e, list) and len(e) == 2 and isinstance(e[0], bool) and isinstance(e[1], str)
                    for e in entries):
                raise ValueError(f"its memory of {p} is not a list of [public, text] entries")
            memory.trail[p] = [(e[0], e[1]) for e in entries]
            counts = moves[p]
            if not isinstance(counts, list) or len(counts) != n_actions or not all(
                    type(x) in (int, float) and 0 <= x <= 1e9 for x in counts):
                raise ValueError(f"its move counts of {p} are not {n_actions} counts")
            memory.moves[p][:] = counts
        for p, applied in asked.items():
            if type(applied) is not int or applied < 0:
                raise ValueError(f"its memory of what {p} was asked is not a phase number")
            memory.asked[p] = applied
        return memory

    def forget_others(self, keep: str) -> None:
        """Only ``keep``'s own memory stays whole; the others keep what was public."""
        for p, t in self.trail.items():
            if p != keep:
                self.trail[p] = [e for e in t if e[0]]
                self.moves[p][:] = 0
                self.asked.pop(p, None)


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


class BitboxState(pyspiel.State):
    """A game in progress (see the module docstring). Its game is dealt on first use, so a
    state made only to be overwritten (pyspiel's clone and deserialisation) costs nothing."""

    def __init__(self, game: BitboxGame) -> None:
        super().__init__(game)
        self._seed = game.next_seed()
        self._table: Table | None = None
        self._memory: Memory | None = None
        self._moves = 0
        self._recording: int | None = None     # set while _rebuild records a move by this player
        self._resampled = False                 # a world resampled from an information state

    # ------------------------------------------------------------------ the game
    def _t(self) -> Table:
        if self._table is None:
            game: BitboxGame = self.get_game()
            t = game.table
            table = Table(t.cartridge, t.encoding, t.players, t.options)
            table.log = []
            table.new_game(self._seed)
            self._table = table
            self._memory = Memory(table.players, table.n_actions)
            self._note()
        return self._table

    def _note(self) -> None:
        """Remember what the last move showed: the events applied (public), the prompts opened."""
        table, memory = self._table, self._memory
        assert table is not None and memory is not None and table.log is not None
        if table.log:
            lines = [(True, f"{e.kind} {_json(e.data)}") for e in table.log]
            for t in memory.trail.values():
                t.extend(lines)
            table.log.clear()
        for p, prompt in table.acting.items():             # a prompt opens once per phase applied
            if memory.asked.get(p) != table.applied:
                memory.asked[p] = table.applied
                memory.trail[p].append((False, f"asked {prompt.kind} {_json(dict(prompt.context))}"))

    def current_player(self) -> int:
        if self._recording is not None:
            return self._recording
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        table = self._t()
        nxt = table.next_agent()
        assert nxt is not None
        return table.players.index(nxt)

    def is_terminal(self) -> bool:
        return self._t().finished or self._moves >= self.get_game().max_length

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or player != self.current_player():
            return []
        table = self._t()
        return list(table.legal(table.players[player]))

    def _apply_action(self, action: int) -> None:
        if self._recording is not None:                 # _rebuild: the move is history only
            return
        table = self._t()
        name = table.players[self.current_player()]
        why = table.act(name, int(action))
        if why:
            raise pyspiel.SpielError(why)
        assert self._memory is not None
        self._memory.moves[name][action] += 1
        self._memory.trail[name].append((False, f"moved {self._name(action)}"))
        table.settle()
        self._moves += 1
        self._note()

    def _name(self, action: int) -> str:
        return self._t().describe(int(action)).rsplit(" (", 1)[0]

    def _action_to_string(self, player: int, action: int) -> str:
        return self._name(action)

    def returns(self) -> list[float]:
        table = self._t()
        rewards = table.rewards()
        return [rewards[p] for p in table.players]

    def __str__(self) -> str:
        table = self._t()
        assert table.game is not None
        c = table.cartridge
        return _json({"game": table.game.to_data(), "moves": self._moves,
                      "waiting": {p: c.action_to_data(a) for p, a in table.pending.items()},
                      "selection": {p: sorted(s.elements()) for p, s in table.staged.items()}})

    def serialize(self) -> str:
        """The state as JSON text (:meth:`BitboxGame.deserialize_state` reads it back): the
        seed of its game, its moves, and the game's data with what each player remembers. A
        state resampled from an information state adds ``movers``, the player of each move of
        its history: its history is read back as it is, not replayed, and its game is the
        data's (the module docstring says what such a state holds)."""
        table = self._t()
        assert self._memory is not None
        data = {"format": STATE_FORMAT, "seed": self._seed, "history": [int(a) for a in self.history()],
                "moves": self._moves, "table": table.__getstate__(), "memory": self._memory.to_data()}
        if self._resampled:
            data["movers"] = [int(pa.player) for pa in self.full_history()]
        return json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)

    # ------------------------------------------------------------------ what a player knows
    def observation_text(self, player: int, recall: bool) -> str:
        table = self._t()
        assert table.game is not None and self._memory is not None
        name = table.players[player]
        prompt = table.prompt(name)
        now = _json({"view": table.game.private_view(name), "asked": None if prompt is None else prompt.kind,
                     "selection": sorted(table.selection(name).elements())})
        if not recall:
            return now
        return "\n".join([t for _, t in self._memory.trail[name]] + [now])

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> "BitboxState":
        """A state ``player_id`` cannot tell apart from this one, and that tells nothing the
        player does not know (see the module docstring): a new state whose history is the
        player's own moves, whose game is this one redealt keeping what the player knows,
        with the other players' answers waiting drawn again, and whose memory is the player's
        own and what was public."""
        table = self._t()
        assert table.game is not None and self._memory is not None
        game: BitboxGame = self.get_game()
        try:
            player_id = operator.index(player_id)           # an int, numpy's, pyspiel's PlayerId
        except TypeError:
            pass
        if type(player_id) is not int or not 0 <= player_id < len(table.players):
            raise pyspiel.SpielError(f"resample_from_infostate: {printable(repr(player_id), 40)} is not a player "
                                     f"(0 to {len(table.players) - 1})")
        name = table.players[player_id]
        other = BitboxState(game)                       # its seed: the one the world is drawn from
        world = copy.deepcopy(table)
        kept = redeal_keeping(table.cartridge, table.game, other._seed, name)
        world.game = kept if kept is not None else table.cartridge.redeal(table.game, other._seed)   # no keep
        prompts = {p.player: p for p in world.game.prompts()}
        waiting = {}
        for p, answer in table.pending.items():
            options = prompts[p].options
            if p == name and answer in options:
                waiting[p] = answer
            elif len(options) == 1 or prompts[p].context.get("auto") is True:
                waiting[p] = options[0]
            else:
                waiting[p] = options[game.rng.randrange(len(options))]
        world.pending = waiting
        world.staged = {p: s for p, s in world.staged.items() if p == name}
        world.log = []
        world._advance()
        memory = copy.deepcopy(self._memory)
        memory.forget_others(name)
        own = [int(pa.action) for pa in self.full_history() if pa.player == player_id]
        other._rebuild([player_id] * len(own), own, world, memory)
        return other

    def _rebuild(self, movers: list[int], history: list[int], table: Table, memory: Memory) -> None:
        """Make this new state the world ``table`` with ``memory`` and the history ``history``
        (``movers[i]`` made move ``i``): pyspiel's history is only built by applying moves,
        so each is applied as history alone, then the world is put in place."""
        for player, action in zip(movers, history):
            self._recording = player
            try:
                self.apply_action(action)
            finally:
                self._recording = None
        self._table, self._memory, self._moves = table, memory, len(history)
        self._resampled = True
        self._note()                                    # the others acting in the world are asked now


#: The first field of a serialised state (:meth:`BitboxState.serialize`).
STATE_FORMAT = "bitbox-openspiel-state/1"
#: A serialised state longer than this is refused before it is parsed.
MAX_STATE_CHARS = 50_000_000


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a number of JSON")


def _deserialize(game: BitboxGame, text: Any) -> BitboxState:
    name = game.get_type().short_name

    def refuse(why: str) -> pyspiel.SpielError:
        return pyspiel.SpielError(f"not a serialised {name} state: {why}")
    if not isinstance(text, str):
        raise refuse(f"a state is text, not {type(text).__name__}")
    if len(text) > MAX_STATE_CHARS:
        raise refuse(f"{len(text)} characters, more than {MAX_STATE_CHARS}")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise refuse(f"not its JSON ({printable(str(exc), 80)})") from None
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        raise refuse(f"its first field is not \"format\": \"{STATE_FORMAT}\"")
    if set(data) != {"format", "seed", "history", "moves", "table", "memory"} and \
            set(data) != {"format", "seed", "history", "moves", "table", "memory", "movers"}:
        raise refuse(f"its fields are not {', '.join(sorted(['format', 'seed', 'history', 'moves', 'table', 'memory']))}"
                     " (and movers, for a resampled state)")
    seed, history, moves = data["seed"], data["history"], data["moves"]
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise refuse(f"its seed {printable(repr(seed), 40)} is not a whole number from 0 to 2^63 - 1")
    if not isinstance(history, list) or not all(type(a) is int for a in history):
        raise refuse("its history is not a list of action ids")
    if type(moves) is not int or moves != len(history):
        raise refuse(f"its move count {printable(repr(moves), 40)} is not the length of its history ({len(history)})")
    state = BitboxState(game)
    state._seed = seed
    if "movers" in data:                                # a resampled world: its history as it is
        return _resampled(game, state, data, refuse)
    for n, action in enumerate(history, 1):            # each move legal where it is made
        if state.is_terminal():
            raise refuse(f"move {n} comes after the end of the game")
        if action not in state.legal_actions():
            raise refuse(f"move {n}, action {action}, is not legal there")
        state.apply_action(action)
    table = state._t()
    try:
        remembered = Memory.from_data(data["memory"], table.players, table.n_actions)
        stored = json.loads(json.dumps(table.__getstate__(), allow_nan=False))
    except ValueError as exc:
        raise refuse(printable(str(exc), 120)) from None
    if data["table"] != stored:                         # not its seed's game: a resampled world
        state._table, state._memory = _world(table, data["table"], refuse), remembered
    return state


def _resampled(game: BitboxGame, state: BitboxState, data: dict[str, Any], refuse: Any) -> BitboxState:
    """A state :meth:`BitboxState.resample_from_infostate` made, read back: its history
    recorded move by move (each action an id of the game, each mover a player), its world
    and memory from the data."""
    history, movers, template = data["history"], data["movers"], game.table
    if not isinstance(movers, list) or len(movers) != len(history) or \
            not all(type(p) is int and 0 <= p < len(template.players) for p in movers):
        raise refuse(f"its movers are not one player from 0 to {len(template.players) - 1} per move of its history")
    if not all(0 <= a < template.n_actions for a in history):
        raise refuse(f"its history is not a list of action ids from 0 to {template.n_actions - 1}")
    world = _world(template, data["table"], refuse)
    try:
        memory = Memory.from_data(data["memory"], template.players, template.n_actions)
    except ValueError as exc:
        raise refuse(printable(str(exc), 120)) from None
    state._rebuild(movers, history, world, memory)
    return state


def _world(table: Table, data: Any, refuse: Any) -> Table:
    """The table a resampled state carries, read through the cartridge's ``from_data`` and
    ``action_from_data``, every part checked."""
    c = table.cartridge
    if not isinstance(data, dict) or set(data) != {"game", "players", "options", "data", "pending", "staged",
                                                   "applied", "log"}:
        raise refuse("its table is not one")
    if data["game"] != c.name or data["players"] != list(table.players) or data["options"] != \
            json.loads(json.dumps(table.options)) or data["log"] is not True:
        raise refuse(f"its table is not this game's ({c.name}, {', '.join(table.players)}, its options)")
    pending, staged, applied = data["pending"], data["staged"], data["applied"]
    if not isinstance(data["data"], dict) or not isinstance(pending, dict) or not set(pending) <= set(table.players) \
            or not isinstance(staged, dict) or not set(staged) <= set(table.players) \
            or type(applied) is not int or applied < 0:
        raise refuse("its table's game, answers waiting, selections or phase count are not what a table holds")
    if not all(isinstance(ids, list) and all(type(i) is int and 0 <= i < table.n_actions for i in ids)
               for ids in staged.values()):
        raise refuse(f"a selection in progress is not a list of action ids from 0 to {table.n_actions - 1}")
    other = Table(c, table.encoding, table.players, table.options)
    try:
        other.__setstate__({**data, "log": True})
    except (GameError, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise refuse(f"{type(exc).__name__}: {printable(str(exc), 120)}") from None
    return other


class Observer:
    """pyspiel's observer of a state: the observation (``perfect_recall=False``) or the
    information state (``True``) of a player; with ``private_info`` NONE, the public state."""

    def __init__(self, game: BitboxGame, kind: Any) -> None:
        self.recall = bool(kind.perfect_recall)
        self.public = kind.private_info == pyspiel.PrivateInfoType.NONE
        enc = game.table.encoding
        if self.public:
            size = enc.observation_size
        else:
            size = game.observation_size + (game.n_actions if self.recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BitboxState, player: int) -> None:
        table = state._t()
        if self.public:
            self.tensor[:] = table.state()
            return
        name = table.players[player]
        features = table.features(name)
        self.tensor[:len(features)] = features
        if self.recall:
            assert state._memory is not None
            self.tensor[len(features):] = state._memory.moves[name]

    def string_from(self, state: BitboxState, player: int) -> str:
        table = state._t()
        if self.public:
            assert table.game is not None
            return _json(table.game.public_view())
        return state.observation_text(player, self.recall)


def _creator(name: str) -> type:
    """The game's class, as pyspiel registers Python games (``cls(params)``)."""
    def __init__(self: BitboxGame, params: Mapping[str, Any] | None = None) -> None:
        BitboxGame.__init__(self, name, params)
    return type(f"BitboxGame_{name}", (BitboxGame,), {"__init__": __init__, "__module__": __name__})


def register() -> list[str]:
    """Register every installed cartridge with a research encoding (once); their pyspiel names."""
    from .table import research_entry_points
    registered = set(pyspiel.registered_names())
    out = []
    for game in sorted(set(research_entry_points()) & set(names())):
        short = PREFIX + game
        if short not in registered:
            pyspiel.register_game(game_type(game), _creator(game))
        out.append(short)
    return out


GAMES = register()

__all__ = ["GAMES", "MAX_GAME_LENGTH", "MAX_STATE_CHARS", "PREFIX", "STATE_FORMAT", "BitboxGame", "BitboxState", "Observer", "game_type", "register"]
