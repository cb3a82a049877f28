"""`bitbox identify` and `bitbox test-controllers` as a maker would run them (subprocesses)
against emulated controllers on pseudo-terminals."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import pygame
import pytest

if not sys.platform.startswith(("linux", "darwin")):
    pytest.skip("pseudo-terminals need a POSIX system", allow_module_level=True)

from bitbox.colours import LIGHT_RGB, SEAT_COLOURS
from bitbox.hub import Hub
from bitbox.table.service import lights_step, run_test_screen
from bitbox_tools.emulate import Emulator

BITBOX = [sys.executable, "-m", "bitbox.cli"]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def _run(args, timeout=60):
    return subprocess.run(BITBOX + args, capture_output=True, text=True, timeout=timeout, env=ENV)


def _line_of_port(lines, port):
    """The one line of ``bitbox test-controllers`` about ``port`` (``<id> <port>: ...``): by the
    whole port, since one pseudo-terminal's path may begin another's (/dev/pts/1, /dev/pts/10)."""
    (line,) = [line for line in lines if line.split(": ", 1)[0].split(" ")[-1] == port]
    return line


@pytest.mark.parametrize("by", ["port", "id", "id-tail"])
def test_identify_blinks_that_controller_only(by):
    with Emulator(2) as emu:
        cid = f"{emu.controllers[1].controller_id:016x}"
        if by == "port":
            args = [emu.ports[1]]
        else:                                  # by id, among the ports given (pseudo-terminals are not discovered)
            args = ["--controller", emu.ports[0], "--controller", emu.ports[1], cid if by == "id" else cid[-4:]]
        r = _run(["identify", "--ms", "5000", *args])
        assert r.returncode == 0, r.stderr
        assert emu.ports[1] in r.stdout and "blinking for 5 s" in r.stdout and cid in r.stdout
        assert emu.controllers[1].identifying and not emu.controllers[0].identifying


def test_identify_by_an_id_nobody_has_is_one_line():
    with Emulator(1) as emu:
        r = _run(["identify", "--wait", "1.5", "--controller", emu.ports[0], "feedbeef"])
    assert r.returncode == 3 and "no controller answered with that id (feedbeef)" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and not emu.controllers[0].identifying


def test_identify_on_a_port_that_cannot_be_opened_or_never_answers():
    r = _run(["identify", "/dev/no-such-port"])
    assert r.returncode == 3 and r.stderr.count("\n") == 1 and "cannot open /dev/no-such-port" in r.stderr
    master, slave = os.openpty()
    try:
        r = _run(["identify", "--wait", "1", os.ttyname(slave)])
    finally:
        os.close(master)
        os.close(slave)
    assert r.returncode == 3 and "no controller answered on that port" in r.stderr and "Traceback" not in r.stderr
    r = _run(["identify", "--ms", "0", "/dev/null"])
    assert r.returncode == 2 and "--ms expects" in r.stderr


def test_test_controllers_shows_wheels_lock_and_bad_frames(tmp_path):
    with Emulator(2, faults="1:ber=2e-3") as emu:
        emu.set(0, left=3, centre=2, right=1, locked=1)
        shot = tmp_path / "test.png"
        r = _run(["test-controllers", "--controller", emu.ports[0], "--controller", emu.ports[1],
                  "--seconds", "2", "--snapshot", str(shot)])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 2
    # the controller's own line: the seats follow the order the Hellos came in, either one first
    assert "wheels 3 2 1, locked" in _line_of_port(lines, emu.ports[0])
    assert "wheels 0 0 0, open" in _line_of_port(lines, emu.ports[1])
    assert shot.exists()
    surf = pygame.image.load(str(shot))
    assert surf.get_size() == (1920, 1080)
    r = _run(["test-controllers", "--seconds", "-1"])
    assert r.returncode == 2 and "--seconds expects" in r.stderr


def test_the_lights_test_lights_every_controller_in_the_seat_colours():
    pygame.font.init()
    with Emulator(2) as emu:
        hub = Hub()
        try:
            for p in emu.ports:
                hub.add_url(p)
            hub.start()
            deadline = time.monotonic() + 5
            while len([s for s in hub.seats() if s.connected]) < 2 and time.monotonic() < deadline:
                hub.poll(timeout=0.05)
            lights_step(hub, 2)                       # step 2: on, in the second seat colour
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline and not all(
                    s["lights"] == [True, True, True] for s in emu.status()):
                hub.poll(timeout=0.05)
            for s in emu.status():
                assert s["lights"] == [True, True, True] and tuple(s["colour"]) == LIGHT_RGB[SEAT_COLOURS[1]]
            seen = []
            pressed = iter([["lights"], [], [], ["identify"], [], ["escape"]])
            frames = run_test_screen(hub, None, keys=lambda: next(pressed, ["escape"]), on_event=seen.append)
            assert frames >= 4
            # leaving the test screen switches the lights test off
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline and any(any(s["lights"]) for s in emu.status()):
                hub.poll(timeout=0.05)
            assert not any(any(s["lights"]) for s in emu.status())
        finally:
            hub.close()
