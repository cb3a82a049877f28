"""Last One Alive's research encoding (:mod:`bitbox.research.encoding`): its answers as
fixed ids and a player's private view as a fixed-size vector. Registered in the entry
points ``bitbox.research`` as ``lastonealive``; the environment is the console's
(``bitbox.research.aec_env("lastonealive")``).

Die slots: the ids a die can have during a turn, ``f1`` … ``fN`` (in front of the active
player at the start of the turn, N = every die in the box) then ``z1`` …, ``s1`` …, ``o1`` …,
``b1`` … (rolled this turn, as many as the box has of each type).

Actions (after no-op 0 and confirm 1):

* ``pass``; ``use:axe``, ``use:pistol``, ``use:chainsaw`` (before the roll);
  ``use:radio:<type>+<type>`` (10 pairs);
  ``use:<token>:<die>`` for pistol, axe, chainsaw and barricade on each die slot;
* parts of a composite answer, chosen one per step: ``dice:<type>`` (one chosen die of that
  type; ``dice:none`` when no die can be chosen), ``hero:<die>`` (a die the hero token
  re-rolls: any non-empty set, then *confirm*), ``flare:<die>`` (a die the flare sends on:
  exactly half of them, rounded up), ``keep:<token>`` (one of the three tokens kept);
* ``draw:<n>`` and ``draw_barricades:<n>`` (n from 0); ``shoot:stop``, ``shoot:<die>:<n>``
  (n = 1, 2); ``give:stop``, ``give:<die>``; ``side:object``, ``side:barricade`` (setup);
  ``roll`` (a zombified seat's roll).

Prompts the engine marks ``auto`` (nothing to decide) are answered for the player.

Observation (float32; each value a count or a 0/1 flag, clipped to 0..255): the layout, index
by index, is in docs/research.md; :meth:`observe` writes exactly that.

Nothing in it depends on another player's face-down tokens, the bag's order or the random
state: it is made from the game's private view only.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from bitbox.games import GameError
from bitbox.games.protocol import Action as AnyAction
from bitbox.games.protocol import Player, Prompt
from bitbox.research.encoding import RESERVED, SplitEncoding

from .rules import FACES, HELD, OBJECTS, SYMBOLS, TYPES, Action
from .rules import Game as Engine

SEATS = 5
PHASES = ("setup", "before", "dice", "after", "draw", "before_shoot", "shoot", "before_barricades", "give",
          "draw_barricades", "keep", "zombified", "finished")
PREFIX = {"zombie": "z", "shoot": "s", "object": "o", "barricade": "b"}
SEAT_BLOCK = 62
SLOT_BLOCK = 16
DIE_TOKENS = ("pistol", "axe", "chainsaw", "barricade")
_PHASE = {k: i for i, k in enumerate(PHASES)}
_TYPE = {k: i for i, k in enumerate(TYPES)}
_FACE = {k: i for i, k in enumerate(FACES)}
_HELD = {k: i for i, k in enumerate(HELD)}
_OBJECT = {k: i for i, k in enumerate(OBJECTS)}
_PROMPT = {k: i for i, k in enumerate(PHASES[:-1])}         # a prompt's kind: a phase's name
_VALUES_AT = (0, 1, 2, 3, 4, 5, 6, 7, 8, 22, 23, 24, 25, 26, 27, 28, 29)   # public_part's first values


class LastOneAliveEncoding(SplitEncoding):
    observation_high = 255.0

    def __init__(self, counts: Mapping[str, int]) -> None:
        total = sum(counts[t] for t in TYPES)
        self.slots = tuple([f"f{i}" for i in range(1, total + 1)]
                           + [f"{PREFIX[t]}{i}" for t in TYPES for i in range(1, counts[t] + 1)])
        self._slot = {s: k for k, s in enumerate(self.slots)}
        most = 2 * max(counts["object"], counts["barricade"])
        names = ["pass", "use:axe", "use:pistol", "use:chainsaw"]
        names += [f"use:radio:{a}+{b}" for i, a in enumerate(TYPES) for b in TYPES[i:]]
        names += [f"use:{t}:{d}" for t in DIE_TOKENS for d in self.slots]
        names += [f"dice:{t}" for t in TYPES] + ["dice:none"]
        names += [f"hero:{d}" for d in self.slots] + [f"flare:{d}" for d in self.slots]
        names += [f"keep:{h}" for h in HELD]
        names += [f"draw:{n}" for n in range(most + 1)] + [f"draw_barricades:{n}" for n in range(most + 1)]
        names += ["shoot:stop"] + [f"shoot:{d}:{n}" for d in self.slots for n in (1, 2)]
        names += ["give:stop"] + [f"give:{d}" for d in self.slots]
        names += ["side:object", "side:barricade", "roll"]
        self.names = tuple(names)
        self._id = {n: RESERVED + k for k, n in enumerate(self.names)}
        self._seats_at = 30
        self._slots_at = self._seats_at + SEATS * SEAT_BLOCK
        self._me_at = self._slots_at + SLOT_BLOCK * len(self.slots)
        self.observation_size = self._me_at + 6 + 6 + 12
        self._layouts: dict[tuple[str, ...], _Layout] = {}        # by the players, for public_part_of

    # ------------------------------------------------------------------ actions
    def ids(self, prompt: Prompt, option: AnyAction) -> tuple[int, ...]:
        try:
            return tuple(self._id[n] for n in self._names(option))
        except (KeyError, TypeError, ValueError):
            raise GameError(f"the research encoding has no id for the answer {option!r}") from None

    def _names(self, a: Any) -> list[str]:
        assert isinstance(a, Action)
        kind, token, arg = a.kind, a.token, a.arg
        if kind == "pass":
            return ["pass"]
        if kind == "use":
            if token == "radio":
                return [f"use:radio:{arg[0]}+{arg[1]}" if TYPES.index(arg[0]) <= TYPES.index(arg[1])
                        else f"use:radio:{arg[1]}+{arg[0]}"]
            if token in ("hero", "flare"):
                return [f"{token}:{d}" for d in arg]
            return [f"use:{token}" if arg is None else f"use:{token}:{arg}"]
        if kind == "dice":
            parts = [f"dice:{t}" for t, n in zip(TYPES, arg) for _ in range(n)]
            return parts or ["dice:none"]
        if kind == "keep":
            return [f"keep:{h}" for h in arg]
        if kind in ("draw", "draw_barricades"):
            return [f"{kind}:{arg}"]
        if kind == "shoot":
            return ["shoot:stop"] if arg is None else [f"shoot:{arg[0]}:{arg[1]}"]
        if kind == "give":
            return ["give:stop"] if arg is None else [f"give:{arg}"]
        if kind == "side":
            return [f"side:{arg}"]
        if kind == "roll":
            return ["roll"]
        raise KeyError(kind)

    def display(self, size: tuple[int, int]) -> Any:
        """The table's screen (``render_mode="rgb_array"``), drawn from the public view."""
        from .display import TableDisplay
        return TableDisplay(size=size, lang="en")

    # ------------------------------------------------------------------ observations
    def public_part(self, view: Mapping[str, Any], o: np.ndarray) -> None:
        pool = view["pool"]
        ts = view["turn_state"]
        at_ = list(_VALUES_AT)                     # positions given a value, and the values
        values: list[Any] = [view["turn"], view["level"], bool(view["night"]), view["apocalypse_drawn"],
                             view["bag_size"], *[pool.get(t, 0) for t in TYPES],
                             len(ts["radio"]), bool(ts["chainsaw_before"]), ts["pistols"], ts["axes"],
                             bool(ts["hero_used"]), ts["draws_left"], ts["bangs_left"], ts["gives_left"]]
        ones: list[int] = []                       # positions set to 1
        counts: dict[int, int] = {}                # positions counted
        phase = "finished" if view["finished"] else view["phase"]
        if phase in _PHASE:
            ones.append(9 + _PHASE[phase])
        active = view["active"]
        winners = view.get("winners") or ()
        scores = view.get("scores") or {}
        front: list[Any] = []
        at = self._seats_at
        for p in view["players"][:SEATS]:
            name = p["player"]
            ones.append(at)
            if p["in_game"]:
                ones.append(at + 1)
            if name == active:
                ones.append(at + 3)
                front = p["front"]
            for h in p["tokens"]:
                if h in _HELD:
                    i = at + 5 + _HELD[h]
                    counts[i] = counts.get(i, 0) + 1
            symbols = 0
            for _, t, f in p["front"]:
                if t in _TYPE and f in _FACE:
                    i = at + 13 + 9 * _TYPE[t] + _FACE[f]
                    counts[i] = counts.get(i, 0) + 1
                symbols += SYMBOLS.get(f, 0)
            if name in winners:
                ones.append(at + 50)
            at_ += (at + 4, at + 49, at + 51, at + 52)
            values += (p.get("lives", 0), scores.get(name, 0), len(p["front"]), symbols)
            at += SEAT_BLOCK
        slots, slots_at = self._slot, self._slots_at
        for where, dice in ((1, view["tray"]), (2, front)):
            for die_id, t, f in dice:
                slot = slots.get(die_id) if die_id is not None else None
                if slot is None:
                    continue
                at = slots_at + SLOT_BLOCK * slot
                ones += (at, at + where)
                if t in _TYPE:
                    ones.append(at + 3 + _TYPE[t])
                if f in _FACE:
                    ones.append(at + 7 + _FACE[f])
        if counts:
            at_ += counts
            values += counts.values()
        o[at_] = values
        o[ones] = 1
        if max(values) > self.observation_high or min(values) < 0:   # each value within 0..high
            np.clip(o, 0, self.observation_high, out=o)

    def private_entries(self, view: Mapping[str, Any], player: Player, prompt: Prompt | None) -> dict[int, float]:
        out: dict[int, float] = {}
        for k, p in enumerate(view["players"][:SEATS]):
            if p["player"] == player:
                out[self._seats_at + SEAT_BLOCK * k + 2] = 1
        at = self._me_at
        for obj in view.get("hidden") or ():
            if obj in _OBJECT:
                i = at + _OBJECT[obj]
                out[i] = out.get(i, 0) + 1
        token = view.get("setup_token")
        if token in _OBJECT:
            out[at + 6 + _OBJECT[token]] = 1
        if prompt is not None and prompt.kind in _PROMPT:
            out[at + 12 + _PROMPT[prompt.kind]] = 1
        return out


    # The same two parts written from the game itself (the optional hooks of
    # bitbox.research.encoding.SplitEncoding): what public_part(game.public_view(), o) and
    # private_entries(game.private_view(player), player, prompt) give, value for value, read
    # from the engine's state without making the view dicts. They read exactly the state's
    # parts those views are made of (tests/research/test_observation_parts.py compares both
    # ways over many games); a game that is not this engine's goes through its views.
    def _layout(self, players: tuple[str, ...]) -> "_Layout":
        """Where each seat's values go, for these players (worked out once per seating)."""
        seats = []
        at_ = list(_VALUES_AT)
        for k, name in enumerate(players[:SEATS]):
            at = self._seats_at + SEAT_BLOCK * k
            held = {h: at + 5 + i for i, h in enumerate(HELD)}
            front = {t: {f: at + 13 + 9 * ti + fi for fi, f in enumerate(FACES)} for ti, t in enumerate(TYPES)}
            seats.append((name, at, held, held["hero"], front))
            at_ += (at + 4, at + 49, at + 51, at + 52)
        mine = {name: self._seats_at + SEAT_BLOCK * k + 2 for k, name in enumerate(players[:SEATS])}
        slots = {s: (self._slots_at + SLOT_BLOCK * k,
                     {t: 3 + i for i, t in enumerate(TYPES)}, {f: 7 + i for i, f in enumerate(FACES)})
                 for k, s in enumerate(self.slots)}
        if len(self._layouts) > 64:                 # seatings are few; a bound all the same
            self._layouts.clear()
        layout = self._layouts[players] = (tuple(seats), np.array(at_, dtype=np.intp), mine, slots)
        return layout

    def public_part_of(self, game: Any, o: np.ndarray) -> None:
        engine = getattr(game, "engine", None)
        m: Any = memoryview(o)      # type: ignore[arg-type]  # o holds zeros: 1s and counts written one by one
        if type(engine) is not Engine or m.format != "f" or m.ndim != 1:
            self.public_part(game.public_view(), o)
            return
        s = engine.state
        layout = self._layouts.get(s.players)
        if layout is None:
            layout = self._layout(s.players)
        seats, values_at, _, slots = layout
        pool = s.pool
        values: list[Any] = [s.turn, s.level, bool(s.night), s.apocalypse_drawn, len(s.bag),
                             pool.get("zombie", 0), pool.get("shoot", 0), pool.get("object", 0),
                             pool.get("barricade", 0), len(s.radio), bool(s.chainsaw_before), s.pistols, s.axes,
                             bool(s.hero_used), s.draws_left, s.bangs_left, s.gives_left]
        phase = _PHASE.get("finished" if s.finished else s.phase)
        if phase is not None:
            m[9 + phase] = 1.0
        active, eliminated, winners, scores, lives = s.active, s.eliminated, s.winners, s.scores, s.lives
        held, hero, fronts = s.held, s.hero, s.front
        front: Any = ()
        symbol = SYMBOLS.get
        tokens = 0                                 # the most tokens a seat holds (a count's bound)
        for name, at, where_held, where_hero, where_front in seats:
            m[at] = 1.0
            if name not in eliminated:
                m[at + 1] = 1.0
            dice = fronts[name]
            if name == active:
                m[at + 3] = 1.0
                front = dice
            hs = held[name]
            if hs:
                for h in hs:
                    i = where_held.get(h[0])
                    if i is not None:
                        m[i] += 1.0
                if len(hs) >= tokens:
                    tokens = len(hs) + 1
            if hero[name]:
                m[where_hero] += 1.0
            symbols = 0
            for d in dice:
                f = d.face
                faces = where_front.get(d.type)
                if faces is not None:
                    i = faces.get(f)
                    if i is not None:
                        m[i] += 1.0
                symbols += symbol(f, 0)
            if name in winners:
                m[at + 50] = 1.0
            values += (lives[name] if lives else 0, scores.get(name, 0), len(dice), symbols)
        for where, dice in ((1, s.tray), (2, front)):
            for d in dice:
                slot = slots.get(d.id)
                if slot is None:
                    continue
                at, types, faces = slot
                m[at] = m[at + where] = 1.0
                i = types.get(d.type)
                if i is not None:
                    m[at + i] = 1.0
                i = faces.get(d.face)
                if i is not None:
                    m[at + i] = 1.0
        o[values_at] = values
        # Each value within 0..high: a die's count is at most the seat's dice (a value), a
        # token's at most the tokens a seat holds, and the hero.
        if max(values) > self.observation_high or min(values) < 0 or tokens > self.observation_high:
            np.clip(o, 0, self.observation_high, out=o)

    def private_entries_of(self, game: Any, player: Player, prompt: Prompt | None) -> dict[int, float]:
        engine = getattr(game, "engine", None)
        if type(engine) is not Engine or player not in engine.state.players:
            return self.private_entries(game.private_view(player), player, prompt)
        s = engine.state
        layout = self._layouts.get(s.players)
        if layout is None:
            layout = self._layout(s.players)
        out: dict[int, float] = {}
        seat = layout[2].get(player)
        if seat is not None:
            out[seat] = 1
        at = self._me_at
        for h in s.held[player]:
            if h[0] == "barricade":
                obj = h[1]
                if obj in _OBJECT:
                    i = at + _OBJECT[obj]
                    out[i] = out.get(i, 0) + 1
        if s.phase == "setup" and s.active == player:
            token = s.setup_token
            if token in _OBJECT:
                out[at + 6 + _OBJECT[token]] = 1
        if prompt is not None and prompt.kind in _PROMPT:
            out[at + 12 + _PROMPT[prompt.kind]] = 1
        return out


#: A seating's layout for LastOneAliveEncoding.public_part_of: per seat (name, where its block
#: starts, where each token held counts, where the hero counts, where each die's type and face
#: count), where public_part_of's values go, each player's "me" flag, and per die slot (where it
#: starts, a type's offset, a face's offset).
_Layout = tuple[tuple[tuple[str, int, dict[str, int], int, dict[str, dict[str, int]]], ...], np.ndarray,
                dict[str, int], dict[Any, tuple[int, dict[str, int], dict[str, int]]]]


def encoding() -> LastOneAliveEncoding:
    """The encoding for the dice of config/ (as many die slots as the box has dice)."""
    from .content import load_content
    return LastOneAliveEncoding(load_content().counts)


__all__ = ["LastOneAliveEncoding", "encoding"]
