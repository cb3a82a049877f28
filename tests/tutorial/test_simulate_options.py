"""`bitbox simulate GAME` with the game's own options, spelled as its `play` spells them (and
`bitbox game GAME simulate`, the same command): a simulation of any cartridge with its options,
on the tutorial game (docs/games.md, "Step 6"). Its option `cards` sets the rounds, so the
prompts per game show it was played; a bad value or name is one line, exit 2."""
from __future__ import annotations

import json

import pytest

from bitbox.cli import main


def test_an_option_reaches_every_game_the_report_and_results_json(capsys, tmp_path) -> None:
    assert main(["simulate", "goofspiel", "--players", "2", "--games", "4", "--cards", "3",
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
    assert game_main(["simulate", "--players", "3", "--games", "2", "--cards", "4", "-q"], "goofspiel") == 0
    assert "4.0 prompts answered per game" in capsys.readouterr().out    # 4 rounds


@pytest.mark.parametrize("args,words", [
    (["--cards", "9"], ("--cards", "9")),
    (["--cards", "many"], ("--cards", "many")),
    (["--colour", "red"], ("--colour",)),
])
def test_a_bad_option_is_one_line(capsys, args: list[str], words: tuple[str, ...]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "goofspiel", "--games", "1", *args, "-q"])
    assert stop.value.code == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err and captured.out == "", err
    assert all(w in err for w in words), err
