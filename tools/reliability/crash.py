"""``crash``: ``outspeed play`` killed (SIGKILL at chosen points), stopped by SIGTERM, or out of
disk, then resumed (``python -m bitbox_tools.reliability kill-run``)."""
from __future__ import annotations

import dataclasses
import os
import random
import signal
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bitbox.i18n import counted

from .core import GAME_MODULES, PY, Row, _check, _game_status, _journal_check, _journal_inputs, _play_env


KILL_KINDS = ("time", "journal", "commit", "apply", "resolution", "finish")

KILL_WHAT = {
    "time": "at a random moment of the game (a timer thread sends SIGKILL)",
    "journal": "inside the SQLite transaction of an input (at a random VM instruction)",
    "commit": "inside the transaction of an input, just before COMMIT",
    "apply": "after an input is committed, before the engine applies it",
    "resolution": "mid-resolution: between two steps of the reveal being shown",
    "finish": "inside the transaction that marks the game finished",
}


def _die(note: Path | None, text: str) -> None:
    if note is not None:
        with open(note, "a", encoding="utf-8") as f:
            f.write(text + "\n")
            f.flush()
            os.fsync(f.fileno())
    os.kill(os.getpid(), signal.SIGKILL)


def kill_run_main(spec: str, note: str | None, play_args: Sequence[str], game: str = "outspeed") -> int:
    """``kill-run``: ``outspeed play`` (or ``lastonealive play`` with ``game``) with a SIGKILL
    armed at the point ``spec`` (``none``, ``time:S``, ``journal:K:M``, ``commit:K``, ``apply:K``,
    ``resolution:K:J`` (Outspeed), ``finish``; K counts inputs from 0). A line saying where it
    died is appended to ``note``."""
    import importlib
    from bitbox.table import journal as J
    game_main = importlib.import_module(GAME_MODULES[game][0]).main

    note_path = Path(note) if note else None
    kind, *args = spec.split(":")
    numbers = [float(a) if "." in a else int(a) for a in args]
    t0 = time.monotonic()
    if kind == "none" and note_path is not None:
        orig_new = J.Journal.new_game

        def new_game(self, *a, **kw):
            rec = orig_new(self, *a, **kw)
            with open(note_path, "a", encoding="utf-8") as f:
                f.write(f"started {time.monotonic() - t0:.4f}\n")
            return rec
        setattr(J.Journal, "new_game", new_game)
        orig_finish = J.GameRecord.finish

        def finish(self, winners, **kw):
            with open(note_path, "a", encoding="utf-8") as f:
                f.write(f"ended {time.monotonic() - t0:.4f}\n")
            return orig_finish(self, winners, **kw)
        setattr(J.GameRecord, "finish", finish)
    elif kind == "time":
        orig_new = J.Journal.new_game

        def new_game(self, *a, **kw):
            rec = orig_new(self, *a, **kw)
            timer = threading.Timer(numbers[0], lambda: _die(note_path, f"time {numbers[0]:.4f}"))
            timer.daemon = True
            timer.start()
            return rec
        setattr(J.Journal, "new_game", new_game)
    elif kind in ("journal", "commit", "apply"):
        orig_record = J.GameRecord.record
        target = numbers[0]

        def record(self, kind_, data, **kw):
            if self.next_seq != target:
                return orig_record(self, kind_, data, **kw)
            db = self.journal.db
            if kind == "journal":
                count = [0]

                def progress() -> int:
                    count[0] += 1
                    if count[0] >= numbers[1]:
                        db.set_progress_handler(None, 0)
                        _die(note_path, f"journal {target} instruction {count[0]}")
                    return 0
                db.set_progress_handler(progress, 1)
                orig_record(self, kind_, data, **kw)
                db.set_progress_handler(None, 0)
                _die(note_path, f"journal {target} after-commit (only {count[0]} instructions)")
            elif kind == "commit":
                db.set_trace_callback(lambda stmt: _die(note_path, f"commit {target}") if stmt == "COMMIT" else None)
                orig_record(self, kind_, data, **kw)
            else:
                orig_record(self, kind_, data, **kw)
                _die(note_path, f"apply {target}")
        setattr(J.GameRecord, "record", record)
    elif kind == "resolution" and game == "outspeed":
        from bitbox.table import session as R
        orig_advance = R.Session._advance_step
        target, step = numbers[0], numbers[1]
        seen = [0]

        def advance(self, now):
            if self.inputs_applied == target + 1 and self.stage == "showing":
                seen[0] += 1
                if seen[0] >= step or not self._steps:
                    _die(note_path, f"resolution {target} step {seen[0]}")
            return orig_advance(self, now)
        setattr(R.Session, "_advance_step", advance)
    elif kind == "mark" and game == "lastonealive":
        from bitbox.table import session as LS        # Last One Alive's table: the console's session
        orig_accept = LS.Session._accept_mark
        target, nth = numbers[0], numbers[1]
        marks = [0]

        def accept_mark(self, *a, **kw):
            result = orig_accept(self, *a, **kw)
            if self.inputs_applied >= target:
                marks[0] += 1
                if marks[0] >= nth:
                    _die(note_path, f"mark {self.inputs_applied} lock {len(self.marks[1]) if self.marks else marks[0]}")
            return result
        setattr(LS.Session, "_accept_mark", accept_mark)
    elif kind == "finish":
        orig_finish = J.GameRecord.finish

        def finish(self, winners, **kw):
            self.journal.db.set_trace_callback(lambda stmt: _die(note_path, "finish") if stmt == "COMMIT" else None)
            return orig_finish(self, winners, **kw)
        setattr(J.GameRecord, "finish", finish)
    elif kind != "none":
        raise SystemExit(f"kill-run: unknown kill point {spec!r}")
    return game_main(list(play_args))


@dataclass
class KillResult:
    spec: str
    hit: str
    inputs_at_kill: int
    journal_ok: bool
    resumed: bool
    same_end: bool
    message: str = ""
    seconds: float = 0.0
    hot_journal: bool = False          # the kill left a rollback journal (it died mid-transaction)


def _resume_args(game: str, journal: Path, workdir: Path) -> list[str]:
    """``GAME play --resume`` of ``journal``, headless (at full speed for Last One Alive)."""
    speed = ["--speed", "0"] if game == "lastonealive" else []
    return [PY, "-m", GAME_MODULES[game][0], "play", "--resume", "--journal", str(journal), "--headless",
            "--snapshots", str(workdir / "s2"), "--size", "320x180", *speed]


def _kill_and_resume(workdir: Path, spec: str, play: list[str], reference: dict[str, Any],
                     game: str = "outspeed") -> KillResult:
    workdir.mkdir(parents=True, exist_ok=True)
    env = _play_env(workdir)
    note = workdir / "note.txt"
    journal = workdir / "journal.sqlite"
    t0 = time.monotonic()
    for _ in range(4):
        killed = subprocess.run([PY, "-m", "bitbox_tools.reliability", "kill-run", "--game", game, "--kill", spec,
                                 "--note", str(note), "--", *play, "--journal", str(journal), "--snapshots", str(workdir / "s1")],
                                cwd=workdir, env=env, capture_output=True, text=True, timeout=120)
        if spec.startswith("time:") and (killed.returncode == 0 or _game_status(journal) == "finished"):
            spec = f"time:{float(spec[5:]) / 2:.4f}"     # this run was faster: the game had ended before
            for leftover in (journal, Path(str(journal) + "-journal"), note):   # the timer; again, earlier
                leftover.unlink(missing_ok=True)
            continue
        break
    hit = note.read_text().strip() if note.exists() else ""
    if killed.returncode != -signal.SIGKILL:
        return KillResult(spec, hit or "not killed", -1, False, False, False,
                          f"exit {killed.returncode} instead of SIGKILL: {killed.stderr[-300:]}")
    # The journal as the kill left it: never a half-applied input.
    side = Path(str(journal) + "-journal")
    hot = side.exists() and side.stat().st_size > 0
    try:
        integrity, inputs, status, _ = _journal_check(journal, game)
        ref_inputs = reference["inputs"]
        journal_ok = (integrity == "ok" and [r[0] for r in inputs] == list(range(len(inputs)))
                      and inputs == ref_inputs[: len(inputs)] and status == "playing")
        message = "" if journal_ok else f"journal after the kill: integrity {integrity}, status {status}, " \
                                        f"{len(inputs)} inputs, prefix {inputs == ref_inputs[: len(inputs)]}"
    except Exception as exc:  # noqa: BLE001 - any failure to read it is a finding
        return KillResult(spec, hit, -1, False, False, False, f"journal unreadable after the kill: {exc!r}")
    what, _, rest = hit.partition(" ")
    expected = {"journal": None, "commit": 0, "apply": 1, "mark": 0}.get(what)
    if expected is not None and len(inputs) != int(rest.split()[0]) + expected:
        journal_ok = False
        message = f"{hit}: {len(inputs)} inputs in the journal"
    if what == "journal" and "instruction" in rest and len(inputs) != int(rest.split()[0]):
        journal_ok = False
        message = f"{hit}: {len(inputs)} inputs in the journal (the killed transaction must roll back)"
    resumed = subprocess.run(_resume_args(game, journal, workdir), cwd=workdir, env=env, capture_output=True, text=True, timeout=120)
    ok_resume = resumed.returncode == 0 and f"{counted(len(inputs), 'input', 'inputs')} replayed" in resumed.stderr \
        and "Traceback" not in resumed.stderr
    same = False
    if ok_resume:
        integrity, final_inputs, status, state = _journal_check(journal, game)
        last = resumed.stdout.strip().splitlines()[-1]
        same = (final_inputs == reference["inputs"] and status == "finished" and state == reference["state"]
                and last == reference["last_line"] and integrity == "ok")
        if not same:
            message = (f"resumed game differs: {len(final_inputs)} inputs vs {len(reference['inputs'])}, status "
                       f"{status}, last line {last!r} vs {reference['last_line']!r}")
    else:
        message = f"resume failed (exit {resumed.returncode}): {resumed.stderr[-400:]}"
    return KillResult(spec, hit, len(inputs), journal_ok, ok_resume, same, message, time.monotonic() - t0, hot)


def crash_reference(workdir: Path, play: list[str], game: str = "outspeed") -> dict[str, Any]:
    """The uninterrupted game (through the same wrapper, nothing armed), with its timing."""
    workdir.mkdir(parents=True, exist_ok=True)
    note = workdir / "note.txt"
    journal = workdir / "journal.sqlite"
    r = subprocess.run([PY, "-m", "bitbox_tools.reliability", "kill-run", "--game", game, "--kill", "none",
                        "--note", str(note), "--", *play, "--journal", str(journal), "--snapshots", str(workdir / "s")],
                       cwd=workdir, env=_play_env(workdir), capture_output=True, text=True, timeout=120)
    _check(r.returncode == 0, f"the reference game failed: {r.stderr[-500:]}")
    times = dict(line.split() for line in note.read_text().splitlines())
    integrity, inputs, status, state = _journal_check(journal, game)
    _check(status == "finished", "the reference game did not finish")
    return {"inputs": inputs, "state": state, "last_line": r.stdout.strip().splitlines()[-1],
            "duration": float(times["ended"]) - float(times["started"]), "journal_bytes": journal.stat().st_size}


def crash_points(n: int, seed: int, inputs: int, duration: float) -> list[str]:
    """``n`` kill points spread over the kinds (about a quarter at random times)."""
    rng = random.Random(seed)
    weights = {"time": 0.28, "journal": 0.2, "commit": 0.14, "apply": 0.12, "resolution": 0.2, "finish": 0.06}
    kinds = [k for k in KILL_KINDS for _ in range(max(1, round(weights[k] * n)))]
    while len(kinds) > n:
        kinds.remove(max(KILL_KINDS, key=lambda k: kinds.count(k) / weights[k]))
    while len(kinds) < n:
        kinds.append("time")
    specs = []
    for kind in kinds:
        k = rng.randrange(inputs)
        if kind == "time":
            specs.append(f"time:{rng.uniform(0.0, duration):.4f}")
        elif kind == "journal":
            specs.append(f"journal:{k}:{rng.randint(1, 40)}")
        elif kind in ("commit", "apply"):
            specs.append(f"{kind}:{k}")
        elif kind == "resolution":
            specs.append(f"resolution:{k}:{rng.randint(1, 12)}")
        else:
            specs.append("finish")
    rng.shuffle(specs)
    return specs


def campaign_crash(workdir: Path, points: int, seed: int, jobs: int = 2, players: int = 5) -> list[Row]:
    from concurrent.futures import ThreadPoolExecutor
    play = ["play", "--headless", "--players", str(players), "--seed", str(seed % 100000), "--size", "320x180"]
    ref = crash_reference(workdir / "reference", play)
    specs = crash_points(points, seed, len(ref["inputs"]), ref["duration"])
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda a: _kill_and_resume(workdir / f"kill-{a[0]:02d}", a[1], play, ref),
                                enumerate(specs)))
    bad = [r for r in results if not (r.journal_ok and r.resumed and r.same_end)]
    by_kind = Counter(r.hit.split(" ")[0] if r.hit else "?" for r in results)
    after_commit = sum(1 for r in results if "after-commit" in r.hit)
    hot = sum(1 for r in results if r.hot_journal)
    outcome = (f"{sum(r.same_end for r in results)}/{len(results)} resumed games ended exactly like the "
               f"uninterrupted one ({len(ref['inputs'])} inputs, same winner, same final state); journal "
               f"consistent after every kill ({hot} kills left a half-written transaction, rolled back by SQLite: "
               f"integrity ok, a prefix of the inputs, no half-applied input); inputs lost: {len(bad)}")
    details = {"kills": [dataclasses.asdict(r) for r in results], "by_kind": dict(by_kind),
               "after_commit": after_commit, "hot_journals": hot, "reference_inputs": len(ref["inputs"]),
               "reference_seconds": ref["duration"]}
    hits = ", ".join(f"{by_kind.get(k, 0)} {k}" for k in KILL_KINDS)
    rows = [Row("Game process killed (SIGKILL), then `outspeed play --resume`",
                f"`kill-run` arms a SIGKILL: {hits} (see below); {players}-player headless game, seed {seed % 100000}",
                f"{len(results)} kill points", outcome if not bad else "; ".join(r.spec + ": " + r.message for r in bad[:5]),
                not bad, details)]
    rows += [stopped_then_resumed(workdir / "sigterm", play, ref, "sigterm"),
             stopped_then_resumed(workdir / "full-disk", play, ref, "full disk")]
    return rows


def _resume_matches(workdir: Path, journal: Path, reference: dict[str, Any]) -> tuple[bool, int, str]:
    """(the resumed game ends as the reference, inputs kept before, a message)."""
    kept = len(_journal_inputs(journal))
    r = subprocess.run([PY, "-m", "outspeed.cli", "play", "--resume", "--journal", str(journal), "--headless",
                        "--snapshots", str(workdir / "s2"), "--size", "320x180"],
                       cwd=workdir, env=_play_env(workdir), capture_output=True, text=True, timeout=120)
    if r.returncode != 0 or "Traceback" in r.stderr:
        return False, kept, f"resume failed (exit {r.returncode}): {r.stderr[-300:]}"
    _, inputs, status, state = _journal_check(journal)
    same = (inputs == reference["inputs"] and status == "finished" and state == reference["state"]
            and r.stdout.strip().splitlines()[-1] == reference["last_line"])
    return same, kept, "" if same else "the resumed game differs from the uninterrupted one"


def stopped_then_resumed(workdir: Path, play: list[str], reference: dict[str, Any], how: str) -> Row:
    """Issue 13: ``sigterm``: `outspeed play` stopped by SIGTERM mid-game (exit 143, no
    traceback); ``full disk``: no file may grow past the finished journal's size less 4 pages,
    so a COMMIT fails (one line, exit 2, no traceback). Then `--resume` with room again."""
    import resource
    workdir.mkdir(parents=True, exist_ok=True)
    journal = workdir / "journal.sqlite"
    # -q: only warnings and errors on stderr (no status lines)
    args = [PY, "-m", "outspeed.cli", *play, "-q", "--journal", str(journal), "--snapshots", str(workdir / "s1")]
    if how == "sigterm":
        proc = subprocess.Popen(args + ["--speed", "8"], cwd=workdir, env=_play_env(workdir), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            if journal.exists() and _game_status(journal) == "playing" and len(_journal_inputs(journal)) >= 5:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        lines = err.strip().splitlines()
        said = lines[-1] if lines else ""                               # "game 1 saved: ... continues it"
        # "Outspeed: terminated (...)", then how to resume, last (bitbox.table.play): two lines at most
        stopped = proc.returncode == 143 and "Traceback" not in err and len(lines) <= 2 \
            and (len(lines) == 1 or "terminated" in lines[0]) and said.startswith("game ") and "--resume" in said
    else:
        limit = max(8 * 4096, reference["journal_bytes"] - 4 * 4096)
        r = subprocess.run(args, cwd=workdir, env=_play_env(workdir), capture_output=True, text=True, timeout=120,
                           preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)))
        lines = r.stderr.strip().splitlines()
        stopped = r.returncode == 2 and len(lines) == 1 and str(journal) in lines[0] and "Traceback" not in r.stderr
        said = lines[-1] if lines else ""
    same, kept, message = _resume_matches(workdir, journal, reference)
    ok = stopped and same and 0 < kept
    what = ("`outspeed play` stopped by SIGTERM mid-game (headless, at speed 8 after 5 inputs)" if how == "sigterm"
            else "a full disk: no file may grow past the finished journal's size less 4 pages (`RLIMIT_FSIZE`, "
                 "as `ulimit -f`), so a COMMIT fails")
    outcome = (f"{'exit 143, no traceback, how to resume last' if how == 'sigterm' else 'exit 2 with one line'} "
               f"(\"{said[:140]}\"); "
               f"{kept} of {len(reference['inputs'])} inputs kept; `--resume` ended exactly like the uninterrupted game"
               if ok else f"stopped cleanly: {stopped} ({said[:200]}); {message}")
    return Row("Game stopped by SIGTERM, then `outspeed play --resume`" if how == "sigterm"
               else "Disk full while journaling, then `outspeed play --resume`", what, "1 game", outcome, ok,
               {"kept": kept, "message": said})


#: Last One Alive's kill points: the shared ones, and a kill between two locks of one answer.
LOA_KILL_WHAT = {
    "setup": "after a setup token placement is committed (before the engine applies it)",
    "roll": "after a roll is committed, mid-turn",
    "reroll": "after a re-roll (a hero token's answer) is committed, mid-turn",
    "shot": "after one shot of a shooting chain is committed, the next shot still to come",
    "mark": "between two locks of one answer (a hero or flare token marking dice, tokens discarded): "
            "the marks are not journaled yet",
    "journal": KILL_WHAT["journal"],
    "commit": KILL_WHAT["commit"],
    "time": KILL_WHAT["time"],
    "finish": KILL_WHAT["finish"],
}


def loa_crash_points(n: int, seed: int, inputs: Sequence[tuple], duration: float) -> list[tuple[str, str]]:
    """``n`` (moment, spec) kill points of a Last One Alive game whose journaled inputs are
    ``inputs`` (seq, kind, data as stored): the moments of :data:`LOA_KILL_WHAT`, in turn."""
    import json
    rng = random.Random(seed)
    phases = [json.loads(d).get("action", [None])[:2] if k == "answer" else [k, None] for _, k, d in inputs]
    data = [json.loads(d) for _, _, d in inputs]
    at = {
        "setup": [i for i in range(len(inputs)) if phases[i][0] == "side"],
        "roll": [i for i in range(len(inputs)) if phases[i][0] == "dice"],
        "reroll": [i for i in range(len(inputs)) if phases[i] == ["use", "hero"]],
        "shot": [i for i in range(len(inputs) - 1) if phases[i][0] == "shoot" and phases[i + 1][0] == "shoot"
                 and data[i]["action"][2] is not None],
        "mark": [i for i in range(len(inputs)) if phases[i] in (["use", "hero"], ["use", "flare"])
                 or phases[i][0] == "keep"],
    }
    order = list(LOA_KILL_WHAT)
    points: list[tuple[str, str]] = []
    for j in range(n):
        moment = order[j % len(order)]
        if moment in at and not at[moment]:
            moment = "time"
        if moment == "time":
            spec = f"time:{rng.uniform(0.0, duration):.4f}"
        elif moment == "finish":
            spec = "finish"
        elif moment == "journal":
            spec = f"journal:{rng.randrange(len(inputs))}:{rng.randint(1, 40)}"
        elif moment == "commit":
            spec = f"commit:{rng.randrange(len(inputs))}"
        elif moment == "mark":
            spec = f"mark:{rng.choice(at['mark'])}:1"
        else:
            spec = f"apply:{rng.choice(at[moment])}"
        points.append((moment, spec))
    return points


def campaign_crash_loa(workdir: Path, points: int, seed: int, jobs: int = 2, players: int = 4) -> list[Row]:
    """``lastonealive play --headless --speed 0`` (bots) killed by SIGKILL at odd moments of a
    turn, then ``lastonealive play --resume``: each resumed game must end exactly as the
    uninterrupted one with the same seed (same inputs, same winners, same final state)."""
    from concurrent.futures import ThreadPoolExecutor
    game = "lastonealive"
    # careful bots at every seat (not a demo's mix): their turns reach every moment a kill aims at
    play = ["play", "--headless", "--speed", "0", "--players", str(players), "--bots", f"{players}:careful",
            "--seed", str(seed % 100000), "--size", "320x180"]
    ref = crash_reference(workdir / "reference", play, game)
    chosen = loa_crash_points(points, seed, [(r[0], r[1], r[2]) for r in ref["inputs"]], ref["duration"])
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda a: _kill_and_resume(workdir / f"kill-{a[0]:02d}", a[1][1], play, ref, game),
                                enumerate(chosen)))
    bad = [r for r in results if not (r.journal_ok and r.resumed and r.same_end)]
    by_moment = Counter(m for m, _ in chosen)
    hot = sum(1 for r in results if r.hot_journal)
    outcome = (f"{sum(r.same_end for r in results)}/{len(results)} resumed games ended exactly like the "
               f"uninterrupted one ({len(ref['inputs'])} inputs, same winners, same final state, same last line "
               f"{ref['last_line']!r}); journal consistent after every kill ({hot} kills left a half-written "
               f"transaction, rolled back by SQLite); inputs lost: {len(bad)}")
    details = {"kills": [dict(dataclasses.asdict(r), moment=m) for (m, _), r in zip(chosen, results)],
               "by_moment": dict(by_moment), "hot_journals": hot, "reference_inputs": len(ref["inputs"]),
               "reference_seconds": ref["duration"]}
    hits = ", ".join(f"{by_moment.get(k, 0)} {k}" for k in LOA_KILL_WHAT)
    return [Row("Last One Alive killed (SIGKILL) at odd moments of a turn, then `lastonealive play --resume`",
                f"`kill-run --game lastonealive` arms a SIGKILL: {hits} (see below); {players}-player headless bot "
                f"game at --speed 0, seed {seed % 100000}",
                f"{len(results)} kill points",
                outcome if not bad else "; ".join(r.spec + ": " + r.message for r in bad[:5]), not bad, details)]
