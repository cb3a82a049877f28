"""The console's referee pieces, shared by every game's referee session.

* :class:`Pace`: how long the table holds each kind of step (instant when headless);
* the commands a referee gives the controllers (:class:`AssignSeat`, :class:`SetLights`,
  :class:`Identify`, and the private :class:`RefuseChoice`, :class:`Hint` and :class:`Show`
  that only one controller sees), which the table loop (:mod:`bitbox.table.app`) turns into hub calls;
* :class:`ControllerState`: what the referee knows of one player's controller (private);
* :class:`Referee`: the loop itself, which a game's session subclasses with its phases.

The rules of a referee loop every game follows: a choice counts when the lock is closed
after the prompt began (a controller still locked from before must be opened first); a lost
controller pauses the game (nothing is revealed or applied) until it is back; an accepted
input is journaled (committed) before it is applied to the engine; a refused choice is
told privately (the controller blinks; the table shows only that the player must choose
again).
"""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, Protocol, Sequence

from bitbox.display.model import LogEntry
from bitbox.events import Back, Connected, Lost, Rejected, WheelsChanged

from .seating import SeatPlan


def fingerprint(game: Any) -> str:
    """A state's fingerprint, for every game: SHA-256 of its ``to_data()`` as canonical JSON
    (32 hex digits). The journal stores it with each input and checks it on resume."""
    blob = json.dumps(game.to_data(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


def decision_seed(*parts: Any) -> int:
    """A bot's seed for one decision, from the game's seed, the player and the moment (one way:
    SHA-256), so a resumed game decides as the original did, and a secret seed cannot be
    searched back from the bots' decisions."""
    return int.from_bytes(hashlib.sha256("/".join(map(str, parts)).encode()).digest()[:8], "big")


@dataclass(frozen=True)
class Pace:
    """Seconds the table holds each kind of step; :meth:`instant` for headless runs."""

    step: float = 0.9                  # one resolution step (pay, move, eliminate...)
    roll: float = 1.3                  # dice tumbling
    reveal: float = 2.2                # everything revealed at once
    turn: float = 1.5                  # a new tile revealed
    think: float = 1.2                 # a bot's thinking time

    @classmethod
    def instant(cls) -> "Pace":
        return cls(0.0, 0.0, 0.0, 0.0, 0.0)

    def scaled(self, speed: float) -> "Pace":
        if speed <= 0:
            return Pace.instant()
        return Pace(*(v / speed for v in (self.step, self.roll, self.reveal, self.turn, self.think)))

    @property
    def is_instant(self) -> bool:
        return self == Pace.instant()


# ---- commands to the controllers (the runner turns them into hub calls)

@dataclass(frozen=True)
class AssignSeat:
    seat: int
    colour: tuple[int, int, int]


@dataclass(frozen=True)
class SetLights:
    seat: int
    left: bool
    centre: bool
    right: bool
    colour: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class Identify:
    """Blink a controller: its owner's choice was refused (or: "this one is yours")."""

    seat: int
    ms: int = 1500


@dataclass(frozen=True)
class RefuseChoice:
    """Tell one controller, privately, that the choice it locked was refused (bits of
    ``wheels``: 1 left, 2 centre, 4 right). Nothing public is said."""

    seat: int
    ms: int = 1500
    wheels: int = 0b001


@dataclass(frozen=True)
class Hint:
    """The valid stops of each wheel for one controller's eyes only (bit p = position p;
    0 = no hint). All zero clears it."""

    seat: int
    left: int = 0
    centre: int = 0
    right: int = 0


@dataclass(frozen=True)
class Show:
    """Stops one controller shows its player privately that are not choices (protocol 1.2),
    e.g. the code of a token just drawn (bit p = position p; all zero: nothing to show)."""

    seat: int
    left: int = 0
    centre: int = 0
    right: int = 0


Command = AssignSeat | SetLights | Identify | RefuseChoice | Hint | Show


class CommandHub(Protocol):
    """What a hub does for the commands above, and its events (see :class:`bitbox.hub.Hub`):
    the calls the table loop makes (:func:`bitbox.table.app.apply_command`), and what a test's
    hub gives (:class:`bitbox.testing.RecordingHub` wraps one)."""

    def poll(self, timeout: float = 0.0) -> list[Any]: ...
    def assign_seat(self, seat: int, colour: Any = None) -> bool: ...
    def set_lights(self, seat: int, left: bool, centre: bool, right: bool, colour: Any = None) -> bool: ...
    def identify(self, seat: int, ms: int = 2000) -> bool: ...
    def refuse_choice(self, seat: int, ms: int = 1500, wheels: int = 1) -> bool: ...
    def hint(self, seat: int, left: int = 0, centre: int = 0, right: int = 0) -> bool: ...
    def show(self, seat: int, left: int = 0, centre: int = 0, right: int = 0) -> bool: ...


@dataclass
class ControllerState:
    """What the session knows of one player's controller. Private: the wheels never leave
    the session except as a public status (locked, ready, refused...)."""

    connected: bool = False
    lost: bool = False
    locked: bool = False
    wheels: tuple[int, int, int] = (0, 0, 0)
    stale: bool = False                # locked since before the current prompt
    controller_id: int | None = None
    # audit counters of this session (bitbox.table.audit): kept in the journal when the game
    # ends or stops, never shown during a game (the table must not count a player's tries)
    locks: int = 0                     # times the lock was closed
    refusals: int = 0                  # choices refused
    losses: int = 0                    # times the controller was lost (unplugged, silent, refused)


class Journaling(Protocol):
    """Where a referee writes each accepted input before applying it (a journal's game record)."""

    def record(self, kind: str, data: dict[str, Any], *, turn: int, phase: str, state: str) -> None: ...
    def finish(self, winners: list[str], state: str | None = None) -> None: ...


class Referee:
    """The referee loop every game's table shares: the controllers' state, the lock-to-submit
    rule, the pause on a lost controller, journal-then-apply, the log, the milestones, and the
    lights and hints the controllers are told (only what changed). A game's session subclasses
    it and gives its phases: :meth:`_begin_phase`, :meth:`_evaluate` (a player's controller in
    the light of the current prompt), :meth:`_progress`, :meth:`_show` (the result of an input,
    step by step), :meth:`_is_active`, :meth:`_lights_for`, :meth:`_hint`, :meth:`colour_of`,
    and how an input is applied and the state fingerprinted.

    ``journal``: anything with ``record(kind, data, turn, phase, state)`` and ``finish``
    (e.g. :class:`bitbox.table.journal.GameRecord`) or None."""

    LOG_KEEP = 300
    input_errors: tuple[type[BaseException], ...] = ()     # what a refused input raises

    def __init__(self, game: Any, seats: Sequence[SeatPlan], *, journal: Journaling | None = None,
                 pace: Pace = Pace(), clock: Callable[[], float] = time.monotonic, inputs_applied: int = 0,
                 on_event: Callable[[LogEntry], None] | None = None) -> None:
        self.game = game
        self.seats = list(seats)
        self.by_seat = {s.seat: s for s in self.seats}
        self.by_player = {s.player: s for s in self.seats}
        self.journal = journal
        self.pace = pace
        self.clock = clock
        self.on_event = on_event
        self.ctl = {s.player: ControllerState() for s in self.seats}
        self.log: list[LogEntry] = []
        self.inputs_applied = inputs_applied     # engine inputs so far (bots seed from it)
        self.stage = "waiting"
        self.prompt_id = 0
        self.milestones: list[tuple[str, int, Any]] = []
        self._commands: list[Command] = []
        self._lights: dict[int, tuple] = {}
        self._hints: dict[int, tuple[int, int, int]] = {}
        self._shows: dict[int, tuple[int, int, int]] = {}
        # players refused since their last lock
        self.refused: set[str] = set()

    # ------------------------------------------------------------------ what a game's session gives
    def colour_of(self, player: str) -> tuple[int, int, int]:
        raise NotImplementedError

    def _is_active(self, player: str) -> bool:
        raise NotImplementedError

    def _begin_phase(self) -> None:
        raise NotImplementedError

    def _evaluate(self, player: str) -> None:
        raise NotImplementedError

    def _progress(self, now: float | None = None) -> None:
        raise NotImplementedError

    def _show(self, before: Any, events: list[Any]) -> None:
        raise NotImplementedError

    def _lights_for(self, player: str) -> tuple[bool, bool, bool]:
        return (False, False, False)

    def _hint(self, player: str) -> tuple[int, int, int]:
        """The valid stops of each wheel for ``player`` now: only stops the referee accepts."""
        return (0, 0, 0)

    def _private_show(self, player: str) -> tuple[int, int, int]:
        """Stops ``player``'s controller shows privately that are not choices (a code)."""
        return (0, 0, 0)

    def _refused_wheels(self, kind: str) -> int:
        """The wheels a refusal of ``kind`` points at (bits: 1 left, 2 centre, 4 right)."""
        return 0b001

    def _public_view(self) -> Any:
        return self.game.public_view()

    def _trial(self) -> Any:
        """A copy of the game to try an input on (a refused input must change nothing)."""
        return self.game.copy()

    def _apply_input(self, game: Any, kind: str, data: Mapping[str, Any]) -> list[Any]:
        raise NotImplementedError

    def _state_hash(self, game: Any) -> str:
        raise NotImplementedError

    def _position(self) -> tuple[int, str]:
        """(turn, phase) of the game now, recorded with each input."""
        raise NotImplementedError

    def _before_apply(self) -> None:
        """Called after an input is journaled, just before the game moves on."""

    def _game_over(self, turn: int, winners: Sequence[str], state: str) -> None:
        """The game has ended: the table says so (a milestone with its last frame) and the
        journal records the winners and the final fingerprint ``state``."""
        self.stage = "finished"
        self.milestones.append(("finished", turn, self.table()))      # type: ignore[attr-defined]
        if self.journal is not None:
            self.journal.finish(list(winners), state=state)

    # ------------------------------------------------------------------ inputs from the hub
    def handle(self, event: Any) -> None:
        """One hub event. Unknown seats and event types are ignored (logged when useful)."""
        if isinstance(event, Rejected):
            self._log("rejected", {"reason": str(event.reason)[:80]})
            return
        seat: int | None = getattr(event, "seat", None)
        plan = self.by_seat.get(seat) if seat is not None else None
        if plan is None and isinstance(event, Connected):
            plan = self._rebind(event.seat, event.info.controller_id)
        if plan is None:
            return
        c = self.ctl[plan.player]
        if isinstance(event, Connected):
            c.connected, c.controller_id = True, event.info.controller_id
            if c.lost:
                c.lost = False
                self._log("back", {"player": plan.player})
            self._commands.append(AssignSeat(plan.seat, self.colour_of(plan.player)))
            self._lights.pop(plan.seat, None)
            self._hints.pop(plan.seat, None)
            self._shows.pop(plan.seat, None)
        elif isinstance(event, WheelsChanged):
            if not c.connected:
                c.connected = True
            c.wheels = (int(event.left), int(event.centre), int(event.right))
            if event.locked and not c.locked:
                c.locks += 1
            c.locked = bool(event.locked)
            if not c.locked:
                c.stale = False
                self.refused.discard(plan.player)
            self._evaluate(plan.player)
        elif isinstance(event, Lost):
            if not c.lost:
                c.lost = True
                c.losses += 1
                if self._is_active(plan.player) and self.stage != "finished":
                    self._log("lost", {"player": plan.player})
        elif isinstance(event, Back):
            c.connected = True
            if c.lost:
                c.lost = False
                self._log("back", {"player": plan.player})
            self._lights.pop(plan.seat, None)
        self._progress()

    def _rebind(self, seat: int, controller_id: int) -> SeatPlan | None:
        """A resumed game's controller, back on another seat number: it takes its player's seat."""
        for i, plan in enumerate(self.seats):
            if plan.controller_id == controller_id and not self.ctl[plan.player].connected:
                new = replace(plan, seat=seat)
                self.seats[i] = new
                self.by_seat.pop(plan.seat, None)
                self.by_seat[seat] = new
                self.by_player[plan.player] = new
                return new
        return None

    # ------------------------------------------------------------------ time
    def update(self, now: float | None = None) -> None:
        """Advance the table to ``now``: start the game once every controller is here, show
        resolution steps as their time comes, complete phases."""
        now = self.clock() if now is None else now
        if self.stage == "waiting":
            if all(c.connected and not c.lost for c in self.ctl.values()):
                self._begin_phase()
        self._progress(now)

    @property
    def paused(self) -> bool:
        """A lost controller of an active player pauses the game: nothing is revealed or applied."""
        return self.stage != "finished" and any(
            self.ctl[s.player].lost for s in self.seats if self._is_active(s.player))

    @property
    def finished(self) -> bool:
        return self.stage == "finished"

    @property
    def busy(self) -> bool:
        """Showing a resolution with no pause between its steps (the loop need not wait)."""
        return self.stage == "showing" and self.pace.is_instant

    def take_commands(self) -> list[Command]:
        self._update_lights()
        out, self._commands = self._commands, []
        return out

    def take_milestones(self) -> list[tuple[str, int, Any]]:
        """("turn_end", n, table) when turn n has been shown, with the table as it stood then;
        ("finished", n, table)."""
        out, self.milestones = self.milestones, []
        return out

    def controller(self, player: str) -> ControllerState:
        return self.ctl[player]

    # ------------------------------------------------------------------ prompts and refusals
    def _new_prompt(self) -> None:
        """A new prompt begins: a lock closed before now must be opened first (stale)."""
        self.prompt_id += 1
        self.refused.clear()
        for c in self.ctl.values():
            c.stale = c.locked

    def _refuse(self, player: str, kind: str) -> None:
        """A private refusal: only ``player``'s controller hears of it. No log line and no
        public status, whatever ``kind`` (the table must not count a player's tries)."""
        self.refused.add(player)
        self.ctl[player].refusals += 1
        self._commands.append(RefuseChoice(self.by_player[player].seat, 1500, self._refused_wheels(kind)))

    # ------------------------------------------------------------------ applying inputs
    def _submit(self, kind: str, data: dict[str, Any]) -> None:
        """Journal the input (committed), then apply it to the engine and show the result.
        The engine is tried on a copy first, so a refused input is never journaled."""
        before = self._public_view()
        trial = self._trial()
        try:
            events = self._apply_input(trial, kind, data)
        except self.input_errors as exc:            # should not happen: inputs are prechecked
            self._log("unknown", {"kind": f"refused: {exc}"})
            self._new_prompt()
            return
        if self.journal is not None:
            turn, phase = self._position()
            self.journal.record(kind, data, turn=turn, phase=phase, state=self._state_hash(self.game))
        self._before_apply()
        self.game = trial
        self.inputs_applied += 1
        self._show(before, events)

    # ------------------------------------------------------------------ log
    def _log(self, kind: str, data: dict[str, Any]) -> None:
        entry = LogEntry(kind, data)
        self.log.append(entry)
        if len(self.log) > self.LOG_KEEP:
            del self.log[: len(self.log) - self.LOG_KEEP]
        if self.on_event is not None:
            self.on_event(entry)

    def log_message(self, kind: str, data: dict[str, Any]) -> None:
        """A public message from outside (the runner): "started", "resumed"..."""
        self._log(kind, data)

    # ------------------------------------------------------------------ controller lights
    def _update_lights(self) -> None:
        """Tell each connected controller its lights and its private hint, when they change."""
        for s in self.seats:
            p = s.player
            if not self.ctl[p].connected or self.ctl[p].lost:
                continue
            want = self._lights_for(p) if self._is_active(p) else (False, False, False)
            colour = self.colour_of(p)
            key = (*want, colour)
            if self._lights.get(s.seat) != key:
                self._lights[s.seat] = key
                self._commands.append(SetLights(s.seat, *want, colour=colour))
            hint = self._hint(p) if self._is_active(p) else (0, 0, 0)
            if self._hints.get(s.seat, (0, 0, 0)) != hint:
                self._hints[s.seat] = hint
                self._commands.append(Hint(s.seat, *hint))
            shown = self._private_show(p) if self._is_active(p) else (0, 0, 0)
            if self._shows.get(s.seat, (0, 0, 0)) != shown:
                self._shows[s.seat] = shown
                self._commands.append(Show(s.seat, *shown))
