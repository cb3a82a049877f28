"""Runs the reference firmware through a scripted scenario and prints a transcript.

Written in the MicroPython subset: the tests run it under real MicroPython (the unix port)
and under CPython and require identical transcripts.

    micropython mpy_scenario.py FIRMWARE_PROTOCOL_DIR SCENARIO.json

The scenario is a JSON list of events {"at": ms, "wheels": [l, c, r], "lock": bool,
"host": hex of bytes the host writes}; the runner steps the controller every millisecond up
to the last event + 300 ms and prints one JSON line per millisecond in which the controller
wrote something: [ms, hex], then a final line with the controller's public state.
"""

import json
import sys

sys.path.insert(0, sys.argv[1])

from firmware.controller import Controller  # noqa: E402
from firmware.hal import HAL  # noqa: E402


def hexlify(data):
    return "".join("%02x" % b for b in data)


def unhexlify(text):
    return bytes(int(text[i:i + 2], 16) for i in range(0, len(text), 2))


class ScriptHAL(HAL):
    def __init__(self):
        self.now = 0
        self.wheels = [0, 0, 0]
        self.locked = False
        self.incoming = bytearray()
        self.outgoing = bytearray()
        self.lights = None
        self.colour = None
        self.leds = []

    def read_wheels(self):
        return self.wheels

    def read_lock(self):
        return self.locked

    def set_path_lights(self, left, centre, right):
        self.lights = [left, centre, right]
        self.leds.append([self.now, "path", self.lights])

    def set_colour(self, red, green, blue):
        self.colour = [red, green, blue]
        self.leds.append([self.now, "colour", self.colour])

    def serial_read(self):
        data = bytes(self.incoming)
        self.incoming = bytearray()
        return data

    def serial_write(self, data):
        self.outgoing.extend(data)

    def ticks_ms(self):
        return self.now


def main():
    with open(sys.argv[2]) as f:
        events = json.load(f)
    hal = ScriptHAL()
    controller = Controller(hal, 0x0123456789ABCDEF, (1, 0, 0))
    end = max([e["at"] for e in events] + [0]) + 300
    for ms in range(end + 1):
        hal.now = ms
        for event in events:
            if event["at"] == ms:
                if "wheels" in event:
                    hal.wheels = event["wheels"]
                if "lock" in event:
                    hal.locked = event["lock"]
                if "host" in event:
                    hal.incoming.extend(unhexlify(event["host"]))
        controller.step()
        if hal.outgoing:
            print(json.dumps([ms, hexlify(hal.outgoing)]))
            hal.outgoing = bytearray()
    print(json.dumps({
        "mode": controller.mode, "seq": controller.seq, "seat": controller.seat,
        "lights": hal.lights, "colour": hal.colour, "bad_frames": controller.bad_frames,
        "unknown": controller.unknown_messages, "hint": list(controller.hint),
        "leds": hal.leds,
    }))


main()
