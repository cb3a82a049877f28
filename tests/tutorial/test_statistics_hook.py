"""The console's simulation runner with a third game's statistics hook (goofspiel_stats.py): the
hook sees every answer and every event of each game and adds its fields to the record, its
games.csv columns and report table; the console's heading, results.json and charts around
them; the same figures on 1 and 2 worker processes; `bitbox simulate` of the same game keeps
its plain win rates."""
from __future__ import annotations

import csv
import json

import pytest

from bitbox.simulation import runner
from bitbox.simulation.games import Run, records


@pytest.fixture(autouse=True)
def both_on_the_shelf(monkeypatch):
    monkeypatch.setenv("BITBOX_GAMES", "goofspiel=goofspiel:CARTRIDGE,goofstats=goofspiel_stats:CARTRIDGE")


def test_the_hook_records_each_game_from_its_answers_and_events():
    from goofspiel_stats import SimConfig
    config = SimConfig(games=6, players=3, bots=("random", "high"), seed=4, cards=5)
    cartridge = config.cartridge()
    for i in range(6):
        rec = runner.play_one(config, i, cartridge, cartridge.statistics)
        assert rec["bots"] == config.seat_bots(i) and rec["turns"] == 5
        assert [sorted(b) for b in rec["bids"]] == [[1, 2, 3, 4, 5]] * 3        # every card bid once
        top = max(rec["scores"])
        assert [w > 0 for w in rec["wins"]] == [s == top for s in rec["scores"]]
        assert sum(rec["scores"]) <= 15 and (rec["ties"] > 0 or sum(rec["scores"]) == 15) and rec["prompts"] == 5
        assert rec == runner.play_one(config, i, cartridge, cartridge.statistics)


def test_report_csv_results_and_charts_around_the_hook(tmp_path):
    from goofspiel_stats import SimConfig
    config = SimConfig(games=12, players=3, bots=("random", "high"), seed=4)
    one = runner.simulate(config, workers=1)
    text = one.report().splitlines()
    assert text[0] == "Goofspiel simulation: 12 games, 3 players, bots random,high (rotated over the seats game by " \
                      "game), seed 4"
    assert text[1].startswith("played in ") and "Mean score by seat" in text
    one.write(tmp_path / "one")
    assert sorted(p.name for p in (tmp_path / "one").iterdir()) == ["games.csv", "results.json", "win_rate.png"]
    rows = list(csv.DictReader((tmp_path / "one" / "games.csv").open(encoding="utf-8", newline="")))
    assert list(rows[0]) == ["game", "seed", "players", "seat1_bot", "seat2_bot", "seat3_bot", "winners",
                             "winner_colours", "turns", "seat1_score", "seat2_score", "seat3_score", "ties"]
    assert [r["turns"] for r in rows] == ["6"] * 12
    data = json.loads((tmp_path / "one" / "results.json").read_text(encoding="utf-8"))
    assert data["config"] == {"games": 12, "players": 3, "bots": ["random", "high"], "seed": 4, "cards": 6,
                              "rotate": True}
    assert data["games"] == 12 and [s["seat"] for s in data["by_seat"]] == [1, 2, 3]
    scores = [sum(int(r[f"seat{k}_score"]) for r in rows) / 12 for k in (1, 2, 3)]
    assert [s["mean_score"] for s in data["by_seat"]] == pytest.approx(scores)
    two = runner.simulate(config, workers=2)
    assert two.to_data() == one.to_data() and two.log.text() == one.log.text()


def test_bitbox_simulate_of_the_same_game_gives_its_plain_records():
    plain = next(records(Run("goofstats", 1, 3, ("random",))))
    assert set(plain) == {"index", "seed", "bots", "wins", "prompts"}


def test_its_simulate_command_runs_the_hook_with_the_games_option(capsys):
    """The console's `simulate` of a cartridge with a `simulation` member: its run (--cards, the
    game's option, as play spells it), its defaults, its statistics; refusals in one line."""
    from bitbox.cli import main
    assert main(["simulate", "goofstats", "--games", "6", "--bots", "random,high", "--cards", "5", "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Goofspiel simulation: 6 games, 3 players, bots random,high (rotated over the seats game by " \
                     "game), seed 0"
    assert "Mean score by seat" in out
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "goofstats", "--games", "2", "--cards", "9", "-q"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1
    assert err.startswith("bitbox simulate: argument --cards: invalid choice: 9 (choose from 3, 4, 5, 6, 7, 8)")
    assert main(["simulate", "goofstats", "--games", "2", "--players", "4", "--cards", "3", "--bots", "high", "-q"]) == 0
    assert capsys.readouterr().out.startswith("Goofspiel simulation: 2 games, 4 players, bots high")


def test_a_config_is_checked_in_one_line():
    from goofspiel_stats import SimConfig
    with pytest.raises(ValueError, match="Goofspiel is for 2 to 4 players, not 5"):
        SimConfig(games=1, players=5)
    with pytest.raises(ValueError, match=r"unknown bot 'clever' \(known: random, high, search\)"):
        SimConfig(games=1, bots=("clever",))
    with pytest.raises(ValueError, match="cards must be 3 to 8, not 9"):
        SimConfig(games=1, cards=9)
    with pytest.raises(ValueError, match="the number of games must be 1 or more, not 0"):
        SimConfig(games=0)
