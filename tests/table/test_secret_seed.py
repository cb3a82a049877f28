"""Issue 13, secret 1: without --seed a game's seed is a 128-bit secret from the OS, never
shown before the game ends (printed lines, on-screen log, history, replay, resume), journaled,
and shown by history and replay once the game is over. Real subprocesses and SQLite files."""
from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from bitbox.table.journal import Journal, verify
from outspeed.journaling import RULES
from outspeed.rules import Game
from bitbox.table.play import SECRET_SEED_BITS
from bitbox.table.play import new_seed as _new_seed

from .helpers import CONTENT, Table
from .test_journal_files import GAME, OUTSPEED, _count, env, run

BOTS = ("red", "blue", "green")


def _seed_of(path: Path) -> int:
    db = sqlite3.connect(path)
    initial = json.loads(db.execute("SELECT initial FROM games WHERE id = 1").fetchone()[0])
    db.close()
    return initial["seed"]


def _shown(seed: int, text: str) -> bool:
    return str(seed) in text or hex(seed)[2:] in text.lower()


def test_a_secret_seed_is_never_shown_before_the_end_and_shown_after(tmp_path):
    path = tmp_path / "j.sqlite"
    no_seed = [a for a in GAME if a not in ("--seed", "12")]
    proc = subprocess.Popen(OUTSPEED + no_seed[:-1] + ["8", "--journal", str(path), "--snapshots", "s"],
                            cwd=tmp_path, env=env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while _count(path) < 4 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    seed = _seed_of(path)
    assert seed.bit_length() > 64                       # a 128-bit draw: below 2^64 once in 2^64 games
    assert not _shown(seed, out + err)
    assert "new game (its seed stays secret until the end)" in out and "secret seed" in err    # event; status
    # unfinished: history, replay and resume do not show it
    h = run(["history", "--journal", str(path)], tmp_path)
    assert h.returncode == 0 and "(secret until the end)" in h.stdout and not _shown(seed, h.stdout + h.stderr)
    rp = run(["replay", "1", "--headless", "--journal", str(path)], tmp_path)
    assert rp.returncode == 0 and not _shown(seed, rp.stdout + rp.stderr)
    assert "new game (its seed stays secret until the end)" in rp.stdout
    res = run(["play", "--headless", "--resume", "--journal", str(path), "--snapshots", "s2", "--size", "320x180"],
              tmp_path)
    assert res.returncode == 0, res.stderr
    assert not _shown(seed, res.stdout + res.stderr)
    # over: history and replay show it, and it reproduces the game
    h = run(["history", "--journal", str(path)], tmp_path)
    assert h.returncode == 0 and str(seed) in h.stdout
    rp = run(["replay", "1", "--headless", "--journal", str(path)], tmp_path)
    assert rp.returncode == 0 and f"new game, seed {seed}" in rp.stdout


def test_secret_seeds_are_128_bit_os_draws_the_engine_and_journal_keep_exactly(tmp_path):
    seeds = {_new_seed() for _ in range(64)}
    assert len(seeds) == 64 and SECRET_SEED_BITS == 128
    assert max(s.bit_length() for s in seeds) == 128 and min(s.bit_length() for s in seeds) > 100
    big = max(seeds)
    with Journal(tmp_path / "j.sqlite", RULES) as j:
        for s in (big, 2**128 - 1, 7):
            game = Game.new(BOTS, CONTENT.tiles, seed=s, dice=CONTENT.dice, token_counts=CONTENT.token_counts,
                            markers=CONTENT.markers)
            rec = j.new_game(game, {"seed": "secret"})
            t = Table(game, journal=rec, bots=BOTS)
            t.run()
            info = verify(j, rec.id)
            assert info.seed == s and j.initial(rec.id).state.seed == s and info.seed_public
    db = sqlite3.connect(tmp_path / "j.sqlite")
    kinds = db.execute("SELECT typeof(seed) FROM games ORDER BY id").fetchall()
    db.close()
    assert kinds == [("text",), ("text",), ("integer",)]    # a small seed is stored as before
    # the same big seed gives the same game
    a, b = (Game.new(BOTS, CONTENT.tiles, seed=big, dice=CONTENT.dice) for _ in range(2))
    assert a.to_data() == b.to_data()
    c = Game.new(BOTS, CONTENT.tiles, seed=big + 1, dice=CONTENT.dice)
    assert c.to_data()["stack"] != a.to_data()["stack"] or c.to_data()["rng"] != a.to_data()["rng"]


def test_a_journal_of_the_previous_version_still_replays_and_resumes(tmp_path):
    """The previous format: no ``final`` column, no seed kind in the settings, small seeds."""
    ref = run(GAME + ["--journal", "ref.sqlite", "--snapshots", "s0"], tmp_path)
    assert ref.returncode == 0, ref.stderr
    old = tmp_path / "old.sqlite"
    old.write_bytes((tmp_path / "ref.sqlite").read_bytes())
    old.chmod(0o600)
    db = sqlite3.connect(old)
    settings = json.loads(db.execute("SELECT settings FROM games").fetchone()[0])
    settings.pop("seed")
    db.execute("UPDATE games SET settings = ?", (json.dumps(settings, sort_keys=True),))
    db.execute("ALTER TABLE games DROP COLUMN final")
    db.execute("INSERT INTO games (created, seed, players, settings, initial, status) "
               "SELECT created, seed, players, settings, initial, 'playing' FROM games WHERE id = 1")
    db.execute("INSERT INTO inputs SELECT 2, seq, turn, phase, kind, data, state, at FROM inputs "
               "WHERE game = 1 AND seq < 7")
    db.commit()
    db.close()
    h = run(["history", "--journal", str(old)], tmp_path)
    assert h.returncode == 0 and h.stderr == "", h.stderr
    assert "12" in h.stdout.splitlines()[1]                 # the finished game shows its seed
    rp = run(["replay", "1", "--headless", "--journal", str(old)], tmp_path)
    assert rp.returncode == 0 and rp.stdout.strip().splitlines()[-1] == ref.stdout.strip().splitlines()[-1]
    res = run(["play", "--headless", "--resume", "--journal", str(old), "--snapshots", "s", "--size", "320x180"],
              tmp_path)
    assert res.returncode == 0, res.stderr
    assert "7 inputs replayed" in res.stderr
    assert res.stdout.strip().splitlines()[-1] == ref.stdout.strip().splitlines()[-1]
    h = run(["history", "--journal", str(old)], tmp_path)
    assert h.returncode == 0 and h.stdout.count("winner:") == 2
