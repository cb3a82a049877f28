"""What the second red team found and fixed in the console's paths and files (the hostile
cartridges are in tests/tutorial/test_hostile_cartridges.py, the research adapters' in
tests/research/test_hostile_research.py and test_openspiel_hostile.py): each case through its
real command in a subprocess, exit 2 with one line naming what was wrong, no traceback,
nothing written."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bitbox.config import ConfigError, parse_yaml
from bitbox.testing.commands import one_line_error as one_line


def run(module: str, *args: str, cwd: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_DATA_HOME": str(cwd or os.getcwd()) + "/data", "HOME": str(cwd or os.getcwd())}
    return subprocess.run([sys.executable, "-m", module, *args], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout, cwd=cwd, env=env)


# --------------------------------------------------------------------------- YAML with a control character

@pytest.mark.parametrize("text,where,code", [('journal: "a\x1b[2Jb"\n', "line 1, column 12", "U+001B"),
                                             ("a: 1\nb: x\x00\n", "line 2, column 5", "U+0000")])
def test_a_control_character_in_a_yaml_file_is_one_line_with_where(text, where, code):
    with pytest.raises(ConfigError) as caught:             # was yaml's ReaderError, a traceback in every command
        parse_yaml(text, what="t.yaml")
    assert str(caught.value) == f"t.yaml: {where}: not valid YAML: the character {code} is not allowed (a control character)"


def test_a_table_config_with_an_escape_is_one_line_and_nothing_is_played(tmp_path):
    (tmp_path / "t.yaml").write_text('journal: "a\x1b[2Jb"\n')
    proc = run("lastonealive.cli", "play", "--headless", "--players", "3", "--bots", "3", "--speed", "0",
               "--table-config", "t.yaml", cwd=str(tmp_path))
    one_line(proc, "t.yaml: line 1, column 12: not valid YAML: the character U+001B")
    assert sorted(os.listdir(tmp_path)) == ["t.yaml"]


# --------------------------------------------------------------------------- ~user of no user

def test_a_tilde_of_no_user_is_a_path_as_the_shell_leaves_it(tmp_path):
    proc = run("lastonealive.cli", "history", "--journal", "~no-such-user-here/j.sqlite", cwd=str(tmp_path))
    assert proc.returncode == 0 and proc.stderr == ""              # was RuntimeError from Path.expanduser
    assert proc.stdout == "no games yet (~no-such-user-here/j.sqlite does not exist)\n"
    proc = run("lastonealive.cli", "replay", "--journal", "~no-such-user-here/j.sqlite", cwd=str(tmp_path))
    one_line(proc, "~no-such-user-here/j.sqlite")
    assert os.listdir(tmp_path) == []


# --------------------------------------------------------------------------- the search bot's budget

@pytest.mark.parametrize("args,says", [
    (["play", "--think", "9" * 23], "argument --think: expected a whole number from 1 to 600000, not 999"),
    (["play", "--rollouts", "100001"], "argument --rollouts: expected a whole number from 1 to 100000, not 100001"),
    (["simulate", "--games", "1", "--workers", "1", "--bots", "search", "--rollouts", "9" * 15],
     "--rollouts must be at most 100000, not 999"),
    (["simulate", "--games", "1", "--workers", "1", "--bots", "search", "--think", "600001"],
     "--think must be at most 600000 ms, not 600001"),
])
def test_a_search_budget_without_end_is_refused(tmp_path, args, says):
    proc = run("lastonealive.cli", *args, cwd=str(tmp_path), timeout=60)   # was accepted: a bot thinking for ever
    one_line(proc, says)
    assert os.listdir(tmp_path) == []


# --------------------------------------------------------------------------- a table whose game hangs

def test_a_stop_request_the_loop_never_reads_interrupts_it_after_its_grace(monkeypatch):
    import signal
    import time

    from bitbox.table.app import StopRequest
    monkeypatch.setenv("SDL_NO_SIGNAL_HANDLERS", "1")           # catch() sets it
    stop = StopRequest(grace=0.1)
    previous = stop.catch()
    try:
        stop.in_loop = True
        with pytest.raises(KeyboardInterrupt):                 # was: one SIGTERM/Ctrl-C never ended a hung game
            stop(signal.SIGINT, None)                          # the request, read at a next frame that never comes
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:                 # a game's code that never returns
                time.sleep(0.01)
        assert stop.exit_code() == 130
        stop.signum = None                                     # a loop that ends in time is not interrupted
        stop(signal.SIGINT, None)
        stop.in_loop = False
        time.sleep(0.3)
    finally:
        stop.in_loop = False
        StopRequest.restore(previous)
