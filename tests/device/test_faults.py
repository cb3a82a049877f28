"""The fault SPEC and the fault injector shared by simulated and emulated controllers."""
from __future__ import annotations

import pytest

import firmware_protocol as fp
from bitbox.faults import FaultInjector, FaultSpec, FaultSpecError, TimedFault, parse_faults


def test_parse_a_full_spec():
    specs = parse_faults("ber=1e-4, 2:babble, 3:disconnect@5+2, 1:reset@3s, 0:drop=0.1, garbage=200/s", 4)
    assert specs[0] == FaultSpec(garbage_rate=200, drop=0.1, ber=1e-4)
    assert specs[1] == FaultSpec(garbage_rate=200, ber=1e-4, events=(TimedFault("reset", 3.0),))
    assert specs[2].babble and specs[2].ber == 1e-4
    assert specs[3].events == (TimedFault("disconnect", 5.0, 2.0),)
    assert parse_faults("disconnect@1", 1)[0].events == (TimedFault("disconnect", 1.0, 1.0),)
    assert parse_faults("", 2) == [FaultSpec(), FaultSpec()]


@pytest.mark.parametrize("spec, message", [
    ("drop=2", "out of range 0..1"),
    ("ber=x", "'x' is not a number"),
    ("5:babble", "there is no controller 5"),
    ("explode", "unknown fault 'explode'"),
])
def test_spec_errors(spec, message):
    with pytest.raises(FaultSpecError, match=message):
        parse_faults(spec, 2)


def test_injector_drops_and_corrupts_at_about_the_rate():
    frame = fp.encode(fp.State(1, 2, 3, True, 7))
    inj = FaultInjector(FaultSpec(drop=0.25), seed=1)
    kept = sum(bool(inj.outgoing(frame)) for _ in range(4000))
    assert 2800 < kept < 3200 and inj.frames_dropped == 4000 - kept

    inj = FaultInjector(FaultSpec(ber=1e-3), seed=2)
    decoder = fp.Decoder()
    good = sum(len(decoder.feed(inj.outgoing(frame))) for _ in range(4000))
    bits = 4000 * len(frame) * 8
    assert 0.7 * bits * 1e-3 < inj.bits_flipped < 1.3 * bits * 1e-3
    assert decoder.bad_frames > 0 and good + decoder.bad_frames >= 4000 - inj.bits_flipped


def test_on_demand_garbage_and_drops():
    frame = fp.encode(fp.Pong(5))
    inj = FaultInjector(seed=3)
    assert inj.outgoing(frame) == frame
    inj.drop_next(2)
    assert inj.outgoing(frame) == b"" and inj.outgoing(frame) == b"" and inj.outgoing(frame) == frame
    inj.inject_garbage(100)
    out = inj.outgoing(frame)
    assert len(out) == 100 + 1 + len(frame) and out.endswith(b"\x00" + frame)   # burst, delimiter, frame
    inj = FaultInjector(FaultSpec(garbage_rate=1000), seed=4)
    assert len(inj.garbage(0.5)) == 500 + 1
