"""The protocol's messages, as frozen dataclasses.

Controller -> host: Hello, State, ErrorReport, Pong.
Host -> controller: HostHello, Welcome, AssignSeat, SetLights, Identify, RequestState, Ping,
since protocol 1.1 Hint and ChoiceRefused (sent only to controllers of 1.1 or later), and
since 1.2 Show (only to controllers of 1.2 or later).

Each class is an ordinary frozen dataclass to its users: construct it by position or keyword,
read its fields by name, compare and hash it by value, `dataclasses.fields`, `asdict` and
`replace` work, setting a field raises `dataclasses.FrozenInstanceError`. Fields are plain
`int`, `bool`, `str` or tuples of ints/bools, and are checked on construction (a value the wire
cannot carry raises `ValueError` or `TypeError`), so an invalid message cannot exist.

One implementation detail: the values are stored in a tuple (every class derives from
`Message`, a tuple subclass with no other storage, like `typing.NamedTuple`). That lets the
decoder build a message in a single C call, which is what lifts decode throughput past half
a million frames a second; a dict-backed dataclass costs about three times as much per
message. A message is never equal to a plain tuple nor to a message of another type. Do not
index or iterate messages: use the field names.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field
from operator import itemgetter
from typing import Any, ClassVar

from .constants import (
    MAX_POSITIONS,
    MAX_TEXT_BYTES,
    MIN_POSITIONS,
    PROTOCOL_VERSION,
    MessageType,
)

CONTROLLER_TO_HOST = "controller->host"
HOST_TO_CONTROLLER = "host->controller"

# --- field kinds: how a field is checked (and normalised) on construction -------------------------


def _int_in(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {value}")
    return int(value)


def _uint(bits: int) -> Callable[[str, Any], int]:
    high = (1 << bits) - 1
    return lambda name, value: _int_in(name, value, 0, high)


def _bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise TypeError(f"{name} must be a bool, not {value!r}")


def _triple(check: Callable[[str, Any], Any]) -> Callable[[str, Any], tuple]:
    def convert(name: str, value: Any) -> tuple:
        if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
            raise TypeError(f"{name} must be a sequence of 3 values, not {value!r}")
        if len(value) != 3:
            raise ValueError(f"{name} must have 3 values, got {len(value)}")
        return tuple(check(f"{name}[{i}]", v) for i, v in enumerate(value))

    return convert


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    try:
        size = len(value.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise ValueError(f"{name} is not encodable as UTF-8: {exc}") from None
    if size > MAX_TEXT_BYTES:
        raise ValueError(f"{name} is {size} bytes of UTF-8; at most {MAX_TEXT_BYTES} fit")
    return value


_u8 = _uint(8)

#: kind name -> checker(name, value) -> normalised value. SPEC.md names the same kinds.
KINDS: dict[str, Callable[[str, Any], Any]] = {
    "u8": _u8,
    "u16": _uint(16),
    "u32": _uint(32),
    "u64": _uint(64),
    "bool": _bool,
    "position": lambda name, value: _int_in(name, value, 0, MAX_POSITIONS - 1),
    "geometry": _triple(lambda name, value: _int_in(name, value, MIN_POSITIONS, MAX_POSITIONS)),
    "version": _triple(_u8),
    "rgb": _triple(_u8),
    "text": _text,
}


def _f(kind: str, doc: str, default: Any = MISSING) -> Any:
    return field(default=default, metadata={"kind": kind, "doc": doc})


# --- the base class -------------------------------------------------------------------------------


class Message(tuple):
    """Base of every message. `TYPE` is the type byte; `DIRECTION` who sends it."""

    __slots__ = ()

    TYPE: ClassVar[int]
    DIRECTION: ClassVar[str]
    _field_names: ClassVar[tuple[str, ...]] = ()
    _kinds: ClassVar[tuple[str, ...]] = ()
    _checks: ClassVar[tuple[Callable[[str, Any], Any], ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}

    def __new__(cls, *args: Any, **kwargs: Any) -> Message:
        names = cls._field_names
        if len(args) > len(names):
            raise TypeError(
                f"{cls.__name__}() takes {len(names)} arguments but {len(args)} were given"
            )
        values = list(args)
        for name in names[: len(args)]:
            if name in kwargs:
                raise TypeError(f"{cls.__name__}() got multiple values for {name!r}")
        for name in names[len(args) :]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif name in cls._defaults:
                values.append(cls._defaults[name])
            else:
                raise TypeError(f"{cls.__name__}() missing argument {name!r}")
        if kwargs:
            raise TypeError(f"{cls.__name__}() got unexpected arguments {sorted(kwargs)}")
        checked = [check(name, value) for check, name, value in zip(cls._checks, names, values)]
        return tuple.__new__(cls, checked)

    # Equality and hashing by type and value, never with plain tuples.
    def __eq__(self, other: object) -> bool:
        if self.__class__ is other.__class__:
            return tuple.__eq__(self, other)
        if isinstance(other, tuple):
            return False
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash((self.__class__.TYPE, tuple.__hash__(self)))

    def __lt__(self, other: object) -> bool:
        return NotImplemented

    __le__ = __gt__ = __ge__ = __lt__

    def __bool__(self) -> bool:
        return True

    def __reduce__(self) -> tuple:
        return (self.__class__, tuple(tuple.__iter__(self)))

    def __copy__(self) -> Message:
        return self

    def __deepcopy__(self, memo: dict) -> Message:
        return self


_REGISTRY: dict[int, type[Message]] = {}


def _message(type_code: MessageType, direction: str) -> Callable[[type], type]:
    """Make `cls` a frozen dataclass stored as a tuple, and register its type byte."""

    def wrap(cls: Any) -> Any:                  # sets the class attributes a Message reads
        cls = dataclass(frozen=True, eq=False, init=False)(cls)
        fields = dataclasses.fields(cls)
        cls._field_names = tuple(f.name for f in fields)
        cls._kinds = tuple(f.metadata["kind"] for f in fields)
        cls._checks = tuple(KINDS[kind] for kind in cls._kinds)
        cls._defaults = {f.name: f.default for f in fields if f.default is not MISSING}
        for index, f in enumerate(fields):
            setattr(cls, f.name, property(itemgetter(index), doc=f.metadata["doc"]))
        cls.TYPE = int(type_code)
        cls.DIRECTION = direction
        cls.__signature__ = inspect.Signature(
            [
                inspect.Parameter(
                    f.name,
                    inspect.Parameter.POSITIONAL_OR_KEYWORD,
                    default=inspect.Parameter.empty if f.default is MISSING else f.default,
                    annotation=f.type,
                )
                for f in fields
            ]
        )
        _REGISTRY[cls.TYPE] = cls
        return cls

    return wrap


# --- controller -> host ---------------------------------------------------------------------------


@_message(MessageType.HELLO, CONTROLLER_TO_HOST)
class Hello(Message):
    """Who the controller is and what it has. Sent at boot and until welcomed."""

    __slots__ = ()
    protocol_major: int = _f("u8", "protocol major version the controller speaks")
    protocol_minor: int = _f("u8", "protocol minor version the controller speaks")
    controller_id: int = _f("u64", "unique 64-bit controller id (e.g. the MCU's flash id)")
    firmware_version: tuple[int, int, int] = _f("version", "firmware (major, minor, patch)")
    positions: tuple[int, int, int] = _f("geometry", "detent positions of (left, centre, right)")
    capabilities: int = _f("u8", "Capability bit flags")


@_message(MessageType.STATE, CONTROLLER_TO_HOST)
class State(Message):
    """The controller's full state: sent on every change and as a heartbeat."""

    __slots__ = ()
    left: int = _f("position", "left wheel position, 0 .. positions[0]-1")
    centre: int = _f("position", "centre wheel position, 0 .. positions[1]-1")
    right: int = _f("position", "right wheel position, 0 .. positions[2]-1")
    locked: bool = _f("bool", "the lock switch is closed")
    seq: int = _f("u32", "sequence number: +1 per State sent, wraps at 2**32")


@_message(MessageType.ERROR_REPORT, CONTROLLER_TO_HOST)
class ErrorReport(Message):
    """Something went wrong on the controller (an ErrorCode and a human-readable text)."""

    __slots__ = ()
    code: int = _f("u8", "ErrorCode")
    text: str = _f("text", "human-readable detail, at most 48 bytes of UTF-8", "")


@_message(MessageType.PONG, CONTROLLER_TO_HOST)
class Pong(Message):
    """Answer to a Ping, echoing its token."""

    __slots__ = ()
    token: int = _f("u32", "the token of the Ping answered")


# --- host -> controller ---------------------------------------------------------------------------


@_message(MessageType.HOST_HELLO, HOST_TO_CONTROLLER)
class HostHello(Message):
    """The host's version; asks the controller to (re)introduce itself with a Hello."""

    __slots__ = ()
    protocol_major: int = _f("u8", "protocol major version the host speaks", PROTOCOL_VERSION[0])
    protocol_minor: int = _f("u8", "protocol minor version the host speaks", PROTOCOL_VERSION[1])


@_message(MessageType.WELCOME, HOST_TO_CONTROLLER)
class Welcome(Message):
    """The host's answer to a Hello: accepted (start sending State) or refused, with a reason."""

    __slots__ = ()
    protocol_major: int = _f("u8", "protocol major version the host speaks")
    protocol_minor: int = _f("u8", "protocol minor version the host speaks")
    accepted: bool = _f("bool", "True: the controller may start; False: refused")
    reason: str = _f("text", "why it was refused (empty when accepted)", "")


@_message(MessageType.ASSIGN_SEAT, HOST_TO_CONTROLLER)
class AssignSeat(Message):
    """The seat the controller's player sits in (0 = none) and their colour."""

    __slots__ = ()
    seat: int = _f("u8", "seat number, 1-based; 0 = no seat")
    colour: tuple[int, int, int] = _f("rgb", "the player's colour, (red, green, blue) 0..255")


@_message(MessageType.SET_LIGHTS, HOST_TO_CONTROLLER)
class SetLights(Message):
    """Set the three path lights and the colour LED."""

    __slots__ = ()
    left: bool = _f("bool", "left path light on")
    centre: bool = _f("bool", "centre path light on")
    right: bool = _f("bool", "right path light on")
    colour: tuple[int, int, int] = _f("rgb", "colour LED, (red, green, blue) 0..255")


@_message(MessageType.IDENTIFY, HOST_TO_CONTROLLER)
class Identify(Message):
    """Blink every light for `duration_ms` so a person can find this controller (0 = stop)."""

    __slots__ = ()
    duration_ms: int = _f("u16", "how long to blink, ms; 0 stops blinking")


@_message(MessageType.REQUEST_STATE, HOST_TO_CONTROLLER)
class RequestState(Message):
    """Ask for a State now (a Hello if the controller has not been welcomed)."""

    __slots__ = ()


@_message(MessageType.PING, HOST_TO_CONTROLLER)
class Ping(Message):
    """Ask for a Pong with the same token (answered in every state, even before a Welcome)."""

    __slots__ = ()
    token: int = _f("u32", "any value; echoed in the Pong")


@_message(MessageType.HINT, HOST_TO_CONTROLLER)
class Hint(Message):
    """Since 1.1, private to one controller: which stops of each wheel are valid choices now.

    Bit p of a mask is position p; a mask of 0 means "no hint for this wheel". Hint(0, 0, 0)
    clears every hint. Shown on the controller's own lights (SPEC.md 6.13)."""

    __slots__ = ()
    left: int = _f("u16", "valid stops of the left wheel, bit p = position p; 0 = no hint")
    centre: int = _f("u16", "valid stops of the centre wheel; 0 = no hint")
    right: int = _f("u16", "valid stops of the right wheel; 0 = no hint")


@_message(MessageType.CHOICE_REFUSED, HOST_TO_CONTROLLER)
class ChoiceRefused(Message):
    """Since 1.1, private to one controller: the choice just locked was refused; choose again.

    Unlike Identify ("find me"), the controller blinks red (SPEC.md 6.14)."""

    __slots__ = ()
    wheels: int = _f("u8", "the wheels whose stop was refused: bit 0 left, 1 centre, 2 right")
    duration_ms: int = _f("u16", "how long to show the refusal, ms; 0 stops showing it")


@_message(MessageType.SHOW, HOST_TO_CONTROLLER)
class Show(Message):
    """Since 1.2, private to one controller: stops to show its player that are not choices
    (e.g. the code of a token just drawn). Bit p of a mask is position p; Show(0, 0, 0) shows
    nothing. Shown blinking (SPEC.md 6.15, 8.4); it says nothing of what the host accepts."""

    __slots__ = ()
    left: int = _f("u16", "stops of the left wheel to show, bit p = position p; 0 = none")
    centre: int = _f("u16", "stops of the centre wheel to show; 0 = none")
    right: int = _f("u16", "stops of the right wheel to show; 0 = none")


#: Every message class, by type byte.
MESSAGE_TYPES: dict[int, type[Message]] = dict(sorted(_REGISTRY.items()))
#: Every message class, by name.
MESSAGE_CLASSES: dict[str, type[Message]] = {c.__name__: c for c in MESSAGE_TYPES.values()}


def field_kinds(cls: type[Message]) -> dict[str, str]:
    """The kind (u8, position, rgb, text, ...) of every field of `cls`, in wire order."""
    return dict(zip(cls._field_names, cls._kinds))
