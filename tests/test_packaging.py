"""The distribution: every package is listed, and a built wheel carries config/ data."""
from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAPPED = {"config": "bitbox_config", "tools": "bitbox_tools"}


def _listed() -> set[str]:
    return set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])


def test_every_package_folder_is_listed_in_pyproject():
    found = set()
    for top in ("bitbox", "outspeed", "lastonealive", "firmware_protocol", "config", "tools"):
        for init in (ROOT / top).rglob("__init__.py"):
            parts = list(init.parent.relative_to(ROOT).parts)
            parts[0] = MAPPED.get(parts[0], parts[0])
            found.add(".".join(parts))
    assert found <= _listed(), f"missing from pyproject.toml packages: {sorted(found - _listed())}"


def test_a_non_editable_wheel_carries_the_config_files(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "--quiet", "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for f in ("bitbox_config/tiles.yaml", "bitbox_config/dice.yaml", "bitbox_config/tokens.yaml",
              "bitbox_config/lastonealive/dice.yaml", "bitbox_config/lastonealive/tokens.yaml",
              "outspeed/rules/game.py", "bitbox_tools/__init__.py"):
        assert f in names, f
    # the words: each domain's English template and every language's .po and compiled .mo
    for domain in ("outspeed", "lastonealive", "bitbox"):
        assert f"{domain}/locale/{domain}.pot" in names, domain
        for lang in ("es", "fr", "de"):
            for suffix in (".po", ".mo"):
                assert f"{domain}/locale/{lang}/LC_MESSAGES/{domain}{suffix}" in names, (domain, lang, suffix)
