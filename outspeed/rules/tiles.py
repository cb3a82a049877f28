"""Tiles as values: paths, effects and amounts, parsed from the tile format of docs/scenarios.md.

A tile has a "3-4" face and a "5-6" face; a face has up to three lit paths (left ●,
centre ▲, right ●); a path has an optional condition (capacity, solo rule, a centre-wheel
number range), a cost line and a gain line. Everything here is immutable and pure: parsing
takes already-loaded data (dicts and lists, as from ``yaml.safe_load``) and raises
:class:`TileError` naming the tile, the face, the path and the field that is wrong. Reading
files is the job of :mod:`outspeed.content`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, TypeGuard, cast

PATHS: tuple[str, ...] = ("left", "center", "right")
FACES: tuple[str, ...] = ("3-4", "5-6")
EFFECTS: tuple[str, ...] = ("fuel", "move", "bonus")
DICE: tuple[str, ...] = ("yellow", "blue")
#: a path key as English says it (`outspeed tiles show`): the key ``center`` (tiles.yaml, the
#: wire, the engine's own event text) is the centre path; the table's words are the catalogues'
PATH_NAMES = {"left": "left", "center": "centre", "right": "right"}
PATH_SYMBOL = {"left": "●", "center": "▲", "right": "●"}


class TileError(ValueError):
    """A tile that does not follow the tile format; ``where`` names the place in it."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message


@dataclass(frozen=True, slots=True)
class Amount:
    """How much an effect is worth.

    ``kind`` is ``"fixed"`` (``value`` is the number), ``"die"`` (roll ``die`` ``times``
    times and sum; a yellow −3 counts 3), ``"count"`` (players who programmed ``path``)
    or ``"chosen"`` (the player's centre-wheel number).
    """

    kind: str
    value: int = 0
    die: str = ""                 # kind "die" only
    times: int = 1
    path: str = ""                # kind "count" only

    def to_data(self) -> Any:
        if self.kind == "fixed":
            return self.value
        if self.kind == "die":
            return {"die": self.die} if self.times == 1 else {"die": self.die, "times": self.times}
        if self.kind == "count":
            return {"count": self.path}
        return "chosen"

    def describe(self) -> str:
        if self.kind == "fixed":
            return str(self.value)
        if self.kind == "die":
            return f"{self.die} die" if self.times == 1 else f"{self.die} die ×{self.times}"
        if self.kind == "count":
            return f"players on {PATH_NAMES.get(self.path, self.path)}"
        return "X"


@dataclass(frozen=True, slots=True)
class Effect:
    """One symbol of a cost or gain line: ``kind`` is fuel, move or bonus."""

    kind: str
    amount: Amount

    def to_data(self) -> dict[str, Any]:
        return {self.kind: self.amount.to_data()}

    def describe(self) -> str:
        return f"{self.kind} {self.amount.describe()}"


@dataclass(frozen=True, slots=True)
class Path:
    key: str
    cost: tuple[Effect, ...] = ()
    gain: tuple[Effect, ...] = ()
    capacity: int | None = None
    solo: bool = False
    choose: tuple[int, int] | None = None  # (min, max) for a centre-wheel number
    # Derived from the lines above once, for the engine's resolution, which runs them a
    # few hundred thousand times in a simulation: not part of the value (no init, repr or
    # comparison). Each amount is the plain int of a printed number, else the Amount.
    cost_plan: tuple[int | Amount, ...] = field(init=False, repr=False, compare=False)
    fixed_cost: int | None = field(init=False, repr=False, compare=False)   # the cost if all numbers
    one_cost: bool = field(init=False, repr=False, compare=False)           # a single cost amount
    gain_plan: tuple[tuple[str, int | Amount], ...] = field(init=False, repr=False, compare=False)
    # A gain line of printed numbers only: (zones moved, the fuel gains that are not 0 in
    # order, tokens drawn); else None.
    fixed_gain: tuple[int, tuple[int, ...], int] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cost = tuple(e.amount.value if e.amount.kind == "fixed" else e.amount for e in self.cost)
        fixed = sum(cast("tuple[int, ...]", cost)) if all(type(a) is int for a in cost) else None
        gain = tuple((e.kind, e.amount.value if e.amount.kind == "fixed" else e.amount) for e in self.gain)
        fixed_gain = None
        if all(type(a) is int for _, a in gain):
            ints = cast("tuple[tuple[str, int], ...]", gain)
            fixed_gain = (sum(a for k, a in ints if k == "move"), tuple(a for k, a in ints if k == "fuel" and a),
                          sum(a for k, a in ints if k == "bonus"))
        for name, value in (("cost_plan", cost), ("fixed_cost", fixed), ("one_cost", len(cost) == 1),
                            ("gain_plan", gain), ("fixed_gain", fixed_gain)):
            object.__setattr__(self, name, value)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.capacity is not None:
            data["capacity"] = self.capacity
        if self.solo:
            data["solo"] = True
        if self.choose is not None:
            data["choose"] = {"min": self.choose[0], "max": self.choose[1]}
        data["cost"] = [e.to_data() for e in self.cost]
        data["gain"] = [e.to_data() for e in self.gain]
        return data

    def describe(self) -> str:
        cond = []
        if self.capacity is not None:
            cond.append(f"capacity {self.capacity}")
        if self.solo:
            cond.append("alone: gain without paying; several: pay, no gain")
        if self.choose is not None:
            cond.append(f"choose X from {self.choose[0]} to {self.choose[1]}")
        cost = ", ".join(e.describe() for e in self.cost) or "nothing"
        gain = ", ".join(e.describe() for e in self.gain) or "nothing"
        return f"condition: {'; '.join(cond) or '-'} | cost: {cost} | gain: {gain}"


_VIEW_DATA = ("view data",)     # Tile._derived's key for view_data (the engine's keys are faces)


@dataclass(frozen=True, slots=True)
class Tile:
    number: int
    finish: bool
    faces: Mapping[str, Mapping[str, Path]] = field(default_factory=dict)
    _label: str = field(init=False, repr=False, compare=False)   # label(), made once
    # What the engine derives from a face (its paths' fuel thresholds), kept with the tile so
    # that a simulation of many games derives it once; a cache, not part of the value.
    _derived: dict[Any, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_label", f"{'finish tile' if self.finish else 'tile'} {self.number}")
        object.__setattr__(self, "_derived", {})

    def face(self, name: str) -> Mapping[str, Path]:
        try:
            return self.faces[name]
        except KeyError:
            raise TileError(f"tile {self.number}", f"has no {name!r} face") from None

    def to_data(self) -> dict[str, Any]:
        """The tile as data (a new dict: the caller may keep or change it)."""
        return {
            "number": self.number,
            "finish": self.finish,
            "faces": {
                name: {k: (paths[k].to_data() if k in paths else None) for k in PATHS}
                for name, paths in self.faces.items()
            },
        }

    def view_data(self) -> dict[str, Any]:
        """:meth:`to_data`, made once per tile and shared by every view that shows the tile
        (the public view's ``tile``): read it, never change it. A tile is immutable, so its
        data never changes; the views are built at every step of a simulation or an
        environment, and serialising the tile was a tenth of such a step."""
        data = self._derived.get(_VIEW_DATA)
        if data is None:
            data = self._derived[_VIEW_DATA] = self.to_data()
        return data

    def label(self) -> str:
        return self._label


# --------------------------------------------------------------------------- parsing

def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


MAX_AMOUNT = 100   # no printed tile comes near; bounds keep a wrong file from hanging the table
MAX_TIMES = 10


def parse_amount(data: Any, where: str, dice: tuple[str, ...] = DICE) -> Amount:
    if _is_int(data):
        if not 0 <= data <= MAX_AMOUNT:
            raise TileError(where, f"a number must be from 0 to {MAX_AMOUNT}, not {data}")
        return Amount("fixed", value=data)
    if data == "chosen":
        return Amount("chosen")
    if isinstance(data, Mapping):
        keys = set(data)
        if "die" in keys:
            unknown = keys - {"die", "times"}
            if unknown:
                raise TileError(where, f"unknown key(s) {sorted(map(str, unknown))} beside 'die'")
            die = data["die"]
            if die not in dice:
                raise TileError(f"{where}.die", f"unknown die {die!r} (known: {', '.join(dice)})")
            times = data.get("times", 1)
            if not _is_int(times) or not 1 <= times <= MAX_TIMES:
                raise TileError(f"{where}.times", f"must be a whole number from 1 to {MAX_TIMES}, not {times!r}")
            return Amount("die", die=die, times=times)
        if "count" in keys:
            if keys != {"count"}:
                raise TileError(where, f"unknown key(s) {sorted(map(str, keys - {'count'}))} beside 'count'")
            path = data["count"]
            if path not in PATHS:
                raise TileError(f"{where}.count", f"must be one of {', '.join(PATHS)}, not {path!r}")
            return Amount("count", path=path)
        raise TileError(where, f"an amount mapping needs 'die' or 'count', got keys {sorted(map(str, keys))}")
    raise TileError(where, f"an amount is a whole number, 'chosen', {{die: ...}} or {{count: ...}}, not {data!r}")


def parse_effect(data: Any, where: str, allowed: tuple[str, ...], dice: tuple[str, ...] = DICE) -> Effect:
    if not isinstance(data, Mapping) or len(data) != 1:
        raise TileError(where, f"an effect is a one-key mapping like {{move: 2}}, not {data!r}")
    ((kind, amount),) = data.items()
    if kind not in EFFECTS:
        raise TileError(where, f"unknown effect {kind!r} (known: {', '.join(EFFECTS)})")
    if kind not in allowed:
        raise TileError(where, f"a cost line holds only fuel, not {kind!r}")
    return Effect(kind, parse_amount(amount, f"{where}.{kind}", dice))


PATH_KEYS = {"capacity", "solo", "choose", "cost", "gain"}


def parse_path(key: str, data: Any, where: str, dice: tuple[str, ...] = DICE) -> Path:
    if not isinstance(data, Mapping):
        raise TileError(where, f"a path is a mapping (or null for an unlit path), not {data!r}")
    unknown = set(map(str, data)) - PATH_KEYS
    if unknown:
        raise TileError(f"{where}, field {sorted(unknown)[0]}", f"unknown field (known: {', '.join(sorted(PATH_KEYS))})")
    capacity = data.get("capacity")
    if capacity is not None and (not _is_int(capacity) or not 1 <= capacity <= 6):
        raise TileError(f"{where}, field capacity", f"must be a whole number from 1 to 6 (player silhouettes), not {capacity!r}")
    solo = data.get("solo", False)
    if not isinstance(solo, bool):
        raise TileError(f"{where}, field solo", f"must be true or false, not {solo!r}")
    choose = None
    if data.get("choose") is not None:
        c = data["choose"]
        if not isinstance(c, Mapping) or set(c) != {"min", "max"}:
            raise TileError(f"{where}, field choose", f"must be {{min: N, max: M}}, not {c!r}")
        lo, hi = c["min"], c["max"]
        if not (_is_int(lo) and _is_int(hi) and 0 <= lo <= hi <= MAX_AMOUNT):
            raise TileError(f"{where}, field choose", f"needs whole numbers 0 ≤ min ≤ max ≤ {MAX_AMOUNT}, not {c!r}")
        choose = (lo, hi)
    lines: dict[str, tuple[Effect, ...]] = {}
    for line, allowed in (("cost", ("fuel",)), ("gain", EFFECTS)):
        raw = data.get(line, [])
        if raw is None:
            raw = []
        if not isinstance(raw, list):
            raise TileError(f"{where}, field {line}", f"must be a list of effects, not {raw!r}")
        lines[line] = tuple(parse_effect(e, f"{where}, field {line}[{i}]", allowed, dice) for i, e in enumerate(raw))
    uses_chosen = any(e.amount.kind == "chosen" for e in lines["cost"] + lines["gain"])
    if uses_chosen and choose is None:
        raise TileError(f"{where}, field choose", "a path using 'chosen' must say choose: {min: 1, max: 6}")
    if choose is not None and not uses_chosen:
        raise TileError(f"{where}, field choose", "a path with choose must use the amount 'chosen'")
    return Path(key, lines["cost"], lines["gain"], capacity, solo, choose)


TILE_KEYS = {"number", "finish", "faces"}


def parse_tile(data: Any, where: str = "", dice: tuple[str, ...] = DICE,
               require_faces: tuple[str, ...] = FACES, max_number: int | None = 16) -> Tile:
    """Parse one tile. ``require_faces`` lists the faces that must be present (inline
    scenario tiles may give only the faces they use); ``max_number`` is None for inline tiles,
    which may also count a path that is not lit (it counts 0); a tile set may not."""
    if not isinstance(data, Mapping):
        raise TileError(where or "tile", f"a tile is a mapping with number, finish and faces, not {data!r}")
    number = data.get("number")
    label = f"{where + ': ' if where else ''}tile {number}"
    if not _is_int(number) or number < 1 or number > (max_number or 10**6):
        top = f" to {max_number or 10**6}"
        raise TileError(f"{where + ': ' if where else ''}tile", f"'number' must be a whole number from 1{top}, not {number!r}")
    unknown = set(map(str, data)) - TILE_KEYS
    if unknown:
        raise TileError(label, f"unknown field {sorted(unknown)[0]!r} (known: faces, finish, number)")
    finish = data.get("finish", False)
    if not isinstance(finish, bool):
        raise TileError(f"{label}, field finish", f"must be true or false, not {finish!r}")
    if max_number == 16 and finish != (number >= 13):
        raise TileError(f"{label}, field finish", "tiles 1-12 are race tiles (finish: false), 13-16 finish tiles (finish: true)")
    faces_data = data.get("faces")
    if not isinstance(faces_data, Mapping):
        raise TileError(f"{label}, field faces", f"must map \"3-4\" and/or \"5-6\" to paths, not {faces_data!r}")
    faces: dict[str, dict[str, Path]] = {}
    for name, paths in faces_data.items():
        fwhere = f"{label}, face {name}"
        if name not in FACES:
            raise TileError(fwhere, f"unknown face (known: {', '.join(FACES)}; quote them in YAML)")
        if not isinstance(paths, Mapping):
            raise TileError(fwhere, f"a face maps left/center/right to paths, not {paths!r}")
        bad = set(map(str, paths)) - set(PATHS)
        if bad:
            raise TileError(f"{fwhere}, path {sorted(bad)[0]}", f"unknown path (known: {', '.join(PATHS)})")
        parsed = {k: parse_path(k, paths[k], f"{fwhere}, path {k}", dice)
                  for k in PATHS if paths.get(k) is not None}
        if not parsed:
            raise TileError(fwhere, "no lit path: a face needs at least one path")
        for k, path in parsed.items():
            for i, e in enumerate(path.cost + path.gain):
                if e.amount.kind == "count" and e.amount.path not in parsed and max_number is not None:
                    raise TileError(f"{fwhere}, path {k}, field {e.kind}",
                                    f"counts path {e.amount.path!r}, which is not lit on this face")
        faces[name] = parsed
    missing = [f for f in require_faces if f not in faces]
    if missing:
        raise TileError(label, f"missing face {missing[0]!r}")
    return Tile(number, finish, faces)
