"""The Last One Alive rule scenarios (tests/lastonealive/scenarios/, format in
docs/last-one-alive-scenarios.md), run through the real `lastonealive scenario` command.

Each scenario file cites the rule or ruling (L-1 ... L-27) it checks; this module also checks
that the set keeps covering every ruling, every refusal code, every token and every variant,
and that bad files are named with their field (exit 2, no traceback).
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import yaml

HERE = Path(__file__).parent
FILES = sorted((HERE / "scenarios").glob("*.yaml"))

RULINGS = [f"l{n:02d}" for n in range(1, 28)]
REFUSAL_CODES = {
    "not_your_turn", "game_over", "dice_count", "not_in_pool", "not_held", "wrong_moment",
    "no_die", "ambush_die", "no_target", "wrong_count", "too_many_draws", "too_many_bangs",
    "too_many_gives", "zombies_in_front",
}
TOKENS = {"axe", "chainsaw", "flare", "pistol", "medkit", "radio", "barricade", "hero"}
VARIANTS = {"survivors", "day_night", "zombies_everywhere", "zombified_rolls"}


def command() -> list[str]:
    script = Path(sys.executable).with_name("lastonealive")
    if script.exists():
        return [str(script)]
    found = shutil.which("lastonealive")
    assert found, "the lastonealive console script is not installed"
    return [found]


def run(*files: Path) -> tuple[int, list[dict], str]:
    proc = subprocess.run([*command(), "scenario", *map(str, files)],
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text())


def test_every_scenario_meets_its_expectations():
    assert len(FILES) >= 70
    code, lines, err = run(*FILES)
    failed = [f"{Path(l['file']).name}: {l.get('error') or l['mismatches']}" for l in lines if not l["ok"]]
    assert not failed, "\n".join(failed)
    assert code == 0, err
    assert [Path(l["file"]).name for l in lines] == [f.name for f in FILES]


def test_every_scenario_cites_its_rule():
    for path in FILES:
        text = path.read_text()
        assert text.startswith("#"), f"{path.name}: no header comment"
        assert re.search(r"L-\d+|[Tt]urn step|[Rr]efusal|[Tt]oken|[Dd]efaults|apocalypse|[Bb]ag|"
                         r"[Ee]nd of the game|[Ss]urvivors|[Dd]ay and [Nn]ight|[Ff]orced|dice are data",
                         text.split("name:")[0]), f"{path.name}: the header cites no rule"


def test_every_ruling_has_a_scenario():
    prefixes = {f.name[:3] for f in FILES}
    assert [r for r in RULINGS if r not in prefixes] == []


def test_every_refusal_code_is_exercised():
    seen = set()
    for path in FILES:
        seen |= set((load(path).get("expect", {}).get("refused") or {}).values())
    assert REFUSAL_CODES - seen == set()
    assert seen - REFUSAL_CODES == set(), "a scenario expects a code the format does not define"


def test_every_token_and_variant_is_used():
    used, variants = set(), set()
    for path in FILES:
        data = load(path)
        variants |= set(data.get("variants") or [])
        for turn in data.get("turns") or []:
            for window in ("before", "after", "before_shoot", "before_barricades"):
                for use in turn.get(window) or []:
                    used |= {use} if isinstance(use, str) else set(use)
        for held in (data.get("tokens") or {}).values():
            if "medkit" in held:
                used.add("medkit")  # the medkit is never written: it is used by itself (L-19)
    assert TOKENS - used == set()
    assert VARIANTS - variants == set()


GOOD = """
name: red shoots its zombie
players: [red, blue]
front: {red: [zombie2]}
turns:
  - player: red
    dice: {zombie: 1, shoot: 3}
    roll:
      zombie: [blank, blank]
      shoot: [bang2, blank, blank]
expect:
  front: {red: [], blue: []}
  pool: {zombie: 10}
  turn: blue
  refused: {}
"""

BAD = {
    # file name: (replacement of a line of GOOD, the field the error must name)
    "face.yaml": (("shoot: [bang2, blank, blank]", "shoot: [object, blank, blank]"), "roll"),
    "count.yaml": (("zombie: [blank, blank]", "zombie: [blank]"), "roll"),
    "rerolls.yaml": (("shoot: [bang2, blank, blank]", "shoot: [bang1plus, blank, blank]"), "rerolls"),
    "players.yaml": (("players: [red, blue]", "players: [red, blue, green, yellow, purple, orange]"), "players"),
    "variant.yaml": (("players: [red, blue]", "players: [red, blue]\nvariants: [hard_mode]"), "variants"),
    "front.yaml": (("front: {red: [zombie2]}", "front: {red: [ambush]}"), "front"),
}


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def test_a_missed_expectation_exits_1_and_says_which(tmp_path):
    good = write(tmp_path, "good.yaml", GOOD)
    wrong = write(tmp_path, "wrong.yaml", GOOD.replace("pool: {zombie: 10}", "pool: {zombie: 9}"))
    code, lines, _ = run(good, wrong)
    assert code == 1
    assert [l["ok"] for l in lines] == [True, False]
    assert any("pool" in m for m in lines[1]["mismatches"])


def test_bad_files_are_named_with_their_field(tmp_path):
    paths = []
    for name, ((old, new), _) in BAD.items():
        assert old in GOOD
        paths.append(write(tmp_path, name, GOOD.replace(old, new)))
    paths.append(write(tmp_path, "broken.yaml", "name: [unclosed\n"))
    code, lines, err = run(*paths)
    assert code == 2
    assert "Traceback" not in err
    assert len(lines) == len(paths)
    for path, line in zip(paths, lines):
        assert line["ok"] is False and path.name in line["error"], line
        if path.name in BAD:
            assert BAD[path.name][1] in line["error"], line


def test_a_scenario_without_turns_is_not_valid(tmp_path):
    # The format: a scenario is a position and "one or more turns"; none (absent or []) is a
    # bad file naming the field, not a pass that checks nothing.
    head = GOOD.split("turns:")[0]
    absent = write(tmp_path, "absent.yaml", head + "expect: {turn: red}\n")
    empty = write(tmp_path, "empty.yaml", head + "turns: []\nexpect: {turn: red}\n")
    code, lines, err = run(absent, empty)
    assert code == 2 and "Traceback" not in err
    for path, line in zip((absent, empty), lines):
        assert line["ok"] is False and path.name in line["error"], line
        assert "field turns" in line["error"], line
