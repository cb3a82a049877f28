"""What a game gives the research environments: a fixed enumeration of its answers and a
fixed-size observation.

The environments (:mod:`bitbox.research.envs`) work on any cartridge through the game
protocol; the only game-specific part is an :class:`Encoding`, which a game declares in its
distribution's entry points (group ``bitbox.research``, the value names an object or a
function of no arguments that returns one)::

    [project.entry-points."bitbox.research"]
    outspeed = "outspeed.research:encoding"

**Actions.** Every agent's action space is ``Discrete(2 + encoding.size)``: id 0 is *no-op*
(the only legal action of an agent with no prompt open), id 1 is *confirm* (ends a
selection, below), ids ``2 …`` are the game's own enumeration (:attr:`Encoding.names`).
:meth:`Encoding.ids` turns one legal answer (a member of a prompt's options) into the
game's ids of it, as a multiset: most answers are one id; an answer made of several parts
(Last One Alive's four chosen dice, the dice a hero token re-rolls, the three tokens kept)
is the multiset of its parts, chosen one id per step. The environment derives everything
else from the prompt's options: an id is legal when some option contains the selection so
far plus it; *confirm* is legal when the selection is an option itself and a longer one is
possible; a selection that is an option and cannot grow is applied at once.

**Observations.** :meth:`Encoding.observe` turns one player's private view (and the prompt
open for that player, when there is one) into a float32 vector of
:attr:`Encoding.observation_size` values, each a count or a 0/1 flag; its layout is
documented by the game (docs/research.md). The environment appends the selection in progress.

**Turns.** :meth:`Encoding.acting` picks, among the prompts open and not yet answered, the
ones answered now (by default: all of them at once). Outspeed's bonus phase uses it to ask
the players zone by zone, front to back, as the table does.

**Reading the game directly (optional).** A :class:`SplitEncoding` may also override
``public_part_of(game, o)`` (writes what ``public_part(game.public_view(), o)`` writes) and
``private_entries_of(game, player, prompt)`` (gives what ``private_entries(
game.private_view(player), player, prompt)`` gives): the environments then build no view for
an observation. Each must give exactly what its view path gives, value for value, and read
only what the view shows (the game's tests compare the two over many games).

**Optional.** An encoding may also give ``state(view)`` (the public state vector; by
default :meth:`observe` of the public view for no player) and ``display(size)`` (the game's
screen, for ``render_mode="rgb_array"``; by default the table drawn as text). They are not
part of :class:`Encoding`: :class:`EncodingBase` gives both.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from ..games.protocol import JSON, Action, Game, Player, Prompt

#: The ids every environment reserves before the game's own.
NOOP, CONFIRM = 0, 1
RESERVED = 2


@runtime_checkable
class Encoding(Protocol):
    """A game's answers as fixed ids and its private views as fixed-size vectors."""

    #: The game's actions, in id order (the id of ``names[k]`` is ``RESERVED + k``).
    names: Sequence[str]
    #: The length of :meth:`observe`'s vector.
    observation_size: int
    #: The largest value any observation holds (the observation space's upper bound).
    observation_high: float

    @property
    def size(self) -> int:
        """``len(names)``."""
        ...

    def ids(self, prompt: Prompt, option: Action) -> tuple[int, ...]:
        """The ids (``RESERVED`` and above) of ``option``, one of ``prompt.options``: one id, or
        the parts of a composite answer (a multiset, in any order). A function of the
        prompt's kind and the option alone (the environments remember it by those)."""
        ...

    def observe(self, view: Mapping[str, JSON], player: Player, prompt: Prompt | None) -> "object":
        """``player``'s observation: a float32 numpy vector of :attr:`observation_size`."""
        ...

    def acting(self, game: Game, prompts: Sequence[Prompt]) -> Sequence[Prompt]:
        """The prompts answered now among ``prompts`` (open, unanswered, in seat order);
        never empty when ``prompts`` is not."""
        ...


class EncodingBase:
    """Defaults for an encoding: ``size`` from ``names``, every open prompt answered at once."""

    names: Sequence[str] = ()
    observation_size: int = 0
    observation_high: float = 255.0

    @property
    def size(self) -> int:
        return len(self.names)

    def acting(self, game: Game, prompts: Sequence[Prompt]) -> Sequence[Prompt]:
        return prompts

    def observe_many(self, views: Mapping[Player, Mapping[str, JSON]],
                     prompts: Mapping[Player, Prompt | None]) -> dict[Player, "object"]:
        """:meth:`observe` of several players at one moment (``views``: their private views)."""
        return {p: self.observe(v, p, prompts.get(p)) for p, v in views.items()}         # type: ignore[attr-defined]

    def state(self, view: Mapping[str, JSON]) -> "object":
        """The public state as a vector of :attr:`observation_size` (the environments'
        ``state()``): :meth:`observe` of the *public* view for no player (no seat is "me",
        nothing private is in it, no prompt)."""
        return self.observe(view, "", None)                           # type: ignore[attr-defined]

    def display(self, size: tuple[int, int]) -> "object | None":
        """The game's table display (a :class:`bitbox.display.shell.Shell` of ``size``) for
        ``render_mode="rgb_array"``; None draws the table as text."""
        return None


class SplitEncoding(EncodingBase):
    """An encoding whose vector is a public part (the same for every player at one moment)
    and a private part: :meth:`public_part` is worked out once for all the players observed
    at one moment (:meth:`observe_many`; the environments, once per phase applied) and
    :meth:`private_part` for each.

    Two optional hooks (not defined here; the environments use them when an encoding gives
    both) write the same parts from the game itself, without the views being made:

    * ``public_part_of(game, o)``: what ``public_part(game.public_view(), o)`` writes;
    * ``private_entries_of(game, player, prompt)``: what
      ``private_entries(game.private_view(player), player, prompt)`` gives (the same entries
      in the same order).

    They must give exactly what the views give, value for value, and so read nothing the
    views do not show (Last One Alive's are compared with its views over whole games in
    ``tests/research/test_observation_parts.py``); a game they do not know (not the engine
    they read) goes through its views."""

    def public_part(self, view: Mapping[str, JSON], o: "np.ndarray") -> None:
        """Write what ``view``'s public values give into ``o`` (float32 zeros of
        :attr:`observation_size` or more), each value within 0 .. :attr:`observation_high`."""
        raise NotImplementedError

    def private_part(self, o: "np.ndarray", view: Mapping[str, JSON], player: Player, prompt: Prompt | None) -> None:
        """Add what only ``player`` knows (and which seat is theirs) to ``o``: by default the
        values :meth:`private_entries` gives, added at their positions."""
        for i, v in self.private_entries(view, player, prompt).items():
            o[i] += v

    def private_entries(self, view: Mapping[str, JSON], player: Player, prompt: Prompt | None) -> Mapping[int, float]:
        """What :meth:`private_part` adds, as ``{position: value}`` (an encoding gives this or
        :meth:`private_part`): the environments add the entries of every agent observed at one
        moment in one numpy call instead of one call a value."""
        raise NotImplementedError

    # Optional hooks: the same parts read from the game itself, without building its views.
    # The environments use them when the encoding's class gives its own (the defaults below
    # build the views, as the environments would); each must give exactly what its view
    # path gives, value for value, and read nothing its view does not show.
    def public_part_of(self, game: Game, o: "np.ndarray") -> None:
        """Write what :meth:`public_part` writes for ``game.public_view()`` into ``o``
        (float32 zeros), read from ``game`` directly (optional)."""
        self.public_part(game.public_view(), o)

    def private_entries_of(self, game: Game, player: Player, prompt: Prompt | None) -> Mapping[int, float]:
        """What :meth:`private_entries` gives for ``game.private_view(player)``, read from
        ``game`` directly (optional)."""
        return self.private_entries(game.private_view(player), player, prompt)

    def observe(self, view: Mapping[str, JSON], player: Player, prompt: Prompt | None) -> "np.ndarray":
        o = np.zeros(self.observation_size, dtype=np.float32)
        self.public_part(view, o)
        self.private_part(o, view, player, prompt)
        return np.clip(o, 0, self.observation_high, out=o)

    def observe_many(self, views: Mapping[Player, Mapping[str, JSON]],
                     prompts: Mapping[Player, Prompt | None]) -> dict[Player, "object"]:
        if not views:
            return {}
        base = np.zeros(self.observation_size, dtype=np.float32)
        self.public_part(next(iter(views.values())), base)    # the private parts are small counts and flags
        out: dict[Player, object] = {}
        for p, v in views.items():
            o = base.copy()
            self.private_part(o, v, p, prompts.get(p))
            out[p] = o
        return out

    def state(self, view: Mapping[str, JSON]) -> "np.ndarray":
        o = np.zeros(self.observation_size, dtype=np.float32)
        self.public_part(view, o)
        return o


def one_hot(out: "object", at: int, index: int | None) -> None:
    """Set ``out[at + index]`` to 1 (nothing when ``index`` is None)."""
    if index is not None:
        out[at + index] = 1.0                                           # type: ignore[index]


__all__ = ["CONFIRM", "Encoding", "EncodingBase", "NOOP", "RESERVED", "SplitEncoding", "one_hot"]
