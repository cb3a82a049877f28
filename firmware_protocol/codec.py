"""Bytes <-> messages, no I/O: serial frames (COBS + CRC-32 + 0x00) and HID reports.

Layers (SPEC.md, "Frames"):

    raw frame     = type byte | payload | CRC-32 of (type | payload), little-endian
    serial frame  = COBS(raw frame) | 0x00
    HID report    = 0x01 (report id) | length of raw frame | raw frame | zero padding to 64

The decode hot path does its per-byte work in C: `bytes.split` finds the delimiters,
`cobs.cobs.decode` undoes the byte stuffing, `zlib.crc32` checks the frame against the CRC
residue in one call, `struct` unpacks the fields and one `tuple.__new__` builds the message.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable

from cobs.cobs import DecodeError as _CobsError
from cobs.cobs import decode as _cobs_decode
from cobs.cobs import encode as _cobs_encode

from .constants import (
    CRC_RESIDUE,
    HID_REPORT_ID,
    HID_REPORT_SIZE,
    MAX_ENCODED_FRAME,
    MAX_POSITIONS,
    MAX_RAW_FRAME,
    MAX_TEXT_BYTES,
    MIN_RAW_FRAME,
    MessageType,
)
from .messages import (
    AssignSeat,
    ChoiceRefused,
    ErrorReport,
    Hello,
    Hint,
    Show,
    HostHello,
    Identify,
    Message,
    Ping,
    Pong,
    RequestState,
    SetLights,
    State,
    Welcome,
)

__all__ = [
    "BadFrame",
    "Decoder",
    "HidDecoder",
    "ProtocolError",
    "UnknownMessageType",
    "crc32",
    "decode_hid_report",
    "decode_raw",
    "encode",
    "encode_hid_report",
    "encode_raw",
]

crc32: Callable[[bytes], int] = zlib.crc32
"""CRC-32/ISO-HDLC (the zlib CRC): poly 0x04C11DB7 reflected, init and xorout 0xFFFFFFFF."""


class ProtocolError(ValueError):
    """A frame or report that must not be acted on."""


class BadFrame(ProtocolError):
    """Corrupted or malformed: bad COBS, bad CRC, wrong size, or a field out of range."""


class UnknownMessageType(ProtocolError):
    """A well-formed frame whose type byte this version does not know (ignore it)."""

    def __init__(self, type_code: int) -> None:
        super().__init__(f"unknown message type 0x{type_code:02x}")
        self.type_code = type_code


# --- per-type payload layouts (all little-endian) -------------------------------------------------

_HELLO = struct.Struct("<BBQ3B3BB")  # major minor id fw[3] positions[3] capabilities
_STATE = struct.Struct("<BBBBI")  # left centre right locked seq
_U8_U8 = struct.Struct("<BB")
_U32 = struct.Struct("<I")
_U16 = struct.Struct("<H")
_SEAT = struct.Struct("<B3B")
_LIGHTS = struct.Struct("<BBB3B")
_CRC = struct.Struct("<I")
_HINT = struct.Struct("<HHH")  # left centre right stop masks (1.1)
_REFUSED = struct.Struct("<BH")  # wheels duration_ms (1.1)

# The decoder's fast path for State: skip the type byte, bools come out as bools.
_STATE_FAST = struct.Struct("<xBBB?I").unpack_from
_STATE_RAW_SIZE = 1 + _STATE.size + 4


def _text_bytes(text: str) -> bytes:
    data = text.encode("utf-8")
    return bytes((len(data),)) + data


def _pack(message: Message) -> bytes:
    """Type byte and payload of `message` (no CRC)."""
    t = type(message)
    if t is State:
        m: State = message  # type: ignore[assignment]
        return bytes((State.TYPE,)) + _STATE.pack(m.left, m.centre, m.right, m.locked, m.seq)
    if t is Hello:
        h: Hello = message  # type: ignore[assignment]
        payload = _HELLO.pack(
            h.protocol_major,
            h.protocol_minor,
            h.controller_id,
            *h.firmware_version,
            *h.positions,
            h.capabilities,
        )
    elif t is ErrorReport:
        payload = bytes((message.code,)) + _text_bytes(message.text)  # type: ignore[attr-defined]
    elif t is Pong or t is Ping:
        payload = _U32.pack(message.token)  # type: ignore[attr-defined]
    elif t is HostHello:
        payload = _U8_U8.pack(message.protocol_major, message.protocol_minor)  # type: ignore[attr-defined]
    elif t is Welcome:
        w: Welcome = message  # type: ignore[assignment]
        payload = bytes((w.protocol_major, w.protocol_minor, w.accepted)) + _text_bytes(w.reason)
    elif t is AssignSeat:
        payload = _SEAT.pack(message.seat, *message.colour)  # type: ignore[attr-defined]
    elif t is SetLights:
        s: SetLights = message  # type: ignore[assignment]
        payload = _LIGHTS.pack(s.left, s.centre, s.right, *s.colour)
    elif t is Identify:
        payload = _U16.pack(message.duration_ms)  # type: ignore[attr-defined]
    elif t is RequestState:
        payload = b""
    elif t is Hint or t is Show:
        payload = _HINT.pack(message.left, message.centre, message.right)  # type: ignore[attr-defined]
    elif t is ChoiceRefused:
        payload = _REFUSED.pack(message.wheels, message.duration_ms)  # type: ignore[attr-defined]
    else:
        raise TypeError(f"not a protocol message: {message!r}")
    return bytes((t.TYPE,)) + payload


def _text_at(payload: bytes, offset: int) -> str:
    size = payload[offset]
    if size > MAX_TEXT_BYTES or offset + 1 + size > len(payload):
        raise BadFrame("text length out of range")
    return payload[offset + 1 : offset + 1 + size].decode("utf-8")


def _flag(value: int) -> bool:
    if value > 1:
        raise BadFrame("a boolean byte must be 0 or 1")
    return value == 1


def _parse_hello(p: bytes) -> Message:
    v = _HELLO.unpack_from(p)
    return Hello(v[0], v[1], v[2], v[3:6], v[6:9], v[9])


def _parse_state(p: bytes) -> Message:
    left, centre, right, locked, seq = _STATE.unpack_from(p)
    return State(left, centre, right, _flag(locked), seq)


def _parse_error(p: bytes) -> Message:
    return ErrorReport(p[0], _text_at(p, 1))


def _parse_welcome(p: bytes) -> Message:
    return Welcome(p[0], p[1], _flag(p[2]), _text_at(p, 3))


def _parse_lights(p: bytes) -> Message:
    v = _LIGHTS.unpack_from(p)
    return SetLights(_flag(v[0]), _flag(v[1]), _flag(v[2]), v[3:6])


def _parse_seat(p: bytes) -> Message:
    v = _SEAT.unpack_from(p)
    return AssignSeat(v[0], v[1:4])


#: type byte -> parser(payload) -> message. Payloads longer than the layout are accepted and
#: the extra bytes ignored: a later minor version may append fields (SPEC.md, "Versioning").
_PARSERS: dict[int, Callable[[bytes], Message]] = {
    MessageType.HELLO: _parse_hello,
    MessageType.STATE: _parse_state,
    MessageType.ERROR_REPORT: _parse_error,
    MessageType.PONG: lambda p: Pong(_U32.unpack_from(p)[0]),
    MessageType.HOST_HELLO: lambda p: HostHello(*_U8_U8.unpack_from(p)),
    MessageType.WELCOME: _parse_welcome,
    MessageType.ASSIGN_SEAT: _parse_seat,
    MessageType.SET_LIGHTS: _parse_lights,
    MessageType.IDENTIFY: lambda p: Identify(_U16.unpack_from(p)[0]),
    MessageType.REQUEST_STATE: lambda p: RequestState(),
    MessageType.PING: lambda p: Ping(_U32.unpack_from(p)[0]),
    MessageType.HINT: lambda p: Hint(*_HINT.unpack_from(p)),
    MessageType.CHOICE_REFUSED: lambda p: ChoiceRefused(*_REFUSED.unpack_from(p)),
    MessageType.SHOW: lambda p: Show(*_HINT.unpack_from(p)),
}
_PARSERS = {int(k): v for k, v in _PARSERS.items()}


# --- raw frames -----------------------------------------------------------------------------------


def encode_raw(message: Message) -> bytes:
    """The raw frame of `message`: type byte, payload, CRC-32 (little-endian). No COBS."""
    body = _pack(message)
    return body + _CRC.pack(crc32(body))


def decode_raw(raw: bytes) -> Message:
    """The message in a raw frame (CRC included).

    Raises `BadFrame` if the frame must be dropped (size, CRC, layout or a field out of range)
    and `UnknownMessageType` if it is well-formed but of a type this version does not know.
    """
    raw = bytes(raw)
    if not MIN_RAW_FRAME <= len(raw) <= MAX_RAW_FRAME:
        raise BadFrame(f"raw frame of {len(raw)} bytes (allowed {MIN_RAW_FRAME}..{MAX_RAW_FRAME})")
    if crc32(raw) != CRC_RESIDUE:
        raise BadFrame("CRC mismatch")
    parser = _PARSERS.get(raw[0])
    if parser is None:
        raise UnknownMessageType(raw[0])
    try:
        return parser(raw[1:-4])
    except ProtocolError:
        raise
    except (struct.error, IndexError, ValueError, TypeError) as exc:  # short payload, bad field
        raise BadFrame(f"malformed {MessageType(raw[0]).name} payload: {exc}") from None


# --- serial ---------------------------------------------------------------------------------------


def encode(message: Message) -> bytes:
    """The complete serial frame of `message`: COBS(raw frame) followed by the 0x00 delimiter."""
    return _cobs_encode(encode_raw(message)) + b"\x00"


class Decoder:
    """Streaming decoder for the serial line: bytes in, messages out.

    `feed(data)` accepts input split at any byte boundary and returns the messages completed
    by it, in order. It never raises on any input. A frame that fails any check is dropped and
    counted in `bad_frames`; a well-formed frame of an unknown type is dropped and counted in
    `unknown_messages`. Empty frames (consecutive delimiters) are ignored and not counted.
    At most MAX_ENCODED_FRAME bytes of an unfinished frame are kept: a longer one is counted
    bad once, and the rest of it is skipped up to the next delimiter.
    """

    __slots__ = ("bad_frames", "unknown_messages", "_buffer", "_skipping")

    def __init__(self) -> None:
        self.bad_frames = 0
        self.unknown_messages = 0
        self._buffer = b""
        self._skipping = False

    @property
    def pending(self) -> int:
        """Bytes held of an unfinished frame (never more than MAX_ENCODED_FRAME)."""
        return len(self._buffer)

    def reset(self) -> None:
        """Forget any unfinished frame (e.g. after reopening the port). Counters are kept."""
        self._buffer = b""
        self._skipping = False

    def feed(self, data: bytes) -> list[Message]:
        """The messages completed by `data` (bytes-like), in order."""
        if data.__class__ is not bytes:
            data = bytes(data)
        if b"\x00" not in data:
            if not self._skipping:
                buffer = self._buffer + data
                if len(buffer) > MAX_ENCODED_FRAME:
                    self.bad_frames += 1
                    self._skipping = True
                    buffer = b""
                self._buffer = buffer
            return []
        parts = (self._buffer + data).split(b"\x00")
        tail = parts.pop()
        if self._skipping:  # the rest of an oversized frame, already counted
            parts[0] = b""
            self._skipping = False
        if len(tail) > MAX_ENCODED_FRAME:
            self.bad_frames += 1
            self._skipping = True
            tail = b""
        self._buffer = tail

        out: list[Message] = []
        append = out.append
        new = tuple.__new__
        state = State
        state_fields = _STATE_FAST
        cobs_decode = _cobs_decode
        check = crc32
        residue = CRC_RESIDUE
        state_size = _STATE_RAW_SIZE
        positions = MAX_POSITIONS
        for part in parts:
            try:
                raw = cobs_decode(part)
            except _CobsError:
                self.bad_frames += 1
                continue
            # Fast path: a State of exactly the version-1 size with a correct CRC. A decoded
            # length of 13 implies an encoded one of at most 14, so no size check is needed.
            if check(raw) == residue and raw[0] == 2 and len(raw) == state_size:
                values = state_fields(raw)
                if values[0] | values[1] | values[2] < positions and raw[4] < 2:
                    append(new(state, values))
                else:
                    self.bad_frames += 1
            elif part:
                message = self._slow(part, raw)
                if message is not None:
                    append(message)
        return out

    def _slow(self, part: bytes, raw: bytes) -> Message | None:
        if len(part) > MAX_ENCODED_FRAME:
            self.bad_frames += 1
            return None
        try:
            return decode_raw(raw)
        except UnknownMessageType:
            self.unknown_messages += 1
        except BadFrame:
            self.bad_frames += 1
        return None


# --- HID ------------------------------------------------------------------------------------------


def encode_hid_report(message: Message) -> bytes:
    """The 64-byte HID report of `message`: report id 1, raw frame length, raw frame, zeros."""
    raw = encode_raw(message)
    report = bytes((HID_REPORT_ID, len(raw))) + raw
    return report + bytes(HID_REPORT_SIZE - len(report))


def _hid_raw(report: bytes) -> bytes:
    report = bytes(report)
    if len(report) < 2 or len(report) > HID_REPORT_SIZE:
        raise BadFrame(f"HID report of {len(report)} bytes")
    if report[0] != HID_REPORT_ID:
        raise BadFrame(f"HID report id {report[0]} (expected {HID_REPORT_ID})")
    size = report[1]
    if not MIN_RAW_FRAME <= size <= MAX_RAW_FRAME or 2 + size > len(report):
        raise BadFrame(f"HID report frame length {size}")
    return report[2 : 2 + size]


def decode_hid_report(report: bytes) -> Message | None:
    """The message in a HID report (report id byte included), or None if it must be ignored
    (bad report, or a message type this version does not know). Never raises."""
    try:
        return decode_raw(_hid_raw(report))
    except ProtocolError:
        return None


class HidDecoder:
    """`decode_hid_report` with the same counters as `Decoder`."""

    __slots__ = ("bad_frames", "unknown_messages")

    def __init__(self) -> None:
        self.bad_frames = 0
        self.unknown_messages = 0

    def decode(self, report: bytes) -> Message | None:
        """The message in `report`, or None (counted as bad or unknown)."""
        try:
            return decode_raw(_hid_raw(report))
        except UnknownMessageType:
            self.unknown_messages += 1
        except BadFrame:
            self.bad_frames += 1
        return None
