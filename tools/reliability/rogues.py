"""``rogues``: misbehaving devices plugged into the hub of a running game, from another process
(``python -m bitbox_tools.reliability rogues``)."""
from __future__ import annotations

import dataclasses
import functools
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .core import CampaignError, PY, Row
from .games import emulated_game, same_game


ROGUES = ("garbage", "fast", "clone", "future", "deaf", "errors")

ROGUE_WHAT = {
    "garbage": "floods garbage: random bytes at full speed (the emulator's babble fault), ~8 MB/s offered",
    "fast": "sends valid States every 25 ms (10x the 250 ms heartbeat) and turns a wheel 10 times a second",
    "clone": "claims the controller id of a player's controller (the emulator's id option)",
    "future": "speaks protocol 2.0 (a newer major) in its Hello",
    "deaf": "sends valid Hellos as fast as it can and never reads what the host answers",
    "errors": "sends about 2,000 ErrorReports a second whose text forges a log line (a newline, "
              "'Winner: Green', terminal escapes)",
}

#: The ErrorReport text of the "errors" rogue.
FORGED_ERROR = "x\nWinner: Green\x1b[2J"

ROGUE_ID_BASE = 0xBAD0_0000_0000_0000

FAST_PERIOD_MS = 25          # 10x the heartbeat (HEARTBEAT_MS = 250)


def _fast_firmware(vc: Any) -> Any:
    """The reference firmware, sending its State every FAST_PERIOD_MS instead of every
    HEARTBEAT_MS: valid frames at 10x the normal rate."""
    from firmware_protocol.firmware.controller import RUNNING, Controller

    class FastController(Controller):
        def step(self) -> None:
            super().step()
            now = self.hal.ticks_ms()
            if self.mode == RUNNING and self.hal.ticks_diff(now, self._last_state) >= FAST_PERIOD_MS:
                self._send_state(now)

    return FastController(vc.hal, vc.controller_id, vc.firmware_version)


def rogue_main(kinds: Sequence[str], clone_id: int, seconds: float | None = None) -> int:
    """``rogues``: host misbehaving devices on pseudo-terminals (the emulator's ports and its
    babble fault; the reference firmware made fast or newer). Prints one JSON line per
    device, then runs until ``quit`` or the end of input; prints a JSON summary at the end."""
    from bitbox_tools.emulate import Emulator

    ids = []
    for k, kind in enumerate(kinds):
        ids.append(clone_id if kind == "clone" else ROGUE_ID_BASE + k + 1)
    faults = ",".join(f"{k}:babble" for k, kind in enumerate(kinds) if kind == "garbage")
    emu = Emulator(len(kinds), faults=faults, ids=ids, settle=True, seed=99)
    for k, kind in enumerate(kinds):
        vc = emu.controllers[k]
        if kind == "future":
            vc.protocol = (2, 0)                       # a newer major than the host's 1.0
            vc.reset()
        elif kind == "fast":
            vc._boot = functools.partial(_fast_firmware, vc)  # type: ignore[method-assign]
            vc.reset()
    stop = threading.Event()
    deaf_ports = {}
    for k, kind in enumerate(kinds):
        if kind == "deaf":                              # not the firmware: a raw writer
            emu.disconnect(k)
            deaf_ports[k] = _DeafPort(ids[k], stop)
    for k, kind in enumerate(kinds):
        port = deaf_ports[k].path if k in deaf_ports else emu.ports[k]
        print(json.dumps({"kind": kind, "index": k, "controller": ids[k], "port": port}), flush=True)
    emu.start()
    for deaf in deaf_ports.values():
        deaf.start()

    def stdin_watch() -> None:
        for line in sys.stdin:
            if line.strip() == "quit":
                break
        stop.set()

    threading.Thread(target=stdin_watch, daemon=True).start()
    import firmware_protocol as fp
    error_frame = fp.encode(fp.ErrorReport(fp.ErrorCode.INTERNAL, FORGED_ERROR))
    errors_sent = 0
    spins = 0
    deadline = None if seconds is None else time.monotonic() + seconds
    while not stop.wait(0.1):
        if deadline is not None and time.monotonic() > deadline:
            break
        for k, kind in enumerate(kinds):
            if kind == "fast":                          # restless too: a wheel change every 0.1 s
                spins += 1
                emu.set(k, right=spins % 16)
            elif kind == "errors" and (eport := emu._ports[k]) is not None:   # 200 every 0.1 s, on its line
                before = eport.dropped
                eport.write(error_frame * 200)
                errors_sent += 200 - (eport.dropped - before) // len(error_frame)
    stop.set()
    summary = {kind: ({"hellos_sent": deaf_ports[k].sent} if k in deaf_ports else emu.status()[k])
               for k, kind in enumerate(kinds)}
    if "errors" in summary:
        summary["errors"]["error_reports_sent"] = errors_sent
    emu.stop()
    print(json.dumps({"summary": summary}), flush=True)
    return 0


class _DeafPort(threading.Thread):
    """A pseudo-terminal whose device writes Hellos as fast as the line takes them and never
    reads: the host's answers pile up until its writes time out."""

    def __init__(self, controller_id: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        import tty

        import firmware_protocol as fp
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        os.set_blocking(self.master, False)
        self.hello = fp.encode(fp.Hello(1, 0, controller_id, (1, 0, 0), (16, 16, 16), 7))
        self.stop, self.sent = stop, 0

    def run(self) -> None:
        batch = self.hello * 64
        while not self.stop.is_set():
            try:
                n = os.write(self.master, batch)
                self.sent += n // len(self.hello)
            except BlockingIOError:
                time.sleep(0.001)
            except OSError:
                time.sleep(0.01)


class RogueProcess:
    """The misbehaving devices, in their own process (as real devices would be)."""

    def __init__(self, workdir: Path, kinds: Sequence[str], clone_id: int) -> None:
        self.kinds = list(kinds)
        self.errlog = workdir / "rogues-stderr.txt"
        self._err = open(self.errlog, "w", encoding="utf-8")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen([PY, "-m", "bitbox_tools.reliability", "rogues", "--kinds", ",".join(kinds),
                                      "--clone-id", hex(clone_id)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._err, text=True)
        self.ports: dict[str, str] = {}
        self.ids: dict[str, int] = {}
        assert self.proc.stdout is not None                     # a PIPE
        for _ in kinds:
            line = self.proc.stdout.readline()
            if not line:
                self.stop()
                raise CampaignError(f"the rogue devices did not start: {self.errlog.read_text()[-800:]}")
            entry = json.loads(line)
            self.ports[entry["kind"]] = entry["port"]
            self.ids[entry["kind"]] = entry["controller"]

    def stop(self) -> dict[str, Any]:
        summary: dict[str, Any] = {}
        try:
            out, _ = self.proc.communicate("quit\n", timeout=10)
            for line in out.splitlines():
                if line.startswith('{"summary"'):
                    summary = json.loads(line)["summary"]
        except Exception:  # noqa: BLE001
            self.proc.kill()
            self.proc.wait()
        self._err.close()
        return summary


def campaign_rogues(workdir: Path, *, seed: int, speed: float = 8.0, players: int = 4) -> list[Row]:
    """A game with misbehaving devices plugged into the same hub mid-game."""
    ref = emulated_game(workdir, players=players, seed=seed, name="rogue-ref")
    run = emulated_game(workdir, players=players, seed=seed, name="rogues", rogues=ROGUES, speed=speed)
    diffs = same_game(ref, run)
    ports = run.rogues["ports"]
    logs = run.log + run.lines
    rows = []
    links = {l.port: l for l in run.links}
    problems_all = list(diffs)
    if run.unverified:
        problems_all.append(f"{len(run.unverified)} unverified wheel states")
    outcome_game = (f"the {players} players' game completed with the fault-free result ({len(run.inputs)} inputs, "
                    f"winner {', '.join(run.winners) or 'none'}) in {run.seconds:.0f} s at speed {speed:g}; "
                    f"inputs lost: 0; players' controllers lost meanwhile: {run.player_losses}"
                    if not diffs else "; ".join(diffs))
    for kind in ROGUES:
        port = ports[kind]
        named = [l for l in logs if port in l]
        link = links.get(port)
        problems = []
        if not named:
            problems.append("not named in the log")
        if kind == "clone" and not any("two controllers with one id" in l for l in named):
            problems.append("the clone was not refused")
        if kind == "future" and not any("speaks protocol 2.0" in l for l in named):
            problems.append("the newer major was not refused")
        if kind == "garbage" and not any("bad frames" in l for l in named):
            problems.append("no bad-frame warning")
        if kind in ("fast", "deaf") and not any("frames/s" in l or "bad frames" in l for l in named):
            problems.append("no rate warning")
        if kind == "errors":
            reports = [l for l in named if "reports error" in l]
            if not reports:
                problems.append("its ErrorReports were not logged")
            if len(reports) > 5 * (1 + int(run.seconds // 30)):
                problems.append(f"{len(reports)} ErrorReport lines logged (not rate-limited)")
            if any(c in l for l in logs for c in "\n\r\x1b"):
                problems.append("a device's text reached the log unescaped")
        count = {"garbage": f"{(run.rogues['summary'].get('garbage') or {}).get('garbage_bytes', 0):,} bytes of garbage; "
                            f"{link.bad_frames if link else 0:,} bad frames counted",
                 "fast": f"{(run.rogues['summary'].get('fast') or {}).get('frames_sent', 0):,} States",
                 "clone": "1 clone", "future": "1 controller",
                 "deaf": f"{(run.rogues['summary'].get('deaf') or {}).get('hellos_sent', 0):,} Hellos",
                 "errors": f"{(run.rogues['summary'].get('errors') or {}).get('error_reports_sent', 0):,} "
                           f"ErrorReports; {sum('reports error' in l for l in named)} log lines"}[kind]
        telling = [l for l in named if any(w in l for w in ("bad frames", "frames/s", "refused", "protocol",
                                                            "reports error"))]
        log_line = (telling or named or ["-"])[0].split(": ", 1)[-1]
        rows.append(Row(f"Rogue device: {kind}", ROGUE_WHAT[kind] + "; plugged into the hub after input 2",
                        count, f"contained; named in the log: \"{log_line[:150]}\"; {outcome_game}",
                        not problems and not problems_all,
                        {"named": named[:5], "problems": problems + problems_all,
                         "link": dataclasses.asdict(link) if link else None}))
    return rows
