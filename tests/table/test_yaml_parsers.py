"""The strict YAML loader parses with libyaml when a text is small and shallow enough, and
with PyYAML's pure-Python parser otherwise: both must give the same data, and a refused
text the same one-line message, whichever parser read it."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bitbox import config

ROOT = Path(__file__).resolve().parents[2]


def _pure(monkeypatch: pytest.MonkeyPatch, text: str) -> object:
    monkeypatch.setattr(config, "_StrictCLoader", None)
    try:
        return config.parse_yaml(text, what="x")
    except config.ConfigError as exc:
        return ("refused", str(exc))


def _either(text: str) -> object:
    try:
        return config.parse_yaml(text, what="x")
    except config.ConfigError as exc:
        return ("refused", str(exc))


def test_libyaml_is_used_for_the_shipped_files():
    if config._StrictCLoader is None:
        pytest.skip("PyYAML built without libyaml here: only the pure-Python parser exists")
    assert config._fast_loader_fits((ROOT / "config" / "tiles.yaml").read_text(encoding="utf-8"))


def test_every_yaml_file_of_the_repository_gives_the_same_data_with_both_parsers(monkeypatch):
    files = subprocess.run(["git", "ls-files", "*.yaml", "*.yml"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    assert len(files) > 20
    texts = [(ROOT / f).read_text(encoding="utf-8") for f in files]
    fast = [_either(t) for t in texts]
    for name, text, got in zip(files, texts, fast):
        assert _pure(monkeypatch, text) == got, name


@pytest.mark.parametrize("text", [
    "a: 1\na: 2\n", "tokens: [unclosed\n", "a: b: c\n", "- &x [*x]\n", "{? [1]: 2}\n", "a: !!python/object:os.system x\n",
    "x: &a [1, 2]\ny: *b\n", "\t- 1\n", "a: 'unterminated\n", "[" * 50 + "]" * 50, "- " * 300 + "1\n",
])
def test_a_refused_or_odd_text_gives_the_same_result_with_both_parsers(monkeypatch, text):
    fast = _either(text)
    assert _pure(monkeypatch, text) == fast


def test_deep_nesting_goes_to_the_pure_python_parser_and_is_refused_in_one_line():
    text = "[" * 100_000 + "]" * 100_000
    assert not config._fast_loader_fits(text)
    with pytest.raises(config.ConfigError) as got:
        config.parse_yaml(text, what="deep.yaml")
    assert str(got.value).startswith("deep.yaml: ") and "\n" not in str(got.value)
