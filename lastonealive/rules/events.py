"""What happened in a game of Last One Alive, in words a table display can show.

An :class:`Event` is a ``kind`` and its ``data`` (a dict of plain values); :meth:`Event.text`
renders it in English. Events are public by construction: the engine never puts a hidden
fact in one (the object side of a token drawn face down, the bag's order). Private facts are
read from :meth:`lastonealive.rules.Game.private_view`.
"""
from __future__ import annotations

from typing import Any, Callable

FACE_WORDS = {
    "blank": "a blank", "ambush": "an ambush", "zombie1": "1 zombie", "zombie2": "2 zombies",
    "bang1": "1 bang", "bang2": "2 bangs", "bang1plus": "1 bang +", "object": "an object",
    "barricade": "a barricade",
}

TOKEN_WORDS = {
    "axe": "an axe", "chainsaw": "a chainsaw", "flare": "a flare", "pistol": "a pistol",
    "medkit": "a medkit", "radio": "a radio", "barricade": "a barricade", "hero": "a hero token",
}


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def roll_summary(faces: list[str]) -> str:
    """"2 zombies, an ambush, 2 bangs (1 +), an object" for a list of faces."""
    zombies = sum(2 if f == "zombie2" else 1 for f in faces if f in ("zombie1", "zombie2"))
    ambush = faces.count("ambush")
    bangs = sum({"bang1": 1, "bang2": 2, "bang1plus": 1}.get(f, 0) for f in faces)
    plus = faces.count("bang1plus")
    objects = faces.count("object")
    barricades = faces.count("barricade")
    blanks = faces.count("blank")
    parts = []
    if zombies:
        parts.append(_plural(zombies, "zombie"))
    if ambush:
        parts.append("an ambush" if ambush == 1 else f"{ambush} ambushes")
    if bangs:
        parts.append(_plural(bangs, "bang") + (f" ({plus} +)" if plus else ""))
    if objects:
        parts.append("an object" if objects == 1 else f"{objects} objects")
    if barricades:
        parts.append("a barricade" if barricades == 1 else f"{barricades} barricades")
    if blanks:
        parts.append("a blank" if blanks == 1 else f"{blanks} blanks")
    return ", ".join(parts) or "nothing"


def _dice(d: list[Any]) -> str:
    return ", ".join(f"{i} ({FACE_WORDS.get(f, f)})" for i, f in d)


_TEMPLATES: dict[str, Callable[[dict[str, Any]], str]] = {
    "setup_draw": lambda d: (f"{d['player']} places {TOKEN_WORDS[d['token']]} face up" if d["side"] == "object"
                             else f"{d['player']} places a token face down (barricade)"),
    "starting_zombie": lambda d: f"{d['player']} starts with a 1-zombie die in front",
    "turn": lambda d: f"{d['player']}'s turn (apocalypse level {d['level']})",
    "token_used": lambda d: f"{d['player']} uses {TOKEN_WORDS[d['token']]}" + (f": {d['what']}" if d.get("what") else ""),
    "given": lambda d: f"{d['player']} gives {_dice(d['dice'])} to {d['to']}" + (f" [{d['why']}]" if d.get("why") else ""),
    "radios_back": lambda d: f"{d['player']} cannot take the radios' dice from the pool: the radios go back to their hand",
    "dice_taken": lambda d: (f"{d['player']} takes {_plural(d['forced'], 'forced zombie die', 'forced zombie dice')}"
                             + f" and chooses {', '.join(_plural(n, f'{t} die', f'{t} dice') for t, n in d['chosen'] if n) or 'nothing'}"),
    "rolled": lambda d: f"{d['player']} rolls {roll_summary([f for _, f in d['dice']])}",
    "rerolled": lambda d: f"{d['player']} re-rolls {_dice(d['dice'])}" + (f" [{d['why']}]" if d.get("why") else ""),
    "assigned": lambda d: (f"{d['player']} gets {_plural(len(d['ambush']), 'ambush die', 'ambush dice')}" if d["ambush"] else "")
                          + (" and " if d["ambush"] and d["zombies"] else "")
                          + (f"{d['left']} gets {_plural(d['zombies'], 'zombie')}" if d["zombies"] else "")
                          + ("no zombie and no ambush" if not d["ambush"] and not d["zombies"] else ""),
    "drew": lambda d: f"{d['player']} draws {TOKEN_WORDS[d['token']]}",
    "drew_face_down": lambda d: f"{d['player']} draws a token and keeps it face down (barricade)",
    "bag_empty": lambda d: f"{d['player']} finds the bag empty",
    "apocalypse": lambda d: f"{d['player']} draws an apocalypse token: the level rises to {d['level']}",
    "night": lambda d: f"{d['player']} draws the night token: night falls, the level rises to {d['level']}",
    "day": lambda d: f"{d['player']} draws the day token: day breaks, the level falls to {d['level']}",
    "bangs": lambda d: f"{d['player']} has {_plural(d['bangs'], 'bang')}"
                       + (f" (\"+\" re-rolls: {', '.join(d['chain'])})" if d.get("chain") else "")
                       + (f", doubled {d['doublings']}×" if d.get("doublings") else ""),
    "shot": lambda d: f"{d['player']} shoots {d['die']} with {_plural(d['bangs'], 'bang')}"
                      + (": it is cleared" if d["cleared"] else f": {FACE_WORDS[d['face']]} left"),
    "hero_gained": lambda d: f"{d['player']} gains a hero token" + (f" ({d['why']})" if d.get("why") else ""),
    "barricades": lambda d: f"{d['player']} has {_plural(d['results'], 'barricade result')}",
    "discarded": lambda d: f"{d['player']} discards {', '.join(TOKEN_WORDS[t] for t in d['tokens'])} (over the limit)",
    "medkit": lambda d: f"{d['player']}'s medkit rolls {FACE_WORDS[d['face']]}: " + ("saved!" if d["saved"] else "no luck"),
    "overrun": lambda d: f"{d['player']} is overrun" + (f" and loses a life ({d['lives']} left)" if d.get("lives") else ""),
    "eliminated": lambda d: f"{d['player']} is out of the game (zombified)",
    "level": lambda d: f"the apocalypse level rises to {d['level']} ({d['why']})",
    "zombified_roll": lambda d: (f"zombified {d['player']} rolls {FACE_WORDS[d['face']]}"
                                 + (f": {d['to']} gets it" if d.get("to") else "")) if d.get("face") else
                                f"zombified {d['player']} finds no zombie die in the pool",
    "game_over": lambda d: ("game over: " + (" and ".join(d["winners"]) + (" share the victory" if len(d["winners"]) > 1 else " wins"))
                            + (f" ({d['why']})" if d.get("why") else "")
                            + (" — scores: " + ", ".join(f"{p} {s}" for p, s in d["scores"].items()) if d.get("scores") else "")),
}


class Event:
    """What happened: a ``kind`` and its ``data``.

    ``Event(kind, data)`` is the public way to make one. The engine makes about sixty a game
    and most are never read (simulations), so it makes them with :func:`_event` from the
    data's keys (a constant tuple written where the event is emitted) and its values: the
    data dict is zipped from them when first read. Both kinds compare, print and serialise
    the same."""

    __slots__ = ("kind", "_keys", "_values", "_data")
    kind: str
    _keys: tuple[str, ...]
    _values: tuple[Any, ...]
    _data: dict[str, Any]

    def __init__(self, kind: str, data: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self._data = data or {}

    @property
    def data(self) -> dict[str, Any]:
        try:
            return self._data
        except AttributeError:
            d = self._data = dict(zip(self._keys, self._values))
            return d

    @data.setter
    def data(self, value: dict[str, Any]) -> None:
        self._data = value

    @property
    def player(self) -> str | None:
        return self.data.get("player")

    def text(self) -> str:
        return _TEMPLATES[self.kind](self.data)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.data!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.kind, self.data) == (other.kind, other.data)

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> tuple[str, dict[str, Any]]:
        return self.kind, self.data

    def __setstate__(self, state: tuple[str, dict[str, Any]]) -> None:
        self.kind, self._data = state

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}


_new_event = object.__new__


def _event(kind: str, keys: tuple[str, ...], values: tuple[Any, ...]) -> Event:
    """The event ``kind`` with data ``dict(zip(keys, values))``, zipped when first read: the
    engine's way to make its events (``values`` made when the event happens, so they are
    what was true then)."""
    e = _new_event(Event)
    e.kind = kind
    e._keys = keys
    e._values = values
    return e
