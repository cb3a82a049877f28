"""The Last One Alive rules engine: a game state, the prompt the active player must answer
now with its legal answers, and ``apply``.

Pure and deterministic: no I/O, no global state. All chance (the bag, every roll) comes from
one seeded :class:`random.Random` held in the state; a test forces rolls with
:attr:`GameState.forced_roll` (the main roll) and :attr:`GameState.forced` (every later
roll, per die type, in time order). Rulings of the rules digest are cited as L-n (they are
restated in docs/last-one-alive.md).

The game is a sequence of prompts (:meth:`Game.prompt`): who decides, what kind of
decision, and the legal answers (:meth:`Game.legal`). Legality is membership in those
answers; only when membership fails is the refusal code computed (:meth:`Game.refusal`),
and :meth:`Game.apply` raises :class:`Refused` with it, changing nothing. A prompt whose
only sensible answer is known (nothing to decide: no token fits the window, no object
result...) is flagged ``auto`` with its ``default``; a table applies it without asking.
:meth:`Game.auto_answer` gives that default without making the prompt (a loop that applies
the ``auto`` prompts asks it first: about two thirds of a game's prompts are ``auto``).

Prompts, in the order of a turn (L-14 for the end):

* ``start`` (phase ``unstarted``, only in a game built with ``Game.new(..., start=False)``):
  who starts, ``Action("start", None, player)``; asked of nobody in particular (the prompt's
  player is ``""``), then the setup draws run from that player;
* ``setup``: a player decides the side of the token drawn at setup (L-5);
* ``before``: a token before the roll, or ``pass`` (window **before**, L-15);
* ``dice``: the four chosen dice (L-6), then the roll (automatic);
* ``after``: the hero and the after effects (window **after**), then assignment (L-7);
* ``draw``: draw tokens for object results (L-9), ``draw 0`` stops;
* ``before_shoot``: window **before_shoot**, then the bangs are counted with "+" chains (L-11);
* ``shoot``: bangs on a die in front, or ``stop`` (L-10); then the hero gain (L-12);
* ``before_barricades``: window **before_barricades**, then the barricade results (L-13);
* ``give``: a zombie die to the left player per barricade result, or ``stop``;
* ``draw_barricades``: after the automatic medkit (L-19), draws for unused barricade results;
* ``keep``: the three object/barricade tokens kept when holding more;
* ``zombified``: an eliminated seat's automatic zombie roll (L-27, option ``zombified_rolls``).

Choices for cases the digest leaves open (each is also written where it is applied):

* LA-1 A barricade (token or result) or a flare naming a die in front that shows an ambush is
  refused ``ambush_die`` even when no zombie die is in front. For the barricade token and the
  flare, ``no_target`` is for a die that is not there while no zombie die showing zombies is in
  front (the token has nothing to act on, L-18), and ``no_die`` when there is one; a give (a
  barricade result, not a token) naming a die that is not there is always ``no_die``.
* LA-2 A radio's two dice are checked against the pool when the dice are rolled (step 1:
  "the dice are checked against the pool when they are rolled"): the radio use itself only
  needs two dice types. When the radios ask for dice the pool cannot supply, no choice of
  dice can be rolled (each is refused ``not_in_pool``); on the console the turn would be
  stuck, so the dice prompt then offers one more answer, ``undo``: the radios used this turn
  go back to the player's hand and the window **before** opens again (what the undone turn
  of L-22 does in a scenario). When the pool cannot supply four chosen dice (L-6), the
  chosen count is what it holds.
* LA-3 The Survivors' end in the middle of a turn (L-25) leaves the tray's dice where they
  are: they are not returned to the pool (step (d) is not resolved).
* LA-4 ``zombified_rolls`` implies ``zombies_everywhere`` (it is an option of that variant).
* LA-5 A player about to be overrun is still asked which tokens to keep when holding more
  than three: L-14 puts (c) before (e). No barricade draw is possible then
  (``zombies_in_front``), and that refusal is checked before ``too_many_draws``.
* LA-6 ``give`` beyond the barricade results is refused ``too_many_gives`` before the die is
  looked at; a ``keep`` naming a token not held is ``not_held`` before its count is checked.
* LA-7 In the window **after** nothing is applied yet (step 2, L-7): a die re-rolled there
  (hero, pistol, axe) only changes its face and is assigned at step 3 with the others, in die
  order; L-17's "applied at once" is for the later windows. A die a chainsaw sent back to the
  pool is gone (``no_die``).
* LA-8 The object draw prompt stays open until the results are used up or the player stops;
  an empty bag makes it ``auto`` (drawing gives nothing, L-9).
* LA-9 The medkit's roll is not a die of the pool: it is rolled even when every shoot die is
  in use (the box has 3 shoot dice, but the rule asks only for a roll).
* LA-10 A token the player uses is the earliest held of that face (holding order), so the
  ones kept by default (the three held longest) are what is left.
* LA-11 The starting zombie dice are placed after the setup draws (the digest's order); a
  Survivors game ended by the setup draws (L-25) places none.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from bitbox.games.engine import StateQueries
from bitbox.games.engine import randbelow as _below
from bitbox.games.engine import shuffle as _shuffle

from .events import Event
from .events import _event as _ev

TYPES: tuple[str, ...] = ("zombie", "shoot", "object", "barricade")
PREFIX = {"zombie": "z", "shoot": "s", "object": "o", "barricade": "b"}
FACES: tuple[str, ...] = ("blank", "ambush", "zombie1", "zombie2", "bang1", "bang2", "bang1plus", "object", "barricade")
SYMBOLS = {"ambush": 1, "zombie1": 1, "zombie2": 2}          # what a bang can remove
BANGS = {"bang1": 1, "bang2": 2, "bang1plus": 1}
PLUS = "bang1plus"
OBJECTS: tuple[str, ...] = ("axe", "chainsaw", "flare", "pistol", "medkit", "radio")
HELD: tuple[str, ...] = OBJECTS + ("barricade", "hero")       # names of what a player holds
SPECIAL: tuple[str, ...] = ("apocalypse", "night", "day")     # bag entries that are not objects
VARIANTS: tuple[str, ...] = ("survivors", "day_night", "zombies_everywhere", "zombified_rolls")
DEFAULT_FACES: dict[str, tuple[str, ...]] = {
    "zombie": ("blank", "ambush", "zombie1", "zombie1", "zombie2", "zombie2"),
    "shoot": ("blank", "bang1", "bang1", "bang2", "bang2", "bang1plus"),
    "object": ("object", "object", "object", "object", "ambush", "ambush"),
    "barricade": ("barricade", "barricade", "barricade", "barricade", "ambush", "ambush"),
}
DEFAULT_COUNTS = {"zombie": 10, "shoot": 3, "object": 3, "barricade": 3}
DEFAULT_MIX = {t: 3 for t in OBJECTS}                           # L-2
APOCALYPSE_TOKENS = 3
UNSTARTED = "unstarted"             # the phase of a game built with Game.new(..., start=False)
MAX_FORCED = 4                                                  # L-23
TOKEN_LIMIT = 3
LIVES = 3                                                       # L-24
MIN_PLAYERS, MAX_PLAYERS = 2, 5
#: the players each variant is for (the rulebook: Survivors for 2-3); the others any count
VARIANT_PLAYERS: dict[str, tuple[int, int]] = {"survivors": (2, 3)}


def variant_problem(variants: Iterable[str], players: int) -> str | None:
    """Why ``variants`` cannot be played by ``players`` players (None: they can). The one
    check ``play`` (:func:`lastonealive.session.new_game`), ``simulate`` and the cartridge
    share (the engine itself plays any count: its scenarios and property tests explore them)."""
    for v in variants:
        lo, hi = VARIANT_PLAYERS.get(v, (MIN_PLAYERS, MAX_PLAYERS))
        if not lo <= players <= hi:
            return f"the {v} variant is for {lo} or {hi} players, not {players}" if hi == lo + 1 else \
                f"the {v} variant is for {lo} to {hi} players, not {players}"
    return None

WINDOWS: tuple[str, ...] = ("before", "after", "before_shoot", "before_barricades")
_FACES_CHECKED: set[tuple[str, ...]] = set()    # a die's faces found good (Game.blank_state)
_FACE_SET = frozenset(FACES)
# (token, mode) allowed per window (L-15): mode "before" is a use with no die, "die" one die,
# "dice" a list of dice, "types" the radio's two dice types.
_ALLOWED = {
    "before": {("axe", "before"), ("pistol", "before"), ("chainsaw", "before"), ("flare", "dice"),
               ("radio", "types"), ("barricade", "die")},
    "after": {("hero", "dice"), ("pistol", "die"), ("axe", "die"), ("chainsaw", "die"), ("barricade", "die")},
    "before_shoot": {("pistol", "die"), ("axe", "die"), ("chainsaw", "die"), ("barricade", "die")},
    "before_barricades": {("axe", "die"), ("chainsaw", "die"), ("barricade", "die")},
}
_MODE = {"flare": "dice", "hero": "dice", "radio": "types", "barricade": "die", "medkit": "die"}

REFUSAL_CODES: tuple[str, ...] = (
    "not_your_turn", "game_over", "dice_count", "not_in_pool", "not_held", "wrong_moment", "no_die",
    "ambush_die", "no_target", "wrong_count", "too_many_draws", "too_many_bangs", "too_many_gives",
    "zombies_in_front")

REFUSAL_TEXT = {
    "not_your_turn": "it is not their turn",
    "game_over": "the game is over",
    "dice_count": "not exactly 4 chosen dice (or a radio not adding exactly 2)",
    "not_in_pool": "the pool does not hold those dice",
    "not_held": "does not hold that token",
    "wrong_moment": "that token cannot be used now",
    "no_die": "no such die here",
    "ambush_die": "a die showing an ambush cannot be given away",
    "no_target": "that token has nothing to act on",
    "wrong_count": "the wrong number of dice or tokens",
    "too_many_draws": "more draws than results",
    "too_many_bangs": "more bangs than the turn has or the die needs",
    "too_many_gives": "more dice given than barricade results",
    "zombies_in_front": "something is still in front of the player",
}


class Refused(Exception):
    """A decision refused by the rules; nothing was changed. ``codes`` maps player → code."""

    def __init__(self, codes: Mapping[str, str], phase: str = "") -> None:
        self.codes = dict(codes)
        self.phase = phase
        super().__init__("; ".join(f"{p}: {REFUSAL_TEXT[c]} ({c})" for p, c in self.codes.items()))


class RulesError(ValueError):
    """A decision that makes no sense at all (wrong kind for the prompt, unknown name)."""


class ForcedRollError(RulesError):
    """A forced roll that does not fit: ``field`` is ``roll`` (the main roll) or ``rerolls``."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


# ---------------------------------------------------------------------------- pieces

_new_die = object.__new__


def _is_name(p: object) -> bool:
    return isinstance(p, str) and bool(p)


def _empty_lists(players: Sequence[str]) -> dict[str, list[Any]]:
    """``{p: [] for p in players}``, a list of its own each."""
    out: dict[str, list[Any]] = {}
    for p in players:
        out[p] = []
    return out


def _holds_medkit(held: list[list[Any]]) -> bool:
    for h in held:
        if h[0] == "medkit":
            return True
    return False


class Die:
    """A die out of the pool: its type, the face it shows and, during the active player's
    turn, its id (``f1``… in front at the turn's start, ``z1``/``s1``/``o1``/``b1``… rolled)."""

    __slots__ = ("type", "face", "id")

    def __init__(self, type: str, face: str, id: str | None = None) -> None:
        self.type, self.face, self.id = type, face, id

    def to_data(self) -> list[Any]:
        return [self.type, self.face, self.id]

    @classmethod
    def from_data(cls, d: Sequence[Any]) -> "Die":
        return cls(d[0], d[1], d[2])

    def __repr__(self) -> str:
        return f"Die({self.type}, {self.face}, {self.id})"


@dataclass(frozen=True)
class Action:
    """A decision. ``kind``: pass, use, dice, draw, shoot, give, draw_barricades, keep, side,
    roll, start. ``token`` for a use; ``arg``: a die id, a tuple of ids, the radio's two types, the
    dice counts ``(zombie, shoot, object, barricade)``, a number, ``(die, bangs)``, a tuple of
    token names, a side; ``None`` when there is nothing (a before-mode use, stop)."""

    kind: str
    token: str | None = None
    arg: Any = None

    def to_data(self) -> list[Any]:
        arg = list(self.arg) if isinstance(self.arg, tuple) else self.arg
        return [self.kind, self.token, arg]

    @classmethod
    def from_data(cls, d: Sequence[Any]) -> "Action":
        kind, token, arg = d
        if isinstance(arg, list):
            arg = tuple(tuple(a) if isinstance(a, list) else a for a in arg)
        return cls(kind, token, arg)


PASS = Action("pass")
UNDO = Action("undo")
STOP_SHOOT = Action("shoot")
STOP_GIVE = Action("give")

# Actions are immutable values: the engine makes each one it lists once and shares it (a
# legal list is rebuilt at every decision; making a frozen dataclass is the slow part).
_ACTIONS: dict[tuple[str, str | None, Any], Action] = {}
#: The draws of ``n`` tokens (objects, barricades) for the usual counts, made once.
_DRAWS = tuple(Action("draw", None, n) for n in range(16))
_BARRICADE_DRAWS = tuple(Action("draw_barricades", None, n) for n in range(16))


def _action(kind: str, token: str | None = None, arg: Any = None) -> Action:
    """``Action(kind, token, arg)``, made once (``arg`` hashable: an id, a number, a tuple)."""
    key = (kind, token, arg)
    a = _ACTIONS.get(key)
    if a is None:
        if len(_ACTIONS) > 4096:                # ids and numbers are few; a bound all the same
            _ACTIONS.clear()
        a = _ACTIONS[key] = Action(kind, token, arg)
    return a


_ROLL = Action("roll")
#: A radio's uses: two dice types, in die-type order (L-6).
_RADIO_USES = [_action("use", "radio", (t1, t2)) for i, t1 in enumerate(TYPES) for t2 in TYPES[i:]]
#: The answers to the setup prompt (L-5).
_SIDES = (_action("side", None, "object"), _action("side", None, "barricade"))
#: A zombie die given by a barricade result, per die id (see _give_action).
_GIVES: dict[Any, Action] = {}


def _give_action(die_id: Any) -> Action:
    a = _action("give", None, die_id)
    if len(_GIVES) < 4096:
        _GIVES[die_id] = a
    return a


#: The shots at a die: ``(die, 1)``, ``(die, 2)``... made once per die id (see _shots).
_SHOTS: dict[Any, tuple[Action, ...]] = {}


def _shots(die_id: Any, most: int) -> tuple[Action, ...]:
    """The shots of 1 to ``most`` bangs at ``die_id`` (kept for the next prompts)."""
    got = tuple(_action("shoot", None, (die_id, n)) for n in range(1, max(most, 2) + 1))
    if len(_SHOTS) < 4096:
        _SHOTS[die_id] = got
    return got


class _Family:
    """A set of legal answers described by a rule rather than listed (hero subsets, flare
    combinations, kept tokens): ``in`` checks membership, iteration lists them."""

    def __contains__(self, a: object) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def __iter__(self) -> Iterator[Action]:  # pragma: no cover - abstract
        raise NotImplementedError

    def sample(self, rng: random.Random) -> Action:  # pragma: no cover - abstract
        raise NotImplementedError

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def lists(self, a: object) -> bool:
        """``a`` is one of the answers this family lists itself (legal and canonical as it
        is): the quick check before the general one."""
        return False


class _DiceSets(_Family):
    """``use token`` with a list of distinct dice among ``ids``: any non-empty set (hero),
    or exactly ``size`` of them (flare)."""

    def __init__(self, token: str, ids: Sequence[str], size: int | None) -> None:
        self.token, self.ids, self.size = token, tuple(ids), size

    def __contains__(self, a: object) -> bool:
        if not isinstance(a, Action) or a.kind != "use" or a.token != self.token or not isinstance(a.arg, tuple):
            return False
        arg = a.arg
        try:
            if not arg or len(set(arg)) != len(arg) or not set(arg) <= set(self.ids):
                return False
        except TypeError:
            return False
        return self.size is None or len(arg) == self.size

    def __iter__(self) -> Iterator[Action]:
        sizes = range(1, len(self.ids) + 1) if self.size is None else (self.size,)
        for k in sizes:
            for combo in itertools.combinations(self.ids, k):
                yield Action("use", self.token, combo)

    def sample(self, rng: random.Random) -> Action:
        k = rng.randint(1, len(self.ids)) if self.size is None else self.size
        return Action("use", self.token, tuple(rng.sample(self.ids, k)))


class _Keeps(_Family):
    """``keep`` with exactly three of the tokens held (a multiset of their names)."""

    def __init__(self, held: Sequence[str]) -> None:
        self.held = Counter(held)
        self.names = list(held)

    def __contains__(self, a: object) -> bool:
        if not isinstance(a, Action) or a.kind != "keep" or not isinstance(a.arg, tuple) or len(a.arg) != TOKEN_LIMIT:
            return False
        try:
            return not (Counter(a.arg) - self.held)
        except TypeError:
            return False

    def __iter__(self) -> Iterator[Action]:
        seen = set()
        for combo in itertools.combinations(self.names, TOKEN_LIMIT):
            key = tuple(sorted(combo))
            if key not in seen:
                seen.add(key)
                yield Action("keep", None, key)

    def sample(self, rng: random.Random) -> Action:
        return Action("keep", None, tuple(rng.sample(self.names, TOKEN_LIMIT)))


class _DiceCounts(_Family):
    """``dice`` with ``need`` chosen dice in all, none of a type beyond what is available
    (``avail``: the dice each type may still give, per type in TYPES order; ``forced``: the
    forced zombie dice, for the prompt)."""

    __slots__ = ("avail", "need", "forced", "available", "choices", "ids")

    def __init__(self, avail: Sequence[int], need: int, forced: int = 0,
                 available: Mapping[str, int] | None = None) -> None:
        self.avail = tuple([max(0, n) for n in avail]) if min(avail) < 0 else tuple(avail)
        self.need = need
        self.forced = forced
        self.available = available
        self.choices, self.ids = _dice_choices(self.avail, need)

    def lists(self, a: object) -> bool:
        return id(a) in self.ids

    def __contains__(self, a: object) -> bool:
        if id(a) in self.ids:                               # the usual case: a listed answer itself
            return True
        if not isinstance(a, Action) or a.kind != "dice" or not isinstance(a.arg, tuple) or len(a.arg) != 4:
            return False
        if not all(type(c) is int and c >= 0 for c in a.arg):
            return False
        return sum(a.arg) == self.need and all(c <= m for c, m in zip(a.arg, self.avail))

    def __iter__(self) -> Iterator[Action]:
        return iter(self.choices)

    def __len__(self) -> int:
        return len(self.choices)

    def sample(self, rng: random.Random) -> Action:
        choices = self.choices                              # rng.choice(choices), the same draw
        if not choices:
            raise IndexError("Cannot choose from an empty sequence")
        return choices[_below(rng, len(choices))]


_DICE_CHOICES: dict[tuple[tuple[int, ...], int], tuple[tuple[Action, ...], frozenset[int]]] = {}


def _dice_choices(avail: tuple[int, ...], need: int) -> tuple[tuple[Action, ...], frozenset[int]]:
    """Every ``dice`` answer for ``need`` chosen dice among ``avail`` (per type, TYPES order),
    zombie dice first then shoot, object, barricade, each from 0 up; listed once per case,
    with the set of their ids (the answers are kept alive with it, so the ids stay theirs)."""
    key = (avail, need)
    got = _DICE_CHOICES.get(key)
    if got is None:
        az, ash, ao, ab = avail
        out = []
        for z in range(min(need, az) + 1):
            for sh in range(min(need - z, ash) + 1):
                for o in range(min(need - z - sh, ao) + 1):
                    b = need - z - sh - o
                    if b <= ab:
                        out.append(_action("dice", None, (z, sh, o, b)))
        if len(_DICE_CHOICES) > 4096:
            _DICE_CHOICES.clear()
        choices = tuple(out)
        got = _DICE_CHOICES[key] = (choices, frozenset(map(id, choices)))
    return got


class Legal:
    """The legal answers to the current prompt: listed actions plus rule-described families.
    ``action in legal`` is the one legality check of the engine."""

    __slots__ = ("actions", "families")

    def __init__(self, actions: Iterable[Action] = (), families: Iterable[_Family] = ()) -> None:
        self.actions: list[Action] = list(actions)
        self.families: list[_Family] = list(families)

    def __contains__(self, a: object) -> bool:
        for x in self.actions:                  # the usual case: one of the listed actions itself
            if x is a:
                return True
        try:
            if a in self.actions:
                return True
        except TypeError:
            return False
        return any(a in f for f in self.families)

    def __iter__(self) -> Iterator[Action]:
        yield from self.actions
        for f in self.families:
            yield from f

    def __len__(self) -> int:
        return len(self.actions) + sum(len(f) for f in self.families)

    def sample(self, rng: random.Random) -> Action:
        """A random legal answer (each listed action and each family weighted alike)."""
        actions = self.actions
        n = len(actions) + len(self.families)
        if type(rng) is random.Random and n > 0:       # _below(rng, n), inlined (a draw a decision)
            getrandbits = rng.getrandbits
            k = n.bit_length()
            i = getrandbits(k)
            while i >= n:
                i = getrandbits(k)
        else:
            i = rng.randrange(n)
        if i < len(actions):
            return actions[i]
        return self.families[i - len(actions)].sample(rng)


_new_legal = object.__new__
_new_prompt = object.__new__


def _listed(actions: list[Action]) -> Legal:
    """``Legal(actions)`` for a list made for it (kept, not copied) and no family."""
    legal = _new_legal(Legal)
    legal.actions = actions
    legal.families = []
    return legal


@dataclass(slots=True)
class Prompt:
    """What must be decided now: by whom, which kind of decision, the legal answers; ``auto``
    when there is nothing to decide (the table applies ``default`` without asking)."""

    player: str
    kind: str
    legal: Legal
    default: Action | None
    auto: bool
    info: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------------------- state

@dataclass(slots=True)
class GameState:
    """Everything about a game. Hidden parts: the bag's order, the object side of face-down
    tokens, ``rng``, ``seed`` and the forced rolls; see :meth:`Game.public_view`."""

    players: tuple[str, ...]
    variants: tuple[str, ...]
    faces: dict[str, tuple[str, ...]]
    counts: dict[str, int]                     # dice in the box per type
    rng: random.Random
    seed: int = 0
    active: str = ""                           # whose turn (or whose setup decision)
    phase: str = "before"
    turn: int = 0                              # turns played (setup is 0)
    level: int = 1
    apocalypse_drawn: int = 0
    night: bool = False
    day_position: int | None = None            # where the day token enters (None: at random; -1: bottom)
    bag: list[str] = field(default_factory=list)            # top first
    aside: list[str] = field(default_factory=list)          # apocalypse/night tokens drawn
    removed: list[str] = field(default_factory=list)        # tokens out of the game (object names, day, night)
    held: dict[str, list[list[Any]]] = field(default_factory=dict)   # [face, object or None], holding order
    hero: dict[str, bool] = field(default_factory=dict)
    front: dict[str, list[Die]] = field(default_factory=dict)
    pool: dict[str, int] = field(default_factory=dict)
    lives: dict[str, int] = field(default_factory=dict)
    eliminated: list[str] = field(default_factory=list)     # in order of elimination
    finished: bool = False
    winners: list[str] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)
    first_zombie: str = "each"
    first: str = ""                                         # the first player (setup)
    setup_queue: list[str] = field(default_factory=list)    # players still to draw at setup
    setup_token: str | None = None                          # the object drawn, awaiting its side
    # this turn
    tray: list[Die] = field(default_factory=list)           # dice rolled this turn, not yet applied
    rolled: list[str] = field(default_factory=list)         # ids of the main roll, in die order
    radio: list[tuple[str, str]] = field(default_factory=list)
    radio_used: list[list[Any]] = field(default_factory=list)  # [index, token] taken by radios (LA-2)
    chainsaw_before: bool = False
    pistols: int = 0
    axes: int = 0
    hero_used: bool = False
    draws_left: int = 0
    bangs_left: int = 0
    bangs_used: int = 0
    gives_left: int = 0
    # test hooks: forced faces (None: roll with rng)
    forced_roll: dict[str, list[str]] | None = None
    forced: dict[str, list[str]] | None = None
    # queued faces per die type, taken by every roll before chance (the console's force());
    # unlike ``forced``, chance takes over when a queue runs out
    queued: dict[str, list[str]] = field(default_factory=dict)


def _canonical(a: Action) -> Action:
    """A radio's two dice types in die-type order (the order they are named in does not matter)."""
    if a.kind == "use" and a.token == "radio" and isinstance(a.arg, tuple) and all(t in TYPES for t in a.arg):
        arg = tuple(sorted(a.arg, key=TYPES.index))
        if arg != a.arg:
            return Action("use", "radio", arg)
    return a


def _ceil_half(n: int) -> int:
    return (n + 1) // 2


_ORDER: dict[tuple[str, str | None], tuple[int, int]] = {}
_DIE_IDS = {t: tuple(f"{PREFIX[t]}{k}" for k in range(32)) for t in TYPES}     # z1, z2... (index 0 unused)
_FRONT_IDS = tuple(f"f{k}" for k in range(32))                                   # f1, f2... (index 0 unused)


def _die_order(d: Die) -> tuple[int, int]:
    key = (d.type, d.id)
    got = _ORDER.get(key)
    if got is None:
        got = (TYPES.index(d.type), int(d.id[1:]) if d.id and d.id[0] != "f" else 0)
        if len(_ORDER) < 4096:
            _ORDER[key] = got
    return got


class Game(StateQueries):
    """A game of Last One Alive. :meth:`apply` mutates :attr:`state` and returns events."""

    __slots__ = ("state", "_legal", "_auto", "_sorted_tray")

    def __init__(self, state: GameState) -> None:
        self.state: GameState = state
        self._legal: Legal | None = None
        self._auto: Action | None = None            # auto_answer's answer, until the next change
        self._sorted_tray: list[Die] | None = None  # the tray, when the engine knows it is in die order

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, players: Sequence[str], *, seed: int = 0, variants: Iterable[str] = (),
            first: str | None = None, first_zombie: str = "each",
            faces: Mapping[str, Sequence[str]] | None = None, counts: Mapping[str, int] | None = None,
            mix: Mapping[str, int] | None = None, apocalypse: int = APOCALYPSE_TOKENS,
            start: bool = True) -> "Game":
        """Set up a game: the bag (the token mix, 3 apocalypse tokens, the night token in
        Day and Night) shuffled, each player's setup draw from ``first`` in seat order
        (L-5; the prompt ``setup`` asks for the side of an object drawn), then the starting
        zombie dice (L-4: ``each`` or ``first``) and the first turn.

        With ``start=False`` the game stops before the setup draws, in the phase
        ``unstarted`` (nobody active; the prompt ``start`` asks who starts, answered by
        ``Action("start", None, player)``): a table lets the players choose the first
        player, or puts tokens drawn from a real bag on top of :attr:`GameState.bag`, then
        starts it. The bag and the generator are the same either way, so for the same seed
        ``new(..., first=p)`` and ``new(..., start=False)`` answered ``start p`` are the
        same game."""
        state = cls.blank_state(players, seed=seed, variants=variants, faces=faces, counts=counts)
        s = state
        if first is not None and not start:
            raise RulesError("first is the answer to the start prompt of a game not started")
        first = s.players[0] if first is None else first
        if first not in s.players:
            raise RulesError(f"unknown first player {first!r}")
        if first_zombie not in ("each", "first"):
            raise RulesError(f"first_zombie must be each or first, not {first_zombie!r}")
        s.first_zombie = first_zombie
        mix = dict(DEFAULT_MIX if mix is None else mix)
        bag = []
        for t in OBJECTS:
            bag += [t] * mix.get(t, 0)
        bag += ["apocalypse"] * apocalypse
        if "day_night" in s.variants:
            bag.append("night")
        _shuffle(s.rng, bag)
        s.bag = bag
        game = cls(state)
        if start:
            game.start_setup(first, [])
        else:
            s.phase, s.active = UNSTARTED, ""
        return game

    @classmethod
    def blank_state(cls, players: Sequence[str], *, seed: int = 0, variants: Iterable[str] = (),
                    faces: Mapping[str, Sequence[str]] | None = None,
                    counts: Mapping[str, int] | None = None) -> GameState:
        """A state with no token drawn, every die in the pool, nobody's turn yet (for
        :meth:`new` and for positions set by hand, e.g. scenarios)."""
        players = tuple(players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise RulesError(f"Last One Alive is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
        if len(set(players)) != len(players) or not all(map(_is_name, players)):
            raise RulesError(f"players must be distinct names: {players}")
        vs = list(dict.fromkeys(variants))
        for v in vs:
            if v not in VARIANTS:
                raise RulesError(f"unknown variant {v!r} (known: {', '.join(VARIANTS)})")
        if "zombified_rolls" in vs and "zombies_everywhere" not in vs:
            vs.append("zombies_everywhere")                                  # LA-4
        fs = {}
        for t in TYPES:
            fs[t] = tuple((faces or {}).get(t, DEFAULT_FACES[t]))
        for t, f in fs.items():
            try:
                if f in _FACES_CHECKED:             # checked in an earlier game
                    continue
            except TypeError:                       # an unhashable face: checked below
                pass
            try:
                known = bool(f) and set(f) <= _FACE_SET
            except TypeError:                   # an unhashable face: not a face
                known = False
            if not known:
                raise RulesError(f"die {t}: faces must be among {', '.join(FACES)}")
            if set(f) == {PLUS}:
                raise RulesError(f"die {t}: every face is {PLUS}, so its re-rolls would never end")
            if len(_FACES_CHECKED) < 256:
                _FACES_CHECKED.add(f)
        cs = {}
        for t in TYPES:
            cs[t] = int((counts or {}).get(t, DEFAULT_COUNTS[t]))
        return GameState(
            players=players, variants=tuple([v for v in VARIANTS if v in vs]) if vs else (), faces=fs, counts=cs,
            rng=random.Random(seed), seed=seed, active=players[0],
            held=_empty_lists(players), hero=dict.fromkeys(players, False),
            front=_empty_lists(players), pool=dict(cs),
            lives=dict.fromkeys(players, LIVES) if "survivors" in vs else {})

    def start_setup(self, first: str, sides: list[str]) -> list[Event]:
        """Run the setup draws from ``first`` in seat order (L-5)."""
        s = self.state
        i = s.players.index(first)
        self._legal = None
        self._auto = None
        s.setup_queue = list(s.players[i:] + s.players[:i])                 # seat order from first
        s.active = s.first = first
        s.phase = "setup"
        events: list[Event] = []
        self._setup_next(events)
        return events

    def _setup_next(self, events: list[Event]) -> None:
        s = self.state
        while s.setup_queue and not s.finished:
            p = s.setup_queue.pop(0)
            token = self._draw(p, events)
            if token is not None:
                s.active, s.setup_token, s.phase = p, token, "setup"
                return
        if s.finished:                                      # L-25: Survivors' end during setup
            return
        # L-4 / LA-11: the starting zombie dice, after the draws
        targets = list(s.players) if s.first_zombie == "each" else [s.first]
        for p in targets:
            if s.pool["zombie"] > 0:
                s.pool["zombie"] -= 1
                s.front[p].append(Die("zombie", "zombie1"))
                events.append(_ev("starting_zombie", ("player",), (p,)))
        self._start_turn(s.first, events)

    # ------------------------------------------------------------------ queries
    def in_game(self) -> list[str]:
        s = self.state
        out = []
        for p in s.players:
            if p not in s.eliminated:
                out.append(p)
        return out

    def left_of(self, player: str) -> str:
        """The next player still in the game clockwise (L-1)."""
        s = self.state
        i = s.players.index(player)
        n = len(s.players)
        for k in range(1, n + 1):
            q = s.players[(i + k) % n]
            if q not in s.eliminated:
                return q
        return player

    def _holds(self, p: str, token: str) -> bool:
        s = self.state
        if token == "hero":
            return s.hero[p]
        return any(h[0] == token for h in s.held[p])

    def held_faces(self, p: str) -> list[str]:
        """The names of the object/barricade tokens ``p`` holds, in holding order."""
        return [h[0] for h in self.state.held[p]]

    def _die(self, found: Die | None, die_id: Any) -> Die:
        """``found`` (a die looked up for an action already checked legal), else RulesError."""
        if found is None:
            raise RulesError(f"no die {die_id!r} to act on")
        return found

    def _front_die(self, die_id: Any) -> Die | None:
        for d in self.state.front[self.state.active]:
            if d.id == die_id:
                return d
        return None

    def _turn_die(self, die_id: Any) -> Die | None:
        """A die of this turn's roll still in the tray or in front of the active player."""
        if not isinstance(die_id, str) or not die_id or die_id[0] == "f":
            return None
        for d in self.state.tray:
            if d.id == die_id:
                return d
        return self._front_die(die_id)

    def _turn_dice(self) -> list[Die]:
        """This turn's rolled dice still in the tray or in front of the active player, in die order."""
        s = self.state
        dice = list(s.tray)
        for d in s.front[s.active]:
            if d.id and d.id[0] != "f":
                dice.append(d)
        return sorted(dice, key=_die_order)

    def hero_dice(self) -> list[str]:
        """The ids a hero token may re-roll now: this turn's roll, in die order (L-20, LA-7)."""
        rolled = set(self.state.rolled)
        return [d.id for d in self._turn_dice() if d.id in rolled]

    def _zombie_targets(self) -> list[Die]:
        """Zombie dice in front of the active player showing zombies (barricade, flare)."""
        out = []
        for d in self.state.front[self.state.active]:
            if d.type == "zombie" and (d.face == "zombie1" or d.face == "zombie2"):
                out.append(d)
        return out

    def _target_ids(self) -> list[str]:
        """The ids of the zombie dice in front showing zombies (all have one during a turn)."""
        out = []
        for d in self.state.front[self.state.active]:
            if d.type == "zombie" and (d.face == "zombie1" or d.face == "zombie2") and d.id is not None:
                out.append(d.id)
        return out

    def forced_count(self) -> int:
        s = self.state
        return min(s.level, MAX_FORCED, s.pool["zombie"])

    def _available(self) -> dict[str, int]:
        """Dice of each type the chosen dice may still take (pool − forced − radio extras)."""
        s = self.state
        avail = dict(s.pool)
        avail["zombie"] -= min(s.level, MAX_FORCED, s.pool["zombie"])       # forced_count()
        for pair in s.radio:
            for t in pair:
                avail[t] -= 1
        return avail

    def chosen_needed(self) -> int:
        avail = self._available()
        return min(4, sum(max(0, n) for n in avail.values()))

    def radios_short(self) -> bool:
        """The radios used this turn ask for dice the pool does not hold (LA-2)."""
        return any(n < 0 for n in self._available().values())

    def symbols_in_front(self, p: str) -> int:
        return sum(SYMBOLS.get(d.face, 0) for d in self.state.front[p])

    # ------------------------------------------------------------------ prompts
    def prompt(self) -> Prompt | None:
        """The decision wanted now, or None once the game is over."""
        s = self.state
        if s.finished:
            return None
        legal = self._legal
        if legal is None:
            legal = self._legal = self._make_legal()
        ph = s.phase
        pr = _new_prompt(Prompt)                # Prompt(player, kind, legal, default, auto, info)
        pr.player = s.active
        pr.legal = legal
        if ph in WINDOWS:                       # the most common prompt: pass, or a token's use
            pr.kind = ph
            pr.default = PASS
            pr.auto = len(legal.actions) == 1 and not legal.families
            pr.info = {}
            return pr
        pr.kind = ph                            # the default answer, auto, the prompt's figures:
        pr.default = None
        pr.auto = False
        pr.info = {}
        if ph == "dice":
            fams = legal.families
            f = fams[0] if fams else None
            if type(f) is _DiceCounts and f.available is not None:      # worked out with the legal answers
                pr.info = {"forced": f.forced, "needed": f.need, "available": dict(f.available)}
            else:
                avail = self._available()
                pr.info = {"forced": self.forced_count(), "needed": min(4, sum([max(0, n) for n in avail.values()])),
                           "available": avail}
        elif ph == "setup":
            pr.default = _SIDES[0]
        elif ph == "shoot":
            pr.default = STOP_SHOOT
            pr.auto = len(legal.actions) == 1   # stop alone
            pr.info = {"bangs": s.bangs_left}
        elif ph == "draw":
            pr.default = _DRAWS[0]
            pr.auto = s.draws_left == 0 or not s.bag
            pr.info = {"results": s.draws_left}
        elif ph == "give":
            pr.default = STOP_GIVE
            pr.auto = len(legal.actions) == 1   # stop alone
            pr.info = {"results": s.gives_left}
        elif ph == "draw_barricades":
            pr.default = _BARRICADE_DRAWS[0]
            pr.auto = len(legal.actions) == 1 or not s.bag
            pr.info = {"results": s.gives_left}
        elif ph == "zombified":
            pr.default = _ROLL
            pr.auto = True
        elif ph == UNSTARTED:
            pr.kind = "start"
            pr.default = Action("start", None, s.players[0])
        return pr

    def auto_answer(self) -> Action | None:
        """The answer to the current prompt when it is ``auto`` (nothing to decide): its
        ``default``; None when there is a decision to make or the game is over. The same as
        ``pr.default if pr.auto else None`` for ``pr = prompt()``, worked out without making
        the prompt or, in the usual cases, the legal answers (about two thirds of a game's
        prompts are auto: a loop that applies them as a table does asks this first). Applying
        the answer it gives skips the legality check (it is a legal answer by construction)."""
        s = self.state
        if s.finished:
            return None
        ph = s.phase
        p = s.active
        if ph in WINDOWS:
            if s.held[p] or (ph == "after" and s.hero[p]):             # else _legal_uses: pass alone
                legal = self.legal()
                if len(legal.actions) != 1 or legal.families:
                    return None
            a = PASS
        elif ph == "draw":
            if s.draws_left != 0 and s.bag:
                return None
            a = _DRAWS[0]
        elif ph == "shoot":
            if s.bangs_left > 0:                                            # a shot at a die in front
                for d in s.front[p]:
                    if SYMBOLS.get(d.face, 0):
                        return None
            a = STOP_SHOOT
        elif ph == "give":
            if s.gives_left > 0:                                            # a zombie die to give
                for d in s.front[p]:
                    if d.type == "zombie" and (d.face == "zombie1" or d.face == "zombie2"):
                        return None
            a = STOP_GIVE
        elif ph == "draw_barricades":
            if s.bag and (s.gives_left if not s.front[p] else 0) != 0:
                legal = self.legal()
                if len(legal.actions) != 1:
                    return None
            a = _BARRICADE_DRAWS[0]
        elif ph == "zombified":
            a = _ROLL
        else:                                                               # dice, setup, keep, start
            return None
        self._auto = a
        return a

    def legal(self) -> Legal:
        """Every legal answer to the current prompt (computed once per decision: the cache
        is dropped by :meth:`apply`, and by :meth:`changed` after a change made by hand)."""
        cached = self._legal
        if cached is None:
            cached = self._legal = self._make_legal()
        return cached

    def changed(self) -> None:
        """Call after changing :attr:`state` by hand (tests, positions set up by hand)."""
        self._legal = None
        self._auto = None
        self._sorted_tray = None

    def _make_legal(self) -> Legal:
        s = self.state
        ph = s.phase
        if s.finished:
            return Legal()
        p = s.active
        if ph in WINDOWS:
            return self._legal_uses(p, ph)
        if ph == "dice":
            avail = dict(s.pool)                                            # _available()
            forced = min(s.level, MAX_FORCED, avail["zombie"])              # forced_count()
            avail["zombie"] -= forced
            for pair in s.radio:
                for t in pair:
                    avail[t] -= 1
            if min(avail.values()) < 0:                                     # the radios are short
                return Legal([UNDO])                                        # LA-2
            legal = _listed([])
            legal.families = [_DiceCounts((avail["zombie"], avail["shoot"], avail["object"], avail["barricade"]),
                                          min(4, sum(avail.values())), forced, avail)]
            return legal
        if ph == "draw":
            n = s.draws_left + 1
            return _listed(list(_DRAWS[:n]) if n <= len(_DRAWS) else [_action("draw", None, k) for k in range(n)])
        if ph == "shoot":
            out = [STOP_SHOOT]
            left = s.bangs_left
            if left > 0:
                for d in s.front[p]:
                    m = SYMBOLS.get(d.face, 0)
                    if m:
                        shots = _SHOTS.get(d.id)
                        if shots is None or m > len(shots):
                            shots = _shots(d.id, m)
                        out += shots[:min(m, left)]
            return _listed(out)
        if ph == "give":
            out = [STOP_GIVE]
            if s.gives_left > 0:
                for d in s.front[p]:                                        # _zombie_targets()
                    if d.type == "zombie" and (d.face == "zombie1" or d.face == "zombie2"):
                        a = _GIVES.get(d.id)
                        out.append(a if a is not None else _give_action(d.id))
            return _listed(out)
        if ph == "draw_barricades":
            top = s.gives_left if not s.front[p] else 0
            n = top + 1
            return _listed(list(_BARRICADE_DRAWS[:n]) if n <= len(_BARRICADE_DRAWS)
                           else [_action("draw_barricades", None, k) for k in range(n)])
        if ph == UNSTARTED:
            return Legal([_action("start", None, q) for q in s.players])
        if ph == "setup":
            return _listed(list(_SIDES))
        if ph == "zombified":
            return _listed([_ROLL])
        if ph == "keep":
            return Legal([], [_Keeps(self.held_faces(p))])
        raise RulesError(f"unknown phase {ph!r}")

    def _legal_uses(self, p: str, window: str) -> Legal:
        s = self.state
        if not s.held[p] and not (window == "after" and s.hero[p]):
            return _listed([PASS])                  # nothing to use: the window only passes
        out: list[Action] = [PASS]
        fams: list[_Family] = []
        holds = set()
        for h in s.held[p]:
            holds.add(h[0])
        targets: list[str] | None = None                # the zombie dice in front, when asked
        if window == "before":
            for t in ("axe", "pistol", "chainsaw"):
                if t in holds:
                    out.append(_action("use", t))
            if "radio" in holds:                                           # checked at the roll (LA-2)
                out += _RADIO_USES
            if "flare" in holds:
                targets = self._target_ids()
                if targets:
                    fams.append(_DiceSets("flare", targets, _ceil_half(len(targets))))
        else:
            if window == "after" and s.hero[p]:
                ids = self.hero_dice()
                if ids:
                    fams.append(_DiceSets("hero", ids, None))
            pistol = "pistol" in holds and window in ("after", "before_shoot")
            if pistol or "axe" in holds:
                tray_and_front = self._turn_dice()
                if pistol:
                    for d in tray_and_front:
                        if d.type == "shoot":
                            out.append(_action("use", "pistol", d.id))
                if "axe" in holds:
                    for d in tray_and_front:
                        if d.type == "barricade":
                            out.append(_action("use", "axe", d.id))
            if "chainsaw" in holds:
                for d in list(s.tray) + list(s.front[p]):
                    if d.face == "ambush":
                        out.append(_action("use", "chainsaw", d.id))
        if "barricade" in holds:
            if targets is None:
                targets = self._target_ids()
            for i in targets:
                out.append(_action("use", "barricade", i))
        legal = _listed(out)
        legal.families = fams
        return legal

    # ------------------------------------------------------------------ refusals
    def refusal(self, action: Action) -> str | None:
        """None if ``action`` is a legal answer to the current prompt, else the refusal code.
        Raises RulesError for an action that is not an answer to this prompt at all."""
        if not isinstance(action, Action):
            raise RulesError(f"not an action: {action!r}")
        s = self.state
        if s.finished:
            return "game_over"
        action = _canonical(action)
        if action in self.legal():
            return None
        return self._explain(action)

    def _explain(self, a: Action) -> str:
        s = self.state
        ph, p = s.phase, s.active
        if a.kind == "use":
            return self._explain_use(p, ph, a)
        if a.kind == "pass" and ph in WINDOWS:
            raise RulesError("pass is always legal in a window")  # pragma: no cover
        expected = {UNSTARTED: ("start",), "setup": ("side",), "zombified": ("roll",), "dice": ("dice", "undo"), "draw": ("draw",),
                    "shoot": ("shoot",), "give": ("give",), "draw_barricades": ("draw_barricades",),
                    "keep": ("keep",)}.get(ph, ("pass", "use"))
        if a.kind not in expected:
            raise RulesError(f"the prompt is {ph!r}: expected {' or '.join(expected)}, not {a.kind!r}")
        if ph == UNSTARTED:
            raise RulesError(f"unknown first player {a.arg!r}")
        if ph == "setup":
            raise RulesError(f"a side is object or barricade, not {a.arg!r}")
        if ph == "dice":
            if a.kind == "undo":
                raise RulesError("undo takes back radios only when the pool cannot supply their dice (LA-2)")
            counts = a.arg
            if not (isinstance(counts, tuple) and len(counts) == 4
                    and all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts)):
                raise RulesError(f"dice are four counts (zombie, shoot, object, barricade), not {counts!r}")
            need, total = self.chosen_needed(), sum(counts)
            avail = self._available()
            if total != need and total != 4:
                return "dice_count"                                        # L-6
            if any(c > avail[t] for c, t in zip(counts, TYPES)) or self.radios_short():
                return "not_in_pool"                                       # L-6, LA-2
            return "dice_count"
        if ph == "draw":
            n = a.arg
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise RulesError(f"a draw is a number of tokens ≥ 0, not {n!r}")
            return "too_many_draws"                                        # L-9
        if ph == "shoot":
            arg = a.arg
            if not (isinstance(arg, tuple) and len(arg) == 2 and isinstance(arg[1], int) and not isinstance(arg[1], bool)):
                raise RulesError(f"a shot is (die, bangs), not {arg!r}")
            die_id, n = arg
            if n < 1:
                raise RulesError(f"a shot puts at least 1 bang on a die, not {n}")
            d = self._front_die(die_id)
            if d is None:
                return "no_die"
            return "too_many_bangs"                                        # L-10
        if ph == "give":
            if s.gives_left <= 0:
                return "too_many_gives"                                    # LA-6
            d = self._front_die(a.arg)
            if d is None:
                return "no_die"
            if d.face == "ambush" or d.type != "zombie":
                return "ambush_die"                                        # L-13
            return "no_die"  # pragma: no cover - a zombie die showing zombies is legal
        if ph == "draw_barricades":
            n = a.arg
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise RulesError(f"a draw is a number of tokens ≥ 0, not {n!r}")
            if s.front[p]:
                return "zombies_in_front"                                  # L-14 (b), LA-5
            return "too_many_draws"
        if ph == "keep":
            arg = a.arg
            if not isinstance(arg, tuple) or not all(isinstance(t, str) for t in arg):
                raise RulesError(f"keep names tokens, not {arg!r}")
            if Counter(arg) - Counter(self.held_faces(p)):
                return "not_held"                                          # LA-6
            return "wrong_count"
        raise RulesError(f"{a.kind!r} is not an answer to the {ph!r} prompt")  # pragma: no cover

    def _explain_use(self, p: str, window: str, a: Action) -> str:
        s = self.state
        token, arg = a.token, a.arg
        if token not in HELD:
            raise RulesError(f"unknown token {token!r} (known: {', '.join(HELD)})")
        if not self._holds(p, token):
            return "not_held"                                              # checked first
        if window not in WINDOWS:
            return "wrong_moment"
        if token in ("axe", "pistol", "chainsaw"):
            mode = "before" if arg is None else "die"
        else:
            mode = _MODE.get(token, "die")
        if (token, mode) not in _ALLOWED[window]:
            return "wrong_moment"                                          # L-15
        if token == "radio":
            if not isinstance(arg, tuple) or len(arg) != 2:
                return "dice_count"                                        # L-6
            if any(t not in TYPES for t in arg):
                raise RulesError(f"a radio's dice are types among {', '.join(TYPES)}, not {arg!r}")
            return "dice_count"  # pragma: no cover - two known types in die-type order are legal
        if token == "flare":
            targets = self._zombie_targets()
            if not isinstance(arg, tuple):
                arg = () if arg is None else (arg,)
            for i in arg:
                d = self._front_die(i)
                if d is None:
                    return "no_die" if targets else "no_target"
                if d.face == "ambush" or d.type != "zombie":
                    return "ambush_die"                                    # LA-1
            if not targets:
                return "no_target"                                         # L-18
            return "wrong_count"                                           # L-18
        if token == "hero":
            if not isinstance(arg, tuple) or not arg:
                return "wrong_count"                                       # L-20
            for i in arg:
                if self._turn_die(i) is None or i not in s.rolled:
                    return "no_die"
            return "wrong_count"
        if token == "barricade":
            d = self._front_die(arg)
            if d is not None:
                if d.face == "ambush" or d.type != "zombie":
                    return "ambush_die"                                    # L-13, LA-1
                return "no_die"  # pragma: no cover
            return "no_die" if self._zombie_targets() else "no_target"     # L-18, LA-1
        if token in ("pistol", "axe"):
            return "no_die"                                                # L-17
        if token == "chainsaw":
            d = self._turn_die(arg) if not (isinstance(arg, str) and arg.startswith("f")) else self._front_die(arg)
            if d is None:
                return "no_die"
            return "no_target"                                             # L-18
        return "wrong_moment"                                              # medkit: automatic (L-19)

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action) -> list[Event]:
        """Apply the active player's decision; raises Refused (nothing changed) if illegal."""
        s = self.state
        if s.finished:
            raise Refused({s.active: "game_over"}, s.phase)
        if action is None or action is not self._auto:    # else: the default auto_answer found
            legal = self._legal
            if legal is None:
                legal = self.legal()
            for listed in legal.actions:        # the usual case: one of the listed answers itself,
                if listed is action:            # which is legal and already canonical
                    break
            else:
                fams = legal.families
                if not (fams and fams[0].lists(action)):
                    code = self.refusal(action)
                    if code is not None:
                        raise Refused({s.active: code}, s.phase)
                    action = _canonical(action)
        self._legal = self._auto = None
        events: list[Event] = []
        ph, p = s.phase, s.active
        if ph in WINDOWS:                       # a window's answers: pass, or a use
            if action.kind == "use":
                self._use(p, action, events)
            elif ph == "before":
                s.phase = "dice"
            else:
                _CLOSE[ph](self, p, events)
            return events
        step = _STEPS.get(ph)                   # the other phases: one kind of answer each
        if step is not None:
            if ph == "dice" and action.kind == "undo":
                self._undo_radios(p, events)
            else:
                step(self, p, action.arg, events)
        elif ph == UNSTARTED:
            return self.start_setup(action.arg, [])
        return events

    # -- setup
    def _place_setup(self, p: str, side: str, events: list[Event]) -> None:
        s = self.state
        token = s.setup_token
        assert token is not None
        s.held[p].append([token if side == "object" else "barricade", token])
        events.append(_ev("setup_draw", ("player", "side", "token"), (p, side, token if side == "object" else "barricade")))
        s.setup_token = None
        self._setup_next(events)

    # -- the bag
    def _draw(self, p: str, events: list[Event]) -> str | None:
        """Draw the top of the bag (L-9): an object name, or None when the draw is used up by
        an apocalypse/night/day token or the bag is empty."""
        s = self.state
        if not s.bag:
            events.append(_ev("bag_empty", ("player",), (p,)))
            return None
        t = s.bag.pop(0)
        if t == "apocalypse":
            s.level += 1
            s.apocalypse_drawn += 1
            s.aside.append(t)
            events.append(_ev("apocalypse", ("player", "level"), (p, s.level)))
            if "survivors" in s.variants and s.apocalypse_drawn >= APOCALYPSE_TOKENS:
                self._finish(events, "the third apocalypse token")        # L-25
            return None
        if t == "night":                                                    # L-26
            s.level += 1
            s.night = True
            s.aside.append(t)
            pos = s.day_position
            if pos is None:
                pos = s.rng.randint(0, len(s.bag))
            elif pos < 0 or pos > len(s.bag):
                pos = len(s.bag)
            s.bag.insert(pos, "day")
            events.append(_ev("night", ("player", "level"), (p, s.level)))
            return None
        if t == "day":
            s.removed.append("day")
            if s.night:
                s.night = False
                s.level -= 1
                if "night" in s.aside:
                    s.aside.remove("night")
                s.removed.append("night")
            events.append(_ev("day", ("player", "level"), (p, s.level)))
            return None
        return t

    # -- turns
    def _start_turn(self, p: str, events: list[Event]) -> None:
        s = self.state
        self._legal = None
        self._auto = None
        s.active = p
        s.turn += 1
        s.tray, s.rolled, s.radio, s.radio_used = [], [], [], []
        s.chainsaw_before, s.pistols, s.axes, s.hero_used = False, 0, 0, False
        s.draws_left = s.bangs_left = s.bangs_used = s.gives_left = 0
        for dice in s.front.values():
            for d in dice:
                d.id = None
        if p in s.eliminated:
            s.phase = "zombified"
            return
        front = s.front[p]
        if front:
            ids = _FRONT_IDS if len(front) < len(_FRONT_IDS) else tuple(f"f{i}" for i in range(len(front) + 1))
            for i, d in enumerate(front, 1):
                d.id = ids[i]
        s.phase = "before"
        events.append(_ev("turn", ("player", "level"), (p, s.level)))

    def _next_turn(self, events: list[Event]) -> None:
        s = self.state
        i = s.players.index(s.active)
        n = len(s.players)
        for k in range(1, n + 1):
            q = s.players[(i + k) % n]
            if q not in s.eliminated or "zombified_rolls" in s.variants:
                self._start_turn(q, events)
                return

    def _zombified_roll(self, p: str, events: list[Event]) -> None:
        """L-27: one zombie die from the pool, ambushes and blanks do nothing."""
        s = self.state
        if s.pool["zombie"] > 0:
            face = self._main_faces({"zombie": 1})["zombie"][0]
            to = self.left_of(p)
            if face in ("zombie1", "zombie2"):
                s.pool["zombie"] -= 1
                s.front[to].append(Die("zombie", face))
                events.append(_ev("zombified_roll", ("player", "face", "to"), (p, face, to)))
            else:
                events.append(_ev("zombified_roll", ("player", "face"), (p, face)))
        else:
            self._main_faces({"zombie": 0})
            events.append(_ev("zombified_roll", ("player", "face"), (p, None)))
        self._next_turn(events)

    # -- rolls
    def _face(self, t: str) -> str:
        """One later roll of a die of type ``t`` (re-rolls, "+" chains, medkit)."""
        s = self.state
        if s.forced is not None:
            q = s.forced.get(t)
            if not q:
                raise ForcedRollError("rerolls", f"no forced {t} face left for a later roll")
            return q.pop(0)
        return self._chance(t)

    def _chance(self, t: str) -> str:
        s = self.state
        q = s.queued.get(t)
        if q:
            return q.pop(0)
        faces = s.faces[t]
        return faces[_below(s.rng, len(faces))]

    def _main_faces(self, counts: Mapping[str, int]) -> dict[str, list[str]]:
        s = self.state
        if s.forced_roll is not None:
            out = {}
            for t in TYPES:
                got = list(s.forced_roll.get(t, []))
                n = counts.get(t, 0)
                if len(got) != n:
                    raise ForcedRollError("roll", f"{n} {t} dice rolled, but {len(got)} faces given")
                out[t] = got
            s.forced_roll = None
            return out
        if any(s.queued.values()):
            return {t: [self._chance(t) for _ in range(counts.get(t, 0))] for t in TYPES}
        rng, faces = s.rng, s.faces                      # chance alone: the same draws, in the same order
        out = {}
        for t in TYPES:
            f = faces[t]
            k = len(f)
            out[t] = [f[_below(rng, k)] for _ in range(counts.get(t, 0))]
        return out

    def _set_face(self, d: Die, face: str) -> None:
        d.face = "blank" if face == "ambush" and self.state.chainsaw_before else face

    def _take_and_roll(self, p: str, counts: tuple[int, int, int, int], events: list[Event]) -> None:
        s = self.state
        pool = s.pool
        forced = min(s.level, MAX_FORCED, pool["zombie"])                  # forced_count()
        # The dice of each type taken from the pool: the forced zombie dice, the chosen ones,
        # then the radios' (L-6); a type's dice are numbered in that order (z1, z2...) and
        # rolled type by type in die order, so only the number of each type matters here.
        number = dict(zip(TYPES, counts))
        number["zombie"] += forced
        for pair in s.radio:
            for t in pair:
                number[t] += 1
        for t in TYPES:
            pool[t] -= number[t]
        rng = s.rng
        faces: dict[str, list[str]] | None = None
        if s.forced_roll is not None or type(rng) is not random.Random or (s.queued and any(s.queued.values())):
            try:
                faces = self._main_faces(number)
            except ForcedRollError:
                for t in TYPES:
                    pool[t] += number[t]
                raise
        events.append(_ev("dice_taken", ("player", "forced", "chosen", "radio"),
                          (p, forced, [["zombie", counts[0]], ["shoot", counts[1]], ["object", counts[2]],
                               ["barricade", counts[3]]], [list(r) for r in s.radio] if s.radio else [])))
        blank_ambush = s.chainsaw_before                  # _set_face: an ambush is blank after a chainsaw
        tray: list[Die] = []
        rolled: list[str] = []
        shown: list[list[str]] = []
        getrandbits, all_faces = rng.getrandbits, s.faces
        for t in TYPES:
            n = number[t]
            if not n:
                continue
            ids = _DIE_IDS[t] if n < 32 else tuple(f"{PREFIX[t]}{k}" for k in range(n + 1))
            got = None if faces is None else faces[t]
            f = all_faces[t]                            # chance alone: _main_faces's draws, inlined
            size = len(f)                               # (_below: getrandbits until below the count)
            bits = size.bit_length()
            for k in range(1, n + 1):
                if got is None:
                    r = getrandbits(bits)
                    while r >= size:
                        r = getrandbits(bits)
                    face = f[r]
                else:
                    face = got[k - 1]
                if blank_ambush and face == "ambush":
                    face = "blank"
                die_id = ids[k]
                d = _new_die(Die)
                d.type = t
                d.face = face
                d.id = die_id
                tray.append(d)
                rolled.append(die_id)
                shown.append([die_id, face])
        s.tray = self._sorted_tray = tray                 # in die order, as rolled
        s.rolled = rolled
        events.append(_ev("rolled", ("player", "dice"), (p, shown)))
        s.phase = "after"

    def _reroll(self, p: str, d: Die, why: str, events: list[Event]) -> None:
        """Re-roll a die of this turn (hero, pistol, axe: L-17, L-20); an ambush landing
        outside the window after goes in front at once."""
        s = self.state
        if d in s.front[p]:
            s.front[p].remove(d)
            s.tray.append(d)
            s.tray.sort(key=_die_order)
        self._set_face(d, self._face(d.type))                                # L-18: chainsaw before

    # -- token uses
    def _take_token(self, p: str, token: str) -> list[Any] | None:
        """Spend a token; returns ``[index, token]`` as it was held (None for the hero)."""
        s = self.state
        if token == "hero":
            s.hero[p] = False
            s.hero_used = True
            return None
        for i, h in enumerate(s.held[p]):                                   # LA-10
            if h[0] == token:
                del s.held[p][i]
                s.removed.append(h[1] or token)
                return [i, list(h)]
        return None  # pragma: no cover - legality checked that it is held

    def _undo_radios(self, p: str, events: list[Event]) -> None:
        """LA-2: the radios of this turn go back to the hand, the window before reopens."""
        s = self.state
        for i, h in reversed(s.radio_used):
            s.held[p].insert(i, h)
            ident = h[1] or h[0]
            for k in range(len(s.removed) - 1, -1, -1):
                if s.removed[k] == ident:
                    del s.removed[k]
                    break
        s.radio, s.radio_used = [], []
        s.phase = "before"
        events.append(_ev("radios_back", ("player",), (p,)))

    def _use(self, p: str, a: Action, events: list[Event]) -> None:
        s = self.state
        token, arg = a.token, a.arg
        if token is None:
            raise RulesError("a use names the token used")
        taken = self._take_token(p, token)
        if token == "axe" and arg is None:
            s.axes += 1
            events.append(_ev("token_used", ("player", "token", "what"), (p, token, "barricade results count double")))
        elif token == "pistol" and arg is None:
            s.pistols += 1
            events.append(_ev("token_used", ("player", "token", "what"), (p, token, "bangs count double")))
        elif token == "chainsaw" and arg is None:
            s.chainsaw_before = True
            events.append(_ev("token_used", ("player", "token", "what"), (p, token, "ambushes are ignored this turn")))
        elif token == "radio":
            s.radio.append(tuple(arg))
            if taken is not None:                                       # (None only for the hero)
                s.radio_used.append(taken)
            events.append(_ev("token_used", ("player", "token", "what", "types"),
                              (p, token, f"two more dice ({arg[0]}, {arg[1]})", [arg[0], arg[1]])))
        elif token in ("flare", "barricade"):
            ids = arg if token == "flare" else (arg,)
            to = self.left_of(p)
            moved = []
            for i in ids:
                d = self._die(self._front_die(i), i)
                s.front[p].remove(d)
                s.front[to].append(d)                                       # L-8
                moved.append([d.id, d.face])
            events.append(_ev("token_used", ("player", "token"), (p, token)))
            events.append(_ev("given", ("player", "to", "dice"), (p, to, moved)))
        elif token == "hero":
            events.append(_ev("token_used", ("player", "token"), (p, token)))
            dice = [self._die(self._turn_die(i), i) for i in arg]
            for d in dice:
                self._reroll(p, d, "hero", events)                          # L-20
            events.append(_ev("rerolled", ("player", "dice", "why"), (p, [[d.id, d.face] for d in dice], "hero")))
            self._ambush_now(p)
        elif token in ("pistol", "axe"):
            d = self._die(self._turn_die(arg), arg)
            events.append(_ev("token_used", ("player", "token"), (p, token)))
            self._reroll(p, d, token, events)                               # L-17
            events.append(_ev("rerolled", ("player", "dice", "why"), (p, [[d.id, d.face]], token)))
            self._ambush_now(p, d)
        elif token == "chainsaw":
            d = self._die(self._front_die(arg) if arg.startswith("f") else self._turn_die(arg), arg)
            if d in s.tray:
                s.tray.remove(d)
            else:
                s.front[p].remove(d)
            s.pool[d.type] += 1                                             # L-18
            events.append(_ev("token_used", ("player", "token", "what", "die"),
                              (p, token, f"the ambush on {arg} is discarded", arg)))

    def _ambush_now(self, p: str, die: Die | None = None) -> None:
        """After the window **after**, a re-rolled ambush is applied at once (L-17); during
        it, assignment is still to come (L-7)."""
        s = self.state
        if s.phase == "after":                                              # LA-7
            return
        if die is not None and die.face == "ambush" and die in s.tray:
            s.tray.remove(die)
            s.front[p].append(die)

    def _close_before(self, p: str, events: list[Event]) -> None:
        self.state.phase = "dice"

    def _close_after(self, p: str, events: list[Event]) -> None:
        s = self.state
        self._assign(p, events)
        n = 0
        for d in s.tray:
            if d.face == "object":
                n += 1
        s.draws_left = n
        s.phase = "draw"

    def _close_before_shoot(self, p: str, events: list[Event]) -> None:
        self._count_bangs(p, events)
        self.state.phase = "shoot"

    def _close_before_barricades(self, p: str, events: list[Event]) -> None:
        s = self.state
        results = 0
        for d in s.tray:
            if d.face == "barricade":
                results += 1
        results *= 2 ** s.axes
        s.gives_left = results
        if results:
            events.append(_ev("barricades", ("player", "results"), (p, results)))
        s.phase = "give"

    def _assign(self, p: str, events: list[Event]) -> None:
        """L-7: ambushes in front of the roller, zombies in front of the left player."""
        s = self.state
        left = self.left_of(p)
        ambush, zombies = [], 0
        keep = []
        tray = s.tray                   # the engine's tray stays in die order (rolled, re-rolled, taken from)
        for d in (tray if tray is self._sorted_tray or len(tray) < 2 else sorted(tray, key=_die_order)):
            if d.face == "ambush":
                s.front[p].append(d)
                ambush.append(d.id)
            elif d.face in ("zombie1", "zombie2"):
                s.front[left].append(d)
                zombies += SYMBOLS[d.face]
            else:
                keep.append(d)
        s.tray = self._sorted_tray = keep
        events.append(_ev("assigned", ("player", "left", "ambush", "zombies"), (p, left, ambush, zombies)))

    def _object_draws(self, p: str, n: int, events: list[Event]) -> None:
        s = self.state
        if n == 0:
            s.draws_left = 0
            s.phase = "before_shoot"
            return
        for _ in range(n):
            s.draws_left -= 1
            t = self._draw(p, events)
            if s.finished:
                return
            if t is not None:
                s.held[p].append([t, t])
                events.append(_ev("drew", ("player", "token"), (p, t)))
        if s.draws_left == 0:
            s.phase = "before_shoot"

    def _count_bangs(self, p: str, events: list[Event]) -> None:
        """L-11: bangs of the shoot dice in the tray, "+" re-rolled in rounds, doubled per
        pistol used before the roll."""
        s = self.state
        shooters = []
        for d in s.tray:
            if d.type == "shoot":
                shooters.append(d)
        if len(shooters) > 1 and s.tray is not self._sorted_tray:
            shooters.sort(key=_die_order)               # (stable: the tray's shoot dice in die order)
        total = 0
        rolling = []
        for d in shooters:
            f = d.face
            total += BANGS.get(f, 0)
            if f == PLUS:
                rolling.append(d)
        chain = []
        while rolling:
            nxt = []
            for d in rolling:
                self._set_face(d, self._face("shoot"))
                chain.append(d.face)
                total += BANGS.get(d.face, 0)
                if d.face == "ambush":                                      # only with custom faces
                    s.tray.remove(d)
                    s.front[p].append(d)
                elif d.face == PLUS:
                    nxt.append(d)
            rolling = nxt
        total *= 2 ** s.pistols
        s.bangs_left = total
        s.bangs_used = 0
        if total or chain:
            events.append(_ev("bangs", ("player", "bangs", "chain", "doublings"), (p, total, chain, s.pistols)))

    def _shoot(self, p: str, arg: tuple[str, int] | None, events: list[Event]) -> None:
        s = self.state
        if arg is None:
            # L-12: the hero token, for 3 bangs used
            if s.bangs_used >= 3 and not s.hero[p] and not s.hero_used:
                s.hero[p] = True
                events.append(_ev("hero_gained", ("player", "why"), (p, f"{s.bangs_used} bangs")))
            s.bangs_left = 0
            s.phase = "before_barricades"
            return
        die_id, n = arg
        for d in s.front[p]:                                                # _front_die, checked legal
            if d.id == die_id:
                break
        else:
            raise RulesError(f"no die {die_id!r} to act on")
        s.bangs_left -= n
        s.bangs_used += n
        left = SYMBOLS[d.face] - n
        if left == 0:
            s.front[p].remove(d)
            s.pool[d.type] += 1
        else:
            d.face = "zombie1"                                              # L-10
        events.append(_ev("shot", ("player", "die", "bangs", "cleared", "face"), (p, die_id, n, left == 0, d.face)))

    def _give(self, p: str, die_id: str | None, events: list[Event]) -> None:
        s = self.state
        if die_id is None:
            self._end_of_turn_a(p, events)
            return
        for d in s.front[p]:                                                # _front_die, checked legal
            if d.id == die_id:
                break
        else:
            raise RulesError(f"no die {die_id!r} to act on")
        to = self.left_of(p)
        s.front[p].remove(d)
        s.front[to].append(d)                                               # L-8, L-13
        s.gives_left -= 1
        events.append(_ev("given", ("player", "to", "dice", "why"), (p, to, [[d.id, d.face]], "barricade")))

    def _end_of_turn_a(self, p: str, events: list[Event]) -> None:
        """L-14 (a) the medkit (L-19), then the prompt for (b)."""
        s = self.state
        while s.front[p] and _holds_medkit(s.held[p]):
            self._take_token(p, "medkit")
            face = self._face("shoot")                                      # LA-9
            saved = BANGS.get(face, 0) > 0
            events.append(_ev("medkit", ("player", "face", "saved"), (p, face, saved)))
            if saved:
                for d in s.front[p]:
                    s.pool[d.type] += 1
                s.front[p] = []
        s.phase = "draw_barricades"

    def _barricade_draws(self, p: str, n: int, events: list[Event]) -> None:
        s = self.state
        for _ in range(n):
            s.gives_left -= 1
            t = self._draw(p, events)
            if s.finished:
                return
            if t is not None:
                s.held[p].append(["barricade", t])
                events.append(_ev("drew_face_down", ("player",), (p,)))
        s.gives_left = 0
        if len(s.held[p]) > TOKEN_LIMIT:                                    # L-14 (c) before (e), LA-5
            s.phase = "keep"
            return
        self._end_of_turn_d(p, events)

    def _keep(self, p: str, names: tuple[str, ...], events: list[Event]) -> None:
        s = self.state
        want = Counter(names)
        kept, gone = [], []
        for h in s.held[p]:
            if want[h[0]] > 0:
                want[h[0]] -= 1
                kept.append(h)
            else:
                gone.append(h)
        s.held[p] = kept
        self._discard(p, gone, events)
        self._end_of_turn_d(p, events)

    def _discard(self, p: str, gone: list[list[Any]], events: list[Event]) -> None:
        if gone:
            self.state.removed.extend(h[1] or h[0] for h in gone)
            events.append(_ev("discarded", ("player", "tokens"), (p, [h[0] for h in gone])))

    def _end_of_turn_d(self, p: str, events: list[Event]) -> None:
        """L-14 (c) the limit (the 3 held longest when not asked), (d) dice back, (e) overrun."""
        s = self.state
        if len(s.held[p]) > TOKEN_LIMIT:
            gone = s.held[p][TOKEN_LIMIT:]
            s.held[p] = s.held[p][:TOKEN_LIMIT]
            self._discard(p, gone, events)
        for d in s.tray:
            s.pool[d.type] += 1
        s.tray = []
        if s.front[p]:
            self._overrun(p, events)
        if not s.finished:
            self._next_turn(events)

    def _overrun(self, p: str, events: list[Event]) -> None:
        """L-21; Survivors L-24."""
        s = self.state
        for d in s.front[p]:
            s.pool[d.type] += 1
        s.front[p] = []
        removed = s.removed
        for h in s.held[p]:
            removed.append(h[1] or h[0])
        s.held[p] = []
        if "survivors" in s.variants and s.lives[p] > 1:
            s.lives[p] -= 1
            events.append(_ev("overrun", ("player", "lives"), (p, s.lives[p])))
            if not s.hero[p] and not s.hero_used:
                s.hero[p] = True
                events.append(_ev("hero_gained", ("player", "why"), (p, "a life lost")))
            return
        events.append(_ev("overrun", ("player",), (p,)))
        if "survivors" in s.variants:
            s.lives[p] = 0
        s.hero[p] = False                                                   # back to the supply
        s.eliminated.append(p)
        events.append(_ev("eliminated", ("player",), (p,)))
        if "zombies_everywhere" in s.variants and s.level < MAX_FORCED:     # L-27
            s.level += 1
            events.append(_ev("level", ("level", "why"), (s.level, "a player is zombified")))
        if len(self.in_game()) <= 1:
            self._finish(events, "the last one alive")

    def score(self, p: str) -> int:
        """Survivors (L-25): 2 per life plus the object/barricade tokens held (at most 3)."""
        s = self.state
        return 2 * s.lives.get(p, 0) + min(TOKEN_LIMIT, len(s.held[p]))

    def _finish(self, events: list[Event], why: str) -> None:
        s = self.state
        self._legal = None
        self._auto = None
        alive = self.in_game()
        in_setup = s.phase == "setup"                                      # L-25: ended in the setup draws
        s.finished = True
        s.phase = "finished"
        if "survivors" in s.variants:
            s.scores = {p: self.score(p) for p in alive}
        if len(alive) == 1:
            s.winners = alive
        elif alive and "survivors" in s.variants:
            best = max(s.scores.values())
            tied = [p for p in alive if s.scores[p] == best]
            heroes = [p for p in tied if s.hero[p]]
            s.winners = heroes or tied                                      # L-25
        else:
            s.winners = alive
        if in_setup:
            events.append(_ev("game_over", ("winners", "why", "scores", "setup"),
                              (list(s.winners), why, dict(s.scores), True)))
        else:
            events.append(_ev("game_over", ("winners", "why", "scores"), (list(s.winners), why, dict(s.scores))))

    # ------------------------------------------------------------------ views
    def _held_public(self, p: str) -> list[str]:
        s = self.state
        return [h[0] for h in s.held[p]] + (["hero"] if s.hero[p] else [])

    def public_view(self) -> dict[str, Any]:
        """What the whole table may see: no bag order (only its size), no object side of a
        face-down token, no random state, seed or forced roll."""
        s = self.state
        pr = self.prompt()
        return {
            "players": [
                {"player": p, "in_game": p not in s.eliminated, "tokens": self._held_public(p),
                 "front": [[d.id, d.type, d.face] for d in s.front[p]],
                 **({"lives": s.lives[p]} if s.lives else {})}
                for p in s.players],
            "variants": list(s.variants),
            "active": s.active, "phase": s.phase, "turn": s.turn,
            "level": s.level, "night": s.night, "apocalypse_drawn": s.apocalypse_drawn,
            "bag_size": len(s.bag), "pool": dict(s.pool),
            "tray": [[d.id, d.type, d.face] for d in (s.tray if s.tray is self._sorted_tray
                                                      else sorted(s.tray, key=_die_order))],
            "turn_state": {"radio": [list(r) for r in s.radio], "chainsaw_before": s.chainsaw_before,
                           "pistols": s.pistols, "axes": s.axes, "hero_used": s.hero_used,
                           "draws_left": s.draws_left, "bangs_left": s.bangs_left, "gives_left": s.gives_left},
            "prompt": None if pr is None else {"player": pr.player, "kind": pr.kind, "auto": pr.auto, **pr.info},
            "eliminated": list(s.eliminated), "finished": s.finished, "winners": list(s.winners),
            "scores": dict(s.scores),
        }

    def private_view(self, player: str) -> dict[str, Any]:
        """The public view plus what ``player`` alone knows: the object side of their
        face-down tokens, and the token they drew at setup while deciding its side."""
        return self.add_private(self.public_view(), player)

    def add_private(self, view: dict[str, Any], player: str) -> dict[str, Any]:
        """``view`` (a copy of the public view) with what ``player`` alone knows added."""
        s = self.state
        if player not in s.players:
            raise RulesError(f"unknown player {player!r}")
        view["me"] = player
        view["hidden"] = [h[1] for h in s.held[player] if h[0] == "barricade"]
        view["setup_token"] = s.setup_token if s.phase == "setup" and s.active == player else None
        return view

    # ------------------------------------------------------------------ data
    def to_data(self) -> dict[str, Any]:
        s = self.state
        st = s.rng.getstate()
        return {
            "game": "lastonealive", "version": 1,
            "players": list(s.players), "variants": list(s.variants),
            "faces": {t: list(f) for t, f in s.faces.items()}, "counts": dict(s.counts),
            "rng": [st[0], list(st[1]), st[2]], "seed": s.seed,
            "active": s.active, "phase": s.phase, "turn": s.turn, "level": s.level,
            "apocalypse_drawn": s.apocalypse_drawn, "night": s.night, "day_position": s.day_position,
            "bag": list(s.bag), "aside": list(s.aside), "removed": list(s.removed),
            "held": {p: [list(h) for h in v] for p, v in s.held.items()}, "hero": dict(s.hero),
            "front": {p: [d.to_data() for d in v] for p, v in s.front.items()}, "pool": dict(s.pool),
            "lives": dict(s.lives), "eliminated": list(s.eliminated), "finished": s.finished,
            "winners": list(s.winners), "scores": dict(s.scores), "first_zombie": s.first_zombie,
            "first": s.first,
            "setup_queue": list(s.setup_queue), "setup_token": s.setup_token,
            "tray": [d.to_data() for d in s.tray], "rolled": list(s.rolled),
            "radio": [list(r) for r in s.radio], "radio_used": [[i, list(h)] for i, h in s.radio_used],
            "chainsaw_before": s.chainsaw_before,
            "pistols": s.pistols, "axes": s.axes, "hero_used": s.hero_used,
            "draws_left": s.draws_left, "bangs_left": s.bangs_left, "bangs_used": s.bangs_used,
            "gives_left": s.gives_left,
            "forced_roll": None if s.forced_roll is None else {t: list(v) for t, v in s.forced_roll.items()},
            "forced": None if s.forced is None else {t: list(v) for t, v in s.forced.items()},
            "queued": {t: list(v) for t, v in s.queued.items()},
        }

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> "Game":
        try:
            rng = random.Random()
            r = d["rng"]
            rng.setstate((r[0], tuple(r[1]), r[2]))
            s = GameState(
                players=tuple(d["players"]), variants=tuple(d["variants"]),
                faces={t: tuple(f) for t, f in d["faces"].items()}, counts=dict(d["counts"]),
                rng=rng, seed=d["seed"], active=d["active"], phase=d["phase"], turn=d["turn"],
                level=d["level"], apocalypse_drawn=d["apocalypse_drawn"], night=d["night"],
                day_position=d["day_position"], bag=list(d["bag"]), aside=list(d["aside"]),
                removed=list(d["removed"]), held={p: [list(h) for h in v] for p, v in d["held"].items()},
                hero=dict(d["hero"]), front={p: [Die.from_data(x) for x in v] for p, v in d["front"].items()},
                pool=dict(d["pool"]), lives=dict(d["lives"]), eliminated=list(d["eliminated"]),
                finished=d["finished"], winners=list(d["winners"]), scores=dict(d["scores"]),
                first_zombie=d["first_zombie"], first=d["first"], setup_queue=list(d["setup_queue"]), setup_token=d["setup_token"],
                tray=[Die.from_data(x) for x in d["tray"]], rolled=list(d["rolled"]),
                radio=[tuple(r) for r in d["radio"]], radio_used=[[i, list(h)] for i, h in d["radio_used"]],
                chainsaw_before=d["chainsaw_before"],
                pistols=d["pistols"], axes=d["axes"], hero_used=d["hero_used"], draws_left=d["draws_left"],
                bangs_left=d["bangs_left"], bangs_used=d["bangs_used"], gives_left=d["gives_left"],
                forced_roll=None if d["forced_roll"] is None else {t: list(v) for t, v in d["forced_roll"].items()},
                forced=None if d["forced"] is None else {t: list(v) for t, v in d["forced"].items()},
                queued={t: list(v) for t, v in d.get("queued", {}).items()})
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise RulesError(f"not a saved Last One Alive game: {type(exc).__name__}: {exc}") from None
        return cls(s)

    def copy(self) -> "Game":
        return Game.from_data(self.to_data())


#: What :meth:`Game.apply` does with the answer (its ``arg``) in each phase outside the
#: windows, the dice's undo and the start.
_STEPS: dict[str, Callable[[Game, str, Any, list[Event]], None]] = {
    "setup": Game._place_setup,
    "zombified": lambda game, p, arg, events: game._zombified_roll(p, events),
    "dice": Game._take_and_roll,
    "draw": Game._object_draws,
    "shoot": Game._shoot,
    "give": Game._give,
    "draw_barricades": Game._barricade_draws,
    "keep": Game._keep,
}

#: How each window closes on its pass (:meth:`Game.apply` closes the window before itself).
_CLOSE: dict[str, Callable[[Game, str, list[Event]], None]] = {
    "before": Game._close_before, "after": Game._close_after, "before_shoot": Game._close_before_shoot,
    "before_barricades": Game._close_before_barricades,
}

