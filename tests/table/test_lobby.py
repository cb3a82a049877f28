"""The lobby over emulated controllers on pseudo-terminals (the reference firmware on one side,
pyserial and the hub on the other): a lock takes a seat and the controller's light shows its
colour, the left wheel swaps seats, the game starts when everyone is ready or on Enter; a
--controller that never answers is waited for by name; headless runs never block."""
from __future__ import annotations

import io
import os
import select
import subprocess
import sys
import time

import pytest

if not sys.platform.startswith(("linux", "darwin")):
    pytest.skip("pseudo-terminals need a POSIX system", allow_module_level=True)

import pygame

from bitbox.colours import LIGHT_RGB, SCREEN_RGB
from bitbox.display.lobby import MIN_TEXT, LobbyScreen
from bitbox.events import Connected
from bitbox.hub import Hub
from bitbox.table.lobby import Lobby, arrange, run_lobby, seat_line, short_id
from bitbox.table.seating import LeftLobby
from bitbox_tools.emulate import Emulator, emulator_controller_id

NAMES = ("red", "blue", "green", "yellow", "purple", "orange")


def _hub(emu: Emulator, n: int) -> tuple[Hub, dict[int, int]]:
    """A hub on the emulator's ports; returns it and controller index -> hub seat."""
    hub = Hub()
    for port in emu.ports[:n]:
        hub.add_url(port)
    hub.start()
    return hub, {}


class Script:
    """The hands at the table, one step each time the lobby loop asks for keys: each step
    waits until its condition holds, then acts."""

    def __init__(self, steps) -> None:
        self.steps = list(steps)
        self.done: list[str] = []

    def __call__(self) -> list[str]:
        if not self.steps:
            return []
        name, ready, act = self.steps[0]
        if ready():
            self.steps.pop(0)
            self.done.append(name)
            return act() or []
        return []


def _colour(emu: Emulator, i: int):
    c = emu.status()[i]["colour"]
    return None if c is None else tuple(c)


def _wait(cond, seconds=5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.02)
    return cond()


@pytest.fixture
def window():
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1280, 720))
    yield screen
    pygame.display.quit()


def test_lock_takes_a_seat_the_left_wheel_swaps_and_everyone_ready_starts(window):
    with Emulator(3) as emu:
        hub, _ = _hub(emu, 3)
        try:
            lobby = Lobby(NAMES, 6)
            cid = {i: emulator_controller_id(i) for i in range(3)}

            def seat_of(i):
                e = next((e for e in lobby.entries.values() if e.info.controller_id == cid[i]), None)
                return None if e is None else e.seat

            frames: list[pygame.Surface] = []
            script = Script([
                ("all three found", lambda: len(lobby.entries) == 3, lambda: None),
                ("controller 1 locks: Red", lambda: True, lambda: emu.set(1, locked=1)),
                ("controller 0 locks: Blue", lambda: seat_of(1) == 0, lambda: emu.set(0, locked=1)),
                ("seen", lambda: seat_of(0) == 1, lambda: frames.append(pygame.display.get_surface().copy())),
                ("controller 0 turns left to 1: swaps to Red", lambda: True, lambda: emu.set(0, left=1)),
                ("controller 2 locks: Green, all ready", lambda: seat_of(0) == 0 and seat_of(1) == 1,
                 lambda: emu.set(2, locked=1)),
            ])
            sink: list = []
            order = run_lobby(hub, lobby, screen=window, title="Outspeed", options="4 players", keys=script,
                              max_seconds=20, sink=sink)
            assert script.done[-1].startswith("controller 2"), script.done
            assert order is not None
            assert [lobby.entries[s].info.controller_id for s in order] == [cid[0], cid[1], cid[2]]
            assert [lobby.entries[s].seat for s in order] == [0, 1, 2]
            # each controller's colour light shows its seat (after the swap too)
            for i, name in ((0, "red"), (1, "blue"), (2, "green")):
                assert _wait(lambda i=i, name=name: _colour(emu, i) == LIGHT_RGB[name]), (i, _colour(emu, i))
            # the screen showed the seats in their colours, with the controllers' ids
            assert frames
            f = frames[0]
            colours = {tuple(f.get_at((x, y))[:3]) for x in range(0, 1280, 4) for y in range(100, 500, 4)}
            assert SCREEN_RGB["red"] in colours and SCREEN_RGB["blue"] in colours
            assert any(isinstance(e, Connected) for e in sink)
            assert any(f"Red: controller {short_id(cid[1])}" in line for line in lobby.lines)
        finally:
            hub.close()


def test_enter_starts_with_whoever_sits_and_unseated_controllers_do_not_play(window):
    with Emulator(2) as emu:
        hub, _ = _hub(emu, 2)
        try:
            lobby = Lobby(NAMES, 6)
            lobby.min_players = 3
            script = Script([
                ("both found", lambda: len(lobby.entries) == 2, lambda: emu.set(1, locked=1)),
                ("two bots to reach 3", lambda: any(e.seat is not None for e in lobby.entries.values()),
                 lambda: ["bot-"] if lobby.bot_count() == 2 else ["wrong"]),
                ("one bot, then three", lambda: lobby.bot_count() == 1, lambda: ["bot+", "bot+"]),
                ("enter", lambda: lobby.bot_count() == 3, lambda: ["enter"]),
            ])
            order = run_lobby(hub, lobby, screen=window, keys=script, max_seconds=20)
            assert script.done[-1] == "enter", script.done
            assert order is not None and len(order) == 1
            assert lobby.entries[order[0]].info.controller_id == emulator_controller_id(1)
            assert lobby.bots == 3
        finally:
            hub.close()


def test_t_opens_the_controller_test_screen_and_the_lobby_goes_on(window):
    with Emulator(1) as emu:
        hub, _ = _hub(emu, 1)
        try:
            lobby = Lobby(NAMES, 6)
            opened = []

            def service():
                # the lock closes while the test screen is open: the lobby hears it after
                from bitbox.table.service import run_test_screen
                emu.set(0, locked=1)
                n = iter(range(100))
                opened.append(run_test_screen(hub, window, on_event=lobby.handle,
                                              keys=lambda: ["escape"] if next(n) > 30 else []))
            script = Script([("found", lambda: len(lobby.entries) == 1, lambda: ["test"])])
            order = run_lobby(hub, lobby, screen=window, keys=script, service=service, max_seconds=20)
            assert opened and opened[0] > 30
            assert order is not None and len(order) == 1           # seated by the lock, then ready: started
        finally:
            hub.close()


def test_escape_leaves_the_lobby(window):
    with Emulator(1) as emu:
        hub, _ = _hub(emu, 1)
        try:
            lobby = Lobby(NAMES, 6)
            assert run_lobby(hub, lobby, screen=window, keys=lambda: ["escape"], max_seconds=10) is None
            run = arrange(hub, NAMES, 6, window=False, urls=["/nonexistent/port"], max_seconds=0.5)
            with pytest.raises(LeftLobby):
                run({}, [])
        finally:
            hub.close()


def test_the_lobby_screen_reads_from_3m():
    pygame.font.init()
    surf = pygame.Surface((1920, 1080))
    lobby = Lobby(NAMES, 6, expected=["/dev/ttyACM9"])
    from bitbox.events import ControllerInfo
    for seat, cid in enumerate((0x1D1E00000000C0DE, 0x2222000000000001)):
        lobby.handle(Connected(seat, ControllerInfo(cid, f"/dev/ttyACM{seat}", (1, 1), "ref-1.1", (7, 7, 4)), 0.0))
    lobby.take(0)
    view = LobbyScreen((1920, 1080))
    view.draw(surf, lobby, title="Outspeed", options="4 players · language en", bots=2)
    assert len(view.labels) > 10
    assert min(r.h for r in view.labels) >= MIN_TEXT
    for i, a in enumerate(view.labels):
        for b in view.labels[i + 1:]:
            assert not a.colliderect(b)


def test_seat_line():
    from bitbox.events import ControllerInfo
    info = ControllerInfo(0x1D1E00000000C0DE, "/dev/ttyACM0", (1, 1), "x", (7, 7, 4))
    assert seat_line("red", info) == "Red: controller 1d1e…c0de on /dev/ttyACM0"


def _run(args, tmp_path, timeout=90):
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.run([sys.executable, "-m", "outspeed.cli", "play", *args], capture_output=True, text=True,
                          cwd=tmp_path, timeout=timeout, env=env)


def test_headless_play_seats_the_controllers_in_the_order_given_with_a_line_each(tmp_path):
    with Emulator(2) as emu:
        ports = emu.ports
        r = _run(["--headless", "--players", "3", "--seed", "3", "--speed", "0", "--journal", "j.sqlite",
                  "--snapshots", "s", "--size", "320x180", "--max-seconds", "3",
                  "--controller", ports[1], "--controller", ports[0]], tmp_path)
    assert "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.splitlines()                   # status lines: stderr
    red = f"Red: controller {short_id(emulator_controller_id(1))} on {ports[1]}"
    blue = f"Blue: controller {short_id(emulator_controller_id(0))} on {ports[0]}"
    assert red in lines and blue in lines and lines.index(red) < lines.index(blue)
    assert "Red (controller), Blue (controller), Green (bot)" in r.stderr


def test_a_controller_that_never_answers_is_waited_for_by_name_never_a_bot_demo(tmp_path):
    master, slave = os.openpty()                    # a port where nothing answers
    port = os.ttyname(slave)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.Popen([sys.executable, "-m", "outspeed.cli", "play", "--headless", "--speed", "0",
                             "--journal", "j.sqlite", "--snapshots", "s", "--controller", port],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    try:
        out = ""
        deadline = time.monotonic() + 40
        while "waiting for controller" not in out and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stderr], [], [], 0.5)
            if ready:
                line = proc.stderr.readline()
                if not line:
                    break
                out += line
        assert f"waiting for controller {port}" in out, out
        time.sleep(1.0)
        assert proc.poll() is None                   # still waiting, not playing
    finally:
        proc.terminate()
        events, rest = proc.communicate(timeout=30)
        os.close(master)
        os.close(slave)
    assert "demo" not in out + rest + events and "bot" not in out + rest + events
    assert "Traceback" not in rest


def test_bot_only_and_demo_runs_never_wait_in_the_lobby(tmp_path):
    r = _run(["--headless", "--players", "3", "--seed", "2", "--speed", "0", "--journal", "j.sqlite",
              "--snapshots", "s", "--size", "320x180", "--lobby", "always"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "demo game" in r.stderr and "Winner" in r.stdout


def test_connect_with_the_lobby_window_keeps_the_colours_chosen_and_bots_take_the_free_ones(window, caplog):
    caplog.set_level("INFO", logger="bitbox")
    from bitbox.table.command import seat_rules
    from outspeed.cartridge import CARTRIDGE
    SEATING = seat_rules(CARTRIDGE)
    from bitbox.table.seating import SeatRequest, connect
    with Emulator(2) as emu:
        emu.set(1, locked=1)                    # controller 1 sits first: Red
        hub = Hub()
        ports = list(emu.ports)
        try:
            emu.set(0, locked=0)
            req = SeatRequest(players=3, urls=tuple(ports), wait=1.0)

            def later_lock():                   # controller 0 locks once the lobby is open: Blue
                time.sleep(1.0)
                emu.set(0, locked=1)
            import threading
            threading.Thread(target=later_lock, daemon=True).start()
            out = io.StringIO()
            seats, sims, pending = connect(hub, SEATING, req, None, out,
                                           arrange=arrange(hub, SEATING.names, SEATING.max_players, urls=req.urls,
                                                           window=True, title="Outspeed", out=out, max_seconds=20))
        finally:
            hub.close()
    by_player = {s["player"]: s for s in seats}
    assert list(by_player) == ["red", "blue", "green"]
    assert by_player["red"]["controller_id"] == emulator_controller_id(1)
    assert by_player["blue"]["controller_id"] == emulator_controller_id(0)
    assert by_player["green"]["kind"] == "bot" and "green" in sims
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("bitbox")]    # status lines: logging
    assert f"Red: controller {short_id(emulator_controller_id(1))} on {ports[1]}" in lines


def test_the_bots_settled_on_in_the_lobby_fill_the_table(tmp_path):
    from bitbox.table.command import seat_rules
    from outspeed.cartridge import CARTRIDGE
    SEATING = seat_rules(CARTRIDGE)
    from bitbox.table.seating import SeatRequest, connect

    class Settled:                        # what arrange() leaves after a lobby where + was pressed twice
        bots = 4

        def __call__(self, connected, pending):
            return {seat: 0 for seat in connected}

    with Emulator(1) as emu:
        hub = Hub()
        try:
            out = io.StringIO()
            seats, sims, _ = connect(hub, SEATING, SeatRequest(urls=tuple(emu.ports), wait=0.5, bots=1), None, out,
                                     arrange=Settled())
        finally:
            hub.close()
    assert [s["kind"] for s in seats] == ["controller", "bot", "bot", "bot", "bot"]
    assert len(sims) == 4
