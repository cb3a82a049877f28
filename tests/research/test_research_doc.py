"""docs/research.md: its example runs as written, and its layout tables end where the
encodings end (the last index of each table is the observation's last value)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the research extra is installed by ./dev test")

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def _blocks():
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_the_example_runs_as_written(capsys):
    blocks = _blocks()
    assert len(blocks) == 3
    exec(compile(blocks[0], str(DOC), "exec"), {"__name__": "__doc_example__"})
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Outspeed: {'red': ") and out[1].startswith("Last One Alive: {'red': ")


def test_the_openspiel_example_runs_as_written(capsys):
    pytest.importorskip("pyspiel", reason="the openspiel extra is installed by ./dev test")
    block = next(b for b in _blocks() if "pyspiel" in b)
    exec(compile(block, str(DOC), "exec"), {"__name__": "__doc_example__"})
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == ["bitbox_lastonealive", "bitbox_outspeed"]
    assert all(" returns: [" in line and line.endswith(" moves") for line in out)


def test_the_supersuit_pipeline_runs_as_written(capsys):
    pytest.importorskip("supersuit", reason="in the research extra")
    block = next(b for b in _blocks() if "supersuit" in b)
    exec(compile(block, str(DOC), "exec"), {"__name__": "__doc_example__"})
    out = capsys.readouterr().out.strip()
    assert out.startswith("observations: (6, ") and "float32 agents done: " in out
    assert int(out.rsplit(" ", 1)[1]) >= 6               # every copy truncated at least once


@pytest.mark.parametrize("game,heading", [("outspeed", "## Outspeed: actions and observation"),
                                          ("lastonealive", "## Last One Alive: actions and observation")])
def test_the_documented_layout_matches_the_encoding(game, heading):
    from bitbox.research import Table
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index(heading):]
    section = section[:section.index("\n## ", 3)]
    table = Table.of(game, 2 if game == "lastonealive" else 3)
    assert f"{table.n_actions} actions in all" in section
    rows = re.findall(r"^\| (\d+)(?:–(\d+))? \|", section, flags=re.M)
    assert rows[0][0] == "0"
    ends = [int(b or a) for a, b in rows]
    starts = [int(a) for a, _ in rows]
    assert all(s == e + 1 for s, e in zip(starts[1:], ends))          # no gap, no overlap
    assert ends[-1] + 1 == table.encoding.observation_size + table.n_actions
    assert starts[-1] == table.encoding.observation_size              # the selection comes last
