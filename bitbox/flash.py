"""`bitbox flash PORT`: install the reference firmware on a MicroPython board, then check it.

    bitbox flash /dev/ttyACM0              # copy the firmware, reset the board, check its Hello
    bitbox flash /dev/ttyACM0 --dry-run    # print the mpremote commands, run nothing

It uses mpremote (MicroPython's own tool, the ``flash`` extra: ``pip install 'bitbox-outspeed[flash]'``)
as a subprocess: first it asks the board which Python it runs (``sys.implementation.name``)
and refuses, in one line, a board that is not MicroPython or does not answer at its REPL
within ``--timeout`` seconds; then it copies the firmware files a board needs
(firmware_protocol/firmware/README.md: ``__init__.py``, ``wire.py``, ``hal.py``,
``controller.py``, ``pico_hal.py`` into ``/firmware/``, ``main.py`` as ``/main.py``), resets
the board, opens the port again as the console does (HostHello, then the controller's Hello)
and checks that the firmware version and protocol it reports are the ones it copied.

Exit codes (bitbox.exitcodes): 0 installed and checked; 1 the board is not MicroPython (or
its REPL did not answer), a copy failed, or the Hello after the reset is missing or reports
another version; 2 bad usage, or mpremote is not installed; 3 no such port.
"""
from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import TextIO

from . import exitcodes

__all__ = ["BOARD_FILES", "build_parser", "firmware_version", "install_commands", "run"]

#: the files a board needs, and where they go on its filesystem (README.md, "Flashing")
BOARD_FILES = (("__init__.py", ":firmware/"), ("wire.py", ":firmware/"), ("hal.py", ":firmware/"),
               ("controller.py", ":firmware/"), ("pico_hal.py", ":firmware/"), ("main.py", ":main.py"))

_ASK = "import sys; print('implementation:', sys.implementation.name)"
_MKDIR = "import os; 'firmware' in os.listdir('/') or os.mkdir('/firmware')"


def firmware_folder() -> Path:
    import firmware_protocol.firmware as fw
    return Path(fw.__file__).parent


def firmware_version(folder: Path | None = None) -> str:
    """The ``FIRMWARE_VERSION`` the board's ``main.py`` reports, as ``1.0.0`` (read from the
    file: it imports board-only modules)."""
    tree = ast.parse((folder or firmware_folder()).joinpath("main.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "FIRMWARE_VERSION" for t in node.targets):
            return ".".join(str(v) for v in ast.literal_eval(node.value))
    raise ValueError("main.py sets no FIRMWARE_VERSION")


def _mpremote(port: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "mpremote", "connect", port, *args]


def install_commands(port: str, folder: Path | None = None) -> list[list[str]]:
    """The mpremote commands that copy the firmware and reset the board, in order."""
    folder = folder or firmware_folder()
    into_package = [str(folder / name) for name, where in BOARD_FILES if where == ":firmware/"]
    return [_mpremote(port, "exec", _MKDIR, "+", "cp", *into_package, ":firmware/",
                      "+", "cp", str(folder / "main.py"), ":main.py", "+", "reset")]


def _run(cmd: list[str], timeout: float) -> tuple[int | None, str]:
    """(exit code, or None on timeout; the last line of what it printed)."""
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, errors="replace",
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, ""
    text = (done.stdout + "\n" + done.stderr).strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return done.returncode, text if done.returncode == 0 else (lines[-1] if lines else "")


def _why_not(port: str) -> str:
    """A port whose REPL did not answer: is it one of our controllers already running?"""
    from .discovery import probe
    from .safetext import printable
    found = probe(port, timeout=1.0)
    if found.info is not None:
        i = found.info
        return (f"it answers as an 8Bitbox controller ({i.controller_id:#018x}, firmware {printable(i.firmware)}, "
                f"protocol {i.protocol[0]}.{i.protocol[1]}), which keeps its port: plug it in with the lock "
                f"switch held to reach MicroPython's REPL")
    return "not a MicroPython board, or MicroPython is busy running a program"


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    parser = parser or argparse.ArgumentParser(prog="bitbox flash", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("port", metavar="PORT", help="the board's serial port (/dev/ttyACM0, COM3)")
    parser.add_argument("--timeout", type=float, default=5.0,
                        help="seconds to wait for the board's REPL before refusing it (default 5)")
    parser.add_argument("--wait", type=float, default=10.0,
                        help="seconds to wait for the controller's Hello after the reset (default 10)")
    parser.add_argument("--dry-run", action="store_true", help="print the mpremote commands, run nothing")
    return parser


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = sys.stdout if out is None else out      # the stdout of the call, not of the import
    import math
    import shlex
    prog, port = "bitbox flash", args.port
    for name in ("timeout", "wait"):
        value = getattr(args, name)
        if not (math.isfinite(value) and value > 0):
            print(f"{prog}: --{name} expects a number > 0, not {value}", file=sys.stderr)
            return exitcodes.USAGE
    version = firmware_version()
    if args.dry_run:
        for cmd in [_mpremote(port, "exec", _ASK), *install_commands(port)]:
            out.write(shlex.join(cmd) + "\n")
        out.write(f"# then: the controller's Hello on {port} must report firmware {version}\n")
        return exitcodes.OK
    if importlib.util.find_spec("mpremote") is None:
        print(f"{prog}: mpremote is not installed: install the flash extra (pip install 'bitbox-outspeed[flash]')",
              file=sys.stderr)
        return exitcodes.USAGE
    if "://" not in port and not os.path.exists(port):
        print(f"{prog}: {port}: no such port (`bitbox ports --all` lists the serial ports)", file=sys.stderr)
        return exitcodes.NO_DEVICE
    from .safetext import printable
    code, said = _run(_mpremote(port, "exec", _ASK), args.timeout)
    said = printable(said, 200)                   # what the device and mpremote said: escaped, one line
    if code != 0 or "implementation: micropython" not in said:
        if code is None:
            why = f"no MicroPython REPL answered within {args.timeout:g} s; {_why_not(port)}"
        elif "implementation:" in said:
            found = re.match(r"\s*(\w*)", said.split("implementation:", 1)[1])
            why = f"it runs {(found.group(1) if found else '') or 'another Python'}, not MicroPython"
        else:
            why = f"mpremote: {said or 'failed'}; {_why_not(port)}"
        print(f"{prog}: {port}: refused, {why}", file=sys.stderr)
        return exitcodes.CHECK_FAILED
    for cmd in install_commands(port):
        code, said = _run(cmd, max(30.0, args.timeout))
        if code != 0:
            print(f"{prog}: {port}: copying the firmware failed ({printable(said, 200) or 'mpremote timed out'})",
                  file=sys.stderr)
            return exitcodes.CHECK_FAILED
    return _check_hello(prog, port, version, args.wait, out)


def _check_hello(prog: str, port: str, version: str, wait: float, out: TextIO) -> int:
    """After the reset: the port comes back (USB) and the controller must say Hello with the
    firmware version just copied and the protocol of the firmware's wire.py."""
    from firmware_protocol.firmware import wire

    from .discovery import probe
    from .safetext import printable
    protocol = (wire.PROTOCOL_MAJOR, wire.PROTOCOL_MINOR)
    deadline = time.monotonic() + wait
    error = "no Hello"
    while True:
        found = probe(port, timeout=1.0)
        if found.info is not None:
            i = found.info
            if i.firmware != version or i.protocol != protocol:
                print(f"{prog}: {port}: copied, but the controller reports firmware {printable(i.firmware)}, "
                      f"protocol {i.protocol[0]}.{i.protocol[1]} (expected {version}, protocol "
                      f"{protocol[0]}.{protocol[1]})", file=sys.stderr)
                return exitcodes.CHECK_FAILED
            out.write(f"{port}: controller {i.controller_id:#018x} runs firmware {version}, protocol "
                      f"{protocol[0]}.{protocol[1]}: installed and checked\n")
            return exitcodes.OK
        error = found.error or error
        if time.monotonic() >= deadline:
            print(f"{prog}: {port}: copied and reset, but no controller Hello within {wait:g} s ({error})",
                  file=sys.stderr)
            return exitcodes.CHECK_FAILED
        time.sleep(0.5)
