"""Every Last One Alive scenario in tests/lastonealive/scenarios/ meets its expectations
(docs/last-one-alive-scenarios.md); each file cites the rule or ruling it covers."""
from __future__ import annotations

from pathlib import Path

import pytest

from lastonealive.content import load_content
from lastonealive.scenario import run_file

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="module")
def loa_content():
    return load_content()


def test_there_are_scenarios():
    assert len(FILES) >= 100


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario(path, loa_content):
    result = run_file(path, loa_content)
    assert result["ok"], "\n".join(result["mismatches"])
