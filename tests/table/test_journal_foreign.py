"""A journal edited by hand beyond its rows' values (found by the red team): an audit row whose
controller is not an id, a trigger or a view the journal did not make. Each is one line naming
what is wrong, exit 2, the file left as it was; a trigger never runs inside the table's writes."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bitbox.cli import main as bitbox_main
from lastonealive.cli import main as lastonealive_main

DATA = Path(__file__).parent / "data" / "main-journals"


def _copy(tmp_path: Path, sql: str) -> Path:
    path = tmp_path / "j.sqlite"
    shutil.copyfile(DATA / "lastonealive.sqlite", path)
    db = sqlite3.connect(path)
    db.executescript(sql)
    db.commit()
    db.close()
    path.chmod(0o600)
    return path


def test_an_audit_row_that_is_not_a_controller_is_one_line(tmp_path, capsys):
    path = _copy(tmp_path, "UPDATE controller_audit SET controller = 'zz' WHERE rowid = 1")
    before = path.read_bytes()
    assert bitbox_main(["audit", "--journal", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "controller_audit" in err[0] and "'zz'" in err[0], err
    assert path.read_bytes() == before


def test_an_audit_count_that_is_not_a_number_is_one_line(tmp_path, capsys):
    path = _copy(tmp_path, "UPDATE controller_audit SET locks = 'x' WHERE rowid = 1")
    assert bitbox_main(["audit", "--journal", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "controller_audit" in err[0], err


@pytest.mark.parametrize("sql, named", [
    ("CREATE TRIGGER wipe AFTER INSERT ON inputs BEGIN DELETE FROM games; END", "trigger 'wipe'"),
    ("CREATE VIEW peek AS SELECT * FROM games", "view 'peek'"),
])
def test_a_trigger_or_view_not_the_journals_is_refused_and_never_runs(tmp_path, capsys, sql, named):
    path = _copy(tmp_path, sql)
    before = path.read_bytes()
    assert lastonealive_main(["history", "--journal", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and named in err[0] and "left untouched" in err[0], err
    assert lastonealive_main(["play", "--headless", "--speed", "0", "--players", "3", "--bots", "3",
                              "--snapshots", str(tmp_path / "s"), "--journal", str(path)]) == 2
    err = capsys.readouterr().err
    assert named in err and "Traceback" not in err
    assert path.read_bytes() == before


@pytest.mark.parametrize("sql", [
    "UPDATE inputs SET phase = 'teleport' WHERE game = 1 AND seq = 20",
    "UPDATE inputs SET turn = turn + 3 WHERE game = 1 AND seq = 20",
])
def test_an_inputs_turn_or_phase_edited_is_an_altered_game(tmp_path, capsys, sql):
    """The turn and phase recorded with each input are not in the state fingerprints: the
    replay checks them against the game's own (the red team's edit passed history, export,
    import and replay's --suggest)."""
    path = _copy(tmp_path, sql)
    assert lastonealive_main(["export", "1", str(tmp_path / "g.json"), "--journal", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "game 1 was altered: input 20 records turn" in err[0], err
    assert not (tmp_path / "g.json").exists()
    assert lastonealive_main(["history", "--journal", str(path)]) == 2
    assert "game 1 was altered: input 20" in capsys.readouterr().err


@pytest.mark.parametrize("names, words", [
    ({"red": "A\u001b[2J\u0007"}, "control character"),
    ({"blue": "\u202eB"}, "control character"),
    ({"red": "x" * 100_000}, "characters"),
    ({"purple": "Ana"}, "not a player of the game"),
    ({"red": ["Ana"]}, "not a name --names takes"),
])
def test_a_game_file_whose_names_play_would_refuse_is_not_imported(tmp_path, capsys, names, words):
    """A name --names refuses was imported, then left out without a word (the red team)."""
    import json
    path = _copy(tmp_path, "")
    assert lastonealive_main(["export", "1", str(tmp_path / "g.json"), "--journal", str(path)]) == 0
    doc = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    doc["settings"]["names"] = names
    (tmp_path / "g.json").write_text(json.dumps(doc), encoding="utf-8")
    capsys.readouterr()
    target = tmp_path / "new.sqlite"
    assert lastonealive_main(["import", str(tmp_path / "g.json"), "--journal", str(target)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0] and "nothing was imported" in err[0], err


def test_export_analysis_that_is_a_pipe_a_device_or_a_name_too_long_is_one_line(tmp_path, capsys):
    """`export --analysis` read a named pipe or /dev/zero for ever and was a traceback for a
    name the system refuses (the red team)."""
    import os
    path = _copy(tmp_path, "")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for given, words in ((str(fifo), "is not a regular file"), ("/dev/zero", "is not a regular file"),
                         ("A" * 5000, "File name too long")):
        assert lastonealive_main(["export", "1", str(tmp_path / "g.json"), "--journal", str(path),
                                  "--analysis", given]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0] and "Traceback" not in err[0], err
        assert not (tmp_path / "g.json").exists()
