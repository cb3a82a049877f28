"""The console's scenario runner behind a cartridge's ``scenarios`` (docs/games.md "Scenario
files"): a format written here for the tutorial game (Goofspiel) gets the ``scenario`` command
of the console's table command, with the same JSON lines and exit codes as Outspeed's and
Last One Alive's; those two reach it through ``bitbox game NAME scenario`` as well."""
from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from bitbox.config import ConfigError, load_yaml
from bitbox.games import GameError, Refusal
from bitbox.games.scenarios import (Outcome, Scenario, ScenarioError, as_set, each, listing, mapping, players,
                                    players_map, unknown_fields, whole_number)
from bitbox.table.command import run

TUTORIAL = Path(__file__).resolve().parents[1] / "tutorial"
ROOT = Path(__file__).resolve().parents[2]


class GoofspielScenarios:
    """Goofspiel's scenario format: ``players``, ``cards``, ``seed``, ``prizes`` (the prizes
    turned up after the first), ``bids`` (one mapping player -> card per round), ``expect``."""

    doc = "tests/games/test_scenario_hook.py"
    invalid = (ConfigError,)
    checks = {"scores": each(), "winner": as_set}

    def __init__(self, cartridge: Any) -> None:
        self.cartridge = cartridge

    def load(self) -> None:
        return None

    def read(self, path: str) -> Any:
        return load_yaml(path)

    def parse(self, data: Any, contents: None) -> Scenario:
        data = mapping(data, "")
        unknown_fields(data, ("players", "cards", "seed", "prizes", "bids", "expect"))
        seats = players(data.get("players"), "Goofspiel", 2, 4)
        cards = whole_number(data.get("cards", 6), "cards", 3, 8)
        game = self.cartridge.new(seats, whole_number(data.get("seed", 0), "seed", 0), {"cards": cards})
        prizes = [whole_number(c, f"prizes[{i}]", 1, cards) for i, c in enumerate(listing(data.get("prizes"), "prizes"))]
        game.force({"prize": prizes})
        bids = [{p: whole_number(b, f"bids[{i}].{p}") for p, b in players_map(r, f"bids[{i}]", seats).items()}
                for i, r in enumerate(listing(data.get("bids"), "bids"))]
        expect = dict(mapping(data.get("expect"), "expect"))
        unknown_fields(expect, ("prize", "scores", "winner", "finished", "refused"), "expect")
        return Scenario("", game, bids, expect)

    def play(self, scenario: Scenario) -> Outcome:
        game, refused = scenario.game, {}
        for i, bids in enumerate(scenario.turns):
            try:
                game.apply(bids)
            except Refusal as r:
                refused = dict(r.codes)
                break
            except GameError as exc:
                raise ScenarioError(f"bids[{i}]", str(exc)) from None
        return Outcome({"prize": game.prize, "scores": dict(game.scores), "winner": list(game.winners),
                        "finished": game.finished}, refused)


@pytest.fixture
def goofspiel(monkeypatch):
    """The tutorial cartridge with the scenario format above."""
    monkeypatch.syspath_prepend(str(TUTORIAL))
    import goofspiel as module
    yield type("WithScenarios", (module.GoofspielCartridge,), {"scenarios": GoofspielScenarios(module.CARTRIDGE)})()
    sys.modules.pop("goofspiel", None)


GOOD = """
players: [red, blue]
cards: 3
prizes: [{second}, {third}]
bids:
  - {{red: 3, blue: 1}}
  - {{red: 1, blue: 2}}
expect:
  prize: {third}
  scores: {{red: {red}}}
  winner: []
  finished: false
  refused: {{}}
"""


def good(cartridge: Any, red: int | None = None) -> tuple[str, dict[str, int]]:
    """GOOD for the prizes of seed 0: red wins the first (3 against 1), blue the second."""
    first = int(cartridge.new(("red", "blue"), 0, {"cards": 3}).prize)
    second, third = sorted({1, 2, 3} - {first})
    prizes = {"first": first, "second": second, "third": third}
    return GOOD.format(red=first if red is None else red, **prizes), prizes


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


def scenario(cartridge: Any, capsys: Any, *files: str) -> tuple[int, list[dict[str, Any]], str]:
    code = run(cartridge, ["scenario", *files], "bitbox game goofspiel")
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def test_a_cartridge_with_a_format_gets_the_scenario_command(goofspiel, tmp_path, capsys):
    text, prizes = good(goofspiel)
    ok = write(tmp_path, "good.yaml", text)
    missed = write(tmp_path, "missed.yaml", good(goofspiel, red=9)[0])
    code, lines, err = scenario(goofspiel, capsys, ok)
    assert (code, err) == (0, "")
    assert lines == [{"file": ok, "ok": True, "refused": {}, "mismatches": [],
                      "state": {"prize": prizes["third"], "scores": {"red": prizes["first"], "blue": prizes["second"]},
                                "winner": [], "finished": False}}]
    code, lines, _ = scenario(goofspiel, capsys, ok, missed)
    assert code == 1 and [line["ok"] for line in lines] == [True, False]
    assert lines[1]["mismatches"] == [f"scores.red: expected 9, got {prizes['first']}"]


def test_the_commands_help_names_where_the_format_is_documented(goofspiel, capsys):
    with pytest.raises(SystemExit) as exit_:
        run(goofspiel, ["scenario", "--help"], "bitbox game goofspiel")
    assert exit_.value.code == 0
    assert f"The format: {goofspiel.scenarios.doc}." in " ".join(capsys.readouterr().out.split())


def test_a_refused_bid_is_reported_and_compared(goofspiel, tmp_path, capsys):
    text, prizes = good(goofspiel)
    text = text.replace("{red: 1, blue: 2}", "{red: 3, blue: 2}").replace(f"prize: {prizes['third']}",
                                                                        f"prize: {prizes['second']}")
    code, lines, _ = scenario(goofspiel, capsys, write(tmp_path, "refused.yaml",
                                                       text.replace("refused: {}", "refused: {red: not_in_hand}")))
    assert code == 0, lines
    assert lines[0]["refused"] == {"red": "not_in_hand"}
    code, lines, _ = scenario(goofspiel, capsys, write(tmp_path, "unexpected.yaml", text))
    assert code == 1 and lines[0]["mismatches"] == ["refused: expected none, got {'red': 'not_in_hand'}"]


@pytest.mark.parametrize("text, field", [
    ("players: [red]\n", "players"),
    ("players: [red, blue]\ncolour: green\n", "colour"),
    ("players: [red, blue]\nbids: [{mauve: 3}]\n", "bids[0].mauve"),
    ("players: [red, blue]\ncards: 3\nprizes: [9]\n", "prizes[0]"),
    ("players: [red, blue]\nbids: [{red: 3}]\n", "bids[0]"),          # blue's bid missing: the game's GameError
    ("players: [red, blue]\nexpect: {score: 1}\n", "expect.score"),
])
def test_an_invalid_file_is_one_line_naming_file_and_field(goofspiel, tmp_path, capsys, text, field):
    path = write(tmp_path, "bad.yaml", text)
    code, lines, err = scenario(goofspiel, capsys, path, write(tmp_path, "good.yaml", good(goofspiel)[0]))
    assert code == 2 and [line["ok"] for line in lines] == [False, True]
    assert lines[0]["error"].startswith(f"{path}: field {field}: ")
    assert err == f"bitbox game goofspiel scenario: {lines[0]['error']}\n"


def test_unreadable_files_and_a_format_that_breaks_are_one_line_each(goofspiel, tmp_path, capsys):
    def broken(scenario: Scenario) -> Outcome:
        raise KeyError("oops")
    goofspiel.scenarios.play = broken
    missing, yaml = str(tmp_path / "nope.yaml"), write(tmp_path, "broken.yaml", "players: [red\n")
    code, lines, err = scenario(goofspiel, capsys, missing, yaml, write(tmp_path, "good.yaml", good(goofspiel)[0]))
    assert code == 2 and len(lines) == 3 and "Traceback" not in err
    assert "no such file" in lines[0]["error"] and "not valid YAML" in lines[1]["error"]
    assert lines[2]["error"].endswith("good.yaml: internal error while running the scenario: KeyError: 'oops'")


def test_without_a_format_there_is_no_scenario_command(capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(TUTORIAL))
    import goofspiel as module
    try:
        with pytest.raises(SystemExit) as exit_:
            run(module.CARTRIDGE, ["scenario", "x.yaml"], "bitbox game goofspiel")
        assert exit_.value.code == 2 and "invalid choice: 'scenario'" in capsys.readouterr().err
    finally:
        sys.modules.pop("goofspiel", None)


@pytest.mark.parametrize("game, files", [
    ("outspeed", ["tests/scenarios/res_yellow_die_cost.yaml", "tests/scenarios/refuse_not_held.yaml"]),
    ("lastonealive", ["tests/lastonealive/scenarios/l22_refused_turn_is_undone.yaml"]),
])
def test_the_games_own_command_and_the_consoles_print_the_same(game, files, tmp_path, capsys, monkeypatch):
    from importlib import import_module

    from bitbox.cli import main as bitbox_main
    monkeypatch.chdir(ROOT)
    files = [*files, write(tmp_path, "bad.yaml", "players: [red, red]\n")]
    own = import_module(f"{game}.cli").main(["scenario", *files])
    own_out, own_err = capsys.readouterr()
    console = bitbox_main(["game", game, "scenario", *files])
    out, err = capsys.readouterr()
    assert own == console == 2 and out == own_out
    assert len(out.splitlines()) == len(files) and json.loads(out.splitlines()[0])["ok"] is True
    # `bitbox game NAME` runs a game's own command when it has one: the same lines, named by it
    assert err == own_err
