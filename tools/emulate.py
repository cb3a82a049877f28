"""`bitbox emulate`: N controllers, each the reference firmware on a virtual board whose
serial port is a pseudo-terminal, so any program (the hub, `bitbox monitor`, a terminal) can
open them like real USB serial controllers.

    bitbox emulate --controllers 6 [--script FILE] [--faults SPEC] [--link-dir DIR]

Its controllers are discoverable at once, like real ones, by `bitbox ports`, `bitbox identify
ID`, `bitbox test-controllers` and the games: it keeps a folder of links to its ports in the
runtime folder (``$BITBOX_RUNTIME_DIR``, else the user's runtime folder; see
bitbox.discovery) and removes it when it stops. ``--link-dir DIR`` keeps the links in DIR
instead (not discovered).

First prints one JSON line per controller, ``{"controller": <id>, "index": i, "port": path}``,
then runs until stopped (Ctrl-C, ``quit`` or ``--seconds``; not at the end of its input). A reconnected controller gets a
new pseudo-terminal and prints a new line (with ``"event": "reconnected"``). Commands on
standard input, one per line (``help`` lists them): ``0 right=2 locked=1``, ``all centre=3``,
``1 garbage 200``, ``1 drop 3``, ``2 disconnect 1.5``, ``3 reset``, ``4 babble on``.

The same as a Python API, for tests that want it in-process::

    with Emulator(6, faults="2:ber=1e-3") as emu:
        hub.add_url(emu.ports[0]) ...
        emu.set(0, right=2); emu.disconnect(1); emu.reconnect(1)
"""
from __future__ import annotations

import argparse
import errno
import functools
import json
import math
import os
import select
import signal
import sys
import threading
import time
import tty
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bitbox.config import ConfigError
from bitbox.faults import FaultSpec, FaultSpecError, parse_faults
from bitbox.i18n import counted
from bitbox.sim import DEFAULT_POSITIONS, ScriptStep, VirtualController, load_script

__all__ = ["Emulator", "EmulatedPort", "emulator_controller_id", "main"]

_BABBLE_CHUNK = 4096
_BABBLE_PAUSE = 0.0005
#: Bounds of the commands' values (and of script steps): what a test could want, and no
#: value that would exhaust memory or overflow a timer (an error message instead).
MAX_GARBAGE_BYTES = 1_000_000
MAX_DROP_FRAMES = 1_000_000
MAX_DISCONNECT_S = 3600.0          # as --faults disconnect@T+D
MAX_ID = 2**64 - 1


def _bounded(value: float, lo: float, hi: float, what: str) -> float:
    """``value`` if finite and within lo..hi, else ValueError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or not lo <= value <= hi:
        raise ValueError(f"{what}: expected {lo:g}..{hi:g}, got {value!r}")
    return value


def emulator_controller_id(index: int, base: int = 0x8B17_0000_0000_0000) -> int:
    """The id of emulated controller ``index``: 0x8B1700000000000N (N = index + 1)."""
    return base + index + 1


class EmulatedPort:
    """One pseudo-terminal: the emulator holds the master end; ``path`` is the slave a host
    opens. The slave is put in raw mode at once (no echo, no line editing), as pyserial would."""

    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        os.set_blocking(self.master, False)
        self.inbound = bytearray()
        self.closed = False
        self.dropped = 0

    def write(self, data: bytes) -> None:
        """Like a USB device whose host is not reading: what does not fit is lost."""
        if self.closed:
            return
        try:
            n = os.write(self.master, data)
            self.dropped += len(data) - n
        except BlockingIOError:
            self.dropped += len(data)
        except OSError as exc:
            if exc.errno not in (errno.EIO, errno.EAGAIN, errno.EBADF):
                raise

    def pump(self) -> None:
        """Read what the host wrote (called when the master is readable)."""
        if self.closed:
            return
        try:
            data = os.read(self.master, 4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:                      # EIO: no host has the port open
            return
        self.inbound += data

    def read(self) -> bytes:
        data = bytes(self.inbound)
        self.inbound.clear()
        return data

    def close(self) -> None:
        """Pull the cable: the host's reads fail (pyserial: 'readiness to read but returned no
        data') and the device node disappears."""
        if self.closed:
            return
        self.closed = True
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass


class Emulator:
    """``n`` emulated controllers on pseudo-terminals, stepped by one thread.

    ``faults``: a fault SPEC (:mod:`bitbox.faults`) or one FaultSpec per controller.
    ``script``: steps (:func:`bitbox.sim.load_script`) played from ``start()``.
    ``link_dir``: keep a symlink ``<link_dir>/8bitbox-<index>`` to each controller's current
    port, so a host can reopen the same path after a reconnect.
    ``on_port``: called as ``on_port(index, controller_id, path, event)`` for every new port.
    ``on_frame``: called with (index, frame, time.monotonic()) for every frame a firmware
    writes, just after it went on the line (the frame as the firmware made it, before faults;
    benchmarks and traces).
    ``tick_ms``: how often each firmware is stepped (it wants 1-5 ms).
    ``protocol``: the (major, minor) the controllers announce (default: the firmware's own,
    1.1); e.g. (1, 0) to try a host against older controllers.
    """

    def __init__(self, n: int = 1, *, faults: str | Sequence[FaultSpec] | None = None,
                 script: Sequence[ScriptStep] | None = None, ids: Sequence[int] | None = None,
                 positions: tuple[int, int, int] = DEFAULT_POSITIONS, tick_ms: float = 1.0,
                 link_dir: str | Path | None = None, seed: int | None = None,
                 on_port: Callable[[int, int, str, str], None] | None = None,
                 on_frame: Callable[[int, bytes, float], None] | None = None,
                 settle: bool = False, protocol: tuple[int, int] | None = None) -> None:
        if n < 1:
            raise ValueError("at least one controller")
        specs = parse_faults(faults, n) if isinstance(faults, str) or faults is None else list(faults)
        if len(specs) != n:
            raise ValueError(f"{len(specs)} fault specs for {n} controllers")
        self.specs = specs
        self.script = list(script or ())
        self.tick = tick_ms / 1000.0
        self.link_dir = Path(link_dir) if link_dir is not None else None
        self.on_port = on_port
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._script_thread: threading.Thread | None = None
        self._timers: list[threading.Timer] = []
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        if ids is not None and (len(ids) < n or any(isinstance(c, bool) or not isinstance(c, int)
                                                    or not 0 <= c <= MAX_ID for c in ids[:n])):
            raise ValueError(f"controller ids: {n} whole numbers 0..{MAX_ID:#x} (64-bit), got {list(ids)!r}")
        self.controllers: list[VirtualController] = []
        self._ports: list[EmulatedPort | None] = []
        for i in range(n):
            cid = ids[i] if ids is not None else emulator_controller_id(i)
            frame_hook = (lambda data, i=i: on_frame(i, data, time.monotonic())) if on_frame else None
            vc = VirtualController(cid, positions=positions, faults=specs[i], protocol=protocol,
                                   seed=None if seed is None else seed + i, settle=settle, on_frame=frame_hook)
            self.controllers.append(vc)
            self._ports.append(None)
            self._plug(i, "connected")

    # -- ports ----------------------------------------------------------------------------------
    @property
    def ports(self) -> list[str | None]:
        """The current port of each controller (None while disconnected)."""
        return [p.path if p is not None else None for p in self._ports]

    def link(self, index: int) -> Path | None:
        return self.link_dir / f"8bitbox-{index}" if self.link_dir is not None else None

    def _plug(self, i: int, event: str) -> str:
        with self._lock:
            port = EmulatedPort()
            self._ports[i] = port
            self.controllers[i].connect(port.write, port.read)
            link = self.link(i)
            if link is not None:
                link.parent.mkdir(parents=True, exist_ok=True)
                tmp = link.with_name(link.name + ".new")
                if tmp.is_symlink() or tmp.exists():
                    tmp.unlink()
                tmp.symlink_to(port.path)
                os.replace(tmp, link)
        self._wake()
        if self.on_port is not None:
            self.on_port(i, self.controllers[i].controller_id, port.path, event)
        return port.path

    def disconnect(self, index: int, seconds: float | None = None) -> None:
        """Pull controller ``index``'s cable; with ``seconds``, plug it back in after that long
        (on a new pseudo-terminal, the firmware rebooted, as after a real replug). ``seconds``
        must be 0..MAX_DISCONNECT_S (ValueError)."""
        if seconds is not None:
            _bounded(seconds, 0.0, MAX_DISCONNECT_S, "disconnect seconds")
        with self._lock:
            port = self._ports[index]
            if port is None:
                return
            link = self.link(index)
            if link is not None and link.is_symlink():
                link.unlink()
            self.controllers[index].connect(None, None)
            self._ports[index] = None
            port.close()
        if seconds is not None:
            timer = threading.Timer(seconds, self.reconnect, args=(index,))
            timer.daemon = True
            self._timers.append(timer)
            timer.start()

    def reconnect(self, index: int) -> str | None:
        """Plug controller ``index`` back in (a new pseudo-terminal, firmware rebooted)."""
        with self._lock:
            if self._stop.is_set() or self._ports[index] is not None:
                return self.ports[index]
            self.controllers[index].reset()
        return self._plug(index, "reconnected")

    # -- controls -------------------------------------------------------------------------------
    def set(self, index: int, left: int | None = None, centre: int | None = None, right: int | None = None,
            locked: bool | None = None) -> None:
        self.controllers[index].set(left, centre, right, locked)
        self._wake()

    def reset(self, index: int) -> None:
        self.controllers[index].reset()
        self._wake()

    def garbage(self, index: int, n: int = 64) -> None:
        _bounded(n, 0, MAX_GARBAGE_BYTES, "garbage bytes")
        with self.controllers[index].lock:
            self.controllers[index].faults.inject_garbage(n)
        self._wake()

    def drop(self, index: int, n: int = 1) -> None:
        _bounded(n, 0, MAX_DROP_FRAMES, "drop frames")
        with self.controllers[index].lock:
            self.controllers[index].faults.drop_next(n)

    def babble(self, index: int, on: bool = True) -> None:
        from dataclasses import replace
        vc = self.controllers[index]
        with vc.lock:
            vc.faults.set_spec(replace(vc.faults.spec, babble=on))
        self._wake()

    def apply(self, step: ScriptStep) -> None:
        """Do one script step now, for its controller (or all)."""
        targets = range(len(self.controllers)) if step.controller is None else [step.controller]
        for i in targets:
            if i >= len(self.controllers):
                continue
            if step.fault == "disconnect":
                self.disconnect(i, step.amount if step.amount is not None else 1.0)
            else:
                self.controllers[i].apply(step)
        self._wake()

    # -- running --------------------------------------------------------------------------------
    def start(self) -> Emulator:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="bitbox-emulator", daemon=True)
            self._thread.start()
            for i, spec in enumerate(self.specs):
                for event in spec.events:
                    action = (functools.partial(self.disconnect, i, event.duration) if event.kind == "disconnect"
                              else functools.partial(self.reset, i))
                    timer = threading.Timer(event.at, action)
                    timer.daemon = True
                    self._timers.append(timer)
                    timer.start()
            if self.script:
                self.run_script(self.script)
        return self

    def run_script(self, steps: Sequence[ScriptStep]) -> None:
        """Play ``steps`` from now on, in a thread (``script_done`` tells when it is over)."""
        self._script_thread = threading.Thread(target=self._play, args=(list(steps),),
                                               name="bitbox-emulator-script", daemon=True)
        self._script_thread.start()

    def _play(self, steps: list[ScriptStep]) -> None:
        start = time.monotonic()
        for step in steps:
            delay = start + step.at - time.monotonic()
            if delay > 0 and self._stop.wait(delay):
                return
            if self._stop.is_set():
                return
            try:
                self.apply(step)
            except ValueError as exc:
                print(f"emulate: script step at {step.at:g} s: {exc}", file=sys.stderr)

    @property
    def script_done(self) -> bool:
        return self._script_thread is None or not self._script_thread.is_alive()

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    def _run(self) -> None:
        next_step = next_babble = time.monotonic()
        while not self._stop.is_set():
            with self._lock:
                ports = [(i, p) for i, p in enumerate(self._ports) if p is not None]
            readers = [p.master for _, p in ports] + [self._wake_r]
            now = time.monotonic()
            # Babblers write whenever their line takes more, but at most one chunk per
            # _BABBLE_PAUSE each (~8 MB/s: beyond what full-speed USB carries) so the loop
            # does not spin on a line that has room for a few bytes only.
            babbling = any(self.controllers[i].faults.spec.babble for i, _ in ports)
            writers = [p.master for i, p in ports if self.controllers[i].faults.spec.babble] \
                if babbling and now >= next_babble else []
            deadline = min(next_step, next_babble) if babbling else next_step
            timeout = max(0.0, deadline - now)
            try:
                readable, writable, _ = select.select(readers, writers, [], timeout)
            except (OSError, ValueError):          # a port closed under us: look again
                continue
            if self._wake_r in readable:
                try:
                    os.read(self._wake_r, 4096)
                except OSError:
                    pass
            got = False
            for i, port in ports:
                if port.master in readable:
                    port.pump()
                    got = True
                if port.master in writable and not port.closed:
                    vc = self.controllers[i]
                    with vc.lock:
                        junk = vc.faults.random_bytes(_BABBLE_CHUNK - 1) + b"\x00"
                    port.write(junk)
            now = time.monotonic()
            if writable:
                next_babble = now + _BABBLE_PAUSE
            if got or now >= next_step or self._wake_r in readable:
                for vc in self.controllers:
                    vc.step()
                next_step = now + self.tick

    def stop(self) -> None:
        self._stop.set()
        self._wake()
        for timer in self._timers:
            timer.cancel()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2.0)
        self._thread = None
        with self._lock:
            for i, port in enumerate(self._ports):
                if port is not None:
                    port.close()
                link = self.link(i)
                if link is not None and link.is_symlink():
                    link.unlink()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    close = stop

    def __enter__(self) -> Emulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def status(self) -> list[dict[str, Any]]:
        out = []
        for i, vc in enumerate(self.controllers):
            fw = vc.firmware
            out.append({"index": i, "controller": vc.controller_id, "port": self.ports[i], "mode": fw.mode,
                        "wheels": list(vc.wheels), "locked": vc.locked, "seat": vc.seat,
                        "lights": list(vc.lights[:3]), "colour": vc.lights[3],
                        "stop_lights": list(vc.stop_lights), "shown": list(vc.shown), "refusing": vc.refusing,
                        "identifying": vc.identifying,
                        "frames_sent": fw.frames_sent, "bad_frames_from_host": fw.bad_frames,
                        "frames_dropped": vc.faults.frames_dropped, "bits_flipped": vc.faults.bits_flipped,
                        "frames_duplicated": getattr(vc.faults, "frames_duplicated", 0),
                        "garbage_bytes": vc.faults.garbage_sent})
        return out


# --- the command line --------------------------------------------------------------------------

HELP = """commands (one per line; N is a controller index, or 'all'):
  N left=P centre=P right=P locked=0|1   turn wheels / the lock (any subset)
  N garbage [BYTES]      put random bytes on the line (default 64)
  N drop [FRAMES]        lose the next frames (default 1)
  N disconnect [SECONDS] pull the cable, plug back after SECONDS (default 1; 0 = stay out)
  N reconnect            plug back in now
  N reset                reboot the firmware
  N babble on|off        flood the line with garbage at full speed
  status                 one JSON line per controller
  help | quit"""


def _command(emu: Emulator, line: str, out=None) -> bool:
    """Run one command line; False to quit."""
    out = sys.stderr if out is None else out          # the stderr of the call, not of the import
    words = line.split()
    if not words or words[0].startswith("#"):
        return True
    if words[0] in ("quit", "exit", "q"):
        return False
    if words[0] == "help":
        print(HELP, file=out)
        return True
    if words[0] == "status":
        for entry in emu.status():
            print(json.dumps(entry), file=out, flush=True)
        return True
    n = len(emu.controllers)
    if words[0] == "all":
        targets = list(range(n))
    elif words[0].isdigit() and int(words[0]) < n:
        targets = [int(words[0])]
    else:
        print(f"emulate: expected a controller index 0..{n - 1} or 'all', got {words[0]!r} (try 'help')", file=out)
        return True
    verb, args = (words[1], words[2:]) if len(words) > 1 else ("", [])
    try:
        for i in targets:
            if "=" in verb:
                kw: dict[str, Any] = {}
                for item in words[1:]:
                    key, _, value = item.partition("=")
                    if key not in ("left", "centre", "center", "right", "locked"):
                        raise ValueError(f"unknown setting {key!r}")
                    kw["centre" if key == "center" else key] = (value.lower() in ("1", "true", "yes", "on")
                                                                if key == "locked" else int(value))
                emu.set(i, **kw)
            elif verb == "garbage":
                emu.garbage(i, int(args[0]) if args else 64)
            elif verb == "drop":
                emu.drop(i, int(args[0]) if args else 1)
            elif verb == "disconnect":
                seconds = _bounded(float(args[0]), 0.0, MAX_DISCONNECT_S, "disconnect seconds") if args else 1.0
                emu.disconnect(i, seconds or None)
            elif verb == "reconnect":
                emu.reconnect(i)
            elif verb == "reset":
                emu.reset(i)
            elif verb == "babble":
                emu.babble(i, not args or args[0].lower() in ("on", "1", "true"))
            else:
                raise ValueError(f"unknown command {verb!r}")
    except (ValueError, IndexError, OverflowError) as exc:
        print(f"emulate: {exc} (try 'help')", file=out)
    return True


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    parser = parser or argparse.ArgumentParser(prog="bitbox emulate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--controllers", "-n", type=int, default=1, metavar="N", help="how many (default 1)")
    parser.add_argument("--script", metavar="FILE", help="a script of timed wheel settings, lock changes and faults")
    parser.add_argument("--faults", metavar="SPEC", default="",
                        help="faults to inject, e.g. 'ber=1e-4,2:babble,3:disconnect@5+2' (see docs/devices.md)")
    parser.add_argument("--link-dir", metavar="DIR", help="keep symlinks DIR/8bitbox-<index> to the current ports "
                        "(default: a folder of the runtime folder that discovery reads)")
    parser.add_argument("--id-base", default="0x8B17000000000000",
                        help="controller ids are this plus 1, 2, ... (default 0x8B17000000000000)")
    parser.add_argument("--positions", default="16,16,16", help="detents of the left, centre, right wheels")
    parser.add_argument("--seconds", type=float, help="stop after this long (default: until quit / Ctrl-C)")
    parser.add_argument("--seed", type=int, help="seed for the fault generators")
    parser.add_argument("--trace", metavar="FILE",
                        help="write every frame the firmwares send (before faults) as JSON lines "
                             "{t: time.monotonic() just after the write, index, frame: hex}")
    return parser


def _check_link_dir(folder: Path) -> None:
    """``--link-dir``: a folder (made if missing) where symlinks can be written; ValueError."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise ValueError(f"--link-dir {folder}: exists and is not a folder") from None
    except OSError as exc:
        raise ValueError(f"--link-dir {folder}: cannot be made: {exc.strerror or exc}") from None
    if not folder.is_dir():
        raise ValueError(f"--link-dir {folder}: exists and is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"--link-dir {folder}: not writable")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return run(args)


def run(args: argparse.Namespace) -> int:
    try:
        if not 1 <= args.controllers <= 64:
            raise ValueError("--controllers must be 1..64")
        positions = tuple(int(p) for p in args.positions.split(","))
        if len(positions) != 3 or not all(2 <= p <= 16 for p in positions):
            raise ValueError("--positions: three numbers 2..16, e.g. 16,16,16")
        try:
            base = int(args.id_base, 0)
        except ValueError:
            raise ValueError(f"--id-base: expected a whole number (decimal or 0x-hex), got {args.id_base!r}") from None
        if not 0 <= base <= MAX_ID - args.controllers:
            raise ValueError(f"--id-base: ids are 64-bit, so it must be 0..{MAX_ID - args.controllers:#x} for "
                             f"{counted(args.controllers, 'controller', 'controllers')}, got {args.id_base}")
        if args.seconds is not None:
            _bounded(args.seconds, 1e-3, 1e7, "--seconds")
        specs = parse_faults(args.faults, args.controllers)
        script = load_script(args.script) if args.script else []
        link_dir: Path | None = Path(args.link_dir) if args.link_dir else None
        registered = None
        if link_dir is not None:
            _check_link_dir(link_dir)
        else:
            from bitbox.discovery import emulator_dir
            registered = emulator_dir()
            try:
                _check_link_dir(registered)
                link_dir = registered
            except ValueError as exc:               # still usable by its ports, not discovered
                print(f"bitbox emulate: not discoverable ({exc})", file=sys.stderr)
                registered = None
        if args.trace:
            from bitbox.console import refuse_unread_pipe
            refuse_unread_pipe(args.trace)
        trace = open(args.trace, "w", encoding="utf-8") if args.trace else None  # noqa: SIM115
    except (ValueError, FaultSpecError, ConfigError) as exc:
        print(f"bitbox emulate: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"bitbox emulate: --trace {args.trace}: cannot be written: {exc.strerror or exc}", file=sys.stderr)
        return 2

    # The stepping thread and the command reader share the interpreter; hand it over often
    # (Python's 5 ms default would delay commands while a babbler keeps the stepper busy).
    sys.setswitchinterval(min(sys.getswitchinterval(), 0.0005))
    out_lock = threading.Lock()

    def announce(index: int, cid: int, path: str, event: str) -> None:
        entry: dict[str, Any] = {"controller": cid, "index": index, "port": path}
        if event != "connected":
            entry["event"] = event
        with out_lock:
            print(json.dumps(entry), flush=True)

    started = False
    pending: list[tuple] = []

    def on_port(*a: Any) -> None:                  # buffer until every first line is out
        (announce(*a) if started else pending.append(a))

    on_frame = None
    if trace is not None:
        def on_frame(index: int, frame: bytes, t: float) -> None:
            trace.write(f'{{"t": {t:.7f}, "index": {index}, "frame": "{frame.hex()}"}}\n')

    emu = Emulator(args.controllers, faults=specs, script=script,
                   ids=[base + i + 1 for i in range(args.controllers)], positions=positions,
                   link_dir=link_dir, seed=args.seed, on_port=on_port, on_frame=on_frame)
    for a in pending:
        announce(*a)
    started = True
    emu.start()
    print(f"bitbox emulate: {counted(args.controllers, 'controller', 'controllers')} running; type 'help' for commands, "
          f"Ctrl-C to stop", file=sys.stderr, flush=True)
    deadline = time.monotonic() + args.seconds if args.seconds else None

    def terminated(*_: Any) -> None:               # SIGTERM stops it as Ctrl-C does: links removed
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGTERM, terminated)
    except ValueError:                             # not the main thread (run in-process by a test)
        pass
    try:
        # Lines are split here from raw reads: select() on sys.stdin would not see lines
        # already sitting in its buffer, and commands would wait for the next keystroke.
        fd = sys.stdin.fileno() if sys.stdin is not None and not sys.stdin.closed else None
        pending_input = b""
        running = True
        while running:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            wait = min(0.2, left) if left is not None else 0.2
            if fd is None:
                time.sleep(wait)
                continue
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                continue
            chunk = os.read(fd, 4096)
            if not chunk:                          # end of input: keep running (Ctrl-C stops)
                fd = None
                chunk = b"\n"
            pending_input += chunk
            *lines, pending_input = pending_input.split(b"\n")
            for line in lines:
                if not _command(emu, line.decode("utf-8", errors="replace")):
                    running = False
                    break
    except KeyboardInterrupt:
        pass
    finally:
        emu.stop()
        if registered is not None:
            try:
                registered.rmdir()
            except OSError:
                pass
        if trace is not None:
            trace.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
