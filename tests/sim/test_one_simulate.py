"""One `simulate` for every way of calling it (bitbox/simulation/command.py): `NAME simulate`,
`bitbox simulate NAME` and `bitbox game NAME simulate` are the same parser and the same run, so
for the same arguments they print the same report and write the same results.json (its `run`
naming the game's own command) and games.csv, for both games; the game's options keep their
spelling (`--first-game`; `--variant` repeatable or comma-separated, `--first-zombie`)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bitbox.cli import main as bitbox

GAMES = {
    "outspeed": ["--games", "4", "--players", "3", "--bots", "random,greedy", "--seed", "5", "--first-game"],
    "lastonealive": ["--games", "4", "--players", "3", "--bots", "careful,random", "--seed", "2",
                     "--variant", "survivors", "--variant", "day_night", "--first-zombie", "first"],
}


def own(name: str):
    if name == "outspeed":
        from outspeed.cli import main
    else:
        from lastonealive.cli import main
    return main


def report(text: str) -> list[str]:
    lines = [line for line in text.splitlines() if not line.startswith(("played in", "charts and data"))]
    while lines and not lines[-1]:
        lines.pop()
    return lines


@pytest.mark.parametrize("name", list(GAMES))
def test_the_game_command_and_bitbox_simulate_write_the_same_run(name: str, tmp_path: Path, monkeypatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # the charts are left out (seconds of matplotlib each): their bytes are the game's statistics'
    # (tests/sim/test_simulate.py, tests/lastonealive/test_simulate.py draw them)
    import lastonealive.sim.stats
    import outspeed.sim.stats
    for stats in (outspeed.sim.stats.Stats, lastonealive.sim.stats.Stats):
        monkeypatch.setattr(stats, "figures", lambda self, config: {})
    args = GAMES[name]
    assert own(name)(["simulate", *args, "-q", "--out", str(tmp_path / "own")]) == 0
    mine = capsys.readouterr()
    assert bitbox(["simulate", name, *args, "-q", "--out", str(tmp_path / "bitbox")]) == 0
    console = capsys.readouterr()
    assert mine.err == console.err == ""
    assert report(console.out) == report(mine.out)
    assert "3 players" in mine.out.splitlines()[0]
    for f in ("results.json", "games.csv"):
        assert (tmp_path / "bitbox" / f).read_bytes() == (tmp_path / "own" / f).read_bytes(), f
    data = json.loads((tmp_path / "own" / "results.json").read_text(encoding="utf-8"))
    assert data["run"]["command"] == f"{name} simulate"
    if name == "outspeed":
        assert data["config"]["first_game"] is True
    else:
        assert data["config"]["variants"] == ["survivors", "day_night"]
        assert data["config"]["first_zombie"] == "first"
    # the third way, `bitbox game NAME simulate`: the same report
    assert bitbox(["game", name, "simulate", *args, "-q"]) == 0
    assert report(capsys.readouterr().out) == report(mine.out)


def test_variants_comma_separated_are_the_repeated_flag(capsys: pytest.CaptureFixture[str]) -> None:
    from lastonealive.cli import main
    base = ["simulate", "--games", "2", "--players", "3", "-q"]
    assert main([*base, "--variant", "day_night,zombies_everywhere"]) == 0
    comma = capsys.readouterr().out
    assert main([*base, "--variant", "day_night", "--variant", "zombies_everywhere"]) == 0
    assert report(capsys.readouterr().out) == report(comma)
    assert "day_night, zombies_everywhere" in comma.splitlines()[0]


@pytest.mark.parametrize("argv,message", [
    (["simulate", "lastonealive", "--variant", "nightmare"],
     "bitbox simulate: unknown variant 'nightmare' in --variant (known: survivors, day_night, zombies_everywhere, "
     "zombified_rolls)"),
    (["simulate", "lastonealive", "--variant", "survivors", "--players", "4"],
     "bitbox simulate: --variant survivors is for 2 or 3 players, not --players 4"),
    (["simulate", "nosuchgame", "--games", "2"], "bitbox simulate: no game called 'nosuchgame'"),
])
def test_bitbox_simulate_refuses_in_one_line_as_the_game_does(argv: list[str], message: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert bitbox(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(message), err
