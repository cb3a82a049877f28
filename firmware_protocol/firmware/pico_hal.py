"""The HAL of the reference board: a Raspberry Pi Pico (RP2040) under MicroPython.

Wiring (README.md in this folder has the full table and a drawing):
  wheels     three 16-position binary-coded ("hex", real code) rotary switches. Each has a
             common pin C (to GND) and four code pins 1, 2, 4, 8 (to GPIOs with pull-ups):
             left GP2-GP5, centre GP6-GP9, right GP10-GP13 (bit 1 first)
  lock       a switch between GP14 and GND (pull-up: closed reads 0)
  path LEDs  GP16 (left), GP17 (centre), GP18 (right), each through 330 ohm to GND
  colour LED a common-cathode RGB LED: red GP19, green GP20, blue GP21, through 220-330 ohm
  host link  the Pico's own USB port (USB CDC serial: MicroPython's sys.stdin/sys.stdout)

MicroPython only: it imports `machine`, `micropython` and `select`.
"""

import select
import sys
import time

import machine
import micropython

from . import wire
from .hal import HAL, NO_POSITION

WHEEL_PINS = ((2, 3, 4, 5), (6, 7, 8, 9), (10, 11, 12, 13))
LOCK_PIN = 14
PATH_LED_PINS = (16, 17, 18)
RGB_PINS = (19, 20, 21)
PWM_HZ = 1000


def maintenance_requested():
    """True if the lock switch is closed at power-up. main.py then leaves the REPL usable
    (Ctrl-C works) instead of starting the controller, so the board can be re-flashed."""
    return machine.Pin(LOCK_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def controller_id():
    """The controller id: the 64-bit unique id of the Pico's flash chip, big-endian. Its 16 hex
    digits are also the USB serial number MicroPython reports, so the host can match a port
    to a controller before the handshake."""
    return int.from_bytes(machine.unique_id(), "big")


class PicoHAL(HAL):
    """Raspberry Pi Pico with three hex rotary switches, a lock switch and LEDs.

    positions:   detents of each wheel (a 10-position BCD switch: 10)
    complement:  True for "complement code" switches (a code pin connects to C when its bit
                 is 0); False (default) for "real code" ones
    common_anode: True for a common-anode RGB LED (anode to 3V3, PWM sinks the current)
    """

    transport = "serial"

    def __init__(self, positions=(16, 16, 16), complement=False, common_anode=False,
                 capabilities=wire.CAP_PATH_LIGHTS | wire.CAP_COLOUR_LED | wire.CAP_LOCK_SWITCH):
        self.positions = tuple(positions)
        self.capabilities = capabilities
        self._complement = complement
        self._common_anode = common_anode
        pull_up = machine.Pin.PULL_UP
        self._wheel_pins = [
            [machine.Pin(n, machine.Pin.IN, pull_up) for n in pins] for pins in WHEEL_PINS
        ]
        self._lock = machine.Pin(LOCK_PIN, machine.Pin.IN, pull_up)
        self._path = [machine.Pin(n, machine.Pin.OUT, value=0) for n in PATH_LED_PINS]
        self._rgb = []
        for n in RGB_PINS:
            pwm = machine.PWM(machine.Pin(n))
            pwm.freq(PWM_HZ)
            pwm.duty_u16(65535 if common_anode else 0)
            self._rgb.append(pwm)
        # The host link is the USB CDC port the REPL normally uses. Ctrl-C (0x03) is a byte
        # like any other in our frames, so it must not interrupt the program.
        micropython.kbd_intr(-1)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read_wheels(self):
        out = []
        for i in range(3):
            value = 0
            for bit in range(4):
                closed = self._wheel_pins[i][bit].value() == 0
                if closed != self._complement:
                    value |= 1 << bit
            out.append(value if value < self.positions[i] else NO_POSITION)
        return out

    def read_lock(self):
        return self._lock.value() == 0

    def set_path_lights(self, left, centre, right):
        self._path[0].value(1 if left else 0)
        self._path[1].value(1 if centre else 0)
        self._path[2].value(1 if right else 0)

    def set_colour(self, red, green, blue):
        for pwm, level in zip(self._rgb, (red, green, blue)):
            duty = level * 257
            pwm.duty_u16(65535 - duty if self._common_anode else duty)

    def serial_read(self):
        data = bytearray()
        while len(data) < 256 and self._poll.poll(0):
            chunk = self._in.read(1)
            if not chunk:
                break
            data.extend(chunk)
        return bytes(data)

    def serial_write(self, data):
        # Before a host opens the port (SPEC.md 2), MicroPython's USB CDC output on the RP2040
        # is discarded rather than waited on, so the loop goes on saying Hello unheard.
        self._out.write(data)

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, later, earlier):
        return time.ticks_diff(later, earlier)

    def sleep_ms(self, ms):
        time.sleep_ms(ms)
