"""What happened, in words a table display can show.

An :class:`Event` is a kind plus its data; :meth:`Event.text` renders it in English and a
display translates by kind (see ``outspeed.display``). Events are public by construction:
the engine only emits an event once what it says is known to the whole table (bonus plays
after the bonus reveal, paths after the programming reveal). Private facts (which tokens a
player drew) are never events; they are read from :meth:`Game.private_view`.
"""
from __future__ import annotations

from enum import StrEnum
from typing import Any, Callable

class EventKind(StrEnum):
    """The kinds of event, defined once: code matches ``event.kind`` against these members,
    never against strings. A member is a ``str`` equal to its value (``EventKind.TURN ==
    "turn"``), which is what journals, logs and ``to_data()`` hold, so those are unchanged."""

    TURN = "turn"
    BONUS_PLAYED = "bonus_played"
    BONUS_NONE = "bonus_none"
    MOVED = "moved"
    FUEL = "fuel"
    MARKER_PLACED = "marker_placed"
    NO_MARKER_LEFT = "no_marker_left"
    NOTHING_AHEAD = "nothing_ahead"
    BOARD_LAID = "board_laid"
    BOARD_REMOVED = "board_removed"
    ELIMINATED = "eliminated"
    PROGRAMMED = "programmed"
    LOSE_TURN = "lose_turn"
    SOLO_ALONE = "solo_alone"
    SOLO_CROWD = "solo_crowd"
    ROLL = "roll"
    PAY = "pay"
    DRAW = "draw"
    DRAW_EMPTY = "draw_empty"
    RESHUFFLE = "reshuffle"
    FLIP = "flip"
    MARKERS_REMOVED = "markers_removed"
    TILE_REVEALED = "tile_revealed"
    GAME_OVER = "game_over"


TOKEN_NAMES = {
    "nitro": "nitro",
    "fuel_tank": "fuel tank",
    "flamethrower": "flamethrower",
    "force_field": "force field",
    "electromagnet": "electromagnet",
    "ion_cannon": "ion cannon",
    "unknown": "a token",
}

CAUSES = {
    "fuel": "out of fuel",
    "overpaid": "could not pay the cost",
    "board": "left on the removed board",
    "pushed": "pushed off the back of the track",
}


def _signed(n: int) -> str:
    return f"−{-n}" if n < 0 else f"+{n}" if n > 0 else "0"


def _breakdown(parts: list[Any]) -> str:
    # parts: [[label, value], ...] e.g. [["", 1], ["yellow die", -3]]
    out = []
    for label, value in parts:
        if label.endswith("die"):
            out.append(f"{label} {'−' if label.startswith('yellow') else ''}{abs(value)}")
        elif label:
            out.append(f"{label} {value}")
        else:
            out.append(str(value))
    return " + ".join(out)


_TEMPLATES: dict[EventKind, Callable[[dict[str, Any]], str]] = {
    EventKind.TURN: lambda d: f"Turn {d['turn']}: {d['tile']} ({d['face']} face)",
    EventKind.BONUS_PLAYED: lambda d: f"{d['player']} plays {TOKEN_NAMES[d['token']]}",
    EventKind.BONUS_NONE: lambda d: "no bonus token played",
    EventKind.MOVED: lambda d: (f"{d['player']} moves {'forward' if d['to'] > d['from'] else 'back'} "
                        f"{abs(d['to'] - d['from'])} (zone {d['from']} → {d['to']})"
                        + (", stopped by a force field" if d.get("stopped") else "")
                        + (f" [{d['why']}]" if d.get("why") else "")),
    EventKind.FUEL: lambda d: (f"{d['player']} {'gains' if d['delta'] > 0 else 'loses'} {abs(d['delta'])} fuel"
                       + (f" [{d['why']}]" if d.get("why") else "") + f" → {d['total']}"),
    EventKind.MARKER_PLACED: lambda d: f"{d['player']} places a force field on zone {d['zone']}",
    EventKind.NO_MARKER_LEFT: lambda d: f"{d['player']}'s force field has no marker left",
    EventKind.NOTHING_AHEAD: lambda d: f"{d['player']}'s {TOKEN_NAMES[d['token']]} finds no ship ahead",
    EventKind.BOARD_LAID: lambda d: f"a third board is laid: the track now ends at zone {d['front']}",
    EventKind.BOARD_REMOVED: lambda d: f"the rearmost board (zones {d['first']}–{d['last']}) is removed",
    EventKind.ELIMINATED: lambda d: f"{d['player']} is eliminated: {CAUSES[d['cause']]}",
    EventKind.PROGRAMMED: lambda d: f"{d['player']} takes the {d['path']} path" + (f" with X = {d['number']}" if d.get("number") is not None else ""),
    EventKind.LOSE_TURN: lambda d: f"{d['path']} path overcrowded ({d['count']} > {d['capacity']}): {', '.join(d['players'])} lose their turn",
    EventKind.SOLO_ALONE: lambda d: f"{d['player']} is alone on the {d['path']} path: gains without paying",
    EventKind.SOLO_CROWD: lambda d: f"{d['count']} players on the {d['path']} path: they pay and gain nothing",
    EventKind.ROLL: lambda d: f"{d['player']} rolls the {d['die']} die: {d['value']}",
    EventKind.PAY: lambda d: (f"{d['player']} pays {d['amount']} fuel" if d.get("paid", d["amount"]) == d["amount"]
                      else f"{d['player']} owes {d['amount']} fuel, pays all {d['paid']}")
                     + (f" ({_breakdown(d['parts'])})" if len(d['parts']) > 1 or (d['parts'] and d['parts'][0][0]) else "")
                     + f" → {d['total']}",
    EventKind.DRAW: lambda d: f"{d['player']} draws {d['drawn']} bonus token{'s' if d['drawn'] != 1 else ''}" + (" and keeps one" if d['drawn'] == 2 else ""),
    EventKind.DRAW_EMPTY: lambda d: f"{d['player']} gains a bonus token but none is left",
    EventKind.RESHUFFLE: lambda d: f"the {d['count']} discarded tokens are shuffled into a new pile",
    EventKind.FLIP: lambda d: f"{d['remaining']} players remain: the remaining tiles turn to their 3-4 face",
    EventKind.MARKERS_REMOVED: lambda d: f"{d['count']} force-field marker{'s' if d['count'] != 1 else ''} removed from zone {d['zone']}",
    EventKind.TILE_REVEALED: lambda d: f"the next tile is revealed: {d['tile']}",
    EventKind.GAME_OVER: lambda d: (f"game over: {' and '.join(d['winners'])} {'win' if len(d['winners']) > 1 else 'wins'}"
                            if d["winners"] else "game over: every ship is eliminated, no winner")
                           + (f" ({d['why']})" if d.get("why") else ""),
}


_NO_DATA: Any = object()


class _Who:
    """The type of :data:`WHO`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "WHO"


WHO: Any = _Who()   # in a public path of an event's shape: the event's player (Event._of)

# The public values an event sets that its data already holds (see Event.public).
_PUBLIC_FROM_DATA: dict[EventKind, Callable[[dict[str, Any]], tuple[tuple[tuple[Any, ...], Any], ...]]] = {
    EventKind.MOVED: lambda d: ((("players", d["player"], "zone"), d["to"]),),
    EventKind.FUEL: lambda d: ((("players", d["player"], "fuel"), d["total"]),),
    EventKind.PAY: lambda d: ((("players", d["player"], "fuel"), d["total"]),),
    EventKind.PROGRAMMED: lambda d: ((("revealed", d["player"]), [d["path"], d["number"]]),),
    EventKind.GAME_OVER: lambda d: ((("finished",), True), (("winners",), list(d["winners"]))),
}


class Event:
    """What happened: a ``kind`` and its ``data`` (a dict), both read-only.

    ``Event(kind, data)`` is the public way to make one. The engine makes a few hundred
    per game and most are never read (simulations), so it builds them with :meth:`_of`
    from a *shape*, ``(kind, keys)``, a constant tuple written where the event is emitted,
    and the values: the data dict is zipped from them only when first read. Both kinds
    compare, print and serialise the same. A hand-written value class rather than a frozen
    dataclass for that reason; ``kind`` and ``data`` have no setter, as in the frozen
    dataclass it replaces."""

    __slots__ = ("_shape", "_values", "_data")
    __match_args__ = ("kind", "data")
    _shape: tuple[Any, ...]         # (kind, keys) or (kind, keys, public paths): see _of
    _values: tuple[Any, ...]        # the data's values, then the public values' (see _of)
    _data: dict[str, Any]

    def __init__(self, kind: EventKind | str, data: dict[str, Any] = _NO_DATA) -> None:
        self._shape = (EventKind(kind), ())
        self._values = ()
        self._data = {} if data is _NO_DATA else data

    @classmethod
    def _of(cls, shape: tuple[Any, ...], values: tuple[Any, ...]) -> "Event":
        """The event ``shape[0]`` with data ``dict(zip(shape[1], values))``, zipped when first
        read (``_data`` stays unset until then: one store less per event).

        A shape may have a third member, the paths of the public values the event sets
        that its data does not hold (:attr:`public`); their values follow the data's in
        ``values`` (``zip`` stops at the keys, so the data never sees them). A path may
        hold :data:`WHO`, which stands for the event's ``player``. Capturing them costs the
        engine one longer tuple, nothing more: they are paired with their paths only when
        :attr:`public` is read. :func:`_event` is the same as a plain function."""
        e = _new_event(cls)
        e._shape = shape
        e._values = values
        return e

    @property
    def kind(self) -> EventKind:
        return self._shape[0]

    @property
    def data(self) -> dict[str, Any]:
        try:
            return self._data
        except AttributeError:
            d = self._data = dict(zip(self._shape[1], self._values))
            return d

    @property
    def public(self) -> list[tuple[tuple[Any, ...], Any]]:
        """The public values this event sets, as ``(path, value)`` pairs in the order they
        apply: a path names a field of ``Game.public_view()`` (``("markers_left",)``,
        ``("track", "rear")``, ``("players", name, "tokens")``, ``("revealed", name)``).
        Folding them over the public view from before an input, event by event, gives the
        public view after each event; after the last event of an input it is the engine's
        ``public_view()`` (all but ``phase`` and ``drawing``, which say whose input is
        awaited and which no event announces). The engine captures them as it applies each
        event; a display reads them and never recomputes a rule."""
        out: list[tuple[tuple[Any, ...], Any]] = []
        shape = self._shape
        derive = _PUBLIC_FROM_DATA.get(shape[0])
        if derive is not None:
            out.extend(derive(self.data))
        if len(shape) > 2:                  # captured by the engine: see _of
            who = None
            for path, value in zip(shape[2], self._values[len(shape[1]):]):
                if WHO in path:
                    if who is None:
                        who = self.data["player"]
                    path = tuple(who if x is WHO else x for x in path)
                out.append((path, value.to_data() if hasattr(value, "to_data") else value))
        return out

    @property
    def player(self) -> str | None:
        return self.data.get("player")

    def text(self) -> str:
        return _TEMPLATES[self._shape[0]](self.data)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Event(kind={str(self.kind)!r}, data={self.data!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.kind, self.data) == (other.kind, other.data)

    def __hash__(self) -> int:
        return hash((self.kind, self.data))     # unhashable (a dict), as the dataclass was

    def to_data(self) -> dict[str, Any]:
        return {"kind": str(self._shape[0]), **self.data}


_new_event = object.__new__


def _event(shape: tuple[Any, ...], values: tuple[Any, ...]) -> Event:
    """``Event._of(shape, values)`` without the class method's binding: the engine's way to
    make its events (a few hundred a game)."""
    e = _new_event(Event)
    e._shape = shape
    e._values = values
    return e


def with_public(e: Event, paths_before: tuple[tuple[Any, ...], ...], before: tuple[Any, ...],
                paths_after: tuple[tuple[Any, ...], ...] = (), after: tuple[Any, ...] = ()) -> None:
    """Add public values to what ``e`` sets (:attr:`Event.public`): the values ``before`` at
    ``paths_before`` come before its own, ``after`` at ``paths_after`` after them (the
    engine's rare cases: a keep, which is no event, gives its values to the next event; the
    bonus phase's discards go with its last event)."""
    shape, values = e._shape, e._values
    n = len(shape[1])
    own = shape[2] if len(shape) > 2 else ()
    e._shape = (shape[0], shape[1], paths_before + own + paths_after)
    e._values = values[:n] + before + values[n:] + after
