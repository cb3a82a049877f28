"""PettingZoo environments for any cartridge with a research encoding.

* :class:`GameParallelEnv` (a ``pettingzoo.ParallelEnv``): every agent sends an action each
  step; the agents with a prompt open answer it, the others send no-op (0). A simultaneous
  phase (Outspeed's programming) is one step for all its players; a phase the encoding asks
  in turn (Outspeed's bonus, zone by zone) is one step per group; a turn-based game has one
  agent acting per step.
* :class:`GameAECEnv` (a ``pettingzoo.AECEnv``): one agent at a time, the acting players in
  seat order; the answers of a simultaneous phase are kept, unseen, until the last is in.

Both: observations ``{"observation": float32 vector, "action_mask": int8 vector}``
(the player's private view encoded by the game, then the selection in progress), or with
``flat=True`` the vector alone as a ``Box`` and the mask in ``infos[agent]["action_mask"]``
and :meth:`action_mask` (what SuperSuit's observation wrappers and SB3-contrib's
``ActionMasker`` need);
``Discrete`` actions over the game's fixed enumeration (:mod:`bitbox.research.encoding`),
:meth:`legal_actions` the ids the mask allows as a tuple (a policy's uniform draw:
``rng.choice(env.legal_actions(agent))``); every observation and mask is a new array of its
own;
an id outside the mask is refused (``infos[agent]["refused"]`` says why in one line, the game
is unchanged, the agent still has to answer); rewards 0 until the end, then each winner's
share of the win (1, or 1/k for k winners sharing it), 0 for the others; every agent
terminates when the game ends (an eliminated player stays an agent until then, with no-op
as its only action, unless its game still asks it something). ``reset(seed=S)`` plays the
game the cartridge deals for seed ``S`` (the same as ``cartridge.new(players, S, options)``);
``reset()`` without a seed takes the next seed from a generator seeded by the last seed
given (or by the OS). ``max_cycles=N`` truncates every agent after N steps of a game that
has not ended (rewards 0). ``render_mode`` is ``"ansi"`` (the public table as text) or
``"rgb_array"`` (the table's screen); ``state()`` is the public state (``state_space``).

What each argument takes (anything else is one :class:`~bitbox.games.GameError` line, and
nothing changes):

* ``players``: a number of players within the game's bounds (a Python or numpy integer, not a
  bool) or a sequence of distinct non-empty names; ``options``: a mapping of the game's option
  names to values (or None); ``render_mode``: ``"ansi"``, ``"rgb_array"`` or None;
  ``max_cycles``: an int, 1 or more, or None; ``flat``: a bool (or numpy bool).
* ``reset(seed=S)``: ``S`` a Python or numpy integer, or None (a float, even ``1.0``, NaN,
  text, a bool or a list is refused, never truncated).
* ``ParallelEnv.step(actions)``: a mapping of agents (each one of ``possible_agents``) to
  action ids; an agent's action that is not a legal integer id is refused in
  ``infos[agent]["refused"]`` instead (the game unchanged, the agent still to answer).
* ``observe``, ``action_mask``, ``legal_actions``: an agent of ``possible_agents``.
* ``step``, ``observe``, ``action_mask``, ``legal_actions``, ``state``, ``view`` need a game:
  before the first ``reset()`` they say ``no game yet: call reset() first``.
"""
from __future__ import annotations

import operator
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ..games import GameError
from ..games.protocol import Player
from ..safetext import printable
from .table import Table

RENDER_MODES = ("ansi", "rgb_array")


class _Common:
    """What both environments share: spaces, render modes, the public state, truncation."""

    metadata: dict[str, Any]
    table: Table
    possible_agents: list[Player]
    agents: list[Player]

    def _setup(self, game: str, players: int | Sequence[Player], options: Mapping[str, Any] | None,
               render_mode: str | None, max_cycles: int | None, flat: bool) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise GameError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
        if max_cycles is not None and (isinstance(max_cycles, bool) or not isinstance(max_cycles, int)
                                       or max_cycles < 1):
            raise GameError(f"max_cycles must be a whole number of steps, 1 or more (or None), not {max_cycles!r}")
        if not isinstance(flat, (bool, np.bool_)):
            raise GameError(f"flat must be True or False, not {printable(repr(flat), 60)}")
        self.table = Table.of(game, players, options)
        self.metadata = {**self.metadata, "name": f"{game}_v0"}
        self.possible_agents = list(self.table.players)
        self.agents = []
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.flat = bool(flat)
        enc = self.table.encoding
        high = float(enc.observation_high)
        vector = spaces.Box(0.0, high, (enc.observation_size + self.table.n_actions,), np.float32)
        mask = spaces.Box(0, 1, (self.table.n_actions,), np.int8)
        self._observation_space: spaces.Space = vector if self.flat else spaces.Dict(
            {"observation": vector, "action_mask": mask})
        self._action_spaces = {a: spaces.Discrete(self.table.n_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(0.0, high, (enc.observation_size,), np.float32)
        self._seeds = _Seeds()
        self._frames: Any = None
        self.cycles = 0

    def observation_space(self, agent: Player) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: Player) -> spaces.Space:
        return self._action_spaces[agent]

    def _observe(self, agent: Player) -> Any:
        vec = self.table.features(agent)
        return vec if self.flat else {"observation": vec, "action_mask": self.table.mask(agent)}

    def _observe_all(self, agents: Sequence[Player]) -> dict[Player, Any]:
        """Every agent's observation at this moment, from one public view."""
        features = self.table.features_of(agents)
        if self.flat:
            return features
        return {a: {"observation": features[a], "action_mask": self.table.mask(a)} for a in agents}

    def _info(self, agent: Player) -> dict[str, Any]:
        return {"action_mask": self.table.mask(agent)} if self.flat else {}

    def _truncated(self) -> bool:
        """Count a step; True when it is the last one ``max_cycles`` allows."""
        self.cycles += 1
        return self.max_cycles is not None and self.cycles >= self.max_cycles and not self.table.finished

    def state(self) -> np.ndarray:
        """The public state (``state_space``): what the whole table sees, nothing hidden."""
        self._started()
        return self.table.state()

    def _known(self, agent: Player) -> Player:
        """``agent``, one of the players (else one GameError line, as ``observe`` says it)."""
        if agent not in self.table.players:
            raise GameError(f"unknown player {printable(repr(agent), 60)} (players: {', '.join(self.table.players)})")
        return agent

    def _started(self) -> None:
        """Refuse, in one line, what needs a game before the first ``reset()``."""
        if self.table.game is None:
            raise GameError("no game yet: call reset() first")

    def render(self) -> Any:
        """``"ansi"``: the public table as text; ``"rgb_array"``: the table's screen as an
        ``(H, W, 3)`` uint8 array; nothing without a render mode."""
        if self.render_mode is None or self.table.game is None:
            return None
        from . import render
        view = self.table.game.public_view()
        if self.render_mode == "ansi":
            return render.text(view, self.table.cartridge.title)
        if self._frames is None:
            self._frames = render.Frames(self.table.encoding)
        return self._frames.frame(view, self.table.cartridge.title)

    def close(self) -> None:
        self._frames = None

    def action_mask(self, agent: Player | None = None) -> np.ndarray:
        """``agent``'s legal actions now (1 for each legal id): by default the agent to act
        (the AEC environment's ``agent_selection``; the parallel one's first agent with a
        prompt open). What SB3-contrib's ``ActionMasker`` asks for."""
        table = self.table
        if type(agent) is str and agent in table.acting:    # the usual case: a known player, asked now
            return table.mask(agent)
        return table.mask(self._agent(agent))

    def legal_actions(self, agent: Player | None = None) -> tuple[int, ...]:
        """The ids :meth:`action_mask` allows for ``agent`` now, in increasing order
        (``tuple(np.flatnonzero(env.action_mask(agent)))`` as Python ints; by default the
        agent to act): a tuple made once per prompt shape and selection and shared, which a
        policy draws from directly (``rng.choice(env.legal_actions(agent))``)."""
        table = self.table
        if type(agent) is str and agent in table.acting:    # the usual case: a known player, asked now
            return table.legal(agent)
        return table.legal(self._agent(agent))

    def _agent(self, agent: Player | None) -> Player:
        """``agent`` checked (a game started, one of the players), or the agent to act for None."""
        self._started()
        return self._default_agent() if agent is None else self._known(agent)

    def _default_agent(self) -> Player:
        return self.table.next_agent() or self.possible_agents[0]

    # ---------------------------------------------------------------- for bots
    def prompt(self, agent: Player):
        """The prompt ``agent`` answers now (private to that agent), or None."""
        return self.table.prompt(agent)

    def view(self, agent: Player) -> Mapping[str, Any]:
        """``agent``'s private view (what a bot of ours reads)."""
        self._started()
        assert self.table.game is not None
        return self.table.game.private_view(agent)


class _Seeds:
    """The game seed of each reset: the one given, else the next from the last one given."""

    def __init__(self) -> None:
        self.rng: random.Random | None = None

    def next(self, seed: int | None) -> int:
        """The game seed: ``seed`` itself (a Python or numpy integer, not a bool; anything else
        is one GameError line and changes nothing), else the next from the generator."""
        if seed is not None:
            value = _seed(seed)
            self.rng = random.Random(value)
            return value
        if self.rng is None:
            self.rng = random.Random()
        return self.rng.getrandbits(63)


def _seed(seed: Any) -> int:
    """``seed`` as an int: what ``operator.index`` takes (a Python or numpy integer, a 0-d
    integer array), not a bool; a float (even 1.0), NaN, text or a list is refused, never
    truncated."""
    if not isinstance(seed, (bool, np.bool_)):
        try:
            return operator.index(seed)
        except TypeError:
            pass
    raise GameError(f"a seed is a whole number (or None), not {printable(repr(seed), 60)}")


class GameParallelEnv(_Common, ParallelEnv):
    """Any game with a research encoding as a ``ParallelEnv`` (see the module docstring)."""

    metadata = {"name": "bitbox_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": True}

    def __init__(self, game: str = "outspeed", players: int | Sequence[Player] = 4,
                 options: Mapping[str, Any] | None = None, render_mode: str | None = None,
                 max_cycles: int | None = None, flat: bool = False) -> None:
        self._setup(game, players, options, render_mode, max_cycles, flat)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.table.new_game(self._seeds.next(seed))
        self.agents = list(self.possible_agents)
        self.cycles = 0
        return self._observe_all(self.agents), {a: self._info(a) for a in self.agents}

    def step(self, actions: Mapping[Player, Any]):
        self._started()
        if type(actions) is not dict and not isinstance(actions, Mapping):
            raise GameError(f"actions are a mapping of agent to action id, not {printable(repr(actions), 60)}")
        players = self.table.players
        for agent in actions:
            if agent not in players:                # refused before any action is taken
                raise GameError(f"unknown player {printable(repr(agent), 60)} in the actions "
                                f"(players: {', '.join(players)})")
        table = self.table
        if not self.agents:
            return {}, {}, {}, {}, {}
        infos: dict[Player, dict[str, Any]] = {a: {} for a in self.agents}
        acting = set(table.acting)                  # fixed for the whole step
        for agent in self.agents:                   # in seat order
            if agent not in actions:
                if agent in acting:
                    infos[agent]["refused"] = f"{agent} has a prompt open and sent no action"
                continue
            action = actions[agent]
            why = table.act(agent, action) if type(action) is int else _act(table, agent, action)
            if why:
                infos[agent]["refused"] = why
        table.settle()
        done = table.finished
        cut = self._truncated()
        if done:
            won = table.rewards()
            rewards = {a: won[a] for a in self.agents}
        else:
            rewards = dict.fromkeys(self.agents, 0.0)
        observations = self._observe_all(self.agents)
        if self.flat:
            for a in self.agents:
                infos[a]["action_mask"] = table.mask(a)
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, cut)
        if done or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _default_agent(self) -> Player:
        for a in self.agents:
            if a in self.table.acting:
                return a
        return self.possible_agents[0]


class GameAECEnv(_Common, AECEnv):
    """Any game with a research encoding as an ``AECEnv`` (see the module docstring).

    One agent acts at a time (the next with a prompt open), not every agent once a cycle:
    PettingZoo's ``aec_to_parallel`` does not apply (the metadata says so); its
    ``turn_based_aec_to_parallel`` does, and :class:`GameParallelEnv` plays the same games."""

    metadata = {"name": "bitbox_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(self, game: str = "lastonealive", players: int | Sequence[Player] = 3,
                 options: Mapping[str, Any] | None = None, render_mode: str | None = None,
                 max_cycles: int | None = None, flat: bool = False) -> None:
        AECEnv.__init__(self)
        self._setup(game, players, options, render_mode, max_cycles, flat)
        self.rewards: dict[Player, float] = {}
        self._cumulative_rewards: dict[Player, float] = {}
        self.terminations: dict[Player, bool] = {}
        self.truncations: dict[Player, bool] = {}
        self.infos: dict[Player, dict[str, Any]] = {}
        self.agent_selection: Player = self.possible_agents[0]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.table.new_game(self._seeds.next(seed))
        self.agents = list(self.possible_agents)
        self.cycles = 0
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: self._info(a) for a in self.agents}
        self._select()

    def _select(self) -> None:
        nxt = self.table.next_agent()
        if nxt is not None and not any(self.truncations.values()):
            self.agent_selection = nxt
        elif self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: Player) -> Any:
        self._started()
        return self._observe(agent)

    def step(self, action: Any) -> None:
        self._started()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        table = self.table
        why = _act(table, agent, action) if action is not None else f"{agent} sent no action"
        self.infos = {a: {} for a in self.agents}
        if why:
            self.infos[agent]["refused"] = why
        table.settle()
        if table.finished:
            self.rewards = table.rewards()
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            if self._truncated():
                self.truncations = dict.fromkeys(self.agents, True)
        if self.flat:
            for a in self.agents:
                self.infos[a]["action_mask"] = table.mask(a)
        if table.finished:                          # before, every reward is 0: nothing to add
            self._accumulate_rewards()
        self._select()

    def _default_agent(self) -> Player:
        return self.agent_selection


def _act(table: Any, agent: Player, action: Any) -> str | None:
    """``agent``'s action taken by ``table`` (None), or the line saying why it is refused. An
    action is an integer: a Python ``int`` or a numpy integer (a 0-d integer array too), never
    a bool, a float (``numpy.float32(9.9)`` is not action 9) nor text (``"9"`` is not either):
    what ``operator.index`` takes, as numpy and Python define an integer."""
    if type(action) is int:                         # the usual case (a bool's type is bool)
        return table.act(agent, action)
    if isinstance(action, (bool, np.bool_)):
        return f"{agent}: the action {action!r} is not an integer (an action id from the action mask)"
    try:
        value = operator.index(action)
    except TypeError:
        text = repr(action)
        text = text if len(text) <= 40 else text[:37] + "..."
        return f"{agent}: the action {printable(text, 40)} is not an integer (an action id from the action mask)"
    return table.act(agent, value)


class BotPolicy:
    """A bot of ours (``choose(view, prompt)``) playing through an environment: for an agent
    with a prompt open, the next id of the bot's answer (one id per call for a composite
    answer, then confirm when it needs one); no-op otherwise."""

    def __init__(self, env: GameParallelEnv | GameAECEnv, bots: Mapping[Player, Any]) -> None:
        self.env = env
        self.bots = dict(bots)
        self._plans: dict[Player, tuple[Any, Any]] = {}      # agent -> (prompt, answer)

    def __call__(self, agent: Player) -> int:
        table = self.env.table
        prompt = table.prompt(agent)
        if prompt is None:
            return 0
        plan = self._plans.get(agent)
        if plan is None or plan[0] is not prompt:
            answer = self.bots[agent].choose(self.env.view(agent), prompt)
            plan = self._plans[agent] = (prompt, answer)
        return table.ids_to(agent, plan[1])[0]


__all__ = ["BotPolicy", "GameAECEnv", "GameParallelEnv"]
