"""Outspeed's controls: what the wheels mean for each prompt, and what the screen asks.

One source for the referee (reading a locked controller), the bots and the keyboard
hot-seat (turning a simulated controller's wheels to an answer):

==========  ===========================================  ==========================
prompt      wheels                                       answer
==========  ===========================================  ==========================
``bonus``   left: a bonus token, or "none"               a token name, or None
``program`` right: a path; centre: X on a "choose X"     a :class:`~outspeed.rules.Choice`
            path
``keep``    left: one of the two tokens drawn            a token name
==========  ===========================================  ==========================

The positions' meanings come from the wheel map (``config/wheels.yaml``, game ``outspeed``).
A reading that means nothing for the prompt is :data:`UNREADABLE` (refused privately, like
an illegal answer). The lights: a player who must program sees the tile's lit paths; one who
must choose a token sees the left light.
"""
from __future__ import annotations

from typing import Any, Mapping, Protocol

from .rules import PATHS, TOKENS, Choice

#: The prompt kinds (what :meth:`outspeed.session.Session.awaiting` says) and the words that
#: ask them on the screen.
PROMPT_WORDS = {"bonus": "prompt.bonus", "program": "prompt.programming", "keep": "prompt.draw"}

UNREADABLE = object()          # a wheel position that means nothing for the prompt


class WheelMap(Protocol):
    """The part of :class:`bitbox.wheels.WheelMap` the controls use."""

    def meaning(self, wheel: str, position: int) -> Any: ...
    def position_for(self, wheel: str, meaning: Any) -> int: ...
    def meanings(self, wheel: str) -> Mapping[int, Any]: ...


class Controls:
    """Outspeed's wheels, read and set through ``wheel_map``."""

    def __init__(self, wheel_map: WheelMap) -> None:
        self.map = wheel_map

    # ---- reading a controller (the referee)
    def token(self, wheels: tuple[int, int, int]) -> Any:
        """A bonus play from the left wheel: a token, None ("none"), or :data:`UNREADABLE`.

        A stop the map does not list (or lists as null) is unreadable, as in programming:
        only the stop that means "none" plays no token."""
        meaning = self.map.meaning("left", wheels[0])
        if meaning == "none":
            return None
        # A stop the map does not list (or lists as null) is unreadable, as in programming:
        # only the stop that means "none" plays no token (issue 13, item 7).
        return meaning if meaning in TOKENS else UNREADABLE

    def kept(self, wheels: tuple[int, int, int]) -> Any:
        """The token to keep, from the left wheel (its meaning, checked by the caller)."""
        return self.map.meaning("left", wheels[0])

    def choice(self, wheels: tuple[int, int, int], current_paths: Mapping[str, Any]) -> Any:
        """A programming from the right wheel (and the centre one on a "choose X" path): a
        :class:`Choice`, or :data:`UNREADABLE`. An unreadable X is -1 (refused by the rules)."""
        path = self.map.meaning("right", wheels[2])
        if path not in PATHS:
            return UNREADABLE
        lit = current_paths.get(path)
        number = None
        if lit is not None and lit.choose is not None:
            n = self.map.meaning("centre", wheels[1])
            number = n if isinstance(n, int) and not isinstance(n, bool) else -1
        return Choice(path, number)

    # ---- setting a controller (bots, the keyboard)
    def wheels_for(self, kind: str, answer: Any) -> dict[str, int]:
        """The wheel positions that give ``answer`` to a ``kind`` prompt."""
        if kind == "program":
            choice = answer if isinstance(answer, Choice) else (
                Choice(*answer) if isinstance(answer, (tuple, list)) else Choice(answer))
            out = {"right": self.map.position_for("right", choice.path)}
            if choice.number is not None:
                out["centre"] = self.map.position_for("centre", choice.number)
            return out
        return {"left": self.map.position_for("left", "none" if answer is None else answer)}

    # ---- lights and hints
    def lights(self, kind: str | None, lit_paths: Any = ()) -> tuple[bool, bool, bool]:
        if kind == "program":
            return ("left" in lit_paths, "center" in lit_paths, "right" in lit_paths)
        if kind in ("bonus", "keep"):
            return (True, False, False)
        return (False, False, False)

    def hint(self, kind: str | None, tokens: Any = ()) -> tuple[int, int, int]:
        """The private hint of a player choosing a token: the left-wheel stops whose meaning
        is accepted now. ``bonus``: ``tokens`` are the plays the engine allows (None: play
        none, the stop "none"); ``keep``: the two tokens drawn. Nothing otherwise."""
        allowed = set(tokens)
        if kind == "bonus":
            return self.left_hint(lambda m: (None if m == "none" else m) in allowed)
        if kind == "keep":
            return self.left_hint(lambda m: m in allowed)
        return (0, 0, 0)

    @staticmethod
    def refused_wheels(code: str) -> int:
        """The wheels a refusal points at (bits: 1 left, 2 centre, 4 right): the path and X
        wheels for a choice that must be reprogrammed, else the left wheel (a token)."""
        return 0b110 if code == "must_reprogram" else 0b001

    def left_hint(self, accepted: Any) -> tuple[int, int, int]:
        """The private hint: the left-wheel stops whose meaning ``accepted(meaning)``."""
        mask = 0
        for position, meaning in self.map.meanings("left").items():
            if 0 <= position < 16 and accepted(meaning):
                mask |= 1 << position
        return (mask, 0, 0)


class PromptControls:
    """Outspeed's controls for the console's session (:mod:`bitbox.table.controls`): the
    protocol's prompts (``bonus``, ``program``, ``keep``: :mod:`outspeed.cartridge`) read from
    and set on the wheels as the table above says, with the optional members the session asks
    of a game: the bonus phase asked zone by zone from the front (``order``; a player holding
    no token is not asked), that a player plays a token or none said once locked in
    (``declared``), the path lights, the wheels a refusal points at and the keyboard's pad."""

    def __init__(self, wheel_map: WheelMap) -> None:
        self.wheels = Controls(wheel_map)
        self.map = wheel_map

    def read(self, prompt: Any, wheels: tuple[int, int, int]) -> Any:
        """The answer the wheels name; ValueError when they name none (None is "no token")."""
        if prompt.kind == "program":
            path = self.map.meaning("right", wheels[2])
            if path not in PATHS:
                raise ValueError(f"no path at stop {wheels[2]}")
            number = None
            if any(getattr(o, "path", None) == path and o.number is not None for o in prompt.options):
                n = self.map.meaning("centre", wheels[1])
                number = n if isinstance(n, int) and not isinstance(n, bool) else -1
            return Choice(path, number)
        token = self.wheels.token(wheels) if prompt.kind == "bonus" else self.wheels.kept(wheels)
        if token is UNREADABLE or (prompt.kind != "bonus" and token not in TOKENS):
            raise ValueError(f"no token at stop {wheels[0]}")
        return token

    def wheels_for(self, prompt: Any, action: Any) -> tuple[int, int, int]:
        set_ = self.wheels.wheels_for(prompt.kind, action)
        return (set_.get("left", 0), set_.get("centre", 0), set_.get("right", 0))

    def hint(self, prompt: Any) -> tuple[int, int, int]:
        return self.wheels.hint(prompt.kind, prompt.options)

    def lights(self, game: Any, prompt: Any) -> tuple[bool, bool, bool]:
        engine = getattr(game, "engine", game)
        return self.wheels.lights(prompt.kind, tuple(engine.current_paths) if prompt.kind == "program" else ())

    @staticmethod
    def refused_wheels(kind: str) -> int:
        return Controls.refused_wheels("must_reprogram" if kind == "program" else "must_redeclare")

    @staticmethod
    def order(game: Any, prompts: Any) -> list[list[str]]:
        """The bonus phase zone by zone, from the front: the players holding a token (the others
        play none, which is public); any other phase at once."""
        if not prompts or prompts[0].kind != "bonus":
            return [[p.player for p in prompts]]
        s = getattr(game, "engine", game).state
        holders = [p.player for p in prompts if s.held[p.player]]
        return [[p for p in holders if s.zone[p] == z] for z in sorted({s.zone[p] for p in holders}, reverse=True)]

    @staticmethod
    def declared(prompt: Any, action: Any) -> str | None:
        """That a player plays a token (not which) is public once they lock it."""
        if prompt.kind != "bonus":
            return None
        return "declared_token" if action is not None else "declared_none"

    def pad_lines(self, words: Any, view: Mapping[str, Any], prompt: Any, action: Any) -> list[str]:
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
