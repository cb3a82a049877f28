"""Reference controller firmware (MicroPython subset; runs under CPython with a virtual HAL).

wire.py        COBS, CRC-32, frames and message layouts, in pure Python
hal.py         the hardware abstraction the firmware runs on
controller.py  the controller's program (handshake, debounce, heartbeat, host commands)
pico_hal.py    the HAL of the reference board, a Raspberry Pi Pico (MicroPython only)
main.py        the entry point on the board
virtual_hal.py a virtual board for CPython (emulator, tests)

README.md says how to build, wire and flash a controller.
"""
