"""Audit counters per controller id kept in the journal (bitbox.table.audit, `bitbox audit`):
the referee counts locks, refusals and losses; the play flow writes them, with the hub's
frames and bad frames, when a game ends or stops; `bitbox audit` sums them by controller id.
Real journals, real games (headless subprocesses with the hub's simulated controllers, and an
emulated controller on a pseudo-terminal), the old journal of test_journal_compat."""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bitbox import exitcodes
from bitbox.table.journal import SCHEMA_VERSION, Journal
from bitbox.table.referee import Pace
from bitbox.table.seating import SeatPlan
from bitbox.testing import FakeHub

from .test_cli import env_without_display
from .test_journal_compat import DATA
from .test_referee_loop import Game, Journal as FakeJournal, PickReferee, pump

BITBOX = [sys.executable, "-m", "bitbox.cli"]


def _run(command: list[str], tmp_path: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=tmp_path, env=env_without_display(tmp_path), capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def _play(game: str, tmp_path: Path, journal: str, *extra: str) -> subprocess.CompletedProcess:
    return _run([sys.executable, "-m", f"{game}.cli", "play", "--headless", "--speed", "0", "--journal", journal,
                 "--snapshots", "s", "--max-seconds", "60", *extra], tmp_path)


def _audit(tmp_path: Path, journal: str) -> list[dict]:
    done = _run([*BITBOX, "audit", "--journal", journal, "--json"], tmp_path)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def _games(path: Path) -> int:
    if not path.exists():
        return 0
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:              # not made yet
        return 0
    finally:
        db.close()


def _tables(path: Path) -> set[str]:
    db = sqlite3.connect(str(path))
    try:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        db.close()


def test_the_referee_counts_locks_refusals_and_losses():
    hub = FakeHub()
    a, b = hub.add_sim(2)
    holder: list = []
    r = PickReferee(Game(), [SeatPlan("ann", 0), SeatPlan("bob", 1)], journal=FakeJournal(holder), pace=Pace.instant())
    holder.append(r)
    pump(hub, r)
    b.set(left=9, locked=True)                    # refused
    pump(hub, r)
    b.set(locked=True)                            # still closed: not a new lock
    b.set(locked=False)
    b.set(left=4, locked=True)
    a.unplug()
    pump(hub, r)
    a.replug()
    a.set(left=2, locked=True)
    pump(hub, r)
    ann, bob = r.ctl["ann"], r.ctl["bob"]
    assert (ann.locks, ann.refusals, ann.losses) == (1, 0, 1)
    assert (bob.locks, bob.refusals, bob.losses) == (2, 1, 0)


def test_every_game_keeps_its_controllers_counters_and_bitbox_audit_sums_them(tmp_path):
    for _ in range(2):
        done = _play("lastonealive", tmp_path, "j.sqlite", "--players", "2", "--seed", "5")
        assert done.returncode == 0, done.stderr
    rows = _audit(tmp_path, "j.sqlite")
    db = sqlite3.connect(str(tmp_path / "j.sqlite"))
    per_game = db.execute("SELECT game, COUNT(*) FROM controller_audit GROUP BY game").fetchall()
    db.close()
    assert per_game == [(1, 2), (2, 2)]           # one row per controller per game
    assert [r["controller"] for r in rows] == ["0x5eed000000000001", "0x5eed000000000002"]
    for r in rows:                                # the bots' simulated controllers
        assert (r["kind"], r["games"], r["refusals"], r["bad_frames"], r["losses"]) == ("bot", 2, 0, 0, 0)
        assert r["frames"] > r["locks"] > 0
    # (a bot opens and closes its lock at once: the hub may merge the two, so a bot's locks
    # are the closings the table saw, not its inputs; an emulated controller's are exact, below)
    text = _run([*BITBOX, "audit", "--journal", "j.sqlite"], tmp_path)
    lines = text.stdout.splitlines()
    assert text.returncode == 0 and lines[0].split()[:4] == ["controller", "kind", "games", "locks"]
    assert lines[1].split()[:3] == ["0x5eed000000000001", "bot", "2"] and len(lines) == 3


@pytest.mark.skipif(not sys.platform.startswith(("linux", "darwin")), reason="pseudo-terminals need POSIX")
def test_a_stopped_game_keeps_an_emulated_controllers_locks_refusals_bad_frames_and_losses(tmp_path):
    import threading
    import time

    import firmware_protocol as fp
    from bitbox_tools.emulate import Emulator, emulator_controller_id
    locks_sent: list[bool] = []                   # the lock of every State the firmware put on the line
    decoder, decoding = fp.Decoder(), threading.Lock()

    def on_frame(index: int, frame: bytes, t: float) -> None:
        with decoding:
            locks_sent.extend(m.locked for m in decoder.feed(frame) if isinstance(m, fp.State))

    def turn_lock(closed: bool) -> None:
        """Close or open the lock, and wait (bounded) until the firmware has put a State saying
        so on the line: the game then reads it, in order (garbage bursts end with a delimiter,
        so no State is lost), and no two changes fall within one debounce, whatever the load."""
        n = len(locks_sent)
        emu.set(0, locked=closed)
        deadline = time.monotonic() + 20
        while closed not in locks_sent[n:]:
            assert time.monotonic() < deadline and game.poll() is None, f"the lock never went {closed}: {err()}"
            time.sleep(0.01)

    def err() -> str:
        return "" if game.poll() is None else game.communicate(timeout=10)[1]

    # the game gives up after --max-seconds: long enough for the locks below on a busy machine
    # (each waits for its State, not for a time), and the whole test lasts that long
    with Emulator(1, settle=False, faults="garbage=300", on_frame=on_frame) as emu:
        emu.set(0, 15, 15, 15, False)             # no Outspeed program: every lock here is refused
        game = subprocess.Popen([sys.executable, "-m", "outspeed.cli", "play", "--headless", "--players", "3",
                                 "--bots", "2", "--controller", str(emu.ports[0]), "--lobby", "never", "--speed", "0",
                                 "--journal", "j.sqlite", "--snapshots", "s", "--max-seconds", "8"],
                                cwd=tmp_path, env=env_without_display(tmp_path), stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
        try:
            # until the first prompt asks the controller: the table lights its path lights (all
            # off while it has nothing to answer); a lock closed before would be stale, not refused
            deadline = time.monotonic() + 60
            while not any(emu.controllers[0].lights[:3]) and time.monotonic() < deadline and game.poll() is None:
                time.sleep(0.02)
            assert _games(tmp_path / "j.sqlite") and any(emu.controllers[0].lights[:3]), \
                f"the controller was never asked: {err()}"
            for closed in (True, False) * 3:              # three locks, each refused
                turn_lock(closed)
            emu.disconnect(0, 0)                          # pulled out for good: lost
            _, err_text = game.communicate(timeout=60)
        finally:
            if game.poll() is None:
                game.kill()
                game.communicate(timeout=10)
    assert game.returncode == exitcodes.NO_DEVICE, err_text  # gave up after --max-seconds: a stop, kept
    assert "gave up after 8 s" in err_text
    (row,) = [r for r in _audit(tmp_path, "j.sqlite") if r["kind"] == "controller"]
    assert row["controller"] == f"{emulator_controller_id(0):#018x}"
    assert (row["games"], row["locks"], row["losses"], row["refusals"]) == (1, 3, 1, 3)
    assert row["bad_frames"] > 0 and row["frames"] > 0


def test_an_old_journal_opens_as_it_was_then_gets_the_table_when_played_in(tmp_path):
    path = tmp_path / "old.sqlite"
    shutil.copyfile(DATA, path)
    path.chmod(0o600)
    assert "controller_audit" not in _tables(path)
    done = _run([*BITBOX, "audit", "--journal", "old.sqlite"], tmp_path)
    assert done.returncode == exitcodes.OK and done.stdout == ""
    assert "no controller counters in old.sqlite yet" in done.stderr
    assert "controller_audit" not in _tables(path)            # reading writes nothing
    done = _play("outspeed", tmp_path, "old.sqlite", "--players", "3", "--seed", "5")
    assert done.returncode == 0, done.stderr
    assert "controller_audit" in _tables(path)
    assert [(r["games"], r["kind"]) for r in _audit(tmp_path, "old.sqlite")] == [(1, "bot")] * 3
    with Journal(path) as j:                                  # still the same format, its games intact
        assert j.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 1
        assert [g.id for g in j.games()] == [1, 2, 3]


def test_bitbox_audit_without_a_journal_is_one_line(tmp_path):
    done = _run([*BITBOX, "audit", "--journal", "none.sqlite"], tmp_path)
    assert done.returncode == exitcodes.USAGE
    assert done.stderr.strip().splitlines() == ["bitbox audit: none.sqlite: no journal here (no game has been "
                                                "played with it)"]
    assert not os.path.exists(tmp_path / "none.sqlite")
    done = _run([*BITBOX, "audit"], tmp_path)                # the default journal, none yet: nothing to say
    assert done.returncode == exitcodes.OK and done.stdout == ""
    assert done.stderr.startswith("bitbox audit: no controller counters yet (no game has been played with ")
    assert not (tmp_path / "data").exists()
