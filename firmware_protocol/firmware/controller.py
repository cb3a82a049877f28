"""The controller's program: handshake, debounce, send-on-change, heartbeat, host commands.

Runs unchanged on a board under MicroPython (main.py) and under CPython with a virtual HAL
(the emulator, the tests). Everything it does is described in SPEC.md; this file is the
reference a firmware author in another language can follow line by line.

    controller = Controller(hal, controller_id=0x0123456789ABCDEF)
    controller.run_forever()        # or call controller.step() from your own loop

MicroPython subset: no typing, no dataclasses, no f-strings.
"""

from . import wire
from .hal import NO_POSITION

# Modes.
AWAITING_WELCOME = "awaiting-welcome"  # Hello sent, every HELLO_RETRY_MS, until a Welcome
RUNNING = "running"  # welcomed: State on change and every HEARTBEAT_MS, obeys commands
REFUSED = "refused"  # the host refused us or speaks another major: blink red, retry slowly

WHEEL_NAMES = ("left", "centre", "right")
OFF = (False, False, False)
ALL_ON = (True, True, True)
BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
RED = (255, 0, 0)


class Debounced:
    """One input: a raw reading becomes `stable` once it has read the same for DEBOUNCE_MS."""

    def __init__(self, value, now):
        self.stable = value
        self.candidate = value
        self.since = now

    def update(self, value, now, ticks_diff):
        """Feed a raw reading; True if `stable` changed."""
        if value != self.candidate:
            self.candidate = value
            self.since = now
            return False
        if value != self.stable and ticks_diff(now, self.since) >= wire.DEBOUNCE_MS:
            self.stable = value
            return True
        return False


class Controller:
    """The controller firmware. Call step() often (every 1-5 ms) or run_forever().

    Public state (read it, don't write it): mode, seq, seat, path, colour, hint (the valid
    stops of each wheel from the host's last Hint, 0 = none; bits at or above a wheel's
    positions dropped), shown (the stops of the host's last Show, 1.2, dropped likewise),
    bad_frames, unknown_messages,
    frames_sent, positions (the debounced wheel positions reported), locked, refusing (True
    while a ChoiceRefused is shown), refusals (how many ChoiceRefused it has obeyed).
    """

    def __init__(self, hal, controller_id, firmware_version=(1, 0, 0), positions=None,
                 capabilities=None):
        self.hal = hal
        self.controller_id = controller_id
        self.firmware_version = tuple(firmware_version)
        self.geometry = tuple(hal.positions if positions is None else positions)
        self.capabilities = hal.capabilities if capabilities is None else capabilities
        self.mode = AWAITING_WELCOME
        self.seq = 0
        self.seat = 0
        self.path = OFF
        self.colour = BLACK
        self.hint = (0, 0, 0)
        self.shown = (0, 0, 0)
        self.positions = [0, 0, 0]
        self.locked = False
        self.unknown_messages = 0
        self.frames_sent = 0
        self.errors = 0
        self._reader = wire.FrameReader()
        self._bad = 0
        self._started = False
        self._wheels = None
        self._lock = None
        self._faulty = [False, False, False]
        self._state_due = False
        self._last_state = 0
        self._last_hello = 0
        self._refused_at = 0
        self._identify_start = 0
        self._identify_ms = 0
        self._refusal_start = 0
        self._refusal_ms = 0
        self._refusal_wheels = 0
        self.refusals = 0
        self._show_start = 0
        self._shown_path = None
        self._shown_colour = None
        self._shown_stops = None

    @property
    def bad_frames(self):
        """Frames from the host dropped as corrupted or malformed."""
        return self._reader.bad_frames + self._bad

    @property
    def identifying(self):
        """True while an Identify is blinking the lights."""
        return bool(self._identify_ms) and self.hal.ticks_diff(
            self.hal.ticks_ms(), self._identify_start) < self._identify_ms

    @property
    def refusing(self):
        """True while a ChoiceRefused (1.1) is being shown."""
        return bool(self._refusal_ms) and self.hal.ticks_diff(
            self.hal.ticks_ms(), self._refusal_start) < self._refusal_ms

    # --- the loop ---------------------------------------------------------------------------------

    def start(self):
        """Boot: take the first readings, clear the line, say Hello. step() calls it once."""
        now = self.hal.ticks_ms()
        wheels = self._read_wheels()
        self._wheels = [Debounced(value, now) for value in wheels]
        self._lock = Debounced(self._read_lock(), now)
        for i in range(3):
            if wheels[i] != NO_POSITION:
                self.positions[i] = wheels[i]
        self.locked = self._lock.stable
        self._started = True
        if self.hal.transport == "serial":
            self.hal.serial_write(b"\x00")  # ends any garbage the host may hold
        self._send_hello(now)

    def step(self):
        """One pass: obey what the host sent, sample and debounce the inputs, send what is due,
        update the lights."""
        if not self._started:
            self.start()
        hal = self.hal
        now = hal.ticks_ms()
        for body in self._receive():
            self._obey(body, now)
        changed = self._sample(now)
        if self.mode == RUNNING:
            if changed or self._state_due or \
                    hal.ticks_diff(now, self._last_state) >= wire.HEARTBEAT_MS:
                self._send_state(now)
            self._report_faults()  # after the State: a session's first frame is its State
        elif self.mode == AWAITING_WELCOME:
            if hal.ticks_diff(now, self._last_hello) >= wire.HELLO_RETRY_MS:
                self._send_hello(now)
        elif hal.ticks_diff(now, self._last_hello) >= wire.REFUSED_RETRY_MS:
            self._send_hello(now)
        self._show(now)

    def run_forever(self, should_stop=None):
        """step() in a loop, pausing 1 ms between steps, until should_stop() (if given) is
        true. An exception in a step is reported to the host (ERR_INTERNAL) and the loop goes
        on: a controller never stops by itself."""
        while should_stop is None or not should_stop():
            try:
                self.step()
            except Exception as exc:  # noqa: BLE001 - firmware must keep running
                self.errors += 1
                try:
                    self._send(wire.error_body(
                        wire.ERR_INTERNAL, "%s: %s" % (type(exc).__name__, exc)))
                except Exception:  # noqa: BLE001
                    pass
            self.hal.sleep_ms(1)

    # --- inputs -----------------------------------------------------------------------------------

    def _read_wheels(self):
        raw = self.hal.read_wheels()
        out = []
        for i in range(3):
            value = raw[i]
            if value is None or value < 0 or value >= self.geometry[i]:
                value = NO_POSITION
            out.append(value)
        return out

    def _read_lock(self):
        if not self.capabilities & wire.CAP_LOCK_SWITCH:
            return False
        return bool(self.hal.read_lock())

    def _sample(self, now):
        """Debounce the inputs; True if a reported value changed."""
        diff = self.hal.ticks_diff
        changed = False
        wheels = self._read_wheels()
        for i in range(3):
            wheel = self._wheels[i]
            if wheel.update(wheels[i], now, diff) and wheel.stable != NO_POSITION:
                if wheel.stable != self.positions[i]:
                    self.positions[i] = wheel.stable
                    changed = True
        if self._lock.update(self._read_lock(), now, diff):
            self.locked = self._lock.stable
            changed = True
        return changed

    def _report_faults(self):
        for i in range(3):
            faulty = self._wheels[i].stable == NO_POSITION
            if faulty and not self._faulty[i]:
                self._send(wire.error_body(
                    wire.ERR_WHEEL_FAULT, "%s wheel reads no valid position" % WHEEL_NAMES[i]))
            self._faulty[i] = faulty

    # --- the link ---------------------------------------------------------------------------------

    def _send(self, body):
        if self.hal.transport == "hid":
            self.hal.hid_write(wire.hid_report(body))
        else:
            self.hal.serial_write(wire.serial_frame(body))
        self.frames_sent += 1

    def _receive(self):
        if self.hal.transport != "hid":
            data = self.hal.serial_read()
            return self._reader.feed(data) if data else ()
        bodies = []
        for _ in range(16):  # bounded: a flood of reports cannot stall the loop
            report = self.hal.hid_read()
            if report is None:
                break
            body = wire.check_hid_report(report)
            if body is None:
                self._bad += 1
            else:
                bodies.append(body)
        return bodies

    def _send_hello(self, now):
        self._send(wire.hello_body(self.controller_id, self.firmware_version, self.geometry,
                                   self.capabilities))
        self._last_hello = now

    def _send_state(self, now):
        p = self.positions
        self._send(wire.state_body(p[0], p[1], p[2], self.locked, self.seq))
        self.seq = (self.seq + 1) & 0xFFFFFFFF
        self._last_state = now
        self._state_due = False

    def _refuse(self, now):
        """Enter REFUSED (SPEC.md 7.3): no State, red blink, Hello every REFUSED_RETRY_MS. The
        blink starts (red) when the controller enters REFUSED; a further refusal while refused
        does not restart it, but restarts the Hello timer."""
        if self.mode != REFUSED:
            self.mode = REFUSED
            self._refused_at = now
        self._last_hello = now

    # --- host commands ----------------------------------------------------------------------------

    def _obey(self, body, now):
        parsed = wire.parse_command(body)
        if parsed is None:
            self._bad += 1
            return
        kind, args = parsed
        if args is None:  # a type this firmware doesn't know, or one meant for the host
            self.unknown_messages += 1
            return
        if kind == wire.T_PING:
            self._send(wire.pong_body(args[0]))
        elif kind == wire.T_HOST_HELLO:
            # Always answer with a Hello (it restarts the Hello timer). A host of another
            # major is also told why, and the controller is then REFUSED (it cannot speak to
            # that host; it retries slowly in case the host is replaced).
            self._send_hello(now)
            if args[0] != wire.PROTOCOL_MAJOR:
                self._send(wire.error_body(wire.ERR_VERSION_MISMATCH,
                                           _mismatch(args[0], args[1])))
                self._refuse(now)
            else:
                self.mode = AWAITING_WELCOME
        elif kind == wire.T_WELCOME:
            major, minor, accepted, _reason = args
            if not accepted:
                self._refuse(now)
            elif major != wire.PROTOCOL_MAJOR:
                self._send(wire.error_body(wire.ERR_VERSION_MISMATCH, _mismatch(major, minor)))
                self._refuse(now)
            elif self.mode != RUNNING:
                self.mode = RUNNING  # a new session: no seat, lights off, State at once
                self.seat = 0
                self.path = OFF
                self.colour = BLACK
                self.hint = (0, 0, 0)
                self.shown = (0, 0, 0)
                self._refusal_ms = 0
                self._faulty = [False, False, False]
                self._state_due = True
        elif kind == wire.T_REQUEST_STATE:
            if self.mode == RUNNING:
                self._state_due = True
            else:
                self._send_hello(now)
        elif kind == wire.T_IDENTIFY:
            self._identify_start = now
            self._identify_ms = args[0]
        elif self.mode != RUNNING:
            pass  # seat, lights, hints and refusals are obeyed only once welcomed
        elif kind == wire.T_ASSIGN_SEAT:
            self.seat = args[0]
            self.colour = args[1]
        elif kind == wire.T_SET_LIGHTS:
            self.path = (args[0], args[1], args[2])
            self.colour = args[3]
        elif kind == wire.T_HINT:  # 1.1: valid stops, for this controller's eyes only
            self.hint = self._on_wheels(args)
        elif kind == wire.T_SHOW:  # 1.2: stops to show that are not choices (a code)
            self.shown = self._on_wheels(args)
            self._show_start = now
        elif kind == wire.T_CHOICE_REFUSED:  # 1.1: "your choice was refused", not "find me"
            self._refusal_wheels = args[0] & 0x07
            self._refusal_start = now
            self._refusal_ms = args[1]
            self.refusals += 1

    def _on_wheels(self, masks):
        """Stop masks as stored (SPEC.md 6.13): bits at or above a wheel's positions dropped,
        so a mask left empty means "nothing for this wheel"."""
        g = self.geometry
        return (masks[0] & ((1 << g[0]) - 1), masks[1] & ((1 << g[1]) - 1),
                masks[2] & ((1 << g[2]) - 1))

    # --- lights -----------------------------------------------------------------------------------

    def _show(self, now):
        """Drive the lights (SPEC.md 8.4). Priority: Identify, then a refused choice, then
        the mode's own lights."""
        diff = self.hal.ticks_diff
        g = self.geometry
        if self._identify_ms and diff(now, self._identify_start) >= self._identify_ms:
            self._identify_ms = 0
        if self._refusal_ms and diff(now, self._refusal_start) >= self._refusal_ms:
            self._refusal_ms = 0
        stops = (0, 0, 0)
        if self._identify_ms:
            on = (diff(now, self._identify_start) // wire.IDENTIFY_BLINK_MS) % 2 == 0
            path = ALL_ON if on else OFF
            colour = WHITE if on else BLACK
            if on:
                stops = ((1 << g[0]) - 1, (1 << g[1]) - 1, (1 << g[2]) - 1)
        elif self.mode == RUNNING:
            path = self.path
            colour = self.colour
            hint = self.hint
            shown = self.shown
            # A shown stop (1.2) blinks, on first, from the Show's arrival.
            show_on = (diff(now, self._show_start) // wire.SHOW_BLINK_MS) % 2 == 0
            if self.capabilities & wire.CAP_STOP_LIGHTS:
                stops = tuple((hint[i] & ~shown[i]) | (shown[i] if show_on else 0)
                              for i in range(3))
            elif hint[0] or hint[1] or hint[2] or shown[0] or shown[1] or shown[2]:
                # No ring of stop lights: a wheel resting on a shown stop blinks its path
                # light; else a hinted wheel's path light says whether the wheel rests on a
                # valid stop now (on) or not (off).
                p = self.positions
                path = tuple(show_on if (shown[i] >> p[i]) & 1 else
                             bool((hint[i] >> p[i]) & 1) if hint[i] else path[i]
                             for i in range(3))
            if self._refusal_ms:
                on = (diff(now, self._refusal_start) // wire.IDENTIFY_BLINK_MS) % 2 == 0
                colour = RED if on else BLACK
                w = self._refusal_wheels
                path = tuple(on if (w >> i) & 1 else path[i] for i in range(3))
        elif self.mode == REFUSED:
            on = (diff(now, self._refused_at) // wire.REFUSED_BLINK_MS) % 2 == 0
            path = OFF
            colour = RED if on else BLACK
        else:
            path = OFF
            colour = BLACK
        if not self.capabilities & wire.CAP_PATH_LIGHTS:
            path = OFF
        if not self.capabilities & wire.CAP_COLOUR_LED:
            colour = BLACK
        if path != self._shown_path:
            self.hal.set_path_lights(path[0], path[1], path[2])
            self._shown_path = path
        if colour != self._shown_colour:
            self.hal.set_colour(colour[0], colour[1], colour[2])
            self._shown_colour = colour
        if stops != self._shown_stops and self.capabilities & wire.CAP_STOP_LIGHTS:
            self.hal.set_stop_lights(stops[0], stops[1], stops[2])
            self._shown_stops = stops


def _mismatch(major, minor):
    return "protocol %d.%d unsupported; I speak %d.%d" % (
        major, minor, wire.PROTOCOL_MAJOR, wire.PROTOCOL_MINOR)
