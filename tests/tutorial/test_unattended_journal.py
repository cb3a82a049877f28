"""A table of bots only at ``--speed 0`` computes its game without waiting for the disk after
each input (:meth:`bitbox.table.journal.Journal.unattended`): each input is still committed
before it is applied, the file goes back to SQLite's rollback journal when the table closes,
and a journal left in write-ahead mode by a killed table is read, resumed and put back."""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from bitbox.table.journal import Journal, rebuild
from bitbox.table.protocol_rules import ProtocolJournalRules

from .test_console_table import run

PY = sys.executable


def mode(path: Path) -> str:
    db = sqlite3.connect(str(path))
    try:
        return str(db.execute("PRAGMA journal_mode").fetchone()[0])
    finally:
        db.close()


def rules() -> ProtocolJournalRules:
    from bitbox.games import find
    return ProtocolJournalRules(find("goofspiel"))


def test_unattended_inputs_are_committed_and_the_file_goes_back_to_one_file(tmp_path):
    from bitbox.games import find
    c = find("goofspiel")
    path = tmp_path / "j.sqlite"
    j = Journal(path, rules())
    game = c.new(["red", "blue"], 3, {"cards": 3})
    rec = j.new_game(game, {"seats": []})
    assert j.unattended()
    assert mode(path) == "wal"
    prompts = game.prompts()
    rec.record("answers", {"answers": {p.player: c.action_to_data(p.options[0]) for p in prompts}},
               turn=1, phase="bid", state="x")
    other = sqlite3.connect(str(path))                       # committed: another connection sees it
    assert other.execute("SELECT COUNT(*) FROM inputs").fetchone()[0] == 1
    other.close()
    j.close()
    assert mode(path) == "delete"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.sqlite"]          # no -wal, no -shm left
    assert oct(path.stat().st_mode & 0o777) == "0o600"


KILLED = r"""
import os, sys
sys.path.insert(0, sys.argv[2])
from bitbox.games import find
from bitbox.table.journal import Journal
from bitbox.table.protocol_rules import ProtocolJournalRules
c = find("goofspiel")
j = Journal(sys.argv[1], ProtocolJournalRules(c))
game = c.new(["red", "blue"], 3, {"cards": 3})
rec = j.new_game(game, {"seats": []})
assert j.unattended()
prompt = game.prompts()
rec.record("answers", {"answers": {p.player: c.action_to_data(p.options[0]) for p in prompt}}, turn=1, phase="bid",
           state="x")
os._exit(0)                                  # killed: nothing closed, the write-ahead log stays
"""


def test_a_journal_left_in_write_ahead_mode_is_read_and_put_back(tmp_path):
    path = tmp_path / "j.sqlite"
    here = str(Path(__file__).resolve().parent)
    p = subprocess.run([PY, "-c", KILLED, str(path), here], env={**os.environ}, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "j.sqlite-wal").exists()
    with Journal(path, rules(), create=False) as reader:        # history, replay: read as it is
        assert [g.inputs for g in reader.games()] == [1]
    writer = Journal(path, rules())                             # the next table that writes puts it back
    writer.close()
    assert mode(path) == "delete"
    assert sorted(q.name for q in tmp_path.iterdir()) == ["j.sqlite"]


def test_a_bots_only_game_at_speed_0_ends_with_one_journal_file_that_replays(tmp_path):
    p = run(["play", "--headless", "--speed", "0", "--bots", "2", "--seed", "4", "--journal", "j.sqlite",
             "--snapshots", "snaps", "--lobby", "never"], tmp_path)
    assert p.returncode == 0, p.stderr
    assert mode(tmp_path / "j.sqlite") == "delete"
    assert not list(tmp_path.glob("j.sqlite-*"))
    with Journal(tmp_path / "j.sqlite", rules(), create=False) as j:
        (info,) = j.games()
        assert info.status == "finished"
        game, n = rebuild(j, info.id)
        assert n == info.inputs and list(game.winners) == info.winners




def test_the_table_benchmark_plays_the_tutorial_game_and_reads_its_clocks():
    from bitbox_tools.bench import table
    (name, module, args, env_vars), = [g for g in table.games() if g[0].startswith("goofspiel")]
    r = table.run_one(module, args, env_vars, seed=1)
    assert r["wall"] > 0 and r["cpu"] > 0 and r["ratio"] == r["wall"] / r["cpu"]
    assert r["blocked"] >= 0 and r["queued"] >= 0          # figures only: no timed assertion
