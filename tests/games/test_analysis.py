"""Post-game analysis (bitbox.analysis): chances at every turn of a journaled game of any
cartridge, from the public information; analysis.json, the chart, the commands; calibration."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bitbox.analysis import analyse_game, calibrate, estimate
from bitbox.bots import RandomBot
from bitbox.games import find
from bitbox.table.journal import Journal

from .journals import write_game


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("analysis") / "j.sqlite"
    with Journal(path) as j:
        assert write_game(j, "outspeed", 3, 3) == 1
        assert write_game(j, "lastonealive", 4, 2) == 2
    return path


@pytest.mark.parametrize("game_id, name", [(1, "outspeed"), (2, "lastonealive")])
def test_every_turn_gets_each_players_chance_with_an_interval(journal: Path, game_id: int, name: str) -> None:
    cartridge = find(name)
    with Journal(journal, create=False) as j:
        analysis = analyse_game(j, game_id, cartridge, rollouts=4, rollout="random")
        inputs = j.inputs(game_id)
        info = j.game(game_id)
    turns = sorted({r.turn for r in inputs})
    assert [p.turn for p in analysis.points[:-1]] == turns       # the start of every turn, then the result
    final = analysis.points[-1]
    assert final.final and final.inputs == len(inputs)
    assert {p for p in info.players if final.chance(p) > 0} == set(info.winners or [])
    for point in analysis.points[:-1]:
        assert sum(point.chance(p) for p in info.players) <= 1 + 1e-9    # shares of one win (or of none)
        for p in info.players:
            lo, hi = point.interval(p)
            assert 0 <= lo <= point.chance(p) <= hi <= 1 and hi - lo > 0
    data = analysis.to_data()
    assert len(data["turns"]) == len(analysis.points) and data["method"]["rollouts"] == 4
    assert set(data["turns"][0]["players"]) == set(info.players)
    swing = data["swings"][0]
    assert abs(swing["change"]) == max(abs(s["change"]) for s in data["swings"])


def test_chances_use_only_the_public_information() -> None:
    """Two games that differ only in hidden parts get the same chances."""
    c = find("outspeed")
    game = c.new(["red", "blue", "green"], 9, {})
    rng = RandomBot(1)
    for _ in range(6):
        game.apply({p.player: rng.choose({}, p) for p in game.prompts()})
    one, two = c.redeal(game, 1), c.redeal(game, 2)
    assert one.to_data() != two.to_data()
    bots = {p: RandomBot(k) for k, p in enumerate(game.players)}
    first = estimate(c, one, 5, 7, bots)
    bots = {p: RandomBot(k) for k, p in enumerate(game.players)}
    assert estimate(c, two, 5, 7, bots) == first


def test_analyse_writes_the_json_and_an_honest_chart(journal: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from PIL import Image

    from bitbox.cli import main
    out = tmp_path / "a"
    assert main(["analyse", "outspeed", "1", "--journal", str(journal), "--rollouts", "2", "--out", str(out),
                 "-q"]) == 0
    printed = capsys.readouterr().out
    assert "chance to win" in printed and "moved most" in printed and "end" in printed
    data = json.loads((out / "analysis.json").read_text())
    assert data["game"] == "outspeed" and data["id"] == 1 and data["turns"][-1]["final"]
    image = Image.open(out / "win-chance.png").convert("RGB")
    assert image.size == (1000, 500)
    colours = {rgb for _, rgb in image.getcolors(maxcolors=1 << 20) or []}
    assert {(230, 25, 45), (30, 90, 230), (40, 180, 60)} <= colours      # the seat colours: red, blue, green


def test_every_games_command_has_analyse(journal: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from lastonealive.cli import main as lastonealive
    from outspeed.cli import main as outspeed
    assert outspeed(["analyse", "1", "--journal", str(journal), "--rollouts", "1", "--out", str(tmp_path / "o"),
                     "-q"]) == 0
    assert (tmp_path / "o" / "win-chance.png").exists()
    capsys.readouterr()
    assert lastonealive(["analyse", "1", "--journal", str(journal), "-q"]) == 2
    assert capsys.readouterr().err.strip() == "lastonealive analyse: game 1 of " + str(journal) + \
        " is a game of outspeed, not lastonealive"
    assert outspeed(["analyse", "9", "--journal", str(journal), "-q"]) == 2
    assert "no game 9" in capsys.readouterr().err
    assert outspeed(["analyse", "1", "--journal", str(tmp_path / "none.sqlite"), "-q"]) == 2
    assert "no journal here" in capsys.readouterr().err


def test_calibration_compares_predictions_with_outcomes() -> None:
    result = calibrate(find("outspeed"), games=2, players=3, rollouts=3, points=2, seed=1)
    assert len(result.pairs) == 2 * 2 * 3
    assert 0 <= result.brier() <= 1 and result.base_brier() > 0
    assert sum(b.count for b in result.bins()) == len(result.pairs)
    assert "Brier score" in result.report()
    assert result.to_data()["predictions"] == len(result.pairs)


def test_what_the_search_bot_would_play_here() -> None:
    from bitbox.analysis import suggest
    c = find("outspeed")
    game = c.new(["red", "blue", "green"], 2, {})
    rng = RandomBot(3)
    while not any(p.kind == "program" and len(p.options) > 1 for p in game.prompts()):
        game.apply({p.player: rng.choose({}, p) for p in game.prompts()})
    prompt = next(p for p in game.prompts() if p.kind == "program")
    before = json.dumps(game.to_data(), sort_keys=True)
    decision = suggest(c, game, prompt.player, rollouts=6)
    assert decision.chosen in prompt.options and decision.player == prompt.player
    assert sum(s.rollouts for s in decision.scores) == 6
    assert json.dumps(game.to_data(), sort_keys=True) == before
    assert suggest(c, game, "purple") is None


# ---------------------------------------------------------------- a game file can carry its analysis

def test_export_carries_the_analysis_and_import_checks_it(journal: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from outspeed.cli import main as outspeed
    out = tmp_path / "a"
    assert outspeed(["analyse", "1", "--journal", str(journal), "--rollouts", "2", "--out", str(out), "-q"]) == 0
    analysis = json.loads((out / "analysis.json").read_text())
    capsys.readouterr()
    for given in (out, out / "analysis.json"):                   # the folder analyse wrote, or the file itself
        target = tmp_path / f"game-{given.name}.json"
        assert outspeed(["export", "1", str(target), "--analysis", str(given), "--journal", str(journal)]) == 0
        assert "with its analysis" in capsys.readouterr().err
        doc = json.loads(target.read_text())
        assert doc["analysis"] == analysis
    elsewhere = tmp_path / "other.sqlite"
    assert outspeed(["import", str(target), "--journal", str(elsewhere)]) == 0
    said = capsys.readouterr()
    assert "imported as game 1" in said.out
    assert "its analysis (%d points) was checked" % len(analysis["turns"]) in said.err
    with Journal(elsewhere, create=False) as j:
        assert [g.id for g in j.games()] == [1]

    # strict: an analysis that is not one, or not this game's, is refused in one line, nothing imported
    bad_docs = []
    for change in ({"game": "lastonealive"}, {"players": ["red"]}, {"turns": "many"}):
        bad_docs.append({**doc, "analysis": {**analysis, **change}})
    broken = json.loads(json.dumps(analysis))
    broken["turns"][0]["players"][doc["players"][0]]["chance"] = 1.5
    bad_docs.append({**doc, "analysis": broken})
    bad_docs.append({**doc, "analysis": [1, 2]})
    for n, bad in enumerate(bad_docs):
        path = tmp_path / f"bad{n}.json"
        path.write_text(json.dumps(bad))
        fresh = tmp_path / f"fresh{n}.sqlite"
        assert outspeed(["import", str(path), "--journal", str(fresh)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and ("its analysis" in err) and "refused" in err and "nothing was imported" in err, err
        if fresh.exists():
            with Journal(fresh, create=False) as j:
                assert j.games() == []


def test_export_refuses_an_analysis_of_another_game(journal: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from outspeed.cli import main as outspeed
    out = tmp_path / "a"
    assert outspeed(["analyse", "1", "--journal", str(journal), "--rollouts", "1", "--out", str(out), "-q"]) == 0
    data = json.loads((out / "analysis.json").read_text())
    (out / "analysis.json").write_text(json.dumps({**data, "id": 7}))
    capsys.readouterr()
    assert outspeed(["export", "1", str(tmp_path / "g.json"), "--analysis", str(out), "--journal", str(journal)]) == 2
    assert capsys.readouterr().err.strip() == "outspeed export: the analysis given is of game 7, not of game 1"
    assert not (tmp_path / "g.json").exists()
    assert outspeed(["export", "1", str(tmp_path / "g.json"), "--analysis", str(tmp_path / "none"),
                     "--journal", str(journal)]) == 2
    assert "--analysis" in capsys.readouterr().err and not (tmp_path / "g.json").exists()
    (tmp_path / "junk.json").write_text("{not json")
    assert outspeed(["export", "1", str(tmp_path / "g.json"), "--analysis", str(tmp_path / "junk.json"),
                     "--journal", str(journal)]) == 2
    assert "not JSON text" in capsys.readouterr().err
