"""Players who are not people with a controller: bots and the keyboard hot-seat.

Both act through a simulated controller (anything with ``set(left=, centre=, right=,
locked=)``, e.g. ``bitbox.sim.SimController``): they turn its wheels and close its lock, the
hub reports that like any controller, and the session referees it exactly as it would a
real one. So a demo exercises the same path as a table of real controllers.

A bot's decisions are seeded from the game's seed, the player and the number of inputs the
game has taken so far, so a game resumed from the journal continues exactly as it would
have without the interruption. The seed enters only through SHA-256 (one way): with a secret
128-bit seed (a game without ``--seed``), a bot's decisions, which the table sees, cannot be
searched back to the seed and the hidden state it gives.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from bitbox.table.referee import decision_seed

from ..controls import Controls
from ..rules import TOKENS, Choice
from .referee import Session

@dataclass
class _Plan:
    key: tuple
    at: float
    wheels: dict[str, int]              # wheel -> position to set
    last_unlock: float = -1e9


class BotDriver:
    """Plays ``player`` with ``bot`` (an :class:`outspeed.bots.Bot`) on controller ``sim``."""

    def __init__(self, player: str, sim: Any, bot: Any, wheel_map: Any, *, seed: int = 0,
                 think: float = 0.0) -> None:
        self.player = player
        self.sim = sim
        self.bot = bot
        self.wheels = wheel_map
        self.controls = Controls(wheel_map)
        self.seed = seed
        self.think = think
        self._plan: _Plan | None = None

    def _decide(self, session: Session, kind: str) -> dict[str, int]:
        rng = getattr(self.bot, "rng", None)
        if rng is not None:
            rng.seed(decision_seed(self.seed, self.player, session.inputs_applied, kind))
        view = session.private_view(self.player)
        options = session.options(self.player)
        if kind == "bonus":
            return self.controls.wheels_for(kind, self.bot.bonus(view, options))
        if kind == "program":
            return self.controls.wheels_for(kind, self.bot.program(view, options))
        return self.controls.wheels_for(kind, self.bot.keep(view, options))

    def update(self, session: Session, now: float) -> None:
        kind = session.awaiting(self.player)
        if kind is None:
            self._plan = None
            return
        key = (session.inputs_applied, session.prompt_id, kind)
        if self._plan is None or self._plan.key != key:
            self._plan = _Plan(key, now + self.think, self._decide(session, kind))
        plan = self._plan
        if now < plan.at:
            return
        c = session.controller(self.player)
        if c.locked:
            names = ("left", "centre", "right")
            mismatch = any(c.wheels[names.index(w)] != pos for w, pos in plan.wheels.items())
            if (c.stale or mismatch or self.player in session.refused) and now - plan.last_unlock > 0.25:
                plan.last_unlock = now
                self.sim.set(locked=False)
            return
        self.sim.set(left=plan.wheels.get("left"), centre=plan.wheels.get("centre"),
                     right=plan.wheels.get("right"), locked=True)


class KeyboardDriver:
    """Hot-seat: the people share one keyboard. The player the table waits for (in seat
    order) is at the keyboard; ←/→ choose (a path, or a token), ↑/↓ set X, Enter locks,
    Backspace unlocks, Tab shows or hides their own choice on the screen (the others look
    away). Their choice reaches the session through their simulated controller."""

    def __init__(self, sims: Mapping[str, Any], wheel_map: Any) -> None:
        self.sims = dict(sims)
        self.wheels = wheel_map
        self.controls = Controls(wheel_map)
        self.shown = False
        self._sel: dict[str, dict[str, Any]] = {}
        self._current: str | None = None
        self._key: tuple | None = None

    def current(self, session: Session) -> str | None:
        for p, _sim in self.sims.items():
            if session.awaiting(p) is not None and not (session.controller(p).locked and not session.controller(p).stale
                                                        and p not in session.refused):
                return p
        return None

    def _choices(self, session: Session, player: str, kind: str) -> list[Any]:
        if kind == "program":
            return list(session.game.current_paths)
        if kind == "bonus":
            view = session.private_view(player)
            held = set(view.get("held", ()))
            return [None] + [t for t in TOKENS if t in held or "unknown" in held]
        return list(session.options(player) or [])

    def update(self, session: Session, now: float) -> None:
        p = self.current(session)
        key = (p, session.prompt_id, session.inputs_applied)
        if key != self._key:
            self._key = key
            self.shown = False
            if p is not None:
                self._sel[p] = {"i": 0, "x": 1}
        self._current = p

    def key(self, session: Session, name: str) -> None:
        """``name``: left, right, up, down, enter, backspace, tab."""
        p = self._current
        if p is None:
            return
        kind = session.awaiting(p)
        if kind is None:
            return
        sel = self._sel.setdefault(p, {"i": 0, "x": 1})
        choices = self._choices(session, p, kind)
        sim = self.sims[p]
        if name == "tab":
            self.shown = not self.shown
        elif name in ("left", "right") and choices:
            sel["i"] = (sel["i"] + (1 if name == "right" else -1)) % len(choices)
        elif name in ("up", "down"):
            sel["x"] = max(0, min(6, sel["x"] + (1 if name == "up" else -1)))
        elif name == "backspace":
            sim.set(locked=False)
        elif name == "enter" and choices:
            c = session.controller(p)
            if c.locked:
                sim.set(locked=False)       # open first; Enter again locks the choice
                return
            value = choices[sel["i"] % len(choices)]
            if kind == "program":
                sim.set(**self.controls.wheels_for(kind, Choice(value, sel["x"])), locked=True)
            else:
                sim.set(**self.controls.wheels_for(kind, value), locked=True)

    def pad(self, session: Session, lang: Any) -> dict[str, Any] | None:
        """What the pad shows (only the acting player's own choice, and only when shown)."""
        p = self._current
        if p is None:
            return None
        kind = session.awaiting(p)
        if kind is None:
            return None
        pad: dict[str, Any] = {"player": p, "shown": self.shown}
        if self.shown:
            sel = self._sel.get(p, {"i": 0, "x": 1})
            choices = self._choices(session, p, kind)
            value = choices[sel["i"] % len(choices)] if choices else None
            lines = []
            if kind == "program":
                lines.append(f"▶ {lang.path(value)}")
                path = session.game.current_paths.get(value) if value is not None else None
                if path is not None and path.choose is not None:
                    lines.append(f"X = {sel['x']}")
            else:
                lines.append(f"▶ {lang.token(value)}")
            held = session.private_view(p).get("held", [])
            if held:
                lines.append(", ".join(lang.token(t) for t in held))
            if kind == "keep":
                lines.append(" / ".join(lang.token(t) for t in choices))
            pad["lines"] = lines
        return pad
