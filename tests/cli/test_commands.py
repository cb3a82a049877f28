"""Every command as a user runs it (real subprocesses, headless): ``--version``, the ``--bots``
vocabulary and its conflicts, status lines apart from the game's events (``-q``, ``-v``,
``--log-file``), a folder of its own for each game's snapshots, ``./dev`` run from another
folder, and output into a pipe closed early."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
OUTSPEED = [PY, "-m", "outspeed.cli"]
LOA = [PY, "-m", "lastonealive.cli"]
BITBOX = [PY, "-m", "bitbox.cli"]
FAST = ["--headless", "--speed", "0", "--size", "320x180", "--journal", "j.sqlite"]


def env(tmp_path: Path) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")}
    e.update(XDG_DATA_HOME=str(tmp_path / "data"), SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    return e


def run(command: list[str], tmp_path: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=tmp_path, env=env(tmp_path), capture_output=True, text=True,
                          timeout=timeout)


def settings(journal: Path, game: int = 1) -> dict:
    db = sqlite3.connect(journal)
    try:
        return json.loads(db.execute("SELECT settings FROM games WHERE id = ?", (game,)).fetchone()[0])
    finally:
        db.close()


# ---------------------------------------------------------------- --version

@pytest.mark.parametrize("command,prog", [
    (OUTSPEED, "outspeed"), (LOA, "lastonealive"), (BITBOX, "bitbox"),
    ([PY, "-m", "bitbox_tools.reliability"], "python -m bitbox_tools.reliability"),
    ([PY, "-m", "bitbox_tools.bench"], "python -m bitbox_tools.bench"),
])
def test_every_command_prints_its_version(command, prog, tmp_path):
    from importlib.metadata import version
    r = run(command + ["--version"], tmp_path, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{prog} {version('bitbox-outspeed')}\n"


def test_the_console_scripts_print_the_version_too(tmp_path):
    from importlib.metadata import version
    scripts = Path(sys.executable).parent
    for name in ("outspeed", "lastonealive", "bitbox"):
        r = run([str(scripts / name), "--version"], tmp_path, timeout=60)
        assert (r.returncode, r.stdout) == (0, f"{name} {version('bitbox-outspeed')}\n"), r.stderr


# ---------------------------------------------------------------- --bots

def test_play_bots_names_are_cycled_over_the_bot_seats_and_kept_in_the_journal(tmp_path):
    r = run(OUTSPEED + ["play", *FAST, "--seed", "3", "--players", "3", "--bots", "greedy,random"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert settings(tmp_path / "j.sqlite")["bot"] == "greedy,random"
    assert "Red (bot), Blue (bot), Green (bot)" in r.stderr
    r = run(LOA + ["play", *FAST, "--seed", "3", "--bots", "2:careful,random"], tmp_path)
    assert r.returncode == 0, r.stderr
    s = settings(tmp_path / "j.sqlite", 2)
    assert s["bot"] == "careful,random" and [seat["kind"] for seat in s["seats"]] == ["bot", "bot"]
    assert "a demo game, 2 bots" in r.stderr


def test_mixed_works_in_play_and_in_simulate_and_the_count_means_the_same(tmp_path):
    r = run(OUTSPEED + ["play", *FAST, "--seed", "4", "--bots", "3:mixed"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert settings(tmp_path / "j.sqlite")["bot"] == "lookahead,greedy,random"
    assert len(settings(tmp_path / "j.sqlite")["seats"]) == 3
    for command in (OUTSPEED + ["simulate"], LOA + ["simulate"], BITBOX + ["simulate", "outspeed"]):
        r = run(command + ["--games", "2", "--bots", "3:mixed", "-q"], tmp_path)
        assert r.returncode == 0, r.stderr
        first = r.stdout.splitlines()[0]
        assert "3 players" in first, first
    assert "bots lookahead,greedy,random" in run(OUTSPEED + ["simulate", "--games", "2", "--bots", "mixed", "-q"],
                                                 tmp_path).stdout


@pytest.mark.parametrize("command,message", [
    (OUTSPEED + ["play", *FAST, "--bots", "2"],
     "outspeed play: Outspeed is for 3 to 6 players: 0 controllers + 2 bots make 2 (give --bots 3 or more)"),
    (OUTSPEED + ["play", *FAST, "--players", "3", "--bots", "4"],
     "outspeed play: --players 3 and --bots 4 disagree: 0 controllers + 4 bots make 4 players (give only one of them)"),
    (OUTSPEED + ["play", *FAST, "--bots", "clever"],
     "outspeed play: unknown bot 'clever' in --bots (known: mixed, random, greedy, lookahead)"),
    (OUTSPEED + ["play", *FAST, "--bots", "random", "--bot", "greedy"],
     "outspeed play: --bot greedy and --bots random both name the bots: give only --bots"),
    (LOA + ["play", *FAST, "--bots", "careful", "--bot", "random"],
     "lastonealive play: --bot random and --bots careful both name the bots: give only --bots"),
    (BITBOX + ["play", "--game", "lastonealive", *FAST, "--players", "2", "--bots", "3"],
     "lastonealive play: --players 2 and --bots 3 disagree"),
    (OUTSPEED + ["simulate", "--players", "4", "--bots", "3"],
     "outspeed simulate: --players 4 and --bots 3 disagree: every seat of a simulation is a bot"),
    (LOA + ["simulate", "--bots", "careful,greedy"],
     "lastonealive simulate: unknown bot 'greedy' in --bots (known: mixed, random, careful)"),
    (BITBOX + ["simulate", "lastonealive", "--bots", "9"],
     "bitbox simulate: --players must be 2 to 5, not 9"),
])
def test_options_that_disagree_are_one_line_and_exit_2(command, message, tmp_path):
    r = run(command + ["-q"], tmp_path)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(message), r.stderr
    assert r.stdout == ""


def test_resume_keeps_the_seats_and_says_the_counts_given_are_not_used(tmp_path):
    stopped = run(OUTSPEED + ["play", *FAST, "--seed", "7", "--bots", "4", "--speed", "8", "--max-seconds", "1"],
                  tmp_path)
    assert stopped.returncode == 3, stopped.stderr                  # gave up: the game is left unfinished
    r = run(OUTSPEED + ["play", *FAST, "--resume", "--bots", "3"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "note: --resume keeps the game's seats (--players and --bots are for a new game)" in r.stderr.splitlines()
    assert len(settings(tmp_path / "j.sqlite")["seats"]) == 4


def test_the_old_bot_option_still_works_and_says_once_it_is_deprecated(tmp_path):
    r = run(OUTSPEED + ["play", *FAST, "--seed", "5", "--players", "3", "--bot", "random", "-q"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr == "note: --bot is deprecated: use --bots random (the same for every command)\n"
    assert settings(tmp_path / "j.sqlite")["bot"] == "random"


# ---------------------------------------------------------------- logging

@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a device that is always full)")
def test_a_log_file_that_cannot_be_written_any_more_is_one_line_and_the_game_goes_on(tmp_path):
    r = run(OUTSPEED + ["play", *FAST[1:], "--seed", "6", "--bots", "3:random", "--log-file", "/dev/full"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr and "Logging error" not in r.stderr
    assert [line for line in r.stderr.splitlines() if "--log-file" in line] == [
        "--log-file /dev/full: cannot write there any more (No space left on device); no longer logging to it"]
    assert r.stdout.rstrip().splitlines()[-1].startswith("Winner: ")


def test_status_lines_go_to_stderr_and_the_log_file_the_events_to_stdout(tmp_path):
    game = OUTSPEED + ["play", *FAST[1:], "--seed", "6", "--bots", "3:random"]     # no display: headless
    plain = run(game, tmp_path)
    quiet = run(game + ["-q"], tmp_path)
    loud = run(game + ["-v", "--log-file", "play.log"], tmp_path)
    for r in (plain, quiet, loud):
        assert r.returncode == 0, r.stderr
    # the same game: the same events on stdout whatever the status options
    assert plain.stdout == quiet.stdout == loud.stdout and "Turn 1: tile" in plain.stdout
    assert "no display found" not in plain.stdout and "journal" not in plain.stdout
    assert plain.stderr.splitlines()[0] == "no display found: running headless"
    assert "Outspeed game 1: Red (bot), Blue (bot), Green (bot); seed 6" in plain.stderr
    assert quiet.stderr == ""                                  # -q: no status (errors would still show)
    # -v: the device traffic on top (connections, frames per device)
    assert "seat 1: controller" not in plain.stderr and "seat 1: controller" in loud.stderr
    assert "sim://0 (sim, active):" in loud.stderr and " frames, 0 bad" in loud.stderr
    log = (tmp_path / "play.log").read_text()
    assert "INFO bitbox.outspeed: no display found: running headless" in log
    assert "DEBUG bitbox.hub: sim://0" in log and "Turn 1: tile" not in log


def test_lastonealive_and_simulate_take_the_same_logging_options(tmp_path):
    r = run(LOA + ["play", *FAST, "--seed", "2", "--bots", "2", "-q", "--log-file", "loa.log"], tmp_path)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout.strip().splitlines()[-1].startswith("Winner: ")
    assert "INFO bitbox.lastonealive: Last One Alive game 1:" in (tmp_path / "loa.log").read_text()
    r = run(OUTSPEED + ["simulate", "--games", "2", "--workers", "99", "-v"], tmp_path)
    assert r.returncode == 0 and "--workers 99 is more than" in r.stderr
    r = run(OUTSPEED + ["play", *FAST, "--log-file", str(tmp_path / "no" / "such" / "dir" / "x.log")], tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--log-file" in r.stderr


# ---------------------------------------------------------------- snapshots

@pytest.mark.parametrize("command,name", [(OUTSPEED, "outspeed"), (LOA, "lastonealive")])
def test_each_headless_game_writes_its_snapshots_in_its_own_folder_and_says_where(command, name, tmp_path):
    folders = []
    for game in (1, 2):
        r = run(command + ["play", *FAST, "--seed", str(game), "--bots", "3", "--snapshots", "shots"], tmp_path)
        assert r.returncode == 0, r.stderr
        said = [line for line in r.stderr.splitlines() if line.startswith(f"snapshots of game {game}: ")]
        assert len(said) == 1
        folder = tmp_path / said[0].split(": ", 1)[1]
        assert folder.parent == tmp_path / "shots" and folder.name.startswith(f"{name}-{game}-")
        assert (folder / "turn-01.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        folders.append(folder)
    assert folders[0] != folders[1] and sorted((tmp_path / "shots").iterdir()) == sorted(folders)
    r = run(command + ["replay", "1", "--headless", "--journal", "j.sqlite", "--snapshots", "shots"], tmp_path)
    assert r.returncode == 0, r.stderr
    (replayed,) = [p for p in (tmp_path / "shots").iterdir() if p not in folders]
    assert replayed.name.startswith(f"replay-{name}-1-") and f"shots/{replayed.name}/" in r.stderr
    assert len(list(replayed.glob("turn-*.png"))) >= len(list(folders[0].glob("turn-*.png")))


# ---------------------------------------------------------------- ./dev

def test_dev_runs_the_commands_in_the_folder_it_is_called_from(tmp_path):
    dev_env = {**env(tmp_path), "BITBOX_VENV": sys.prefix}          # this interpreter's environment
    here = tmp_path / "elsewhere"
    here.mkdir()
    r = subprocess.run([str(ROOT / "dev"), "python", "-c", "import os; print(os.getcwd())"], cwd=here, env=dev_env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert Path(r.stdout.strip()).resolve() == here.resolve()
    r = subprocess.run([str(ROOT / "dev"), "play", "--headless", "--speed", "0", "--size", "320x180", "--seed", "2",
                        "--bots", "3", "--journal", "games.sqlite", "--snapshots", "out", "-q"], cwd=here, env=dev_env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert (here / "games.sqlite").exists() and len(list((here / "out").glob("outspeed-1-*/turn-01.png"))) == 1
    assert not (ROOT / "games.sqlite").exists() and not (ROOT / "out").exists()


# ---------------------------------------------------------------- a pipe closed early

def _closed_early(command: list[str], tmp_path: Path) -> subprocess.Popen:
    """``command | head -0``: the reader has gone before the command writes."""
    proc = subprocess.Popen(command, cwd=tmp_path, env=env(tmp_path), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    proc.stdout.close()
    return proc


@pytest.mark.parametrize("command", [
    OUTSPEED + ["play", *FAST, "--seed", "3", "--bots", "3", "-q"],
    LOA + ["play", *FAST, "--seed", "3", "--bots", "2", "-q"],
    BITBOX + ["play", "--game", "outspeed", *FAST, "--seed", "3", "--bots", "3", "-q"],
    OUTSPEED + ["history", "--journal", "j.sqlite"],
    LOA + ["history", "--journal", "j.sqlite"],
    OUTSPEED + ["replay", "--headless", "--journal", "j.sqlite"],
    OUTSPEED + ["simulate", "--games", "3", "-q"],
    BITBOX + ["games"],
    OUTSPEED + ["tiles", "show", "3"],
])
def test_output_into_a_closed_pipe_stops_quietly(command, tmp_path):
    if "history" in command or "replay" in command:
        made = run(OUTSPEED + ["play", *FAST, "--seed", "1", "--bots", "3", "-q"], tmp_path)
        assert made.returncode == 0, made.stderr
    proc = _closed_early(command, tmp_path)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 141, err                 # the shell's code for SIGPIPE: `set -o pipefail` sees it
    assert err == "", err                             # no traceback, no "Exception ignored" line
