"""``analyse`` of a game stopped before its first input (killed while the first answers were
being chosen): one line, exit 2, nothing written; it was a traceback out of the chart
(``min() arg is an empty sequence``). The tutorial game."""
from __future__ import annotations

from pathlib import Path

from bitbox.cli import main


def journal_with_a_game_without_inputs(tmp_path: Path) -> Path:
    from bitbox.games import find
    from bitbox.table.journal import Journal
    from bitbox.table.protocol_rules import ProtocolJournalRules
    c = find("goofspiel")
    j = Journal(tmp_path / "j.sqlite", ProtocolJournalRules(c))
    game = c.new(["red", "blue"], 3, {"cards": 3})
    record = j.new_game(game, {"seats": [{"player": "red", "kind": "bot", "controller_id": None},
                                         {"player": "blue", "kind": "bot", "controller_id": None}],
                               "lang": "en", "bot": "random", "options": {"cards": 3}, "seed": "given"})
    assert record.id == 1
    j.close()
    return tmp_path / "j.sqlite"


def test_a_game_without_inputs_is_one_line(tmp_path, capsys):
    path = journal_with_a_game_without_inputs(tmp_path)
    out = tmp_path / "analysis"
    code = main(["game", "goofspiel", "analyse", "1", "--journal", str(path), "--out", str(out), "--rollouts", "2"])
    captured = capsys.readouterr()
    assert code == 2 and not out.exists() and captured.out == ""
    assert captured.err == "bitbox game goofspiel analyse: game 1 has no input yet: nothing to analyse\n"
