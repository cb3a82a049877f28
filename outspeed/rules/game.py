"""The Outspeed rules engine: a game state, what each player may do now, and ``apply``.

Pure and deterministic: no I/O, no global state. All chance (tile order, dice, the bonus
pile) comes from one seeded :class:`random.Random` held in the state, so a game is fully
reproducible from its seed and its inputs, and a test can force any roll
(:attr:`GameState.forced_dice`). The rules and their rulings are in docs/rules.md, cited as R-n.

A turn runs four phases (docs/rules.md "A turn"):

* ``bonus``: :meth:`Game.play_bonus` takes every player's token play (or none) at once and
  applies them zone by zone, front to back (R-2, R-3);
* ``programming``: :meth:`Game.program` takes every active player's path (and centre-wheel
  number) at once, checks them (R-7, R-14, R-6) and runs the resolution;
* ``draw``: when a resolution gives bonus tokens and the bridge holds the pile (virtual
  tokens), each draw waits for :meth:`Game.keep` (R-12 order);
* the reveal phase needs no input and runs at the end of the resolution.

Illegal inputs raise :class:`Refused` with a code per player and change nothing.

Choices for cases the rules leave open (docs/rules.md lists them too; each is also written
where it is applied):

* O-1 tokens held by an eliminated player are discarded; an eliminated player's fuel is 0.
* O-2 force-field markers on a removed board go back to the supply.
* O-3 in the resolution the rearmost board is removed whenever the track has three boards;
  in the bonus phase only when that phase laid it (R-9).
* O-4 "every zone that at least one ship entered during this turn loses all its markers":
  a ship enters the zone where one of its moves ends (a zone it only crosses is not entered;
  a marked zone cannot be crossed, R-11 aside). Markers placed later in the turn on a zone
  entered earlier in it are removed too, as the sentence says.
* O-5 players on an overcrowded path pay nothing, and a player alone on a solo path pays
  nothing, even under R-6: the resolution is mechanical, R-6 only makes the choice legal.
* O-6 force fields played when fewer markers are left than plays take them front to back;
  the rest do nothing (the token is still discarded).
* O-7 a player with a "choose X" path and no number set is refused as ``missing_choice``.
* O-8 all bonus draws of a resolution happen with the gains, before the board removal: a
  player eliminated on the removed board has drawn and their tokens are discarded (O-1).
* O-9 a bonus group is the players on one zone at the start of the bonus phase (when they
  announce). Under the rules no earlier group can move or eliminate a later group's ship
  (effects reach only zones ahead of their player, and electromagnet and ion cannon come from
  the rearmost zone, the last group); should it happen, a token whose player is gone is
  discarded without effect.
* O-10 "the game ends at once" when at most one player remains: after the costs of a
  resolution, the gains are then not applied; in the bonus phase, later groups are not applied.
* O-11 in one bonus group, a ship an ion cannon leaves with 0 fuel is eliminated at once: a
  move the same group gives it does not happen (it enters no zone, R-17).

Speed (simulations play thousands of games a second; every output stays as it was):

* what depends only on a tile face (each path's plans, :class:`tiles.Path`; the fuel each
  path needs and the options by fuel, :class:`_Lit`) is derived once and kept with the tile
  (``Tile._derived``): a cache of pure functions of the tile, shared by the games using it;
* events are made from constant shapes and their values; their data dicts are built only
  when read (:class:`events.Event`); the public values an event sets (``Event.public``, the
  step-by-step screen's one source) ride in the same values tuple, paired with their paths
  only when read; the events of every turn (turn, programmed, pay, fuel, moved, roll, tile
  revealed) are made inline, without a call (``_event``'s three lines);
* :meth:`Game.program` checks and reveals the usual programs (every player on a lit path
  without X that they can afford) in one pass, and :meth:`Game._resolve` moves each ship
  as its gain is known; anything unusual goes through the general checks and code.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Iterable, Mapping, Sequence

from bitbox.games.engine import StateQueries
from bitbox.games.engine import choice as _choice
from bitbox.games.engine import shuffle as _shuffle

from .events import WHO, Event, EventKind as K, _event, _new_event, with_public
from .tiles import PATHS, Amount, Path, Tile, parse_tile

TOKENS: tuple[str, ...] = ("electromagnet", "ion_cannon", "flamethrower", "force_field", "nitro", "fuel_tank")
UNKNOWN = "unknown"  # a physical token whose type only its holder knows
_NOTHING: tuple[None] = (None,)  # the bonus play of a player holding no token (bonus_options)
_UNCONDITIONAL = frozenset(TOKENS) - {"electromagnet", "ion_cannon", "force_field"}  # see _token_refusal
DEFAULT_TOKEN_COUNTS = {"electromagnet": 2, "ion_cannon": 2, "flamethrower": 7,
                        "force_field": 7, "nitro": 7, "fuel_tank": 7}
DEFAULT_MARKERS = 7                  # force-field markers in the box
DEFAULT_DICE = {"yellow": (-1, -1, -2, -2, -3, -3), "blue": (1, 1, 2, 2, 3, 3)}
MIN_PLAYERS, MAX_PLAYERS = 3, 6      # the player-count bounds, for every part of the game
BOARD = 7                            # zones on a board
START_ZONE = 3
START_FUEL = 12
MAX_BOARDS = 3

# Events are made as _event(shape, values) (Event._of), shape = (kind, keys) or (kind, keys,
# public paths): the data dict is built only if read (see outspeed.rules.events). The shapes
# are the constants below.

# The shape of each event the engine emits: its kind (an EventKind), the keys of its data
# and, for an event that sets public values its data does not hold, their paths in the
# public view (Event.public; WHO is the event's player), one module constant each, so an
# emission builds no tuple for it. Those values are captured as the engine applies the
# event: they follow the data's values in the event's values tuple (one source for the
# step-by-step screen: the display folds them and never re-derives a rule).
_P_DISCARDS = (("discards",),)        # public paths set by no event of their own (with_public)
_P_PILE_SIZE = ("pile_size",)
_E_TURN = (K.TURN, ("turn", "tile", "face"))
_E_BONUS_NONE = (K.BONUS_NONE, ())
_E_BONUS_PLAYED = (K.BONUS_PLAYED, ("player", "token"), (("players", WHO, "tokens"),))
_E_NOTHING_AHEAD = (K.NOTHING_AHEAD, ("player", "token"))
_E_FUEL = (K.FUEL, ("player", "delta", "why", "total"))
_E_MARKER_PLACED = (K.MARKER_PLACED, ("player", "zone"), (("force_fields",), ("markers_left",)))
_E_NO_MARKER_LEFT = (K.NO_MARKER_LEFT, ("player",))
_E_BOARD_LAID = (K.BOARD_LAID, ("front",), (("track", "boards"),))
_E_MOVED = (K.MOVED, ("player", "from", "to", "why"))
_E_MOVED_2 = (K.MOVED, ("player", "from", "to", "stopped", "why"))
_E_BOARD_REMOVED = (K.BOARD_REMOVED, ("first", "last"),
                    (("track", "rear"), ("track", "boards"), ("force_fields",), ("markers_left",)))
_E_ELIMINATED = (K.ELIMINATED, ("player", "cause"),
                 (("players", WHO, "active"), ("players", WHO, "zone"), ("players", WHO, "fuel"),
                  ("players", WHO, "tokens"), ("discards",), ("eliminated",)))
_E_FLIP = (K.FLIP, ("remaining",), (("next_face",),))
_E_GAME_OVER = (K.GAME_OVER, ("winners", "why"))
_E_PROGRAMMED = (K.PROGRAMMED, ("player", "path", "number"))
_E_ROLL = (K.ROLL, ("player", "die", "value"))
_E_LOSE_TURN = (K.LOSE_TURN, ("path", "count", "capacity", "players"))
_E_SOLO_ALONE = (K.SOLO_ALONE, ("player", "path"))
_E_SOLO_CROWD = (K.SOLO_CROWD, ("path", "count"))
_E_PAY = (K.PAY, ("player", "amount", "paid", "parts", "total"))
_E_FUEL_2 = (K.FUEL, ("player", "delta", "total"))
_E_DRAW_PHYSICAL = (K.DRAW, ("player", "drawn"), (("players", WHO, "tokens"),))
_E_DRAW_TWO = (K.DRAW, ("player", "drawn"), (("pile_size",),))
_E_DRAW_ONE = (K.DRAW, ("player", "drawn"), (("players", WHO, "tokens"), ("pile_size",)))
_E_RESHUFFLE = (K.RESHUFFLE, ("count",), (("pile_size",), ("discards",)))
_E_DRAW_EMPTY = (K.DRAW_EMPTY, ("player",))
_E_MARKERS_REMOVED = (K.MARKERS_REMOVED, ("zone", "count"), (("force_fields",), ("markers_left",)))
_E_TILE_REVEALED = (K.TILE_REVEALED, ("tile",),
                     (("turn",), ("tile",), ("face",), ("next_face",), ("tiles_left",), ("revealed",)))


REFUSAL_CODES = ("not_held", "not_rearmost", "finish_tile", "no_marker", "unlit_path",
                 "unaffordable", "choose_out_of_range", "eliminated", "missing_choice")

REFUSAL_TEXT = {
    "not_held": "does not hold that bonus token",
    "not_rearmost": "must be on the rearmost occupied zone to play it",
    "finish_tile": "a force field cannot be played while the finish tile is the current tile",
    "no_marker": "all force-field markers are already on the track",
    "unlit_path": "that path is not lit on this tile",
    "unaffordable": "cannot afford that path",
    "choose_out_of_range": "the number is out of range or above the fuel held",
    "eliminated": "is eliminated",
    "missing_choice": "has not programmed a choice",
}


class Refused(Exception):
    """Inputs refused by the rules; nothing was changed. ``codes`` maps player → code."""

    def __init__(self, codes: Mapping[str, str], phase: str) -> None:
        self.codes = dict(codes)
        self.phase = phase
        super().__init__("; ".join(f"{p} {REFUSAL_TEXT[c]} ({c})" for p, c in self.codes.items()))


class RulesError(ValueError):
    """An input that makes no sense at all (wrong phase, unknown player or token)."""


@dataclass(frozen=True, slots=True, init=False)
class Choice:
    """A programmed path, and the centre-wheel number for a "choose X" path."""

    path: str
    number: int | None = None

    def __init__(self, path: str, number: int | None = None) -> None:
        # Bots make one per player per turn: the slots are set directly, as the frozen
        # dataclass's generated __init__ does, only faster.
        _set_choice_path(self, path)
        _set_choice_number(self, number)


_set_choice_path = Choice.path.__set__            # type: ignore[misc, attr-defined]  # slot descriptors
_set_choice_number = Choice.number.__set__        # type: ignore[misc, union-attr]  # (mypy: instance attrs)


@dataclass
class GameState:
    """Everything about a game. Hidden parts: ``held`` types, ``pile`` order, ``drawn``,
    ``rng`` and ``forced_dice``; see :meth:`Game.public_view`."""

    players: tuple[str, ...]
    zone: dict[str, int]
    fuel: dict[str, int]
    held: dict[str, list[str]]
    active: list[str]                    # in seat order
    eliminated: list[list[Any]]          # [player, cause, turn], in order of elimination
    rear: int
    boards: int
    markers: list[int]                   # zones, one entry per marker on the track
    marker_total: int
    pile: list[str]                      # top first
    discards: list[str]
    tile: Tile | None                    # the current tile; None when a scenario runs out
    stack: list[Tile]                    # the tiles after the current one, next first
    face: str                            # face of the current tile
    next_face: str                       # face the next tiles are played on
    dice: dict[str, tuple[int, ...]]
    rng: random.Random
    token_mode: str = "virtual"          # "virtual": the engine holds the pile; "physical"
    seed: int = 0
    turn: int = 1
    phase: str = "bonus"                 # bonus | programming | draw | finished
    finished: bool = False
    winners: list[str] = field(default_factory=list)
    forced_dice: dict[str, list[int]] = field(default_factory=dict)
    entered: set[int] = field(default_factory=set)        # zones entered this turn (O-4)
    revealed: dict[str, list[Any]] = field(default_factory=dict)  # this turn's paths, after reveal
    draw_queue: list[str] = field(default_factory=list)
    drawn: list[str] = field(default_factory=list)

    @property
    def front(self) -> int:
        return self.rear + BOARD * self.boards - 1


class _Options(dict):
    """A read-only dict of legal programs (``Game.program_options``), with its keys sorted
    (``sorted_keys``) and, for each of them, the Choice of that path when it takes no number
    (``choices``, else None). A dict, not a MappingProxyType, so that bots read it at dict
    speed; made once per face and fuel, so a bot that picks among them has nothing to build."""

    __slots__ = ("sorted_keys", "choices")

    def __init__(self, programs: Mapping[str, Sequence[int]]) -> None:
        super().__init__(programs)
        self.sorted_keys: tuple[str, ...] = tuple(sorted(programs))
        self.choices: tuple[Choice | None, ...] = tuple(None if programs[k] else Choice(k)
                                                         for k in self.sorted_keys)

    def _read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("legal options are read-only")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Options, (dict(self),))

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only


class _Lit:
    """The lit paths of a tile's face and the fuel each needs (``Game._lit``)."""

    __slots__ = ("tile", "face", "dice", "paths", "thresholds", "plain", "keys", "least", "most", "options",
                 "limited", "dynamic_cost")

    def __init__(self, tile: Tile | None, face: str, dice: tuple | None, paths: Mapping[str, Path],
                 thresholds: dict[str, int]) -> None:
        self.tile, self.face, self.dice, self.paths, self.thresholds = tile, face, dice, paths, thresholds
        self.plain = {k: t for k, t in thresholds.items() if paths[k].choose is None}   # paths without X
        self.keys = tuple(thresholds)
        self.least = min(thresholds.values(), default=float("inf"))   # any path affordable from here
        self.most = max(thresholds.values(), default=float("-inf"))   # every path affordable from here
        self.options: dict[int, Mapping[str, Sequence[int]]] = {}   # program_options by fuel
        self.limited = tuple((k, p) for k, p in paths.items() if p.capacity is not None or p.solo)
        self.dynamic_cost = any(p.fixed_cost is None for p in paths.values())  # a die, count or X to pay


def _rank_key(state: GameState, p: str) -> tuple[int, int, int]:
    return (state.zone[p], state.fuel[p], len(state.held[p]))


class Game(StateQueries):
    """A game of Outspeed. Methods mutate :attr:`state` and return the events that say
    what happened; :meth:`copy` gives an independent game (for bots' lookahead)."""

    def __init__(self, state: GameState) -> None:
        self.state: GameState = state
        self._lit_cache: _Lit | None = None           # see _lit
        self._order_cache: tuple | None = None        # see _seat_order

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, players: Sequence[str], tiles: Iterable[Tile], *, seed: int = 0,
            first_game: bool = False, dice: Mapping[str, Sequence[int]] | None = None,
            token_counts: Mapping[str, int] | None = None, markers: int = DEFAULT_MARKERS,
            token_mode: str = "virtual") -> "Game":
        """Set up a game (docs/rules.md "Setup"): tiles shuffled on the face for the player
        count with one finish tile at random, unseen, at the bottom; or tiles 1–13 in order
        for a first game; ships on zone 3, 12 fuel each, the bonus tokens shuffled."""
        players = tuple(players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise RulesError(f"Outspeed is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
        if len(set(players)) != len(players):
            raise RulesError(f"players must be distinct: {players}")
        if token_mode not in ("virtual", "physical"):
            raise RulesError(f"token_mode must be virtual or physical, not {token_mode!r}")
        rng = random.Random(seed)
        tiles = list(tiles)
        races = sorted((t for t in tiles if not t.finish), key=_number)
        finishes = sorted((t for t in tiles if t.finish), key=_number)
        if first_game:
            order = sorted((t for t in tiles if t.number <= 13), key=_number)
            if [t.number for t in order] != list(range(1, 14)):
                raise RulesError("a first game needs tiles 1 to 13")
        else:
            if len(races) < 1 or not finishes:
                raise RulesError("a game needs race tiles and at least one finish tile")
            _shuffle(rng, races)
            order = races + [_choice(rng, finishes)]
        counts = dict(DEFAULT_TOKEN_COUNTS if token_counts is None else token_counts)
        pile: list[str] = []
        for t in TOKENS:
            pile += [t] * counts.get(t, 0)
        _shuffle(rng, pile)
        face = "3-4" if len(players) <= 4 else "5-6"
        state = GameState(
            players=players,
            zone=dict.fromkeys(players, START_ZONE),
            fuel=dict.fromkeys(players, START_FUEL),
            held={p: [] for p in players},
            active=list(players),
            eliminated=[],
            rear=1, boards=2, markers=[], marker_total=markers,
            pile=pile if token_mode == "virtual" else [], discards=[],
            tile=order[0], stack=order[1:], face=face, next_face=face,
            dice={k: tuple(v) for k, v in (dice or DEFAULT_DICE).items()},
            rng=rng, token_mode=token_mode, seed=seed,
        )
        return cls(state)

    def copy(self) -> "Game":
        s = self.state
        rng = random.Random()
        rng.setstate(s.rng.getstate())
        return Game(GameState(
            players=s.players, zone=dict(s.zone), fuel=dict(s.fuel),
            held={p: list(h) for p, h in s.held.items()}, active=list(s.active),
            eliminated=[list(e) for e in s.eliminated], rear=s.rear, boards=s.boards,
            markers=list(s.markers), marker_total=s.marker_total, pile=list(s.pile),
            discards=list(s.discards), tile=s.tile, stack=list(s.stack), face=s.face,
            next_face=s.next_face, dice=s.dice, rng=rng, token_mode=s.token_mode, seed=s.seed,
            turn=s.turn, phase=s.phase, finished=s.finished, winners=list(s.winners),
            forced_dice={p: list(v) for p, v in s.forced_dice.items()},
            entered=set(s.entered),
            revealed={p: list(v) for p, v in s.revealed.items()},
            draw_queue=list(s.draw_queue), drawn=list(s.drawn)))

    # ------------------------------------------------------------------ queries
    @property
    def current_paths(self) -> Mapping[str, Path]:
        s = self.state
        if s.tile is None:
            raise RulesError("no tile left to play")
        return s.tile.face(s.face)

    def rearmost_zone(self) -> int | None:
        s = self.state
        return min(map(s.zone.__getitem__, s.active), default=None)

    def bonus_refusal(self, player: str, token: str | None) -> str | None:
        """Why ``player`` may not play ``token`` now (a refusal code), or None if they may:
        None exactly when ``token`` is one of the generated plays (:meth:`bonus_plays_of`);
        otherwise the code says why. Checked against the state at the start of the bonus
        phase (R-3)."""
        s = self.state
        if player not in s.zone and player not in s.players:
            self._known_player(player)                                  # raises
        if player not in s.active:
            return "eliminated"
        if token is not None and token not in TOKENS:
            raise RulesError(f"unknown bonus token {token!r} (known: {', '.join(TOKENS)})")
        if token in self.bonus_plays_of(player):
            return None
        # Not a generated play: say why.
        held = s.held[player]
        if token not in held and UNKNOWN not in held:
            return "not_held"
        assert token is not None                    # a None play is always generated
        return self._token_refusal(player, token) or "not_held"

    def _token_refusal(self, player: str, token: str) -> str | None:
        """The refusals of a token that ``player`` holds (:meth:`bonus_refusal`); the tokens
        of ``_UNCONDITIONAL`` have none."""
        s = self.state
        if token in ("electromagnet", "ion_cannon") and s.zone[player] != self.rearmost_zone():
            return "not_rearmost"
        if token == "force_field":
            if s.tile is not None and s.tile.finish:
                return "finish_tile"          # the French and Spanish text
            if len(s.markers) >= s.marker_total:
                return "no_marker"
        return None

    def legal_bonus_plays(self, player: str) -> list[str | None]:
        """The tokens ``player`` may play now, ``None`` (play nothing) first: the one source
        of bonus legality (:meth:`bonus_refusal` is membership in it)."""
        if self.state.phase != "bonus":
            return []
        return self.bonus_plays_of(player)

    def bonus_plays_of(self, player: str) -> list[str | None]:
        """:meth:`legal_bonus_plays` in any phase (for a model game or a check)."""
        s = self.state
        if player not in s.active:
            return []
        held = s.held[player]
        if not held:
            return [None]                     # the usual case, and the cheapest
        if len(held) == 1 and held[0] != UNKNOWN:     # one token, the next most usual
            t = held[0]
            if t in TOKENS and (t in _UNCONDITIONAL or self._token_refusal(player, t) is None):
                return [None, t]
            return [None]
        legal: list[str | None] = [None]
        anything = UNKNOWN in held            # a physical token may be any
        for t in TOKENS:
            if (anything or t in held) and (t in _UNCONDITIONAL or self._token_refusal(player, t) is None):
                legal.append(t)
        return legal

    def bonus_options(self) -> dict[str, Sequence[str | None]]:
        """:meth:`legal_bonus_plays` of every active player, in seat order, in one call (for
        bots). The players who hold no token share one read-only ``(None,)``."""
        s = self.state
        if s.phase != "bonus":
            return {}
        held = s.held
        return {p: self.bonus_plays_of(p) if held[p] else _NOTHING for p in s.active}   # (phase checked)

    def program_options(self) -> dict[str, Mapping[str, Sequence[int]]]:
        """Every active player's legal programs, in seat order, in one call: the one source of
        programming legality (:meth:`programming_refusal` is membership in it). Each maps a
        legal path to its legal centre-wheel numbers (empty if it takes none); see
        :meth:`programs_for`. The mappings are read-only and shared by the players with the
        same options; each also has ``sorted_keys``, its paths sorted, and ``choices``, the
        :class:`Choice` of each of them that takes no number (else None), for a bot."""
        s = self.state
        if s.phase != "programming":
            return {}
        lit = self._lit_cache               # self._lit(), the cache checked here when it can be
        if lit is None or lit.tile is not s.tile or lit.face != s.face or lit.dice is not None:
            lit = self._lit()
        known = lit.options               # they depend only on the face and the player's fuel
        fuel = s.fuel
        try:
            return {p: known[fuel[p]] for p in s.active}               # each fuel seen before
        except KeyError:
            pass
        options = {}
        for p in s.active:                                              # programs_for, once per new fuel
            o = known.get(fuel[p])
            options[p] = o if o is not None else self._programs(lit, fuel[p])
        return options

    def programs_for(self, fuel: int) -> Mapping[str, Sequence[int]]:
        """The legal programs on the current face of a player holding ``fuel`` (R-6, R-7,
        R-14), whatever the phase (bots ask it of model games): each path that is lit and
        affordable at its best with the numbers that keep it so (in range, at most ``fuel``,
        best cost at that number at most ``fuel``); when no lit path is affordable (R-6),
        every lit path with its whole range. Made once per face and fuel (``_Lit.options``)."""
        return self._programs(self._lit(), fuel)

    def _programs(self, lit: "_Lit", fuel: int) -> Mapping[str, Sequence[int]]:
        """:meth:`programs_for` on the face ``lit`` (the current one's :meth:`_lit`)."""
        o = lit.options.get(fuel)
        if o is None and fuel >= lit.most and len(lit.plain) == len(lit.keys):
            # the usual case: every lit path affordable, none takes a number
            o = lit.options[fuel] = _Options(dict.fromkeys(lit.keys, ()))
        elif o is None:
            any_affordable = fuel >= lit.least
            programs: dict[str, tuple[int, ...]] = {}
            for k, t in lit.thresholds.items():
                if any_affordable and t > fuel:
                    continue
                path = lit.paths[k]
                if path.choose is None:
                    programs[k] = ()
                    continue
                lo, hi = path.choose
                if any_affordable:
                    programs[k] = tuple(n for n in range(lo, min(hi, fuel) + 1)
                                        if self.best_cost("", path, n) <= fuel)
                else:
                    programs[k] = tuple(range(lo, hi + 1))
            o = lit.options[fuel] = _Options(programs)
        return o

    def best_cost(self, player: str, path: Path, number: int | None = None) -> int:
        """The path's cost at its best (R-14): a die at its lowest face times its rolls, a
        count at 1 if it counts the player's own path else 0, X at the number chosen (at
        the path's minimum when no number is given)."""
        total = 0
        for e in path.cost:
            a = e.amount
            if a.kind == "fixed":
                total += a.value
            elif a.kind == "die":
                total += min(abs(f) for f in self.state.dice[a.die]) * a.times
            elif a.kind == "count":
                total += 1 if a.path == path.key else 0
            else:
                total += number if number is not None else (path.choose[0] if path.choose else 0)
        return total

    def _affordable(self, player: str, path: Path, number: int | None = None) -> bool:
        fuel = self.state.fuel[player]
        if path.choose is not None and number is None and path.choose[0] > fuel:
            return False
        return self.best_cost(player, path, number) <= fuel

    def _thresholds(self) -> dict[str, int]:
        """For each lit path of the current face, the least fuel that affords it with no
        number set (``_affordable``: its best cost, and the smallest X of a "choose X" path).
        The same for every player; see :meth:`_lit`."""
        return self._lit().thresholds

    def _lit(self) -> "_Lit":
        """The current face's paths and their thresholds. Cached while the tile, the face
        and (if a cost line of the face has a die) the dice stay the same, and kept with the
        tile (``Tile._derived``) for every game played with it."""
        s = self.state
        c = self._lit_cache
        if (c is not None and c.tile is s.tile and c.face == s.face
                and (c.dice is None or c.dice == tuple(s.dice.items()))):
            return c
        tile, face = s.tile, s.face
        if tile is not None:
            derived = tile._derived
            c = derived.get(face)                   # a face whose thresholds ignore the dice
            if c is None:
                try:
                    c = derived.get((face, tuple(s.dice.items())))
                except TypeError:                   # dice faces in lists: not kept
                    pass
            if c is not None:
                self._lit_cache = c
                return c
        t = {}
        dice = None
        paths = self.current_paths
        for k, path in paths.items():
            cost = path.fixed_cost                  # printed numbers only: that is the best cost
            if cost is None:
                cost = self.best_cost("", path)
                if any(not isinstance(a, int) and a.kind == "die" for a in path.cost_plan):
                    dice = tuple(s.dice.items())
            t[k] = cost if path.choose is None else max(cost, path.choose[0])
        c = self._lit_cache = _Lit(tile, face, dice, paths, t)
        if tile is not None:
            try:
                tile._derived[face if dice is None else (face, dice)] = c
            except TypeError:
                pass
        return c

    def _seat_order(self) -> dict[str, int]:
        """Each player's seat index (cached while ``state.players`` is the same tuple)."""
        s = self.state
        c = self._order_cache
        if c is None or c[0] is not s.players:
            c = self._order_cache = (s.players, {p: i for i, p in enumerate(s.players)})
        return c[1]

    def any_path_affordable(self, player: str) -> bool:
        """False when R-6 applies: no lit path is affordable, so any lit path is accepted."""
        return self.state.fuel[player] >= self._lit().least

    def legal_numbers(self, player: str, path_key: str) -> list[int]:
        """The centre-wheel numbers allowed on a "choose X" path (:meth:`programs_for`):
        empty for a path that takes none or that ``player`` may not program."""
        return list(self.programs_for(self.state.fuel[player]).get(path_key, ()))

    def is_legal_program(self, player: str, choice: Choice) -> bool:
        """Whether ``choice`` is one of ``player``'s generated programs (:meth:`programs_for`).
        A number given with a path that takes none is ignored (the centre wheel is always
        somewhere; the engine neither shows nor uses it)."""
        numbers = self.programs_for(self.state.fuel[player]).get(choice.path)
        if numbers is None:
            return False
        return choice.number in numbers if numbers else True

    def programming_refusal(self, player: str, choice: Choice | None) -> str | None:
        """Why ``choice`` is refused for ``player``, or None: None exactly when it is one of
        the generated programs (:meth:`is_legal_program`); otherwise the code says why."""
        s = self.state
        self._known_player(player)
        if player not in s.active:
            return "eliminated"
        if choice is None:
            return "missing_choice"
        path = self.current_paths.get(choice.path)
        if path is None:
            if choice.path not in PATHS:
                raise RulesError(f"unknown path {choice.path!r} (known: {', '.join(PATHS)})")
            return "unlit_path"
        if self.is_legal_program(player, choice):
            return None
        # Not a generated program: say why.
        if path.choose is not None:
            if choice.number is None:
                return "missing_choice"                                  # O-7
            lo, hi = path.choose
            if not lo <= choice.number <= hi:
                return "choose_out_of_range"
            if choice.number > s.fuel[player]:
                return "choose_out_of_range"
        return "unaffordable"

    def legal_paths(self, player: str) -> list[str]:
        """The paths ``player`` may program now (:meth:`program_options`)."""
        s = self.state
        if s.phase != "programming" or player not in s.active:
            return []
        return list(self.programs_for(s.fuel[player]))

    def keep_options(self, player: str) -> list[str]:
        """The tokens ``player`` may keep now: their two drawn tokens when it is their draw."""
        s = self.state
        if s.phase != "draw" or not s.draw_queue or s.draw_queue[0] != player:
            return []
        return list(s.drawn)

    # ------------------------------------------------------------------ views
    def public_view(self) -> dict[str, Any]:
        """What the whole table may see: no held token type, no pile order, no drawn token,
        no random state, no forced roll. Paths appear only once revealed. The ``tile`` is
        the tile's shared data (:meth:`Tile.view_data`): read it, never change it."""
        s = self.state
        return {
            "turn": s.turn,
            "phase": s.phase,
            "tile": s.tile.view_data() if s.tile else None,
            "face": s.face,
            "next_face": s.next_face,
            "tiles_left": len(s.stack),
            "players": [
                {"player": p, "active": p in s.active, "zone": s.zone.get(p) if p in s.active else None,
                 "fuel": s.fuel[p], "tokens": len(s.held[p])}
                for p in s.players
            ],
            "eliminated": [list(e) for e in s.eliminated],
            "track": {"rear": s.rear, "boards": s.boards},
            "force_fields": sorted(s.markers),
            "markers_left": s.marker_total - len(s.markers),
            "pile_size": len(s.pile),
            "discards": len(s.discards),   # O-1 puts eliminated players' unseen tokens there
            "revealed": {p: list(v) for p, v in s.revealed.items()},
            "drawing": s.draw_queue[0] if s.phase == "draw" else None,
            "finished": s.finished,
            "winners": list(s.winners),
        }

    def private_view(self, player: str) -> dict[str, Any]:
        """The public view plus what ``player`` alone knows: their tokens and their draw."""
        return self.add_private(self.public_view(), player)

    def add_private(self, view: dict[str, Any], player: str) -> dict[str, Any]:
        """``view`` (a copy of the public view) with what ``player`` alone knows added."""
        s = self.state
        view["me"] = player
        view["held"] = sorted(s.held[player])
        view["drawn"] = list(s.drawn) if s.phase == "draw" and s.draw_queue[:1] == [player] else []
        return view

    # ------------------------------------------------------------------ bonus phase
    def play_bonus(self, plays: Mapping[str, str | None]) -> list[Event]:
        """Reveal and apply every bonus token played this turn (docs/rules.md phase 1)."""
        s = self.state
        if s.phase != "bonus":
            self._require("bonus")                                      # raises
        if s.tile is None:
            raise RulesError("no tile left to play")
        zone, players = s.zone, s.players
        any_played = False
        for p, t in plays.items():
            if p not in zone and p not in players:
                self._known_player(p)                                   # raises
            if t is not None:
                any_played = True
        if any_played:
            codes = {}
            for p, t in plays.items():
                if t is not None:
                    code = self.bonus_refusal(p, t)
                    if code is not None:
                        codes[p] = code
            if codes:
                raise Refused(codes, "bonus")

        e = _new_event(Event)                           # _event(_E_TURN, ...), inlined: every turn
        e._shape = _E_TURN
        e._values = (s.turn, s.tile._label, s.face)
        events: list[Event] = [e]
        if not any_played:                                              # the usual turn
            e = _new_event(Event)                       # _event(_E_BONUS_NONE, ()), inlined
            e._shape = _E_BONUS_NONE
            e._values = ()
            events.append(e)
            s.phase = "programming"
            return events
        played: dict[str, str] = {}                                     # in seat order
        by_zone: dict[int, list[str]] = {}                              # the groups (O-9)
        for p in s.players:
            t = plays.get(p)
            if t is not None:
                played[p] = t
                held = s.held[p]
                held.remove(t if t in held else UNKNOWN)
                events.append(_event(_E_BONUS_PLAYED, (p, t, len(held))))
                group = by_zone.get(zone[p])
                if group is None:
                    by_zone[zone[p]] = [p]
                else:
                    group.append(p)
        if not played:
            events.append(_event(_E_BONUS_NONE, ()))

        if played:
            laid_before = s.boards
            for z in sorted(by_zone, reverse=True):                     # front to back
                if s.finished:
                    break
                active = s.active
                self._apply_group([p for p in by_zone[z] if p in active], played, events)
            s.discards.extend(played.values())
            with_public(events[-1], (), (), _P_DISCARDS, (len(s.discards),))

            if not s.finished and s.boards > laid_before:                  # R-9, O-3
                self._remove_rear_board(events)
        if not s.finished:
            s.phase = "programming"
        return events

    def _apply_group(self, group: list[str], played: Mapping[str, str], events: list[Event]) -> None:
        """One zone's tokens, simultaneously and cumulatively (R-2): targets from the
        positions at the start of the group, then every change together."""
        s = self.state
        zone = s.zone
        pos: dict[str, int] = {}                    # positions at the start, made for the first attack
        occupied: list[int] = []
        move: dict[str, int] = {}                   # (plain dicts read with .get: a Counter's
        fuel_loss: dict[str, int] = {}              # missing key costs a Python call)
        fuel_gain: dict[str, int] = {}
        new_markers: list[tuple[str, int]] = []
        for p in group:
            token, mine = played[p], zone[p]
            if token == "nitro":
                move[p] = move.get(p, 0) + 1
            elif token == "fuel_tank":
                fuel_gain[p] = fuel_gain.get(p, 0) + 2
            elif token == "force_field":
                new_markers.append((p, mine))
            elif token in ("flamethrower", "electromagnet", "ion_cannon"):
                if not pos:
                    pos = {q: zone[q] for q in s.active}
                    occupied = sorted(set(pos.values()))
                ahead = [z for z in occupied if z > mine]
                if not ahead:
                    events.append(_event(_E_NOTHING_AHEAD, (p, token)))
                elif token == "flamethrower":
                    for q in s.active:
                        if pos[q] == ahead[0]:
                            move[q] = move.get(q, 0) - 2
                elif token == "electromagnet":
                    front = ahead[-1]
                    for q in s.active:
                        if pos[q] == front:
                            move[q] = move.get(q, 0) - 3
                        elif mine < pos[q] < front:
                            move[q] = move.get(q, 0) - 2
                else:                                                   # ion cannon
                    for q in s.active:
                        if pos[q] > mine:
                            fuel_loss[q] = fuel_loss.get(q, 0) + 2

        if fuel_gain:
            for p in s.players:
                gain = fuel_gain.get(p)
                if gain:
                    s.fuel[p] += gain
                    events.append(_event(_E_FUEL,
                                         (p, gain, "fuel tank", s.fuel[p])))
        out: list[tuple[str, str]] = []
        if fuel_loss:
            for p in s.players:
                loss = fuel_loss.get(p)
                if loss and p in s.active:
                    lost = min(loss, s.fuel[p])
                    s.fuel[p] -= lost
                    events.append(_event(_E_FUEL,
                                         (p, -lost, "ion cannon", s.fuel[p])))
                    if s.fuel[p] == 0:
                        out.append((p, "fuel"))
        if move:
            markers = set(s.markers)    # this group's own markers do not act on its moves
            fuel_out = {q for q, _ in out} if out else ()   # O-11: emptied ships do not move
            for p in s.players:
                m = move.get(p)
                if m and p in s.active and p not in fuel_out:
                    if self._move(p, m, markers, events, "bonus") is None:
                        out.append((p, "pushed"))
        for p, at in new_markers:                                       # O-6
            if len(s.markers) < s.marker_total:
                s.markers.append(at)
                events.append(_event(_E_MARKER_PLACED,
                                     (p, at, sorted(s.markers), s.marker_total - len(s.markers))))
            else:
                events.append(_event(_E_NO_MARKER_LEFT, (p,)))
        if out:
            self._eliminate(out, events)

    # ------------------------------------------------------------------ movement
    def _move(self, p: str, delta: int, markers: set[int] | tuple[()], events: list[Event], why: str) -> int | None:
        """Move ``p`` by ``delta`` zones; force fields stop it, the third board is laid
        ahead when needed (never past the front of three boards, R-10), and moving back past
        the rearmost zone returns None (the caller eliminates). The ship leaves its start
        zone freely."""
        s = self.state
        start = s.zone[p]
        target = start + delta
        stopped = False
        if delta > 0:
            limit = s.rear + BOARD * MAX_BOARDS - 1
            if target > limit:
                target = limit
            if markers:
                for z in range(start + 1, target + 1):
                    if z in markers:
                        target, stopped = z, True
                        break
            if target > s.rear + BOARD * s.boards - 1:                    # past s.front
                s.boards = MAX_BOARDS
                events.append(_event(_E_BOARD_LAID, (s.front, s.boards)))
        else:
            if markers:
                for z in range(start - 1, target - 1, -1):
                    if z in markers:
                        target, stopped = z, True
                        break
            if target < s.rear:
                events.append(_event(_E_MOVED, (p, start, target, why)))
                return None
        if target == start:
            return target                                               # held at the front
        s.entered.add(target)                                           # O-4
        s.zone[p] = target
        e = _new_event(Event)                           # _event(_E_MOVED_2, ...), inlined
        e._shape = _E_MOVED_2
        e._values = (p, start, target, stopped, why)
        events.append(e)
        return target

    def _remove_rear_board(self, events: list[Event]) -> None:
        s = self.state
        first, last = s.rear, s.rear + BOARD - 1
        s.rear += BOARD
        s.boards -= 1
        s.markers = [z for z in s.markers if z >= s.rear]               # O-2
        events.append(_event(_E_BOARD_REMOVED, (first, last, s.rear, s.boards, sorted(s.markers),
                                               s.marker_total - len(s.markers))))
        self._eliminate([(p, "board") for p in s.active if s.zone[p] < s.rear], events)

    def _eliminate(self, out: list[tuple[str, str]], events: list[Event]) -> None:
        s = self.state
        if not out:
            return
        for p, cause in out:
            if p not in s.active:
                continue
            s.active.remove(p)
            s.eliminated.append([p, cause, s.turn])
            s.fuel[p] = 0
            s.discards.extend(s.held[p])                                # O-1
            s.held[p] = []
            del s.zone[p]
            events.append(_event(_E_ELIMINATED, (p, cause, False, None, 0, 0, len(s.discards),
                                                 [list(e) for e in s.eliminated])))
        if len(s.players) >= 5 and len(s.active) <= 4 and s.next_face != "3-4":
            s.next_face = "3-4"
            events.append(_event(_E_FLIP, (len(s.active), s.next_face)))
        if len(s.active) <= 1:
            self._finish(list(s.active), events, "last ship" if s.active else "")

    def _finish(self, winners: list[str], events: list[Event], why: str = "") -> None:
        s = self.state
        s.finished = True
        s.phase = "finished"
        s.winners = winners
        s.draw_queue.clear()
        s.drawn.clear()
        events.append(_event(_E_GAME_OVER, (winners, why)))

    # ------------------------------------------------------------------ programming and resolution
    def program(self, choices: Mapping[str, Choice | str | tuple]) -> list[Event]:
        """Reveal every active player's choice and resolve the tile (docs/rules.md phases 2-3)."""
        s = self.state
        if s.phase != "programming":
            self._require("programming")                                # raises
        active, fuel = s.active, s.fuel
        # The usual case, quickly: every active player, and only they, with a Choice of a lit
        # path without X that they can afford. Anything else is checked player by player.
        # The same pass reveals the paths (see _resolve); nothing is changed before it ends.
        lit = None
        if len(choices) == len(active) and s.tile is not None:
            lit = self._lit_cache           # self._lit(), the cache checked here when it can be
            if lit is None or lit.tile is not s.tile or lit.face != s.face or lit.dice is not None:
                try:
                    lit = self._lit()
                except Exception:               # a face it cannot read: the checks below raise,
                    lit = None                  # in their order
        if lit is not None:
            plain = lit.plain
            ordered: dict[str, Choice] = {}
            events: list[Event] = []
            append = events.append
            revealed: dict[str, list[Any]] = {}
            groups: dict[str, list[str]] = {}
            usual = False
            try:
                for p in active:
                    c = choices[p]
                    if c.__class__ is not Choice or c.number is not None:
                        break
                    key = c.path
                    if plain[key] > fuel[p]:                            # unaffordable
                        break
                    ordered[p] = c
                    revealed[p] = [key, None]
                    e = _new_event(Event)                       # _event(_E_PROGRAMMED, ...), inlined
                    e._shape = _E_PROGRAMMED
                    e._values = (p, key, None)
                    append(e)
                    on = groups.get(key)
                    if on is None:
                        groups[key] = [p]
                    else:
                        on.append(p)
                else:
                    usual = True
            except (KeyError, TypeError):       # no choice, a path unlit or with X, unhashable...:
                pass                            # the checks below tell
            if usual:
                return self._resolve(ordered, events, revealed, groups, lit)
        norm: dict[str, Choice] = {}
        zone, players = s.zone, s.players
        for p, c in choices.items():
            if p not in zone and p not in players:
                self._known_player(p)                                   # raises
            norm[p] = c if type(c) is Choice else _as_choice(c)
        codes = {}
        for p in s.players:
            if p in norm or p in active:
                code = self.programming_refusal(p, norm.get(p))
                if code is not None:
                    codes[p] = code
        if codes:
            raise Refused(codes, "programming")
        return self._resolve({p: norm[p] for p in active})

    def _roll(self, p: str, die: str, events: list[Event]) -> int:
        s = self.state
        forced = s.forced_dice.get(p)
        value = forced.pop(0) if forced else _choice(s.rng, s.dice[die])
        e = _new_event(Event)                           # _event(_E_ROLL, ...), inlined
        e._shape = _E_ROLL
        e._values = (p, die, value)
        events.append(e)
        return value

    def _bill(self, p: str, path: Path, number: int | None, groups: Mapping[str, list[str]],
              events: list[Event]) -> tuple[int, list[Any]]:
        """The cost of ``path`` to ``p`` and its parts, for the payment event (a cost line
        with more than printed numbers: it may roll dice)."""
        total, parts = 0, []
        for a in path.cost_plan:
            if isinstance(a, int):
                total += a
                parts.append(["", a])
            elif a.kind == "die":
                label = f"{a.die} die"
                for _ in range(a.times):
                    r = self._roll(p, a.die, events)
                    total += abs(r)
                    parts.append([label, r])
            elif a.kind == "count":
                n = len(groups.get(a.path, ()))
                total += n
                parts.append([f"players on {a.path}", n])
            elif a.kind == "fixed":
                total += a.value
                parts.append(["", a.value])
            else:
                total += number or 0
                parts.append(["X", number or 0])
        return total, parts

    def _amount(self, p: str, a: Amount, number: int | None, groups: Mapping[str, list[str]],
                events: list[Event]) -> int:
        """An amount of a gain line that is not a printed number (those are plain ints in
        the path's plans)."""
        kind = a.kind
        if kind == "die":
            total = 0
            for _ in range(a.times):
                total += abs(self._roll(p, a.die, events))
            return total
        if kind == "count":
            return len(groups.get(a.path, ()))
        if kind == "fixed":
            return a.value
        return number or 0

    def _resolve(self, choices: dict[str, Choice], events: list[Event] | None = None,
                 revealed: dict[str, list[Any]] | None = None,
                 groups: dict[str, list[str]] | None = None, lit: _Lit | None = None) -> list[Event]:
        """Resolve the revealed ``choices``, given in seat order (``state.active``'s).
        ``program`` may have revealed them already: the "programmed" events, the paths and
        numbers for ``state.revealed``, and the players on each path."""
        s = self.state
        if lit is None:
            lit = self._lit()
        paths = lit.paths
        assert s.tile is not None                   # a tile is in play while players move
        finish = s.tile.finish
        if events is None or revealed is None or groups is None:
            events, revealed, groups = [], {}, {}                       # groups: path -> players
            for p, c in choices.items():
                key, number = c.path, c.number
                revealed[p] = [key, number]
                if number is not None and not paths[key].choose:
                    number = None                                       # shown only on an X path
                events.append(_event(_E_PROGRAMMED, (p, key, number)))
                on = groups.get(key)
                if on is None:
                    groups[key] = [p]
                else:
                    on.append(p)
        s.revealed = revealed
        append = events.append

        # Who pays and who gains, as (player, choice) in seat order. Usually everybody both.
        no_pay: list[str] = []                                          # path keys
        no_gain: list[str] = []
        for key, path in lit.limited:                                   # paths with a condition
            on = groups.get(key)
            if not on:
                continue
            if path.capacity is not None and len(on) > path.capacity:     # capacity, O-5
                append(_event(_E_LOSE_TURN,
                              (key, len(on), path.capacity, on)))
                no_pay.append(key)
                no_gain.append(key)
            elif path.solo:                                             # tile 11
                if len(on) == 1:
                    append(_event(_E_SOLO_ALONE, (on[0], key)))
                    no_pay.append(key)
                else:
                    append(_event(_E_SOLO_CROWD, (key, len(on))))
                    no_gain.append(key)
        paying: Iterable[tuple[str, Choice]] = choices.items()
        gaining: Iterable[tuple[str, Choice]] = paying
        if no_pay:
            paying = [(p, c) for p, c in choices.items() if c.path not in no_pay]
        if no_gain:
            gaining = paying if no_gain == no_pay else [(p, c) for p, c in choices.items() if c.path not in no_gain]

        # Costs, all at once: every roll first (in seat order), then every payment; then fuel
        # 0 eliminates (except at exactly 0 on the finish tile). The usual cost is printed
        # numbers, billed as it is paid; the others are billed beforehand.
        billed: dict[str, tuple[int, list[Any]]] = {}
        if lit.dynamic_cost:
            for p, c in paying:
                path = paths[c.path]
                if path.fixed_cost is None:
                    billed[p] = self._bill(p, path, c.number, groups, events)
        out = []
        fuel = s.fuel
        for p, c in paying:
            path = paths[c.path]
            total = path.fixed_cost
            if total is None:
                total, parts = billed[p]
            elif path.one_cost:
                parts = [["", total]]
            elif path.cost_plan:
                parts = [["", v] for v in path.cost_plan]
            else:
                continue                                                # no cost line: no payment
            have = fuel[p]
            paid = total if total < have else have                      # min(total, have)
            fuel[p] = left = have - paid
            e = _new_event(Event)                                       # _event(_E_PAY, ...), inlined
            e._shape = _E_PAY
            e._values = (p, total, paid, parts, left)
            append(e)
            if total > paid:
                out.append((p, "overpaid"))
            elif left == 0 and not finish:
                out.append((p, "fuel"))
        active = s.active
        if out:
            self._eliminate(out, events)
            if s.finished:
                return events
            gaining = [(p, c) for p, c in gaining if p in active]

        # Gains, all at once: every gain's events (fuel, rolls) come before the first move's,
        # so the moves' events are gathered apart and joined after them. Each ship moves as
        # soon as its gain is known, which is the same: no gain depends on where ships are.
        moved: list[Event] = []
        out = []
        draws: dict[str, int] = {}
        before: dict[str, int] = {}                                     # zones before moving
        markers = set(s.markers) if s.markers else ()
        zone = s.zone
        entered = s.entered.add
        front = s.rear + BOARD * s.boards - 1
        for p, c in gaining:
            path = paths[c.path]
            fixed = path.fixed_gain
            if fixed is not None:                                       # printed numbers only
                move, fuel_gains, bonus = fixed
                for v in fuel_gains:
                    fuel[p] += v
                    e = _new_event(Event)                               # _event(_E_FUEL_2, ...), inlined
                    e._shape = _E_FUEL_2
                    e._values = (p, v, fuel[p])
                    append(e)
                if bonus:
                    draws[p] = bonus
                    before[p] = zone[p]
            else:
                move = 0
                for kind, a in path.gain_plan:
                    v = a if isinstance(a, int) else self._amount(p, a, c.number, groups, events)
                    if kind == "move":
                        move += v
                    elif kind == "fuel":
                        if v:
                            fuel[p] += v
                            append(_event(_E_FUEL_2, (p, v, fuel[p])))
                    else:
                        draws[p] = draws.get(p, 0) + v
                        before[p] = zone[p]
            if move:
                start = zone[p]
                target = start + move
                if (move > 0 and target <= front                      # _move, when no board is laid
                        and (not markers or markers.isdisjoint(range(start + 1, target + 1)))):  # nor stops it
                    entered(target)                                     # O-4
                    zone[p] = target
                    e = _new_event(Event)                               # _event(_E_MOVED_2, ...), inlined
                    e._shape = _E_MOVED_2
                    e._values = (p, start, target, False, "")
                    moved.append(e)
                else:
                    if self._move(p, move, markers, moved, "") is None:    # never backwards here
                        out.append((p, "pushed"))
                    front = s.rear + BOARD * s.boards - 1               # a board may have been laid
        events += moved
        if out:
            self._eliminate(out, events)
            if s.finished:
                return events
        if not draws:
            drawers: list[str] = []
        else:
            order = self._seat_order()
            drawers = sorted((p for p in draws if draws[p] and p in active),
                             key=lambda p: (-before[p], order[p]))
        if s.token_mode == "physical":
            for p in drawers:
                s.held[p].extend([UNKNOWN] * draws[p])
                append(_event(_E_DRAW_PHYSICAL, (p, draws[p], len(s.held[p]))))
            return self._end_resolution(events)
        if not drawers and not s.draw_queue:
            return self._end_resolution(events)                         # _next_draw, nothing to draw
        s.draw_queue = [p for p in drawers for _ in range(draws[p])]
        return self._next_draw(events)

    # ------------------------------------------------------------------ bonus draws
    def _take(self, events: list[Event]) -> str | None:
        s = self.state
        if not s.pile and s.discards:
            s.pile = s.discards
            s.discards = []
            _shuffle(s.rng, s.pile)
            events.append(_event(_E_RESHUFFLE, (len(s.pile), len(s.pile), 0)))
        return s.pile.pop(0) if s.pile else None

    def _next_draw(self, events: list[Event]) -> list[Event]:
        """Draw two for the next player in the queue and wait for :meth:`keep`; a draw
        with a single token left keeps it at once, with none gives nothing (R-8)."""
        s = self.state
        while s.draw_queue:
            p = s.draw_queue[0]
            pile = s.pile
            if len(pile) >= 2:                                          # _take twice, the usual case
                drawn = [pile.pop(0), pile.pop(0)]
            else:
                drawn = [t for t in (self._take(events), self._take(events)) if t is not None]
            if len(drawn) == 2:
                s.drawn = drawn
                s.phase = "draw"
                e = _new_event(Event)                   # _event(_E_DRAW_TWO, ...), inlined
                e._shape = _E_DRAW_TWO
                e._values = (p, 2, len(s.pile))
                events.append(e)
                return events
            s.draw_queue.pop(0)
            if drawn:
                s.held[p].append(drawn[0])
                events.append(_event(_E_DRAW_ONE, (p, 1, len(s.held[p]), len(s.pile))))
            else:
                events.append(_event(_E_DRAW_EMPTY, (p,)))
        return self._end_resolution(events)

    def keep(self, player: str, token: str | None = None) -> list[Event]:
        """``player`` keeps one of their two drawn tokens (default: the first drawn); the
        other goes under the pile."""
        s = self.state
        if s.phase != "draw":
            self._require("draw")                                       # raises
        if s.draw_queue[0] != player:
            raise RulesError(f"it is {s.draw_queue[0]}'s draw, not {player}'s")
        if token is None:
            token = s.drawn[0]
        other = self.keep_options(player)                               # a new list
        if token not in other:
            raise RulesError(f"{player} drew {' and '.join(s.drawn)}, not {token}")
        other.remove(token)
        s.held[player].append(token)
        s.pile.extend(other)
        s.drawn = []
        s.draw_queue.pop(0)
        s.phase = "resolution"
        kept = (len(s.held[player]), len(s.pile))
        events = self._next_draw([])
        if events:          # the keep itself is no event: its public values go first with the next one
            with_public(events[0], (("players", player, "tokens"), _P_PILE_SIZE), kept)
        return events

    def _end_resolution(self, events: list[Event]) -> list[Event]:
        s = self.state
        s.phase = "resolution"
        if s.boards == MAX_BOARDS:                                      # O-3
            self._remove_rear_board(events)
            if s.finished:
                return events
        return self._reveal(events)

    # ------------------------------------------------------------------ reveal phase
    def _reveal(self, events: list[Event]) -> list[Event]:
        s = self.state
        for zone in sorted(s.entered) if s.markers else ():
            n = s.markers.count(zone)
            if n:
                s.markers = [z for z in s.markers if z != zone]
                events.append(_event(_E_MARKERS_REMOVED,
                                     (zone, n, sorted(s.markers), s.marker_total - len(s.markers))))
        s.entered = set()
        if s.tile is not None and s.tile.finish:
            best = max(_rank_key(s, p) for p in s.active)
            self._finish([p for p in s.active if _rank_key(s, p) == best], events)
            return events
        s.revealed = {}
        s.turn += 1
        if s.stack:
            s.tile = s.stack.pop(0)
            s.face = s.next_face
            e = _new_event(Event)                       # _event(_E_TILE_REVEALED, ...), inlined
            e._shape = _E_TILE_REVEALED
            e._values = (s.tile._label,                 # label(); then the public values
                         s.turn, s.tile, s.face, s.next_face, len(s.stack), {})
            events.append(e)
        else:
            s.tile = None               # only in scenarios: the stack ran out before a finish tile
        s.phase = "bonus"
        return events

    # ------------------------------------------------------------------ helpers
    def _require(self, phase: str) -> None:
        if self.state.phase != phase:
            raise RulesError(f"the game is in the {self.state.phase} phase, not {phase}")

    def _known_player(self, p: str) -> None:
        if p not in self.state.zone and p not in self.state.players:
            raise RulesError(f"unknown player {p!r} (players: {', '.join(self.state.players)})")

    # ------------------------------------------------------------------ serialisation
    def to_data(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (for the journal). Deterministic."""
        s = self.state
        version, internal, gauss = s.rng.getstate()
        return {
            "format": 1,
            "players": list(s.players), "zone": dict(s.zone), "fuel": dict(s.fuel),
            "held": {p: list(h) for p, h in s.held.items()}, "active": list(s.active),
            "eliminated": [list(e) for e in s.eliminated], "rear": s.rear, "boards": s.boards,
            "markers": list(s.markers), "marker_total": s.marker_total,
            "pile": list(s.pile), "discards": list(s.discards),
            "tile": s.tile.to_data() if s.tile else None,
            "stack": [t.to_data() for t in s.stack], "face": s.face, "next_face": s.next_face,
            "dice": {k: list(v) for k, v in s.dice.items()},
            "rng": [version, list(internal), gauss],
            "token_mode": s.token_mode, "seed": s.seed, "turn": s.turn, "phase": s.phase,
            "finished": s.finished, "winners": list(s.winners),
            "forced_dice": {p: list(v) for p, v in s.forced_dice.items()},
            "entered": sorted(s.entered),
            "revealed": {p: list(v) for p, v in s.revealed.items()},
            "draw_queue": list(s.draw_queue), "drawn": list(s.drawn),
        }

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> "Game":
        if d.get("format") != 1:
            raise RulesError(f"unknown game state format {d.get('format')!r}")
        rng = random.Random()
        version, internal, gauss = d["rng"]
        rng.setstate((version, tuple(internal), gauss))

        def tile(t: Any) -> Tile:
            return parse_tile(t, "saved game", dice=tuple(d["dice"]), require_faces=(), max_number=None)

        return cls(GameState(
            players=tuple(d["players"]), zone=dict(d["zone"]), fuel=dict(d["fuel"]),
            held={p: list(h) for p, h in d["held"].items()}, active=list(d["active"]),
            eliminated=[list(e) for e in d["eliminated"]], rear=d["rear"], boards=d["boards"],
            markers=list(d["markers"]), marker_total=d["marker_total"], pile=list(d["pile"]),
            discards=list(d["discards"]), tile=tile(d["tile"]) if d["tile"] else None,
            stack=[tile(t) for t in d["stack"]], face=d["face"], next_face=d["next_face"],
            dice={k: tuple(v) for k, v in d["dice"].items()}, rng=rng,
            token_mode=d["token_mode"], seed=d["seed"], turn=d["turn"], phase=d["phase"],
            finished=d["finished"], winners=list(d["winners"]),
            forced_dice={p: list(v) for p, v in d["forced_dice"].items()},
            entered=set(d["entered"]),
            revealed={p: list(v) for p, v in d["revealed"].items()},
            draw_queue=list(d["draw_queue"]), drawn=list(d["drawn"])))


_number = attrgetter("number")


def _as_choice(c: Choice | str | tuple | list) -> Choice:
    if isinstance(c, Choice):
        return c
    if isinstance(c, str):
        return Choice(c)
    if isinstance(c, (tuple, list)) and len(c) == 2:
        return Choice(c[0], c[1])
    raise RulesError(f"a choice is a path name or (path, number), not {c!r}")
