"""`outspeed scenario`: the JSON line per file and the exit codes 0/1/2 (SCENARIOS.md "The runner")."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from outspeed.cli import main

GOOD = """
name: a plain move
players: [red, blue, green]
tile: {number: 90, finish: false, faces: {"3-4": {left: {cost: [{fuel: 1}], gain: [{move: 2}]}, center: {cost: [], gain: [{move: 1}]}}}}
ships: {red: 5}
turns:
  - program: {red: left, blue: center, green: center}
expect:
  ships: {red: 7, blue: 4, green: 4}
  fuel: {red: 11, blue: 12}
  finished: false
"""


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


def run(capsys, *files):
    code = main(["scenario", *map(str, files)])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def test_a_good_file_prints_one_json_line_and_exits_0(tmp_path, capsys):
    code, lines, _ = run(capsys, write(tmp_path, "good.yaml", GOOD))
    assert code == 0
    (line,) = lines
    assert line["ok"] is True and line["mismatches"] == [] and line["refused"] == {}
    assert line["state"] == {"ships": {"red": 7, "blue": 4, "green": 4}, "fuel": {"red": 11, "blue": 12, "green": 12},
                             "eliminated": [], "held_count": {"red": 0, "blue": 0, "green": 0},
                             "force_fields": [], "track": {"rear": 1, "boards": 2}, "finished": False, "winner": []}


def test_a_missed_expectation_exits_1_and_names_it(tmp_path, capsys):
    code, lines, _ = run(capsys, write(tmp_path, "good.yaml", GOOD),
                         write(tmp_path, "bad.yaml", GOOD.replace("red: 7,", "red: 8,")))
    assert code == 1
    assert [l["ok"] for l in lines] == [True, False]
    assert lines[1]["mismatches"] == ["ships.red: expected 8, got 7"]


def test_refusals_are_reported(tmp_path, capsys):
    text = GOOD.replace("program: {red: left,", "program: {red: right,").replace(
        "expect:\n", "expect:\n  refused: {red: unlit_path}\n  ships: {red: 5}\n").replace(
        "  ships: {red: 7, blue: 4, green: 4}\n  fuel: {red: 11, blue: 12}\n", "")
    code, lines, _ = run(capsys, write(tmp_path, "refused.yaml", text))
    assert lines[0]["refused"] == {"red": "unlit_path"}
    assert code == 0, lines


@pytest.mark.parametrize("text, field", [
    ("players: [red, blue]\ntile: 12\n", "players"),
    ("players: [red, blue, green]\ntile: 12\nships: {red: 99}\n", "ships.red"),
    ("players: [red, blue, green]\ntile: 12\nships: {mauve: 4}\n", "ships.mauve"),
    ("players: [red, blue, green]\ntile: 12\nturns: [{program: {red: middle}}]\n", "turns[0].program.red"),
    ("players: [red, blue, green]\ntile: 12\nheld: {red: [laser]}\n", "held.red[0]"),
    ("players: [red, blue, green]\ntile: 12\nexpect: {colour: 1}\n", "expect.colour"),
    ("players: [red, blue, green]\ntile: 12\nweather: rain\n", "weather"),
    ("players: [red, blue, green]\ntile: {number: 90, faces: {\"3-4\": {left: {cost: [{move: 1}]}}}}\n", "tile"),
    ("players: [red, blue, green]\ntile: 17\n", "tile"),
    ("players: [red, blue, green]\ntile: 12\nturns: [{program: {red: right, blue: right, green: right}}, {}]\n", "turns[1]"),
    ("players: [red, blue, blue]\ntile: 12\n", "players"),
    ("players: [red, blue, green]\ntile: 12\nexpect: {track: null}\n", "expect.track"),
    ("players: [red, blue, green]\ntile: 12\nseed: 123456789012345678901234567890\n", "seed"),
    ("players: [red, blue, green]\ntile: {number: 90, faces: {\"3-4\": {left: {gain: [{bonus: 100000000000}]}}}}\n", "tile"),
    ("players: [red, blue, green]\ntile: {number: 90, faces: {\"3-4\": {left: {gain: [{move: {die: blue, times: 100000000}}]}}}}\n", "tile"),
])
def test_invalid_files_exit_2_naming_the_file_and_field(tmp_path, capsys, text, field):
    path = write(tmp_path, "broken.yaml", text)
    code, lines, err = run(capsys, path)
    assert code == 2
    assert str(path) in err and f"field {field}" in err, err
    assert lines[0]["ok"] is False and "Traceback" not in err


def test_keeping_a_token_not_drawn_is_a_mismatch(tmp_path, capsys):
    text = ("players: [red, blue, green]\ntile: 12\npile: [nitro, nitro, fuel_tank]\n"
            "turns: [{program: {red: center, blue: right, green: right}, keep: {red: ion_cannon}}]\n"
            "expect: {held_count: {red: 1}}\n")
    code, lines, _ = run(capsys, write(tmp_path, "keep.yaml", text))
    assert code == 1
    assert lines[0]["mismatches"] == ["turns[0].keep.red: red drew nitro and nitro, not ion_cannon"]


def test_a_key_given_twice_is_refused(tmp_path, capsys):
    path = write(tmp_path, "dup.yaml", "players: [red, blue, green]\ntile: 12\nships: {red: 4, red: 5}\n")
    code, _, err = run(capsys, path)
    assert code == 2 and f"{path}: line 3" in err and "'red' is given twice" in err


def test_deeply_nested_yaml_is_refused_cleanly(tmp_path, capsys):
    path = write(tmp_path, "deep.yaml", "name: " + "[" * 5000 + "]" * 5000 + "\n")
    code, _, err = run(capsys, path)
    assert code == 2 and str(path) in err and "Traceback" not in err


def test_malformed_yaml_and_missing_file_exit_2(tmp_path, capsys):
    path = write(tmp_path, "broken.yaml", "players: [red, blue\n")
    code, _, err = run(capsys, path, tmp_path / "nope.yaml")
    assert code == 2
    assert f"{path}: line" in err and "not valid YAML" in err
    assert "nope.yaml: no such file" in err


def test_the_console_script_runs(tmp_path):
    path = write(tmp_path, "good.yaml", GOOD)
    proc = subprocess.run([sys.executable, "-m", "outspeed.cli", "scenario", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True


def test_every_file_gets_its_line_with_the_contract_keys(tmp_path, capsys):
    """The output shape is a contract with outside referees (docs/scenarios.md "Running
    scenarios"): a run file's line has exactly file, ok, state, refused and mismatches, its
    state exactly the eight fields; an invalid file's line has file, ok and error; every file
    is run, in order, and an invalid one makes the status 2 even after a missed expectation."""
    good = write(tmp_path, "good.yaml", GOOD)
    missed = write(tmp_path, "missed.yaml", GOOD.replace("ships: {red: 7,", "ships: {red: 8,"))
    broken = write(tmp_path, "broken.yaml", "players: [red, blue, green]\ntile: 12\nships: {red: x}\n")
    code, lines, err = run(capsys, missed, broken, good)
    assert code == 2
    assert [line["file"] for line in lines] == [str(missed), str(broken), str(good)]
    assert [line["ok"] for line in lines] == [False, False, True]
    for line in (lines[0], lines[2]):
        assert set(line) == {"file", "ok", "state", "refused", "mismatches"}
        assert set(line["state"]) == {"ships", "fuel", "eliminated", "held_count", "force_fields", "track",
                                      "finished", "winner"}
    assert lines[0]["mismatches"] == ["ships.red: expected 8, got 7"]
    assert set(lines[1]) == {"file", "ok", "error"}
    assert lines[1]["error"].startswith(str(broken)) and "field ships.red" in lines[1]["error"]
    assert f"outspeed scenario: {lines[1]['error']}" in err.splitlines()
