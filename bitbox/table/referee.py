"""The console's referee pieces, shared by every game's referee session.

* :class:`Pace`: how long the table holds each kind of step (instant when headless);
* the commands a referee gives the controllers (:class:`AssignSeat`, :class:`SetLights`,
  :class:`Identify`, and the private :class:`RefuseChoice` and :class:`Hint` that only one
  controller sees), which the table loop (:mod:`bitbox.table.app`) turns into hub calls;
* :class:`ControllerState`: what the referee knows of one player's controller (private).

The rules of a referee loop every game follows: a choice counts when the lock is closed
after the prompt began (a controller still locked from before must be opened first); a lost
controller pauses the game (nothing is revealed or applied) until it is back; an accepted
input is journaled (committed) before it is applied to the engine; a refused choice is
told privately (the controller blinks; the table shows only that the player must choose
again).
"""
from __future__ import annotations

from dataclasses import dataclass

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


Command = AssignSeat | SetLights | Identify | RefuseChoice | Hint


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
