"""The lines that name a command for a game of the journal (resume it, replay it, the game of
another cartridge) name one that exists: a game's own script when it has one (`outspeed`),
else the console's `bitbox game NAME` (the tutorial game, on the shelf with no script)."""
from __future__ import annotations

import subprocess

from .test_console_table import PY, env, run


def test_a_game_without_a_script_of_its_own_is_named_by_the_consoles_command(tmp_path):
    r = run(["play", "--headless", "--speed", "0", "--players", "2", "--seed", "1", "--cards", "3", "--journal",
             "j.sqlite", "--snapshots", "s", "--size", "320x180"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert run(["export", "1", "g.json", "--journal", "j.sqlite"], tmp_path).returncode == 0
    imp = run(["import", "g.json", "--journal", "k.sqlite"], tmp_path)
    assert imp.returncode == 0, imp.stderr
    assert imp.stdout.strip().endswith("`bitbox game goofspiel replay 1 --journal k.sqlite` shows it"), imp.stdout
    other = subprocess.run([PY, "-m", "outspeed.cli", "replay", "1", "--journal", "k.sqlite", "--headless"],
                           cwd=tmp_path, env=env(tmp_path), capture_output=True, text=True, timeout=120)
    assert other.returncode == 2
    assert other.stderr.strip() == ("outspeed replay: game 1 is a Goofspiel game: use `bitbox game goofspiel replay 1 "
                                   "--journal k.sqlite`")


def test_the_resume_hint_of_history_names_the_consoles_command(tmp_path):
    from bitbox.games import find
    from bitbox.table.journal import Journal
    from bitbox.table.protocol_rules import ProtocolJournalRules
    c = find("goofspiel")
    with Journal(tmp_path / "j.sqlite", ProtocolJournalRules(c)) as j:
        j.new_game(c.new(["red", "blue"], 3, {"cards": 4}),
                   {"seats": [{"player": "red", "kind": "bot", "controller_id": None},
                              {"player": "blue", "kind": "bot", "controller_id": None}],
                    "lang": "en", "bot": "random", "options": {"cards": 4}, "seed": "given"})
    h = run(["history", "--journal", "j.sqlite"], tmp_path)
    assert h.returncode == 0 and "unfinished (bitbox game goofspiel play --resume --journal j.sqlite)" in h.stdout, h.stdout
    other = subprocess.run([PY, "-m", "outspeed.cli", "play", "--resume", "--headless", "--journal", "j.sqlite"],
                           cwd=tmp_path, env=env(tmp_path), capture_output=True, text=True, timeout=120)
    assert other.returncode == 2
    assert other.stderr.strip().endswith("use `bitbox game goofspiel play --resume --journal j.sqlite`"), other.stderr
