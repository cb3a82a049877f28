"""A file refused as a journal is named as the journal of the game whose command opened it
(``not a Last One Alive journal``), for every game: Outspeed, Last One Alive and the tutorial
game, through each journal command that opens a file (history, replay, export, import,
analyse, play --resume); the console's own commands (no one game) say ``an 8Bitbox journal``.
Real files: a text file, another program's SQLite database, an empty file, a FIFO."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from bitbox.table.journal import Journal, JournalError

GAMES = [("outspeed", "an Outspeed journal"), ("lastonealive", "a Last One Alive journal"),
         ("goofspiel", "a Goofspiel journal")]


def _files(tmp_path: Path) -> dict[str, Path]:
    text = tmp_path / "notes.sqlite"
    text.write_text("shopping list\n" * 100)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    db.close()
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    fifo = tmp_path / "pipe.sqlite"
    os.mkfifo(fifo)
    return {"text": text, "other": other, "empty": empty, "fifo": fifo}


@pytest.mark.parametrize("name,journal", GAMES)
def test_each_command_of_a_game_names_that_games_journal(tmp_path, capsys, name, journal):
    from bitbox.games import find
    from bitbox.table import journal_commands as jc
    kit = jc.kit_of(find(name))
    files = _files(tmp_path)
    runs = {"history": lambda p: jc.history(kit, str(p)),
            "replay": lambda p: jc.replay(kit, 1, str(p), headless=True),
            "export": lambda p: jc.export(kit, 1, str(tmp_path / "g.json"), str(p))}
    for what, path in files.items():
        for command, call in runs.items():
            assert call(path) == 2, (what, command)
            err = capsys.readouterr().err.strip()
            assert len(err.splitlines()) == 1 and str(path) in err, (what, command, err)
            assert f"not {journal}" in err, (what, command, err)
            assert name == "outspeed" or "Outspeed" not in err, err
    assert not (tmp_path / "g.json").exists()
    # import writes into the journal it opens: the file is refused as this game's, untouched
    with pytest.raises(JournalError, match=f"not {journal}"):
        Journal(files["other"], command=kit.command, game=name)
    assert files["text"].read_text() == "shopping list\n" * 100


def test_import_analyse_and_resume_name_the_game_whose_command_runs(tmp_path):
    from .test_console_table import run
    files = _files(tmp_path)
    r = run(["play", "--headless", "--speed", "0", "--players", "2", "--seed", "1", "--cards", "3", "--journal",
             "j.sqlite", "--snapshots", "s", "--size", "320x180"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert run(["export", "1", "g.json", "--journal", "j.sqlite"], tmp_path).returncode == 0
    for command in (["import", "g.json"], ["analyse", "1", "--rollouts", "2"], ["play", "--resume", "--headless"]):
        for what in ("text", "other"):
            r = run([*command, "--journal", str(files[what])], tmp_path)
            lines = r.stderr.strip().splitlines()
            assert r.returncode == 2 and len(lines) == 1, (command, r.stderr)
            assert str(files[what]) in lines[0] and "not a Goofspiel journal" in lines[0], (command, r.stderr)
    assert files["text"].read_text() == "shopping list\n" * 100


def test_the_consoles_own_commands_name_the_consoles_journal(tmp_path):
    files = _files(tmp_path)
    for path in (files["text"], files["other"], files["fifo"]):
        with pytest.raises(JournalError, match="not an 8Bitbox journal"):
            Journal(path, create=False)
