"""Every vector in firmware_protocol/vectors/, against the host codec and the firmware."""

from __future__ import annotations

import zlib

import pytest
from cobs import cobs

import firmware_protocol as fp
from firmware_protocol import testvectors as tv
from firmware_protocol.firmware import wire

MESSAGES = tv.load("messages.json")["vectors"]
INVALID = tv.load("invalid.json")
PRIMITIVES = tv.load("primitives.json")


def _id(vector: dict) -> str:
    return vector["name"]


def test_vector_files_are_current() -> None:
    """The committed files equal what the generator makes (and its intent checks pass)."""
    for name, content in tv.build().items():
        assert (tv.vectors_dir() / name).read_text(encoding="utf-8") == tv.render(content), name


def test_every_message_type_has_vectors() -> None:
    assert {v["type"] for v in MESSAGES} == set(fp.MESSAGE_CLASSES)


# --- primitives -----------------------------------------------------------------------------------


@pytest.mark.parametrize("vector", PRIMITIVES["crc32"]["vectors"], ids=lambda v: v["data"][:16])
def test_crc32_vectors(vector: dict) -> None:
    data = bytes.fromhex(vector["data"])
    assert f"{zlib.crc32(data):08x}" == vector["crc"]
    assert f"{wire.crc32(data):08x}" == vector["crc"]


def test_crc32_parameters() -> None:
    p = PRIMITIVES["crc32"]
    assert zlib.crc32(b"123456789") == int(p["check"], 16) == 0xCBF43926
    assert int(p["residue_of_frame"], 16) == fp.CRC_RESIDUE


@pytest.mark.parametrize("vector", PRIMITIVES["cobs"]["vectors"], ids=lambda v: v["data"][:16])
def test_cobs_vectors(vector: dict) -> None:
    data, encoded = bytes.fromhex(vector["data"]), bytes.fromhex(vector["encoded"])
    assert cobs.encode(data) == encoded
    assert wire.cobs_encode(data) == encoded
    assert cobs.decode(encoded) == data
    assert wire.cobs_decode(encoded) == data


# --- valid messages -------------------------------------------------------------------------------


@pytest.mark.parametrize("vector", MESSAGES, ids=_id)
def test_message_vector_encodes(vector: dict) -> None:
    message = tv.message_from_json(vector)
    assert message.TYPE == int(vector["type_byte"], 16)
    assert message.DIRECTION == vector["direction"]
    assert fp.encode_raw(message).hex() == vector["raw"]
    assert fp.encode(message).hex() == vector["serial"]
    assert fp.encode_hid_report(message).hex() == vector["hid"]
    assert tv.message_to_json(message) == {"type": vector["type"], "fields": vector["fields"]}


@pytest.mark.parametrize("vector", MESSAGES, ids=_id)
def test_message_vector_decodes(vector: dict) -> None:
    message = tv.message_from_json(vector)
    serial = bytes.fromhex(vector["serial"])
    decoder = fp.Decoder()
    assert decoder.feed(serial) == [message]
    # split at every byte boundary
    decoder = fp.Decoder()
    out = [m for i in range(len(serial)) for m in decoder.feed(serial[i : i + 1])]
    assert out == [message]
    assert (decoder.bad_frames, decoder.unknown_messages, decoder.pending) == (0, 0, 0)
    assert fp.decode_raw(bytes.fromhex(vector["raw"])) == message
    assert fp.decode_hid_report(bytes.fromhex(vector["hid"])) == message
    assert len(bytes.fromhex(vector["hid"])) == fp.HID_REPORT_SIZE


@pytest.mark.parametrize("vector", MESSAGES, ids=_id)
def test_message_vector_firmware(vector: dict) -> None:
    """The firmware's own COBS/CRC code makes and reads the same frames."""
    raw = bytes.fromhex(vector["raw"])
    body = raw[:-4]
    assert wire.serial_frame(body).hex() == vector["serial"]
    assert wire.hid_report(body).hex() == vector["hid"]
    assert wire.FrameReader().feed(bytes.fromhex(vector["serial"])) == [body]
    assert wire.check_hid_report(bytes.fromhex(vector["hid"])) == body
    message = tv.message_from_json(vector)
    if message.DIRECTION == fp.HOST_TO_CONTROLLER:
        kind, args = wire.parse_command(body)
        assert kind == message.TYPE
        flat = []
        for value in args:
            flat.extend(value if isinstance(value, tuple) else (value,))
        expected = []
        for value in tuple.__iter__(message):
            expected.extend(value if isinstance(value, tuple) else (value,))
        assert flat == expected
    else:
        f = vector["fields"]
        built = {
            "Hello": lambda: wire.hello_body(int(f["controller_id"], 16), f["firmware_version"],
                                             f["positions"], f["capabilities"],
                                             f["protocol_major"], f["protocol_minor"]),
            "State": lambda: wire.state_body(f["left"], f["centre"], f["right"], f["locked"],
                                             f["seq"]),
            "ErrorReport": lambda: wire.error_body(f["code"], f["text"]),
            "Pong": lambda: wire.pong_body(f["token"]),
        }[vector["type"]]()
        assert built == body


# --- invalid and tolerated input ------------------------------------------------------------------


def _check_stream(decoder: fp.Decoder, chunks: list[bytes], expect: dict) -> None:
    out = [tv.message_to_json(m) for chunk in chunks for m in decoder.feed(chunk)]
    assert out == expect["messages"]
    assert decoder.bad_frames == expect["bad_frames"]
    assert decoder.unknown_messages == expect["unknown_messages"]
    assert decoder.pending <= fp.MAX_ENCODED_FRAME


@pytest.mark.parametrize("vector", INVALID["serial"], ids=_id)
def test_serial_vector(vector: dict) -> None:
    data = bytes.fromhex(vector["input"])
    _check_stream(fp.Decoder(), [data], vector["expect"])
    _check_stream(fp.Decoder(), [data[i : i + 1] for i in range(len(data))], vector["expect"])
    for cut in range(len(data) + 1):
        _check_stream(fp.Decoder(), [data[:cut], data[cut:]], vector["expect"])


@pytest.mark.parametrize("vector", INVALID["serial"], ids=_id)
def test_serial_vector_firmware(vector: dict) -> None:
    """The firmware's FrameReader drops exactly the frames bad at framing level (cobs, size,
    crc) and hands on the others, whose content the controller then judges."""
    reader = wire.FrameReader()
    bodies = reader.feed(bytes.fromhex(vector["input"]))
    frames = vector["frames"]
    framing_bad = [f for f in frames if f["outcome"] == "bad" and f["reason"] != "layout"]
    assert reader.bad_frames == len(framing_bad)
    assert len(bodies) == len(frames) - len(framing_bad)
    passed = [f for f in frames if not (f["outcome"] == "bad" and f["reason"] != "layout")]
    for body, frame in zip(bodies, passed):
        if frame["outcome"] == "message":
            assert body == fp.encode_raw(tv.message_from_json(frame["message"]))[:-4] or \
                body.startswith(fp.encode_raw(tv.message_from_json(frame["message"]))[:-4])
        if frame["outcome"] == "bad" and body[0] & 0x80:  # host->controller layout errors
            assert wire.parse_command(body) is None


def _firmware_counts(transport: str, chunks: list[bytes]) -> tuple[int, int]:
    """(bad frames, unknown messages) of the reference firmware, RUNNING, fed ``chunks``."""
    from firmware_protocol.firmware.controller import Controller
    from firmware_protocol.firmware.virtual_hal import VirtualHAL
    hal = VirtualHAL(transport=transport)
    controller = Controller(hal, 0x0123456789ABCDEF)
    controller.step()
    welcome = fp.Welcome(*fp.PROTOCOL_VERSION, True, "")
    hal.send_to_controller(fp.encode(welcome) if transport == "serial" else fp.encode_hid_report(welcome))
    controller.step()
    for chunk in chunks:
        hal.send_to_controller(chunk)
        controller.step()
    return controller.bad_frames, controller.unknown_messages


@pytest.mark.parametrize("vector", INVALID["serial"], ids=_id)
def test_serial_vector_as_a_controller_counts_it(vector: dict) -> None:
    """expect_controller: what a controller counts (SPEC 10.2: a controller -> host frame is
    unknown to it, whatever its layout), whole and byte by byte."""
    data = bytes.fromhex(vector["input"])
    expect = vector["expect_controller"]
    assert all(tv.message_from_json(m).TYPE & 0x80 for m in expect["messages"])
    for chunks in ([data], [data[i : i + 1] for i in range(len(data))]):
        assert _firmware_counts("serial", chunks) == (expect["bad_frames"], expect["unknown_messages"])


@pytest.mark.parametrize("vector", INVALID["hid"], ids=_id)
def test_hid_vector_as_a_controller_counts_it(vector: dict) -> None:
    expect = vector["expect_controller"]
    counts = _firmware_counts("hid", [bytes.fromhex(vector["input"])])
    assert counts == (expect["outcome"] == "bad", expect["outcome"] == "unknown")


@pytest.mark.parametrize("vector", INVALID["hid"], ids=_id)
def test_hid_vector(vector: dict) -> None:
    report = bytes.fromhex(vector["input"])
    expect = vector["expect"]
    decoder = fp.HidDecoder()
    message = decoder.decode(report)
    assert message == fp.decode_hid_report(report)
    if expect["outcome"] == "message":
        assert message == tv.message_from_json(expect["message"])
        assert wire.check_hid_report(report) is not None
    else:
        assert message is None
        assert decoder.bad_frames == (expect["outcome"] == "bad")
        assert decoder.unknown_messages == (expect["outcome"] == "unknown")
        if expect.get("reason") != "layout" and expect["outcome"] == "bad":
            assert wire.check_hid_report(report) is None
        if expect["outcome"] == "bad":                   # the first failed check of SPEC 5
            assert tv.hid_reason(report) == expect["reason"]
