"""The reference firmware under a virtual HAL and a fake clock: handshake, debounce,
send-on-change, heartbeat, version mismatch, host commands, LEDs, faults, transports."""

from __future__ import annotations

import os

import pytest

import firmware_protocol as fp
from firmware_protocol import testvectors as tv
from firmware_protocol.firmware import controller as ctl
from firmware_protocol.firmware import wire
from firmware_protocol.firmware.controller import Controller
from firmware_protocol.firmware.virtual_hal import FakeClock, VirtualHAL

CONTROLLER_ID = 0x0123456789ABCDEF
HELLO = fp.Hello(*fp.PROTOCOL_VERSION, CONTROLLER_ID, (1, 0, 0), (16, 16, 16), 7)
WELCOME = fp.Welcome(*fp.PROTOCOL_VERSION, True, "")
RED, BLACK, WHITE = (255, 0, 0), (0, 0, 0), (255, 255, 255)


class Rig:
    """A controller on a virtual board, with a host-side decoder logging what it sends."""

    def __init__(self, **hal_options) -> None:
        self.hal = VirtualHAL(**hal_options)
        self.controller = Controller(self.hal, CONTROLLER_ID, (1, 0, 0))
        self.decoder = fp.Decoder() if self.hal.transport == "serial" else fp.HidDecoder()
        self.log: list[tuple[int, fp.Message]] = []
        self._taken = 0

    @property
    def now(self) -> int:
        return self.hal.clock()

    def step(self) -> None:
        self.controller.step()
        self._collect()

    def run(self, ms: int, step: int = 1) -> None:
        for _ in range(ms // step):
            self.hal.clock.advance(step)
            self.step()

    def send(self, *messages: fp.Message) -> None:
        for message in messages:
            if self.hal.transport == "serial":
                self.hal.send_to_controller(fp.encode(message))
            else:
                self.hal.send_to_controller(fp.encode_hid_report(message))

    def take(self) -> list[fp.Message]:
        """Messages sent since the last take()."""
        new = [m for _, m in self.log[self._taken :]]
        self._taken = len(self.log)
        return new

    def welcomed(self) -> Rig:
        self.step()
        self.send(WELCOME)
        self.step()
        assert self.controller.mode == ctl.RUNNING
        self.take()
        return self

    def _collect(self) -> None:
        out = self.hal.take_from_controller()
        if self.hal.transport == "serial":
            messages = self.decoder.feed(out)
        else:
            assert all(len(report) == fp.HID_REPORT_SIZE for report in out)
            messages = [self.decoder.decode(report) for report in out]
        self.log += [(self.now, m) for m in messages]


def states(messages: list[fp.Message]) -> list[fp.State]:
    return [m for m in messages if isinstance(m, fp.State)]


# --- handshake ------------------------------------------------------------------------------------


def test_boot_clears_the_line_and_says_hello() -> None:
    rig = Rig()
    rig.controller.step()
    raw = rig.hal.take_from_controller()
    assert raw.startswith(b"\x00")
    assert fp.Decoder().feed(raw) == [HELLO]


def test_hello_repeats_until_welcomed_and_no_state_before() -> None:
    rig = Rig()
    rig.step()
    rig.run(1600)
    hellos = [t for t, m in rig.log if m == HELLO]
    assert hellos == [0, 500, 1000, 1500]
    assert states([m for _, m in rig.log]) == []
    rig.send(WELCOME)
    rig.run(1)
    assert rig.take()[-1] == fp.State(0, 0, 0, False, 0)
    rig.run(1000)
    assert HELLO not in rig.take()


def check_then(rig: Rig, then: dict, start: int, first_led: int) -> None:
    """Check a controller against a handshake.json `then`, by running it on for a while:
    its mode, whether it sends State, how often it says Hello, its colour LED and its hint."""
    mode = {"running": ctl.RUNNING, "refused": ctl.REFUSED,
            "awaiting-welcome": ctl.AWAITING_WELCOME}[then["mode"]]
    assert rig.controller.mode == mode
    if "hint" in then:
        assert list(rig.controller.hint) == then["hint"]
    if "shown" in then:
        assert list(rig.controller.shown) == then["shown"]
    rig.take()
    rig.run(10_500)
    window = [(t, m) for t, m in rig.log if t > start]
    hellos = [t - start for t, m in window if isinstance(m, fp.Hello)]
    assert bool(states([m for _, m in window])) == then["sends_state"]
    every = then["hello_every_ms"]
    if every is None:
        assert hellos == []
    else:
        assert hellos and hellos[0] <= every and all(
            b - a == every for a, b in zip(hellos, hellos[1:]))
    colours = [(t - start, v) for t, what, v in rig.hal.led_log[first_led:] if what == "colour"]
    shown = {
        "off": lambda: all(v == BLACK for _, v in colours),
        "refused-blink": lambda: colours[:3] == [(0, RED), (fp.REFUSED_BLINK_MS, BLACK),
                                                 (2 * fp.REFUSED_BLINK_MS, RED)],
        "choice-refused-blink": lambda: colours[:3] == [
            (0, RED), (fp.IDENTIFY_BLINK_MS, BLACK), (2 * fp.IDENTIFY_BLINK_MS, RED)],
    }[then["colour_led"]]
    assert shown(), colours[:4]


@pytest.mark.parametrize(
    "case",
    [c for c in tv.load("handshake.json")["cases"] if c["side"] == "controller"],
    ids=lambda c: c["name"],
)
def test_handshake_vectors_controller_side(case: dict) -> None:
    rig = Rig()
    rig.step()
    assert rig.take() == [HELLO]
    if case["given"] in ("running", "running-host-1.0"):
        rig.send(WELCOME if case["given"] == "running" else fp.Welcome(1, 0, True, ""))
        rig.step()
        assert rig.take() == [fp.State(0, 0, 0, False, 0)]
    unknown = rig.controller.unknown_messages
    start, first_led = rig.now, len(rig.hal.led_log)
    rig.hal.send_to_controller(bytes.fromhex(case["receives_serial"]))
    rig.step()
    replies = rig.take()
    assert [tv.message_to_json(m) for m in replies] == case["replies"]
    assert [fp.encode(m).hex() for m in replies] == case["replies_serial"]
    assert rig.controller.bad_frames == 0
    if fp.MESSAGE_CLASSES[case["receives"]["type"]].DIRECTION == fp.CONTROLLER_TO_HOST:
        assert rig.controller.unknown_messages == unknown + 1
    check_then(rig, case["then"], start, first_led)


def test_version_mismatch_refuses_and_says_why() -> None:
    rig = Rig()
    rig.step()
    rig.take()
    rig.send(fp.Welcome(2, 0, True, ""))
    rig.step()
    (error,) = rig.take()
    assert error.code == fp.ErrorCode.VERSION_MISMATCH
    assert "2.0" in error.text and "%d.%d" % fp.PROTOCOL_VERSION in error.text
    assert rig.controller.mode == ctl.REFUSED
    rig.run(6000)
    sent = rig.take()
    assert states(sent) == []  # never acts as welcomed
    assert [t for t, m in rig.log if m == HELLO] == [0, 5000]  # slow retries
    # The colour LED blinks red, half period REFUSED_BLINK_MS.
    colours = [(t, v) for t, what, v in rig.hal.led_log if what == "colour"]
    reds = [t for t, v in colours if v == RED]
    assert reds[:3] == [0, 1000, 2000]
    assert (500, BLACK) in colours
    # A host of the right version can still welcome it later.
    rig.send(WELCOME)
    rig.run(1)
    assert rig.controller.mode == ctl.RUNNING
    assert states(rig.take()) == [fp.State(0, 0, 0, False, 0)]


def test_refused_by_host() -> None:
    rig = Rig()
    rig.step()
    rig.send(fp.Welcome(1, 0, False, "duplicate controller id"))
    rig.run(2000)
    assert states(rig.take()) == []
    assert rig.controller.mode == ctl.REFUSED


def test_host_hello_restarts_the_handshake() -> None:
    rig = Rig().welcomed()
    rig.send(fp.HostHello())
    rig.step()
    assert rig.take() == [HELLO]
    assert rig.controller.mode == ctl.AWAITING_WELCOME
    rig.run(400)
    assert states(rig.take()) == []
    rig.send(WELCOME)
    rig.run(1)
    assert len(states(rig.take())) == 1


def test_duplicate_welcome_keeps_the_session() -> None:
    rig = Rig().welcomed()
    rig.send(fp.AssignSeat(2, (0, 0, 255)))
    rig.run(1)
    rig.send(WELCOME)  # the answer to an earlier, repeated Hello
    rig.run(1)
    assert rig.controller.seat == 2 and rig.hal.colour == (0, 0, 255)
    assert states(rig.take()) == []


# --- state: send on change, heartbeat, debounce ---------------------------------------------------


def test_heartbeat_period() -> None:
    rig = Rig().welcomed()
    rig.run(2000)
    times = [t for t, m in rig.log if isinstance(m, fp.State)]
    gaps = {b - a for a, b in zip(times, times[1:])}
    assert gaps == {fp.HEARTBEAT_MS}
    seqs = [m.seq for m in states([m for _, m in rig.log])]
    assert seqs == list(range(len(seqs)))


def test_heartbeat_with_coarse_steps() -> None:
    rig = Rig().welcomed()
    rig.run(3000, step=7)
    times = [t for t, m in rig.log if isinstance(m, fp.State)]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert all(fp.HEARTBEAT_MS <= g < fp.HEARTBEAT_MS + 7 for g in gaps)
    assert max(gaps) < fp.LOST_AFTER_MS


def test_debounce_wheel() -> None:
    rig = Rig().welcomed()
    rig.run(10)
    rig.take()
    rig.hal.set_wheels(5, 0, 0)
    rig.run(1)  # the first sample that sees the new position
    first_seen = rig.now
    rig.run(fp.DEBOUNCE_MS - 1)
    assert states(rig.take()) == []
    rig.run(1)
    (state,) = states(rig.take())
    assert (state.left, state.centre, state.right) == (5, 0, 0)
    assert rig.now - first_seen == fp.DEBOUNCE_MS


def test_bouncing_wheel_reports_only_the_settled_position() -> None:
    rig = Rig().welcomed()
    for _ in range(10):  # contact bounce: 4, 5, 4, 5 ... every 20 ms
        rig.hal.set_wheels(4, 0, 0)
        rig.run(20)
        rig.hal.set_wheels(5, 0, 0)
        rig.run(20)
    changed = [s for s in states(rig.take()) if s.left != 0]
    assert changed == []  # only heartbeats, with the old position
    rig.run(fp.DEBOUNCE_MS + 1)
    assert states(rig.take())[-1].left == 5


def test_debounce_lock_and_send_on_change() -> None:
    rig = Rig().welcomed()
    rig.hal.set_lock(True)
    rig.run(fp.DEBOUNCE_MS)  # seen at +1, stable for DEBOUNCE_MS at +1+DEBOUNCE_MS
    assert states(rig.take()) == []
    rig.run(1)
    (state,) = states(rig.take())
    assert state.locked and state.seq == 1
    # every settled change gives exactly one State, at once
    for value, expect_seq in ((3, 2), (7, 3), (15, 4)):
        rig.hal.set_wheels(value, value, 1)
        rig.run(fp.DEBOUNCE_MS + 1)
        (state,) = states(rig.take())
        assert (state.left, state.centre, state.right, state.seq) == (value, value, 1, expect_seq)


def test_turning_through_positions_while_state_is_sent() -> None:
    rig = Rig().welcomed()
    for position in range(16):
        rig.hal.set_wheels(position, 15 - position, position // 2)
        rig.run(fp.DEBOUNCE_MS + 10)
    last = states(rig.take())[-1]
    assert (last.left, last.centre, last.right) == (15, 0, 7)


def test_request_state_answers_at_once() -> None:
    rig = Rig().welcomed()
    rig.run(100)
    rig.take()
    rig.send(fp.RequestState())
    rig.run(1)
    assert states(rig.take()) == [fp.State(0, 0, 0, False, 1)]


def test_request_state_before_welcome_gives_hello() -> None:
    rig = Rig()
    rig.step()
    rig.take()
    rig.send(fp.RequestState())
    rig.run(1)
    assert rig.take() == [HELLO]


def test_ping_is_answered_in_every_mode() -> None:
    rig = Rig()
    rig.step()
    rig.send(fp.Ping(1))
    rig.run(1)
    assert fp.Pong(1) in rig.take()
    rig.send(WELCOME, fp.Ping(2))
    rig.run(1)
    assert fp.Pong(2) in rig.take()
    rig.send(fp.Welcome(1, 0, False, "no"))
    rig.run(1)
    rig.send(fp.Ping(3))
    rig.run(1)
    assert rig.take() == [fp.Pong(3)]


def test_ticks_wrap_like_micropython() -> None:
    period = 2**30
    rig = Rig(clock=FakeClock(period - 600), ticks_period=period)
    rig.welcomed()
    rig.run(1500)
    times = [t for t, m in rig.log if isinstance(m, fp.State)]
    assert {b - a for a, b in zip(times, times[1:])} == {fp.HEARTBEAT_MS}
    rig.hal.set_wheels(9, 9, 9)
    rig.run(fp.DEBOUNCE_MS + 1)
    assert states(rig.take())[-1].left == 9


# --- faults ---------------------------------------------------------------------------------------


def test_wheel_fault_is_reported_once_and_position_kept() -> None:
    hal = VirtualHAL(positions=(10, 16, 16))
    rig = Rig()
    rig.hal = hal
    rig.controller = Controller(hal, CONTROLLER_ID, (1, 0, 0))
    rig.welcomed()
    hal.set_wheels(7, 0, 0)
    rig.run(fp.DEBOUNCE_MS + 1)
    hal.set_wheels(12, 0, 0)  # no such position on a 10-position wheel
    rig.run(1000)
    sent = rig.take()
    errors = [m for m in sent if isinstance(m, fp.ErrorReport)]
    assert [e.code for e in errors] == [fp.ErrorCode.WHEEL_FAULT]
    assert "left" in errors[0].text
    assert {s.left for s in states(sent)} == {7}
    hal.set_wheels(3, 0, 0)  # repaired
    rig.run(fp.DEBOUNCE_MS + 1)
    hal.set_wheels(-1, 0, 0)  # and broken again: reported again
    rig.run(fp.DEBOUNCE_MS + 1)
    sent = rig.take()
    assert states(sent)[0].left == 3
    assert sum(isinstance(m, fp.ErrorReport) for m in sent) == 1


def test_short_glitch_is_not_a_fault() -> None:
    rig = Rig().welcomed()
    rig.hal.set_wheels(-1, 0, 0)
    rig.run(fp.DEBOUNCE_MS - 5)
    rig.hal.set_wheels(0, 0, 0)
    rig.run(500)
    assert not any(isinstance(m, fp.ErrorReport) for m in rig.take())


def test_bad_and_unknown_frames_from_host_are_counted_and_ignored() -> None:
    rig = Rig().welcomed()
    lights = fp.encode(fp.SetLights(True, True, True, (9, 9, 9)))
    corrupted = bytearray(lights)
    corrupted[3] ^= 0x10
    rig.hal.send_to_controller(bytes(corrupted))  # bad CRC
    rig.hal.send_to_controller(b"\x13\x37\xff" * 40 + b"\x00")  # oversized garbage
    rig.hal.send_to_controller(fp.encode(fp.Pong(4)))  # a type not for the controller
    rig.hal.send_to_controller(wire.serial_frame(b"\x99\x01"))  # unknown type
    rig.hal.send_to_controller(wire.serial_frame(bytes((wire.T_SET_LIGHTS, 2, 0, 0, 1, 1, 1))))
    rig.run(1)
    assert rig.hal.path_lights == (False, False, False)
    assert rig.controller.bad_frames == 3
    assert rig.controller.unknown_messages == 2
    rig.hal.send_to_controller(lights)
    rig.run(1)
    assert rig.hal.path_lights == (True, True, True)


def test_run_forever_survives_an_exception() -> None:
    class Flaky(VirtualHAL):
        calls = 0

        def read_wheels(self):
            Flaky.calls += 1
            if Flaky.calls == 20:
                raise OSError("sensor bus error")
            return super().read_wheels()

    hal = Flaky()
    controller = Controller(hal, CONTROLLER_ID)
    hal.send_to_controller(fp.encode(WELCOME))
    controller.run_forever(should_stop=lambda: hal.clock() >= 600)
    sent = fp.Decoder().feed(hal.take_from_controller())
    errors = [m for m in sent if isinstance(m, fp.ErrorReport)]
    assert [e.code for e in errors] == [fp.ErrorCode.INTERNAL]
    assert "OSError" in errors[0].text
    assert controller.errors == 1
    assert len(states(sent)) >= 3  # kept running, heartbeats went on


# --- lights ---------------------------------------------------------------------------------------


def test_set_lights_and_assign_seat() -> None:
    rig = Rig().welcomed()
    rig.send(fp.SetLights(True, False, True, (10, 20, 30)))
    rig.run(1)
    assert rig.hal.path_lights == (True, False, True)
    assert rig.hal.colour == (10, 20, 30)
    rig.send(fp.AssignSeat(4, (0, 255, 0)))
    rig.run(1)
    assert rig.controller.seat == 4
    assert rig.hal.colour == (0, 255, 0)
    assert rig.hal.path_lights == (True, False, True)
    assert rig.take() == []  # commands are not acknowledged (the next State confirms life)


def test_lights_are_ignored_before_welcome() -> None:
    rig = Rig()
    rig.step()
    rig.send(fp.SetLights(True, True, True, WHITE), fp.AssignSeat(1, RED))
    rig.run(1)
    assert rig.hal.path_lights == (False, False, False)
    assert rig.hal.colour == BLACK
    assert rig.controller.seat == 0


def test_identify_blinks_then_restores() -> None:
    rig = Rig().welcomed()
    rig.send(fp.SetLights(False, True, False, (1, 2, 3)))
    rig.run(1)
    start = rig.now + 1
    rig.send(fp.Identify(1000))
    rig.hal.led_log.clear()
    rig.run(1)
    assert rig.controller.identifying
    rig.run(1099)
    assert not rig.controller.identifying
    path = [(t - start, v) for t, what, v in rig.hal.led_log if what == "path"]
    assert path[:4] == [(0, (True,) * 3), (125, (False,) * 3), (250, (True,) * 3),
                        (375, (False,) * 3)]
    assert path[-1] == (1000, (False, True, False))
    assert rig.hal.colour == (1, 2, 3)
    colours = {v for _, what, v in rig.hal.led_log if what == "colour"}
    assert colours == {WHITE, BLACK, (1, 2, 3)}


def test_identify_zero_stops_blinking() -> None:
    rig = Rig().welcomed()
    rig.send(fp.Identify(60_000))
    rig.run(300)
    rig.send(fp.Identify(0))
    rig.run(1)
    rig.hal.led_log.clear()
    rig.run(1000)
    assert rig.hal.led_log == []
    assert rig.hal.path_lights == (False, False, False)


def test_identify_works_before_welcome() -> None:
    rig = Rig()
    rig.step()
    rig.send(fp.Identify(500))
    rig.run(2)
    assert rig.hal.path_lights == (True, True, True)


def test_board_without_leds_or_lock() -> None:
    rig = Rig(capabilities=0)
    rig.step()
    assert rig.take() == [fp.Hello(*fp.PROTOCOL_VERSION, CONTROLLER_ID, (1, 0, 0), (16, 16, 16), 0)]
    rig.send(WELCOME, fp.SetLights(True, True, True, WHITE), fp.Identify(1000))
    rig.hal.set_lock(True)
    rig.run(300)
    assert rig.hal.path_lights == (False, False, False) and rig.hal.colour == BLACK
    assert not any(s.locked for s in states(rig.take()))


# --- transports -----------------------------------------------------------------------------------


def test_hid_transport() -> None:
    rig = Rig(transport="hid")
    rig.step()
    reports = rig.log
    assert [m for _, m in reports] == [HELLO]
    rig.send(WELCOME, fp.SetLights(True, False, False, (5, 5, 5)), fp.Ping(77))
    rig.hal.send_to_controller(b"\x02" + bytes(63))  # wrong report id
    rig.run(300)
    sent = rig.take()
    assert fp.Pong(77) in sent and len(states(sent)) >= 2
    assert rig.hal.path_lights == (True, False, False)
    assert rig.controller.bad_frames == 1
    assert rig.decoder.bad_frames == 0


def test_serial_through_os_file_descriptors() -> None:
    """What the emulator does: the virtual HAL's serial plugged into real file descriptors."""
    to_controller_r, to_controller_w = os.pipe()
    from_controller_r, from_controller_w = os.pipe()
    os.set_blocking(to_controller_r, False)
    os.set_blocking(from_controller_r, False)

    def read() -> bytes:
        try:
            return os.read(to_controller_r, 4096)
        except BlockingIOError:
            return b""

    hal = VirtualHAL(read=read, write=lambda data: os.write(from_controller_w, data))
    controller = Controller(hal, CONTROLLER_ID)
    decoder = fp.Decoder()
    try:
        controller.step()
        assert decoder.feed(os.read(from_controller_r, 4096)) == [HELLO]
        os.write(to_controller_w, fp.encode(WELCOME) + fp.encode(fp.Ping(5)))
        hal.clock.advance(1)
        controller.step()
        assert decoder.feed(os.read(from_controller_r, 4096)) == [
            fp.Pong(5), fp.State(0, 0, 0, False, 0)]
    finally:
        for fd in (to_controller_r, to_controller_w, from_controller_r, from_controller_w):
            os.close(fd)


def test_virtual_hal_rejects_unknown_transport() -> None:
    with pytest.raises(ValueError):
        VirtualHAL(transport="bluetooth")


# --- protocol 1.1: private hints and refused choices ----------------------------------------------

STOPS = wire.CAP_PATH_LIGHTS | wire.CAP_COLOUR_LED | wire.CAP_LOCK_SWITCH | wire.CAP_STOP_LIGHTS


def test_hint_lights_the_valid_stops_on_a_ring() -> None:
    rig = Rig(capabilities=STOPS).welcomed()
    rig.send(fp.Hint(0b1010_0000_0000_0001, 0, 0x0006))
    rig.run(1)
    assert rig.hal.stop_lights == (0b1010_0000_0000_0001, 0, 0x0006)
    assert rig.take() == []                                # a hint is not answered
    rig.send(fp.Hint(0, 0, 0))                             # cleared
    rig.run(1)
    assert rig.hal.stop_lights == (0, 0, 0)


def test_hint_bits_beyond_the_wheel_are_not_shown() -> None:
    rig = Rig(capabilities=STOPS, positions=(4, 16, 2)).welcomed()
    rig.send(fp.Hint(0xFFFF, 0, 0xFFFF))
    rig.run(1)
    assert rig.hal.stop_lights == (0x000F, 0, 0x0003)


def test_hint_without_a_ring_uses_the_wheels_path_light() -> None:
    rig = Rig().welcomed()                                  # path lights, no stop lights
    rig.send(fp.SetLights(False, True, False, (0, 0, 255)))
    rig.send(fp.Hint(0b0100, 0, 0))                         # left wheel: only stop 2 is valid
    rig.run(1)
    assert rig.hal.path_lights == (False, True, False)      # the left wheel rests on 0: off
    rig.hal.set_wheels(2, 0, 0)
    rig.run(fp.DEBOUNCE_MS + 1)
    assert rig.hal.path_lights == (True, True, False)       # on a valid stop: on
    rig.send(fp.Hint(0, 0, 0))
    rig.run(1)
    assert rig.hal.path_lights == (False, True, False)      # back to what SetLights said


def test_a_new_session_clears_the_hint() -> None:
    rig = Rig(capabilities=STOPS).welcomed()
    rig.send(fp.Hint(3, 0, 0))
    rig.run(1)
    rig.send(fp.HostHello(), WELCOME)
    rig.run(1)
    assert rig.controller.hint == (0, 0, 0) and rig.hal.stop_lights == (0, 0, 0)


def test_hint_and_choice_refused_are_ignored_before_the_welcome() -> None:
    rig = Rig(capabilities=STOPS)
    rig.step()
    rig.send(fp.Hint(3, 0, 0), fp.ChoiceRefused(1, 1000))
    rig.run(200)
    assert rig.controller.hint == (0, 0, 0) and not rig.controller.refusing
    assert all(v == BLACK for _, what, v in rig.hal.led_log if what == "colour")


def test_choice_refused_blinks_red_not_white_then_restores() -> None:
    rig = Rig().welcomed()
    rig.send(fp.SetLights(True, False, False, (0, 200, 0)))
    rig.run(1)
    mark, t0 = len(rig.hal.led_log), rig.now
    rig.send(fp.ChoiceRefused(0b001, 600))
    rig.run(700)
    colours = [(t - t0 - 1, v) for t, what, v in rig.hal.led_log[mark:] if what == "colour"]
    assert colours[:4] == [(0, RED), (125, BLACK), (250, RED), (375, BLACK)]
    assert WHITE not in [v for _, v in colours]              # not an Identify
    assert colours[-1] == (600, (0, 200, 0))                 # then the player's colour again
    paths = [v for _, what, v in rig.hal.led_log[mark:] if what == "path"]
    assert {p[1:] for p in paths} == {(False, False)}        # only the refused wheel's light blinks
    assert rig.hal.path_lights == (True, False, False)
    assert rig.take() and not rig.controller.refusing        # (heartbeats went on)


def test_identify_still_means_find_me() -> None:
    rig = Rig().welcomed()
    rig.send(fp.Identify(300))
    rig.run(10)
    assert rig.hal.colour == WHITE and not rig.controller.refusing


def test_refused_blink_starts_on_entering_refused_and_is_not_restarted() -> None:
    rig = Rig()
    rig.step()
    rig.run(9)
    rig.send(fp.Welcome(1, 1, False, "duplicate controller id"))
    rig.run(1)                                               # refused at 10 ms: red at once
    assert rig.hal.colour == RED
    rig.run(300)
    rig.send(fp.Welcome(1, 1, False, "duplicate controller id"))   # refused again at 311 ms
    rig.run(300)
    colours = [(t, v) for t, what, v in rig.hal.led_log if what == "colour" and t > 0]
    assert colours == [(10, RED), (510, BLACK)]              # the blink kept its phase
    rig.run(5000)
    hellos = [t for t, m in rig.log if isinstance(m, fp.Hello)]
    assert hellos == [0, 311 + fp.REFUSED_RETRY_MS]          # the timer restarts at a refusal


def test_answering_a_host_hello_restarts_the_hello_timer() -> None:
    rig = Rig()
    rig.step()
    rig.run(300)
    rig.send(fp.HostHello())
    rig.run(900)
    hellos = [t for t, m in rig.log if isinstance(m, fp.Hello)]
    assert hellos == [0, 301, 801]


def test_a_wheel_fault_is_reported_only_once_running() -> None:
    rig = Rig()
    rig.hal.set_wheels(-1, 0, 0)
    rig.step()
    rig.run(300)
    assert not [m for m in rig.take() if isinstance(m, fp.ErrorReport)]
    rig.send(WELCOME)
    rig.run(2)
    sent = rig.take()
    assert isinstance(sent[0], fp.State)                     # the session's first State first
    assert [m.code for m in sent if isinstance(m, fp.ErrorReport)] == [fp.ErrorCode.WHEEL_FAULT]


def test_messages_meant_for_the_host_are_unknown_not_bad() -> None:
    rig = Rig().welcomed()
    rig.send(fp.State(1, 2, 3, True, 4), fp.Hello(1, 1, 5, (1, 0, 0), (16, 16, 16), 7),
             fp.Pong(3), fp.ErrorReport(3, "x"))
    rig.run(1)
    assert rig.controller.unknown_messages == 4 and rig.controller.bad_frames == 0
    assert rig.controller.mode == ctl.RUNNING


# --- light timelines (vectors/lights.json) --------------------------------------------------------


@pytest.mark.parametrize("case", tv.load("lights.json")["cases"], ids=lambda c: c["name"])
def test_light_timelines(case: dict) -> None:
    """Every case of lights.json, against a fake clock, the firmware stepping every 1 ms."""
    rig = Rig(capabilities=case["capabilities"], positions=tuple(case["positions"]))
    rig.step()
    if case["given"] == "running":
        rig.send(WELCOME)
        rig.step()
        assert rig.controller.mode == ctl.RUNNING
    start = rig.now
    steps = sorted(case["steps"], key=lambda s: s["at"])
    samples = {s["at"]: s for s in case["expect"]}
    end = max(samples) + 1
    seen = []
    for t in range(end):
        for s in steps:
            if s["at"] == t and "receives_serial" in s:
                rig.hal.send_to_controller(bytes.fromhex(s["receives_serial"]))
            if s["at"] == t and "wheels" in s:
                rig.hal.set_wheels(*s["wheels"])
        if t:
            rig.hal.clock.advance(1)
        rig.step()
        assert rig.now - start == t
        if t in samples:
            want = samples[t]
            got = {"at": t, "path": list(rig.hal.path_lights), "colour": list(rig.hal.colour)}
            if "stops" in want:
                got["stops"] = list(rig.hal.stop_lights)
            seen.append((want, got))
    assert [g for _, g in seen] == [w for w, _ in seen]
    assert rig.controller.bad_frames == 0
    if "hint" in case:
        assert list(rig.controller.hint) == case["hint"]
