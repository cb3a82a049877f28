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

Optional members, for a game whose table needs more (each has a default: without it the
console does what the line after it says; docs/games.md "Controls" lists them):

* ``order(game, prompts)``: the players of a simultaneous phase asked in turn, group by
  group (a player in no group is answered by the table with the prompt's only option).
  *Default:* everyone at once.
* ``declared(prompt, action)``: the public word of an answer once it is locked in (logged
  and shown; the answer then stands). *Default:* nothing said.
* ``pad_lines(words, private_view, prompt, action)`` and ``key_move(prompt, action, key)``:
  the keyboard pad's lines and its arrows. *Default:* the prompt's words; the options in turn.
* ``read_marked(game, prompt, wheels, marks)``: an answer entered over several locks (a
  flare's dice, the tokens to discard). Returns the answer, a :class:`Marked` (one more lock
  taken: the session keeps ``marks`` and waits for the lock to open and close again) or an
  :class:`Unreadable` (refused, privately; its ``reason`` is a words key the game's own view
  may show). ``marks`` (each player's own) is None at the start of a prompt. *Default:*
  ``read``, one lock.
* ``wheels_marked(game, prompt, action, marks)``: the wheels of the next lock towards
  ``action`` (bots and the keyboard). *Default:* ``wheels_for``.
* ``first_input(game, player)``: who goes first is chosen at the table, before the game's
  prompts: the journal input ``(kind, data)`` making ``player`` first, or None when the game
  needs no such choice now. The first person (controller or keyboard) to close a lock is
  first; a table of bots only starts with the first seat. *Default:* no such stage.
* ``entries``: values entered at the table before an input is applied, e.g. tokens drawn
  from a real bag (an :class:`Entries`). *Default:* None.
* ``lights(game, prompt)``: the path lights of the controller asked (the wheels the prompt
  reads). *Default:* all three lit.
* ``show(prompt)``: stops a controller shows its player privately that are not choices (the
  code of a token just drawn; protocol 1.2 Show). *Default:* nothing.
* ``refused_wheels(prompt)``: the wheels a refusal points at (bits 1 left, 2 centre, 4
  right). *Default:* the left wheel.
* ``keyboard``: ``"options"`` (the hot-seat keys choose among the prompt's options) or
  ``"wheels"`` (they turn the wheels one by one: a game whose answers are made in the open
  and need several locks). *Default:* ``"options"``.
* ``private_line(prompt, words)``: with ``keyboard = "wheels"``, a line of the prompt that
  only its player may see (shown on the pad while Tab is held). *Default:* none.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence, runtime_checkable

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


@dataclass(frozen=True)
class Marked:
    """One lock of an answer entered over several locks: the marks so far (the game's own
    value), which the session keeps and gives back to ``read_marked``."""

    marks: Any


@dataclass(frozen=True)
class Unreadable:
    """Wheel positions that name nothing the prompt takes now; ``reason`` is a words key
    (with ``data`` for its placeholders)."""

    reason: str
    data: Mapping[str, Any] = field(default_factory=dict)


class Entries(Protocol):
    """Values entered at the table before an input is applied (Last One Alive's tokens drawn
    from a real bag): ``kind`` names the stage (the prompt kind its player is asked,
    for lights, hints and words); ``who(game, kind, data, entered)`` is the player to enter
    the next value before the input ``(kind, data)`` can be applied (None: nothing more);
    ``read(game, wheels, entered)`` the value the wheels name (or an :class:`Unreadable`);
    ``data(kind, data, entered)`` the input's data with the values entered (the journal's)."""

    kind: str

    def who(self, game: Any, kind: str, data: Mapping[str, Any], entered: Sequence[Any]) -> str | None: ...
    def read(self, game: Any, wheels: Wheels, entered: Sequence[Any]) -> Any: ...
    def data(self, kind: str, data: Mapping[str, Any], entered: Sequence[Any]) -> dict[str, Any]: ...


def controls_of(cartridge: Any, settings: Mapping[str, Any] | None = None) -> Controls:
    """The cartridge's controls: its ``table_controls(settings)`` (``settings``: what a game
    records, docs/games.md; none: the defaults), else its ``controls``, else the console's
    :class:`IndexControls`. The one place the table, the drivers and the conformance check
    find them."""
    own = getattr(cartridge, "table_controls", None)
    if callable(own):
        return own(dict(settings or {}))
    controls = getattr(cartridge, "controls", None)
    return controls if isinstance(controls, Controls) else IndexControls()


__all__ = ["Controls", "Entries", "IndexControls", "Marked", "STOPS", "Unreadable", "Wheels", "controls_of"]
