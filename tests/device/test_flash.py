"""`bitbox flash PORT` (docs/devices.md): what can be checked without a board. A port that is
not MicroPython (an emulated controller, which speaks the binary protocol; a silent
pseudo-terminal) is refused in one line with exit code 1 and no traceback, within the short
REPL timeout given; a missing port is exit 3; a missing mpremote names the extra to install;
the files copied are the ones the firmware's README lists for a board. A real board's install
is not tested here (MicroPython's unix port cannot serve as a board for mpremote's raw REPL)."""
from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
import tty

import pytest

if not sys.platform.startswith(("linux", "darwin")):
    pytest.skip("pseudo-terminals need a POSIX system", allow_module_level=True)

from bitbox import exitcodes, flash
from bitbox_tools.emulate import Emulator, emulator_controller_id

BITBOX = [sys.executable, "-m", "bitbox.cli"]


def _flash(*args: str) -> subprocess.CompletedProcess:
    # mpremote gets --timeout 1; the bound here is only against a hang
    return subprocess.run([*BITBOX, "flash", *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)


def _one_line(text: str) -> str:
    assert "Traceback" not in text
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def test_an_emulated_controller_is_refused_in_one_line_naming_what_it_is():
    with Emulator(1, settle=False) as emu:
        done = _flash(emu.ports[0], "--timeout", "1")
    assert done.returncode == exitcodes.CHECK_FAILED
    assert done.stdout == ""
    line = _one_line(done.stderr)
    assert line.startswith(f"bitbox flash: {emu.ports[0]}: refused, no MicroPython REPL answered within 1 s")
    assert f"{emulator_controller_id(0):#018x}" in line and "lock switch held" in line


def test_a_silent_pseudo_terminal_is_refused_as_not_micropython():
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        done = _flash(os.ttyname(slave), "--timeout", "1")
    finally:
        os.close(master)
        os.close(slave)
    assert done.returncode == exitcodes.CHECK_FAILED
    assert "not a MicroPython board" in _one_line(done.stderr)


def test_a_missing_port_is_no_such_device():
    done = _flash("/dev/no-such-board-here")
    assert done.returncode == exitcodes.NO_DEVICE
    assert _one_line(done.stderr) == ("bitbox flash: /dev/no-such-board-here: no such port (`bitbox ports --all` "
                                      "lists the serial ports)")


def test_help_and_bad_options():
    done = _flash("--help")
    assert done.returncode == 0 and "PORT" in done.stdout and "--timeout" in done.stdout
    done = _flash("/dev/null", "--timeout", "0")
    assert done.returncode == exitcodes.USAGE
    assert "--timeout expects a number > 0" in _one_line(done.stderr)


def test_without_mpremote_one_line_names_the_extra(monkeypatch, capsys):
    real = flash.importlib.util.find_spec
    monkeypatch.setattr(flash.importlib.util, "find_spec", lambda name: None if name == "mpremote" else real(name))
    args = argparse.Namespace(port="/dev/ttyACM0", timeout=5.0, wait=10.0, dry_run=False)
    assert flash.run(args) == exitcodes.USAGE
    line = _one_line(capsys.readouterr().err)
    assert "mpremote is not installed" in line and "[flash]" in line


def test_the_files_copied_are_the_ones_the_readme_lists_for_a_board():
    folder = flash.firmware_folder()
    readme = (folder / "README.md").read_text(encoding="utf-8")
    on_board = set(re.findall(r"^\| `([a-z_]+\.py)` \| yes", readme, re.M))
    assert on_board == {name for name, _ in flash.BOARD_FILES}
    out = io.StringIO()
    args = argparse.Namespace(port="/dev/ttyACM0", timeout=5.0, wait=10.0, dry_run=True)
    assert flash.run(args, out) == exitcodes.OK
    text = out.getvalue()
    for name in on_board:
        assert str(folder / name) in text
    assert f"{folder / 'main.py'} :main.py" in text and ":firmware/" in text and "reset" in text
    # the version checked after the reset is the one main.py sets
    assert flash.firmware_version() in text
    assert re.search(r"FIRMWARE_VERSION = \((\d+), (\d+), (\d+)\)", (folder / "main.py").read_text()).groups() == \
        tuple(flash.firmware_version().split("."))


def _args(port: str, **kw) -> argparse.Namespace:
    return argparse.Namespace(**{"port": port, "timeout": 5.0, "wait": 5.0, "dry_run": False, **kw})


def test_after_the_copy_the_hello_is_checked_on_the_port(monkeypatch, capsys):
    """Everything but mpremote itself: the board 'answers' MicroPython and takes the files (a
    fake runner records the commands), then the real check opens the port, an emulated
    controller running the reference firmware, and reads its Hello."""
    ran: list[list[str]] = []

    def fake_run(cmd, timeout):
        ran.append(cmd)
        return 0, "implementation: micropython\n"
    monkeypatch.setattr(flash, "_run", fake_run)
    with Emulator(1, settle=False) as emu:
        out = io.StringIO()
        assert flash.run(_args(emu.ports[0]), out) == exitcodes.OK
        assert out.getvalue() == (f"{emu.ports[0]}: controller {emulator_controller_id(0):#018x} runs firmware "
                                  f"{flash.firmware_version()}, protocol 1.2: installed and checked\n")
        assert [cmd[cmd.index("connect") + 1] for cmd in ran] == [emu.ports[0]] * 2
        assert ran[1][-1] == "reset"
        monkeypatch.setattr(flash, "firmware_version", lambda: "9.9.9")     # another version was copied
        assert flash.run(_args(emu.ports[0]), io.StringIO()) == exitcodes.CHECK_FAILED
    line = _one_line(capsys.readouterr().err)
    assert "copied, but the controller reports firmware 1.0.0" in line and "expected 9.9.9" in line


def test_another_python_or_a_failed_copy_is_one_line(monkeypatch, capsys):
    master, slave = os.openpty()
    try:
        port = os.ttyname(slave)
        monkeypatch.setattr(flash, "_run", lambda cmd, timeout: (0, "implementation: cpython\n"))
        assert flash.run(_args(port)) == exitcodes.CHECK_FAILED
        assert _one_line(capsys.readouterr().err) == f"bitbox flash: {port}: refused, it runs cpython, not MicroPython"
        answers = iter([(0, "implementation: micropython\n"), (1, "mpremote: cp: No space left on device")])
        monkeypatch.setattr(flash, "_run", lambda cmd, timeout: next(answers))
        assert flash.run(_args(port)) == exitcodes.CHECK_FAILED
        assert _one_line(capsys.readouterr().err) == (f"bitbox flash: {port}: copying the firmware failed "
                                                      f"(mpremote: cp: No space left on device)")
    finally:
        os.close(master)
        os.close(slave)
