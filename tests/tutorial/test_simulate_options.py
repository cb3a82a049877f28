"""`bitbox simulate GAME --option NAME=VALUE` (and `bitbox game GAME simulate`, which passes
its arguments on): a simulation of any cartridge with its own options, on the tutorial game
(docs/games.md, "Step 6"). Its option `cards` sets the rounds, so the prompts per game show it
was played; a bad value or name is one line, exit 2."""
from __future__ import annotations

import json

import pytest

from bitbox.cli import main


def test_an_option_reaches_every_game_the_report_and_results_json(capsys, tmp_path) -> None:
    assert main(["simulate", "goofspiel", "--players", "2", "--games", "4", "--option", "cards=3",
                 "--out", str(tmp_path / "three"), "-q"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("seed 0, cards 3")
    assert "3.0 prompts answered per game" in out                     # 3 rounds (a round is one step)
    data = json.loads((tmp_path / "three" / "results.json").read_text(encoding="utf-8"))
    assert data["options"] == {"cards": 3} and data["prompts_per_game"] == 3
    assert main(["simulate", "goofspiel", "--players", "2", "--games", "4", "-q"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("seed 0") and "6.0 prompts answered per game" in out   # the default, 6


def test_the_games_own_simulate_command_takes_it_too(capsys) -> None:
    from bitbox.table.command import main as game_main
    assert game_main(["simulate", "--players", "3", "--games", "2", "--option", "cards=4", "-q"], "goofspiel") == 0
    assert "4.0 prompts answered per game" in capsys.readouterr().out    # 4 rounds


@pytest.mark.parametrize("option,line", [
    ("cards=9", "bitbox simulate: option cards: must be one of 3, 4, 5, 6, 7, 8, not 9"),
    ("cards=many", "bitbox simulate: option cards: must be a whole number, not 'many'"),
    ("colour=red", "bitbox simulate: option colour: unknown option for goofspiel (known: cards)"),
    ("cards", "bitbox simulate: --option 'cards': give NAME=VALUE (e.g. --option cards=...)"),
])
def test_a_bad_option_is_one_line(capsys, option: str, line: str) -> None:
    assert main(["simulate", "goofspiel", "--games", "1", "--option", option, "-q"]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == line and "Traceback" not in captured.err and captured.out == ""
