"""`outspeed simulate --workers 2` stopped by Ctrl-C (SIGINT to the terminal's process group)
or SIGTERM (to the main process): one line "interrupted", no traceback, no process left; and
--workers above the cores is capped with a warning. Real subprocesses and signals."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from outspeed.sim.runner import usable_cores
from tests.signalling import Lines, default_signals, end_group

OUTSPEED = [sys.executable, "-m", "outspeed.cli"]


def _group_members(pgid: int) -> list[int]:
    """Live (not zombie) processes of a process group, from /proc."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, group = fields[0], int(fields[2])
        if group == pgid and state != "Z":
            out.append(int(entry.name))
    return out


@pytest.fixture
def sigint_ignored():
    """The test process as a background job started by a script has it: SIGINT ignored,
    which every child inherits unless told otherwise."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def interrupted(command: list[str], tmp_path: Path, sig: int, to_group: bool, after: float = 0.0):
    """Start ``command`` (a long simulate on 2 workers) in its own process group with SIGINT
    and SIGTERM at their defaults, send ``sig`` once it plays, and return (its exit code, its
    stdout, its stderr lines, the members of its group left as soon as it has exited). Every
    wait is bounded; on any failure the group is killed."""
    proc = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,          # its own group, as a terminal's job
                            preexec_fn=default_signals)      # Ctrl-C reaches it however the suite was started
    try:
        out, err = Lines(proc.stdout), Lines(proc.stderr)
        first = err.next(timeout=120)              # the first progress line: the workers are playing
        assert first is not None and first.startswith("["), first
        time.sleep(after)
        (os.killpg if to_group else os.kill)(proc.pid, sig)
        proc.wait(timeout=60)
        left = _group_members(proc.pid)            # the command has exited: nothing of it may remain
        return proc.returncode, "".join(out.rest(timeout=30)), [first, *err.rest(timeout=30)], left
    finally:
        end_group(proc)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the processes")
@pytest.mark.parametrize("sig,to_group,code,after", [
    (signal.SIGINT, True, 130, 0.0), (signal.SIGTERM, False, 143, 0.0), (signal.SIGTERM, True, 143, 0.0),
    # once the workers are between chunks: multiprocessing.Pool hung here in 1 run in 3
    # (a worker killed while holding the task queue's lock); the pool now shares no lock
    (signal.SIGTERM, True, 143, 0.15), (signal.SIGTERM, True, 143, 0.3), (signal.SIGINT, True, 130, 0.3)])
def test_interrupted_parallel_run_says_one_line_and_leaves_no_process(tmp_path, sig, to_group, code, after):
    returncode, out, err, left = interrupted(
        OUTSPEED + ["simulate", "--games", "200000", "--workers", "2", "--bots", "random"], tmp_path, sig, to_group,
        after)
    text = "".join(err)
    assert returncode == code, text
    assert "Traceback" not in text and "Error" not in text, text
    messages = [line.strip() for line in err if line.strip() and not line.startswith("[")]
    assert messages == ["outspeed simulate: interrupted"], text
    assert out == ""
    assert left == []                          # every worker (and helper) reaped before it exited


def test_more_workers_than_cores_are_capped_with_a_warning(tmp_path):
    cores = usable_cores()
    r = subprocess.run(OUTSPEED + ["simulate", "--games", "6", "--workers", str(cores * 4 + 60), "--quiet"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip().splitlines() == [
        f"outspeed simulate: --workers {cores * 4 + 60} is more than the {cores} core{'s' if cores != 1 else ''} here: using {cores}"]
    assert f"on {cores} worker" in r.stdout


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the processes")
def test_ctrl_c_reaches_the_run_when_the_suite_was_started_with_sigint_ignored(tmp_path, sigint_ignored):
    """Issue 21, item 10: `./dev test &` from a script runs the suite with SIGINT ignored; the
    test's Ctrl-C must still stop the run (it used to go on for 200,000 games)."""
    assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    returncode, out, err, left = interrupted(
        OUTSPEED + ["simulate", "--games", "200000", "--workers", "2", "--bots", "random"], tmp_path,
        signal.SIGINT, True)
    assert returncode == 130 and out == "" and left == [], err
    assert [line.strip() for line in err if line.strip() and not line.startswith("[")] == \
        ["outspeed simulate: interrupted"]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the processes")
def test_bitbox_simulate_stops_on_sigterm_as_the_game_commands_do(tmp_path):
    """The console's command shares their handling (bitbox/simulation/cli.py): one line, 143."""
    returncode, out, err, left = interrupted(
        [sys.executable, "-m", "bitbox.cli", "simulate", "outspeed", "--games", "200000", "--workers", "2"],
        tmp_path, signal.SIGTERM, False)
    text = "".join(err)
    assert returncode == 143, text
    assert [line.strip() for line in err if line.strip() and not line.startswith("[")] == \
        ["bitbox simulate: interrupted"], text
    assert out == ""
    assert left == []
