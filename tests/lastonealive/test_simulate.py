"""`lastonealive simulate`: records, statistics, the command through real subprocesses (exit 0,
tables, charts and results.json written, the same figures for a seed whatever --workers),
bad arguments (one line, exit 2) and Ctrl-C/SIGTERM (the harness's workers ignore SIGINT; the
command says one line and leaves no process)."""
from __future__ import annotations

import csv
import json
import math
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lastonealive.cli import main
from lastonealive.sim import SimConfig, Stats, play_one, simulate
from lastonealive.sim.runner import game_seed
from lastonealive.sim.stats import TOKENS
from tests.signalling import Lines, default_signals, end_group

LOA = [sys.executable, "-m", "lastonealive.cli"]
PNG = b"\x89PNG\r\n\x1a\n"


def test_seeds_and_seats() -> None:
    assert game_seed(0, 0) != game_seed(0, 1) and game_seed(0, 1) == game_seed(0, 1)
    c = SimConfig(games=3, players=3, bots=("careful", "random"))
    assert [c.seat_bots(i) for i in range(2)] == [["careful", "random", "careful"], ["random", "careful", "random"]]
    assert SimConfig(games=1, players=3, bots=("careful", "random"), rotate=False).seat_bots(1) == \
        ["careful", "random", "careful"]


@pytest.mark.parametrize("kwargs,message", [
    ({"games": 0}, "the number of games must be 1 or more"),
    ({"players": 6}, "Last One Alive is for 2 to 5 players, not 6"),
    ({"bots": ("clever",)}, "unknown bot 'clever'"),
    ({"variants": ("nightmare",)}, "unknown variant 'nightmare'"),
    ({"variants": ("survivors",), "players": 4}, "the survivors variant is for 2 or 3 players, not 4"),
])
def test_bad_configs_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SimConfig(**{"games": 1, **kwargs})


def test_a_record_says_who_won_how_long_each_lasted_and_the_tokens_used() -> None:
    config = SimConfig(games=1, players=4, bots=("careful", "random"), seed=5)
    rec = play_one(config, 0)
    assert rec == play_one(config, 0)                                   # deterministic
    assert sum(rec["wins"]) == pytest.approx(1.0)
    winner = rec["wins"].index(1.0)
    assert rec["out"][winner] is None and all(rec["out"][k] is not None for k in range(4) if k != winner)
    assert rec["turns"] == len(rec["levels"]) == sum(rec["own_turns"])
    assert rec["levels"][0] >= 1 and all(b >= a for a, b in zip(rec["levels"], rec["levels"][1:]))   # base game
    assert rec["end"] == "the last one alive"
    for seat, token, mode, window, survived in rec["uses"]:
        assert token in ("axe", "chainsaw", "flare", "pistol", "radio", "barricade", "hero")
        assert window in ("before", "after", "before_shoot", "before_barricades")
        assert isinstance(survived, bool)
    json.dumps(rec)


def test_stats_from_hand_made_records() -> None:
    base = {"own_turns": [3, 2], "lives_lost": [0, 0], "heroes": [1, 0], "drawn": [[1, 0], [0, 2]],
            "medkits": [], "end": "the last one alive"}
    recs = [
        {**base, "bots": ["careful", "random"], "wins": [1.0, 0.0], "out": [None, 5], "levels": [1, 1, 2, 2, 2],
         "turns": 5, "uses": [[0, "pistol", "before", "before", True], [1, "flare", "pass", "before", False]],
         "medkits": [[1, False]]},
        {**base, "bots": ["random", "careful"], "wins": [0.0, 1.0], "out": [5, None], "levels": [1, 2, 2],
         "turns": 3, "uses": [[1, "pistol", "reroll", "after", True], [1, "pistol", "before", "before", True]]},
    ]
    s = Stats(2).extend(recs)
    bots = {r["bot"]: r for r in s.by_bot()}
    assert bots["careful"]["win_rate"] == 1.0 and bots["random"]["win_rate"] == 0.0
    assert bots["careful"]["turns_survived"] == 2.5 and bots["random"]["out"] == 1.0
    assert bots["random"]["turn_survival"] == pytest.approx(1 - 2 / 5)
    assert s.levels() == [{"turn": 1, "games": 2, "mean_level": 1.0}, {"turn": 2, "games": 2, "mean_level": 1.5},
                          {"turn": 3, "games": 2, "mean_level": 2.0}, {"turn": 4, "games": 1, "mean_level": 2.0},
                          {"turn": 5, "games": 1, "mean_level": 2.0}]
    assert s.final_levels() == {2: 2}
    rows = {(r["bot"], r["token"]): r for r in s.token_rows()}
    pistol = rows[("careful", "pistol")]
    assert pistol["uses"] == 3 and pistol["per_game"] == 1.5 and pistol["modes"] == {"before": 2, "reroll": 1}
    assert pistol["games_used"] == 2 and pistol["win_rate_users"] == 1.0 and pistol["contribution"] == 0.0
    assert rows[("random", "flare")]["survived"] == 0.0
    medkit = rows[("random", "medkit")]
    assert medkit["modes"] == {"auto": 1} and medkit["survived"] == 0.0
    assert s.length() == {"mean": 4.0, "histogram": {3: 1, 5: 1}, "ends": {"the last one alive": 2}}


def test_rates_have_wilson_intervals_and_a_token_never_used_has_no_rate() -> None:
    from bitbox.simulation.charts import pyplot
    from bitbox.simulation.rates import wilson
    from lastonealive.sim.charts import figures
    base = {"own_turns": [3, 2], "lives_lost": [0, 0], "heroes": [1, 0], "drawn": [[1, 0], [0, 2]],
            "medkits": [], "end": "the last one alive", "turns": 5, "levels": [1, 1, 2, 2, 2]}
    recs = [{**base, "bots": ["careful", "random"], "wins": [1.0, 0.0], "out": [None, 5],
             "uses": [[0, "pistol", "before", "before", True], [0, "pistol", "before", "before", False]]},
            {**base, "bots": ["random", "careful"], "wins": [0.0, 1.0], "out": [5, None], "uses": []}]
    s = Stats(2).extend(recs)
    careful = {r["bot"]: r for r in s.by_bot()}["careful"]
    assert careful["win_rate_ci95"] == pytest.approx(list(wilson(2, 2))) and careful["win_rate_small_sample"]
    assert careful["turn_survival_n"] == 3 + 2 and careful["turn_survival"] == 1.0
    pistol = {(r["bot"], r["token"]): r for r in s.token_rows()}[("careful", "pistol")]
    assert pistol["survived_ci95"] == pytest.approx(list(wilson(1, 2))) and pistol["survived_n"] == 2
    figs = figures(s, SimConfig(games=2, players=2, bots=("careful", "random")))
    try:
        _, survival = figs["tokens.png"].axes
        bars = {round(p.get_x() + p.get_width() / 2, 6): p.get_height() for p in survival.patches}
        # careful (first of two bots) used the pistol only: one bar, at the pistol, 50 %
        pistol_x = round(TOKENS.index("pistol") - 0.4 + 0.4 * 0.5, 6)
        assert bars == {pistol_x: pytest.approx(50.0)}
        marks = [t for t in survival.texts if t.get_text() == "—\nn=0"]
        assert len(marks) == 2 * len(TOKENS) - 1                       # every other token and bot: no rate
        assert survival.get_ylim()[0] == 0 and max(survival.get_yticks()) == 100
        turns = figs["turns.png"].axes[2]
        figs["turns.png"].canvas.draw()
        assert all(float(t).is_integer() for t in turns.get_xticks())
        level = figs["level.png"].axes[0]
        assert level.get_ylim()[0] == 0
        pale, solid = level.get_lines()               # 2 games going: every turn is a small sample
        assert pale.get_linestyle() == "--" and all(math.isnan(y) for y in solid.get_ydata())
    finally:
        for fig in figs.values():
            pyplot().close(fig)


def test_games_csv_rows_follow_the_records(tmp_path: Path) -> None:
    config = SimConfig(games=3, players=3, bots=("careful", "random"), seed=2)
    result = simulate(config)
    result.log.write(tmp_path)           # games.csv as Result.write writes it (its charts: the command's test)
    rows = list(csv.DictReader((tmp_path / "games.csv").open(encoding="utf-8", newline="")))
    assert len(rows) == 3
    for i, row in enumerate(rows):
        rec = play_one(config, i)
        winners = [k + 1 for k, w in enumerate(rec["wins"]) if w]
        assert row["seed"] == str(rec["seed"]) and row["winners"] == " ".join(map(str, winners))
        assert row["winner_colours"] == " ".join(("red", "blue", "green")[k - 1] for k in winners)
        assert int(row["turns"]) == rec["turns"] and int(row["final_level"]) == rec["levels"][-1]
        for k in range(3):
            assert row[f"seat{k + 1}_bot"] == config.seat_bots(i)[k]
            assert int(row[f"seat{k + 1}_turns"]) == rec["own_turns"][k]
            assert row[f"seat{k + 1}_out_turn"] == ("" if rec["out"][k] is None else str(rec["out"][k]))
            assert row[f"seat{k + 1}_tokens"].split() == [u[1] for u in rec["uses"] if u[0] == k]


def test_same_figures_whatever_the_number_of_workers() -> None:
    config = SimConfig(games=8, players=3, bots=("careful", "random"), seed=4)
    one = simulate(config, workers=1).to_data()
    assert simulate(config, workers=2).to_data() == one
    assert one["games"] == 8


def test_variants_are_played() -> None:
    r = simulate(SimConfig(games=4, players=3, bots=("careful",), variants=("survivors",), seed=1)).to_data()
    assert r["config"]["variants"] == ["survivors"] and r["games"] == 4
    assert "lives lost" in simulate(SimConfig(games=2, players=2, bots=("careful",), variants=("survivors",))).report()
    r = simulate(SimConfig(games=4, players=4, bots=("random",), variants=("day_night", "zombies_everywhere"))).to_data()
    assert r["games"] == 4


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(LOA + args, cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.heavy
def test_the_command_prints_the_tables_and_writes_charts(tmp_path: Path) -> None:
    out = tmp_path / "run"
    r = _run(["simulate", "--games", "10", "--players", "3", "--bots", "careful,random", "--seed", "7",
              "--out", str(out)], tmp_path)
    assert r.returncode == 0, r.stderr
    for title in ("Last One Alive simulation: 10 games, 3 players, bots careful,random", "Win rate by seat",
                  "Win rate by bot", "Game length", "Apocalypse level over time", "Tokens: how they are used"):
        assert title in r.stdout
    assert r.stderr.startswith("[") and "10/10 games" in r.stderr            # the progress bar
    names = ("win_rate.png", "turns.png", "level.png", "tokens.png")
    for name in names:
        data = (out / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 5000
    assert sorted(p.name for p in out.iterdir()) == sorted((*names, "results.json", "games.csv"))
    assert "\x1b" not in r.stdout + r.stderr                  # a pipe gets plain text
    rows = list(csv.DictReader((out / "games.csv").open(encoding="utf-8", newline="")))
    assert [r["game"] for r in rows] == [str(i) for i in range(10)]
    first = json.loads((out / "results.json").read_text())
    assert first["games"] == 10 and first["config"]["bots"] == ["careful", "random"]
    # the same seed gives the same figures, on two workers too
    r = _run(["simulate", "--games", "10", "--players", "3", "--bots", "careful,random", "--seed", "7",
              "--out", str(tmp_path / "again"), "--workers", "2", "--quiet"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "again" / "results.json").read_text()) == first
    assert (tmp_path / "again" / "games.csv").read_bytes() == (out / "games.csv").read_bytes()


@pytest.mark.parametrize("args,message", [
    (["--games", "0"], "--games must be 1 or more, not 0"),
    (["--players", "6"], "--players must be 2 to 5, not 6"),
    (["--bots", "careful,clever"], "unknown bot 'clever' in --bots (known: mixed, random, careful)"),
    (["--bots", ","], "--bots needs at least one bot name (mixed, random, careful)"),
    (["--variant", "nightmare"], "unknown variant 'nightmare' in --variant (known: survivors, day_night, "
                                 "zombies_everywhere, zombified_rolls)"),
    (["--variant", "survivors", "--players", "4"], "--variant survivors is for 2 or 3 players, not --players 4"),
    (["--workers", "0"], "--workers must be 1 or more, not 0"),
])
def test_bad_arguments_exit_2_with_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture) -> None:
    assert main(["simulate", *args]) == 2
    out, err = capsys.readouterr()
    assert err == f"lastonealive simulate: {message}\n" and out == ""


def test_out_must_be_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    assert main(["simulate", "--games", "1", "--out", str(f)]) == 2
    assert capsys.readouterr().err == f"lastonealive simulate: --out {f} exists and is not a directory\n"


def _group_members(pgid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            out.append(int(entry.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the processes")
@pytest.mark.parametrize("sig,to_group,code", [(signal.SIGINT, True, 130), (signal.SIGTERM, False, 143)])
def test_an_interrupted_run_says_one_line_and_leaves_no_process(tmp_path: Path, sig: int, to_group: bool,
                                                                code: int) -> None:
    proc = subprocess.Popen(LOA + ["simulate", "--games", "200000", "--workers", "2", "--bots", "random"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,          # its own group, as a terminal's job
                            preexec_fn=default_signals)      # Ctrl-C reaches it however the suite was started
    try:
        stdout, stderr = Lines(proc.stdout), Lines(proc.stderr)   # type: ignore[arg-type]
        first = stderr.next(timeout=120)            # the first progress line: games are being played
        assert first is not None and first.startswith("["), first
        (os.killpg if to_group else os.kill)(proc.pid, sig)
        proc.wait(timeout=60)
        left = _group_members(proc.pid)             # the command has exited: nothing of it may remain
        out = "".join(stdout.rest(timeout=30))
        err = [first, *stderr.rest(timeout=30)]
    finally:
        end_group(proc)
    text = "".join(err)
    assert proc.returncode == code, text
    assert "Traceback" not in text, text
    assert [x.strip() for x in err if x.strip() and not x.startswith("[")] == ["lastonealive simulate: interrupted"]
    assert out == ""
    assert left == []
