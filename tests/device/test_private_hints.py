"""Protocol 1.1 through the hub: a private Hint and a private ChoiceRefused reach the acting
controller only, over real pseudo-terminals (the emulator) and in-memory cables (sims); a 1.0
controller keeps working with this 1.1 host and never receives a 1.1 message."""
from __future__ import annotations

import time

import firmware_protocol as fp
from bitbox.controllers import ControllersConfig
from bitbox.hub import Hub
from bitbox_tools.emulate import Emulator

CFG = ControllersConfig()


def wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()


class Spy:
    """Every host -> controller message one virtual controller reads from its line."""

    def __init__(self, vc) -> None:
        self.decoder = fp.Decoder()
        self.seen: list[fp.Message] = []
        read = vc._line_read

        def spy() -> bytes:
            data = read() if read is not None else b""
            if data:
                self.seen.extend(self.decoder.feed(data))
            return data

        vc._line_read = spy

    def types(self) -> set[str]:
        return {type(m).__name__ for m in self.seen}


def seated(hub, emu) -> dict[int, int]:
    """Open every emulated port; controller index -> seat once all are connected."""
    for url in emu.ports:
        hub.add_url(url)
    hub.start()
    seats: dict[int, int] = {}
    ids = {vc.controller_id: i for i, vc in enumerate(emu.controllers)}

    def poll():
        for e in hub.poll():
            if type(e).__name__ == "Connected":
                seats[ids[e.info.controller_id]] = e.seat
        return len(seats) == len(emu.controllers) and all(vc.running for vc in emu.controllers)

    assert wait_for(poll)
    return seats


def test_a_hint_over_a_pty_reaches_only_the_acting_controller():
    with Emulator(3) as emu, Hub(config=CFG) as hub:
        spies = [Spy(vc) for vc in emu.controllers]
        seats = seated(hub, emu)
        a, others = emu.controllers[1], [emu.controllers[0], emu.controllers[2]]
        assert hub.hint(seats[1], left=0b0000_0000_0110_0001)
        assert wait_for(lambda: a.stop_lights == (0b0110_0001, 0, 0))
        assert a.hint == (0b0110_0001, 0, 0)
        time.sleep(0.1)
        for vc, spy in zip(others, (spies[0], spies[2])):
            assert vc.hint == (0, 0, 0) and vc.stop_lights == (0, 0, 0)
            assert not spy.types() & {"Hint", "ChoiceRefused"}
        assert [m for m in spies[1].seen if isinstance(m, fp.Hint)] == [fp.Hint(0b0110_0001, 0, 0)]
        # the emulator's status shows it for that controller only
        status = emu.status()
        assert status[1]["stop_lights"] == [0b0110_0001, 0, 0] and status[0]["stop_lights"] == [0, 0, 0]
        assert hub.hint(seats[1])                                  # cleared
        assert wait_for(lambda: a.stop_lights == (0, 0, 0))


def test_a_refused_choice_over_a_pty_is_told_to_that_controller_only():
    with Emulator(2) as emu, Hub(config=CFG) as hub:
        spies = [Spy(vc) for vc in emu.controllers]
        seats = seated(hub, emu)
        assert hub.refuse_choice(seats[0], ms=800)
        assert wait_for(lambda: emu.controllers[0].refusing)
        assert emu.controllers[0].lights[3] in ((255, 0, 0), None)       # red blink, never white
        assert not emu.controllers[0].identifying
        assert not emu.controllers[1].refusing and not emu.controllers[1].identifying
        assert [m for m in spies[0].seen if isinstance(m, fp.ChoiceRefused)] == [fp.ChoiceRefused(1, 800)]
        assert not spies[1].types() & {"Hint", "ChoiceRefused", "Identify"}


def test_a_1_0_controller_works_with_this_1_1_host_and_gets_no_1_1_message():
    with Emulator(2, protocol=(1, 0)) as emu, Hub(config=CFG) as hub:
        spies = [Spy(vc) for vc in emu.controllers]
        seats = seated(hub, emu)
        assert hub.info(seats[0]).protocol == (1, 0)
        welcomes = [m for m in spies[0].seen if isinstance(m, fp.Welcome)]
        assert welcomes and all(w.accepted and w.protocol_major == 1 for w in welcomes)
        emu.set(0, left=3, right=2)
        assert wait_for(lambda: hub.seats()[seats[0]].wheels == (3, 0, 2))    # plays as before
        assert hub.set_lights(seats[0], True, False, False, colour=(0, 0, 255))
        assert not hub.hint(seats[0], left=0b111)                 # not sent: 1.0 has no Hint
        assert hub.refuse_choice(seats[0], ms=600)                # sent as an Identify instead
        assert wait_for(lambda: emu.controllers[0].identifying)
        assert wait_for(lambda: emu.controllers[0].lights == (True, False, False, (0, 0, 255)), 2.0)
        time.sleep(0.05)
        for spy in spies:
            assert not spy.types() & {"Hint", "ChoiceRefused"}
        assert emu.controllers[0].hint == (0, 0, 0)
        assert [type(e).__name__ for e in hub.poll() if type(e).__name__ in ("Lost", "Rejected")] == []


def test_the_hint_comes_back_with_a_replugged_controller_and_only_to_1_1():
    with Hub(config=CFG) as hub:
        new, old = hub.add_sim(1)[0], hub.add_sim(1, protocol=(1, 0))[0]
        seen = []
        assert wait_for(lambda: seen.extend(hub.poll()) or len([e for e in seen if type(e).__name__ == "Connected"]) == 2)
        seat = {e.info.controller_id: e.seat for e in seen if type(e).__name__ == "Connected"}
        assert hub.hint(seat[new.controller_id], left=0b1001)
        assert not hub.hint(seat[old.controller_id], left=0b1001)
        assert wait_for(lambda: new.stop_lights == (0b1001, 0, 0))
        new.unplug()
        assert wait_for(lambda: any(type(e).__name__ == "Lost" for e in hub.poll()))
        new.replug()
        assert wait_for(lambda: new.running and new.stop_lights == (0b1001, 0, 0))
        assert old.hint == (0, 0, 0)


def test_show_reaches_a_1_2_controller_only_and_older_ones_are_told_nothing():
    """Protocol 1.2's Show (a code to show, not a choice) goes to a 1.2 controller alone; a 1.1
    and a 1.0 controller are sent nothing (``show`` returns False), keep working, and show no
    code: their hint stays what the host hinted, never the code."""
    with Hub(config=CFG) as hub:
        new = hub.add_sim(1)[0]
        v11 = hub.add_sim(1, protocol=(1, 1))[0]
        v10 = hub.add_sim(1, protocol=(1, 0))[0]
        seen = []
        assert wait_for(lambda: seen.extend(hub.poll()) or len([e for e in seen if type(e).__name__ == "Connected"]) == 3)
        seat = {e.info.controller_id: e.seat for e in seen if type(e).__name__ == "Connected"}
        assert hub.show(seat[new.controller_id], left=1 << 3)
        assert not hub.show(seat[v11.controller_id], left=1 << 3)
        assert not hub.show(seat[v10.controller_id], left=1 << 3)
        assert hub.hint(seat[v11.controller_id], left=0b110)
        assert wait_for(lambda: new.shown == (0b1000, 0, 0) and v11.hint == (0b110, 0, 0))
        time.sleep(0.05)
        assert v11.shown == (0, 0, 0) and v10.shown == (0, 0, 0) and v10.hint == (0, 0, 0)
        assert v11.firmware.unknown_messages == 0 and v10.firmware.unknown_messages == 0   # nothing newer was sent
        new.unplug()                                     # comes back with its code shown again
        assert wait_for(lambda: any(type(e).__name__ == "Lost" for e in hub.poll()))
        new.replug()
        assert wait_for(lambda: new.running and new.shown == (0b1000, 0, 0))
        assert hub.show(seat[new.controller_id])         # cleared
        assert wait_for(lambda: new.shown == (0, 0, 0))


def test_an_older_minor_controller_ignores_a_newer_message_as_unknown():
    """The simulated 1.1 firmware behaves as a real one would if a host sent it a Show anyway:
    ignored, counted as unknown (SPEC 10.2); a 1.0 one ignores Hint the same way."""
    with Hub(config=CFG) as hub:
        v11 = hub.add_sim(1, protocol=(1, 1))[0]
        v10 = hub.add_sim(1, protocol=(1, 0))[0]
        assert wait_for(lambda: v11.running and v10.running)
        v11.firmware._obey(fp.encode_raw(fp.Show(4, 0, 0))[:-4], 0)
        v10.firmware._obey(fp.encode_raw(fp.Hint(4, 0, 0))[:-4], 0)
        assert v11.shown == (0, 0, 0) and v11.firmware.unknown_messages == 1
        assert v10.hint == (0, 0, 0) and v10.firmware.unknown_messages == 1


def test_seat_numbers_one_rule_wire_and_log_count_from_one(caplog):
    """SPEC.md 6.9: the hub's index 0 is "seat 1" on the wire (AssignSeat) and in the log."""
    import logging
    with caplog.at_level(logging.INFO, logger="bitbox.hub"), Hub(config=CFG) as hub:
        sim = hub.add_sim(1)[0]
        seen = []
        assert wait_for(lambda: seen.extend(hub.poll()) or any(type(e).__name__ == "Connected" for e in seen))
        (event,) = [e for e in seen if type(e).__name__ == "Connected"]
        assert event.seat == 0
        assert wait_for(lambda: sim.firmware.seat == 1)                 # the wire value
        assert sim.seat == 0                                            # the sim's API index
    assert any(f"seat 1: controller {sim.controller_id:#018x} connected" in r.getMessage() for r in caplog.records)


def test_a_refusal_over_the_hubs_send_rate_comes_late_in_order_never_lost():
    """The hub sends a controller at most 50 frames a second (SPEC.md 8.5); a message over that
    waits for the next second instead of being dropped: a table that had just sent a burst of
    Hints still gets its ChoiceRefused to the controller (the 1.1 refusal campaign once lost
    two of about sixty this way, on a fast journal)."""
    from bitbox import hub as hub_module
    with Emulator(1) as emu, Hub(config=CFG) as hub:
        spy = Spy(emu.controllers[0])
        seats = seated(hub, emu)
        for k in range(hub_module._MAX_SENDS + 10):              # more than a second's budget at once
            hub.hint(seats[0], left=1 << (k % 16))
        hub.refuse_choice(seats[0], ms=700)
        got = lambda: [m for m in spy.seen if isinstance(m, fp.ChoiceRefused)]   # noqa: E731
        assert wait_for(lambda: (hub.poll(), got())[1], timeout=20.0), "the ChoiceRefused never arrived"
        assert got() == [fp.ChoiceRefused(1, 700)]
        hints = [m for m in spy.seen if isinstance(m, fp.Hint)]
        assert hints[-1] == fp.Hint(1 << ((hub_module._MAX_SENDS + 9) % 16), 0, 0)   # every Hint, the last last
        assert spy.seen.index(got()[0]) > spy.seen.index(hints[-1])                   # in the order sent
        assert emu.controllers[0].firmware.refusals == 1
