"""The hub with simulated controllers (the reference firmware behind in-memory cables)."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest

import firmware_protocol as fp
from bitbox.controllers import ControllersConfig, Pin
from bitbox.events import WheelsChanged
from bitbox.hub import Hub
from bitbox.sim import sim_controller_id
from bitbox.transports.memory import BytePipe, PipeTransport

from .conftest import assert_not_delayed, events_of, wait_for

CFG = ControllersConfig()            # no pins, default colours: independent of the shipped file


def is_(kind):
    return lambda e: type(e).__name__ == kind


@pytest.fixture
def hub():
    h = Hub(config=CFG)
    yield h
    h.close()


def connect(hub, n, **kw):
    sims = hub.add_sim(n, **kw)
    hub.start()
    seen = []
    assert wait_for(lambda: seen.extend(hub.poll()) or len(events_of(seen, "WheelsChanged")) >= n, 10)
    return sims, seen


def collect(hub, done, timeout=10.0):
    """Poll until ``done(events so far)`` (bounded), then a little longer, for anything extra."""
    got = []
    assert wait_for(lambda: got.extend(hub.poll()) or done(got), timeout), got
    return got + hub.poll_until(lambda e: False, 0.2)


def test_every_sim_connects_to_its_own_seat_with_its_handshake_info(hub):
    sims, seen = connect(hub, 4)
    connected = events_of(seen, "Connected")
    assert sorted(e.seat for e in connected) == [0, 1, 2, 3]
    for e in connected:
        assert e.info.controller_id == sim_controller_id(int(e.info.port.removeprefix("sim://")))
        assert e.info.protocol == fp.PROTOCOL_VERSION and e.info.positions == (16, 16, 16)
        assert e.info.has_leds and e.info.has_lock and e.info.firmware == "1.0.0"
    # each Connected comes before that seat's first WheelsChanged (its initial state)
    for seat in range(4):
        kinds = [type(e).__name__ for e in seen if getattr(e, "seat", None) == seat]
        assert kinds[0] == "Connected" and kinds[1] == "WheelsChanged"
    assert [s.connected for s in hub.seats()] == [True] * 4
    assert {s.port for s in hub.seats()} == {f"sim://{i}" for i in range(4)}
    assert all(sim.running for sim in sims)


def test_wheel_changes_arrive_in_order_with_the_right_seats(hub):
    sims, seen = connect(hub, 3)
    seat_of = {e.info.controller_id: e.seat for e in events_of(seen, "Connected")}
    plan = [(0, dict(right=2)), (1, dict(left=5, locked=True)), (2, dict(centre=3)), (0, dict(right=3)),
            (1, dict(locked=False)), (0, dict(left=1, centre=2)), (2, dict(right=1, locked=True))]
    got = []
    for k, (index, change) in enumerate(plan):
        sims[index].set(**change)                    # the frame is on the cable when set returns
        # the next change once this one is out (not after a time: on a busy machine a reader
        # thread may run late, and the order across controllers is then the order they came in)
        assert wait_for(lambda k=k: got.extend(hub.poll()) or len(events_of(got, "WheelsChanged")) > k, 10)
    got += hub.poll_until(lambda e: False, 0.2)
    changes = events_of(got, "WheelsChanged")
    # each seat's changes, in order, with the right seat
    by_seat = {seat_of[s.controller_id]: [] for s in sims}
    for e in changes:
        by_seat[e.seat].append((e.left, e.centre, e.right, e.locked))
    assert by_seat[seat_of[sims[0].controller_id]] == [(0, 0, 2, False), (0, 0, 3, False), (1, 2, 3, False)]
    assert by_seat[seat_of[sims[1].controller_id]] == [(5, 0, 0, True), (5, 0, 0, False)]
    assert by_seat[seat_of[sims[2].controller_id]] == [(0, 3, 0, False), (0, 3, 1, True)]
    # one stream, in the order they were made, stamped in arrival order
    assert [e.seat for e in changes] == [seat_of[sims[i].controller_id] for i, _ in plan]
    assert [e.t for e in changes] == sorted(e.t for e in changes)
    assert hub.seats()[seat_of[sims[0].controller_id]].wheels == (1, 2, 3)


def test_commands_reach_the_right_controller(hub):
    sims, seen = connect(hub, 3)
    seat_of = {e.info.controller_id: e.seat for e in events_of(seen, "Connected")}
    a, b, c = (seat_of[s.controller_id] for s in sims)
    assert wait_for(lambda: sims[a].lights[3] is not None)            # AssignSeat's colour is shown
    assert sims[0].seat == a and sims[1].seat == b
    assert hub.set_lights(a, True, False, True, colour=(1, 2, 3))
    assert hub.identify(b, ms=500)
    assert hub.assign_seat(c, colour=(9, 8, 7))
    assert wait_for(lambda: sims[0].lights == (True, False, True, (1, 2, 3)))
    assert wait_for(lambda: sims[1].identifying)
    assert wait_for(lambda: sims[2].lights[3] == (9, 8, 7))
    assert not sims[0].identifying and not sims[2].identifying
    assert sims[1].lights[:3] in ((True, True, True), (False, False, False))   # blinking
    assert wait_for(lambda: not sims[1].identifying, 1.0)
    with pytest.raises(KeyError, match="no controller has seat 9"):
        hub.set_lights(9, True, True, True)


def test_unplug_and_replug_keeps_the_seat_its_state_and_its_lights(hub):
    sims, seen = connect(hub, 3)
    sim = sims[1]
    seat = next(e.seat for e in events_of(seen, "Connected") if e.info.controller_id == sim.controller_id)
    sim.set(left=4, right=2, locked=True)
    hub.set_lights(seat, False, True, False)
    assert wait_for(lambda: sim.lights[:3] == (False, True, False))
    hub.poll()
    sim.unplug()
    (lost,) = events_of(hub.poll_until(is_("Lost"), 2), "Lost")
    assert (lost.seat, lost.controller_id, lost.reason) == (seat, sim.controller_id, "unplugged")
    status = hub.seats()[seat]
    assert not status.connected and status.wheels == (4, 0, 2) and status.locked
    assert not hub.set_lights(seat, True, True, True)          # kept for later, not sent now
    sim.replug()
    got = hub.poll_until(is_("Back"), 2)
    (back,) = events_of(got, "Back")
    assert (back.seat, back.controller_id, back.port) == (seat, sim.controller_id, sim.port)
    assert not events_of(got, "Connected")
    assert wait_for(lambda: sim.lights[:3] == (True, True, True))   # the lights come back too
    assert hub.seats()[seat].connected
    assert not events_of(hub.poll_until(lambda e: False, 0.2), "WheelsChanged")   # unchanged state


def test_a_controller_reset_keeps_its_seat_without_a_loss(hub):
    sims, seen = connect(hub, 2)
    seat = next(e.seat for e in events_of(seen, "Connected") if e.info.controller_id == sims[0].controller_id)
    hub.set_lights(seat, True, False, False)
    assert wait_for(lambda: sims[0].lights[0])
    sims[0].reset()                                  # reboots: Hello, Welcome, seat and lights again
    assert wait_for(lambda: sims[0].running and sims[0].lights[0] and sims[0].seat == seat)
    assert not [e for e in hub.poll_until(lambda e: False, 0.3) if not isinstance(e, WheelsChanged)]


def test_heartbeat_timeout_declares_lost_and_frames_bring_it_back():
    with Hub(config=CFG, lost_after_ms=500) as hub:
        sims, seen = connect(hub, 2)
        seat = next(e.seat for e in events_of(seen, "Connected") if e.info.controller_id == sims[1].controller_id)
        sims[1].paused = True                        # hung: no heartbeat
        got = hub.poll_until(is_("Lost"), 10)
        (lost,) = events_of(got, "Lost")
        assert lost.reason == "heartbeat timeout" and lost.controller_id == sims[1].controller_id
        # not before 500 ms without a frame (measured on the hub's clock, from its last frame:
        # however late this thread runs), and noticed while polling (within the bound above)
        before = time.monotonic()                    # (at most the hub's "now" of links(): the
        (link,) = [l for l in hub.links() if l.controller_id == sims[1].controller_id]
        assert lost.t - (before - link.last_frame_age) >= 0.5      # last frame no later than this)
        assert [s.connected for s in hub.seats()] == [s.seat != seat for s in hub.seats()]
        sims[1].paused = False
        (back,) = events_of(hub.poll_until(is_("Back"), 10), "Back")
        assert back.seat == seat and back.port == "sim://1"


def test_two_controllers_with_one_id_the_second_is_refused_naming_both_ports(hub):
    twin = 0x1234
    sims = hub.add_sim(2, ids=[twin, twin])
    hub.start()
    got = collect(hub, lambda got: events_of(got, "Rejected") and events_of(got, "Connected"))
    (rejected,) = events_of(got, "Rejected")
    (connected,) = events_of(got, "Connected")
    refused, accepted = sorted(sims, key=lambda s: s.port != rejected.port)
    assert rejected.controller_id == twin
    assert accepted.port in rejected.reason and refused.port in rejected.reason
    assert "already connected" in rejected.reason
    assert connected.info.port == accepted.port
    assert wait_for(lambda: refused.firmware.mode == "refused")
    assert len(events_of(hub.poll_until(lambda e: False, 0.3), "Rejected")) == 0    # said once
    # when the first one goes, the twin takes its seat
    accepted.unplug()
    got = hub.poll_until(is_("Back"), 10)
    assert [type(e).__name__ for e in got] == ["Lost", "Back"]
    assert got[1].port == refused.port and got[1].seat == connected.seat


def test_a_major_protocol_mismatch_is_refused_naming_the_versions(hub):
    (old,) = hub.add_sim(1, protocol=(2, 3))
    hub.start()
    (rejected,) = events_of(hub.poll_until(is_("Rejected"), 10), "Rejected")
    assert "2.3" in rejected.reason and f"{fp.PROTOCOL_VERSION[0]}.{fp.PROTOCOL_VERSION[1]}" in rejected.reason
    assert rejected.port == "sim://0" and rejected.controller_id == old.controller_id
    assert hub.seats() == []
    assert wait_for(lambda: old.firmware.mode == "refused")
    assert hub.links()[0].state == "refused"


def test_garbage_and_bit_errors_are_counted_and_ignored(hub):
    sims, _ = connect(hub, 3, faults="0:garbage=2000,1:ber=2e-3")
    for k in range(1, 31):                                    # 30 changes each
        for sim in sims:
            sim.set(right=k % 4, centre=(k * 3) % 7)
        time.sleep(0.01)
    # until the clean one's 30 changes are in (bounded): a busy machine may run its reader late
    got = collect(hub, lambda got: len([e for e in events_of(got, "WheelsChanged")
                                        if e.controller_id == sims[2].controller_id]) >= 30)
    seats = {s.controller_id: s for s in hub.seats()}
    assert seats[sims[0].controller_id].bad_frames > 5
    assert seats[sims[1].controller_id].bad_frames > 0
    assert seats[sims[2].controller_id].bad_frames == 0
    assert all(s.connected for s in seats.values())
    assert not events_of(got, "Lost") and not events_of(got, "Rejected")
    clean = [e for e in events_of(got, "WheelsChanged") if e.controller_id == sims[2].controller_id]
    assert len(clean) == 30                                   # the clean one lost nothing
    # the noisy ones end in the right state: a later heartbeat repairs a lost change
    for sim in sims:
        assert wait_for(lambda sim=sim: seats_of(hub)[sim.controller_id] == (0, 6, 2), 10)


def seats_of(hub):
    return {s.controller_id: s.wheels for s in hub.seats()}


def test_a_babbler_does_not_delay_the_others(hub):
    sims, _ = connect(hub, 4)

    def delays(start):
        out = []
        for k in range(start, start + 8):
            for sim in sims[1:]:
                before = time.monotonic()
                sim.set(right=k % 3 + 1)
                got = hub.poll_until(lambda e, sim=sim: isinstance(e, WheelsChanged) and e.controller_id == sim.controller_id, 1)
                out += [e.t - before for e in got if isinstance(e, WheelsChanged) and e.controller_id == sim.controller_id]
        assert len(out) == 24                    # nothing lost
        return out

    sims[0].babble_rate = 4_000_000
    control, babbled = [], []
    for r in range(4):                           # alternate, so that a machine busy with other
        sims[0].babble(r % 2 == 1)               # work hits both alike
        time.sleep(0.1)
        (babbled if r % 2 else control).extend(delays(r * 15))
    sims[0].babble()
    time.sleep(0.1)
    assert_not_delayed(babbled, control)         # typically all under 2 ms either way
    babbler = next(s for s in hub.seats() if s.controller_id == sims[0].controller_id)
    assert babbler.bad_frames > 100 and all(s.connected for s in hub.seats())


def test_pinned_controllers_get_their_seat_and_colour():
    cfg = ControllersConfig(pins=(Pin(sim_controller_id(1), 2, (10, 20, 30)),))
    with Hub(config=cfg) as hub:
        sims = hub.add_sim(3)
        got = collect(hub, lambda got: len(events_of(got, "Connected")) == 3)
        seats = {e.info.controller_id: e.seat for e in events_of(got, "Connected")}
        assert seats[sims[1].controller_id] == 2                         # pinned
        assert {seats[sims[0].controller_id], seats[sims[2].controller_id]} == {0, 1}   # the lowest free
        assert wait_for(lambda: sims[1].lights[3] == (10, 20, 30))
        assert [s.seat for s in hub.seats()] == [0, 1, 2]


def test_a_pinned_seat_is_listed_before_its_controller_comes():
    cfg = ControllersConfig(pins=(Pin(0xAA, 4),))
    with Hub(config=cfg) as hub:
        (status,) = hub.seats()
        assert (status.seat, status.controller_id, status.connected, status.port) == (4, 0xAA, False, None)
        hub.add_sim(1, ids=[0xAA])
        (connected,) = events_of(hub.poll_until(is_("Connected"), 10), "Connected")
        assert connected.seat == 4                    # first time: Connected, not Back


def test_a_state_outside_the_controllers_own_wheels_counts_as_bad(hub):
    to_host, to_controller = BytePipe(), BytePipe()
    hub.add_transport(PipeTransport("liar://", to_host, to_controller))
    hub.start()
    to_host.write(fp.encode(fp.Hello(1, 0, 0x77, (1, 0, 0), (4, 4, 4), 7)))
    hub.poll_until(is_("Connected"), 10)
    to_host.write(fp.encode(fp.State(9, 0, 0, False, 1)) + fp.encode(fp.State(3, 0, 0, False, 2)))
    (change,) = events_of(hub.poll_until(is_("WheelsChanged"), 10), "WheelsChanged")
    assert change.left == 3 and change.seq == 2
    assert hub.seats()[0].bad_frames == 1
    written = fp.Decoder().feed(to_controller.read(0))
    assert written[0] == fp.HostHello() or fp.Welcome(*fp.PROTOCOL_VERSION, True, "") in written
    assert fp.AssignSeat(1, CFG.colour_for(0)) in written


def test_poll_never_blocks_longer_than_its_timeout(hub):
    hub.start()
    for timeout in (0.0, 0.05, 0.2):
        # the best of five: a machine busy with other work may run this thread late once
        spent = []
        for _ in range(5):
            started = time.monotonic()
            assert hub.poll(timeout=timeout) == []
            spent.append(time.monotonic() - started)
        assert min(spent) < timeout + 0.05


def test_events_are_stamped_with_the_hubs_clock():
    ticks = iter(range(1000, 100000))
    with Hub(config=CFG, clock=lambda: float(next(ticks))) as hub:
        hub.add_sim(1)
        (connected,) = events_of(hub.poll_until(is_("Connected"), 10), "Connected")
        assert connected.t >= 1000


def test_the_switch_interval_is_lowered_while_running_and_restored():
    before = sys.getswitchinterval()
    with Hub(config=CFG, switch_interval=0.0002):
        assert sys.getswitchinterval() == pytest.approx(0.0002)
    assert sys.getswitchinterval() == before


def test_add_url_sim_and_context_manager_close_everything():
    with Hub(config=CFG) as hub:
        assert hub.add_url("sim://") == "sim://0"
        assert hub.add_url("sim://5") == "sim://5"
        assert len(events_of(collect(hub, lambda got: len(events_of(got, "Connected")) >= 2), "Connected")) == 2
        sims = list(hub.sims)
    assert all(not s.plugged for s in sims)
    assert hub.poll() == []


def test_bitbox_imports_nothing_of_the_game():
    code = ("import sys, bitbox.hub, bitbox.sim, bitbox.wheels, bitbox.controllers, bitbox.discovery, "
            "bitbox.cli, bitbox.transports.hid, bitbox.transports.serial\n"
            "bad = [m for m in sys.modules if m == 'outspeed' or m.startswith('outspeed.')]\n"
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_simulated_controller_plays_a_script(hub):
    from bitbox.sim import parse_script
    sims, _ = connect(hub, 2)
    steps = parse_script([{"at": 0.0, "controller": 0, "right": 3}, {"at": 0.05, "locked": True},
                          {"at": 0.1, "controller": 1, "centre": 4},
                          {"at": 0.1, "controller": 0, "fault": "garbage", "bytes": 20}], "test")
    for i, sim in enumerate(sims):
        sim.play(steps, index=i)                      # blocks for the script's length
    assert wait_for(lambda: {s.controller_id: (s.wheels, s.locked) for s in hub.seats()} == {
        sims[0].controller_id: ((0, 0, 3), True), sims[1].controller_id: ((0, 4, 0), True)})
    assert wait_for(lambda: sum(s.bad_frames for s in hub.seats()) == 1)
