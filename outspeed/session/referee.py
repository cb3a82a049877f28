"""The referee session: a state machine between the hub and the rules engine.

Feed it the hub's events (:meth:`Session.handle`) and the time (:meth:`Session.update`); it
reads the controllers' wheels through the wheel map, refuses illegal choices privately,
journals every accepted input *before* applying it to the engine, shows the resolution
step by step, and says what the controllers should do (:meth:`Session.take_commands`: seat
colours, path lights, blink). :meth:`Session.table` is everything the display may draw:
the public view and public facts only.

A turn at the table (docs/rules.md "A turn"):

* ``bonus``: zone by zone from the front, the players of the prompted zone set the **left
  wheel** to a token (or "none") and close the lock. The table sees only *that* a player
  plays a token; when everyone has declared, all are revealed and applied.
* ``programming``: **right wheel** = path, **centre wheel** = X on a "choose X" path, then the
  lock. A legal choice makes the player ready; an illegal one is refused privately: only
  that player's controller is told (:class:`RefuseChoice`); the table and the log say
  nothing, so nobody learns which or how many tries a player made.
* resolution: when every active player is ready, everything is revealed at once and shown
  step by step; dice are each player's own roll.
* ``draw`` (virtual tokens only): the player who gains a token picks one of the two drawn
  with the left wheel and the lock.

A player choosing a token (bonus, draw) gets a private :class:`Hint`: the stops of the left
wheel that are valid now (the tokens they may play, "none"; the two tokens drawn), shown on
their own controller only (protocol 1.1; see docs/devices.md).

A lock counts only if it was closed after the prompt began: a controller still locked from
the previous phase must be opened first ("unlock first").

Lost controllers pause the game (nothing is revealed or applied) until they are back.
"""
from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Mapping, Sequence

from bitbox.table.referee import (AssignSeat, Command, ControllerState, Hint, Identify, Pace, Referee, RefuseChoice,
                                  SetLights)
from bitbox.table.referee import fingerprint as state_hash
from bitbox.table.seating import SeatPlan

from ..controls import UNREADABLE, Controls
from ..display.model import DieShown, LogEntry, PlayerStatus, TableView, colour_of
from ..rules import Choice, Event, EventKind, Game, Refused, RulesError
from .animate import apply_event
from .log import log_data

@dataclass
class _Step:
    events: list[Event]
    duration: float
    final: bool = False                # switch to the engine's own public view


def apply_input(game: Game, kind: str, data: Mapping[str, Any]) -> list[Event]:
    """Apply one journaled input to the engine (the session and the resume path share it)."""
    if kind == "bonus":
        return game.play_bonus({p: t for p, t in data["plays"].items()})
    if kind == "program":
        return game.program({p: Choice(c[0], c[1]) for p, c in data["choices"].items()})
    if kind == "keep":
        return game.keep(data["player"], data["token"])
    raise RulesError(f"unknown input kind {kind!r}")


class Session(Referee):
    """Outspeed's referee session on the console's referee loop (:class:`bitbox.table.referee.Referee`):
    the bonus phase zone by zone, programming, the draw, and the resolution shown step by step."""

    input_errors = (Refused, RulesError)

    def __init__(self, game: Game, seats: Sequence[SeatPlan], *, wheel_map: Any = None,
                 journal: Any = None, pace: Pace = Pace(), clock: Callable[[], float] = time.monotonic,
                 inputs_applied: int = 0, on_event: Callable[[LogEntry], None] | None = None) -> None:
        if wheel_map is None:
            from ..wheelmap import load_outspeed_wheel_map
            wheel_map = load_outspeed_wheel_map()
        names = [s.player for s in seats]
        if sorted(names) != sorted(game.state.players) or len({s.seat for s in seats}) != len(seats):
            raise ValueError(f"seats {names} do not match the game's players {list(game.state.players)}")
        super().__init__(game, seats, journal=journal, pace=pace, clock=clock, inputs_applied=inputs_applied,
                         on_event=on_event)
        self.game: Game = game
        self.milestones: list[tuple[str, int, TableView]] = []
        self.wheels = wheel_map
        self.controls = Controls(wheel_map)
        # bonus phase
        self.declared: dict[str, str | None] = {}
        self.auto_declared: set[str] = set()
        self.zones: list[int] = []
        # programming phase
        self.ready: dict[str, Choice] = {}
        # showing
        self._steps: deque[_Step] = deque()
        self._step_until = 0.0
        self._step_started = 0.0
        self._turn_before = game.state.turn
        self._deferred: list[Event] = []
        self._ended: list[int] = []                    # turns ended in the input being shown (their frames)
        self._after_view: dict[str, Any] | None = None
        self.shown_view: dict[str, Any] = game.public_view()
        self.dice: list[DieShown] = []
        self._rolling: list[int] = []
        self.moving: tuple[str, ...] = ()
        self.played: dict[str, str] = {}

    # ------------------------------------------------------------------ the console's hooks
    def colour_of(self, player: str) -> tuple[int, int, int]:
        return colour_of(player)

    def _apply_input(self, game: Game, kind: str, data: Mapping[str, Any]) -> list[Event]:
        return apply_input(game, kind, data)

    def _state_hash(self, game: Game) -> str:
        return state_hash(game)

    def _position(self) -> tuple[int, str]:
        return self.game.state.turn, self.game.phase

    def _before_apply(self) -> None:
        self._turn_before = self.game.state.turn

    def _refused_wheels(self, kind: str) -> int:
        return self.controls.refused_wheels(kind)

    def where(self) -> str:
        """Where the game stands, for a one-line message."""
        return f"turn {self.game.state.turn}, stage {self.stage}"

    # ------------------------------------------------------------------ what drivers may ask
    def awaiting(self, player: str) -> str | None:
        """What the session waits for from ``player`` now: "bonus", "program", "keep" or None."""
        if self.paused or not self._is_active(player):
            return None
        if self.stage == "bonus" and self.zones and player in self.pending_bonus():
            return "bonus"
        if self.stage == "programming" and player not in self.ready:
            return "program"
        if self.stage == "draw" and self.game.state.draw_queue[:1] == [player]:
            return "keep"
        return None

    def private_view(self, player: str) -> dict[str, Any]:
        """``player``'s own view (for that player's bot or keyboard pad only, never the table)."""
        return self.game.private_view(player)

    def options(self, player: str) -> Any:
        """The legal inputs for what :meth:`awaiting` says (for bots)."""
        kind = self.awaiting(player)
        g = self.game
        if kind == "bonus":
            return g.legal_bonus_plays(player)
        if kind == "program":
            return g.program_options().get(player, {})
        if kind == "keep":
            return g.keep_options(player)
        return None

    # ------------------------------------------------------------------ the public table
    def table(self, now: float | None = None) -> TableView:
        """Everything the display may draw: public view + public facts. Never a wheel."""
        now = self.clock() if now is None else now
        view = self.shown_view
        statuses = tuple(self._status(s, view) for s in self.seats)
        prompt: tuple[str, dict] | None = None
        if self.stage == "waiting":
            prompt = ("prompt.waiting", {"players": [s.player for s in self.seats if not self.ctl[s.player].connected]})
        elif self.stage == "bonus" and self.zones:
            prompt = ("prompt.bonus", {"zone": self.zones[0], "players": self.pending_bonus()})
        elif self.stage == "programming":
            prompt = ("prompt.programming", {})
        elif self.stage == "draw":
            prompt = ("prompt.draw", {"player": self.game.state.draw_queue[0]})
        elif self.stage == "showing":
            prompt = ("prompt.showing", {})
        elif self.stage == "finished":
            prompt = ("prompt.finished", {})
        banner = None
        if self.paused:
            banner = ("banner.paused", {"players": [s.player for s in self.seats
                                                    if self.ctl[s.player].lost and self._is_active(s.player)]})
        dice = tuple(self._die_face(i, d, now) for i, d in enumerate(self.dice))
        return TableView(view=view, players=statuses, stage=self.stage, prompt=prompt, banner=banner,
                         dice=dice, log=tuple(self.log[-40:]),
                         zone_prompt=self.zones[0] if self.stage == "bonus" and self.zones else None,
                         moving=self.moving)

    def _die_face(self, i: int, d: DieShown, now: float) -> DieShown:
        if i not in self._rolling or now >= self._step_until:
            return d
        k = int((now - self._step_started) * 14) + i
        face = -(1 + k % 3) if d.die == "yellow" else 1 + k % 3
        return replace(d, rolling=True, face=face)

    def _status(self, s: SeatPlan, view: Mapping[str, Any]) -> PlayerStatus:
        p, c = s.player, self.ctl[s.player]
        status = ""
        if p not in self.game.state.active:
            status = "eliminated"
        elif self.game.finished:
            status = "winner" if p in self.game.state.winners else ""
        elif self.stage == "waiting":
            status = "" if c.connected else "waiting"
        elif self.stage == "bonus":
            if p in self.declared and p not in self.auto_declared:
                status = "declared_token" if self.declared[p] is not None else "declared_none"
            elif self.zones and p in self.pending_bonus():
                status = "unlock" if c.stale else "to_act"
        elif self.stage == "programming":
            if p in self.ready:
                status = "ready"
            else:
                status = "unlock" if c.stale else "to_act"
        elif self.stage == "draw" and self.game.state.draw_queue[:1] == [p]:
            status = "unlock" if c.stale else "drawing"
        return PlayerStatus(player=p, kind=s.kind, connected=c.connected, lost=c.lost, locked=c.locked,
                            status=status, played=self.played.get(p))

    # ------------------------------------------------------------------ phases
    def _is_active(self, player: str) -> bool:
        return player in self.game.state.active and not self.game.state.finished

    def _begin_phase(self) -> None:
        """Set the table up for the engine's current phase."""
        g = self.game
        self.shown_view = g.public_view()
        self.moving = ()
        if g.finished:
            self._game_over(g.state.turn, g.state.winners, state_hash(g))
            return
        phase = g.phase
        if phase == "bonus":
            self._start_bonus()
        elif phase == "programming":
            self.stage = "programming"
            self.ready = {}
            self._new_prompt()
            for p in list(g.state.active):
                self._evaluate(p)
        elif phase == "draw":
            self.stage = "draw"
            self._new_prompt()
            self._evaluate(g.state.draw_queue[0])
        else:                                               # pragma: no cover - engine invariant
            raise RulesError(f"the session cannot play the {phase!r} phase")

    def _start_bonus(self) -> None:
        g = self.game
        s = g.state
        self.stage = "bonus"
        self.dice, self._rolling, self.played = [], [], {}
        self.declared, self.auto_declared = {}, set()
        self._new_prompt()
        holders = [p for p in s.active if s.held[p]]
        for p in s.active:
            if p not in holders:
                self.declared[p] = None
                self.auto_declared.add(p)
        tile = self.shown_view.get("tile") or {}
        self._log("turn", {"turn": s.turn, "face": s.face, "number": tile.get("number"), "finish": tile.get("finish")})
        if not holders:
            self.zones = []
            self._submit("bonus", {"plays": {}})
            return
        self.zones = sorted({s.zone[p] for p in holders}, reverse=True)
        for p in holders:
            self._evaluate(p)

    def pending_bonus(self) -> list[str]:
        if not self.zones:
            return []
        s = self.game.state
        return [p for p in s.active if s.zone[p] == self.zones[0] and p not in self.declared]

    def _evaluate(self, player: str) -> None:
        """Look at ``player``'s controller in the light of the current prompt."""
        if not self._is_active(player):
            return
        c = self.ctl[player]
        if self.stage == "bonus":
            if player in self.pending_bonus() and c.locked and not c.stale:
                token = self.controls.token(c.wheels)
                code: str | None = "unreadable" if token is UNREADABLE else None
                if code is None:
                    code = self.game.bonus_refusal(player, token)
                if code is None:
                    self.refused.discard(player)
                    self.declared[player] = token
                    self._log("declared_token" if token is not None else "declared_none", {"player": player})
                elif player not in self.refused:
                    self._refuse(player, "must_redeclare")
        elif self.stage == "programming":
            if not c.locked or c.stale:
                self.ready.pop(player, None)
                return
            read = self.controls.choice(c.wheels, self.game.current_paths)
            code = "unreadable"
            choice = None
            if read is not UNREADABLE:
                choice = read
                code = self.game.programming_refusal(player, choice)
            if code is None and choice is not None:
                self.ready[player] = choice
                self.refused.discard(player)
            else:
                self.ready.pop(player, None)
                if player not in self.refused:
                    self._refuse(player, "must_reprogram")
        elif self.stage == "draw":
            s = self.game.state
            if s.draw_queue[:1] == [player] and c.locked and not c.stale:
                token = self.controls.kept(c.wheels)
                if token in self.game.keep_options(player):
                    self.refused.discard(player)
                    self._submit("keep", {"player": player, "token": token})
                elif player not in self.refused:
                    self._refuse(player, "must_redeclare")

    def _progress(self, now: float | None = None) -> None:
        """Complete whatever can be completed (never while paused)."""
        now = self.clock() if now is None else now
        for _ in range(10000):
            if self.paused:
                return
            if self.stage == "bonus":
                while self.zones and not self.pending_bonus():
                    self.zones.pop(0)
                    for p in self.pending_bonus():
                        self._evaluate(p)
                if not self.zones:
                    plays = {p: self.declared.get(p) for p in self.game.state.active}
                    self._submit("bonus", {"plays": plays})
                    continue
                return
            if self.stage == "programming":
                active = self.game.state.active
                if all(p in self.ready for p in active):
                    choices = {p: [self.ready[p].path, self.ready[p].number] for p in active}
                    self._submit("program", {"choices": choices})
                    continue
                return
            if self.stage == "showing":
                if not self._advance_steps(now):
                    return
                continue
            return

    # ------------------------------------------------------------------ applying inputs
    def _show(self, before: dict[str, Any], events: list[Event]) -> None:
        self.stage = "showing"
        self.zones = []
        self.shown_view = before
        self._after_view = self.game.public_view()
        self._steps = deque(self._group(events))
        self._step_until = 0.0

    def _group(self, events: list[Event]) -> Iterable[_Step]:
        p = self.pace
        durations = {EventKind.ROLL: p.roll, EventKind.PROGRAMMED: p.reveal, EventKind.BONUS_PLAYED: p.reveal,
                     EventKind.TILE_REVEALED: p.turn, EventKind.TURN: 0.0, EventKind.BONUS_NONE: 0.0,
                     EventKind.GAME_OVER: p.turn}
        group: list[Event] = []
        for e in events:
            if group and (e.kind != group[-1].kind or e.kind in (EventKind.TURN, EventKind.TILE_REVEALED, EventKind.GAME_OVER)):
                yield _Step(group, durations.get(group[-1].kind, p.step))
                group = []
            group.append(e)
        if group:
            yield _Step(group, durations.get(group[-1].kind, p.step))
        yield _Step([], 0.0, final=True)

    def _advance_steps(self, now: float) -> bool:
        """Show the next step if its time has come; True if the table moved on."""
        if now < self._step_until:
            return False
        for e in self._deferred:                        # a roll is told once the die has landed
            self._log_event(e)
        self._deferred = []
        if not self._steps:
            self._end_showing()
            return True
        step = self._steps.popleft()
        if any(e.kind == EventKind.TILE_REVEALED for e in step.events):
            self._ended.append(self._turn_before)       # its frame once every event is shown
        self._step_started = now
        self._step_until = now + step.duration
        self._rolling = []
        moving = []
        for e in step.events:
            if e.kind == EventKind.TURN:
                self.dice, self._rolling = [], []
            if e.kind == EventKind.ROLL:
                self._rolling.append(len(self.dice))
                self.dice.append(DieShown(e.data["player"], e.data["die"], int(e.data["value"])))
            if e.kind == EventKind.BONUS_PLAYED:
                self.played[e.data["player"]] = e.data["token"]
            if e.kind == EventKind.MOVED:
                moving.append(e.data["player"])
            self.shown_view = apply_event(self.shown_view, e, self.game.state.token_mode)
            if e.kind == EventKind.ROLL and step.duration > 0:
                self._deferred.append(e)
            else:
                self._log_event(e)
        self.moving = tuple(moving)
        if step.final or any(e.kind == EventKind.TILE_REVEALED for e in step.events):
            self.shown_view = dict(self._after_view or self.game.public_view())
        return True

    def _end_showing(self) -> None:
        """Every event of the input is shown: the frame of each turn that ended in it is the
        table now (never one that lags the events printed), the last one naming the winners."""
        self.shown_view = dict(self._after_view or self.game.public_view())
        if self.game.finished:
            self.stage = "finished"                     # (the table() of the milestone says so)
            if self._turn_before not in self._ended:
                self._ended.append(self._turn_before)
        for turn in self._ended:
            self.milestones.append(("turn_end", turn, self.table()))
        self._ended = []
        self._begin_phase()

    # ------------------------------------------------------------------ log
    def _log_event(self, e: Event) -> None:
        if e.kind == EventKind.TURN:                 # logged when the bonus phase began
            return
        last = self.log[-1] if self.log and self.log[-1].kind == EventKind.ROLL else None
        self._log(e.kind, log_data(e, self.shown_view, self._after_view or {}, self.game.state.token_mode,
                                   last.data if last is not None and e.kind == EventKind.ROLL else None))

    # ------------------------------------------------------------------ controller lights
    def _lights_for(self, player: str) -> tuple[bool, bool, bool]:
        """Path lights: the tile's lit paths for a player who must program; the left light for
        a player who must declare or keep a token; dark otherwise."""
        kind = self.awaiting(player)
        return self.controls.lights(kind, tuple(self.game.current_paths) if self.stage == "programming" else ())

    def _hint(self, player: str) -> tuple[int, int, int]:
        """The private hint for ``player``'s controller: the left-wheel stops whose meaning
        would be accepted now when they choose a token (bonus: what the engine lets them
        play, "none" included; draw: the two tokens drawn). Nothing otherwise."""
        kind = self.awaiting(player)
        if kind == "bonus":
            return self.controls.hint(kind, self.game.legal_bonus_plays(player))
        if kind == "keep":
            return self.controls.hint(kind, self.game.state.drawn)
        return (0, 0, 0)


__all__ = ["AssignSeat", "Command", "ControllerState", "Hint", "Identify", "Pace", "RefuseChoice", "SeatPlan",
           "Session", "SetLights", "apply_input", "state_hash"]
