"""``bounds``: buffers and queues under input that never ends, never delimits, or floods."""
from __future__ import annotations

import dataclasses
import os
import random
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .core import Row, _content, _journal_inputs
from .journals import base_journals
from .rogues import _DeafPort


def _peak(fn: Callable[[], Any]) -> tuple[Any, int]:
    import tracemalloc
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        result = fn()
        return result, tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def bound_decoder(megabytes: int, seed: int = 5) -> dict[str, Any]:
    """The host decoder fed ``megabytes`` of garbage, then as much never-delimited input."""
    import firmware_protocol as fp
    rng = random.Random(seed)
    block = rng.randbytes(1 << 20)
    nonzero = block.replace(b"\x00", b"\x01")
    d = fp.Decoder()
    worst = 0

    def feed(data: bytes) -> int:
        nonlocal worst
        for _ in range(megabytes):
            for i in range(0, len(data), 4096):
                d.feed(data[i:i + 4096])
                if d.pending > worst:
                    worst = d.pending
        return worst

    _, peak_garbage = _peak(lambda: feed(block))
    _, peak_open = _peak(lambda: feed(nonzero))
    one = fp.Decoder()
    _, peak_one = _peak(lambda: one.feed(nonzero * 8))
    return {"fed_bytes": 2 * megabytes << 20, "pending_max": worst, "peak_garbage": peak_garbage,
            "peak_undelimited": peak_open, "one_8MB_read_pending": one.pending, "one_8MB_read_bad": one.bad_frames,
            "peak_one_8MB_read": peak_one, "bad_frames": d.bad_frames}


def bound_firmware(megabytes: int, seed: int = 6) -> dict[str, Any]:
    from firmware_protocol.firmware import wire
    rng = random.Random(seed)
    block = rng.randbytes(1 << 20)
    nonzero = block.replace(b"\x00", b"\x01")
    r = wire.FrameReader()
    worst = 0
    for k in range(megabytes):
        data = block if k % 2 else nonzero
        i = 0
        while i < len(data):
            step = rng.choice((1, 13, 62, 63, 64, 200, 4096))
            r.feed(data[i:i + step])
            i += step
            worst = max(worst, len(r._buf))
    return {"fed_bytes": megabytes << 20, "buffer_max": worst, "bad_frames": r.bad_frames}


class _FloodLink(threading.Thread):
    """An in-memory device that says Hello, then writes valid States as fast as it can,
    each different from the last (every one is a change: an event for the game)."""

    def __init__(self, seconds: float, *, new_ids: bool = False) -> None:
        super().__init__(daemon=True)
        import firmware_protocol as fp
        from bitbox.transports.memory import BytePipe, PipeTransport
        self.to_host, self.to_device = BytePipe(1 << 16), BytePipe(1 << 16)
        self.transport = PipeTransport("flood://0", self.to_host, self.to_device)
        self.seconds, self.new_ids = seconds, new_ids
        self.frames = 0
        self.fp = fp

    def run(self) -> None:
        fp = self.fp
        hello = lambda cid: fp.encode(fp.Hello(1, 0, cid, (1, 0, 0), (16, 16, 16), 7))  # noqa: E731
        self.to_host.write(b"\x00" + hello(0xF100D), block=True)
        deadline = time.monotonic() + self.seconds
        seq = 0
        while time.monotonic() < deadline:
            if self.new_ids:
                batch = b"".join(hello(0xF1000000 + seq + k) for k in range(50))
                seq += 50
            else:
                batch = b"".join(fp.encode(fp.State(k & 15, (k >> 4) & 15, 3, bool(k & 1), seq + k))
                                 for k in range(200))
                seq += 200
            try:
                self.to_host.write(batch, block=True)
                self.to_device.read(0)                 # the host's answers: read and forgotten
            except Exception:  # noqa: BLE001 - unplugged by close()
                return
            self.frames += 50 if self.new_ids else 200


def bound_hub(seconds: float) -> dict[str, Any]:
    """A hub nobody polls for ``seconds`` while a device floods it with changing States; then
    a device announcing a new controller id in every Hello."""
    import gc

    from bitbox.controllers import ControllersConfig
    from bitbox.hub import Hub
    out: dict[str, Any] = {}
    for label, new_ids in (("states", False), ("new_ids", True)):
        hub = Hub(config=ControllersConfig())
        flood = _FloodLink(seconds, new_ids=new_ids)
        hub.add_transport(flood.transport)
        gc.collect()
        import tracemalloc
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        with hub:
            flood.start()
            flood.join(seconds + 5)
            time.sleep(0.2)
            used = tracemalloc.get_traced_memory()[0] - base
            events = hub.poll()
            seats = len(hub.seats())
        tracemalloc.stop()
        out[label] = {"frames_sent": flood.frames, "events_queued": len(events), "seats": seats,
                      "memory_growth": used}
    return out


def bound_deaf(seconds: float) -> dict[str, Any]:
    """A device on a pseudo-terminal flooding valid Hellos and never reading the answers,
    beside a simulated controller: the game's calls into the hub must not wait on it."""
    from bitbox.controllers import ControllersConfig
    from bitbox.events import Lost
    from bitbox.hub import Hub
    stop = threading.Event()
    deaf = _DeafPort(0xDEAF, stop)
    hub = Hub(config=ControllersConfig())
    hub.add_sim(1)
    hub.add_url(deaf.path)
    worst = 0.0
    calls = 0
    lost = 0
    with hub:
        hub.poll_until(lambda e: type(e).__name__ == "Connected", 2)
        deaf.start()
        deadline = time.monotonic() + seconds
        k = 0
        while time.monotonic() < deadline:
            t = time.monotonic()
            hub.set_lights(0, True, False, bool(k % 2))
            lost += sum(1 for e in hub.poll() if isinstance(e, Lost) and e.seat == 0)
            worst = max(worst, time.monotonic() - t)
            calls += 1
            k += 1
            time.sleep(0.02)
        links = {l.port: l for l in hub.links()}
    stop.set()
    deaf.join(1)
    os.close(deaf.master)
    return {"hellos": deaf.sent, "calls": calls, "worst_call_s": round(worst, 4), "sim_lost": lost,
            "deaf_bad_frames": links[deaf.path].bad_frames if deaf.path in links else None}


def bound_display(frames: int) -> dict[str, Any]:
    """The table display fed ``frames`` tables, each with new log lines: its caches stay bounded."""
    from outspeed.display import TableDisplay
    from outspeed.display.model import LogEntry, TableView
    from outspeed.rules import Game
    content, _ = _content()
    game = Game.new(["red", "blue", "green"], content.tiles, seed=1, dice=content.dice,
                    token_counts=content.token_counts, markers=content.markers)
    display = TableDisplay(size=(480, 270), lang="en")
    base = TableView.from_public(game.public_view())
    worst = 0
    for k in range(frames):
        log = tuple(LogEntry("rejected", {"reason": f"device {k}-{j}"}) for j in range(40))
        display.render(dataclasses.replace(base, log=log))
        worst = max(worst, len(display._text_cache))
    return {"frames": frames, "text_cache_max": worst}


def journal_growth() -> dict[str, Any]:
    """Bytes of journal per accepted input, from a whole game made by `outspeed play`."""
    with tempfile.TemporaryDirectory() as tmp:
        done, _ = base_journals(Path(tmp))
        n = len(_journal_inputs(done))
        return {"inputs": n, "bytes": done.stat().st_size, "bytes_per_input": done.stat().st_size // max(1, n)}


def bound_session(tries: int) -> dict[str, Any]:
    """A player who keeps locking an illegal choice: the session's log and commands and the
    journal stay bounded (a refused choice is never journaled)."""
    from bitbox.events import Connected, ControllerInfo, WheelsChanged
    from outspeed.display.model import PLAYER_ORDER
    from bitbox.table.journal import Journal
    from outspeed.journaling import RULES
    from outspeed.rules import Game
    from bitbox.table.referee import Pace
    from bitbox.table.seating import SeatPlan
    from .core import session_of
    content, wm = _content()
    names = list(PLAYER_ORDER[:3])
    game = Game.new(names, content.tiles, seed=1, dice=content.dice, token_counts=content.token_counts,
                    markers=content.markers, token_mode="virtual")
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "j.sqlite", RULES)
        record = journal.new_game(game, {})
        s = session_of(game, [SeatPlan(p, i) for i, p in enumerate(names)], wm, journal=record,
                       pace=Pace.instant())
        for i, p in enumerate(names):
            s.handle(Connected(i, ControllerInfo(100 + i, f"x://{i}", (1, 0), "1.0.0", (16, 16, 16)), 0.0))
        s.update(0.0)
        before = record.next_seq
        commands = 0
        for k in range(tries):
            s.handle(WheelsChanged(0, 100, 0, 0, 0, bool(k % 2), 0.0, k))   # the rest stop: refused
            commands += len(s.take_commands())
        size = (Path(tmp) / "j.sqlite").stat().st_size
        rows = record.next_seq - before
        journal.close()
    return {"tries": tries, "log_entries": len(s.log), "log_cap": s.LOG_KEEP, "journal_rows_added": rows,
            "commands_per_try": round(commands / tries, 2), "journal_bytes": size}


def campaign_bounds(garbage_mb: int, firmware_mb: int, flood_s: float) -> list[Row]:
    dec = bound_decoder(garbage_mb)
    fw = bound_firmware(firmware_mb)
    hub = bound_hub(flood_s)
    ses = bound_session(20_000)
    deaf = bound_deaf(flood_s)
    disp = bound_display(300)
    growth = journal_growth()
    rows = []
    ok = dec["pending_max"] <= 63 and dec["peak_garbage"] < 1 << 20 and dec["peak_undelimited"] < 1 << 20 \
        and dec["one_8MB_read_pending"] == 0
    rows.append(Row("Endless input to the host decoder",
                    f"{garbage_mb} MB of random bytes then {garbage_mb} MB without a single 0x00, in 4 KB reads; "
                    f"one 8 MB read without 0x00",
                    f"{dec['fed_bytes'] >> 20} MB", f"unfinished frame held: at most {dec['pending_max']} bytes (spec: "
                    f"63); memory peak {dec['peak_garbage'] // 1024} KB / {dec['peak_undelimited'] // 1024} KB, "
                    f"independent of the amount fed", ok, dec))
    ok = fw["buffer_max"] <= 63
    rows.append(Row("Endless input to the controller firmware",
                    f"{firmware_mb} MB of random and of undelimited bytes into the reference firmware's FrameReader",
                    f"{firmware_mb} MB", f"buffer at most {fw['buffer_max']} bytes", ok, fw))
    s, n = hub["states"], hub["new_ids"]
    ok = s["events_queued"] <= 20_000 and s["memory_growth"] < 16 << 20 and n["seats"] <= 256 \
        and n["memory_growth"] < 16 << 20
    rows.append(Row("Floods while nobody polls the hub",
                    f"for {flood_s:g} s, a device sending valid States as fast as the line takes them, each one a "
                    f"change; then one sending a Hello with a new controller id every time",
                    f"{s['frames_sent']:,} States, {n['frames_sent']:,} Hellos",
                    f"events queued: {s['events_queued']:,} (bounded), memory +{s['memory_growth'] >> 10} KB; "
                    f"seats created: {n['seats']} (bounded), memory +{n['memory_growth'] >> 10} KB", ok, hub))
    ok = deaf["worst_call_s"] < 0.5 and deaf["sim_lost"] == 0
    rows.append(Row("A device that floods Hellos and never reads",
                    f"for {flood_s:g} s, valid Hellos as fast as a pseudo-terminal takes them, the host's answers "
                    f"never read; the game calls set_lights and poll every 20 ms meanwhile",
                    f"{deaf['hellos']:,} Hellos",
                    f"slowest call into the hub {deaf['worst_call_s'] * 1000:.0f} ms over {deaf['calls']} calls; "
                    f"the other controller never lost", ok, deaf))
    ok = ses["log_entries"] <= ses["log_cap"] and ses["journal_rows_added"] == 0
    rows.append(Row("A player locking a refused choice again and again",
                    "the session fed lock/unlock of an illegal choice (in-process)", f"{ses['tries']:,} locks",
                    f"log kept at {ses['log_entries']} entries (cap {ses['log_cap']}), 0 journal rows added, "
                    f"{ses['commands_per_try']} commands per try", ok, ses))
    ok = disp["text_cache_max"] <= 800
    rows.append(Row("The display fed ever new log lines", "tables with 40 new log lines each, rendered",
                    f"{disp['frames']} frames", f"text cache at most {disp['text_cache_max']} surfaces (cap 800); the "
                    f"table shows the last 40 log entries of the session's 300", ok, disp))
    rows.append(Row("Journal growth", "a whole game by `outspeed play`; a refused choice adds nothing (above)",
                    f"{growth['inputs']} inputs", f"{growth['bytes']:,} bytes, about {growth['bytes_per_input']:,} "
                    f"bytes per accepted input (a game has a few dozen)", True, growth))
    return rows
