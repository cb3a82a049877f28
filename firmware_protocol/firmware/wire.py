"""The wire format, as the controller implements it: COBS, CRC-32, frames, message layouts.

Written in the subset of Python that MicroPython runs (no dataclasses, no typing, no
f-strings, only `struct` from the standard library), so the same file runs on the board and
under CPython. The host's codec (firmware_protocol.codec) is a separate implementation of the
same SPEC.md; the tests check that both produce identical bytes.
"""

import struct

PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 2  # 1.1: Hint and ChoiceRefused (SPEC.md 6.13, 6.14); 1.2: Show (6.15)

# Timing, ms (SPEC.md, "Timing").
HEARTBEAT_MS = 250
DEBOUNCE_MS = 50
HELLO_RETRY_MS = 500
REFUSED_RETRY_MS = 5000
IDENTIFY_BLINK_MS = 125
REFUSED_BLINK_MS = 500
SHOW_BLINK_MS = 250  # since 1.2

# Framing (SPEC.md, "Serial framing").
MAX_RAW_FRAME = 62
MAX_ENCODED_FRAME = 63
MIN_RAW_FRAME = 5
MAX_TEXT_BYTES = 48
CRC_RESIDUE = 0x2144DF1C

# HID (SPEC.md, "USB HID").
HID_REPORT_ID = 0x01
HID_REPORT_SIZE = 64

# Message types (SPEC.md, "Messages").
T_HELLO = 0x01
T_STATE = 0x02
T_ERROR_REPORT = 0x03
T_PONG = 0x04
T_HOST_HELLO = 0x81
T_WELCOME = 0x82
T_ASSIGN_SEAT = 0x83
T_SET_LIGHTS = 0x84
T_IDENTIFY = 0x85
T_REQUEST_STATE = 0x86
T_PING = 0x87
T_HINT = 0x88  # since 1.1
T_CHOICE_REFUSED = 0x89  # since 1.1
T_SHOW = 0x8A  # since 1.2

# Hello.capabilities bits.
CAP_PATH_LIGHTS = 0x01
CAP_COLOUR_LED = 0x02
CAP_LOCK_SWITCH = 0x04
CAP_STOP_LIGHTS = 0x08  # since 1.1: a ring of lights around each wheel, one per stop

# ErrorReport codes.
ERR_VERSION_MISMATCH = 1
ERR_WHEEL_FAULT = 2
ERR_INTERNAL = 3


# --- CRC-32 (ISO-HDLC: reflected poly 0xEDB88320, init and xorout 0xFFFFFFFF) ---------------------


def _crc_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            if c & 1:
                c = (c >> 1) ^ 0xEDB88320
            else:
                c >>= 1
        table.append(c)
    return table


_CRC_TABLE = _crc_table()


def crc32(data, crc=0):
    """CRC-32 of `data` (bytes-like), continuing from `crc`; equals zlib.crc32."""
    crc ^= 0xFFFFFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


# --- COBS (Cheshire & Baker; no 0x00 in the output) -----------------------------------------------


def cobs_encode(data):
    """COBS-encode `data`. The result has no 0x00 byte; it is one byte longer than `data`
    when len(data) < 254 (always the case for frames of this protocol)."""
    out = bytearray(b"\x00")
    code_at = 0  # where the code byte of the open block goes
    code = 1
    full = False  # the last block was closed because it held 254 bytes
    for byte in data:
        full = False
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
                full = True
    if full:
        out = out[:-1]  # the data ended with a full block: no empty block after it
    else:
        out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Undo COBS. Returns the decoded bytes, or None if `data` is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            return None
        end = i + code
        if end > n:
            return None
        i += 1
        while i < end:
            byte = data[i]
            if byte == 0:
                return None
            out.append(byte)
            i += 1
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# --- frames ---------------------------------------------------------------------------------------


def seal(body):
    """The raw frame of `body` (type byte + payload): the body and its CRC-32, little-endian."""
    return bytes(body) + struct.pack("<I", crc32(body))


def serial_frame(body):
    """The serial frame of `body`: COBS of the raw frame, then the 0x00 delimiter."""
    return cobs_encode(seal(body)) + b"\x00"


def hid_report(body):
    """The 64-byte HID report of `body`: report id, raw frame length, raw frame, zeros."""
    raw = seal(body)
    report = bytes((HID_REPORT_ID, len(raw))) + raw
    return report + bytes(HID_REPORT_SIZE - len(report))


def check_raw(raw):
    """The body (type + payload) of a raw frame, or None if its size or CRC is wrong."""
    if len(raw) < MIN_RAW_FRAME or len(raw) > MAX_RAW_FRAME:
        return None
    if crc32(raw) != CRC_RESIDUE:
        return None
    return bytes(raw[:-4])


def check_hid_report(report):
    """The body in a HID report, or None if the report is bad."""
    if len(report) < 2 or len(report) > HID_REPORT_SIZE or report[0] != HID_REPORT_ID:
        return None
    size = report[1]
    if size < MIN_RAW_FRAME or size > MAX_RAW_FRAME or 2 + size > len(report):
        return None
    return check_raw(report[2:2 + size])


class FrameReader:
    """Finds frames in a serial byte stream; same rules as the host's Decoder.

    feed(data) returns the bodies (type + payload) of the good frames completed by `data`.
    Bad frames are dropped and counted in `bad_frames`. An unfinished frame longer than
    MAX_ENCODED_FRAME is counted bad once and skipped up to the next delimiter.
    """

    def __init__(self):
        self.bad_frames = 0
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data):
        bodies = []
        for byte in data:
            if byte == 0:
                if self._skipping:
                    self._skipping = False
                elif len(self._buf):
                    raw = cobs_decode(self._buf)
                    body = None if raw is None else check_raw(raw)
                    if body is None:
                        self.bad_frames += 1
                    else:
                        bodies.append(body)
                self._buf = bytearray()
            elif self._skipping:
                pass
            elif len(self._buf) >= MAX_ENCODED_FRAME:
                self.bad_frames += 1
                self._skipping = True
                self._buf = bytearray()
            else:
                self._buf.append(byte)
        return bodies


# --- text -----------------------------------------------------------------------------------------


def text_field(text):
    """A text field: length byte, then at most 48 bytes of UTF-8 (cut on a character edge)."""
    data = text.encode("utf-8")
    if len(data) > MAX_TEXT_BYTES:
        cut = MAX_TEXT_BYTES
        while cut > 0 and (data[cut] & 0xC0) == 0x80:
            cut -= 1
        data = data[:cut]
    return bytes((len(data),)) + data


# --- controller -> host message bodies ------------------------------------------------------------


def hello_body(controller_id, firmware_version, positions, capabilities,
               major=PROTOCOL_MAJOR, minor=PROTOCOL_MINOR):
    """Body of a Hello. The 64-bit id is packed as two 32-bit halves (low half first), which is
    its little-endian layout, because not every MicroPython build packs 'Q'."""
    return struct.pack(
        "<BBBII3B3BB",
        T_HELLO, major, minor,
        controller_id & 0xFFFFFFFF, (controller_id >> 32) & 0xFFFFFFFF,
        firmware_version[0], firmware_version[1], firmware_version[2],
        positions[0], positions[1], positions[2],
        capabilities,
    )


def state_body(left, centre, right, locked, seq):
    """Body of a State."""
    return struct.pack("<BBBBBI", T_STATE, left, centre, right, 1 if locked else 0,
                       seq & 0xFFFFFFFF)


def error_body(code, text):
    """Body of an ErrorReport."""
    return bytes((T_ERROR_REPORT, code)) + text_field(text)


def pong_body(token):
    """Body of a Pong."""
    return struct.pack("<BI", T_PONG, token & 0xFFFFFFFF)


# --- host -> controller message bodies ------------------------------------------------------------


def _flag(value):
    if value > 1:
        raise ValueError("bad boolean byte")
    return value == 1


def parse_command(body):
    """Decode a message body meant for the controller.

    Returns (type, args): args is a tuple of the fields for a known host -> controller type,
    or None for any other type (to be ignored). Returns None if the body is malformed (a bad
    frame). Bytes after the known fields are ignored (a later minor version may add some).
    """
    t = body[0]
    p = body[1:]
    try:
        if t == T_HOST_HELLO:
            return t, (p[0], p[1])
        if t == T_WELCOME:
            size = p[3]
            if size > MAX_TEXT_BYTES or 4 + size > len(p):
                return None
            reason = bytes(p[4:4 + size]).decode("utf-8")
            return t, (p[0], p[1], _flag(p[2]), reason)
        if t == T_ASSIGN_SEAT:
            seat, r, g, b = struct.unpack("<BBBB", p[:4])
            return t, (seat, (r, g, b))
        if t == T_SET_LIGHTS:
            left, centre, right, r, g, b = struct.unpack("<6B", p[:6])
            return t, (_flag(left), _flag(centre), _flag(right), (r, g, b))
        if t == T_IDENTIFY:
            return t, struct.unpack("<H", p[:2])
        if t == T_REQUEST_STATE:
            return t, ()
        if t == T_PING:
            return t, struct.unpack("<I", p[:4])
        if t == T_HINT or t == T_SHOW:
            return t, struct.unpack("<HHH", p[:6])
        if t == T_CHOICE_REFUSED:
            return t, struct.unpack("<BH", p[:3])
    except (IndexError, ValueError):  # struct.error is a ValueError on MicroPython too
        return None
    except Exception:  # struct.error on CPython, UnicodeError
        return None
    return t, None
