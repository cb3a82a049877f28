"""The byte-exact test vectors in vectors/: how they are made, loaded and read.

    python -m firmware_protocol.testvectors          # rewrite vectors/*.json
    python -m firmware_protocol.testvectors --check  # exit 1 if they are out of date

The files are the contract for every implementation (see vectors/README.md). Each invalid
case below states the outcome it is meant to have; generation fails if the codec disagrees,
so a vector can never silently follow a codec bug.
"""

from __future__ import annotations

import argparse
import json
import struct
import sys
import zlib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from cobs.cobs import decode as cobs_decode
from cobs.cobs import encode as cobs_encode

from . import codec
from .constants import (
    CRC_RESIDUE,
    HID_REPORT_ID,
    HID_REPORT_SIZE,
    MAX_ENCODED_FRAME,
    MAX_RAW_FRAME,
    MAX_TEXT_BYTES,
    PROTOCOL_VERSION,
    HELLO_RETRY_MS,
    REFUSED_RETRY_MS,
    ErrorCode,
)
from .handshake import host_welcome, supports_private_hints, version_mismatch_text
from .messages import (
    MESSAGE_CLASSES,
    AssignSeat,
    ChoiceRefused,
    ErrorReport,
    Hello,
    Hint,
    HostHello,
    Identify,
    Message,
    Ping,
    Pong,
    RequestState,
    SetLights,
    Show,
    State,
    Welcome,
)

FILES = ("primitives.json", "messages.json", "invalid.json", "handshake.json", "lights.json")


def vectors_dir() -> Path:
    """The folder holding the vector files (inside the installed package)."""
    return Path(str(resources.files("firmware_protocol") / "vectors"))


def load(name: str) -> Any:
    """The parsed content of vectors/`name` (e.g. "messages.json")."""
    return json.loads((vectors_dir() / name).read_text(encoding="utf-8"))


# --- messages as JSON -----------------------------------------------------------------------------


def _json_value(kind: str, value: Any) -> Any:
    if kind == "u64":  # beyond 2**53: many JSON parsers would round it as a double
        return f"0x{value:016x}"
    return list(value) if isinstance(value, tuple) else value


def message_to_json(message: Message) -> dict[str, Any]:
    """{"type": class name, "fields": {name: value}}: tuples as lists, 64-bit integers as
    "0x" + 16 hex digits."""
    fields = {
        name: _json_value(kind, value)
        for name, kind, value in zip(message._field_names, message._kinds,
                                     tuple.__iter__(message))
    }
    return {"type": type(message).__name__, "fields": fields}


def message_from_json(data: dict[str, Any]) -> Message:
    """The inverse of message_to_json."""
    cls = MESSAGE_CLASSES[data["type"]]
    kinds = dict(zip(cls._field_names, cls._kinds))
    fields = {
        name: int(value, 16) if kinds.get(name) == "u64" and isinstance(value, str) else value
        for name, value in data["fields"].items()
    }
    return cls(**fields)


def _hex(data: bytes) -> str:
    return data.hex()


def _frame(body: bytes) -> bytes:
    """Serial frame of an arbitrary body, CRC made correct: for building invalid cases."""
    return cobs_encode(body + struct.pack("<I", zlib.crc32(body))) + b"\x00"


def _raw(body: bytes) -> bytes:
    return body + struct.pack("<I", zlib.crc32(body))


def _report(raw: bytes, length: int | None = None, report_id: int = HID_REPORT_ID,
            size: int = HID_REPORT_SIZE) -> bytes:
    report = bytes((report_id, len(raw) if length is None else length)) + raw
    return (report + bytes(max(0, size - len(report))))[:size]


# --- primitives -----------------------------------------------------------------------------------


def _primitives() -> dict[str, Any]:
    crc_inputs = [b"", b"123456789", b"\x00", b"\xff" * 4, bytes.fromhex("0203000f0107000000")]
    cobs_inputs = [
        b"", b"\x00", b"\x00\x00", b"\x11\x22\x00\x33", b"\x11\x22\x33\x44", b"\x11\x00\x00\x00",
        bytes(range(1, 255)), bytes(range(0, 255)), bytes(range(1, 256)),
    ]
    return {
        "description": "The two building blocks of a serial frame, alone.",
        "crc32": {
            "name": "CRC-32/ISO-HDLC (the CRC of zlib, Ethernet, PNG)",
            "width": 32,
            "poly": "0x04c11db7",
            "poly_reflected": "0xedb88320",
            "init": "0xffffffff",
            "refin": True,
            "refout": True,
            "xorout": "0xffffffff",
            "check": "0xcbf43926",
            "residue_of_frame": f"0x{CRC_RESIDUE:08x}",
            "note": "The CRC is appended little-endian. The CRC-32 of a whole raw frame "
                    "(its CRC included) is then always the residue 0x2144df1c.",
            "vectors": [{"data": _hex(d), "crc": f"{zlib.crc32(d):08x}"} for d in crc_inputs],
        },
        "cobs": {
            "name": "Consistent Overhead Byte Stuffing (Cheshire & Baker 1999)",
            "note": "A run of 254 non-zero bytes makes a 0xff block that has no implied zero "
                    "after it; data ending with such a block gets no empty block after it. "
                    "Frames of this protocol are at most 62 bytes, so never meet that case.",
            "vectors": [{"data": _hex(d), "encoded": _hex(cobs_encode(d))} for d in cobs_inputs],
        },
    }


# --- valid messages -------------------------------------------------------------------------------

_ID = 0x0123456789ABCDEF

VALID: list[tuple[str, Message]] = [
    ("hello", Hello(1, 0, _ID, (1, 0, 0), (16, 16, 16), 7)),
    ("hello-zero-bytes", Hello(1, 0, 0x0000000100000000, (0, 0, 0), (2, 10, 16), 0)),
    ("hello-max", Hello(1, 255, 2**64 - 1, (255, 255, 255), (16, 16, 16), 255)),
    ("state", State(3, 0, 15, True, 7)),
    ("state-rest", State(0, 0, 0, False, 0)),
    ("state-max", State(15, 15, 15, True, 2**32 - 1)),
    ("state-seq-bytes", State(1, 2, 3, False, 0x01020304)),
    ("error-report", ErrorReport(ErrorCode.WHEEL_FAULT, "left wheel reads no valid position")),
    ("error-report-empty", ErrorReport(ErrorCode.INTERNAL, "")),
    ("error-report-utf8", ErrorReport(200, "roue gauche \u2717 d\u00e9faut")),
    ("error-report-48-bytes", ErrorReport(ErrorCode.VERSION_MISMATCH, "x" * MAX_TEXT_BYTES)),
    ("pong", Pong(0xDEADBEEF)),
    ("pong-zero", Pong(0)),
    ("host-hello", HostHello(1, 0)),
    ("welcome", Welcome(1, 0, True, "")),
    ("welcome-refused", Welcome(1, 0, False, version_mismatch_text((2, 0), (1, 0)))),
    ("assign-seat", AssignSeat(1, (255, 0, 0))),
    ("assign-seat-none", AssignSeat(0, (0, 0, 0))),
    ("set-lights", SetLights(True, False, True, (0, 128, 255))),
    ("set-lights-off", SetLights(False, False, False, (0, 0, 0))),
    ("identify", Identify(3000)),
    ("identify-stop", Identify(0)),
    ("request-state", RequestState()),
    ("ping", Ping(0x12345678)),
    # protocol 1.1
    ("hello-1.1", Hello(1, 1, _ID, (1, 0, 0), (16, 16, 16), 15)),
    ("hint", Hint(0b0000_0000_0001_0101, 0, 0)),
    ("hint-all-wheels", Hint(0xFFFF, 0x0100, 0x8001)),
    ("hint-clear", Hint(0, 0, 0)),
    ("choice-refused", ChoiceRefused(0b001, 1500)),
    ("choice-refused-stop", ChoiceRefused(0, 0)),
    ("show", Show(0b0000_0000_0000_1000, 0, 0)),
    ("show-clear", Show(0, 0, 0)),
]


def _messages() -> dict[str, Any]:
    vectors = []
    for name, message in VALID:
        vectors.append({
            "name": name,
            "direction": message.DIRECTION,
            "type_byte": f"0x{message.TYPE:02x}",
            **message_to_json(message),
            "raw": _hex(codec.encode_raw(message)),
            "serial": _hex(codec.encode(message)),
            "hid": _hex(codec.encode_hid_report(message)),
        })
    return {
        "description": "Valid messages: fields, the raw frame (type, payload, CRC-32 LE), the "
                       "serial frame (COBS of the raw frame, then 0x00) and the 64-byte HID "
                       "report (report id 1, raw frame length, raw frame, zero padding). "
                       "Encoding the fields must give exactly these bytes; decoding the bytes "
                       "must give exactly these fields.",
        "protocol_version": list(PROTOCOL_VERSION),
        "vectors": vectors,
    }


# --- invalid and tolerated input ------------------------------------------------------------------


def _bad(reason: str) -> dict[str, str]:
    return {"outcome": "bad", "reason": reason}


def _ok(message: Message) -> dict[str, Any]:
    return {"outcome": "message", "message": message_to_json(message)}


UNKNOWN = {"outcome": "unknown"}


def _serial_cases() -> list[tuple[str, str, bytes, list[dict[str, Any]]]]:
    state = State(3, 0, 15, True, 7)
    hello = Hello(1, 0, _ID, (1, 0, 0), (16, 16, 16), 7)
    s = codec.encode(state)
    h = codec.encode(hello)
    state_raw = codec.encode_raw(state)
    bad_crc = cobs_encode(state_raw[:-1] + bytes((state_raw[-1] ^ 0x01,))) + b"\x00"
    flipped = bytearray(state_raw)
    flipped[2] ^= 0x04
    error_48 = codec.encode_raw(ErrorReport(1, "y" * MAX_TEXT_BYTES))[:-4]
    max_size = error_48 + bytes(range(1, 1 + MAX_RAW_FRAME - 4 - len(error_48)))
    too_big = max_size + b"\x2a"
    hello_v2 = Hello(2, 0, _ID, (1, 0, 0), (16, 16, 16), 7)
    garbage = bytes((0x55, 0xAA, 0x13, 0x37, 0xFE, 0x01, 0x99))
    text_bytes = b"y" * (MAX_TEXT_BYTES + 1)
    ping = Ping(0x12345678)
    lights = SetLights(True, False, True, (1, 2, 3))
    welcome = codec.encode(Welcome(1, 2, True, ""))
    refusal_48 = codec.encode_raw(Welcome(1, 2, False, "r" * MAX_TEXT_BYTES))[:-4]
    return [
        ("two-frames", "Two frames in one read: both come out, in order.",
         s + h, [_ok(state), _ok(hello)]),
        ("bad-crc", "The last CRC byte has one bit flipped (COBS redone, so only the CRC "
         "is wrong): dropped and counted.", bad_crc, [_bad("crc")]),
        ("payload-bit-flip", "One payload bit flipped, CRC left as sent: dropped.",
         cobs_encode(bytes(flipped)) + b"\x00", [_bad("crc")]),
        ("truncated", "A Hello whose last 3 bytes before the delimiter were lost: dropped; "
         "the State after it is decoded.", h[:-4] + b"\x00" + s, [_bad("cobs"), _ok(state)]),
        ("truncated-no-delimiter", "Half a Hello without its delimiter, then a State: they "
         "read as one frame, dropped; the next State is decoded. (Why a sender writes a 0x00 "
         "first after a reset.)", h[: len(h) // 2] + s + s, [_bad("crc"), _ok(state)]),
        ("short-payload", "A State with 5 payload bytes instead of 8, CRC correct: too short "
         "for its type, dropped.", _frame(bytes((0x02, 3, 0, 15, 1, 7))), [_bad("layout")]),
        ("too-short", "A raw frame of 4 zero bytes: its CRC-32 is the residue, but a frame "
         "needs a type byte and 4 CRC bytes; dropped.", cobs_encode(bytes(4)) + b"\x00",
         [_bad("size")]),
        ("one-byte", "A raw frame of one byte: dropped.", b"\x02\x07\x00", [_bad("size")]),
        ("oversized-garbage", "100 non-zero bytes then a delimiter: over the 63-byte limit, "
         "dropped once; the State after it is decoded.", b"\x55" * 100 + b"\x00" + s,
         [_bad("size"), _ok(state)]),
        ("oversized-unterminated", "100 non-zero bytes and no delimiter: counted bad once "
         "the 63-byte limit is passed; the buffer stays bounded.", b"\x55" * 100,
         [_bad("size")]),
        ("oversized-valid-crc", f"A {MAX_RAW_FRAME + 1}-byte raw frame with a correct CRC: "
         "over the limit, dropped.", _frame(too_big), [_bad("size")]),
        ("max-size", f"A {MAX_RAW_FRAME}-byte raw frame (an ErrorReport with a 48-byte text "
         "and 7 bytes appended by a later minor version): accepted, the extra bytes ignored.",
         _frame(max_size), [_ok(ErrorReport(1, "y" * MAX_TEXT_BYTES))]),
        ("extension-bytes", "A State with 2 bytes appended (a later minor version's new "
         "fields): decoded, the extra bytes ignored.",
         _frame(state_raw[:-4] + b"\x01\x02"), [_ok(state)]),
        ("unknown-type", "A well-formed frame of type 0x7e (unknown): ignored and counted "
         "apart from bad frames; the State after it is decoded.",
         _frame(b"\x7e\x01\x02\x03") + s, [UNKNOWN, _ok(state)]),
        ("unknown-type-empty", "A well-formed frame of type 0x40 with no payload: ignored.",
         _frame(b"\x40"), [UNKNOWN]),
        ("cobs-invalid", "A COBS code byte pointing past the end of the frame: dropped.",
         b"\x05\x01\x02\x00" + s, [_bad("cobs"), _ok(state)]),
        ("empty-frames", "Delimiters with nothing between them are ignored, not counted.",
         b"\x00\x00\x00" + s + b"\x00\x00", [_ok(state)]),
        ("garbage-then-frame", "Line noise, a delimiter, then a frame: the noise is one bad "
         "frame, the frame is decoded.", garbage + b"\x00" + s, [_bad("cobs"), _ok(state)]),
        ("position-out-of-range", "A State with left = 16 (positions are 0..15), CRC "
         "correct: dropped.", _frame(bytes((0x02, 16, 0, 0, 0, 1, 0, 0, 0))),
         [_bad("layout")]),
        ("lock-byte-2", "A State whose locked byte is 2 (must be 0 or 1): dropped.",
         _frame(bytes((0x02, 1, 2, 3, 2, 1, 0, 0, 0))), [_bad("layout")]),
        ("geometry-out-of-range", "A Hello announcing wheels of 1 and 17 positions: dropped.",
         _frame(bytes((0x01, 1, 0)) + struct.pack("<Q", _ID) + bytes((1, 0, 0, 1, 16, 17, 7))),
         [_bad("layout")]),
        ("bad-utf8", "An ErrorReport whose text is not UTF-8: dropped.",
         _frame(bytes((0x03, 2, 2, 0xFF, 0xFE))), [_bad("layout")]),
        ("text-overrun", "An ErrorReport whose text length says 10 but 3 bytes follow: "
         "dropped.", _frame(bytes((0x03, 2, 10)) + b"abc"), [_bad("layout")]),
        ("text-too-long", "An ErrorReport with a 49-byte text (limit 48): dropped.",
         _frame(bytes((0x03, 2, len(text_bytes))) + text_bytes), [_bad("layout")]),
        ("welcome-bool-2", "A Welcome whose accepted byte is 2: dropped.",
         _frame(bytes((0x82, 1, 0, 2, 0))), [_bad("layout")]),
        ("wrong-version", "A Hello of protocol 2.0: well-formed, so decoded; refusing it is "
         "the handshake's job (handshake.json).", codec.encode(hello_v2), [_ok(hello_v2)]),
        ("hint-short", "A Hint (1.1) with 5 payload bytes instead of 6: dropped.",
         _frame(bytes((0x88, 1, 0, 0, 0, 0))), [_bad("layout")]),
        ("choice-refused-short", "A ChoiceRefused (1.1) with 2 payload bytes instead of 3: "
         "dropped.", _frame(bytes((0x89, 1, 0xDC))), [_bad("layout")]),
        ("hint-extension-bytes", "A Hint with 1 byte appended (a later minor version's new "
         "field): decoded, the extra byte ignored.",
         _frame(codec.encode_raw(Hint(3, 0, 0))[:-4] + b"\x07"), [_ok(Hint(3, 0, 0))]),
        ("text-49-bytes-welcome", "A Welcome whose reason is 49 bytes (limit 48): dropped. "
         "A sender cuts its text to 48 bytes on a character boundary instead.",
         _frame(bytes((0x82, 1, 1, 0, 49)) + b"r" * 49), [_bad("layout")]),
        # The same checks on frames a controller receives (most cases above carry a State or a
        # Hello, which a controller only counts as unknown: expect_controller).
        ("two-commands", "A Ping and a SetLights in one read: both come out, in order.",
         codec.encode(ping) + codec.encode(lights), [_ok(ping), _ok(lights)]),
        ("truncated-command-no-delimiter", "Half a Welcome without its delimiter, then two "
         "Pings: the half and the first Ping read as one frame, dropped; the second Ping is "
         "decoded.", welcome[: len(welcome) // 2] + codec.encode(ping) + codec.encode(ping),
         [_bad("crc"), _ok(ping)]),
        ("max-size-command", f"A {MAX_RAW_FRAME}-byte Welcome (a 48-byte reason and bytes "
         "appended by a later minor version): accepted, the extra bytes ignored.",
         _frame(refusal_48 + bytes(range(1, 1 + MAX_RAW_FRAME - 4 - len(refusal_48)))),
         [_ok(Welcome(1, 2, False, "r" * MAX_TEXT_BYTES))]),
        ("set-lights-bool-2", "A SetLights whose left byte is 2 (must be 0 or 1): dropped.",
         _frame(bytes((0x84, 2, 0, 0, 1, 2, 3))), [_bad("layout")]),
        ("show-short", "A Show (1.2) with 5 payload bytes instead of 6: dropped.",
         _frame(bytes((0x8A, 8, 0, 0, 0, 0))), [_bad("layout")]),
        ("unknown-command-type", "A well-formed frame of type 0xfe (a host -> controller type "
         "of a later version): ignored and counted apart; the Ping after it is decoded.",
         _frame(b"\xfe\x01\x02") + codec.encode(ping), [UNKNOWN, _ok(ping)]),
    ]


def _hid_cases() -> list[tuple[str, str, bytes, dict[str, Any]]]:
    state = State(3, 0, 15, True, 7)
    raw = codec.encode_raw(state)
    good = codec.encode_hid_report(state)
    bad_crc = raw[:-1] + bytes((raw[-1] ^ 0x80,))
    padded = bytearray(good)
    padded[-1] = 0xEE
    return [
        ("hid-ok", "A State report.", good, _ok(state)),
        ("hid-nonzero-padding", "Padding bytes that are not zero are ignored.", bytes(padded),
         _ok(state)),
        ("hid-wrong-report-id", "Report id 2: not ours, dropped.", _report(raw, report_id=2),
         _bad("report")),
        ("hid-length-zero", "Frame length 0: dropped.", _report(raw, length=0), _bad("size")),
        ("hid-length-too-big", "Frame length 63 (limit 62): dropped.", _report(raw, length=63),
         _bad("size")),
        ("hid-short-report", "A 10-byte report whose length byte says 13: dropped.",
         good[:10], _bad("size")),
        ("hid-long-report", "A 65-byte report: dropped.", good + b"\x00", _bad("report")),
        ("hid-bad-crc", "One CRC bit flipped: dropped.", _report(bad_crc), _bad("crc")),
        ("hid-unknown-type", "A well-formed frame of unknown type 0x7e: ignored.",
         _report(_raw(b"\x7e\x01")), UNKNOWN),
        ("hid-layout", "A State with position 16, CRC correct: dropped.",
         _report(_raw(bytes((0x02, 16, 0, 0, 0, 1, 0, 0, 0)))), _bad("layout")),
        ("hid-wrong-id-and-length", "Report id 2 and frame length 0: dropped; the report "
         "check (id, report size) comes first, so the reason is report.",
         _report(raw, length=0, report_id=2), _bad("report")),
        ("hid-long-and-bad-crc", "A 65-byte report carrying a frame with a bad CRC: dropped "
         "as report (checked before the frame).", _report(bad_crc, size=65), _bad("report")),
        ("hid-one-byte", "A report of just its id: dropped (report).", bytes((1,)),
         _bad("report")),
    ]


def hid_reason(report: bytes) -> str:
    """Why a HID report is dropped, checks in SPEC.md 5 order (the first failed one wins):
    report (size 2..64, id 1), size (frame length 5..62 and present), crc, layout."""
    if not 2 <= len(report) <= HID_REPORT_SIZE or report[0] != HID_REPORT_ID:
        return "report"
    n = report[1]
    if not 5 <= n <= MAX_RAW_FRAME or 2 + n > len(report):
        return "size"
    if zlib.crc32(report[2:2 + n]) != CRC_RESIDUE:
        return "crc"
    return "layout"


def _classify(part: bytes) -> dict[str, Any]:
    """What the decoder does with one delimited part (the reason, for the record)."""
    if len(part) > MAX_ENCODED_FRAME:
        return _bad("size")
    try:
        raw = cobs_decode(part)
    except Exception:  # noqa: BLE001
        return _bad("cobs")
    if not 5 <= len(raw) <= MAX_RAW_FRAME:
        return _bad("size")
    if zlib.crc32(raw) != CRC_RESIDUE:
        return _bad("crc")
    try:
        return _ok(codec.decode_raw(raw))
    except codec.UnknownMessageType:
        return UNKNOWN
    except codec.BadFrame:
        return _bad("layout")


def _classify_for_controller(part: bytes) -> dict[str, Any]:
    """The same part as a controller judges it (SPEC.md 10.2): a frame that passes the framing
    checks but is of a controller -> host type (below 0x80) is unknown to it, whatever its
    layout; host -> controller frames as the codec says."""
    said = _classify(part)
    if said["outcome"] == "bad" and said["reason"] != "layout":
        return said
    return UNKNOWN if cobs_decode(part)[0] < 0x80 else said


def _expect_counts(frames: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "messages": [f["message"] for f in frames if f["outcome"] == "message"],
        "bad_frames": sum(f["outcome"] == "bad" for f in frames),
        "unknown_messages": sum(f["outcome"] == "unknown" for f in frames),
    }


def _invalid() -> dict[str, Any]:
    serial = []
    for name, description, data, frames in _serial_cases():
        # Check the stated intent against the codec, frame by frame and as a stream.
        parts = data.split(b"\x00")
        tail = parts.pop()
        seen = [_classify(p) for p in parts if p]
        for_controller = [_classify_for_controller(p) for p in parts if p]
        if len(tail) > MAX_ENCODED_FRAME:
            seen.append(_bad("size"))
            for_controller.append(_bad("size"))
        if seen != frames:
            raise AssertionError(f"vector {name}: intended {frames}, codec says {seen}")
        expect = _expect_counts(frames)
        decoder = codec.Decoder()
        got = [message_to_json(m) for m in decoder.feed(data)]
        if (got, decoder.bad_frames, decoder.unknown_messages) != (
                expect["messages"], expect["bad_frames"], expect["unknown_messages"]):
            raise AssertionError(f"vector {name}: the decoder disagrees with its frames")
        serial.append({"name": name, "description": description, "input": _hex(data),
                       "frames": frames, "expect": expect,
                       "expect_controller": _expect_counts(for_controller)})
    hid = []
    for name, description, report, outcome in _hid_cases():
        counter = codec.HidDecoder()
        message = counter.decode(report)
        said = _ok(message) if message is not None else (
            UNKNOWN if counter.unknown_messages else _bad(hid_reason(report)))
        if said != outcome:
            raise AssertionError(f"HID vector {name}: intended {outcome}, codec says {said}")
        controller_view = outcome
        if outcome["outcome"] != "bad" or outcome["reason"] == "layout":
            controller_view = UNKNOWN if report[2] < 0x80 else outcome
        hid.append({"name": name, "description": description, "input": _hex(report),
                    "expect": outcome, "expect_controller": controller_view})
    return {
        "description": "Input that must be dropped or ignored, and edge cases that must be "
                       "accepted. serial: a byte stream, each delimited frame's outcome in "
                       "order (message / bad with a reason / unknown), and the totals a "
                       "decoder fed the whole stream, split anywhere, must reach. hid: one "
                       "report and its outcome. Reasons: cobs, size, crc, layout (payload "
                       "too short or a field out of range), report (wrong id or report size). "
                       "frames and expect are a codec's view (it knows every type of both "
                       "directions); expect_controller is a controller's: a frame of a "
                       "controller -> host type that passes the framing checks is unknown "
                       "to it, whatever its layout (SPEC 10.2).",
        "serial": serial,
        "hid": hid,
    }


# --- handshake ------------------------------------------------------------------------------------


#: What a controller is after a case (the `then` of handshake.json), machine-checkable.
def _running(hint: tuple[int, int, int] = (0, 0, 0), colour_led: str = "off",
             **extra: Any) -> dict[str, Any]:
    return {"mode": "running", "sends_state": True, "hello_every_ms": None,
            "colour_led": colour_led, "hint": list(hint), **extra}


def _awaiting() -> dict[str, Any]:
    return {"mode": "awaiting-welcome", "sends_state": False,
            "hello_every_ms": HELLO_RETRY_MS, "colour_led": "off"}


def _refused() -> dict[str, Any]:
    return {"mode": "refused", "sends_state": False,
            "hello_every_ms": REFUSED_RETRY_MS, "colour_led": "refused-blink"}


def _handshake() -> dict[str, Any]:
    cases = []

    def host_case(name: str, description: str, hello: Hello, appended: bytes = b"") -> None:
        reply = host_welcome(hello)
        theirs = (hello.protocol_major, hello.protocol_minor)
        wire = codec.encode(hello) if not appended else _frame(codec.encode_raw(hello)[:-4] + appended)
        cases.append({
            "name": name, "side": "host", "description": description,
            "receives": message_to_json(hello), "receives_serial": _hex(wire),
            "replies": [message_to_json(reply)],
            "replies_serial": [_hex(codec.encode(reply))],
            "then": {"link": "active" if reply.accepted else "refused",
                     "accepts_state": bool(reply.accepted),
                     "sends_private_hints": bool(reply.accepted)
                     and supports_private_hints(theirs)},
        })

    def controller_case(name: str, description: str, message: Message,
                        replies: list[Message], then: dict[str, Any],
                        given: str = "booted") -> None:
        cases.append({
            "name": name, "side": "controller", "given": given, "description": description,
            "receives": message_to_json(message),
            "receives_serial": _hex(codec.encode(message)),
            "replies": [message_to_json(m) for m in replies],
            "replies_serial": [_hex(codec.encode(m)) for m in replies],
            "then": then,
        })

    ours = PROTOCOL_VERSION
    hello = Hello(ours[0], ours[1], _ID, (1, 0, 0), (16, 16, 16), 7)
    host_case("host-accepts", "Same major and minor: accepted; Hint and ChoiceRefused may be "
              "sent.", hello)
    host_case("host-accepts-1.0", "A 1.0 controller: accepted, but the host never sends it a "
              "1.1 message (Hint, ChoiceRefused); it uses Identify to say a choice was refused.",
              Hello(1, 0, _ID, (1, 0, 0), (16, 16, 16), 7))
    host_case("host-accepts-other-minor", "Same major, newer minor: accepted.",
              Hello(1, 3, _ID, (1, 0, 0), (16, 16, 16), 7))
    host_case("host-accepts-appended-bytes", "A 1.0 controller's Hello with 40 bytes appended "
              "(the largest raw frame, 62 bytes): a receiver accepts and ignores bytes appended to a "
              "payload whatever minor the sender announced (SPEC 11); accepted as any 1.0 one.",
              Hello(1, 0, _ID, (1, 0, 0), (16, 16, 16), 7), appended=bytes(range(1, 41)))
    host_case("host-refuses-major", "Another major: refused, the reason naming both versions.",
              Hello(2, 0, _ID, (1, 0, 0), (16, 16, 16), 7))
    mismatch = ErrorReport(ErrorCode.VERSION_MISMATCH, version_mismatch_text((2, 0), ours))
    welcome = Welcome(ours[0], ours[1], True, "")
    controller_case(
        "controller-welcomed", "A freshly booted controller is welcomed: it sends a State at "
        "once, seq 0.", welcome, [State(0, 0, 0, False, 0)], _running())
    controller_case(
        "controller-welcomed-by-1.0-host", "A 1.0 host welcomes a 1.1 controller: same major, "
        "so accepted.", Welcome(1, 0, True, ""), [State(0, 0, 0, False, 0)], _running())
    controller_case(
        "controller-refused", "The host refuses the controller.",
        Welcome(ours[0], ours[1], False, "duplicate controller id"), [], _refused())
    controller_case(
        "controller-refuses-welcome", "The host accepts but speaks major 2: the controller "
        "refuses it.", Welcome(2, 0, True, ""), [mismatch], _refused())
    controller_case(
        "controller-host-hello-other-major", "A HostHello of major 2: the controller "
        "introduces itself, says it cannot speak 2.x, and is refused.", HostHello(2, 0),
        [hello, mismatch], _refused())
    controller_case(
        "controller-host-hello", "A HostHello of the same major: the controller introduces "
        "itself (the Hello timer restarts).", HostHello(ours[0], ours[1]), [hello], _awaiting())
    controller_case(
        "controller-ping", "A Ping is answered in every mode.", Ping(0xCAFE), [Pong(0xCAFE)],
        _awaiting())
    controller_case(
        "controller-request-state-awaiting", "RequestState before a Welcome: a Hello.",
        RequestState(), [hello], _awaiting())
    controller_case(
        "controller-hint-before-welcome", "A Hint before the Welcome is ignored.",
        Hint(3, 0, 0), [], _awaiting())
    controller_case(
        "controller-state-from-host", "A message meant for the host (a State, looped back) is "
        "ignored, and counted as unknown, not bad.", State(1, 2, 3, False, 9), [], _awaiting(),
    )
    controller_case(
        "controller-running-hint", "A running controller stores a Hint and shows it; it "
        "answers nothing.", Hint(0b101, 0, 0), [], _running(hint=(0b101, 0, 0)),
        given="running")
    controller_case(
        "controller-running-hint-above-geometry-is-no-hint", "Bits at or above a wheel's "
        "positions are dropped when a Hint is stored (here the wheels have 16 stops, so no bit "
        "is dropped; lights.json has wheels of fewer stops).", Hint(0xFFFF, 0x8000, 0), [],
        _running(hint=(0xFFFF, 0x8000, 0)), given="running")
    controller_case(
        "controller-running-hint-from-1.0-host", "A Hint from a host that said 1.0 in its "
        "Welcome is obeyed all the same: a message means the same whatever minor the peer "
        "announced (SPEC 11).", Hint(0b11, 0, 0), [], _running(hint=(0b11, 0, 0)),
        given="running-host-1.0")
    controller_case(
        "controller-running-show", "A running controller (1.2) stores a Show and shows it "
        "(shown stops blink); it is no hint: the hint is unchanged.", Show(0b1000, 0, 0), [],
        _running(shown=[0b1000, 0, 0]), given="running")
    controller_case(
        "controller-show-before-welcome", "A Show before the Welcome is ignored.",
        Show(0b1000, 0, 0), [], {**_awaiting(), "shown": [0, 0, 0]})
    controller_case(
        "controller-running-choice-refused", "A running controller shows a refused choice: "
        "the colour LED blinks red (IDENTIFY_BLINK_MS half period, starting red at once) for "
        "duration_ms; it answers nothing.", ChoiceRefused(0b001, 1500), [],
        _running(colour_led="choice-refused-blink"), given="running")
    controller_case(
        "controller-running-host-hello", "A HostHello while running: a Hello, no more State "
        "until the new Welcome.", HostHello(ours[0], ours[1]), [hello], _awaiting(),
        given="running")
    controller_case(
        "controller-running-refused", "A refusing Welcome while running (e.g. the host found "
        "a twin): the controller stops sending State.",
        Welcome(ours[0], ours[1], False, "duplicate controller id"), [], _refused(),
        given="running")
    controller_case(
        "controller-running-welcome-again", "A Welcome while running (the answer to an "
        "earlier Hello) changes nothing: no State, the session goes on.", welcome, [],
        _running(), given="running")
    return {
        "description": "Handshake exchanges. side host: what a host replies to a Hello, and "
                       "what it then does with the link (then.link, then.accepts_state, "
                       "then.sends_private_hints). side controller: what a controller replies "
                       "to a host message, from a given start (given: booted = it has just "
                       "booted and sent its Hello; running = booted, then welcomed by "
                       f"Welcome({ours[0]}.{ours[1]}, accepted), its State answered; "
                       "running-host-1.0 = the same with Welcome(1.0, accepted); the "
                       f"controller: id {_ID:#018x}, firmware 1.0.0, protocol "
                       f"{ours[0]}.{ours[1]}, wheels 16/16/16, capabilities 7, wheels at 0, "
                       "lock open), and what it is after (then: mode, sends_state, "
                       "hello_every_ms, colour_led, hint, shown; see README.md). Reason and error "
                       "texts are for people: only their presence is normative, not their "
                       "wording.",
        "cases": cases,
    }


# --- lights ---------------------------------------------------------------------------------------

#: Colours the light timelines use.
_BLUE, _RED, _WHITE, _OFF = [0, 0, 255], [255, 0, 0], [255, 255, 255], [0, 0, 0]


def _at(ms: int, message: Message) -> dict[str, Any]:
    return {"at": ms, "receives": message_to_json(message), "receives_serial": _hex(codec.encode(message))}


def _seen(ms: int, path: list[bool], colour: list[int], stops: list[int] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"at": ms, "path": path, "colour": colour}
    if stops is not None:
        out["stops"] = stops
    return out


def _lights() -> dict[str, Any]:
    """Light timelines (SPEC 8.4), written out by hand from the SPEC, not from a firmware: what
    a controller shows at given times after given messages. Every sample lies at least 10 ms
    away from any change, so a firmware sampling every 5 ms passes."""
    no_ring, ring = 7, 15                       # capabilities: without / with stop lights
    f16 = [16, 16, 16]
    lit = SetLights(True, True, False, (0, 0, 255))
    cases = [
        {"name": "choice-refused-next-to-a-hint",
         "description": "ChoiceRefused(left, 500 ms) on a board without stop lights, the left wheel "
                        "hinted (stop 1 valid, the wheel on 0: its path light off). The refused "
                        "wheel's path light blinks in phase with the colour LED (on while red); "
                        "the others show what they would without the refusal (centre: as set); "
                        "afterwards everything is as before.",
         "capabilities": no_ring, "positions": f16, "given": "running",
         "steps": [_at(0, lit), _at(0, Hint(0b10, 0, 0)), _at(100, ChoiceRefused(0b001, 500))],
         "expect": [_seen(50, [False, True, False], _BLUE),
                    _seen(160, [True, True, False], _RED), _seen(290, [False, True, False], _OFF),
                    _seen(410, [True, True, False], _RED), _seen(540, [False, True, False], _OFF),
                    _seen(650, [False, True, False], _BLUE)]},
        {"name": "choice-refused-no-wheel",
         "description": "ChoiceRefused(wheels = 0, 300 ms): only the colour LED blinks; every path "
                        "light stays as set.",
         "capabilities": no_ring, "positions": f16, "given": "running",
         "steps": [_at(0, lit), _at(0, ChoiceRefused(0, 300))],
         "expect": [_seen(60, [True, True, False], _RED), _seen(190, [True, True, False], _OFF),
                    _seen(310, [True, True, False], _BLUE)]},
        {"name": "choice-refused-stop-lights",
         "description": "With stop lights, a refusal leaves the rings as they were (the hint); "
                        "only the refused wheels' path lights and the colour LED blink.",
         "capabilities": ring, "positions": f16, "given": "running",
         "steps": [_at(0, lit), _at(0, Hint(0b110, 0, 0)), _at(0, ChoiceRefused(0b010, 500))],
         "expect": [_seen(60, [True, True, False], _RED, [0b110, 0, 0]),
                    _seen(190, [True, False, False], _OFF, [0b110, 0, 0]),
                    _seen(560, [True, True, False], _BLUE, [0b110, 0, 0])]},
        {"name": "identify-stop-lights",
         "description": "Identify(500) on a board with stop lights and wheels of 6, 4 and 16 stops: "
                        "in the on half every stop of every ring is lit, every path light is on and "
                        "the LED is white; in the off half all of them are off; it overrides the "
                        "hint and a refusal, then everything is as before.",
         "capabilities": ring, "positions": [6, 4, 16], "given": "running",
         "steps": [_at(0, lit), _at(0, Hint(0b11, 0, 0)), _at(100, Identify(500))],
         "expect": [_seen(50, [True, True, False], _BLUE, [0b11, 0, 0]),
                    _seen(160, [True, True, True], _WHITE, [0x3F, 0xF, 0xFFFF]),
                    _seen(290, [False, False, False], _OFF, [0, 0, 0]),
                    _seen(410, [True, True, True], _WHITE, [0x3F, 0xF, 0xFFFF]),
                    _seen(650, [True, True, False], _BLUE, [0b11, 0, 0])]},
        {"name": "hint-under-16-stops-stop-lights",
         "description": "Wheels of 6, 4 and 16 stops: a Hint's bits at or above a wheel's stops "
                        "are dropped when stored; the centre mask (only bit 4) becomes 0: no hint.",
         "capabilities": ring, "positions": [6, 4, 16], "given": "running",
         "steps": [_at(0, Hint(0xFFE1, 0b1_0000, 0x8000))],
         "expect": [_seen(50, [False, False, False], _OFF, [0b10_0001, 0, 0x8000])],
         "hint": [0b10_0001, 0, 0x8000]},
        {"name": "hint-above-geometry-is-no-hint",
         "description": "Without stop lights, wheels of 6, 4 and 16 stops: a centre mask whose bits "
                        "all lie at or above 4 is stored as 0, no hint: the centre path light "
                        "shows what SetLights said (on), not 'no valid stop here' (off). The left "
                        "wheel (on stop 0, hinted 1) has its light off.",
         "capabilities": no_ring, "positions": [6, 4, 16], "given": "running",
         "steps": [_at(0, lit), _at(0, Hint(0b10, 0b11_0000, 0))],
         "expect": [_seen(50, [False, True, False], _BLUE)], "hint": [0b10, 0, 0]},
        {"name": "show-stop-lights",
         "description": "Show(left stop 3) next to Hint(left stops 1, 2), stop lights: the shown "
                        "stop blinks (SHOW_BLINK_MS, on first, from the Show's arrival), the hinted "
                        "ones are lit steadily; Show(0, 0, 0) ends it.",
         "capabilities": ring, "positions": f16, "given": "running",
         "steps": [_at(0, Hint(0b110, 0, 0)), _at(100, Show(0b1000, 0, 0)), _at(700, Show(0, 0, 0))],
         "expect": [_seen(50, [False, False, False], _OFF, [0b110, 0, 0]),
                    _seen(200, [False, False, False], _OFF, [0b1110, 0, 0]),
                    _seen(450, [False, False, False], _OFF, [0b110, 0, 0]),
                    _seen(650, [False, False, False], _OFF, [0b1110, 0, 0]),
                    _seen(750, [False, False, False], _OFF, [0b110, 0, 0])]},
        {"name": "show-path-light",
         "description": "Show(left stop 3) next to Hint(left stops 1, 2), no stop lights: while the "
                        "left wheel rests on the shown stop its path light blinks (SHOW_BLINK_MS, "
                        "on first, from the Show's arrival); on a hinted stop it is on; elsewhere "
                        "off. The wheel turns to 3 at 0 ms and to 1 at 600 ms (each counted "
                        "DEBOUNCE_MS later).",
         "capabilities": no_ring, "positions": f16, "given": "running",
         "steps": [{"at": 0, "wheels": [3, 0, 0]}, _at(0, Hint(0b110, 0, 0)), _at(0, Show(0b1000, 0, 0)),
                   {"at": 600, "wheels": [1, 0, 0]}],
         "expect": [_seen(100, [True, False, False], _OFF), _seen(300, [False, False, False], _OFF),
                    _seen(560, [True, False, False], _OFF), _seen(700, [True, False, False], _OFF),
                    _seen(800, [True, False, False], _OFF)]},
        {"name": "show-repeated-restarts-blink",
         "description": "The same Show sent again 200 ms later (a host sends it again when the "
                        "controller comes back, or with a new prompt) restarts the blink, on, from "
                        "its arrival (SPEC 6.15): on 200-450 ms, off 450-700, on again.",
         "capabilities": ring, "positions": f16, "given": "running",
         "steps": [_at(0, Show(0b1000, 0, 0)), _at(200, Show(0b1000, 0, 0))],
         "expect": [_seen(100, [False, False, False], _OFF, [0b1000, 0, 0]),
                    _seen(300, [False, False, False], _OFF, [0b1000, 0, 0]),
                    _seen(500, [False, False, False], _OFF, [0, 0, 0]),
                    _seen(720, [False, False, False], _OFF, [0b1000, 0, 0])]},
        {"name": "identify-outlives-new-session",
         "description": "Identify(600) before the Welcome, then a Welcome at 100 ms: the new "
                        "session clears seat, lights, hint, show and a refusal, not the Identify "
                        "(obeyed in any mode, SPEC 7.2, 8.3): it blinks on to its end, then "
                        "everything is off (a session's start).",
         "capabilities": no_ring, "positions": f16, "given": "booted",
         "steps": [_at(0, Identify(600)),
                   _at(100, Welcome(PROTOCOL_VERSION[0], PROTOCOL_VERSION[1], True, ""))],
         "expect": [_seen(50, [True, True, True], _WHITE), _seen(160, [False, False, False], _OFF),
                    _seen(300, [True, True, True], _WHITE), _seen(400, [False, False, False], _OFF),
                    _seen(550, [True, True, True], _WHITE), _seen(700, [False, False, False], _OFF)]},
        {"name": "awaiting-stop-lights-off",
         "description": "Before the Welcome every light is off, stop lights included; a Hint and a "
                        "Show are ignored.",
         "capabilities": ring, "positions": f16, "given": "booted",
         "steps": [_at(0, Hint(0b11, 0, 0)), _at(0, Show(0b100, 0, 0))],
         "expect": [_seen(60, [False, False, False], _OFF, [0, 0, 0])]},
        {"name": "refused-stop-lights-off",
         "description": "REFUSED: path and stop lights off, the colour LED red / off every "
                        "REFUSED_BLINK_MS, red first.",
         "capabilities": ring, "positions": f16, "given": "booted",
         "steps": [_at(0, Welcome(PROTOCOL_VERSION[0], PROTOCOL_VERSION[1], False, "duplicate controller id"))],
         "expect": [_seen(100, [False, False, False], _RED, [0, 0, 0]),
                    _seen(600, [False, False, False], _OFF, [0, 0, 0]),
                    _seen(1100, [False, False, False], _RED, [0, 0, 0])]},
    ]
    return {
        "description": "Light timelines (SPEC 8.4). The controller (as in handshake.json, with the "
                       "given capabilities and positions) starts from given (booted, or running: "
                       "welcomed, its State sent, every light off) at 0 ms; each step happens at "
                       "its time in ms (receives: a message from the host; wheels: the raw wheel "
                       "readings from then on); each expect sample says what the path lights, the "
                       "colour LED and (when given, boards with stop lights) the stop rings show "
                       "at that time. Samples lie at least 10 ms from any change. hint, when "
                       "given: the masks the controller holds at the end.",
        "cases": cases,
    }


def build() -> dict[str, Any]:
    """Every vector file's content, by file name."""
    return {
        "primitives.json": _primitives(),
        "messages.json": _messages(),
        "invalid.json": _invalid(),
        "handshake.json": _handshake(),
        "lights.json": _lights(),
    }


def render(content: Any) -> str:
    return json.dumps(content, indent=2, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_protocol.testvectors")
    parser.add_argument("--check", action="store_true", help="only check the files are current")
    args = parser.parse_args(argv)
    stale = []
    for name, content in build().items():
        path = vectors_dir() / name
        text = render(content)
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(name)
        if not args.check:
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    print(("rewrote: " + ", ".join(stale)) if stale else "vectors are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
