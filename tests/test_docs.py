"""A clone is self-contained: the rules, formats and design are in docs/, and nothing in the
repository points outside it; every ruling (R-n) or engine choice (O-n) cited anywhere is
stated in docs/rules.md."""
from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = {".git", ".venv", ".hypothesis", "__pycache__", ".pytest_cache", "fonts"}
SUFFIXES = {".py", ".md", ".yaml", ".yml", ".toml", ".txt", ".json", ""}


def _files():
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.endswith(".egg-info")]
        for name in files:
            path = Path(folder) / name
            if path.suffix in SUFFIXES:
                yield path.relative_to(ROOT), path.read_text(encoding="utf-8", errors="replace")


def test_nothing_points_outside_the_repository():
    outside = re.compile(r"\.\./shared|/work/shared|\bshared/(RULES|SCENARIOS|DESIGN|seeds|LAST)")
    bad = [f"{rel}:{n}" for rel, text in _files() if rel != Path("tests/test_docs.py")
           for n, line in enumerate(text.splitlines(), 1) if outside.search(line)]
    assert bad == []


def test_every_ruling_and_choice_cited_is_stated_in_docs_rules():
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    stated = set(re.findall(r"\*\*([RO]-\d+)\b", rules))
    assert {f"R-{n}" for n in range(1, 18)} <= stated
    assert {f"O-{n}" for n in range(1, 11)} <= stated
    cited = {m for _, text in _files() for m in re.findall(r"\b([RO]-\d+)\b", text)}
    assert cited <= stated, sorted(cited - stated)


def test_the_docs_the_readme_names_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in re.findall(r"\((docs/[a-z_]+\.md)\)", readme):
        assert (ROOT / name).is_file(), name
    for name in ("design.md", "rules.md", "scenarios.md"):
        assert f"docs/{name}" in readme
