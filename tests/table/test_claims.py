"""A game in play is claimed by its table: a second `play --resume` of it is refused in one
line naming the game and who holds it (exit 2, nothing changed), for every game's command; a
claim whose process is gone (SIGKILL) is stale; two tables resuming at the same instant: one
plays, the other gets the line; other writers of the journal (a new game, `import`) still
work. Real subprocesses and real SQLite; every wait bounded."""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bitbox.table.journal import Claim, GameHeld, Journal, _process_identity, claim_alive, this_table

from .journal_fixtures import DATA, FAST, command, env

PY = sys.executable
COMMANDS = {                                                              # each game's `play`
    "outspeed": [*command("outspeed"), "play"],
    "lastonealive": [*command("lastonealive"), "play"],
    "goofspiel": [PY, "-m", "bitbox.cli", "game", "goofspiel", "play"],    # the tutorial game
    "bitbox play": [PY, "-m", "bitbox.cli", "play", "--game", "outspeed"],
}
OUTSPEED = command("outspeed")
TUTORIAL = Path(__file__).resolve().parents[1] / "tutorial"               # goofspiel.py, on the shelf as in its tests


def _env(folder: Path) -> dict[str, str]:
    e = env(folder)
    e.update(BITBOX_GAMES="goofspiel=goofspiel:CARTRIDGE",
             PYTHONPATH=os.pathsep.join(p for p in (str(TUTORIAL), e.get("PYTHONPATH", "")) if p))
    return e


SLOW = ["--headless", "--speed", "40", "--size", "320x180"]     # a table that plays on while the test looks


def _claims(path: Path) -> list[tuple]:
    if not path.exists():                         # the table has not made its journal yet
        return []
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        return [(game, *(json.loads(c)[k] for k in ("pid", "host")))
                for game, c in db.execute("SELECT id, claim FROM games WHERE claim IS NOT NULL ORDER BY id")]
    except sqlite3.OperationalError:              # no journal or no claim yet
        return []
    finally:
        db.close()


def _inputs(path: Path, game: int) -> int:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        return int(db.execute("SELECT COUNT(*) FROM inputs WHERE game = ?", (game,)).fetchone()[0])
    finally:
        db.close()


def _start(cmd: list[str], folder: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(cmd + list(args), cwd=folder, env=_env(folder), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for_claim(path: Path, proc: subprocess.Popen, game: int) -> None:
    deadline = time.monotonic() + 60
    while (game, proc.pid) not in [c[:2] for c in _claims(path)]:
        assert proc.poll() is None, proc.communicate(timeout=10)[1]
        assert time.monotonic() < deadline, "the table never claimed its game"
        time.sleep(0.05)


def _stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> tuple[int, str, str]:
    if proc.poll() is None:
        proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    return proc.returncode, out, err


def _run(cmd: list[str], folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(cmd + list(args), cwd=folder, env=_env(folder), capture_output=True, text=True, timeout=90)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_resume_of_a_game_a_table_is_playing_is_refused_in_one_line(tmp_path, name):
    cmd = COMMANDS[name]
    journal = tmp_path / "j.sqlite"
    table = _start(cmd, tmp_path, *SLOW, "--seed", "3", "--journal", str(journal), "--snapshots", "s")
    try:
        _wait_for_claim(journal, table, 1)
        before = _inputs(journal, 1)
        second = _run(cmd, tmp_path, "--resume", *FAST, "--journal", str(journal), "--snapshots", "s2")
        assert second.returncode == 2, second.stderr
        (line,) = second.stderr.strip().splitlines()
        assert f"game 1 is being played now by another table (pid {table.pid} on {socket.gethostname()}, since " \
            in line, line
        assert f"play --resume --journal {journal}` continues it once that table has stopped" in line and second.stdout == ""
        assert not list(tmp_path.glob("s2/*"))                     # nothing done: no game's snapshots
        assert _claims(journal)[0][:2] == (1, table.pid)           # the claim is still the playing table's
        assert _inputs(journal, 1) >= before                        # the playing table goes on
        assert table.poll() is None
    finally:
        code, _, err = _stop(table)
    assert code == 143, err                                         # stopped: the game saved for --resume
    assert _claims(journal) == []                                   # and its claim gone with it


def test_a_killed_tables_claim_is_stale_and_history_shows_the_game_in_play(tmp_path):
    cmd = OUTSPEED
    journal = tmp_path / "j.sqlite"
    shutil.copyfile(DATA / "outspeed.sqlite", journal)               # game 3 unfinished, bots
    journal.chmod(0o600)
    table = _start(cmd, tmp_path, "play", "--resume", *SLOW, "--journal", str(journal), "--snapshots", "s")
    try:
        _wait_for_claim(journal, table, 3)
        h = _run(cmd, tmp_path, "history", "--journal", str(journal))
        assert h.returncode == 0, h.stderr
        row = h.stdout.splitlines()[3]
        assert row.lstrip().startswith("3 ") and f"being played now (pid {table.pid} on " in row, h.stdout
    finally:
        code, _, _ = _stop(table, signal.SIGKILL)                   # no cleanup at all: the claim stays
    assert code == -signal.SIGKILL
    assert _claims(journal) == [(3, table.pid, socket.gethostname())]
    h = _run(cmd, tmp_path, "history", "--journal", str(journal))
    assert "being played now" not in h.stdout and f"unfinished (outspeed play --resume --journal {journal})" in h.stdout
    res = _run(cmd, tmp_path, "play", "--resume", *FAST, "--journal", str(journal), "--snapshots", "s2")
    assert res.returncode == 0, res.stderr                           # stale: resumed, played to its end
    assert "Resuming game 3" in res.stderr
    assert _claims(journal) == []


def test_two_tables_resuming_at_the_same_instant_one_plays_the_other_gets_the_line(tmp_path):
    cmd = OUTSPEED
    journal = tmp_path / "j.sqlite"
    shutil.copyfile(DATA / "outspeed.sqlite", journal)
    journal.chmod(0o600)
    tables = [_start(cmd, tmp_path, "play", "--resume", *SLOW, "--journal", str(journal), "--snapshots", f"s{i}")
              for i in range(2)]
    try:
        deadline = time.monotonic() + 60
        while all(t.poll() is None for t in tables):
            assert time.monotonic() < deadline, "neither table was refused"
            time.sleep(0.05)
        (loser,) = [t for t in tables if t.poll() is not None]
        (winner,) = [t for t in tables if t is not loser]
        code, out, err = _stop(loser)
        assert code == 2, err
        (line,) = err.strip().splitlines()
        assert f"game 3 is being played now by another table (pid {winner.pid} on " in line \
            or "game 3 changed while it was being resumed" in line, line
        assert winner.poll() is None                                # the other plays on
        _wait_for_claim(journal, winner, 3)
    finally:
        results = [_stop(t) for t in tables]
    assert sorted(r[0] for r in results) == [2, 143]
    assert _claims(journal) == []


def test_a_new_game_and_an_import_work_while_a_table_plays(tmp_path):
    cmd = OUTSPEED
    journal = tmp_path / "j.sqlite"
    table = _start(cmd, tmp_path, "play", *SLOW, "--seed", "3", "--journal", str(journal), "--snapshots", "s")
    try:
        _wait_for_claim(journal, table, 1)
        other = _run(cmd, tmp_path, "play", *FAST, "--seed", "5", "--journal", str(journal), "--snapshots", "s2")
        assert other.returncode == 0, other.stderr                  # another game: game 2, played to its end
        assert "game 2" in other.stderr
        imported = _run(cmd, tmp_path, "import", str(DATA / "outspeed-1.json"), "--journal", str(journal))
        assert imported.returncode == 0, imported.stderr
        assert table.poll() is None and _claims(journal)[0][:2] == (1, table.pid)
    finally:
        code, _, err = _stop(table)
    assert code == 143, err
    with Journal(journal, create=False) as j:
        assert [(g.id, g.status) for g in j.games()] == [(1, "playing"), (2, "finished"), (3, "finished")]
        assert j.claims() == {}


def _dead_pid() -> int:
    p = subprocess.Popen([PY, "-c", "pass"])
    p.wait(timeout=30)
    return p.pid


def test_which_claims_are_alive():
    pid, host, process = this_table()
    since = "2026-11-27T00:00:00+00:00"
    assert claim_alive(Claim(1, pid, host, process, since))
    assert not claim_alive(Claim(1, _dead_pid(), host, "", since))               # the process is gone
    if process:                                                                  # the pid now another process's
        assert not claim_alive(Claim(1, pid, host, "another-boot:12", since))
    assert claim_alive(Claim(1, _dead_pid(), host + "-elsewhere", "", since))    # another computer: cannot tell
    assert _process_identity(0) is None and _process_identity(-5) is None


def test_a_table_that_ended_unreaped_holds_nothing():          # Linux: its state is read in /proc
    ended = subprocess.Popen([PY, "-c", "pass"])
    try:
        stat = Path(f"/proc/{ended.pid}/stat")
        deadline = time.monotonic() + 30                   # ended, its parent (this test) not yet told: a zombie
        while stat.read_text().rsplit(")", 1)[1].split()[0] != "Z":
            assert time.monotonic() < deadline, "the process never ended"
            time.sleep(0.02)
        _, host, _ = this_table()
        assert not claim_alive(Claim(1, ended.pid, host, "", "2026-11-27T00:00:00+00:00"))
    finally:
        ended.wait(timeout=30)


def _unfinished_journal(tmp_path: Path) -> Path:
    path = tmp_path / "j.sqlite"
    shutil.copyfile(DATA / "outspeed.sqlite", path)
    path.chmod(0o600)
    with Journal(path) as j:                                   # a second unfinished game: game 4, a copy of 3
        j.db.execute("INSERT INTO games (created, seed, players, settings, initial, status) SELECT created, seed, "
                     "players, settings, initial, status FROM games WHERE id = 3")
        j.db.execute("INSERT INTO inputs SELECT 4, seq, turn, phase, kind, data, state, at FROM inputs WHERE game = 3")
    return path


def _hold(path: Path, game: int, pid: int, process: str = "") -> None:
    """Game ``game`` claimed by process ``pid`` (as its table would have claimed it)."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        if "claim" not in {r[1] for r in db.execute("PRAGMA table_info(games)")}:    # a journal older than claims
            db.execute("ALTER TABLE games ADD COLUMN claim TEXT")
        db.execute("UPDATE games SET claim = ? WHERE id = ?",
                   (json.dumps({"pid": pid, "host": socket.gethostname(), "process": process,
                                "since": "2026-11-27T00:31:05+01:00"}), game))
    finally:
        db.close()


def test_resume_takes_the_last_game_no_table_plays_and_a_claim_is_released_only_by_its_table(tmp_path):
    from outspeed.journaling import RULES
    path = _unfinished_journal(tmp_path)
    sleeper = subprocess.Popen([PY, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        _hold(path, 4, sleeper.pid, _process_identity(sleeper.pid) or "")
        with Journal(path, RULES) as j:
            assert j.resumable().id == 3                       # 4 is being played: 3 is the one to resume
            assert set(j.claims()) == {4}
            j.claim(3, 17)
            assert set(j.claims()) == {3, 4}
            info: Any = None
            with pytest.raises(GameHeld) as held:              # both in play now: refused, naming the last
                info = j.resumable()
            assert info is None
            assert f"game 4 is being played now by another table (pid {sleeper.pid} on " in str(held.value)
            assert "since 2026-11-27 00:31:05)" in str(held.value)
            with pytest.raises(GameHeld):                      # our own claim holds too (one table per game)
                j.claim(3, 17)
            j.release(4)                                       # not ours: left as it is
            j.release(3)
            assert set(j.claims()) == {4}
            with pytest.raises(GameHeld, match="game 3 changed while it was being resumed"):
                j.claim(3, 16)                                 # an input was added since it was rebuilt
            assert set(j.claims()) == {4}
    finally:
        sleeper.stdin.close()
        sleeper.wait(timeout=30)
    with Journal(path, RULES) as j:                            # its process gone: stale, 4 resumes again
        assert j.claims() == {} and j.resumable().id == 4
        j.claim(4, 17)
        assert json.loads(j.db.execute("SELECT claim FROM games WHERE id = 4").fetchone()[0])["pid"] == this_table()[0]
