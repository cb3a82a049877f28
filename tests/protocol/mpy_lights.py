"""Runs the reference firmware through every case of vectors/lights.json and prints what its
lights showed at each sample time, one JSON line per case.

Written in the MicroPython subset: the tests run it under real MicroPython (the unix port)
and under CPython, require identical output, and check it against the cases' `expect`.

    micropython mpy_lights.py FIRMWARE_PROTOCOL_DIR LIGHTS.json WELCOME_HEX

For each case the controller boots at 0 ms; a `running` case gets WELCOME at 1 ms and its
time 0 is 2 ms. Steps are fed at their time, the firmware steps every 1 ms, and each sample
records {"at", "path", "colour", "stops"}.
"""

import json
import sys

sys.path.insert(0, sys.argv[1])

from firmware.controller import Controller  # noqa: E402
from firmware.hal import HAL  # noqa: E402


def unhexlify(text):
    return bytes(int(text[i:i + 2], 16) for i in range(0, len(text), 2))


class LightsHAL(HAL):
    def __init__(self, positions, capabilities):
        self.now = 0
        self.positions = tuple(positions)
        self.capabilities = capabilities
        self.wheels = (0, 0, 0)
        self.incoming = bytearray()
        self.path = [False, False, False]
        self.colour = [0, 0, 0]
        self.stops = [0, 0, 0]

    def read_wheels(self):
        return self.wheels

    def set_path_lights(self, left, centre, right):
        self.path = [bool(left), bool(centre), bool(right)]

    def set_colour(self, red, green, blue):
        self.colour = [red, green, blue]

    def set_stop_lights(self, left, centre, right):
        self.stops = [left, centre, right]

    def serial_read(self):
        data = bytes(self.incoming)
        self.incoming = bytearray()
        return data

    def serial_write(self, data):
        pass

    def ticks_ms(self):
        return self.now


def run(case, welcome):
    hal = LightsHAL(case["positions"], case["capabilities"])
    controller = Controller(hal, 0x0123456789ABCDEF, (1, 0, 0))
    start = 0
    if case["given"] == "running":
        hal.now = 0
        controller.step()
        hal.now = 1
        hal.incoming.extend(unhexlify(welcome))
        controller.step()
        start = 2
    samples = {}
    for s in case["expect"]:
        samples[s["at"]] = s
    out = []
    for t in range(max(samples) + 1):
        hal.now = start + t
        for s in case["steps"]:
            if s["at"] == t:
                if "receives_serial" in s:
                    hal.incoming.extend(unhexlify(s["receives_serial"]))
                if "wheels" in s:
                    hal.wheels = tuple(s["wheels"])
        controller.step()
        if t in samples:
            got = {"at": t, "path": list(hal.path), "colour": list(hal.colour)}
            if "stops" in samples[t]:
                got["stops"] = list(hal.stops)
            out.append(got)
    return {"name": case["name"], "samples": out, "hint": list(controller.hint)}


def main():
    with open(sys.argv[2]) as f:
        cases = json.load(f)["cases"]
    for case in cases:
        print(json.dumps(run(case, sys.argv[3])))


main()
