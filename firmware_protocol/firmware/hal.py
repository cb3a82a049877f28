"""The hardware abstraction layer (HAL) the controller firmware runs on.

A board (pico_hal.PicoHAL), the emulator's virtual board (virtual_hal.VirtualHAL) or a test
subclasses HAL and fills in these methods. Every method must return at once: the controller
polls them from one loop, roughly every millisecond, and never waits.

MicroPython subset: no typing, no dataclasses. Types are given in the docstrings.
"""

from . import wire

# What read_wheels() returns for a wheel that has no valid position (between detents on a
# sensor that can tell, a broken wire, a code outside the wheel's geometry).
NO_POSITION = -1


class HAL:
    """Base class: the controller's only view of the hardware.

    Class attributes a board sets:
      transport    "serial" (USB CDC: serial_read/serial_write) or "hid" (hid_read/hid_write)
      positions    (left, centre, right) detent positions of each wheel, 2..16
      capabilities wire.CAP_* bits: which of path lights, colour LED, lock switch exist
    """

    transport = "serial"
    positions = (16, 16, 16)
    capabilities = wire.CAP_PATH_LIGHTS | wire.CAP_COLOUR_LED | wire.CAP_LOCK_SWITCH

    # --- inputs -----------------------------------------------------------------------------------

    def read_wheels(self):
        """Raw (left, centre, right) positions, each 0..positions[i]-1 or NO_POSITION.

        Raw: not debounced (the controller debounces). Any value outside the wheel's range is
        treated as NO_POSITION."""
        raise NotImplementedError

    def read_lock(self):
        """True while the lock switch is closed (raw, not debounced). False if there is none."""
        return False

    # --- outputs ----------------------------------------------------------------------------------

    def set_path_lights(self, left, centre, right):
        """Switch the three path lights (bools). No-op on a board without them."""

    def set_colour(self, red, green, blue):
        """Set the colour LED (each 0..255). No-op on a board without one."""

    def set_stop_lights(self, left, centre, right):
        """Light the stops of each wheel's ring (ints, bit p = the light at position p).
        Called only on a board whose capabilities have CAP_STOP_LIGHTS (protocol 1.1)."""

    # --- link to the host -------------------------------------------------------------------------

    def serial_read(self):
        """The bytes received since the last call (bytes, possibly empty). Never blocks."""
        return b""

    def serial_write(self, data):
        """Send `data` (bytes) to the host. May buffer; must not block for long."""
        raise NotImplementedError

    def hid_read(self):
        """The next 64-byte output report from the host, or None if there is none."""
        return None

    def hid_write(self, report):
        """Send one 64-byte input report to the host."""
        raise NotImplementedError

    # --- time -------------------------------------------------------------------------------------

    def ticks_ms(self):
        """A millisecond counter. It may wrap (MicroPython's does); compare with ticks_diff."""
        raise NotImplementedError

    def ticks_diff(self, later, earlier):
        """Milliseconds from `earlier` to `later`, correct across a wrap of ticks_ms()."""
        return later - earlier

    def sleep_ms(self, ms):
        """Idle for `ms` milliseconds (called by Controller.run_forever between steps)."""
