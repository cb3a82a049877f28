"""`lastonealive play / history / replay`, `bitbox play --game lastonealive` and
`./dev play --game lastonealive` as a table runs them: real subprocesses, headless, real
SQLite journals, a SIGKILL in the middle of a game."""
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

LOA = [sys.executable, "-m", "lastonealive.cli"]
ROOT = Path(__file__).resolve().parents[2]


def env_without_display(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["SDL_AUDIODRIVER"] = "dummy"
    return env


def run(args, tmp_path, command=LOA, timeout=120):
    return subprocess.run(command + args, cwd=tmp_path, env=env_without_display(tmp_path), capture_output=True,
                          text=True, timeout=timeout)


def _inputs(path: Path) -> list[tuple]:
    if not path.exists():
        return []
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT seq, kind, data, state FROM inputs ORDER BY game, seq").fetchall()
    except sqlite3.OperationalError:
        return []
    finally:
        db.close()


DEMO = ["play", "--headless", "--players", "4", "--seed", "7", "--bots", "random", "--speed", "0"]


def test_the_headless_bot_game_is_deterministic_and_ends_with_the_winner(tmp_path):
    outs = []
    for i in range(2):
        folder = tmp_path / f"run{i}"
        folder.mkdir()
        r = run(DEMO + ["--journal", "j.sqlite"], folder)
        assert r.returncode == 0, r.stderr
        outs.append([line for line in r.stdout.splitlines() if "journal" not in line])
        # each game's snapshots in a folder of their own, said on stderr
        (snaps,) = (folder / "snapshots").iterdir()
        assert snaps.name.startswith("lastonealive-1-") and f"snapshots/{snaps.name}/" in r.stderr
        assert sorted(p.name for p in snaps.glob("turn-*.png"))[:1] == ["turn-01.png"]
    assert outs[0] == outs[1]
    text = "\n".join(outs[0])
    assert "Red's turn" in text and "rolls:" in text
    assert outs[0][-1].startswith("Winner: ")


@pytest.mark.heavy
def test_killed_mid_game_then_resumed_ends_like_the_uninterrupted_game_and_history_shows_both(tmp_path):
    common = ["play", "--headless", "--players", "4", "--seed", "8", "--bots", "random", "--snapshots", "s",
              "--journal", "j.sqlite"]
    ref = run(common + ["--speed", "0"], tmp_path)
    assert ref.returncode == 0, ref.stderr
    n_ref = len(_inputs(tmp_path / "j.sqlite"))
    proc = subprocess.Popen(LOA + common + ["--speed", "6"], cwd=tmp_path, env=env_without_display(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while len(_inputs(tmp_path / "j.sqlite")) < n_ref + 10 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, "the game ended before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    proc.stdout.close()
    proc.stderr.close()
    killed_at = len(_inputs(tmp_path / "j.sqlite")) - n_ref
    assert 10 <= killed_at < n_ref
    res = run(["play", "--headless", "--resume", "--journal", "j.sqlite", "--snapshots", "s2", "--speed", "0"],
              tmp_path)
    assert res.returncode == 0, res.stderr
    assert f"{counted(killed_at, 'input', 'inputs')} replayed" in res.stderr
    assert res.stdout.strip().splitlines()[-1] == ref.stdout.strip().splitlines()[-1]
    db = sqlite3.connect(tmp_path / "j.sqlite")
    rows = db.execute("SELECT id, status, winners, final FROM games ORDER BY id").fetchall()
    inputs = [db.execute("SELECT seq, kind, data, state FROM inputs WHERE game = ? ORDER BY seq", (g,)).fetchall()
              for g in (1, 2)]
    db.close()
    assert [r[1] for r in rows] == ["finished", "finished"]
    assert rows[0][2:] == rows[1][2:]                     # same winners, same final fingerprint
    assert inputs[0] == inputs[1]
    hist = run(["history", "--journal", "j.sqlite"], tmp_path)
    assert hist.returncode == 0, hist.stderr
    lines = [line for line in hist.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert len(lines) == 2 and all("winner:" in line and line.split()[-1] == "8" for line in lines)
    shown = []
    for game_id in ("1", "2"):
        rep = run(["replay", game_id, "--headless", "--journal", "j.sqlite", "--snapshots", f"r{game_id}"], tmp_path)
        assert rep.returncode == 0, rep.stderr
        shown.append(rep.stdout)
        assert list((tmp_path / f"r{game_id}").glob(f"replay-lastonealive-{game_id}-*/turn-*.png"))
    assert shown[0] == shown[1]
    assert shown[0].strip().splitlines()[-1] == ref.stdout.strip().splitlines()[-1]


def test_bitbox_play_game_lastonealive_and_dev_play_game_play_the_same_game(tmp_path):
    args = DEMO + ["--journal", "j.sqlite", "--players", "3"]
    outs = []
    for name, command in (("loa", LOA), ("bitbox", [sys.executable, "-m", "bitbox.cli", "play", "--game",
                                                     "lastonealive"])):
        folder = tmp_path / name
        folder.mkdir()
        r = run(args[1:] if name == "bitbox" else args, folder, command=command)
        assert r.returncode == 0, r.stderr
        outs.append([line for line in r.stdout.splitlines() if "journal" not in line])
    assert outs[0] == outs[1]
    dev = ROOT / "dev"
    if (ROOT / ".venv" / "bin" / "lastonealive").exists():
        folder = tmp_path / "dev"
        folder.mkdir()
        # ./dev runs from the repository's folder: absolute paths keep the journal and the
        # snapshots out of it
        dev_args = DEMO[1:] + ["--players", "3", "--journal", str(folder / "j.sqlite"), "--snapshots",
                               str(folder / "snapshots")]
        r = subprocess.run([str(dev), "play", "--game", "lastonealive", *dev_args], cwd=folder,
                           env=env_without_display(tmp_path), capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert [line for line in r.stdout.splitlines() if "journal" not in line] == outs[0]
        assert (folder / "j.sqlite").exists() and not (ROOT / "j.sqlite").exists()
    r = subprocess.run([str(dev), "play", "--game", "chess"], cwd=tmp_path, env=env_without_display(tmp_path),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.strip().splitlines()[-1] == "dev: unknown game 'chess' (outspeed or lastonealive)"


@pytest.mark.parametrize("args,needle", [
    (["--players", "6"], "--players"),
    (["--players", "1"], "--players"),
    (["--bots", "clever"], "unknown bot 'clever' in --bots"),
    (["--bots", "6"], "at most 5 bots"),
    (["--bots", "2", "--players", "3"], "--players 3 and --bots 2 disagree"),
    (["--variant", "moonlight"], "--variant"),
    (["--lang", "it"], "--lang"),
    (["--speed", "-1"], "--speed"),
    (["--size", "10x10"], "--size"),
    (["--tokens", "cardboard"], "--tokens"),
])
def test_bad_options_are_one_line_and_exit_2(tmp_path, args, needle):
    r = run(["play", "--headless", *args], tmp_path)
    assert r.returncode == 2
    assert needle in r.stderr.strip().splitlines()[-1] and "Traceback" not in r.stderr


def test_resume_with_nothing_to_resume_and_a_snapshots_file_are_one_line(tmp_path):
    r = run(["play", "--headless", "--resume", "--journal", "j.sqlite"], tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("lastonealive play: no unfinished Last One Alive game")
    (tmp_path / "file").write_text("x")
    r = run(["play", "--headless", "--snapshots", "file", "--journal", "j.sqlite"], tmp_path)
    assert r.returncode == 2 and "exists and is not a folder" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_sigterm_saves_the_game_for_resume(tmp_path):
    proc = subprocess.Popen(LOA + ["play", "--headless", "--players", "3", "--seed", "8", "--bots", "random",
                                   "--speed", "4", "--journal", "j.sqlite", "--snapshots", "s"],
                            cwd=tmp_path, env=env_without_display(tmp_path), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while len(_inputs(tmp_path / "j.sqlite")) < 6 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 143, err
    assert "terminated (an unfinished game continues with --resume)" in err and "Traceback" not in err
    res = run(["play", "--headless", "--resume", "--journal", "j.sqlite", "--snapshots", "s"], tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1].startswith("Winner: ")


def test_replay_of_a_missing_game_names_the_games_own_history_command(tmp_path):
    from bitbox.table.journal import Journal
    from lastonealive.journaling import RULES
    Journal(tmp_path / "j.sqlite", RULES).close()              # a real journal, with no game in it
    r = run(["replay", "5", "--headless", "--journal", "j.sqlite"], tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == ["lastonealive replay: j.sqlite: no game 5 (see `lastonealive history "
                                                   "--journal j.sqlite`)"]
    r = run(["replay", "5", "--headless", "--journal", "j.sqlite"], tmp_path,
            command=[sys.executable, "-m", "outspeed.cli"])
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == ["outspeed replay: j.sqlite: no game 5 (see `outspeed history --journal j.sqlite`)"]
