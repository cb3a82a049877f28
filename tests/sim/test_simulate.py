"""`outspeed simulate`: determinism whatever the workers, the figures, charts, bad arguments."""
from __future__ import annotations

import csv
import io
import json

import pytest

from outspeed.cli import main
from outspeed.sim import SimConfig, Stats, bot_seed, game_seed, play_one, simulate
from outspeed.sim.runner import Progress


def test_seeds_are_derived_from_run_seed_and_index():
    seeds = {game_seed(0, i) for i in range(1000)}
    assert len(seeds) == 1000
    assert game_seed(5, 3) == game_seed(5, 3) != game_seed(6, 3)
    assert bot_seed(game_seed(5, 3), 0) != bot_seed(game_seed(5, 3), 1)
    assert all(0 <= s < 2**63 for s in seeds)


def test_bots_cycle_over_seats_and_rotate_by_game():
    c = SimConfig(games=4, players=5, bots=("random", "greedy"))
    assert c.seat_bots(0) == ["random", "greedy", "random", "greedy", "random"]
    assert c.seat_bots(1) == ["greedy", "random", "greedy", "random", "greedy"]
    fixed = SimConfig(games=4, players=3, bots=("random", "greedy", "lookahead"), rotate=False)
    assert fixed.seat_bots(0) == fixed.seat_bots(7) == ["random", "greedy", "lookahead"]
    with pytest.raises(ValueError, match="unknown bot"):
        SimConfig(games=1, bots=("nope",))


def test_a_record_says_who_won_how_ships_went_out_and_what_was_picked(content):
    config = SimConfig(games=1, players=6, bots=("random",))
    rec = play_one(config, content, 0)
    assert rec == play_one(config, content, 0)
    assert abs(sum(rec["wins"]) - (1 if any(rec["wins"]) else 0)) < 1e-9
    assert all(1 <= x <= 6 for x in rec["place"]) and min(rec["place"]) == 1
    assert len(rec["picks"]) == rec["turns"] or rec["end"] != "finish"
    for tile, face, picks in rec["picks"]:
        assert 1 <= tile <= 16 and face in ("3-4", "5-6")
        assert all(path in ("left", "center", "right") for _, path in picks)
    for seat, cause, turn in rec["eliminated"]:
        assert rec["zone"][seat] is None and cause in ("fuel", "overpaid", "board", "pushed")


def test_stats_from_hand_made_records():
    def rec(wins, picks, eliminated=(), zone=(10, 11, 12), place=(1, 2, 3), bots=("a", "b", "a")):
        return {"index": 0, "seed": 0, "bots": list(bots), "wins": list(wins), "zone": list(zone),
                "place": list(place), "eliminated": [list(e) for e in eliminated], "turns": 13, "end": "finish",
                "picks": picks}

    stats = Stats(3).extend([
        rec([1, 0, 0], [[1, "3-4", [[0, "left"], [1, "center"], [2, "center"]]]]),
        rec([0, 0.5, 0.5], [[1, "3-4", [[0, "left"], [1, "left"], [2, "center"]]]],
            eliminated=[[0, "board", 5]], zone=(None, 11, 11), place=(3, 1, 1)),
    ])
    seats = stats.by_seat()
    assert [r["wins"] for r in seats] == [1, 0.5, 0.5]
    assert seats[0]["survived"] == 0.5 and seats[0]["eliminated"]["board"] == 1
    bots = {r["bot"]: r for r in stats.by_bot()}
    assert bots["a"]["games"] == 4 and bots["a"]["wins"] == 1.5 and bots["b"]["wins"] == 0.5
    elim = {r["cause"]: r for r in stats.eliminations()}
    assert elim["board"]["count"] == 1 and elim["board"]["avg_turn"] == 5 and elim["fuel"]["avg_turn"] is None
    rows = {r["path"]: r for r in stats.path_rows({(1, "3-4"): ("left", "center")})}
    assert set(rows) == {"left", "center"}
    # 6 programs on tile 1: left 3 (wins 1 + 0 + 0.5), center 3 (wins 0 + 0 + 0.5); everyone: 2 / 6.
    assert rows["left"]["pick_rate"] == 0.5
    assert rows["left"]["win_rate"] == pytest.approx(1.5 / 3)
    assert rows["left"]["contribution"] == pytest.approx(1.5 / 3 - 2 / 6)
    assert rows["center"]["contribution"] == pytest.approx(0.5 / 3 - 2 / 6)


def test_same_report_whatever_the_number_of_workers(content):
    config = SimConfig(games=12, players=4, bots=("random", "greedy"), seed=3)
    one = simulate(config, workers=1, content=content)
    two = simulate(config, workers=2, content=content)
    assert json.dumps(one.to_data(), sort_keys=True) == json.dumps(two.to_data(), sort_keys=True)
    assert one.stats.games == 12
    other = simulate(SimConfig(games=12, players=4, bots=("random", "greedy"), seed=4), content=content)
    assert other.to_data() != one.to_data()


def test_progress_bar_lines_when_not_a_terminal():
    out = io.StringIO()
    bar = Progress(20, out)
    for _ in range(20):
        bar.update(1)
    bar.close()
    lines = out.getvalue().splitlines()
    assert 2 <= len(lines) <= 11 and "20/20 games" in lines[-1] and "100%" in lines[-1]


def _hand_made_stats():
    def rec(wins, picks, eliminated=(), zone=(10, 11, 12), place=(1, 2, 3), bots=("a", "b", "a")):
        return {"index": 0, "seed": 0, "bots": list(bots), "wins": list(wins), "zone": list(zone),
                "place": list(place), "eliminated": [list(e) for e in eliminated], "turns": 13, "end": "finish",
                "picks": picks}

    return Stats(3).extend([
        rec([1, 0, 0], [[1, "3-4", [[0, "left"], [1, "center"], [2, "center"]]],
                        [2, "3-4", [[0, "left"], [1, "right"], [2, "right"]]]]),
        rec([0, 0.5, 0.5], [[1, "3-4", [[0, "left"], [1, "left"], [2, "center"]]]],
            eliminated=[[0, "board", 5]], zone=(None, 11, 11), place=(3, 1, 1)),
    ])


def test_results_give_every_rate_its_wilson_interval_and_a_path_nobody_took_no_rate():
    from bitbox.simulation.rates import wilson
    stats = _hand_made_stats()
    lit = {(1, "3-4"): ("left", "center", "right"), (2, "3-4"): ("left", "right")}
    seat1 = stats.by_seat()[0]
    assert seat1["seat"] == 1 and seat1["win_rate_n"] == 2 and seat1["win_rate_small_sample"]
    assert seat1["win_rate_ci95"] == pytest.approx(list(wilson(1, 2)))
    assert seat1["survived_ci95"] == pytest.approx(list(wilson(1, 2)))
    rows = {(r["tile"], r["path"]): r for r in stats.path_rows(lit)}
    assert (2, "center") not in rows                                  # not lit on tile 2: no row at all
    never = rows[(1, "right")]                                        # lit, nobody took it
    assert never["picks"] == 0 and never["pick_rate"] == 0.0 and never["pick_rate_ci95"][0] == 0.0
    assert never["win_rate"] is None and never["win_rate_ci95"] is None and never["contribution"] is None
    assert rows[(1, "left")]["win_rate_ci95"] == pytest.approx(list(wilson(1.5, 3)))


def test_charts_read_back_rates_from_0_intervals_unlit_and_untaken_paths_whole_turns():
    from outspeed.sim.charts import UNLIT, figures
    from bitbox.simulation.charts import pyplot
    stats = _hand_made_stats()
    lit = {(1, "3-4"): ("left", "center", "right"), (2, "3-4"): ("left", "right")}
    figs = figures(stats, SimConfig(games=2, players=3), lit)
    assert set(figs) == {"win_rate.png", "finishing.png", "eliminations.png", "paths.png", "game_length.png"}
    try:
        seat_ax, bot_ax = figs["win_rate.png"].axes
        heights = [p.get_height() for p in seat_ax.patches]
        assert heights == pytest.approx([50.0, 25.0, 25.0])
        assert seat_ax.get_ylim()[0] == 0 and max(seat_ax.get_yticks()) == 100
        assert all(p.get_hatch() for p in seat_ax.patches)           # 2 games a seat: small samples
        assert any(t.get_text() == "n=2" for t in seat_ax.texts)
        for ax in figs["finishing.png"].axes:                          # zone, survival, place: from 0
            assert ax.get_ylim()[0] == 0
        pick_ax, win_ax = figs["paths.png"].axes
        w = 0.8 / 3

        def x_of(face_index: int, path_index: int) -> float:
            return round(face_index - 0.4 + w * (path_index + 0.5), 6)

        def bars_at(ax) -> dict[float, float]:
            return {round(p.get_x() + p.get_width() / 2, 6): p.get_height() for p in ax.patches}

        # tile 1, right: lit and never taken. Its pick rate is a real 0 % (a zero-height bar with
        # its interval); its pickers' win rate does not exist: no bar, "—" and n=0 instead.
        assert bars_at(pick_ax)[x_of(0, 2)] == 0
        assert x_of(0, 2) not in bars_at(win_ax)
        texts = {(round(t.get_position()[0], 6), t.get_text()) for t in win_ax.texts}
        assert (x_of(0, 2), "—\nn=0") in texts
        # tile 2, center: not lit. No bar in either chart, the "not lit" mark instead.
        for ax in (pick_ax, win_ax):
            assert x_of(1, 1) not in bars_at(ax)
            assert (x_of(1, 1), UNLIT) in {(round(t.get_position()[0], 6), t.get_text()) for t in ax.texts}
        assert bars_at(win_ax)[x_of(0, 0)] == pytest.approx(50.0)      # 1.5 wins over 3 pickers
        length_ax, = figs["game_length.png"].axes
        figs["game_length.png"].canvas.draw()
        assert all(float(t).is_integer() for t in length_ax.get_xticks()) and length_ax.get_ylim()[0] == 0
        by_turn_ax = figs["eliminations.png"].axes[1]
        figs["eliminations.png"].canvas.draw()
        assert all(float(t).is_integer() for t in by_turn_ax.get_xticks())
    finally:
        for fig in figs.values():
            pyplot().close(fig)


def test_games_csv_a_row_per_game(tmp_path, content):
    config = SimConfig(games=3, players=3, bots=("random", "greedy"), seed=9)
    result = simulate(config, content=content)
    result.log.write(tmp_path)           # games.csv as Result.write writes it (its charts: the test below)
    rows = list(csv.DictReader((tmp_path / "games.csv").open(encoding="utf-8", newline="")))
    assert [int(r["game"]) for r in rows] == [0, 1, 2]
    for i, row in enumerate(rows):
        rec = play_one(config, content, i)
        assert int(row["seed"]) == rec["seed"] == game_seed(9, i) and row["players"] == "3"
        assert [row[f"seat{k}_bot"] for k in (1, 2, 3)] == config.seat_bots(i)
        winners = [k + 1 for k, w in enumerate(rec["wins"]) if w]
        assert row["winners"] == " ".join(map(str, winners))
        assert row["winner_colours"] == " ".join(("red", "blue", "green")[k - 1] for k in winners)
        assert int(row["turns"]) == rec["turns"] and row["end"] == rec["end"]
        assert row["tiles"].split() == [f"{t}/{f}" for t, f, _ in rec["picks"]]
        for k in range(3):
            assert int(row[f"seat{k + 1}_place"]) == rec["place"][k]
            assert row[f"seat{k + 1}_zone"] == ("" if rec["zone"][k] is None else str(rec["zone"][k]))
            assert row[f"seat{k + 1}_paths"].split() == [p for _, _, picks in rec["picks"] for s, p in picks if s == k]
    # the same file with 2 workers
    again = tmp_path / "again"
    again.mkdir()
    simulate(config, workers=2, content=content).log.write(again)
    assert (again / "games.csv").read_bytes() == (tmp_path / "games.csv").read_bytes()


@pytest.mark.heavy
def test_cli_prints_the_tables_and_writes_charts(tmp_path, capsys):
    out = tmp_path / "charts"
    code = main(["simulate", "--games", "6", "--players", "3", "--bots", "random,greedy,lookahead",
                 "--seed", "2", "--out", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    for heading in ("Win rate by seat", "Win rate by bot", "Eliminations by cause", "Game length",
                    "Paths by tile face", "lookahead"):
        assert heading in text
    assert "\x1b" not in text                          # plain text, no terminal codes
    names = {p.name for p in out.iterdir()}
    assert {"win_rate.png", "finishing.png", "eliminations.png", "paths.png", "game_length.png",
            "results.json", "games.csv"} <= names
    assert (out / "paths.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads((out / "results.json").read_text())
    assert data["config"]["bots"] == ["random", "greedy", "lookahead"] and data["games"] == 6


@pytest.mark.parametrize("args,message", [
    (["--games", "0"], "--games must be 1 or more"),
    (["--players", "7"], "--players must be 3 to 6"),
    (["--players", "2"], "--players must be 3 to 6"),
    (["--bots", "random,clever"], "unknown bot 'clever' in --bots (known: mixed, random, greedy, lookahead)"),
    (["--bots", ","], "--bots needs at least one bot name"),
    (["--workers", "0"], "--workers must be 1 or more"),
])
def test_bad_arguments_exit_2_with_a_clear_message(args, message, capsys):
    assert main(["simulate", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("outspeed simulate: ") and message in err


def test_out_must_be_a_directory(tmp_path, capsys):
    f = tmp_path / "file.txt"
    f.write_text("x")
    assert main(["simulate", "--games", "1", "--out", str(f)]) == 2
    assert "is not a directory" in capsys.readouterr().err


def test_unparsable_numbers_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--games", "many"])
    assert exc.value.code == 2
    assert "invalid int value: 'many'" in capsys.readouterr().err
