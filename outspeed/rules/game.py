"""The Outspeed rules engine: a game state, what each player may do now, and ``apply``.

Pure and deterministic: no I/O, no global state. All chance (tile order, dice, the bonus
pile) comes from one seeded :class:`random.Random` held in the state, so a game is fully
reproducible from its seed and its inputs, and a test can force any roll
(:attr:`GameState.forced_dice`). Rulings of shared/RULES.md are cited as R-n.

A turn runs four phases (RULES.md "A turn"):

* ``bonus``: :meth:`Game.play_bonus` takes every player's token play (or none) at once and
  applies them zone by zone, front to back (R-2, R-3);
* ``programming``: :meth:`Game.program` takes every active player's path (and centre-wheel
  number) at once, checks them (R-7, R-14, R-6) and runs the resolution;
* ``draw``: when a resolution gives bonus tokens and the bridge holds the pile (virtual
  tokens), each draw waits for :meth:`Game.keep` (R-12 order);
* the reveal phase needs no input and runs at the end of the resolution.

Illegal inputs raise :class:`Refused` with a code per player and change nothing.

Choices for cases RULES.md leaves open (each is also written where it is applied):

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
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from .events import Event
from .tiles import PATHS, Path, Tile, parse_tile

TOKENS: tuple[str, ...] = ("electromagnet", "ion_cannon", "flamethrower", "force_field", "nitro", "fuel_tank")
UNKNOWN = "unknown"  # a physical token whose type only its holder knows
DEFAULT_TOKEN_COUNTS = {"electromagnet": 2, "ion_cannon": 2, "flamethrower": 7,
                        "force_field": 7, "nitro": 7, "fuel_tank": 7}
DEFAULT_DICE = {"yellow": (-1, -1, -2, -2, -3, -3), "blue": (1, 1, 2, 2, 3, 3)}
BOARD = 7
START_ZONE = 3
START_FUEL = 12
MAX_BOARDS = 3

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


_set_choice_path = Choice.path.__set__            # type: ignore[attr-defined]  (slot descriptors)
_set_choice_number = Choice.number.__set__        # type: ignore[attr-defined]


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


def _rank_key(state: GameState, p: str) -> tuple[int, int, int]:
    return (state.zone[p], state.fuel[p], len(state.held[p]))


class Game:
    """A game of Outspeed. Methods mutate :attr:`state` and return the events that say
    what happened; :meth:`copy` gives an independent game (for bots' lookahead)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._thresholds_cache: tuple | None = None   # see _thresholds
        self._order_cache: tuple | None = None        # see _seat_order

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, players: Sequence[str], tiles: Iterable[Tile], *, seed: int = 0,
            first_game: bool = False, dice: Mapping[str, Sequence[int]] | None = None,
            token_counts: Mapping[str, int] | None = None, markers: int = 7,
            token_mode: str = "virtual") -> "Game":
        """Set up a game (RULES.md "Setup"): tiles shuffled on the face for the player
        count with one finish tile at random, unseen, at the bottom; or tiles 1–13 in order
        for a first game; ships on zone 3, 12 fuel each, the bonus tokens shuffled."""
        players = tuple(players)
        if not 3 <= len(players) <= 6:
            raise RulesError(f"Outspeed is for 3 to 6 players, not {len(players)}")
        if len(set(players)) != len(players):
            raise RulesError(f"players must be distinct: {players}")
        if token_mode not in ("virtual", "physical"):
            raise RulesError(f"token_mode must be virtual or physical, not {token_mode!r}")
        rng = random.Random(seed)
        tiles = list(tiles)
        races = sorted((t for t in tiles if not t.finish), key=lambda t: t.number)
        finishes = sorted((t for t in tiles if t.finish), key=lambda t: t.number)
        if first_game:
            order = sorted((t for t in tiles if t.number <= 13), key=lambda t: t.number)
            if [t.number for t in order] != list(range(1, 14)):
                raise RulesError("a first game needs tiles 1 to 13")
        else:
            if len(races) < 1 or not finishes:
                raise RulesError("a game needs race tiles and at least one finish tile")
            rng.shuffle(races)
            order = races + [rng.choice(finishes)]
        counts = dict(DEFAULT_TOKEN_COUNTS if token_counts is None else token_counts)
        pile = [t for t in TOKENS for _ in range(counts.get(t, 0))]
        rng.shuffle(pile)
        face = "3-4" if len(players) <= 4 else "5-6"
        state = GameState(
            players=players,
            zone={p: START_ZONE for p in players},
            fuel={p: START_FUEL for p in players},
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
    def phase(self) -> str:
        return self.state.phase

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def current_paths(self) -> Mapping[str, Path]:
        s = self.state
        if s.tile is None:
            raise RulesError("no tile left to play")
        return s.tile.face(s.face)

    def rearmost_zone(self) -> int | None:
        s = self.state
        return min((s.zone[p] for p in s.active), default=None)

    def bonus_refusal(self, player: str, token: str | None) -> str | None:
        """Why ``player`` may not play ``token`` now (a refusal code), or None if they may.
        Checked against the state at the start of the bonus phase (R-3)."""
        s = self.state
        self._known_player(player)
        if player not in s.active:
            return "eliminated"
        if token is None:
            return None
        if token not in TOKENS:
            raise RulesError(f"unknown bonus token {token!r} (known: {', '.join(TOKENS)})")
        held = s.held[player]
        if token not in held and UNKNOWN not in held:
            return "not_held"
        if token in ("electromagnet", "ion_cannon") and s.zone[player] != self.rearmost_zone():
            return "not_rearmost"
        if token == "force_field":
            if s.tile is not None and s.tile.finish:
                return "finish_tile"          # the French and Spanish text
            if len(s.markers) >= s.marker_total:
                return "no_marker"
        return None

    def legal_bonus_plays(self, player: str) -> list[str | None]:
        """The tokens ``player`` may play now, ``None`` (play nothing) first."""
        s = self.state
        if s.phase != "bonus" or player not in s.active:
            return []
        held = s.held[player]
        if not held:
            return [None]                     # the usual case, and the cheapest
        kinds = TOKENS if UNKNOWN in held else tuple(t for t in TOKENS if t in held)
        return [None] + [t for t in kinds if self.bonus_refusal(player, t) is None]

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
        The same for every player; cached while the tile, face and dice stay the same."""
        s = self.state
        dice = tuple(s.dice.values())
        c = self._thresholds_cache
        if c is not None and c[0] is s.tile and c[1] == s.face and c[2] == dice:
            return c[3]
        t = {}
        for k, path in self.current_paths.items():
            cost = self.best_cost("", path)
            t[k] = cost if path.choose is None else max(cost, path.choose[0])
        self._thresholds_cache = (s.tile, s.face, dice, t)
        return t

    def _seat_order(self) -> dict[str, int]:
        """Each player's seat index (cached while ``state.players`` is the same tuple)."""
        s = self.state
        c = self._order_cache
        if c is None or c[0] is not s.players:
            c = self._order_cache = (s.players, {p: i for i, p in enumerate(s.players)})
        return c[1]

    def any_path_affordable(self, player: str) -> bool:
        """False when R-6 applies: no lit path is affordable, so any lit path is accepted."""
        fuel = self.state.fuel[player]
        return any(t <= fuel for t in self._thresholds().values())

    def legal_numbers(self, player: str, path_key: str) -> list[int]:
        """The centre-wheel numbers allowed on a "choose X" path: in range and ≤ fuel
        (under R-6 the whole range: the player pays all they hold and is eliminated)."""
        path = self.current_paths.get(path_key)
        if path is None or path.choose is None:
            return []
        lo, hi = path.choose
        top = min(hi, self.state.fuel[player]) if self.any_path_affordable(player) else hi
        return list(range(lo, top + 1))

    def programming_refusal(self, player: str, choice: Choice | None) -> str | None:
        """Why ``choice`` is refused for ``player`` (R-7), or None. Checked after the bonus phase."""
        s = self.state
        self._known_player(player)
        if player not in s.active:
            return "eliminated"
        if choice is None:
            return "missing_choice"
        paths = self.current_paths
        path = paths.get(choice.path)
        if path is None:
            if choice.path not in PATHS:
                raise RulesError(f"unknown path {choice.path!r} (known: {', '.join(PATHS)})")
            return "unlit_path"
        if path.choose is not None:
            if choice.number is None:
                return "missing_choice"                                  # O-7
            lo, hi = path.choose
            if not lo <= choice.number <= hi:
                return "choose_out_of_range"
            if choice.number > s.fuel[player] and self.any_path_affordable(player):
                return "choose_out_of_range"                            # R-7 (R-6 aside)
        affordable = (self._thresholds()[choice.path] <= s.fuel[player]
                      if path.choose is None and choice.number is None
                      else self._affordable(player, path, choice.number))
        if not affordable and self.any_path_affordable(player):
            return "unaffordable"                                       # R-14; R-6 aside
        return None

    def legal_paths(self, player: str) -> list[str]:
        """The paths ``player`` may program now (R-6, R-14)."""
        s = self.state
        if s.phase != "programming" or player not in s.active:
            return []
        fuel = s.fuel[player]
        thresholds = self._thresholds()
        ok = [k for k, t in thresholds.items() if t <= fuel]
        return ok or list(thresholds)

    # ------------------------------------------------------------------ views
    def public_view(self) -> dict[str, Any]:
        """What the whole table may see: no held token type, no pile order, no drawn token,
        no random state, no forced roll. Paths appear only once revealed."""
        s = self.state
        return {
            "turn": s.turn,
            "phase": s.phase,
            "tile": s.tile.to_data() if s.tile else None,
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
        s = self.state
        view = self.public_view()
        view["me"] = player
        view["held"] = sorted(s.held[player])
        view["drawn"] = list(s.drawn) if s.phase == "draw" and s.draw_queue[:1] == [player] else []
        return view

    # ------------------------------------------------------------------ bonus phase
    def play_bonus(self, plays: Mapping[str, str | None]) -> list[Event]:
        """Reveal and apply every bonus token played this turn (RULES.md phase 1)."""
        s = self.state
        self._require("bonus")
        if s.tile is None:
            raise RulesError("no tile left to play")
        for p in plays:
            self._known_player(p)
        codes = {p: c for p, t in plays.items() if t is not None
                 for c in [self.bonus_refusal(p, t)] if c is not None}
        if codes:
            raise Refused(codes, "bonus")

        events: list[Event] = [Event("turn", {"turn": s.turn, "tile": s.tile.label(), "face": s.face})]
        played = {p: t for p in s.players if (t := plays.get(p)) is not None}
        for p, t in played.items():
            held = s.held[p]
            held.remove(t if t in held else UNKNOWN)
            events.append(Event("bonus_played", {"player": p, "token": t}))
        if not played:
            events.append(Event("bonus_none", {}))

        if played:
            start_zone = {p: s.zone[p] for p in played}
            laid_before = s.boards
            for zone in sorted(set(start_zone.values()), reverse=True):     # front to back
                if s.finished:
                    break
                group = [p for p in played if start_zone[p] == zone and p in s.active]
                self._apply_group(group, played, events)
            s.discards.extend(played.values())

            if not s.finished and s.boards > laid_before:                  # R-9, O-3
                self._remove_rear_board(events)
        if not s.finished:
            s.phase = "programming"
        return events

    def _apply_group(self, group: list[str], played: Mapping[str, str], events: list[Event]) -> None:
        """One zone's tokens, simultaneously and cumulatively (R-2): targets from the
        positions at the start of the group, then every change together."""
        s = self.state
        pos = {p: s.zone[p] for p in s.active}
        occupied = sorted(set(pos.values()))
        move: Counter[str] = Counter()
        fuel_loss: Counter[str] = Counter()
        fuel_gain: Counter[str] = Counter()
        new_markers: list[tuple[str, int]] = []
        for p in group:
            token, mine = played[p], pos[p]
            ahead = [z for z in occupied if z > mine]
            if token == "nitro":
                move[p] += 1
            elif token == "fuel_tank":
                fuel_gain[p] += 2
            elif token == "flamethrower":
                if ahead:
                    for q in s.active:
                        if pos[q] == ahead[0]:
                            move[q] -= 2
                else:
                    events.append(Event("nothing_ahead", {"player": p, "token": token}))
            elif token == "electromagnet":
                if ahead:
                    front = ahead[-1]
                    for q in s.active:
                        if pos[q] == front:
                            move[q] -= 3
                        elif mine < pos[q] < front:
                            move[q] -= 2
                else:
                    events.append(Event("nothing_ahead", {"player": p, "token": token}))
            elif token == "ion_cannon":
                if ahead:
                    for q in s.active:
                        if pos[q] > mine:
                            fuel_loss[q] += 2
                else:
                    events.append(Event("nothing_ahead", {"player": p, "token": token}))
            elif token == "force_field":
                new_markers.append((p, mine))

        for p in s.players:
            if fuel_gain[p]:
                s.fuel[p] += fuel_gain[p]
                events.append(Event("fuel", {"player": p, "delta": fuel_gain[p], "why": "fuel tank", "total": s.fuel[p]}))
        out: list[tuple[str, str]] = []
        for p in s.players:
            if fuel_loss[p] and p in s.active:
                lost = min(fuel_loss[p], s.fuel[p])
                s.fuel[p] -= lost
                events.append(Event("fuel", {"player": p, "delta": -lost, "why": "ion cannon", "total": s.fuel[p]}))
                if s.fuel[p] == 0:
                    out.append((p, "fuel"))
        markers = set(s.markers)        # this group's own markers do not act on its moves
        for p in s.players:
            if move[p] and p in s.active and all(p != q for q, _ in out):
                if self._move(p, move[p], markers, events, "bonus") is None:
                    out.append((p, "pushed"))
        for p, zone in new_markers:                                     # O-6
            if len(s.markers) < s.marker_total:
                s.markers.append(zone)
                events.append(Event("marker_placed", {"player": p, "zone": zone}))
            else:
                events.append(Event("no_marker_left", {"player": p}))
        self._eliminate(out, events)

    # ------------------------------------------------------------------ movement
    def _move(self, p: str, delta: int, markers: set[int], events: list[Event], why: str) -> int | None:
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
                events.append(Event("board_laid", {"front": s.front}))
        else:
            if markers:
                for z in range(start - 1, target - 1, -1):
                    if z in markers:
                        target, stopped = z, True
                        break
            if target < s.rear:
                events.append(Event("moved", {"player": p, "from": start, "to": target, "why": why}))
                return None
        if target == start:
            return target                                               # held at the front
        s.entered.add(target)                                           # O-4
        s.zone[p] = target
        events.append(Event("moved", {"player": p, "from": start, "to": target, "stopped": stopped, "why": why}))
        return target

    def _remove_rear_board(self, events: list[Event]) -> None:
        s = self.state
        first, last = s.rear, s.rear + BOARD - 1
        s.rear += BOARD
        s.boards -= 1
        events.append(Event("board_removed", {"first": first, "last": last}))
        s.markers = [z for z in s.markers if z >= s.rear]               # O-2
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
            events.append(Event("eliminated", {"player": p, "cause": cause}))
        if len(s.players) >= 5 and len(s.active) <= 4 and s.next_face != "3-4":
            s.next_face = "3-4"
            events.append(Event("flip", {"remaining": len(s.active)}))
        if len(s.active) <= 1:
            self._finish(list(s.active), events, "last ship" if s.active else "")

    def _finish(self, winners: list[str], events: list[Event], why: str = "") -> None:
        s = self.state
        s.finished = True
        s.phase = "finished"
        s.winners = winners
        s.draw_queue.clear()
        s.drawn.clear()
        events.append(Event("game_over", {"winners": winners, "why": why}))

    # ------------------------------------------------------------------ programming and resolution
    def program(self, choices: Mapping[str, Choice | str | tuple]) -> list[Event]:
        """Reveal every active player's choice and resolve the tile (RULES.md phases 2-3)."""
        s = self.state
        self._require("programming")
        norm: dict[str, Choice] = {}
        zone, players = s.zone, s.players
        for p, c in choices.items():
            if p not in zone and p not in players:
                self._known_player(p)                                   # raises
            norm[p] = c if type(c) is Choice else _as_choice(c)
        codes = {}
        active, fuel = s.active, s.fuel
        paths = self.current_paths if s.tile is not None else {}
        thresholds = self._thresholds() if paths else {}
        for p in s.players:
            if p in norm or p in active:
                c = norm.get(p)
                if c is not None and p in active:                      # the usual case, quickly:
                    path = paths.get(c.path)                            # a lit path, no X, affordable
                    if (path is not None and path.choose is None and c.number is None
                            and thresholds[c.path] <= fuel[p]):
                        continue
                code = self.programming_refusal(p, c)
                if code is not None:
                    codes[p] = code
        if codes:
            raise Refused(codes, "programming")
        return self._resolve({p: norm[p] for p in s.active})

    def _roll(self, p: str, die: str, events: list[Event]) -> int:
        s = self.state
        forced = s.forced_dice.get(p)
        value = forced.pop(0) if forced else s.rng.choice(s.dice[die])
        events.append(Event("roll", {"player": p, "die": die, "value": value}))
        return value

    def _amount(self, p: str, effect_amount, path: Path, number: int | None,
                counts: Mapping[str, int], events: list[Event]) -> tuple[int, list[Any]]:
        a = effect_amount
        if a.kind == "fixed":
            return a.value, [["", a.value]]
        if a.kind == "die":
            rolls = [self._roll(p, a.die, events) for _ in range(a.times)]
            return sum(abs(r) for r in rolls), [[f"{a.die} die", r] for r in rolls]
        if a.kind == "count":
            n = counts.get(a.path, 0)
            return n, [[f"players on {a.path}", n]]
        return number or 0, [["X", number or 0]]

    def _resolve(self, choices: dict[str, Choice]) -> list[Event]:
        s = self.state
        paths = self.current_paths
        finish = s.tile.finish
        events: list[Event] = []
        revealed: dict[str, list[Any]] = {}
        groups: dict[str, list[str]] = {}                              # path -> players, in order
        for p, c in choices.items():
            key = c.path
            revealed[p] = [key, c.number]
            events.append(Event("programmed", {"player": p, "path": key,
                                               "number": c.number if paths[key].choose else None}))
            on = groups.get(key)
            if on is None:
                groups[key] = [p]
            else:
                on.append(p)
        s.revealed = revealed
        counts = {k: len(on) for k, on in groups.items()}               # _amount reads 0 if absent
        before = dict(s.zone)                                           # R-12 draw order

        paying: list[str] = []
        gaining: list[str] = []
        for key, path in paths.items():
            on = groups.get(key)
            if not on:
                continue
            if path.capacity is not None and len(on) > path.capacity:     # capacity, O-5
                events.append(Event("lose_turn", {"path": key, "count": len(on), "capacity": path.capacity, "players": on}))
                continue
            if path.solo:                                               # tile 11
                if len(on) == 1:
                    events.append(Event("solo_alone", {"player": on[0], "path": key}))
                    gaining += on
                else:
                    events.append(Event("solo_crowd", {"path": key, "count": len(on)}))
                    paying += on
                continue
            paying += on
            gaining += on
        order = self._seat_order()
        paying.sort(key=order.__getitem__)
        gaining.sort(key=order.__getitem__)

        # Costs, all at once; then fuel 0 eliminates (except at exactly 0 on the finish tile).
        bills: dict[str, tuple[int, list[Any]]] = {}
        for p in paying:
            c = choices[p]
            path = paths[c.path]
            total, parts = 0, []
            for e in path.cost:
                a = e.amount
                if a.kind == "fixed":                                   # _amount, inlined
                    total += a.value
                    parts.append(["", a.value])
                    continue
                v, sub = self._amount(p, a, path, c.number, counts, events)
                total += v
                parts += sub
            bills[p] = (total, parts)
        out = []
        fuel = s.fuel
        for p, (total, parts) in bills.items():
            if not parts:
                continue
            have = fuel[p]
            paid = total if total < have else have                      # min(total, have)
            fuel[p] = left = have - paid
            events.append(Event("pay", {"player": p, "amount": total, "paid": paid, "parts": parts, "total": left}))
            if total > paid:
                out.append((p, "overpaid"))
            elif left == 0 and not finish:
                out.append((p, "fuel"))
        self._eliminate(out, events)
        if s.finished:
            return events

        # Gains, all at once.
        moves: dict[str, int] = {}
        draws: dict[str, int] = {}
        active = s.active
        for p in gaining:
            if p not in active:
                continue
            c = choices[p]
            path = paths[c.path]
            for e in path.gain:
                a = e.amount
                v = a.value if a.kind == "fixed" else self._amount(p, a, path, c.number, counts, events)[0]
                if e.kind == "move":
                    moves[p] = moves.get(p, 0) + v
                elif e.kind == "fuel":
                    if v:
                        s.fuel[p] += v
                        events.append(Event("fuel", {"player": p, "delta": v, "total": s.fuel[p]}))
                else:
                    draws[p] = draws.get(p, 0) + v
        markers = set(s.markers)
        out = []
        for p in gaining:
            m = moves.get(p)
            if m and p in active:
                if self._move(p, m, markers, events, "") is None:          # never backwards here
                    out.append((p, "pushed"))
        self._eliminate(out, events)
        if s.finished:
            return events
        drawers = sorted((p for p in draws if draws[p] and p in s.active),
                         key=lambda p: (-before[p], order[p])) if draws else []
        if s.token_mode == "physical":
            for p in drawers:
                s.held[p].extend([UNKNOWN] * draws[p])
                events.append(Event("draw", {"player": p, "drawn": draws[p]}))
            return self._end_resolution(events)
        s.draw_queue = [p for p in drawers for _ in range(draws[p])]
        return self._next_draw(events)

    # ------------------------------------------------------------------ bonus draws
    def _take(self, events: list[Event]) -> str | None:
        s = self.state
        if not s.pile and s.discards:
            s.pile = s.discards
            s.discards = []
            s.rng.shuffle(s.pile)
            events.append(Event("reshuffle", {"count": len(s.pile)}))
        return s.pile.pop(0) if s.pile else None

    def _next_draw(self, events: list[Event]) -> list[Event]:
        """Draw two for the next player in the queue and wait for :meth:`keep`; a draw
        with a single token left keeps it at once, with none gives nothing (R-8)."""
        s = self.state
        while s.draw_queue:
            p = s.draw_queue[0]
            drawn = [t for t in (self._take(events), self._take(events)) if t is not None]
            if len(drawn) == 2:
                s.drawn = drawn
                s.phase = "draw"
                events.append(Event("draw", {"player": p, "drawn": 2}))
                return events
            s.draw_queue.pop(0)
            if drawn:
                s.held[p].append(drawn[0])
                events.append(Event("draw", {"player": p, "drawn": 1}))
            else:
                events.append(Event("draw_empty", {"player": p}))
        return self._end_resolution(events)

    def keep(self, player: str, token: str | None = None) -> list[Event]:
        """``player`` keeps one of their two drawn tokens (default: the first drawn); the
        other goes under the pile."""
        s = self.state
        self._require("draw")
        if s.draw_queue[0] != player:
            raise RulesError(f"it is {s.draw_queue[0]}'s draw, not {player}'s")
        if token is None:
            token = s.drawn[0]
        if token not in s.drawn:
            raise RulesError(f"{player} drew {' and '.join(s.drawn)}, not {token}")
        other = list(s.drawn)
        other.remove(token)
        s.held[player].append(token)
        s.pile.extend(other)
        s.drawn = []
        s.draw_queue.pop(0)
        s.phase = "resolution"
        return self._next_draw([])

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
                events.append(Event("markers_removed", {"zone": zone, "count": n}))
        s.entered = set()
        if s.tile.finish:
            best = max(_rank_key(s, p) for p in s.active)
            self._finish([p for p in s.active if _rank_key(s, p) == best], events)
            return events
        s.revealed = {}
        s.turn += 1
        if s.stack:
            s.tile = s.stack.pop(0)
            s.face = s.next_face
            events.append(Event("tile_revealed", {"tile": s.tile.label()}))
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


def _as_choice(c: Choice | str | tuple | list) -> Choice:
    if isinstance(c, Choice):
        return c
    if isinstance(c, str):
        return Choice(c)
    if isinstance(c, (tuple, list)) and len(c) == 2:
        return Choice(c[0], c[1])
    raise RulesError(f"a choice is a path name or (path, number), not {c!r}")
