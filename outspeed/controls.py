"""Outspeed's controls: what the wheels mean for each prompt, for the console's session.

One source for the table (reading a locked controller), the bots and the keyboard hot-seat
(turning a simulated controller's wheels to an answer); the console's contract is
:mod:`bitbox.table.controls` (``read``, ``wheels_for``, ``hint``) and its optional members
(docs/games.md, "At the table"):

==========  ===========================================  ==========================
prompt      wheels                                       answer
==========  ===========================================  ==========================
``bonus``   left: a bonus token, or "none"               a token name, or None
``program`` right: a path; centre: X on a "choose X"     a :class:`~outspeed.rules.Choice`
            path
``keep``    left: one of the two tokens drawn            a token name
==========  ===========================================  ==========================

The positions' meanings come from the wheel map (``config/wheels.yaml``, game ``outspeed``).
A reading that means nothing for the prompt raises ValueError (the session refuses it
privately, like an illegal answer: only the stop that means "none" plays no token). The
bonus phase is asked zone by zone from the front, and only of the players holding a token
(``order``); that a player plays a token or none is public once locked in (``declared``). The
lights: a player who must program sees the tile's lit paths; one who must choose a token sees
the left light. A player choosing a token gets a private hint of the left-wheel stops valid
now (the tokens they may play and "none"; the two tokens drawn).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol, Sequence

from bitbox.games.protocol import Prompt

from .rules import PATHS, TOKENS, Choice


class WheelMap(Protocol):
    """The part of :class:`bitbox.wheels.WheelMap` the controls use."""

    def meaning(self, wheel: str, position: int) -> Any: ...
    def position_for(self, wheel: str, meaning: Any) -> int: ...
    def meanings(self, wheel: str) -> Mapping[int, Any]: ...


class Controls:
    """Outspeed's wheels, read and set through ``wheel_map``."""

    def __init__(self, wheel_map: WheelMap) -> None:
        self.map = wheel_map

    # ---- the console's contract
    def read(self, prompt: Prompt, wheels: tuple[int, int, int]) -> Any:
        """The answer the wheels name; ValueError when they name none (None is "no token")."""
        if prompt.kind == "program":
            path = self.map.meaning("right", wheels[2])
            if path not in PATHS:
                raise ValueError(f"no path at stop {wheels[2]}")
            number = None
            if any(isinstance(o, Choice) and o.path == path and o.number is not None for o in prompt.options):
                n = self.map.meaning("centre", wheels[1])
                number = n if isinstance(n, int) and not isinstance(n, bool) else -1   # refused by the rules
            return Choice(path, number)
        meaning = self.map.meaning("left", wheels[0])
        if prompt.kind == "bonus" and meaning == "none":
            return None
        if meaning not in TOKENS:          # a stop the map does not list (or lists as null)
            raise ValueError(f"no token at stop {wheels[0]}")
        return meaning

    def wheels_for(self, prompt: Prompt, action: Any) -> tuple[int, int, int]:
        """Positions that :meth:`read` reads as ``action`` (an unused wheel at stop 0)."""
        if prompt.kind == "program":
            choice = action if isinstance(action, Choice) else Choice(*action)
            centre = self.map.position_for("centre", choice.number) if choice.number is not None else 0
            return (0, centre, self.map.position_for("right", choice.path))
        return (self.map.position_for("left", "none" if action is None else action), 0, 0)

    def hint(self, prompt: Prompt) -> tuple[int, int, int]:
        """The left-wheel stops whose meaning is one of the prompt's options (a token choice)."""
        if prompt.kind == "bonus":
            allowed = set(prompt.options)
            return self._left(lambda m: (None if m == "none" else m) in allowed)
        if prompt.kind == "keep":
            return self._left(lambda m: m in prompt.options)
        return (0, 0, 0)

    def _left(self, accepted: Callable[[Any], bool]) -> tuple[int, int, int]:
        mask = 0
        for position, meaning in self.map.meanings("left").items():
            if 0 <= position < 16 and accepted(meaning):
                mask |= 1 << position
        return (mask, 0, 0)

    # ---- the session's optional members
    @staticmethod
    def lights(game: Any, prompt: Prompt) -> tuple[bool, bool, bool]:
        if prompt.kind == "program":
            lit = getattr(game, "engine", game).current_paths
            return ("left" in lit, "center" in lit, "right" in lit)
        return (True, False, False)

    @staticmethod
    def refused_wheels(prompt: Prompt) -> int:
        """The path and X wheels for a choice that must be reprogrammed, else the left wheel."""
        return 0b110 if prompt.kind == "program" else 0b001

    @staticmethod
    def order(game: Any, prompts: Sequence[Prompt]) -> list[list[str]]:
        """The bonus phase zone by zone, from the front: the players holding a token (the others
        play none, which is public); any other phase at once."""
        if not prompts or prompts[0].kind != "bonus":
            return [[p.player for p in prompts]]
        s = getattr(game, "engine", game).state
        holders = [p.player for p in prompts if s.held[p.player]]
        return [[p for p in holders if s.zone[p] == z] for z in sorted({s.zone[p] for p in holders}, reverse=True)]

    @staticmethod
    def declared(prompt: Prompt, action: Any) -> str | None:
        """That a player plays a token (not which) is public once they lock it."""
        if prompt.kind != "bonus":
            return None
        return "declared_token" if action is not None else "declared_none"

    @staticmethod
    def key_move(prompt: Prompt, action: Any, key: str) -> Any:
        """The keyboard's arrows: ←/→ the next path (keeping X where it can) or token, ↑/↓ X."""
        options = list(prompt.options)
        if prompt.kind != "program":
            step = {"left": -1, "right": 1}.get(key, 0)
            return options[(options.index(action) + step) % len(options)]
        choices = [o for o in options if isinstance(o, Choice)]
        paths = list(dict.fromkeys(o.path for o in choices))
        if key in ("left", "right"):
            path = paths[(paths.index(action.path) + (1 if key == "right" else -1)) % len(paths)]
            same = [o for o in choices if o.path == path]
            return min(same, key=lambda o: abs((o.number or 0) - (action.number or 0)))
        numbers = [o for o in choices if o.path == action.path]
        k = numbers.index(action) + (1 if key == "up" else -1)
        return numbers[max(0, min(len(numbers) - 1, k))]

    @staticmethod
    def pad_lines(words: Any, view: Mapping[str, Any], prompt: Prompt, action: Any) -> list[str]:
        """The keyboard pad: the choice, the tokens held; the two drawn when keeping one."""
        if prompt.kind == "program":
            lines = [f"▶ {words.path(action.path)}"]
            if action.number is not None:
                lines.append(f"X = {action.number}")
        else:
            lines = [f"▶ {words.token(action)}"]
        held = view.get("held", [])
        if held:
            lines.append(", ".join(words.token(t) for t in held))
        if prompt.kind == "keep":
            lines.append(" / ".join(words.token(t) for t in prompt.options))
        return lines


__all__ = ["Controls", "WheelMap"]
