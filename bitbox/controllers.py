"""``config/controllers.yaml``: USB ids to discover, extra ports, seats and colours.

Validated on load; an error is a :class:`~bitbox.config.ConfigError` naming the file, the
entry and the field.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .colours import LIGHT_RGB, SEAT_COLOURS
from .config import ConfigError, load_yaml, parse_colour, parse_int

__all__ = ["USB_VID", "USB_PID", "PICO_MICROPYTHON", "DEFAULT_USB_IDS", "Pin", "ControllersConfig", "load_controllers_config", "ConfigError"]

#: The USB vendor id of 8Bitbox controllers: pid.codes (open-source hardware).
USB_VID = 0x1209
#: pid.codes' test PID. Good for prototypes; a production batch should get its own PID.
USB_PID = 0x0001
#: A Raspberry Pi Pico running stock MicroPython: the reference board.
PICO_MICROPYTHON = (0x2E8A, 0x0005)
#: The USB ids looked for when the config says nothing.
DEFAULT_USB_IDS = ((USB_VID, USB_PID), PICO_MICROPYTHON)

#: Seats are 0-based here; the protocol's AssignSeat is 1-based with 0 = none, one byte.
MAX_SEAT = 254

_DEFAULT_COLOURS = tuple(LIGHT_RGB[c] for c in SEAT_COLOURS)


@dataclass(frozen=True)
class Pin:
    """A controller id bound to a seat by the config."""

    controller_id: int
    seat: int
    colour: tuple[int, int, int] | None = None
    name: str = ""


@dataclass(frozen=True)
class ControllersConfig:
    usb: tuple[tuple[int, int], ...] = DEFAULT_USB_IDS
    ports: tuple[str, ...] = ()
    simulated: int = 0
    seat_colours: tuple[tuple[int, int, int], ...] = _DEFAULT_COLOURS
    pins: tuple[Pin, ...] = ()
    source: str = ""
    _by_id: dict[int, Pin] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_id.update({p.controller_id: p for p in self.pins})

    def pin_for(self, controller_id: int) -> Pin | None:
        return self._by_id.get(controller_id)

    @property
    def pinned_seats(self) -> frozenset[int]:
        return frozenset(p.seat for p in self.pins)

    def colour_for(self, seat: int, controller_id: int | None = None) -> tuple[int, int, int]:
        """The colour of ``seat``: the pin's own colour, else the seat colour (cycling)."""
        pin = self._by_id.get(controller_id) if controller_id is not None else None
        if pin is not None and pin.colour is not None:
            return pin.colour
        return self.seat_colours[seat % len(self.seat_colours)] if self.seat_colours else (255, 255, 255)


_FIELDS = {"usb", "ports", "simulated", "seat_colours", "controllers"}


def parse_controllers_config(data: Any, source: str) -> ControllersConfig:
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise ConfigError(f"{source}: expected a mapping with the fields {', '.join(sorted(_FIELDS))}")
    unknown = sorted(map(str, set(data) - _FIELDS))
    if unknown:
        raise ConfigError(f"{source}: unknown field {unknown[0]!r} (known: {', '.join(sorted(_FIELDS))})")

    usb = []
    for i, entry in enumerate(_list(data, "usb", source, [{"vid": v, "pid": p} for v, p in DEFAULT_USB_IDS])):
        where = f"{source}: usb entry {i + 1}"
        if not isinstance(entry, Mapping) or set(entry) != {"vid", "pid"}:
            raise ConfigError(f"{where}: expected {{vid: 0x1209, pid: 0x0001}}, got {entry!r}")
        usb.append((_int(entry["vid"], 0, 0xFFFF, where, "vid"), _int(entry["pid"], 0, 0xFFFF, where, "pid")))

    ports = []
    for i, port in enumerate(_list(data, "ports", source, [])):
        if not isinstance(port, str) or not port.strip():
            raise ConfigError(f"{source}: ports entry {i + 1}: expected a device path or URL, got {port!r}")
        ports.append(port.strip())

    simulated = _int(data.get("simulated", 0), 0, 16, source, "simulated")

    colours = []
    for i, value in enumerate(_list(data, "seat_colours", source, list(_DEFAULT_COLOURS))):
        try:
            colours.append(parse_colour(value))
        except ValueError as exc:
            raise ConfigError(f"{source}: seat_colours entry {i + 1}: {exc}") from None

    pins: list[Pin] = []
    seats: dict[int, int] = {}
    ids: dict[int, int] = {}
    for i, entry in enumerate(_list(data, "controllers", source, [])):
        where = f"{source}: controllers entry {i + 1}"
        if not isinstance(entry, Mapping):
            raise ConfigError(f"{where}: expected a mapping with id and seat, got {entry!r}")
        extra = sorted(map(str, set(entry) - {"id", "seat", "colour", "name"}))
        if extra:
            raise ConfigError(f"{where}: unknown field {extra[0]!r} (known: colour, id, name, seat)")
        for key in ("id", "seat"):
            if key not in entry:
                raise ConfigError(f"{where}: field {key} is missing")
        cid = _int(entry["id"], 0, 2**64 - 1, where, "id")
        where = f"{source}: controller {cid:#018x}"
        # seats are numbered from 1 wherever a person reads or writes them (seat 1 is the
        # first, red by default); 0-based inside, as on the wire (AssignSeat)
        if entry["seat"] == 0:
            raise ConfigError(f"{where}, field seat: seats are numbered from 1 (the first seat is 1), got 0")
        seat = _int(entry["seat"], 1, MAX_SEAT + 1, where, "seat") - 1
        if cid in ids:
            raise ConfigError(f"{where}: listed twice (entries {ids[cid]} and {i + 1})")
        if seat in seats:
            raise ConfigError(f"{where}, field seat: seat {seat + 1} is already pinned to controller {seats[seat]:#018x}")
        colour = None
        if entry.get("colour") is not None:
            try:
                colour = parse_colour(entry["colour"])
            except ValueError as exc:
                raise ConfigError(f"{where}, field colour: {exc}") from None
        name = entry.get("name", "")
        if not isinstance(name, str):
            raise ConfigError(f"{where}, field name: expected text, got {name!r}")
        ids[cid] = i + 1
        seats[seat] = cid
        pins.append(Pin(cid, seat, colour, name))

    return ControllersConfig(tuple(usb), tuple(ports), simulated, tuple(colours), tuple(pins), source)


def _list(data: Mapping[str, Any], key: str, source: str, default: list) -> list:
    value = data.get(key, default)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ConfigError(f"{source}: field {key}: expected a list, got {value!r}")
    return value


def _int(value: Any, lo: int, hi: int, where: str, name: str) -> int:
    try:
        return parse_int(value, lo=lo, hi=hi)
    except ValueError as exc:
        raise ConfigError(f"{where}, field {name}: {exc}") from None


def load_controllers_config(path: str | Path | None = None) -> ControllersConfig:
    """The controllers config from ``path`` (default: the shipped ``config/controllers.yaml``)."""
    if path is None:
        from bitbox_config import config_path
        path = config_path("controllers.yaml")
    return parse_controllers_config(load_yaml(path), str(path))
