"""`lastonealive scenario`: one JSON line per file, exit 0/1/2, a bad file named with its
field and never a traceback (docs/last-one-alive-scenarios.md "What the runner prints");
`lastonealive dice show`; the config files' validation."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from lastonealive.cli import main
from lastonealive.content import ConfigError, load_content, load_dice, load_tokens

GOOD = """
name: red rolls, blue gets the zombies (L-7)
players: [red, blue, green]
bag: [pistol]
turns:
  - player: red
    dice: {shoot: 2, object: 1, barricade: 1}
    roll: {zombie: [zombie2], shoot: [bang1, blank], object: [object], barricade: [barricade]}
expect:
  front: {red: [], blue: [zombie2]}
  tokens: {red: [pistol]}
  bag: []
  pool: {zombie: 9, shoot: 3}
  turn: blue
  finished: false
  refused: {}
"""


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


def run(capsys, *argv):
    code = main(["scenario", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def test_a_good_file_prints_one_json_line_and_exits_0(tmp_path, capsys):
    code, lines, _ = run(capsys, write(tmp_path, "good.yaml", GOOD))
    assert code == 0
    (line,) = lines
    assert line["ok"] is True and line["mismatches"] == [] and line["refused"] == {}
    assert line["state"] == {
        "front": {"red": [], "blue": ["zombie2"], "green": []},
        "tokens": {"red": ["pistol"], "blue": [], "green": []},
        "eliminated": [], "level": 1, "bag": [], "pool": {"zombie": 9, "shoot": 3, "object": 3, "barricade": 3},
        "lives": {}, "turn": "blue", "finished": False, "winner": [], "scores": {}}


def test_a_missed_expectation_exits_1_and_names_it(tmp_path, capsys):
    code, lines, _ = run(capsys, write(tmp_path, "good.yaml", GOOD),
                         write(tmp_path, "bad.yaml", GOOD.replace("blue: [zombie2]", "blue: [zombie1]")))
    assert code == 1
    assert [l["ok"] for l in lines] == [True, False]
    assert lines[1]["mismatches"] == ["front.blue: expected ['zombie1'], got ['zombie2']"]


def test_a_refusal_undoes_the_turn(tmp_path, capsys):
    text = GOOD.replace("dice: {shoot: 2, object: 1, barricade: 1}", "before: [{barricade: f1}]\n    dice: {shoot: 2}")
    text = text.replace("""  front: {red: [], blue: [zombie2]}
  tokens: {red: [pistol]}
  bag: []
  pool: {zombie: 9, shoot: 3}
  turn: blue
  finished: false
  refused: {}""", """  refused: {red: not_held}
  bag: [pistol]
  turn: red""")
    code, lines, _ = run(capsys, write(tmp_path, "refused.yaml", text))
    assert lines[0]["refused"] == {"red": "not_held"}
    assert code == 0, lines


@pytest.mark.parametrize("text, field", [
    ("players: [red]\n", "players"),
    ("players: [red, blue, green, yellow, purple, orange]\n", "players"),
    ("players: [red, red]\n", "players"),
    ("players: [red, 7]\n", "players[1]"),
    ("players: [red, blue]\nweather: rain\n", "weather"),
    ("players: [red, blue]\nvariants: [hard]\n", "variants[0]"),
    ("players: [red, blue]\nbag: [pistol, laser]\n", "bag[1]"),
    ("players: [red, blue]\nbag: [night]\n", "bag[0]"),
    ("players: [red, blue]\ntokens: {red: [axe, axe, axe, axe]}\n", "tokens.red"),
    ("players: [red, blue]\ntokens: {mauve: [axe]}\n", "tokens.mauve"),
    ("players: [red, blue]\nfront: {red: [ambush]}\n", "front.red[0]"),
    ("players: [red, blue]\nfront: {red: [zombie1, zombie1, zombie1, zombie1, zombie1, zombie1, zombie1, zombie1, zombie1, zombie1, zombie1]}\n", "front"),
    ("players: [red, blue]\nlevel: 123456789012345678901234567890\n", "level"),
    ("players: [red, blue]\nlevel: -1\n", "level"),
    ("players: [red, blue]\nlevel: two\n", "level"),
    ("players: [red, blue]\nlives: {red: 2}\n", "lives"),
    ("players: [red, blue]\nvariants: [survivors]\nlives: {red: 4}\n", "lives.red"),
    ("players: [red, blue]\nsetup: {red: object}\nlevel: 2\n", "level"),
    ("players: [red, blue]\nsetup: {red: sideways}\n", "setup.red"),
    ("players: [red, blue]\nturns: [{dice: {lasers: 1}}]\n", "turns[0].dice.lasers"),
    ("players: [red, blue]\nturns: [{dice: {shoot: 99999999999999999999}}]\n", "turns[0].dice.shoot"),
    ("players: [red, blue]\nturns: [{roll: {shoot: [zombie2]}}]\n", "turns[0].roll.shoot[0]"),
    ("players: [red, blue]\nturns: [{before: [{laser: f1}]}]\n", "turns[0].before[0]"),
    ("players: [red, blue]\nturns: [{before: [{barricade: f1, axe: b1}]}]\n", "turns[0].before[0]"),
    ("players: [red, blue]\nturns: [{mood: calm}]\n", "turns[0].mood"),
    ("players: [red, blue]\nturns: [{player: mauve}]\n", "turns[0].player"),
    ("players: [red, blue]\nturns: [{dice: {shoot: 2, object: 2}, roll: {zombie: [blank], shoot: [bang1]}}]\n", "turns[0].roll"),
    ("players: [red, blue]\nturns: [{dice: {shoot: 3, object: 1}}]\n", "turns[0].roll"),
    ("players: [red, blue]\nturns: [{dice: {shoot: 3, zombie: 1}, roll: {zombie: [blank, blank], shoot: [bang1plus, blank, blank]}}]\n",
     "turns[0].rerolls"),
    ("players: [red, blue]\nexpect: {colour: 1}\n", "expect.colour"),
    ("players: [red, blue]\nexpect: {refused: {red: nope}}\n", "expect.refused.red"),
    ("players: [red, blue]\nexpect: {finished: maybe}\n", "expect.finished"),
    ("players: [red, blue]\nexpect: {pool: {zombie: x}}\n", "expect.pool.zombie"),
    ("[1, 2, 3]\n", ""),
    ("players: [red, blue]\nfaces: {shoot: [bang1plus, bang1plus]}\n", "faces.shoot"),
])
def test_invalid_files_exit_2_naming_the_file_and_field(tmp_path, capsys, text, field):
    path = write(tmp_path, "broken.yaml", text)
    code, lines, err = run(capsys, path)
    assert code == 2, lines
    assert str(path) in err and (f"field {field}:" in err if field else True), err
    assert lines[0]["ok"] is False and str(path) in lines[0]["error"]
    assert "Traceback" not in err


def test_a_key_given_twice_is_refused(tmp_path, capsys):
    path = write(tmp_path, "dup.yaml", "players: [red, blue]\nfront: {red: [zombie1], red: [zombie2]}\n")
    code, _, err = run(capsys, path)
    assert code == 2 and f"{path}: line 2" in err and "'red' is given twice" in err


def test_deeply_nested_yaml_is_refused_cleanly(tmp_path, capsys):
    path = write(tmp_path, "deep.yaml", "name: " + "[" * 5000 + "]" * 5000 + "\n")
    code, _, err = run(capsys, path)
    assert code == 2 and str(path) in err and "Traceback" not in err


def test_an_alias_bomb_is_refused_cleanly(tmp_path, capsys):
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        lines.append(f"{chr(97 + i)}: &{chr(97 + i)} [*{chr(96 + i)}, *{chr(96 + i)}, *{chr(96 + i)}, *{chr(96 + i)}]")
    lines.append("players: [red, blue]\nbag: *i")
    path = write(tmp_path, "bomb.yaml", "\n".join(lines) + "\n")
    code, _, err = run(capsys, path)
    assert code == 2 and str(path) in err and "Traceback" not in err


def test_malformed_yaml_and_missing_file_exit_2(tmp_path, capsys):
    path = write(tmp_path, "broken.yaml", "players: [red, blue\n")
    code, lines, err = run(capsys, path, tmp_path / "nope.yaml")
    assert code == 2 and len(lines) == 2
    assert f"{path}: line" in err and "not valid YAML" in err
    assert "nope.yaml: no such file" in err


def test_a_binary_file_exits_2(tmp_path, capsys):
    path = tmp_path / "noise.yaml"
    path.write_bytes(bytes(range(256)) * 4)
    code, _, err = run(capsys, path)
    assert code == 2 and str(path) in err and "Traceback" not in err


def test_a_file_after_a_bad_one_still_runs(tmp_path, capsys):
    code, lines, _ = run(capsys, write(tmp_path, "bad.yaml", "players: 3\n"), write(tmp_path, "good.yaml", GOOD))
    assert code == 2 and lines[0]["ok"] is False and lines[1]["ok"] is True


def test_the_console_script_runs(tmp_path):
    path = write(tmp_path, "good.yaml", GOOD)
    proc = subprocess.run([sys.executable, "-m", "lastonealive.cli", "scenario", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True


def test_dice_show_prints_the_reconstruction(capsys):
    assert main(["dice", "show"]) == 0
    out = capsys.readouterr().out
    assert "reconstruction" in out
    assert "zombie    ×10 blank, ambush, zombie1, zombie1, zombie2, zombie2" in out


@pytest.mark.parametrize("text, words", [
    ("dice: {zombie: {count: 10, faces: [blank]}}\n", "die shoot: missing"),
    ("dice:\n  zombie: {count: 10, faces: [blank, brains]}\n  shoot: {faces: [bang1]}\n"
     "  object: {faces: [object]}\n  barricade: {faces: [barricade]}\n", "die zombie, field faces[1]: unknown face 'brains'"),
    ("dice:\n  zombie: {count: -1, faces: [blank]}\n  shoot: {faces: [bang1]}\n"
     "  object: {faces: [object]}\n  barricade: {faces: [barricade]}\n", "die zombie, field count"),
    ("dice:\n  zombie: {faces: [blank], colour: green}\n", "die zombie: unknown field 'colour'"),
    ("dice: {zombie: {faces: [blank]}, zombie: {faces: [ambush]}}\n", "given twice"),
    ("nothing: here\n", "expected a mapping with the key 'dice'"),
    ("dice:\n  zombie: {faces: [blank]}\n  shoot: {faces: [bang1plus]}\n"
     "  object: {faces: [object]}\n  barricade: {faces: [barricade]}\n", "would never end"),
])
def test_bad_dice_files_name_the_entry_and_field(tmp_path, capsys, text, words):
    path = write(tmp_path, "dice.yaml", text)
    with pytest.raises(ConfigError) as err:
        load_dice(path)
    assert str(path) in str(err.value) and words in str(err.value)
    assert main(["dice", "show", str(path)]) == 2
    assert words in capsys.readouterr().err


@pytest.mark.parametrize("text, words", [
    ("objects: {axe: 3, laser: 1}\n", "objects: unknown field 'laser'"),
    ("objects: {axe: many}\n", "object axe, field count"),
    ("objects: {axe: 3}\napocalypse: 1000000\n", "field apocalypse"),
    ("apocalypse: 3\n", "expected a mapping with the key 'objects'"),
])
def test_bad_token_files_name_the_entry_and_field(tmp_path, text, words):
    path = write(tmp_path, "tokens.yaml", text)
    with pytest.raises(ConfigError) as err:
        load_tokens(path)
    assert str(path) in str(err.value) and words in str(err.value)


def test_the_shipped_config_is_the_reconstruction():
    c = load_content()
    assert c.counts == {"zombie": 10, "shoot": 3, "object": 3, "barricade": 3}
    assert c.faces["shoot"] == ("blank", "bang1", "bang1", "bang2", "bang2", "bang1plus")
    assert sum(c.mix.values()) == 18 and c.apocalypse == 3
