"""Simulations on Ray's pool give the local run's records, game for game: on a local Ray
instance (2 CPUs), through the harness, Last One Alive's runner and the three real commands
(bitbox, outspeed, lastonealive simulate) pointed at it with --ray ADDRESS; the instance leaves no process behind. Without Ray, --ray says in one line
how to install it."""
from __future__ import annotations

import logging
import os
import subprocess
import sys
import time

import pytest

ray = pytest.importorskip("ray", reason="the cluster extra is installed by ./dev test")

# One Ray instance at a time on this machine (its ports, ~/.ray/auth_token): under pytest-xdist
# (`./dev test`) every test of this file runs on the same worker, one after the other.
pytestmark = pytest.mark.xdist_group("ray")

from bitbox.simulation.games import Run, records  # noqa: E402

# The test's instance uses token authentication (the default of a local instance from Ray 2.59):
# a client of it says so (the token is in ~/.ray/auth_token, where the instance saved it).
ENV = {**os.environ, "RAY_AUTH_MODE": "token"}


def _children(pid: int) -> set[int]:
    """Every live descendant of ``pid`` (zombies excluded)."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            parent[int(entry)] = int(fields[1])
    out: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        for child, par in parent.items():
            if par == p and child not in out:
                out.add(child)
                todo.append(child)
    return out


@pytest.fixture(scope="module")
def local_ray():
    before = _children(os.getpid())
    context = ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    started = _children(os.getpid()) - before
    assert started                                  # the instance's own processes
    try:
        yield context
    finally:
        ray.shutdown()
        alive = set()
        for _ in range(100):                        # wait for them to exit (not a timing check)
            alive = _children(os.getpid()) - before
            if not alive:
                break
            time.sleep(0.2)
        assert not alive, f"processes left by Ray: {sorted(alive)}"


def test_records_on_ray_are_the_local_records(local_ray):
    for run in (Run("lastonealive", 12, 4, ("random",), seed=5),
                Run("outspeed", 12, 3, ("random", "greedy"), seed=2)):
        local = list(records(run, workers=1))
        seen = []
        on_ray = list(records(run, ray="", on_start=seen.append))
        assert on_ray == local
        assert seen == [2]                           # the pool used the instance's 2 CPUs


def test_last_one_alive_records_on_ray_are_the_local_records(local_ray):
    from lastonealive.sim.runner import SimConfig, run_games
    config = SimConfig(games=12, players=3, bots=("random", "careful"), seed=4, variants=("survivors",))
    local = list(run_games(config, workers=1))
    seen: list[int] = []
    on_ray = list(run_games(config, ray="", on_start=seen.append))
    assert on_ray == local
    assert [r["index"] for r in on_ray] == list(range(12))
    assert seen == [2]


def test_the_commands_pointed_at_the_instance_report_as_a_local_run(local_ray):
    address = local_ray.address_info["gcs_address"]
    for command in (["-m", "bitbox.cli", "simulate", "lastonealive", "--games", "10", "--players", "3"],
                    ["-m", "outspeed.cli", "simulate", "--games", "10", "--players", "3", "--bots", "random,greedy"],
                    ["-m", "lastonealive.cli", "simulate", "--games", "10", "--players", "3"]):
        local = subprocess.run([sys.executable, *command, "--quiet"], capture_output=True, text=True, timeout=120)
        remote = subprocess.run([sys.executable, *command, "--quiet", "--ray", address], capture_output=True,
                                text=True, timeout=300, env=ENV)
        assert local.returncode == 0 and remote.returncode == 0, remote.stderr[-2000:]
        strip = [line for line in local.stdout.splitlines() if not line.startswith("played in")]
        assert [line for line in remote.stdout.splitlines() if not line.startswith("played in")] == strip
        assert "on 2 workers" in remote.stdout


@pytest.mark.parametrize("command", [["-m", "bitbox.cli", "simulate", "outspeed", "--games", "3"],
                                     ["-m", "outspeed.cli", "simulate", "--games", "3"],
                                     ["-m", "lastonealive.cli", "simulate", "--games", "3"]])
def test_ray_missing_or_unreachable_is_one_line(command):
    hide = "import sys, runpy; sys.modules['ray'] = None; sys.argv = ['x'] + sys.argv[1:]; " \
           f"runpy.run_module({command[1]!r}, run_name='__main__')"
    got = subprocess.run([sys.executable, "-c", hide, *command[2:], "--ray"], capture_output=True, text=True,
                         timeout=60)
    assert got.returncode == 2 and got.stdout == ""
    assert got.stderr.count("\n") == 1 and 'pip install ".[cluster]"' in got.stderr
    got = subprocess.run([sys.executable, *command, "--ray", "127.0.0.1:1"], capture_output=True, text=True,
                         timeout=60)
    assert got.returncode == 2 and got.stderr.count("\n") == 1 and "no Ray cluster answers" in got.stderr
