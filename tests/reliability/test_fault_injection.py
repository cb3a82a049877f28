"""Fault injection with the emulator's fault options: a whole 6-player game over emulated
controllers (another process, pseudo-terminals) with bit errors on 1 % of bytes, dropped and
duplicated frames, 110 random disconnects and controller resets mid-turn ends exactly as the
fault-free game; no wheel state is ever accepted that a firmware did not send. Then the
misbehaving devices: contained, named in the log, and the others play on."""
from __future__ import annotations

import sys

import pytest

if not sys.platform.startswith("linux"):
    pytest.skip("pseudo-terminals, SIGKILL and the emulator in its own process: Linux", allow_module_level=True)

from bitbox_tools import reliability as R  # noqa: E402

from .conftest import assert_rows  # noqa: E402

C = R.TEST_COUNTS


@pytest.mark.heavy
def test_a_whole_game_survives_every_line_fault_and_ends_as_the_fault_free_one(tmp_path):
    rows = R.campaign_faults(tmp_path, disconnects=C["fault_disconnects"], resets=C["fault_resets"], seed=7,
                             games=C["fault_games"])
    assert_rows(rows)
    run = rows[0].details["runs"][0]
    assert run["disconnects"] >= C["fault_disconnects"] and run["lost"] >= 100 and run["back"] >= 100
    assert len(run["resets"]) >= C["fault_resets"] and all(stage == "programming" for _, stage, _ in run["resets"])
    assert run["unverified"] == 0 and run["verified"] > 100
    emulator = run["emulator"]
    assert sum(e["bits_flipped"] for e in emulator) > 0
    assert sum(e["frames_dropped"] for e in emulator) > 0
    assert sum(e["frames_duplicated"] for e in emulator) > 0
    assert run["bad_frames"] > 0                      # the corrupted frames reached the hub, and were refused


@pytest.mark.heavy
def test_rogue_devices_are_contained_and_named_and_the_others_play_on(tmp_path):
    rows = R.campaign_rogues(tmp_path, seed=11, speed=C["rogue_speed"])
    assert_rows(rows)
    assert {r.fault.split(": ")[1] for r in rows} == set(R.ROGUES)


def test_a_clone_cannot_take_the_seat_of_a_player_whose_controller_is_only_silent():
    from bitbox.controllers import ControllersConfig
    from bitbox.hub import Hub

    hub = Hub(config=ControllersConfig())
    a, b = hub.add_sim(2, ids=[0x77, 0x77])
    with hub:
        got = hub.poll_until(lambda e: type(e).__name__ == "Rejected", 10)
        port = next(e.info.port for e in got if type(e).__name__ == "Connected")
        real, clone = (a, b) if a.port == port else (b, a)
        real.paused = True                                   # a missed heartbeat: lost, still plugged in
        got = hub.poll_until(lambda e: type(e).__name__ == "Lost", 10)
        got += hub.poll_until(lambda e: False, 1.0)         # (the clone would be asked at once)
        assert [type(e).__name__ for e in got if type(e).__name__ != "WheelsChanged"] == ["Lost"]
        real.paused = False
        got = hub.poll_until(lambda e: type(e).__name__ == "Back", 10)
        assert [(type(e).__name__, e.port) for e in got if type(e).__name__ == "Back"] == [("Back", real.port)]
        real.unplug()                                        # gone for good: the twin may take over
        got = hub.poll_until(lambda e: type(e).__name__ == "Back", 10)
        assert [e.port for e in got if type(e).__name__ == "Back"] == [clone.port]


def test_hostile_controllers_at_a_table_are_refused_lost_rate_limited_or_unreadable():
    rows = R.controller_rows()
    assert_rows(rows)
    assert len(rows) == 4 and "controllers" in R.CAMPAIGNS
