"""Runs the reference firmware through every controller case of vectors/handshake.json and
prints what it did, one JSON line per case.

Written in the MicroPython subset: the tests run it under real MicroPython (the unix port)
and under CPython, require identical output, and check it against the cases' `replies` and
`then`.

    micropython mpy_handshake.py FIRMWARE_PROTOCOL_DIR CASES.json

CASES.json: a list of {"name", "setup": hex the host writes first (the Welcome of a
`running` case, else ""), "receives": hex}. For each case the controller boots at 0 ms, gets
`setup` at 1 ms and `receives` at 2 ms, then runs to 10502 ms. Output per case: {"name",
"replies": hex written at 2 ms, "mode", "hint", "shown", "unknown", "bad", "hellos": [ms after 2],
"states": number of State frames after 2 ms, "colours": [[ms after 2, [r, g, b]], ...]}.
"""

import json
import sys

sys.path.insert(0, sys.argv[1])

from firmware.controller import Controller  # noqa: E402
from firmware.hal import HAL  # noqa: E402
from firmware import wire  # noqa: E402


def hexlify(data):
    return "".join("%02x" % b for b in data)


def unhexlify(text):
    return bytes(int(text[i:i + 2], 16) for i in range(0, len(text), 2))


class CaseHAL(HAL):
    def __init__(self):
        self.now = 0
        self.incoming = bytearray()
        self.outgoing = bytearray()
        self.colours = []

    def read_wheels(self):
        return (0, 0, 0)

    def set_colour(self, red, green, blue):
        self.colours.append([self.now, [red, green, blue]])

    def serial_read(self):
        data = bytes(self.incoming)
        self.incoming = bytearray()
        return data

    def serial_write(self, data):
        self.outgoing.extend(data)

    def ticks_ms(self):
        return self.now


def run(case):
    hal = CaseHAL()
    controller = Controller(hal, 0x0123456789ABCDEF, (1, 0, 0))
    reader = wire.FrameReader()
    out = {"name": case["name"], "hellos": [], "states": 0}
    for ms in range(10503):
        hal.now = ms
        if ms == 1:
            hal.incoming.extend(unhexlify(case["setup"]))
        if ms == 2:
            hal.colours = []
            hal.incoming.extend(unhexlify(case["receives"]))
        controller.step()
        if ms == 2:
            out["replies"] = hexlify(hal.outgoing)
            out["mode"] = controller.mode
            out["hint"] = list(controller.hint)
            out["shown"] = list(controller.shown)
            out["unknown"] = controller.unknown_messages
            out["bad"] = controller.bad_frames
        if ms >= 2:
            for body in reader.feed(bytes(hal.outgoing)):
                if body[0] == wire.T_HELLO and ms > 2:
                    out["hellos"].append(ms - 2)
                elif body[0] == wire.T_STATE:
                    out["states"] += 1
        hal.outgoing = bytearray()
    out["colours"] = [[t - 2, c] for t, c in hal.colours]
    return out


def main():
    with open(sys.argv[2]) as f:
        cases = json.load(f)
    for case in cases:
        print(json.dumps(run(case)))


main()
