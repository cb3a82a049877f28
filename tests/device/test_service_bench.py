"""The service mode (`bitbox test-controllers`) as a bench: per controller its firmware and
protocol, the stops each wheel has reached, the age of its last frame, bad frames and their
rate (kept when it is lost), what each wheel means for a game, the lights test one light at a
time, and every light put back when the screen closes. Emulated controllers on
pseudo-terminals; every wait bounded."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pygame
import pytest

if not sys.platform.startswith(("linux", "darwin")):
    pytest.skip("pseudo-terminals need a POSIX system", allow_module_level=True)

from bitbox.hub import Hub
from bitbox.table.service import ServiceBench, light_step, line_of, run_test_screen
from bitbox.wheels import load_wheel_map
from bitbox_tools.emulate import Emulator

BLUE = (0, 0, 255)


def wait_for(predicate, hub, bench=None, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for e in hub.poll(timeout=0.02):
            if bench is not None:
                bench.handle(e)
        if predicate():
            return True
    return predicate()


def _hub(emu):
    hub = Hub()
    for p in emu.ports:
        hub.add_url(p)
    hub.start()
    return hub


def test_the_bench_tracks_versions_seen_stops_age_and_bad_frames_and_keeps_them_when_lost():
    with Emulator(2, positions=(6, 4, 16)) as emu:
        hub = _hub(emu)
        try:
            bench = ServiceBench(hub, load_wheel_map(game="outspeed"))
            assert wait_for(lambda: len([s for s in hub.seats() if s.connected]) == 2, hub, bench)
            for left in range(6):                            # turn the left wheel through every stop
                emu.set(0, left=left)
                assert wait_for(lambda left=left: any(s.wheels[0] == left for s in hub.seats()
                                                      if s.controller_id == emu.controllers[0].controller_id),
                                hub, bench)
            row = next(r for r in bench.rows() if r["controller"] == emu.controllers[0].controller_id)
            assert row["seen"][0] == 0b11_1111 and row["positions"] == [6, 4, 16]
            assert row["protocol"] == (1, 2) and row["firmware"] == "1.0.0"
            assert row["age"] is not None and row["age"] < 1.0
            assert row["meanings"] is not None and len(row["meanings"]) == 3
            emu.garbage(1, 400)                              # a noisy cable on the second one
            other = emu.controllers[1].controller_id
            assert wait_for(lambda: next(s for s in hub.seats() if s.controller_id == other).bad_frames > 0, hub, bench)
            emu.disconnect(1)
            assert wait_for(lambda: not next(s for s in hub.seats() if s.controller_id == other).connected,
                            hub, bench)
            lost = next(r for r in bench.rows() if r["controller"] == other)
            assert not lost["connected"] and lost["bad_frames"] > 0 and lost["firmware"] == "1.0.0"
            line = line_of(lost)
            assert "lost" in line and "bad frame" in line and "firmware 1.0.0, protocol 1.2" in line
            surface = pygame.Surface((1280, 720))
            from bitbox.display.lobby import TestScreen
            pygame.font.init()
            TestScreen((1280, 720)).draw(surface, hub.seats(), hub.links(), True, rows=bench.rows(), light="led")
        finally:
            hub.close()


def test_the_lights_test_lights_one_light_at_a_time_and_leaving_resets_the_lights():
    pygame.font.init()
    with Emulator(1) as emu:
        hub = _hub(emu)
        try:
            assert wait_for(lambda: any(s.connected for s in hub.seats()), hub)
            seat = hub.seats()[0].seat
            hub.set_lights(seat, False, True, False, colour=BLUE)   # what a game had set
            assert wait_for(lambda: emu.status()[0]["lights"] == [False, True, False], hub)
            assert light_step(hub, 0) == "left"
            assert wait_for(lambda: emu.status()[0]["lights"] == [True, False, False], hub)
            assert light_step(hub, 3) == "led"
            assert wait_for(lambda: emu.status()[0]["lights"] == [False, False, False]
                            and emu.status()[0]["colour"] is not None, hub)
            assert light_step(hub, 4) is None
            hub.set_lights(seat, False, True, False, colour=BLUE)   # the game's lights again, then the screen
            pressed = iter([[], ["lights"], [], [], ["identify"], [], ["escape"]])
            run_test_screen(hub, None, keys=lambda: next(pressed, ["escape"]))
            assert wait_for(lambda: emu.status()[0]["lights"] == [False, False, False]
                            and tuple(emu.status()[0]["colour"] or ()) == BLUE
                            and not emu.status()[0]["identifying"], hub)
        finally:
            hub.close()


def test_test_controllers_headless_with_a_game_says_what_the_wheels_mean():
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    with Emulator(1) as emu:
        emu.set(0, right=2)
        r = subprocess.run([sys.executable, "-m", "bitbox.cli", "test-controllers", "--game", "outspeed",
                            "--controller", emu.ports[0], "--seconds", "1"], capture_output=True, text=True,
                           timeout=60, env=env)
    assert r.returncode == 0, r.stderr
    (line,) = r.stdout.strip().splitlines()
    right = load_wheel_map(game="outspeed").meaning("right", 2)
    assert "wheels 0 0 2" in line and str(right) in line and "seen 1/16 1/16 1/16" in line
    assert "firmware 1.0.0, protocol 1.2" in line and "last frame" in line
    r = subprocess.run([sys.executable, "-m", "bitbox.cli", "test-controllers", "--game", "no-such-game",
                        "--seconds", "0"], capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 2 and r.stderr.count("\n") == 1


def test_a_controller_heard_before_its_first_state_is_shown_unknown_not_at_stop_zero_and_open():
    """Between its Hello and its first State (a few milliseconds; longer on a busy machine) the
    hub knows a controller but not its wheels: the test screen says so, and marks no stop seen."""
    import firmware_protocol as fp
    from bitbox.controllers import ControllersConfig
    from bitbox.transports.memory import BytePipe, PipeTransport
    to_host, to_controller = BytePipe(), BytePipe()
    with Hub(config=ControllersConfig()) as hub:
        hub.add_transport(PipeTransport("bench://", to_host, to_controller))
        hub.start()
        to_host.write(fp.encode(fp.Hello(1, 2, 0x77, (1, 0, 0), (16, 16, 16), 7)))
        bench = ServiceBench(hub)
        assert wait_for(lambda: any(s.connected for s in hub.seats()), hub, bench, timeout=10)
        (status,) = hub.seats()
        assert not status.reported
        (row,) = bench.rows()
        assert row["seen"] == [0, 0, 0]
        assert "wheels ? ? ?, lock ?," in line_of(row) and "open" not in line_of(row)
        to_host.write(fp.encode(fp.State(3, 2, 1, True, 1)))
        assert wait_for(lambda: hub.seats()[0].reported, hub, bench, timeout=10)
        (row,) = bench.rows()
        assert "wheels 3 2 1, locked," in line_of(row) and row["seen"] == [1 << 3, 1 << 2, 1 << 1]
