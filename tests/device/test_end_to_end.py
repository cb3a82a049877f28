"""End to end over real pseudo-terminals: emulated controllers (the reference firmware under
the virtual HAL) <-> pty <-> pyserial <-> hub; and the maker tools on the same ports."""
from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

import firmware_protocol as fp
from bitbox.controllers import ControllersConfig
from bitbox.events import WheelsChanged
from bitbox.hub import Hub
from bitbox.sim import load_script
from bitbox_tools.emulate import Emulator, emulator_controller_id
from bitbox_tools.monitor import monitor

from .conftest import assert_not_delayed, events_of, wait_for

CFG = ControllersConfig()


def is_(kind):
    return lambda e: type(e).__name__ == kind


def start(emu: Emulator, hub: Hub, urls=None):
    for url in urls or emu.ports:
        hub.add_url(url)
    hub.start()
    seen = []
    n = len(emu.controllers)
    assert wait_for(lambda: seen.extend(hub.poll()) or len(events_of(seen, "WheelsChanged")) >= n, 10), seen
    return {e.info.controller_id: e.seat for e in events_of(seen, "Connected")}


def test_six_controllers_wheel_changes_arrive_in_order_with_the_right_seats():
    reported: dict[int, tuple] = {}                       # controller index -> its last State's wheels, lock
    decoders = [fp.Decoder() for _ in range(6)]

    def on_frame(index, frame, t):
        for m in decoders[index].feed(frame):
            if type(m) is fp.State:
                reported[index] = (m.left, m.centre, m.right, m.locked)

    with Emulator(6, on_frame=on_frame) as emu, Hub(config=CFG) as hub:
        seat_of = start(emu, hub)
        assert sorted(seat_of.values()) == list(range(6))
        assert set(seat_of) == {emulator_controller_id(i) for i in range(6)}
        expected: dict[int, list] = {seat: [] for seat in range(6)}
        for r in range(4):
            for i in range(6):
                # each controller changes every 90 ms (> debounce), and never before its last
                # change went on the line (a starved emulator would merge the two): bounded
                vc = emu.controllers[i]
                assert wait_for(lambda i=i, vc=vc: reported.get(i) == (*vc.wheels, vc.locked), 10)
                wheel, value = r % 3, (r * 5 + i) % 15 + 1
                emu.set(i, **{("left", "centre", "right")[wheel]: value}, locked=bool(r % 2))
                expected[seat_of[emu.controllers[i].controller_id]].append((wheel, value, bool(r % 2)))
                time.sleep(0.015)
        got = []                                          # until all 24 are in (bounded), then a little more
        assert wait_for(lambda: got.extend(hub.poll()) or len(events_of(got, "WheelsChanged")) >= 24, 10), got
        got += hub.poll_until(lambda e: False, 0.2)
        changes = events_of(got, "WheelsChanged")
        # every seat got its own changes, in the order they were made
        for seat, plan in expected.items():
            mine = [e for e in changes if e.seat == seat]
            assert [((e.left, e.centre, e.right)[w], e.locked) for e, (w, _, _) in zip(mine, plan)] == \
                [(v, lock) for _, v, lock in plan]
            assert len(mine) == len(plan)
        # one stream, in the order of its arrival stamps (each port has its own reader, and a
        # busy machine may run one late: how soon each arrives after its frame was sent is a
        # latency, measured by `python -m bitbox_tools.bench`, not asserted here)
        assert [e.t for e in changes] == sorted(e.t for e in changes)
        assert not events_of(got, "Lost") and all(s.bad_frames == 0 for s in hub.seats())
        for i, vc in enumerate(emu.controllers):
            status = hub.seats()[seat_of[vc.controller_id]]
            assert status.wheels == vc.wheels and status.locked == vc.locked and status.port == emu.ports[i]


def test_unplug_and_replug_on_another_port_keeps_the_seat():
    with Emulator(3) as emu, Hub(config=CFG) as hub:
        seat_of = start(emu, hub)
        cid = emu.controllers[1].controller_id
        emu.set(1, left=7, right=3)
        assert wait_for(lambda: hub.poll() is not None and hub.seats()[seat_of[cid]].wheels == (7, 0, 3), 10)
        emu.disconnect(1)
        (lost,) = events_of(hub.poll_until(is_("Lost"), 8), "Lost")
        assert (lost.seat, lost.controller_id, lost.reason) == (seat_of[cid], cid, "unplugged")
        new = emu.reconnect(1)
        hub.add_url(new)                          # the host finds it on its (new) port
        got = hub.poll_until(is_("Back"), 8)
        (back,) = events_of(got, "Back")
        assert (back.seat, back.controller_id, back.port) == (seat_of[cid], cid, new)
        assert not events_of(got, "Connected")
        assert hub.seats()[seat_of[cid]].wheels == (7, 0, 3)
        # the old pty is dropped (its reader ends on its own thread: bounded, not at once)
        assert wait_for(lambda: len([l for l in hub.links() if l.controller_id == cid]) == 1, 10), hub.links()


def test_a_stable_link_path_is_reopened_by_itself(tmp_path):
    with Emulator(2, link_dir=tmp_path) as emu, Hub(config=CFG, reopen_s=0.1) as hub:
        seat_of = start(emu, hub, [str(emu.link(i)) for i in range(2)])
        emu.disconnect(0, seconds=0.3)            # unplugged, back 0.3 s later on a new pty
        got = hub.poll_until(is_("Back"), 8)
        assert [type(e).__name__ for e in got if not isinstance(e, WheelsChanged)] == ["Lost", "Back"]
        assert got[-1].port == str(emu.link(0)) and got[-1].seat == seat_of[emu.controllers[0].controller_id]
        assert hub.seats()[got[-1].seat].connected


def test_garbage_and_bit_errors_are_counted_and_ignored():
    with Emulator(3, faults="0:garbage=3000,1:ber=5e-3", seed=5) as emu, Hub(config=CFG) as hub:
        start(emu, hub)
        for r in range(1, 9):
            for i in range(3):
                emu.set(i, right=r)
            time.sleep(0.06)
        hub.poll_until(lambda e: False, 0.3)
        bad = {s.controller_id: s.bad_frames for s in hub.seats()}
        ids = [vc.controller_id for vc in emu.controllers]
        assert bad[ids[0]] > 10 and bad[ids[1]] > 0 and bad[ids[2]] == 0
        assert all(s.connected for s in hub.seats())
        # the last setting always gets through (a heartbeat repeats it if the change was hit)
        assert wait_for(lambda: all(s.wheels == (0, 0, 8) for s in hub.seats()), 10)
        links = {l.controller_id: l for l in hub.links()}
        assert links[ids[0]].bad_frames >= bad[ids[0]]        # the link counts from its opening


def test_a_babbling_controller_leaves_the_others_events_on_time(tmp_path):
    # The emulator runs in its own process, as real controllers would: the babble costs this
    # process only the reading of it. Its trace gives the moment each frame was written. The
    # others' changes are timed without the babbler first, then with it, in the same run.
    trace = tmp_path / "trace.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "bitbox_tools.emulate", "-n", "4", "--trace", str(trace)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        lines = [json.loads(proc.stdout.readline()) for _ in range(4)]
        index = {l["controller"]: l["index"] for l in lines}

        def command(text):
            proc.stdin.write(text + "\n")
            proc.stdin.flush()

        with Hub(config=CFG) as hub:
            for l in lines:
                hub.add_url(l["port"])
            seen = []
            assert wait_for(lambda: seen.extend(hub.poll()) or len(events_of(seen, "WheelsChanged")) >= 4, 5)
            windows = []                             # (from, to, babbling): alternate, so that a
            for r in range(1, 29):                   # machine busy with other work hits both alike
                # (14 rounds each: one round late by a burst of load elsewhere is 3 samples of 42,
                # within the tenth the 0.9 quantile leaves, not 3 of 18)
                babbling = (r - 1) // 2 % 2 == 1
                command(f"0 babble {'on' if babbling else 'off'}")
                time.sleep(0.05)
                start = time.monotonic()
                for i in (1, 2, 3):
                    command(f"{i} centre={r % 15 + 1}")     # 1..15, a change every round
                time.sleep(0.1)                      # > the debounce, with room for a busy machine
                windows.append((start, time.monotonic(), babbling))
            command("0 babble on")
            got = seen                               # until the last change of each is in (in order
            last_centre = 28 % 15 + 1                # on its link: all before it too), bounded
            assert wait_for(lambda: got.extend(hub.poll()) or all(
                s.wheels[1] == last_centre for s in hub.seats() if index[s.controller_id] != 0), 10)
            got += hub.poll_until(lambda e: False, 0.1)
            babbler = next(s for s in hub.seats() if index[s.controller_id] == 0)
            others = [s for s in hub.seats() if s.seat != babbler.seat]
            assert babbler.bad_frames > 100
            # the others never missed a heartbeat (the babbler's own frames may drown in its noise)
            assert all(s.connected for s in others)
            assert not [e for e in got if type(e).__name__ == "Lost" and e.seat != babbler.seat]
        command("quit")
        assert proc.wait(5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    written, decoders, last = {}, {}, {}                      # the changes the firmwares sent
    for line in trace.read_text().splitlines():
        entry = json.loads(line)
        i = entry["index"]
        for m in decoders.setdefault(i, fp.Decoder()).feed(bytes.fromhex(entry["frame"])):
            if type(m) is fp.State and i != 0:
                if last.get(i) is not None and m.centre != last[i] and m.centre > 0:
                    written[(i, m.seq)] = entry["t"]
                last[i] = m.centre
    received = {(index[e.controller_id], e.seq): e.t for e in events_of(got, "WheelsChanged")
                if index[e.controller_id] != 0 and e.centre > 0}
    assert set(written) == set(received)                      # every change sent arrived, no other
    def during(babbling):
        return [received[k] - t for k, t in written.items()
                if any(a <= t <= b and on == babbling for a, b, on in windows)]
    control, babbled = during(False), during(True)
    assert len(control) >= 10 and len(babbled) >= 10          # (a starved emulator may merge a few)
    assert_not_delayed(babbled, control)                      # typically all under 1 ms either way


def test_a_script_file_drives_the_emulator(tmp_path):
    script = tmp_path / "script.yaml"
    script.write_text("""
- {at: 0.1, controller: 0, right: 2, locked: true}
- {at: 0.2, controller: 1, centre: 5}
- {at: 0.3, fault: garbage, bytes: 50}
- {at: 0.35, controller: 1, left: 3}
""")
    steps = load_script(script)
    with Emulator(2) as emu, Hub(config=CFG) as hub:
        start(emu, hub)
        emu.run_script(steps)
        assert wait_for(lambda: emu.script_done, 10)
        ids = [vc.controller_id for vc in emu.controllers]
        assert wait_for(lambda: {s.controller_id: (s.wheels, s.locked) for s in hub.seats()} == {
            ids[0]: ((0, 0, 2), True), ids[1]: ((3, 5, 0), False)}, 10), hub.seats()
        assert wait_for(lambda: sum(s.bad_frames for s in hub.seats()) >= 2)


@pytest.mark.parametrize("text, message", [
    ("- {at: -1, right: 2}", "step 1, field at"),
    ("- {at: 1, right: 99}", "step 1, field right: expected a position 0..15"),
    ("- {at: 1, fault: melt}", "step 1, field fault: expected one of"),
    ("- {at: 1}", "step 1: does nothing"),
    ("- {at: 1, right: 2, colour: red}", "step 1: unknown field 'colour'"),
    ("- {at: 1, right: 2, bytes: 3}", "step 1, field bytes: only meaningful with fault: garbage"),
    ("- {at: 1, fault: disconnect, seconds: 1e308}", "step 1, field seconds: expected a number 0..3600"),
    ("- {at: 1, fault: garbage, bytes: 99999999999}", "step 1, field bytes: expected a number 0..1e"),
    ("- {at: .inf, right: 2}", "step 1, field at"),
    ("{steps: [{at: 0, right: 1}], repeat: 1000000000}", "field repeat"),
    ("{steps: [{at: 0, right: 1}], repeat: 2, every: .inf}", "field every"),
])
def test_script_errors_name_the_step_and_field(tmp_path, text, message):
    from bitbox.config import ConfigError
    path = tmp_path / "s.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_script(path)


def test_the_monitor_prints_every_message_and_counts_bad_frames():
    with Emulator(1, faults="garbage=500") as emu:
        out = io.StringIO()
        summary = monitor(emu.ports[0], as_json=True, count=5, seconds=3, out=out)
        lines = [json.loads(line) for line in out.getvalue().splitlines()]
        messages = [l for l in lines if l["type"] != "BadFrames"]
        # its boot Hello, maybe a second one (the answer to our HostHello), then States
        assert messages[0]["type"] == "Hello" and messages[-1]["type"] == "State"
        assert messages[0]["controller_id"] == emulator_controller_id(0)
        assert {"left", "centre", "right", "locked", "seq", "t", "bad_frames"} <= set(messages[-1])
        assert summary["messages"] == 5 and summary["bad_frames"] >= 1
        assert any(l["type"] == "BadFrames" for l in lines)
        emu.set(0, right=3)
        out = io.StringIO()
        from bitbox.wheels import load_wheel_map
        monitor(emu.ports[0], count=3, seconds=3, out=out, wheel_map=load_wheel_map())
        text = out.getvalue()
        assert "Hello" in text and "R=3(right)" in text


def test_bitbox_ports_probes_the_configured_ports(tmp_path, capsys):
    from bitbox.cli import main
    with Emulator(1) as emu:
        cfg = tmp_path / "controllers.yaml"
        cfg.write_text(f"usb: []\nports: ['{emu.ports[0]}', '/dev/ttyNOPE9']\n")
        assert main(["ports", "--config", str(cfg), "--json", "--timeout", "0.5"]) == 0
        rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert rows[0]["port"] == emu.ports[0] and rows[0]["answered"]
        assert rows[0]["controller"] == f"{emulator_controller_id(0):#018x}"
        assert rows[1]["answered"] is False and "no such device" in rows[1]["error"]
        assert main(["ports", "--config", str(cfg), "--no-probe"]) == 0
        assert "(not probed)" in capsys.readouterr().out
    assert main(["udev-rules"]) == 0
    assert 'SUBSYSTEM=="hidraw", ATTRS{idVendor}=="1209"' in capsys.readouterr().out


def test_bitbox_emulate_as_a_subprocess_prints_its_ports_and_obeys_commands():
    proc = subprocess.Popen([sys.executable, "-m", "bitbox.cli", "emulate", "--controllers", "2",
                             "--faults", "1:drop=0.0"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        lines = [json.loads(proc.stdout.readline()) for _ in range(2)]
        assert [l["index"] for l in lines] == [0, 1]
        assert all(Path(l["port"]).exists() for l in lines)
        with Hub(config=CFG) as hub:
            for l in lines:
                hub.add_url(l["port"])
            seen = []
            assert wait_for(lambda: seen.extend(hub.poll()) or len(events_of(seen, "Connected")) >= 2, 10)
            assert {e.info.controller_id for e in events_of(seen, "Connected")} == {l["controller"] for l in lines}
            proc.stdin.write("1 right=3 locked=1\n")
            proc.stdin.flush()
            got = hub.poll_until(lambda e: isinstance(e, WheelsChanged) and e.locked, 10)
            change = events_of(got, "WheelsChanged")[-1]
            assert change.controller_id == lines[1]["controller"] and change.right == 3
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_hub_from_config_scans_globbed_ports_and_adds_simulated_controllers(tmp_path):
    with Emulator(2, link_dir=tmp_path / "links") as emu:
        cfg = tmp_path / "controllers.yaml"
        cfg.write_text(f"usb: []\nports: ['{tmp_path}/links/8bitbox-*', 'sim://7']\nsimulated: 1\n"
                       f"controllers: [{{id: {emu.controllers[1].controller_id}, seat: 6, colour: '#102030'}}]\n")
        hub = Hub.from_config(str(cfg))
        with hub:
            got = []
            assert wait_for(lambda: got.extend(hub.poll()) or len(events_of(got, "Connected")) == 4, 10)
            seats = {e.info.controller_id: e.seat for e in events_of(got, "Connected")}
            assert {e.info.port for e in events_of(got, "Connected")} >= {"sim://7", str(emu.link(0))}
            assert seats[emu.controllers[1].controller_id] == 5
            assert len(seats) == 4 and sorted(seats.values()) == [0, 1, 2, 5]  # pinned, then the lowest free
            assert wait_for(lambda: emu.controllers[1].lights[3] == (0x10, 0x20, 0x30))
            assert hub.scan() == []                          # nothing new: nothing reopened twice
            emu.disconnect(0, seconds=0.2)                   # the glob's path comes back by itself
            assert [type(e).__name__ for e in hub.poll_until(is_("Back"), 8)
                    if not isinstance(e, WheelsChanged)] == ["Lost", "Back"]
