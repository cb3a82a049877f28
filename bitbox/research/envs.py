"""PettingZoo environments for any cartridge with a research encoding.

* :class:`GameParallelEnv` (a ``pettingzoo.ParallelEnv``): every agent sends an action each
  step; the agents with a prompt open answer it, the others send no-op (0). A simultaneous
  phase (Outspeed's programming) is one step for all its players; a phase the encoding asks
  in turn (Outspeed's bonus, zone by zone) is one step per group; a turn-based game has one
  agent acting per step.
* :class:`GameAECEnv` (a ``pettingzoo.AECEnv``): one agent at a time, the acting players in
  seat order; the answers of a simultaneous phase are kept, unseen, until the last is in.

Both: observations ``{"observation": float32 vector, "action_mask": int8 vector}``
(the player's private view encoded by the game, then the selection in progress);
``Discrete`` actions over the game's fixed enumeration (:mod:`bitbox.research.encoding`);
an id outside the mask is refused (``infos[agent]["refused"]`` says why in one line, the game
is unchanged, the agent still has to answer); rewards 0 until the end, then each winner's
share of the win (1, or 1/k for k winners sharing it), 0 for the others; every agent
terminates when the game ends (an eliminated player stays an agent until then, with no-op
as its only action, unless its game still asks it something). ``reset(seed=S)`` plays the
game the cartridge deals for seed ``S`` (the same as ``cartridge.new(players, S, options)``);
``reset()`` without a seed takes the next seed from a generator seeded by the last seed
given (or by the OS).
"""
from __future__ import annotations

import operator
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ..games.protocol import Player
from ..safetext import printable
from .table import Table


def _spaces(table: Table) -> spaces.Dict:
    enc = table.encoding
    size = enc.observation_size + table.n_actions
    return spaces.Dict({
        "observation": spaces.Box(0.0, float(enc.observation_high), (size,), np.float32),
        "action_mask": spaces.Box(0, 1, (table.n_actions,), np.int8),
    })


class _Seeds:
    """The game seed of each reset: the one given, else the next from the last one given."""

    def __init__(self) -> None:
        self.rng: random.Random | None = None

    def next(self, seed: int | None) -> int:
        if seed is not None:
            self.rng = random.Random(seed)
            return int(seed)
        if self.rng is None:
            self.rng = random.Random()
        return self.rng.getrandbits(63)


class GameParallelEnv(ParallelEnv):
    """Any game with a research encoding as a ``ParallelEnv`` (see the module docstring)."""

    metadata = {"name": "bitbox_parallel_v0", "render_modes": [], "is_parallelizable": True}

    def __init__(self, game: str = "outspeed", players: int | Sequence[Player] = 4,
                 options: Mapping[str, Any] | None = None, render_mode: str | None = None) -> None:
        self.table = Table.of(game, players, options)
        self.metadata = {**self.metadata, "name": f"bitbox_{game}_parallel_v0"}
        self.possible_agents = list(self.table.players)
        self.agents: list[Player] = []
        self.render_mode = render_mode
        self._observation_space = _spaces(self.table)
        self._action_spaces = {a: spaces.Discrete(self.table.n_actions) for a in self.possible_agents}
        self._seeds = _Seeds()

    def observation_space(self, agent: Player) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: Player) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.table.new_game(self._seeds.next(seed))
        self.agents = list(self.possible_agents)
        return {a: self.table.observation(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: Mapping[Player, Any]):
        table = self.table
        infos: dict[Player, dict[str, Any]] = {a: {} for a in self.agents}
        if not self.agents:
            return {}, {}, {}, {}, {}
        acting = set(table.acting)                  # fixed for the whole step
        for agent in self.agents:                   # in seat order
            if agent not in actions:
                if agent in acting:
                    infos[agent]["refused"] = f"{agent} has a prompt open and sent no action"
                continue
            why = _act(table, agent, actions[agent])
            if why:
                infos[agent]["refused"] = why
        table.settle()
        done = table.finished
        rewards = table.rewards() if done else {a: 0.0 for a in self.agents}
        observations = {a: table.observation(a) for a in self.agents}
        terminations = {a: done for a in self.agents}
        truncations = {a: False for a in self.agents}
        rewards = {a: rewards[a] for a in self.agents}
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        raise NotImplementedError("the whole state holds hidden information: use each agent's observation")

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None

    # ---------------------------------------------------------------- for bots
    def prompt(self, agent: Player):
        """The prompt ``agent`` answers now (private to that agent), or None."""
        return self.table.prompt(agent)

    def view(self, agent: Player) -> Mapping[str, Any]:
        """``agent``'s private view (what a bot of ours reads)."""
        assert self.table.game is not None
        return self.table.game.private_view(agent)


class GameAECEnv(AECEnv):
    """Any game with a research encoding as an ``AECEnv`` (see the module docstring)."""

    metadata = {"name": "bitbox_aec_v0", "render_modes": [], "is_parallelizable": True}

    def __init__(self, game: str = "lastonealive", players: int | Sequence[Player] = 3,
                 options: Mapping[str, Any] | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.table = Table.of(game, players, options)
        self.metadata = {**self.metadata, "name": f"bitbox_{game}_aec_v0"}
        self.possible_agents = list(self.table.players)
        self.agents: list[Player] = []
        self.render_mode = render_mode
        self._observation_space = _spaces(self.table)
        self._action_spaces = {a: spaces.Discrete(self.table.n_actions) for a in self.possible_agents}
        self._seeds = _Seeds()
        self.rewards: dict[Player, float] = {}
        self._cumulative_rewards: dict[Player, float] = {}
        self.terminations: dict[Player, bool] = {}
        self.truncations: dict[Player, bool] = {}
        self.infos: dict[Player, dict[str, Any]] = {}
        self.agent_selection: Player = self.possible_agents[0]

    def observation_space(self, agent: Player) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: Player) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.table.new_game(self._seeds.next(seed))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        nxt = self.table.next_agent()
        if nxt is not None:
            self.agent_selection = nxt
        elif self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: Player) -> dict[str, np.ndarray]:
        return self.table.observation(agent)

    def step(self, action: Any) -> None:
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
            self.terminations = {a: True for a in self.agents}
        else:
            self.rewards = {a: 0.0 for a in self.agents}
        self._accumulate_rewards()
        self._select()

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None

    def prompt(self, agent: Player):
        """The prompt ``agent`` answers now (private to that agent), or None."""
        return self.table.prompt(agent)

    def view(self, agent: Player) -> Mapping[str, Any]:
        """``agent``'s private view (what a bot of ours reads)."""
        assert self.table.game is not None
        return self.table.game.private_view(agent)


def _act(table: Any, agent: Player, action: Any) -> str | None:
    """``agent``'s action taken by ``table`` (None), or the line saying why it is refused. An
    action is an integer: a Python ``int`` or a numpy integer (a 0-d integer array too), never
    a bool, a float (``numpy.float32(9.9)`` is not action 9) nor text (``"9"`` is not either):
    what ``operator.index`` takes, as numpy and Python define an integer."""
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
