"""`outspeed simulate --workers 2` stopped by Ctrl-C (SIGINT to the terminal's process group)
or SIGTERM (to the main process): one line "interrupted", no traceback, no process left; and
--workers above the cores is capped with a warning. Real subprocesses and signals."""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from outspeed.sim.runner import usable_cores

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


def _lines(stream, q: queue.Queue) -> None:
    for line in stream:
        q.put(line)
    q.put(None)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the processes")
@pytest.mark.parametrize("sig,to_group,code,after", [
    (signal.SIGINT, True, 130, 0.0), (signal.SIGTERM, False, 143, 0.0), (signal.SIGTERM, True, 143, 0.0),
    # once the workers are between chunks: multiprocessing.Pool hung here in 1 run in 3
    # (a worker killed while holding the task queue's lock); the pool now shares no lock
    (signal.SIGTERM, True, 143, 0.15), (signal.SIGTERM, True, 143, 0.3), (signal.SIGINT, True, 130, 0.3)])
def test_interrupted_parallel_run_says_one_line_and_leaves_no_process(tmp_path, sig, to_group, code, after):
    proc = subprocess.Popen(OUTSPEED + ["simulate", "--games", "200000", "--workers", "2", "--bots", "random"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)          # its own group, as a terminal's job
    q: queue.Queue = queue.Queue()
    reader = threading.Thread(target=_lines, args=(proc.stderr, q), daemon=True)
    reader.start()
    err = [q.get(timeout=60)]                  # the first progress line: the workers are playing
    assert err[0].startswith("["), err
    time.sleep(after)
    (os.killpg if to_group else os.kill)(proc.pid, sig)
    out = proc.stdout.read()
    proc.wait(timeout=30)
    while (line := q.get(timeout=30)) is not None:
        err.append(line)
    text = "".join(err)
    assert proc.returncode == code, text
    assert "Traceback" not in text and "Error" not in text, text
    messages = [line.strip() for line in err if line.strip() and not line.startswith("[")]
    assert messages == ["outspeed simulate: interrupted"], text
    assert out == ""
    deadline = time.monotonic() + 10          # the workers end with the main process
    while _group_members(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _group_members(proc.pid) == []


def test_more_workers_than_cores_are_capped_with_a_warning(tmp_path):
    cores = usable_cores()
    r = subprocess.run(OUTSPEED + ["simulate", "--games", "6", "--workers", str(cores * 4 + 60), "--quiet"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip().splitlines() == [
        f"outspeed simulate: --workers {cores * 4 + 60} is more than the {cores} core{'s' if cores != 1 else ''} here: using {cores}"]
    assert f"on {cores} worker" in r.stdout


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the processes")
def test_bitbox_simulate_stops_on_sigterm_as_the_game_commands_do(tmp_path):
    """The console's command shares their handling (bitbox/simulation/cli.py): one line, 143."""
    proc = subprocess.Popen([sys.executable, "-m", "bitbox.cli", "simulate", "outspeed", "--games", "200000",
                             "--workers", "2"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    q: queue.Queue = queue.Queue()
    threading.Thread(target=_lines, args=(proc.stderr, q), daemon=True).start()
    err = [q.get(timeout=60)]
    assert err[0].startswith("["), err
    os.kill(proc.pid, signal.SIGTERM)
    out = proc.stdout.read()
    proc.wait(timeout=30)
    while (line := q.get(timeout=30)) is not None:
        err.append(line)
    text = "".join(err)
    assert proc.returncode == 143, text
    assert [line.strip() for line in err if line.strip() and not line.startswith("[")] == \
        ["bitbox simulate: interrupted"], text
    assert out == ""
    deadline = time.monotonic() + 10
    while _group_members(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _group_members(proc.pid) == []
