"""Every rule scenario in tests/scenarios/ must meet its expectations (SCENARIOS.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

from outspeed.scenario import run_file

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))


def test_there_are_scenarios():
    assert len(FILES) >= 40


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario(path, content):
    result = run_file(path, content)
    assert result["ok"], "\n".join(result["mismatches"])
