"""The codec: message values, round trips of every type, the streaming decoder's contract."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import firmware_protocol as fp
from firmware_protocol import constants
from firmware_protocol.firmware import wire
from firmware_protocol.strategies import message_of, messages

ALL_CLASSES = list(fp.MESSAGE_TYPES.values())


# --- message values -------------------------------------------------------------------------------


def test_messages_are_frozen_dataclasses() -> None:
    state = fp.State(left=3, centre=0, right=15, locked=True, seq=7)
    assert dataclasses.is_dataclass(state)
    names = ["left", "centre", "right", "locked", "seq"]
    assert [f.name for f in dataclasses.fields(state)] == names
    assert dataclasses.asdict(state) == dict(zip(names, (3, 0, 15, True, 7), strict=True))
    assert dataclasses.replace(state, seq=8) == fp.State(3, 0, 15, True, 8)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.left = 4  # type: ignore[misc]
    assert repr(state) == "State(left=3, centre=0, right=15, locked=True, seq=7)"
    assert pickle.loads(pickle.dumps(state)) == state
    assert copy.deepcopy(state) == state
    assert hash(state) == hash(fp.State(3, 0, 15, True, 7))
    match state:
        case fp.State(left, centre, right, locked, seq):
            assert (left, centre, right, locked, seq) == (3, 0, 15, True, 7)


def test_messages_never_equal_tuples_or_other_types() -> None:
    assert fp.State(3, 0, 15, True, 7) != (3, 0, 15, True, 7)
    assert (3, 0, 15, True, 7) != fp.State(3, 0, 15, True, 7)
    assert fp.Ping(5) != fp.Pong(5)
    assert not fp.Ping(5) == fp.Pong(5)
    assert len({fp.Ping(5), fp.Pong(5), fp.Ping(5)}) == 2
    assert bool(fp.RequestState())
    with pytest.raises(TypeError):
        _ = fp.Ping(1) < fp.Ping(2)


def test_field_types_are_plain() -> None:
    hello = fp.Hello(1, 0, 2**64 - 1, [1, 2, 3], [16, 10, 2], fp.Capability.LOCK_SWITCH)
    assert type(hello.firmware_version) is tuple and type(hello.positions) is tuple
    assert type(hello.capabilities) is int
    assert fp.ErrorReport(fp.ErrorCode.WHEEL_FAULT).code.__class__ is int
    assert fp.State(0, 0, 0, 1, 0).locked is True


@pytest.mark.parametrize(
    "build, error",
    [
        (lambda: fp.State(16, 0, 0, False, 0), ValueError),
        (lambda: fp.State(-1, 0, 0, False, 0), ValueError),
        (lambda: fp.State(0, 0, 0, 2, 0), TypeError),
        (lambda: fp.State(0, 0, 0, False, 2**32), ValueError),
        (lambda: fp.State(0, 0, True, False, 0), TypeError),
        (lambda: fp.State(0, 0, 0, False), TypeError),
        (lambda: fp.State(0, 0, 0, False, 0, 0), TypeError),
        (lambda: fp.State(0, 0, 0, False, seq=1, left=2), TypeError),
        (lambda: fp.State(0, 0, 0, False, 0, colour=1), TypeError),
        (lambda: fp.Hello(1, 0, 2**64, (1, 0, 0), (16, 16, 16), 7), ValueError),
        (lambda: fp.Hello(1, 0, 1, (1, 0, 0), (1, 16, 16), 7), ValueError),
        (lambda: fp.Hello(1, 0, 1, (1, 0, 0), (16, 16, 17), 7), ValueError),
        (lambda: fp.Hello(1, 0, 1, (1, 0), (16, 16, 16), 7), ValueError),
        (lambda: fp.AssignSeat(1, "red"), TypeError),
        (lambda: fp.AssignSeat(1, (256, 0, 0)), ValueError),
        (lambda: fp.ErrorReport(1, "x" * 49), ValueError),
        (lambda: fp.ErrorReport(1, "é" * 25), ValueError),
        (lambda: fp.ErrorReport(1, "\ud800"), ValueError),
        (lambda: fp.ErrorReport(1, b"bytes"), TypeError),
        (lambda: fp.Identify(65536), ValueError),
    ],
)
def test_invalid_fields_are_refused(build, error) -> None:
    with pytest.raises(error):
        build()


def test_type_codes_and_directions() -> None:
    for cls in ALL_CLASSES:
        assert cls.TYPE == constants.MessageType[_snake(cls.__name__)]
        to_controller = bool(cls.TYPE & 0x80)
        assert cls.DIRECTION == (fp.HOST_TO_CONTROLLER if to_controller else fp.CONTROLLER_TO_HOST)


def _snake(name: str) -> str:
    return "".join("_" + c if c.isupper() else c for c in name).lstrip("_").upper()


def test_firmware_constants_match_host() -> None:
    assert (wire.PROTOCOL_MAJOR, wire.PROTOCOL_MINOR) == fp.PROTOCOL_VERSION
    for name in ("HEARTBEAT_MS", "DEBOUNCE_MS", "HELLO_RETRY_MS", "REFUSED_RETRY_MS",
                 "IDENTIFY_BLINK_MS", "REFUSED_BLINK_MS", "MAX_RAW_FRAME", "MAX_ENCODED_FRAME",
                 "MIN_RAW_FRAME", "MAX_TEXT_BYTES", "CRC_RESIDUE", "HID_REPORT_ID",
                 "HID_REPORT_SIZE"):
        assert getattr(wire, name) == getattr(fp, name), name
    for member in constants.MessageType:
        assert getattr(wire, "T_" + member.name) == member
    for member in constants.Capability:
        assert getattr(wire, "CAP_" + member.name) == member
    for member in constants.ErrorCode:
        assert getattr(wire, "ERR_" + member.name) == member
    assert fp.MAX_FRAME_SIZE == fp.MAX_ENCODED_FRAME + 1 == fp.MAX_RAW_FRAME + 2
    assert fp.LOST_AFTER_MS >= 3 * fp.HEARTBEAT_MS


def test_largest_messages_fit_every_limit() -> None:
    longest = [
        fp.Welcome(255, 255, False, "x" * fp.MAX_TEXT_BYTES),
        fp.ErrorReport(255, "x" * fp.MAX_TEXT_BYTES),
        fp.Hello(255, 255, 2**64 - 1, (255,) * 3, (16,) * 3, 255),
    ]
    for message in longest:
        assert len(fp.encode_raw(message)) <= fp.MAX_RAW_FRAME
        assert len(fp.encode(message)) <= fp.MAX_FRAME_SIZE
        assert len(fp.encode_hid_report(message)) == fp.HID_REPORT_SIZE


# --- round trips ----------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", ALL_CLASSES, ids=lambda c: c.__name__)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_round_trip_every_type(cls, data) -> None:
    message = data.draw(message_of(cls))
    frame = fp.encode(message)
    assert frame.endswith(b"\x00") and frame.count(0) == 1
    assert len(frame) <= fp.MAX_FRAME_SIZE
    assert fp.Decoder().feed(frame) == [message]
    assert fp.decode_raw(fp.encode_raw(message)) == message
    assert fp.decode_hid_report(fp.encode_hid_report(message)) == message


@settings(max_examples=150, deadline=None)
@given(st.lists(messages(), max_size=12), st.data())
def test_stream_split_anywhere(batch, data) -> None:
    stream = b"".join(fp.encode(m) for m in batch)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    chunks = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)])]
    decoder = fp.Decoder()
    assert [m for c in chunks for m in decoder.feed(c)] == batch
    assert (decoder.bad_frames, decoder.unknown_messages, decoder.pending) == (0, 0, 0)


@settings(max_examples=100, deadline=None)
@given(messages(fp.CONTROLLER_TO_HOST))
def test_firmware_encodes_identically(message) -> None:
    """The firmware's pure-Python encoders give the host codec's bytes, for every message the
    controller sends."""
    if isinstance(message, fp.Hello):
        body = wire.hello_body(message.controller_id, message.firmware_version,
                               message.positions, message.capabilities,
                               message.protocol_major, message.protocol_minor)
    elif isinstance(message, fp.State):
        body = wire.state_body(message.left, message.centre, message.right, message.locked,
                               message.seq)
    elif isinstance(message, fp.ErrorReport):
        body = wire.error_body(message.code, message.text)
    else:
        body = wire.pong_body(message.token)
    assert wire.serial_frame(body) == fp.encode(message)
    assert wire.hid_report(body) == fp.encode_hid_report(message)


@settings(max_examples=100, deadline=None)
@given(messages(fp.HOST_TO_CONTROLLER))
def test_firmware_reads_host_messages(message) -> None:
    bodies = wire.FrameReader().feed(fp.encode(message))
    assert len(bodies) == 1
    kind, args = wire.parse_command(bodies[0])
    assert kind == message.TYPE
    assert args == tuple(tuple.__iter__(message))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=600))
def test_firmware_cobs_and_crc_match_the_libraries(data) -> None:
    import zlib

    from cobs import cobs

    assert wire.crc32(data) == zlib.crc32(data)
    assert wire.cobs_encode(data) == cobs.encode(data)
    assert wire.cobs_decode(cobs.encode(data)) == data
    try:
        expected = cobs.decode(data)
    except cobs.DecodeError:
        expected = None
    assert wire.cobs_decode(data) == expected


def test_firmware_cobs_long_runs() -> None:
    from cobs import cobs

    for n in (253, 254, 255, 508, 509, 600):
        for data in (b"\x01" * n, b"\x01" * n + b"\x00", b"\x00" + b"\x02" * n):
            assert wire.cobs_encode(data) == cobs.encode(data)
            assert wire.cobs_decode(cobs.encode(data)) == data


def test_firmware_text_is_cut_on_a_character_edge() -> None:
    field = wire.text_field("é" * 30)  # 60 bytes of UTF-8
    assert field[0] == 48 and field[1:].decode("utf-8") == "é" * 24
    field = wire.text_field("a" + "é" * 30)
    assert field[0] == 47 and field[1:].decode("utf-8") == "a" + "é" * 23


# --- the decoder's contract -----------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400), st.integers(1, 64))
def test_decoder_never_raises_and_stays_bounded(data, step) -> None:
    decoder = fp.Decoder()
    for i in range(0, len(data), step):
        decoder.feed(data[i : i + step])
        assert decoder.pending <= fp.MAX_ENCODED_FRAME
    assert decoder.bad_frames >= 0


def test_decoder_accepts_bytes_like_input() -> None:
    frame = fp.encode(fp.Ping(3))
    for data in (bytearray(frame), memoryview(frame)):
        assert fp.Decoder().feed(data) == [fp.Ping(3)]


def test_decoder_bounded_on_endless_garbage() -> None:
    decoder = fp.Decoder()
    rng = random.Random(5)
    for _ in range(2000):
        decoder.feed(bytes(rng.randrange(1, 256) for _ in range(97)))
        assert decoder.pending <= fp.MAX_ENCODED_FRAME
    assert decoder.bad_frames == 1  # one overlong frame, skipped to the next delimiter
    assert decoder.feed(b"\x00" + fp.encode(fp.Pong(1))) == [fp.Pong(1)]
    assert decoder.bad_frames == 1


def test_decoder_frame_of_exactly_max_size_split_anywhere() -> None:
    from cobs import cobs

    body = fp.encode_raw(fp.ErrorReport(1, "z" * 48))[:-4] + b"\x01" * 7
    frame = cobs.encode(body + fp.crc32(body).to_bytes(4, "little"))
    assert len(frame) == fp.MAX_ENCODED_FRAME
    for cut in range(len(frame) + 1):
        decoder = fp.Decoder()
        out = decoder.feed(frame[:cut]) + decoder.feed(frame[cut:] + b"\x00")
        assert out == [fp.ErrorReport(1, "z" * 48)], cut
        assert decoder.bad_frames == 0


def test_decoder_reset_forgets_partial_frame() -> None:
    decoder = fp.Decoder()
    frame = fp.encode(fp.Ping(7))
    decoder.feed(frame[:3])
    decoder.reset()
    assert decoder.pending == 0
    assert decoder.feed(frame) == [fp.Ping(7)]
    assert decoder.bad_frames == 0


def test_unknown_type_is_counted_apart_and_ignored() -> None:
    import struct
    import zlib

    from cobs import cobs

    body = b"\x55hello from 1.9"
    frame = cobs.encode(body + struct.pack("<I", zlib.crc32(body))) + b"\x00"
    decoder = fp.Decoder()
    assert decoder.feed(frame + fp.encode(fp.Pong(2))) == [fp.Pong(2)]
    assert (decoder.bad_frames, decoder.unknown_messages) == (0, 1)
    with pytest.raises(fp.UnknownMessageType):
        fp.decode_raw(body + struct.pack("<I", zlib.crc32(body)))
    hid = fp.HidDecoder()
    report = bytes((1, len(body) + 4)) + body + struct.pack("<I", zlib.crc32(body))
    assert hid.decode(report.ljust(64, b"\x00")) is None
    assert (hid.bad_frames, hid.unknown_messages) == (0, 1)


def test_encode_refuses_non_messages() -> None:
    with pytest.raises(TypeError):
        fp.encode((1, 2, 3))  # type: ignore[arg-type]


# --- handshake rules ------------------------------------------------------------------------------


def test_handshake_vectors_host_side() -> None:
    from firmware_protocol import testvectors as tv

    for case in tv.load("handshake.json")["cases"]:
        if case["side"] != "host":
            continue
        hello = tv.message_from_json(case["receives"])
        assert fp.Decoder().feed(bytes.fromhex(case["receives_serial"])) == [hello]
        reply = fp.host_welcome(hello)
        assert [tv.message_to_json(reply)] == case["replies"]
        then = case["then"]
        assert then["accepts_state"] == reply.accepted
        assert then["link"] == ("active" if reply.accepted else "refused")
        assert then["sends_private_hints"] == (
            reply.accepted and fp.supports_private_hints((hello.protocol_major, hello.protocol_minor)))
        assert [fp.encode(reply).hex()] == case["replies_serial"]


def test_compatibility_rule() -> None:
    assert fp.compatible((1, 0), (1, 9))
    assert fp.compatible((1, 9), (1, 0))
    assert not fp.compatible((2, 0), (1, 0))
    refused = fp.host_welcome(fp.Hello(0, 4, 1, (1, 0, 0), (16, 16, 16), 7))
    assert not refused.accepted
    assert "0.4" in refused.reason and "%d.%d" % fp.PROTOCOL_VERSION in refused.reason
    assert fp.supports_private_hints((1, 1)) and fp.supports_private_hints((1, 7))
    assert not fp.supports_private_hints((1, 0)) and not fp.supports_private_hints((2, 1))
    text = fp.version_mismatch_text((255, 255), (255, 255))
    assert len(text.encode()) <= fp.MAX_TEXT_BYTES


# --- layering -------------------------------------------------------------------------------------


def test_protocol_imports_nothing_of_the_rest() -> None:
    """docs/design.md: firmware_protocol imports nothing of bitbox or outspeed."""
    import ast
    from pathlib import Path

    root = Path(fp.__file__).parent
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            for name in names:
                assert name.split(".")[0] not in {"bitbox", "outspeed", "bitbox_tools",
                                                  "bitbox_config"}, f"{path.name}: {name}"


def test_package_docstring_example() -> None:
    import doctest

    assert doctest.testmod(fp, raise_on_error=True).attempted == 3
