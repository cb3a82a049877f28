"""`bitbox diagnose` writes one file for a bug report: versions, every port seen and why it was
kept or skipped, each controller's Hello, the hub's counters, the config checks. Run as a maker
would (a subprocess) against an emulated controller found through the runtime folder."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

if not sys.platform.startswith(("linux", "darwin")):
    pytest.skip("pseudo-terminals need a POSIX system", allow_module_level=True)

from bitbox.discovery import emulator_dir
from bitbox_tools.emulate import Emulator

BITBOX = [sys.executable, "-m", "bitbox.cli"]


def test_diagnose_writes_one_file_with_the_hello_counters_and_checks(tmp_path, monkeypatch):
    monkeypatch.setenv("BITBOX_RUNTIME_DIR", str(tmp_path / "runtime"))
    out = tmp_path / "report.json"
    cfg = tmp_path / "controllers.yaml"
    cfg.write_text("usb: []\nports: ['/dev/ttyNOPE7']\n")
    with Emulator(1, ids=[0x8B17_0000_0000_0D01], link_dir=emulator_dir(), faults="0:garbage=500") as emu:
        # (--timeout: a busy machine may run the emulator late; an answer is not waited for longer)
        r = subprocess.run(BITBOX + ["diagnose", "--out", str(out), "--listen", "1", "--config", str(cfg),
                                     "--timeout", "10"],
                           capture_output=True, text=True, timeout=60, env=dict(os.environ))
        assert emu.controllers[0].firmware.frames_sent > 0
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("\n") == 1 and str(out) in r.stderr
    report = json.loads(out.read_text())
    assert report["version"]["protocol"] == "1.2" and report["version"]["python"]
    assert report["config"]["controllers.yaml"] == "ok"
    assert any(k.startswith("wheels.yaml: ") and v == "ok" for k, v in report["config"].items())
    link = str(emulator_dir() / "8bitbox-0")
    (emulated,) = [p for p in report["ports"] if p["port"] == link]
    assert emulated["kept"] and "bitbox emulate" in emulated["why"]
    (nope,) = [p for p in report["ports"] if p["port"] == "/dev/ttyNOPE7"]
    assert nope["kept"] and "listed in the controllers config" in nope["why"]
    hellos = {c["port"]: c for c in report["controllers"]}
    assert hellos[link]["hello"]["controller"] == "8b17000000000d01" and hellos[link]["hello"]["protocol"] == "1.2"
    assert hellos["/dev/ttyNOPE7"]["hello"] is None and hellos["/dev/ttyNOPE7"]["error"]
    (counters,) = [l for l in report["links"] if l["port"] == link]
    assert counters["frames"] > 0 and counters["controller"] == "8b17000000000d01"
    assert counters["bad_frames"] > 0                         # the emulated line noise is counted


def test_diagnose_reports_a_broken_config_and_refuses_an_unwritable_file(tmp_path, monkeypatch):
    monkeypatch.setenv("BITBOX_RUNTIME_DIR", str(tmp_path / "runtime"))
    cfg = tmp_path / "controllers.yaml"
    cfg.write_text("usb: [{vid: 99999999, pid: 1}]\n")
    out = tmp_path / "report.json"
    r = subprocess.run(BITBOX + ["diagnose", "--out", str(out), "--listen", "0", "--config", str(cfg)],
                       capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert r.returncode == 0, r.stderr
    check = json.loads(out.read_text())["config"]["controllers.yaml"]
    assert check != "ok" and "controllers.yaml" in check and "vid" in check
    r = subprocess.run(BITBOX + ["diagnose", "--out", str(tmp_path / "no" / "such" / "dir" / "r.json")],
                       capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "cannot be written" in r.stderr
    r = subprocess.run(BITBOX + ["diagnose", "--out", str(out), "--timeout", "0"],
                       capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--timeout expects" in r.stderr
