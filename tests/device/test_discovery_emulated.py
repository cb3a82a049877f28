"""One discovery path (docs/devices.md): `bitbox emulate` controllers are found without options,
like real ones, through the runtime folder (BITBOX_RUNTIME_DIR, set per test process by
tests/conftest.py); `bitbox ports` lists them with id and firmware; `bitbox identify ID`,
`bitbox monitor ID` and `--controller ID` find one by its id; one exit code per kind of
failure (bitbox.exitcodes). Every wait is bounded."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

if not sys.platform.startswith(("linux", "darwin")):
    pytest.skip("pseudo-terminals need a POSIX system", allow_module_level=True)

from bitbox import exitcodes
from bitbox.discovery import emulated_candidates, emulator_dir, find_candidates, resolve_port, runtime_dir
from bitbox.controllers import ControllersConfig
from bitbox_tools.emulate import Emulator

BITBOX = [sys.executable, "-m", "bitbox.cli"]


def _run(args, env, timeout=60):
    return subprocess.run(BITBOX + args, capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture
def runtime(tmp_path, monkeypatch):
    """A runtime folder of this test's own, in this process and its subprocesses."""
    folder = tmp_path / "runtime"
    monkeypatch.setenv("BITBOX_RUNTIME_DIR", str(folder))
    return {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def _start_emulator(env, n, id_base):
    proc = subprocess.Popen(BITBOX + ["emulate", "-n", str(n), "--id-base", id_base, "--seconds", "60"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    lines = [json.loads(proc.stdout.readline()) for _ in range(n)]
    deadline = time.monotonic() + 10
    folder = runtime_dir() / f"emulate-{proc.pid}"
    while len(list(folder.glob("8bitbox-*"))) < n and time.monotonic() < deadline:
        time.sleep(0.02)
    return proc, lines, folder


def _stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def test_two_emulators_are_listed_by_bitbox_ports_with_id_and_firmware_and_clean_up(runtime):
    a, lines_a, folder_a = _start_emulator(runtime, 1, "0x8b17000000000a00")
    b, lines_b, folder_b = _start_emulator(runtime, 1, "0x8b17000000000b00")
    try:
        assert sorted(c.source for c in emulated_candidates()) == ["emulated", "emulated"]
        cfg = ControllersConfig()
        assert {c.url for c in find_candidates(cfg) if c.source == "emulated"} == {
            str(folder_a / "8bitbox-0"), str(folder_b / "8bitbox-0")}
        r = _run(["ports", "--json", "--timeout", "2"], runtime)
        assert r.returncode == 0, r.stderr
        rows = [json.loads(line) for line in r.stdout.splitlines()]
        emulated = {row["controller"]: row for row in rows if row["source"] == "emulated"}
        want = {f"{lines_a[0]['controller']:#018x}", f"{lines_b[0]['controller']:#018x}"}
        assert set(emulated) == want
        assert all(row["answered"] and row["firmware"] and row["protocol"] == "1.2" for row in emulated.values())
        r = _run(["ports", "--timeout", "2"], runtime)                   # the text listing names them too
        assert all(cid in r.stdout for cid in want) and "firmware" in r.stdout
        assert sum(" emul. " in line for line in r.stdout.splitlines()) == 2
    finally:
        _stop(a)
        _stop(b)
    assert not folder_a.exists() and not folder_b.exists()              # removed on exit (SIGTERM)
    assert emulated_candidates() == []


def test_identify_and_monitor_and_controller_find_an_emulated_controller_by_id(runtime):
    with Emulator(2, ids=[0x8B17_0000_0000_0C01, 0x8B17_0000_0000_0C02], link_dir=emulator_dir()) as emu:
        r = _run(["identify", "--ms", "5000", "0c02"], runtime)          # discovered: no --controller
        assert r.returncode == 0, r.stderr
        assert "8b17000000000c02" in r.stdout
        assert emu.controllers[1].identifying and not emu.controllers[0].identifying
        assert resolve_port("8b17000000000c01") == str(emulator_dir() / "8bitbox-0")
        r = _run(["monitor", "--count", "2", "--seconds", "5", "0c01"], runtime)
        assert r.returncode == 0, r.stderr
        assert "Hello" in r.stdout
        r = _run(["test-controllers", "--controller", "0c01", "--seconds", "1"], runtime)
        assert r.returncode == 0, r.stderr
        assert "8b17…0c01" in r.stdout or "0c01" in r.stdout
        r = _run(["test-controllers", "--controller", "feedbeef", "--seconds", "1"], runtime)
        assert r.returncode == exitcodes.NO_DEVICE and r.stderr.count("\n") == 1
        assert "no controller answered with that id (feedbeef)" in r.stderr


def test_a_stale_folder_of_a_dead_emulator_is_skipped_and_removed(runtime):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          timeout=30)
    folder = runtime_dir() / f"emulate-{int(dead.stdout)}"
    folder.mkdir(parents=True)
    (folder / "8bitbox-0").symlink_to("/dev/null")
    assert emulated_candidates() == []
    assert not folder.exists()


def test_no_such_device_is_one_code_in_every_command(runtime, tmp_path):
    """Exit code 3 for "no such device" in identify, monitor, test-controllers and ports; 2 for
    bad usage."""
    nowhere = str(tmp_path / "no-such-port")
    r = _run(["identify", "--wait", "0.5", nowhere], runtime)
    assert r.returncode == exitcodes.NO_DEVICE and r.stderr.count("\n") == 1
    r = _run(["monitor", "--seconds", "0.5", nowhere], runtime)
    assert r.returncode == exitcodes.NO_DEVICE and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    r = _run(["monitor", "--seconds", "0.5", "feedbeef"], runtime)
    assert r.returncode == exitcodes.NO_DEVICE and "no controller answered with that id (feedbeef)" in r.stderr
    cfg = tmp_path / "controllers.yaml"
    cfg.write_text("usb: []\nports: []\n")
    r = _run(["ports", "--config", str(cfg)], runtime)
    assert r.returncode == exitcodes.NO_DEVICE and r.stderr.count("\n") == 1
    r = _run(["identify", "--ms", "0", nowhere], runtime)
    assert r.returncode == exitcodes.USAGE


def test_test_controllers_with_no_controller_says_so_in_one_line(runtime):
    r = _run(["test-controllers", "--wait", "0.5", "--seconds", "0.5"], runtime)
    assert r.returncode == exitcodes.NO_DEVICE, (r.stdout, r.stderr)
    assert r.stdout == "" and r.stderr.count("\n") == 1 and "no controller found" in r.stderr
