"""A game's controls: how the three wheels answer a prompt, and what a controller is hinted.

The console's referee reads a player's wheels only through a :class:`Controls` object, the
cartridge's ``controls`` attribute when it has one, else :class:`IndexControls`:

* ``read(prompt, wheels)``: the answer the wheel positions ``(left, centre, right)`` name,
  or None when they name none (the referee then refuses the lock, privately); for a prompt
  that offers None as an answer (e.g. "play nothing"), it raises ValueError or LookupError
  instead. The answer need not be legal: the referee asks the game (``Game.refusal``).
* ``wheels_for(prompt, action)``: positions that :meth:`read` reads as ``action`` (bots and
  the keyboard turn a simulated controller to them).
* ``hint(prompt)``: for each wheel, the bit mask of the stops that are valid now (bit ``p``:
  stop ``p``; 0: no hint). Every hinted combination must be accepted: a controller trusts
  it (firmware_protocol/SPEC.md, Hint).
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from bitbox.games.protocol import Action, Prompt

Wheels = tuple[int, int, int]
STOPS = 16                       # stops of a wheel on the reference controller


@runtime_checkable
class Controls(Protocol):
    def read(self, prompt: Prompt, wheels: Wheels) -> Action | None: ...
    def wheels_for(self, prompt: Prompt, action: Action) -> Wheels: ...
    def hint(self, prompt: Prompt) -> Wheels: ...


class IndexControls:
    """Any prompt, whatever the game: the wheels spell the option's index in the prompt's
    list (left + 16 × centre + 256 × right: stop 0 of each is the first option). With 16
    options or fewer only the left wheel matters and the hint names exactly those stops."""

    def read(self, prompt: Prompt, wheels: Wheels) -> Action | None:
        left, centre, right = wheels
        i = left + STOPS * centre + STOPS * STOPS * right
        if 0 <= i < len(prompt.options):
            return prompt.options[i]
        if None in prompt.options:               # None would read as that answer
            raise LookupError(f"no option at {wheels}")
        return None

    def wheels_for(self, prompt: Prompt, action: Action) -> Wheels:
        i = prompt.options.index(action)
        return (i % STOPS, (i // STOPS) % STOPS, i // (STOPS * STOPS))

    def hint(self, prompt: Prompt) -> Wheels:
        n = len(prompt.options)
        if n <= STOPS:
            return ((1 << n) - 1, 1, 1)
        return (0, 0, 0)                         # more than one wheel's worth: no hint

    def index(self, prompt: Prompt, wheels: Wheels) -> int | None:
        left, centre, right = wheels
        i = left + STOPS * centre + STOPS * STOPS * right
        return i if 0 <= i < len(prompt.options) else None


def controls_of(cartridge: Any) -> Controls:
    """The cartridge's controls, or the console's :class:`IndexControls`."""
    controls = getattr(cartridge, "controls", None)
    return controls if isinstance(controls, Controls) else IndexControls()


__all__ = ["Controls", "IndexControls", "STOPS", "Wheels", "controls_of"]
