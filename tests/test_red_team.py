"""What the red team found and fixed (hostile options, files and paths from outside): each case
through its real command in a subprocess, which must exit 2 with one line naming what was
wrong, no traceback, and leave nothing behind."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bitbox.config import ConfigError, load_yaml
from bitbox.testing.commands import one_line_error as one_line

LONG = "A" * 5000                     # longer than any file name (NAME_MAX is 255 on Linux)


def run(module: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", module, *args], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout)


# --------------------------------------------------------------------------- YAML from a pipe or a device

def test_a_config_path_that_is_a_device_is_refused_without_reading_it():
    with pytest.raises(ConfigError, match="^/dev/zero: is not a regular file"):
        load_yaml("/dev/zero")


@pytest.mark.parametrize("command", [["outspeed.cli", "tiles", "check"], ["lastonealive.cli", "dice", "show"]])
def test_a_named_pipe_nobody_writes_to_is_refused_at_once_not_waited_on(command, tmp_path):
    fifo = tmp_path / "tiles.yaml"
    os.mkfifo(fifo)
    proc = run(command[0], *command[1:], str(fifo), timeout=30)       # before the fix: blocked for ever
    one_line(proc, str(fifo), "not a regular file")


# --------------------------------------------------------------------------- --journal names

@pytest.mark.parametrize("module, args", [
    ("outspeed.cli", ["history"]),
    ("lastonealive.cli", ["replay"]),
    ("outspeed.cli", ["export", "1", "out.json"]),
    ("lastonealive.cli", ["analyse", "1"]),
])
def test_a_journal_name_too_long_for_the_system_is_one_short_line(module, args, tmp_path):
    proc = run(module, *args, "--journal", str(tmp_path / LONG))
    err = one_line(proc, "--journal", "File name too long", "characters)")
    assert len(err) < 400, err                                     # the name is shortened, not printed whole
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("module, args", [
    ("outspeed.cli", ["history"]),
    ("lastonealive.cli", ["replay"]),
    ("outspeed.cli", ["analyse", "1"]),
    ("bitbox.cli", ["audit"]),
])
def test_a_default_journal_path_the_system_refuses_is_one_line(module, args, tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / ("D" * 300)))    # a folder name longer than NAME_MAX
    proc = subprocess.run([sys.executable, "-m", module, *args], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60, env=env)
    one_line(proc, "journal.sqlite: cannot be read: File name too long", "characters)")


# --------------------------------------------------------------------------- bitbox's own usage errors

@pytest.mark.parametrize("args, words", [
    (["ports", "--timeout", "soon"], ["bitbox ports", "--timeout"]),
    (["monitor", "/dev/null", "--count", "inf"], ["bitbox monitor", "--count"]),
    (["nonesuch"], ["bitbox", "invalid choice: 'nonesuch'"]),
    (["play", "--game"], ["bitbox play", "--game"]),
])
def test_bitbox_usage_errors_are_one_line_like_every_other_command(args, words):
    one_line(run("bitbox.cli", *args, timeout=30), *words)


# --------------------------------------------------------------------------- bitbox simulate's seat count

@pytest.mark.parametrize("option, words", [
    ("--players", ["--players must be 3 to 6, not 99999999999999999999999"]),
    ("--bots", ["--players must be 3 to 6, not 99999999999999999999999"]),
])
def test_bitbox_simulate_refuses_a_huge_seat_count_before_seating_anyone(option, words, tmp_path):
    # before the fix: a name was made for each of the 10**23 seats (a hang, then memory)
    proc = run("bitbox.cli", "simulate", "outspeed", "--games", "1", "--workers", "1", option,
               "99999999999999999999999", "--out", str(tmp_path / "out"), timeout=30)
    one_line(proc, "bitbox simulate", *words)
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- output files that are pipes

@pytest.mark.parametrize("module, make_args, words", [
    ("outspeed.cli", lambda d, f: ["history", "--journal", str(d / "j.sqlite"), "--log-file", f],
     ["outspeed history: --log-file"]),
    ("bitbox.cli", lambda d, f: ["emulate", "--seconds", "1", "--link-dir", str(d / "links"), "--trace", f],
     ["bitbox emulate: --trace"]),
    ("bitbox.cli", lambda d, f: ["diagnose", "--listen", "0", "--out", f], ["bitbox diagnose:"]),
])
def test_an_output_file_that_is_a_pipe_nobody_reads_is_refused_not_waited_on(module, make_args, words, tmp_path):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    proc = run(module, *make_args(tmp_path, str(fifo)), timeout=30)
    one_line(proc, *words, "a named pipe that nothing reads")


def test_a_log_file_that_is_a_pipe_being_read_is_still_accepted(tmp_path):
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)      # someone reads it (kept open throughout)
    try:
        proc = run("outspeed.cli", "history", "--journal", str(tmp_path / "j.sqlite"), "--log-file", str(fifo),
                   timeout=30)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
        assert "no games yet" in proc.stdout
    finally:
        os.close(reader)


# --------------------------------------------------------------------------- the fuzzer that found these

def test_the_cli_fuzzer_finds_nothing_in_tiles_check_and_would_see_a_hang_or_a_traceback():
    from bitbox_tools.reliability.cli_fuzz import Case, Outcome
    proc = subprocess.run([sys.executable, "-m", "bitbox_tools.reliability.cli_fuzz", "outspeed tiles check"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout == "", (proc.stdout, proc.stderr)
    assert "24 cases, 0 findings" in proc.stderr                # every hostile value, a named pipe among them
    case = Case("outspeed", ("tiles", "check", "x"))
    assert Outcome(case, "timeout", "").finding == "did not end in time"
    assert Outcome(case, 1, "Traceback (most recent call last):\n  ...\nOSError: boom\n").finding == "traceback: OSError: boom"
    assert Outcome(case, 2, "usage: outspeed\noutspeed: error: x\n").finding == "usage error in 2 lines"
    assert Outcome(case, 2, "outspeed tiles check: x: no such file\n").finding is None


# --------------------------------------------------------------------------- a port whose name looks like a glob

@pytest.mark.parametrize("name", ["tty[1", "tty*"])
def test_a_port_whose_name_is_its_own_glob_is_opened_once_not_recursed_into(name, tmp_path):
    port = tmp_path / name                  # matched by itself as a glob: before the fix add_url recursed for ever
    port.write_text("not a serial port\n")
    proc = subprocess.run([sys.executable, "-m", "bitbox.cli", "identify", name, "--wait", "0.2"], cwd=tmp_path,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    err = proc.stderr.strip()
    assert proc.returncode == 3 and "Traceback" not in err and len(err.splitlines()) == 1, (proc.returncode, err)
    assert f"cannot open {name}" in err


# --------------------------------------------------------------------------- waits

@pytest.mark.parametrize("args", [["identify", "1d1e", "--wait", "inf"], ["identify", "1d1e", "--wait", "1e308"],
                                  ["test-controllers", "--wait", "99999999999999999999999"],
                                  ["ports", "--timeout", "nan"]])
def test_a_wait_for_ever_is_a_usage_error_not_a_hang(args):
    one_line(run("bitbox.cli", *args, timeout=30), "expected seconds from 0 to 600")


# --------------------------------------------------------------------------- calibrate and analyse's counts

@pytest.mark.parametrize("module, args, words", [
    ("bitbox.cli", ["calibrate", "outspeed", "--players", "9" * 23], ["Outspeed is for 3 to 6 players"]),
    ("bitbox.cli", ["calibrate", "outspeed", "--rollouts", "9" * 23], ["--rollouts must be 1 to 100000"]),
    ("outspeed.cli", ["analyse", "1", "--rollouts", "9" * 23], ["--rollouts must be 1 to 100000"]),
])
def test_counts_that_would_never_end_are_refused_before_any_work(module, args, words, tmp_path):
    # before the fix: calibrate made a name for each of 10**23 players (a hang); 10**23 rollouts ran for ever
    one_line(run(module, *args, *(["--journal", str(tmp_path / "j.sqlite")] if "analyse" in args else []),
                 timeout=30), *words)


# --------------------------------------------------------------------------- secrecy: the status lines too

def test_the_secrecy_comparison_also_reads_the_status_lines_and_would_see_a_choice_there(monkeypatch):
    """What -v and --log-file show is compared too (bitbox_tools.reliability.secrecy): the
    same games as the spectator comparison, and a referee that logged a locked-in path at
    debug level would be caught."""
    import logging

    from bitbox.table.session import Session
    from bitbox_tools import reliability as R
    from outspeed.rules import Choice
    params = [dict(seed=s, players=4, token_mode="virtual", prefix=0, shape_seed=s) for s in range(1, 4)]
    assert all(R.secrecy_pair(**p)["difference"] is None for p in params)
    original = Session.handle

    def leaky(self, event):
        out = original(self, event)
        locked = sorted((p, a.path) for p, a in self.answers.items() if isinstance(a, Choice))
        if locked:
            logging.getLogger("bitbox.table").debug("locked: %s", locked)
        return out

    monkeypatch.setattr(Session, "handle", leaky)
    found = [R.secrecy_pair(**p)["difference"] for p in params]
    assert any(d and "status lines" in d for d in found), found


# --------------------------------------------------------------------------- output paths too long

@pytest.fixture(scope="module")
def finished_journal(tmp_path_factory):
    """One short finished Last One Alive game (bots, a seed), made by the real command."""
    folder = tmp_path_factory.mktemp("loa")
    journal = folder / "j.sqlite"
    proc = subprocess.run([sys.executable, "-m", "lastonealive.cli", "play", "--headless", "--players", "2", "--bots",
                           "2", "--seed", "3", "--speed", "0", "-q", "--journal", str(journal), "--snapshots",
                           str(folder / "snaps")], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return journal


@pytest.mark.parametrize("args, words", [
    (["replay", "1", "--gif"], ["lastonealive replay: --gif"]),
    (["replay", "1", "--headless", "--snapshots"], ["lastonealive replay: --snapshots"]),
    (["analyse", "1", "--rollouts", "1", "--out"], ["lastonealive analyse: --out"]),
])
def test_an_output_name_too_long_for_the_system_is_one_short_line(args, words, finished_journal, tmp_path):
    proc = run("lastonealive.cli", *args, str(tmp_path / LONG), "--journal", str(finished_journal))
    err = one_line(proc, *words, "File name too long", "characters)")
    assert len(err) < 400, err


def test_analyse_refuses_an_out_that_is_a_link_loop_before_any_work(finished_journal, tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    proc = run("lastonealive.cli", "analyse", "1", "--rollouts", "1", "--out", str(tmp_path / "a"),
               "--journal", str(finished_journal))
    one_line(proc, "--out", "exists and is not a directory")      # one line: no progress bar, no table first
    assert proc.stdout == ""


def test_analyse_progress_counts_each_turn_once(finished_journal, tmp_path):
    # found on the way: the bar was given n + 1 as an increment (1, 3, 6...): "[200%] 6/3 turns, eta -0s"
    proc = run("lastonealive.cli", "analyse", "1", "--rollouts", "1", "--out", str(tmp_path / "out"),
               "--journal", str(finished_journal))
    assert proc.returncode == 0, proc.stderr
    import re
    bars = [tuple(map(int, m.groups())) for m in re.finditer(r"^\[\s*\d+%\] (\d+)/(\d+) turns", proc.stderr, re.M)]
    assert bars and bars[-1][0] == bars[-1][1], proc.stderr
    assert all(done <= total for done, total in bars), proc.stderr


# --------------------------------------------------------------------------- simulate's counts, seed and --out

@pytest.mark.parametrize("args, words", [
    (["--out", LONG], ["outspeed simulate: cannot use --out", "characters)", "File name too long"]),
    (["--games", "99999999999999999999999"], ["outspeed simulate: --games must be at most 1,000,000,000"]),
    (["--seed", "-5"], ["outspeed simulate", "--seed", "'-5'"]),
    (["--seed", "\u0663"], ["outspeed simulate", "--seed"]),
])
def test_simulate_refuses_a_name_too_long_a_count_beyond_bound_and_a_seed_play_would_refuse(args, words):
    # before: a traceback (ENAMETOOLONG), a run of 10**23 games, seeds play refuses taken
    one_line(run("outspeed.cli", "simulate", "--workers", "1", "-q", *args, timeout=30), *words)


def test_calibrate_refuses_a_game_count_beyond_simulates_bound():
    one_line(run("bitbox.cli", "calibrate", "outspeed", "--games", "99999999999999999999999", timeout=30),
             "bitbox calibrate: --games must be at most 1,000,000,000")
