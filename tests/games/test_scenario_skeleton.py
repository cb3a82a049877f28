"""The scenario-runner skeleton: one JSON line per file, exit 0/1/2, the bad field named."""
from __future__ import annotations

import io
import json

import pytest

from bitbox.games.scenarios import ScenarioError, listing, mapping, run_files, whole_number


def fake_run(path: str) -> dict[str, object]:
    if path.startswith("bad"):
        raise ScenarioError("turns[1].program.red", "must be one of left, center, right, got 'up'")
    return {"file": path, "ok": path.startswith("ok")}


def run(*files: str) -> tuple[int, list[dict[str, object]], str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_files(files, fake_run, prog="game scenario", out=out, err=err)
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def test_exit_codes() -> None:
    assert run("ok1", "ok2")[0] == 0
    assert run("ok1", "miss", "ok2")[0] == 1
    assert run("miss", "bad.yaml", "ok")[0] == 2
    assert run("bad.yaml", "miss")[0] == 2


def test_an_invalid_file_is_one_json_line_and_one_stderr_line_naming_file_and_field() -> None:
    code, lines, err = run("ok1", "bad.yaml")
    assert code == 2 and len(lines) == 2
    message = "bad.yaml: field turns[1].program.red: must be one of left, center, right, got 'up'"
    assert lines[1] == {"file": "bad.yaml", "ok": False, "error": message}
    assert err == f"game scenario: {message}\n"


def test_field_readers() -> None:
    assert whole_number(3, "x", 1, 5) == 3
    with pytest.raises(ScenarioError, match=r"field x: expected a whole number, got 'True'"):
        whole_number(True, "x")
    with pytest.raises(ScenarioError, match=r"field ships.red: 9 is out of range \(from 1 to 5\)"):
        whole_number(9, "ships.red", 1, 5)
    assert mapping(None, "m") == {} and listing(None, "l") == []
    with pytest.raises(ScenarioError, match="field m: expected a mapping"):
        mapping([1], "m")
    with pytest.raises(ScenarioError, match="field l: expected a list"):
        listing({}, "l")
