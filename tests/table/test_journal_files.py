"""Issue 13, journal and files: tampered results, wrong values, a full disk, files that are not
ours, --snapshots checked first, SIGTERM. Real SQLite files, real `outspeed` subprocesses."""
from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bitbox.table import journal as J
from bitbox.table.journal import Journal, JournalError, replay
from outspeed.session import apply_input
from bitbox.i18n import counted
from tests.signalling import default_signals

# Its module fixture (real games, real runs) is made once: under pytest-xdist the file runs on one worker.
pytestmark = pytest.mark.xdist_group("journal-files")

OUTSPEED = [sys.executable, "-m", "outspeed.cli"]
GAME = ["play", "--headless", "--players", "3", "--seed", "12", "--size", "320x180", "--speed", "0"]


def env(tmp: Path) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    e.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_DATA_HOME=str(tmp / "data"),
             PYGAME_HIDE_SUPPORT_PROMPT="1")
    return e


def run(args, cwd: Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(OUTSPEED + list(args), cwd=cwd, env=env(cwd), capture_output=True, text=True,
                          timeout=120, **kw)


def one_line_naming(r: subprocess.CompletedProcess, path: Path | str) -> None:
    """Exit 2, one line on stderr naming the file, no traceback."""
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert len(lines) == 1 and str(path) in lines[0], r.stderr
    assert "Traceback" not in r.stderr


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sql(path: Path, *statements: str, args=()) -> None:
    db = sqlite3.connect(path)
    for st in statements:
        db.execute(st, args) if args else db.execute(st)
    db.commit()
    db.close()


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> tuple[Path, str]:
    """A finished 3-player game's journal, written by `outspeed play` (seed 12), and its last line."""
    d = tmp_path_factory.mktemp("finished")
    r = run(GAME + ["--journal", "j.sqlite", "--snapshots", "s"], d)
    assert r.returncode == 0, r.stderr
    return d / "j.sqlite", r.stdout.strip().splitlines()[-1]


def copy_of(src: Path, tmp: Path, name: str = "j.sqlite") -> Path:
    dst = tmp / name
    shutil.copy(src, dst)
    os.chmod(dst, 0o600)
    return dst


def test_an_untouched_journal_passes_history_and_replay(finished, tmp_path):
    path = copy_of(finished[0], tmp_path)
    h = run(["history", "--journal", str(path)], tmp_path)
    assert h.returncode == 0 and h.stderr == "", h.stderr
    r = run(["replay", "1", "--headless", "--journal", str(path)], tmp_path)
    assert r.returncode == 0 and r.stderr == "", r.stderr


# ---------------------------------------------------------------- 8: a finished game edited

def _other_winners(path: Path) -> str:
    db = sqlite3.connect(path)
    players, winners = (json.loads(v) for v in db.execute("SELECT players, winners FROM games").fetchone())
    db.close()
    other = [p for p in players if p not in winners][:1] or players[:1]
    assert other != winners
    return json.dumps(other)


def _edit_last_input(path: Path, same_winners: bool) -> None:
    """Replace the last input by another one the rules accept; with ``same_winners``, one that
    leaves the result as it was (only the final fingerprint can tell)."""
    with Journal(path) as j:
        winners = j.game(1).winners
        last = j.inputs(1)[-1]
        before = j.initial(1)
        for _, before, _ in replay(j, 1, upto=last.seq):     # the game just before its last input
            pass
    candidates = []
    if last.kind == "program":
        for player in last.data["choices"]:
            for path_name in before.current_paths:
                for x in (None, *range(7)):
                    c = {**last.data["choices"], player: [path_name, x]}
                    candidates.append({"choices": c})
    elif last.kind == "bonus":
        for player in last.data["plays"]:
            for token in (None, "nitro", "fuel_tank", "force_field"):
                candidates.append({"plays": {**last.data["plays"], player: token}})
    else:
        candidates += [{"player": last.data["player"], "token": t} for t in ("nitro", "fuel_tank", "flamethrower")]
    for data in candidates:
        if data == last.data:
            continue
        after = before.copy()
        try:
            apply_input(after, last.kind, data)
        except Exception:  # noqa: BLE001 - not a legal alternative: try the next
            continue
        if same_winners != (after.finished and after.state.winners == winners):
            continue
        sql(path, "UPDATE inputs SET data = ? WHERE seq = (SELECT MAX(seq) FROM inputs)",
            args=(json.dumps(data, sort_keys=True),))
        return
    raise AssertionError("no legal alternative to the last input")


TAMPER = {
    "winners changed": lambda p: sql(p, "UPDATE games SET winners = ?", args=(_other_winners(p),)),
    "last input changed, other winners": lambda p: _edit_last_input(p, False),
    "last input changed, same winners": lambda p: _edit_last_input(p, True),
    "final input deleted": lambda p: sql(p, "DELETE FROM inputs WHERE seq = (SELECT MAX(seq) FROM inputs)"),
    "seed column changed": lambda p: sql(p, "UPDATE games SET seed = seed + 1"),
}


@pytest.mark.parametrize("what", list(TAMPER))
def test_an_edited_finished_game_is_refused_by_history_and_replay(finished, tmp_path, what):
    path = copy_of(finished[0], tmp_path)
    TAMPER[what](path)
    before = digest(path)
    for cmd in (["history"], ["replay", "1", "--headless"], ["replay", "--headless"]):
        r = run(cmd + ["--journal", str(path)], tmp_path)
        one_line_naming(r, path)
        assert "altered" in r.stderr or "does not replay" in r.stderr or "cannot be applied" in r.stderr
        assert "Winner" not in r.stdout                     # no result shown from a tampered game
    assert digest(path) == before                           # left untouched


# ---------------------------------------------------------------- 9: well-formed JSON, wrong values

def _unfinished(src: Path, tmp: Path) -> Path:
    path = copy_of(src, tmp)
    sql(path, "DELETE FROM inputs WHERE seq >= 6", "UPDATE games SET status = 'playing', winners = NULL, final = NULL")
    return path


def _settings(change):
    def edit(p: Path) -> None:
        db = sqlite3.connect(p)
        s = json.loads(db.execute("SELECT settings FROM games").fetchone()[0])
        change(s)
        db.execute("UPDATE games SET settings = ?", (json.dumps(s),))
        db.commit()
        db.close()
    return edit


DEEP = "[" * 200_000 + "]" * 200_000
WRONG = {
    "winners as numbers": lambda p: sql(p, "UPDATE games SET winners = '[1, 2]'"),
    "an unknown language": _settings(lambda s: s.update(lang="klingon")),
    "an unknown bot": _settings(lambda s: s.update(bot="skynet")),
    "a seat without its kind": _settings(lambda s: s["seats"][0].pop("kind")),
    "deeply nested settings": lambda p: sql(p, "UPDATE games SET settings = ?", args=(DEEP,)),
    "a deeply nested input": lambda p: sql(p, "UPDATE inputs SET data = ? WHERE seq = 2", args=(DEEP,)),
    "a deeply nested initial state": lambda p: sql(p, "UPDATE games SET initial = ?", args=(DEEP,)),
}


@pytest.mark.parametrize("what", list(WRONG))
def test_wrong_values_get_one_line_in_history_replay_and_resume(finished, tmp_path, what):
    path = _unfinished(finished[0], tmp_path)
    WRONG[what](path)
    for cmd in (["history"], ["replay", "1", "--headless"],
                ["play", "--headless", "--resume", "--snapshots", "s", "--size", "320x180"]):
        r = run(cmd + ["--journal", str(path)], tmp_path)
        one_line_naming(r, path)


# ---------------------------------------------------------------- 11: files that are not our journal

def test_history_on_files_that_are_not_journals_changes_nothing(finished, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\n" * 50)
    os.chmod(notes, 0o644)
    link = tmp_path / "link.sqlite"
    link.symlink_to(notes)
    other = tmp_path / "other.sqlite"
    sql(other, "CREATE TABLE recipes (name TEXT)")
    os.chmod(other, 0o644)
    empty = tmp_path / "empty.sqlite"
    empty.touch(mode=0o644)
    os.chmod(empty, 0o644)
    for target, shown in ((notes, notes), (link, link), (other, other), (empty, empty)):
        real = Path(os.path.realpath(target))
        before = (digest(real), stat.S_IMODE(real.stat().st_mode))
        for cmd in (["history"], ["replay", "--headless"]):
            r = run(cmd + ["--journal", str(shown)], tmp_path)
            one_line_naming(r, shown)
            assert "was left untouched" in r.stderr or "not an Outspeed journal" in r.stderr
            assert (digest(real), stat.S_IMODE(real.stat().st_mode)) == before
    assert link.is_symlink()


def test_a_journal_whose_schema_text_is_damaged_is_one_line_and_unchanged(finished, tmp_path):
    """A byte of the schema's SQL overwritten with one that is not UTF-8 text: SQLite's error
    quotes it, which reached Python as a UnicodeDecodeError traceback (found by the reliability
    campaign's random corruptions)."""
    path = copy_of(finished[0], tmp_path)
    data = path.read_bytes()
    at = data.find(b"CREATE TABLE inputs")
    assert at > 0
    path.write_bytes(data[:at + 6] + b"\xce" + data[at + 7:])
    before = digest(path)
    for cmd in (["history"], ["replay", "1", "--headless"],
                ["play", "--headless", "--resume", "--snapshots", "s", "--size", "320x180"]):
        r = run(cmd + ["--journal", str(path)], tmp_path)
        one_line_naming(r, path)
        assert "not an Outspeed journal" in r.stderr and "schema is damaged" in r.stderr
        assert digest(path) == before


def test_our_journal_readable_by_others_is_made_private_with_a_notice(finished, tmp_path):
    path = copy_of(finished[0], tmp_path)
    os.chmod(path, 0o644)
    r = run(["history", "--journal", str(path)], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "readable by other users" not in r.stdout        # a status line: stderr, apart from the table
    lines = [line for line in r.stderr.splitlines() if "readable by other users" in line]
    assert len(lines) == 1 and "0600" in lines[0] and str(path) in lines[0]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_journal_of_another_user_is_refused_untouched(finished, tmp_path, monkeypatch):
    path = copy_of(finished[0], tmp_path)
    os.chmod(path, 0o644)
    before = digest(path)
    owner = path.stat().st_uid
    monkeypatch.setattr(J.os, "getuid", lambda: owner + 1)     # we are someone else
    for create in (True, False):
        with pytest.raises(JournalError, match="belongs to another user") as err:
            Journal(path, create=create)
        assert str(path) in str(err.value)
    assert digest(path) == before and stat.S_IMODE(path.stat().st_mode) == 0o644


# ---------------------------------------------------------------- 10: a full disk during COMMIT

def _limit_file_size(limit: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_a_full_disk_during_commit_is_one_line_and_loses_nothing(tmp_path):
    six = GAME[:2] + ["--players", "6"] + GAME[4:]
    ref = run(six + ["--journal", "ref.sqlite", "--snapshots", "s0"], tmp_path)
    assert ref.returncode == 0, ref.stderr
    full = tmp_path / "full.sqlite"
    # no file may grow past 32 KiB: the journal (48 KiB at the end of this game) fills it mid-game
    # -q: only the error on stderr (the status lines, e.g. the seats, are not printed)
    r = run(six + ["-q", "--journal", str(full), "--snapshots", "s"], tmp_path,
            preexec_fn=_limit_file_size(32 * 1024))
    one_line_naming(r, full)
    assert "cannot write" in r.stderr
    db = sqlite3.connect(full)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    kept = db.execute("SELECT seq, kind, data FROM inputs ORDER BY seq").fetchall()
    db.close()
    rdb = sqlite3.connect(tmp_path / "ref.sqlite")
    all_inputs = rdb.execute("SELECT seq, kind, data FROM inputs ORDER BY seq").fetchall()
    rdb.close()
    assert 0 < len(kept) < len(all_inputs) and kept == all_inputs[: len(kept)]
    # with room again, the game continues where it stopped and ends as the uninterrupted one
    res = run(["play", "--headless", "--resume", "--journal", str(full), "--snapshots", "s2", "--size", "320x180"],
              tmp_path)
    assert res.returncode == 0, res.stderr
    assert f"{counted(len(kept), 'input', 'inputs')} replayed" in res.stderr
    assert res.stdout.strip().splitlines()[-1] == ref.stdout.strip().splitlines()[-1]


def test_a_full_disk_when_the_journal_is_created_is_one_line(tmp_path):
    journal = tmp_path / "new.sqlite"
    r = run(GAME + ["-q", "--journal", str(journal), "--snapshots", "s"], tmp_path, preexec_fn=_limit_file_size(2048))
    one_line_naming(r, journal)
    assert "cannot write" in r.stderr


# ---------------------------------------------------------------- 12: --snapshots checked first

@pytest.mark.parametrize("where", ["an existing file", "a folder that cannot be made"])
def test_bad_snapshots_folder_is_refused_before_the_game(tmp_path, where):
    (tmp_path / "taken").write_text("not a folder")
    target = tmp_path / "taken" if where == "an existing file" else tmp_path / "taken" / "pngs"
    journal = tmp_path / "j.sqlite"
    r = run(GAME + ["--journal", str(journal), "--snapshots", str(target)], tmp_path)
    one_line_naming(r, target)
    assert "--snapshots" in r.stderr
    assert not journal.exists()                         # no game was started
    r = run(["replay", "--headless", "--journal", str(journal), "--snapshots", str(target)], tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr


# ---------------------------------------------------------------- 17: SIGTERM on a headless table

def _count(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return db.execute("SELECT COUNT(*) FROM inputs").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return 0


@pytest.mark.parametrize("sig,code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_sigterm_stops_a_headless_game_cleanly_and_resume_continues(finished, tmp_path, sig, code):
    path = tmp_path / "t.sqlite"
    proc = subprocess.Popen(OUTSPEED + GAME[:-1] + ["8", "--journal", str(path), "--snapshots", "s"], cwd=tmp_path,
                            env=env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_signals)     # SIGINT reaches it however the suite was started
    deadline = time.monotonic() + 60
    while _count(path) < 5 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "the game ended before the signal"
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert "Traceback" not in err and "outspeed play:" not in err
    assert err.strip().splitlines()[-1].startswith("game 1 saved: `outspeed play --resume")
    kept = _count(path)
    res = run(["play", "--headless", "--resume", "--journal", str(path), "--snapshots", "s2", "--size", "320x180"],
              tmp_path)
    assert res.returncode == 0, res.stderr
    assert f"{counted(kept, 'input', 'inputs')} replayed" in res.stderr
    assert res.stdout.strip().splitlines()[-1] == finished[1]
