"""`outspeed play / history / replay` as a table would run them (subprocesses, headless)."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bitbox.i18n import counted

OUTSPEED = [sys.executable, "-m", "outspeed.cli"]


def env_without_display(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["SDL_AUDIODRIVER"] = "dummy"
    return env


def run(args, tmp_path, timeout=90, **kw):
    return subprocess.run(OUTSPEED + args, cwd=tmp_path, env=env_without_display(tmp_path), capture_output=True,
                          text=True, timeout=timeout, **kw)


def test_play_with_no_screen_and_no_controller_runs_a_headless_bot_demo(tmp_path):
    r = run(["play", "--seed", "5", "--max-seconds", "80"], tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    status = r.stderr.strip().splitlines()          # status lines on stderr, the game's events on stdout
    assert status[0] == "no display found: running headless"
    assert "no controllers found" in r.stderr and "no controllers found" not in r.stdout
    assert lines[-1].startswith(("Winner: ", "No winner"))
    assert "Traceback" not in r.stderr
    # the game's snapshots in a folder of their own, said once
    (folder,) = (tmp_path / "snapshots").iterdir()
    assert folder.name.startswith("outspeed-1-")
    assert f"snapshots of game 1: snapshots/{folder.name}/" in status
    snaps = sorted(p.name for p in folder.iterdir())
    assert snaps[0] == "turn-01.png" and len(snaps) >= 2
    assert "Turn 1: tile" in r.stdout
    # the default journal is in the user's data folder
    assert (tmp_path / "data" / "8bitbox" / "journal.sqlite").exists()
    # history lists it with its winner; replay steps through it
    h = run(["history"], tmp_path)
    assert h.returncode == 0 and " 1 " in h.stdout
    winner_line = lines[-1]
    if winner_line.startswith("Winner: "):
        assert "winner: " + winner_line[len("Winner: "):].split(" and ")[0].lower() in h.stdout
    rp = run(["replay", "1", "--headless", "--snapshots", "rp", "--lang", "fr"], tmp_path)
    assert rp.returncode == 0, rp.stderr
    assert "Tour 1 : tuile Course" in rp.stdout
    assert rp.stdout.strip().splitlines()[-1].startswith(("Vainqueur", "Aucun"))
    (replayed,) = (tmp_path / "rp").iterdir()
    assert replayed.name.startswith("replay-outspeed-1-") and replayed.name in rp.stderr
    assert len(list(replayed.glob("turn-*.png"))) == len(snaps) + 1


@pytest.mark.parametrize("lang,word", [("es", "Turno 1"), ("de", "Runde 1")])
def test_play_in_another_language_with_six_players(tmp_path, lang, word):
    r = run(["play", "--headless", "--players", "6", "--lang", lang, "--seed", "9", "--journal", "j.sqlite",
             "--snapshots", "s", "--bots", "random", "--first-game"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert word in r.stdout


def test_bad_journal_files_get_one_clear_line(tmp_path):
    (tmp_path / "notes.sqlite").write_text("shopping list\n" * 100)
    r = run(["play", "--headless", "--journal", "notes.sqlite"], tmp_path)
    assert r.returncode == 2
    assert "not an Outspeed journal" in r.stderr and "Traceback" not in r.stderr
    db = sqlite3.connect(tmp_path / "other.sqlite")
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    for cmd in (["history", "--journal", "other.sqlite"], ["replay", "1", "--journal", "other.sqlite", "--headless"],
                ["play", "--headless", "--resume", "--journal", "other.sqlite"]):
        r = run(cmd, tmp_path)
        assert r.returncode == 2 and "another program" in r.stderr and "Traceback" not in r.stderr
    r = run(["play", "--headless", "--resume", "--journal", "new.sqlite"], tmp_path)
    assert r.returncode == 2 and "no unfinished game" in r.stderr


def _inputs(path: Path) -> list[tuple]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT seq, kind, data FROM inputs WHERE game = 1 ORDER BY seq").fetchall()
    except sqlite3.Error:
        return []
    finally:
        db.close()


def test_killed_mid_game_then_resumed_ends_like_an_uninterrupted_game(tmp_path):
    common = ["play", "--headless", "--seed", "77", "--players", "4", "--snapshots", "s"]
    ref = run(common + ["--journal", "ref.sqlite"], tmp_path)
    assert ref.returncode == 0, ref.stderr
    # the same game at table speed (slowed down), killed (SIGKILL: no cleanup at all) mid-game
    proc = subprocess.Popen(OUTSPEED + common + ["--journal", "crash.sqlite", "--speed", "8"], cwd=tmp_path,
                            env=env_without_display(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while len(_inputs(tmp_path / "crash.sqlite")) < 9 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, "the game ended before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    proc.stdout.close()
    proc.stderr.close()
    killed_at = len(_inputs(tmp_path / "crash.sqlite"))
    assert 9 <= killed_at < len(_inputs(tmp_path / "ref.sqlite"))
    res = run(["play", "--headless", "--resume", "--journal", "crash.sqlite", "--snapshots", "s2"], tmp_path)
    assert res.returncode == 0, res.stderr
    assert f"{counted(killed_at, 'input', 'inputs')} replayed" in res.stderr
    assert res.stdout.strip().splitlines()[-1] == ref.stdout.strip().splitlines()[-1]
    assert _inputs(tmp_path / "crash.sqlite") == _inputs(tmp_path / "ref.sqlite")
    db = sqlite3.connect(tmp_path / "crash.sqlite")
    assert db.execute("SELECT status FROM games WHERE id = 1").fetchone()[0] == "finished"
    db.close()


def test_bitbox_play_game_outspeed_is_outspeed_play(tmp_path):
    args = ["--headless", "--seed", "5", "--players", "3", "--speed", "0", "--journal", "j.sqlite",
            "--snapshots", "s", "--max-seconds", "60"]
    runs = []
    for name, command in (("outspeed", OUTSPEED + ["play"]),
                          ("bitbox", [sys.executable, "-m", "bitbox.cli", "play", "--game", "outspeed"])):
        folder = tmp_path / name
        folder.mkdir()
        r = subprocess.run(command + args, cwd=folder, env=env_without_display(tmp_path), capture_output=True,
                           text=True, timeout=90)
        assert r.returncode == 0, r.stderr
        runs.append(r.stdout)
    # the same game: same inputs journaled, same result (the order of simultaneous log lines
    # depends on when each simulated controller's event arrives, so the text may differ)
    from bitbox.table.journal import Journal
    games = []
    for name in ("outspeed", "bitbox"):
        with Journal(tmp_path / name / "j.sqlite", create=False) as j:
            info = j.games()[0]
            games.append((info.game, info.status, info.winners, [(r.kind, r.data) for r in j.inputs(info.id)]))
    assert games[0] == games[1] and games[0][1] == "finished" and games[0][0] == "outspeed"
    assert runs[0].splitlines()[-1] == runs[1].splitlines()[-1]
    r = subprocess.run([sys.executable, "-m", "bitbox.cli", "play", "--game", "nosuchgame"], cwd=tmp_path,
                       env=env_without_display(tmp_path), capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no game called 'nosuchgame'" in r.stderr
