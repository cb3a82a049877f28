"""Entry point on the board: runs at power-up as /main.py (see README.md, "Flashing").

Layout on the board's filesystem:
    /main.py                 this file
    /firmware/__init__.py    and wire.py, hal.py, controller.py, pico_hal.py

Hold the lock switch closed while plugging the board in to skip the controller and keep the
REPL (maintenance mode: re-flash with mpremote).
"""

from firmware.controller import Controller
from firmware.pico_hal import PicoHAL, controller_id, maintenance_requested

FIRMWARE_VERSION = (1, 0, 0)
# Detent positions of the left, centre and right wheels (16 for hex switches, 10 for BCD).
POSITIONS = (16, 16, 16)


def main():
    if maintenance_requested():
        print("8Bitbox controller: maintenance mode (lock switch closed at power-up)")
        return
    hal = PicoHAL(positions=POSITIONS)
    Controller(hal, controller_id(), FIRMWARE_VERSION).run_forever()


if __name__ == "__main__":
    main()
