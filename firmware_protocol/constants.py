"""Numbers both ends of the wire agree on: versions, timing, framing limits, type codes.

Every value here is normative and written out in SPEC.md; the reference firmware keeps its
own copy (firmware/wire.py, MicroPython has no access to this module) and a test checks the
two agree.
"""

from __future__ import annotations

from enum import IntEnum, IntFlag

#: The protocol version this package speaks, (major, minor). Peers whose major differs refuse
#: each other; a minor difference is always compatible (see SPEC.md, "Versioning").
PROTOCOL_VERSION: tuple[int, int] = (1, 2)
#: The first minor version of major 1 that has Hint and ChoiceRefused (SPEC.md 6.13, 6.14): a host
#: sends them only to a controller whose Hello announced at least this version.
PRIVATE_HINTS_VERSION: tuple[int, int] = (1, 1)
#: The first minor version of major 1 that has Show (SPEC.md 6.15): stops to show that are not
#: choices (a code). A host sends it only to a controller whose Hello announced at least this.
SHOW_VERSION: tuple[int, int] = (1, 2)

# --- timing (milliseconds) ------------------------------------------------------------------------

#: A running controller sends a State at least this often, even when nothing changed.
HEARTBEAT_MS = 250
#: The host declares a controller lost after this long without a valid frame from it.
LOST_AFTER_MS = 1000
#: A wheel position (or the lock switch) counts only once it has read the same for this long.
DEBOUNCE_MS = 50
#: A controller waiting for a Welcome repeats its Hello this often.
HELLO_RETRY_MS = 500
#: A refused controller repeats its Hello this often (in case the host was replaced).
REFUSED_RETRY_MS = 5000
#: Identify blinks with this half-period: on for IDENTIFY_BLINK_MS, off for IDENTIFY_BLINK_MS.
IDENTIFY_BLINK_MS = 125
#: A refused controller blinks its colour LED red with this half-period.
REFUSED_BLINK_MS = 500
#: A shown stop (Show, 1.2) blinks with this half-period.
SHOW_BLINK_MS = 250
#: The longest a controller may take to answer a Ping, HostHello or RequestState.
REPLY_WITHIN_MS = 100

# --- framing --------------------------------------------------------------------------------------

#: Frame delimiter on the serial line (COBS guarantees it never occurs inside a frame).
DELIMITER = 0x00
#: Largest raw frame: type byte + payload + 4 CRC bytes (before COBS).
MAX_RAW_FRAME = 62
#: Largest COBS-encoded frame, delimiter not included (COBS adds one byte to <= 254 bytes).
MAX_ENCODED_FRAME = MAX_RAW_FRAME + 1
#: Largest frame on the serial line, delimiter included.
MAX_FRAME_SIZE = MAX_ENCODED_FRAME + 1
#: Smallest raw frame: a type byte and the CRC.
MIN_RAW_FRAME = 5
#: Longest text field (ErrorReport.text, Welcome.reason), in bytes of UTF-8.
MAX_TEXT_BYTES = 48
#: CRC-32 (ISO-HDLC, the zlib one) of any raw frame whose CRC is correct.
CRC_RESIDUE = 0x2144DF1C

# --- USB HID --------------------------------------------------------------------------------------

#: The report id of both the input (controller -> host) and output (host -> controller) report.
HID_REPORT_ID = 0x01
#: Size of a report including its report id byte: one full-speed interrupt packet.
HID_REPORT_SIZE = 64

# --- wheels ---------------------------------------------------------------------------------------

#: Most detent positions a wheel can have; positions are numbered 0 .. positions-1.
MAX_POSITIONS = 16
#: Fewest detent positions a wheel can have.
MIN_POSITIONS = 2


class MessageType(IntEnum):
    """The type byte of every message. Bit 7 set means host -> controller."""

    HELLO = 0x01
    STATE = 0x02
    ERROR_REPORT = 0x03
    PONG = 0x04
    HOST_HELLO = 0x81
    WELCOME = 0x82
    ASSIGN_SEAT = 0x83
    SET_LIGHTS = 0x84
    IDENTIFY = 0x85
    REQUEST_STATE = 0x86
    PING = 0x87
    HINT = 0x88  # since 1.1
    CHOICE_REFUSED = 0x89  # since 1.1
    SHOW = 0x8A  # since 1.2


class Capability(IntFlag):
    """Bits of Hello.capabilities: what the controller has besides its three wheels."""

    PATH_LIGHTS = 0x01
    COLOUR_LED = 0x02
    LOCK_SWITCH = 0x04
    STOP_LIGHTS = 0x08  # since 1.1: a ring of lights around each wheel, one per stop


#: Every capability this protocol version defines.
ALL_CAPABILITIES = (Capability.PATH_LIGHTS | Capability.COLOUR_LED | Capability.LOCK_SWITCH
                    | Capability.STOP_LIGHTS)


class ErrorCode(IntEnum):
    """ErrorReport.code values. 128-255 are free for a firmware's own use."""

    VERSION_MISMATCH = 1
    WHEEL_FAULT = 2
    INTERNAL = 3
