"""Whole games over emulated controllers (``bitbox emulate`` in its own process), seated with
the console's own seating (:mod:`bitbox.table.seating`) and recorded with :mod:`bitbox.testing`."""
from __future__ import annotations

import io
import json
import math
import random
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from bitbox.testing import RecordingHub

from .core import CampaignError, PY, capture_logs, _check, _content


BOT_MIX = ("lookahead", "greedy", "random")


class EmulatorProcess:
    """``bitbox emulate`` in its own process: ports (symlinked in ``link_dir``), commands on
    its standard input, a trace of every frame its firmwares wrote (before faults)."""

    def __init__(self, n: int, workdir: Path, *, faults: str = "", seed: int = 0,
                 id_base: int | None = None, name: str = "emu") -> None:
        self.n = n
        self.link_dir = workdir / f"{name}-links"
        self.trace = workdir / f"{name}-trace.jsonl"
        self.errlog = workdir / f"{name}-stderr.txt"
        args = [PY, "-m", "bitbox_tools.emulate", "-n", str(n), "--link-dir", str(self.link_dir),
                "--trace", str(self.trace), "--seed", str(seed)]
        if faults:
            args += ["--faults", faults]
        if id_base is not None:
            args += ["--id-base", hex(id_base)]
        self._err = open(self.errlog, "w", encoding="utf-8")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._err,
                                     text=True, bufsize=1)
        self.ids: list[int] = []
        self.reconnects = 0
        #: reconnections done, by controller index (each one the end of a disconnect it did)
        self.reconnected: Counter[int] = Counter()
        self._lock = threading.Lock()
        assert self.proc.stdout is not None and self.proc.stdin is not None   # both are PIPEs
        self._stdout: IO[str] = self.proc.stdout
        self._stdin: IO[str] = self.proc.stdin
        for _ in range(n):
            line = self._stdout.readline()
            if not line:
                self.stop()
                raise CampaignError(f"bitbox emulate did not start: {self.errlog.read_text()[-500:]}")
            self.ids.append(int(json.loads(line)["controller"]))
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        for line in self._stdout:
            if '"reconnected"' in line:
                try:
                    index = int(json.loads(line)["index"])
                except (ValueError, KeyError, TypeError):
                    continue
                with self._lock:
                    self.reconnected[index] += 1
                    self.reconnects += 1

    def reconnections(self, index: int) -> int:
        """How many times controller ``index`` was plugged back in (its "reconnected" lines)."""
        with self._lock:
            return self.reconnected[index]

    def links(self) -> list[str]:
        return [str(self.link_dir / f"8bitbox-{i}") for i in range(self.n)]

    def command(self, text: str) -> None:
        with self._lock:
            if self.proc.poll() is None:
                self._stdin.write(text + "\n")
                self._stdin.flush()

    def status(self) -> list[dict[str, Any]]:
        """The emulator's own counters (frames sent, dropped, bits flipped, ...)."""
        start = self.errlog.stat().st_size
        self.command("status")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            text = self.errlog.read_text(encoding="utf-8", errors="replace")[start:]
            rows = [json.loads(l) for l in text.splitlines() if l.startswith('{"index"')]
            if len(rows) >= self.n:
                return rows[: self.n]
            time.sleep(0.05)
        return []

    def stop(self) -> None:
        try:
            self.command("quit")
            self._stdin.close()
            self.proc.wait(10)
        except Exception:  # noqa: BLE001 - make sure it is gone
            self.proc.kill()
            self.proc.wait()
        self._err.close()

    def sent_states(self) -> dict[int, set[tuple]]:
        """Every State each controller's firmware wrote, as (seq, left, centre, right, locked)."""
        import firmware_protocol as fp
        decoders: dict[int, Any] = {}
        sent: dict[int, set[tuple]] = {i: set() for i in range(self.n)}
        with open(self.trace, encoding="utf-8") as f:
            for line in f:
                entry = json.loads(line)
                i = entry["index"]
                d = decoders.setdefault(i, fp.Decoder())
                for m in d.feed(bytes.fromhex(entry["frame"])):
                    if type(m) is fp.State:
                        sent[i].add((m.seq, m.left, m.centre, m.right, m.locked))
        return sent


class Hand:
    """A person's hand on one emulated controller: only real changes become commands."""

    def __init__(self, emu: EmulatorProcess, index: int) -> None:
        self.emu, self.index = emu, index
        self.state: dict[str, Any] = {"left": 0, "centre": 0, "right": 0, "locked": False}
        self.moves = 0

    def set(self, left: int | None = None, centre: int | None = None, right: int | None = None,
            locked: bool | None = None, **_: Any) -> None:
        words = []
        for key, value in (("left", left), ("centre", centre), ("right", right), ("locked", locked)):
            if value is not None and self.state[key] != value:
                self.state[key] = value
                words.append(f"{key}={int(value)}")
        if words:
            self.moves += 1
            self.emu.command(f"{self.index} " + " ".join(words))


class Chaos:
    """A table-loop driver that breaks the line while the game runs: random disconnects
    (spread over the game by its progress), and controller resets mid-turn.

    Each disconnect is one *cycle* on one controller, and a controller gets a new one only
    once the last is over as the hub and the emulator tell it, not after a guessed delay (on a
    busy machine a command, a reconnection or the hub's reopening can each take longer than
    any fixed margin, and a second pull before the hub had the controller back would be one
    the hub cannot see, or one the emulator ignores: the cable already out): a cycle starts
    on a controller whose seat the hub has connected, and ends when the hub has seen a loss of
    it (a Lost after the pull was asked), the emulator has plugged it back in (its
    "reconnected" line) and the hub has it back. ``missed`` lists the cycles whose loss the
    hub never reported, ``patience`` seconds after the emulator had plugged the controller back
    in (a hub that misses a disconnect); ``open_cycles()`` the ones still running at the end."""

    def __init__(self, emu: EmulatorProcess, index_of: dict[str, int], *, disconnects: int, resets: int,
                 expected_inputs: int, seed: int, events: list[Any], gap: float = 0.12,
                 out: tuple[float, float] = (0.05, 0.35), patience: float = 30.0) -> None:
        self.emu, self.index_of = emu, index_of
        self.disconnects, self.resets = disconnects, resets
        self.expected = max(1, expected_inputs)
        self.rng = random.Random(seed)
        self.gap, self.out, self.patience = gap, out, patience
        self.done_disconnects = 0                              # pulls asked of the emulator
        self.done_resets = 0
        self.reset_points: list[tuple[int, str, str]] = []     # (inputs so far, stage, player)
        self.seen_cycles = 0                                   # ended: lost, plugged back, back
        self.missed: list[dict[str, Any]] = []
        self._events = events                                  # the hub's events as the table polls them
        self._read = 0
        self._index_of_id = {cid: i for i, cid in enumerate(emu.ids)}
        self._connected: dict[int, bool] = {}
        self._pulled: Counter[int] = Counter()                 # pulls asked, by controller index
        self._cycle: dict[int, dict[str, Any]] = {}            # the running cycle of each index
        self._next = 0.0
        self._next_reset = 0.0

    def _follow(self, now: float) -> None:
        """Read the hub's new events and the emulator's reconnections; end the cycles that are over."""
        events = self._events
        while self._read < len(events):
            e = events[self._read]
            self._read += 1
            kind = type(e).__name__
            cid = e.info.controller_id if kind == "Connected" else getattr(e, "controller_id", None)
            i = self._index_of_id.get(cid) if cid is not None else None
            if i is None or kind not in ("Connected", "Back", "Lost"):
                continue
            self._connected[i] = kind != "Lost"
            cycle = self._cycle.get(i)
            if kind == "Lost" and cycle is not None:
                cycle["lost"] = True
        for i, cycle in list(self._cycle.items()):
            plugged_back = self.emu.reconnections(i) >= self._pulled[i]
            if plugged_back and cycle["back_at"] is None:
                cycle["back_at"] = now
            if cycle["lost"] and plugged_back and self._connected.get(i, False):
                del self._cycle[i]
                self.seen_cycles += 1
            elif cycle["back_at"] is not None and not cycle["lost"] and now - cycle["back_at"] > self.patience:
                del self._cycle[i]                             # the hub never said it was lost
                self.missed.append({"index": i, "asked_at": cycle["asked_at"], "seconds": cycle["seconds"]})

    def open_cycles(self) -> int:
        return len(self._cycle)

    def away(self) -> int:
        """Controllers the hub had lost, and not back, at its last event read."""
        return sum(1 for connected in self._connected.values() if not connected)

    def update(self, session: Any, now: float) -> None:
        self._follow(now)
        progress = min(1.0, session.inputs_applied / (0.85 * self.expected))
        target = min(self.disconnects, 1 + math.ceil(self.disconnects * progress))
        if self.done_disconnects < target and now >= self._next and not session.finished:
            free = [i for i in sorted(set(self.index_of.values()))
                    if i not in self._cycle and self._connected.get(i, False)]
            if free:
                i = self.rng.choice(free)
                seconds = self.rng.uniform(*self.out)
                self._cycle[i] = {"asked_at": now, "seconds": seconds, "lost": False, "back_at": None}
                self._pulled[i] += 1
                self.emu.command(f"{i} disconnect {seconds:.3f}")
                self.done_disconnects += 1
                self._next = now + self.rng.expovariate(1.0 / self.gap)
        ready = sorted(p for p, prompt in session.open.items() if prompt.kind == "program" and p in session.answers)
        if (self.done_resets < self.resets and now >= self._next_reset and session.stage == "prompt"
                and 0 < len(ready) < len(session.open) and not session.paused
                and session.inputs_applied >= (self.done_resets + 1) * self.expected / (self.resets + 2)):
            player = self.rng.choice(ready)      # locked in: the reset must not lose it
            i = self.index_of[player]
            if i not in self._cycle and self._connected.get(i, False):
                self.emu.command(f"{i} reset")
                self.done_resets += 1
                self.reset_points.append((session.inputs_applied, "programming", player))
                self._next_reset = now + 0.5


@dataclass
class GameRun:
    players: list[str]
    inputs: list[tuple[str, Any]]
    final: dict[str, Any]
    winners: list[str]
    turns: int
    seconds: float
    events: Counter
    wheel_events: list[Any]
    lines: list[str]
    log: list[str]
    links: list[Any]
    emulator: list[dict[str, Any]]
    chaos: Chaos | None = None
    unverified: list[Any] = field(default_factory=list)
    verified: int = 0
    reconnects: int = 0
    rogues: dict[str, Any] = field(default_factory=dict)
    player_losses: int = 0


def emulated_game(workdir: Path, *, players: int = 6, seed: int = 7, faults: str = "", bot: str = "mixed",
                  chaos: dict[str, Any] | None = None, expected_inputs: int = 40,
                  rogues: Sequence[str] = (), timeout: float = 300.0, token_mode: str = "virtual",
                  name: str = "emu", speed: float = 0.0, rogue_at: int = 2) -> GameRun:
    """One whole game, bots turning the wheels of emulated controllers (another process),
    through pseudo-terminals, pyserial, the hub, the referee session and the table loop."""
    from bitbox.controllers import ControllersConfig
    from bitbox.events import WheelsChanged
    from bitbox.hub import Hub
    from bitbox.table.seating import bind, wait_for
    from outspeed.display import Lang
    from outspeed.display.model import PLAYER_ORDER
    from bitbox.table.journal import Journal
    from outspeed.journaling import RULES
    from outspeed.rules import Game
    from bitbox.table.referee import Pace
    from .core import bot_of, outspeed_loop, session_of
    TableLoop = outspeed_loop()

    from .rogues import RogueProcess          # (rogues builds its campaign on these games)

    content, wm = _content()
    workdir.mkdir(parents=True, exist_ok=True)
    emu = EmulatorProcess(players, workdir, faults=faults, seed=seed, name=name)
    rogue_proc = None
    with capture_logs() as logs:
        hub = Hub(config=ControllersConfig(), reopen_s=0.05)
        try:
            for link in emu.links():
                hub.add_url(link)
            if rogues:
                rogue_proc = RogueProcess(workdir, rogues, clone_id=emu.ids[min(2, players - 1)])
            hub.start()
            rec = RecordingHub(hub)
            connected: dict[int, Any] = {}

            def ours(c: dict[int, Any]) -> int:
                return len([i for i in c.values() if i.controller_id in emu.ids])

            wait_for(rec, 15, connected, [], lambda c: ours(c) >= players)
            _check(ours(connected) == players, f"only {len(connected)} controllers connected: {hub.links()}")
            names = list(PLAYER_ORDER[:players])
            game = Game.new(names, content.tiles, seed=seed, dice=content.dice, token_counts=content.token_counts,
                            markers=content.markers, token_mode=token_mode)
            plans = bind(names, emu.ids[:players], connected)
            journal = Journal(workdir / f"{name}-journal.sqlite", RULES)
            record = journal.new_game(game, {"seats": []})
            lang = Lang("en")
            lines: list[str] = []
            pace = Pace().scaled(speed)
            session = session_of(game, plans, wm, journal=record, pace=pace,
                                 on_event=lambda e: lines.append(lang.event(e.kind, e.data)))
            for e in rec.events:
                session.handle(e)
            index_of = {p: i for i, p in enumerate(names)}
            drivers: list[Any] = []
            for i, p in enumerate(names):
                kind = BOT_MIX[i % len(BOT_MIX)] if bot == "mixed" else bot
                drivers.append(bot_of(p, Hand(emu, i), kind, wm, seed=seed, think=pace.think))
            monkey = None
            if chaos:
                monkey = Chaos(emu, index_of, expected_inputs=expected_inputs, events=rec.events, **chaos)
                drivers.append(monkey)
            if rogue_proc is not None:
                drivers.append(_PlugIn(hub, list(rogue_proc.ports.values()), at_input=rogue_at))
            out = io.StringIO()
            loop = TableLoop(session, rec, drivers, None, lang, headless=True, out=out, snapshots=None,
                             size=(320, 180), max_seconds=timeout)
            t0 = time.monotonic()
            code = loop.run()
            seconds = time.monotonic() - t0
            _check(code == 0 and session.finished,
                   f"the game did not finish in {timeout:g} s (turn {session.game.turn}, stage {session.stage})")
            rec.poll(0.2)
            if monkey is not None:                  # the last pulls: seen to their end (bounded)
                deadline = time.monotonic() + monkey.patience + max(monkey.out)
                monkey.update(session, time.monotonic())
                while monkey.open_cycles() and time.monotonic() < deadline:
                    rec.poll(0.05)
                    monkey.update(session, time.monotonic())
            links = hub.links()
            inputs = [(r.kind, r.data) for r in journal.inputs(record.id)]
            info = journal.game(record.id)
            journal.close()
        finally:
            hub.close()
            if rogue_proc is not None:
                rogue_rows = rogue_proc.stop()
            status = emu.status()
            emu.stop()
    run = GameRun(players=names, inputs=inputs, final=session.game.to_data(), winners=list(session.game.winners),
                  turns=session.game.turn, seconds=seconds,
                  events=Counter(type(e).__name__ for e in rec.events),
                  wheel_events=[e for e in rec.events if isinstance(e, WheelsChanged)], lines=lines,
                  log=list(logs.lines), links=links, emulator=status, chaos=monkey, reconnects=emu.reconnects,
                  player_losses=sum(1 for e in rec.events if type(e).__name__ == "Lost" and e.controller_id in emu.ids))
    _check(info.status == "finished" and info.winners == run.winners, "the journal does not hold the finished game")
    # Every wheel state the hub accepted (hence every lock that led to a reveal) must be a
    # State the firmware really sent: same sequence number, same wheels, same lock.
    sent = emu.sent_states()
    index_by_id = {cid: i for i, cid in enumerate(emu.ids)}
    for e in run.wheel_events:
        idx = index_by_id.get(e.controller_id)
        if idx is None:
            continue
        if (e.seq, e.left, e.centre, e.right, e.locked) in sent[idx]:
            run.verified += 1
        else:
            run.unverified.append(e)
    if rogue_proc is not None:
        run.rogues = {"summary": rogue_rows, "ports": dict(rogue_proc.ports), "ids": dict(rogue_proc.ids)}
    return run


class _PlugIn:
    """Plugs devices into the hub once the game has taken ``at_input`` inputs (mid-game)."""

    def __init__(self, hub: Any, ports: list[str], at_input: int) -> None:
        self.hub, self.ports, self.at = hub, ports, at_input
        self.plugged_at: int | None = None

    def update(self, session: Any, now: float) -> None:
        if self.plugged_at is None and session.inputs_applied >= self.at:
            self.plugged_at = session.inputs_applied
            for port in self.ports:
                self.hub.add_url(port)


def same_game(a: GameRun, b: GameRun) -> list[str]:
    """What differs between two runs of one game (empty: nothing)."""
    diffs = []
    if a.inputs != b.inputs:
        n = next((k for k, (x, y) in enumerate(zip(a.inputs, b.inputs)) if x != y), min(len(a.inputs), len(b.inputs)))
        diffs.append(f"inputs differ from input {n} ({len(a.inputs)} vs {len(b.inputs)} inputs)")
    if a.final != b.final:
        diffs.append("final states differ")
    if a.winners != b.winners:
        diffs.append(f"winners differ: {a.winners} vs {b.winners}")
    return diffs
