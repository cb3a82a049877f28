"""The two campaigns of issue 21 at a tiny size: `lastonealive play --headless --speed 0` killed
by SIGKILL at odd moments of a turn then resumed (`crash_loa`), and both games played on
protocol 1.1 controllers whose bots lock stops outside their Hint (`refusals`)."""
from __future__ import annotations

import sys

import pytest

if not sys.platform.startswith("linux"):
    pytest.skip("SIGKILL and subprocesses: Linux", allow_module_level=True)

from bitbox_tools import reliability as R  # noqa: E402

from .conftest import assert_rows  # noqa: E402

C = R.TEST_COUNTS


@pytest.mark.heavy
def test_last_one_alive_killed_mid_turn_resumes_to_the_same_end(tmp_path):
    rows = R.campaign_crash_loa(tmp_path, points=C["crash_loa_points"], seed=21, players=2)
    assert_rows(rows)
    kills = rows[0].details["kills"]
    assert len(kills) == C["crash_loa_points"]
    assert [k["moment"] for k in kills] == list(R.LOA_KILL_WHAT)[:len(kills)]     # setup, roll, reroll, ...
    assert all(k["hit"] and k["same_end"] and k["journal_ok"] for k in kills)


@pytest.mark.heavy
def test_a_kill_between_two_locks_of_one_answer_or_mid_shooting_loses_nothing(tmp_path):
    play = ["play", "--headless", "--speed", "0", "--players", "2", "--bots", "2:careful", "--seed", "21",
            "--size", "320x180"]
    ref = R.crash_reference(tmp_path / "ref", play, "lastonealive")
    points = dict(R.loa_crash_points(len(R.LOA_KILL_WHAT), 7, [r[:3] for r in ref["inputs"]], ref["duration"]))
    for moment in ("mark", "shot"):
        spec = points[moment]
        r = R._kill_and_resume(tmp_path / moment, spec, play, ref, "lastonealive")
        assert r.hit.startswith(spec.split(":")[0]), r               # it died where it was armed
        assert r.journal_ok and r.resumed and r.same_end, r
        assert 0 < r.inputs_at_kill < len(ref["inputs"])


@pytest.mark.heavy
def test_a_protocol_1_1_controllers_wrong_locks_are_refused_and_never_applied(tmp_path):
    rows = R.campaign_refusals(tmp_path, games=C["refusal_games"], seed=31)
    assert_rows(rows)
    assert {r.fault for r in rows} == {"A protocol 1.1 controller's wrong locks (Outspeed)",
                                       "A protocol 1.1 controller's wrong locks (Last One Alive)"}
    for r in rows:
        t = r.details["totals"]
        assert t["tries"] > 0 and t["refused"] + t["overtaken"] == t["tries"] and t["refused"] == t["seen_by_firmware"]
        assert t["applied"] == 0 and t["not_refused"] == 0 and t["identify_sent"] == 0
        assert all(g["ended"] and g["inputs"] for g in r.details["games"])
