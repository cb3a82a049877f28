"""Simulations on Ray's pool give the local run's records, game for game: on a local Ray
instance (2 CPUs), through the harness, Last One Alive's runner and the three real commands
(bitbox, outspeed, lastonealive simulate) pointed at it with --ray ADDRESS; the instance leaves no process behind. Without Ray, --ray says in one line
how to install it."""
from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time

import pytest

ray = pytest.importorskip("ray", reason="the cluster extra is installed by ./dev test")

# One Ray instance at a time on this machine (its ports, ~/.ray/auth_token): under pytest-xdist
# (`./dev test`) every test of the local instance (marked ON_RAY) runs on the same worker, one after
# the other; the tests that start no instance run anywhere.
ON_RAY = pytest.mark.xdist_group("ray")

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


@ON_RAY
def test_records_on_ray_are_the_local_records(local_ray):
    for run in (Run("lastonealive", 12, 4, ("random",), seed=5),
                Run("outspeed", 12, 3, ("random", "greedy"), seed=2)):
        local = list(records(run, workers=1))
        seen = []
        on_ray = list(records(run, ray="", on_start=seen.append))
        assert on_ray == local
        assert seen == [2]                           # the pool used the instance's 2 CPUs


@ON_RAY
def test_last_one_alive_records_on_ray_are_the_local_records(local_ray):
    from lastonealive.sim.runner import SimConfig, run_games
    config = SimConfig(games=12, players=3, bots=("random", "careful"), seed=4, variants=("survivors",))
    local = list(run_games(config, workers=1))
    seen: list[int] = []
    on_ray = list(run_games(config, ray="", on_start=seen.append))
    assert on_ray == local
    assert [r["index"] for r in on_ray] == list(range(12))
    assert seen == [2]


@ON_RAY
def test_the_commands_pointed_at_the_instance_report_as_a_local_run(local_ray, tmp_path):
    """The same report on Ray as on 1 worker; and bitbox simulate's results.json (Last One
    Alive's own run: the same as `lastonealive simulate`'s) byte for byte the same on 1 worker,
    on Ray and on 2 workers (it holds no timing: the "played in" line has it; the plain run's
    timing.json is checked in tests/games/test_bitbox_simulate_out.py)."""
    address = local_ray.address_info["gcs_address"]
    for k, command in enumerate((["-m", "bitbox.cli", "simulate", "lastonealive", "--games", "10", "--players", "3"],
                                 ["-m", "outspeed.cli", "simulate", "--games", "10", "--players", "3", "--bots",
                                  "random,greedy"],
                                 ["-m", "lastonealive.cli", "simulate", "--games", "10", "--players", "3"])):
        out = {where: tmp_path / f"{k}-{where}" for where in ("local", "ray", "two")}
        written = {where: ["--out", str(path)] if k == 0 else [] for where, path in out.items()}  # charts cost seconds
        local = subprocess.run([sys.executable, *command, "--quiet", *written["local"]], capture_output=True,
                               text=True, timeout=120)
        remote = subprocess.run([sys.executable, *command, "--quiet", "--ray", address, *written["ray"]],
                                capture_output=True, text=True, timeout=300, env=ENV)
        assert local.returncode == 0 and remote.returncode == 0, remote.stderr[-2000:]
        report = [line for line in local.stdout.splitlines() if not line.startswith(("played in", "charts and data"))]
        assert [line for line in remote.stdout.splitlines()
                if not line.startswith(("played in", "charts and data"))] == report
        assert "on 2 workers" in remote.stdout
        if k == 0:
            results = (out["local"] / "results.json").read_bytes()
            assert (out["ray"] / "results.json").read_bytes() == results
            two = subprocess.run([sys.executable, *command, "--quiet", "--workers", "2", "--out", str(out["two"])],
                                 capture_output=True, text=True, timeout=120)
            assert two.returncode == 0 and (out["two"] / "results.json").read_bytes() == results
            assert "on 2 workers" in two.stdout
            assert json.loads(results)["run"]["command"] == "lastonealive simulate"     # the game's own run


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


SIMULATE = [["-m", "bitbox.cli", "simulate", "lastonealive", "--games", "8", "--players", "3"],
            ["-m", "outspeed.cli", "simulate", "--games", "8", "--players", "3"],
            ["-m", "lastonealive.cli", "simulate", "--games", "8", "--players", "3"]]


@pytest.mark.parametrize("command", SIMULATE)
def test_workers_with_ray_is_refused_in_one_line(command):
    got = subprocess.run([sys.executable, *command, "--ray", "127.0.0.1:1", "--workers", "2"], capture_output=True,
                         text=True, timeout=60)
    assert got.returncode == 2 and got.stdout == "" and got.stderr.count("\n") == 1
    assert "--workers is not used with --ray" in got.stderr


def test_a_peer_that_accepts_but_never_answers_is_one_line():
    """A listening socket that never answers (not a Ray cluster): refused within the timeout,
    where Ray itself would wait and retry."""
    import socket
    from bitbox.simulation.cluster import ClusterError, check_reachable
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        t0 = time.monotonic()
        with pytest.raises(ClusterError, match="accepts connections but said nothing") as err:
            check_reachable(address, timeout=0.5)
        assert time.monotonic() - t0 < 5 and "\n" not in str(err.value)
    with socket.socket() as closed:                  # a closed port: refused at once
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with pytest.raises(ClusterError, match="no Ray cluster answers there"):
        check_reachable(f"127.0.0.1:{port}", timeout=0.5)


def test_ray_alone_starts_a_private_instance(monkeypatch):
    """--ray without an address starts an instance of its own (address "local"), even when
    another Ray instance runs on the machine, and stops it afterwards."""
    from bitbox.simulation import cluster
    calls = []
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kw: calls.append(("init", kw)))
    monkeypatch.setattr(ray, "shutdown", lambda: calls.append(("shutdown", {})))
    with cluster.connected(None):
        pass
    assert calls[0][0] == "init" and calls[0][1]["address"] == "local" and calls[1][0] == "shutdown"


def test_an_authentication_failure_says_so_and_rays_lines_stay_off_the_terminal(monkeypatch, capfd, caplog):
    """A cluster that asks for a token: one line saying so and what to set; what Ray's core
    writes to the terminal's stderr while it tries goes to the log (-v, --log-file) instead.
    (Against a real token-protected instance the same line comes after Ray's ~20 s of retries.)"""
    from bitbox.simulation import cluster

    def refused_init(**kw):
        os.write(2, b"[W gcs_client.cc:210] Failed to get cluster ID from GCS server: Unauthenticated: "
                    b"RPC error: InvalidAuthToken: Authentication token is missing or incorrect\n")
        raise ConnectionError("Failed to connect to Ray cluster")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", refused_init)
    monkeypatch.setattr(cluster, "check_reachable", lambda *a, **k: None)
    caplog.set_level(logging.DEBUG, logger="bitbox.simulation.cluster")
    with pytest.raises(cluster.ClusterError) as err:
        with cluster.connected("127.0.0.1:6379"):
            pass
    assert str(err.value) == f"--ray: cannot join the Ray cluster at 127.0.0.1:6379: {cluster.AUTH_HINT}"
    assert "RAY_AUTH_MODE=token" in str(err.value)
    assert capfd.readouterr().err == ""                      # nothing of Ray's on the terminal
    assert any("InvalidAuthToken" in r.getMessage() for r in caplog.records)
