"""The referee session: hub events in, engine inputs (journaled first) and a public table out.

See :mod:`.referee` for the state machine, :mod:`.drivers` for bots and the keyboard
hot-seat (both act through simulated controllers), :mod:`.animate` for the step-by-step
public views of a resolution.
"""
from .drivers import BotDriver, KeyboardDriver
from .referee import (AssignSeat, ControllerState, Hint, Identify, Pace, RefuseChoice, Session, SeatPlan, SetLights,
                      apply_input, state_hash)

__all__ = ["AssignSeat", "BotDriver", "ControllerState", "Hint", "Identify", "KeyboardDriver", "Pace",
           "RefuseChoice", "SeatPlan", "Session", "SetLights", "apply_input", "state_hash"]
