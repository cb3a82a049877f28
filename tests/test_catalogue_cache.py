"""The English messages kept between starts (bitbox.i18n: ``locale/__pycache__``): the same
messages as the .pot gives, read again whenever the .pot's bytes change, and never an error
when the file is missing, broken, of another layout or cannot be written."""
from __future__ import annotations

import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bitbox import i18n

ROOT = Path(__file__).resolve().parent.parent
DOMAINS = [(ROOT / "bitbox" / "locale", "bitbox"), (ROOT / "outspeed" / "locale", "outspeed"),
           (ROOT / "lastonealive" / "locale", "lastonealive"), (ROOT / "tests" / "tutorial" / "locale", "goofspiel")]


@pytest.fixture(autouse=True)
def _fresh():
    i18n.english.cache_clear()
    yield
    i18n.english.cache_clear()


def _copy(tmp_path: Path, localedir: Path, domain: str) -> Path:
    folder = tmp_path / domain / "locale"
    folder.mkdir(parents=True)
    shutil.copy(i18n.template_path(localedir, domain), i18n.template_path(folder, domain))
    return folder


def _no_parsing(*_args: object) -> None:
    raise AssertionError("the .pot was parsed although its cache was made from the same bytes")


@pytest.mark.parametrize("localedir, domain", DOMAINS, ids=[d for _, d in DOMAINS])
def test_a_second_start_reads_the_same_messages_from_the_cache_without_parsing(tmp_path, monkeypatch, localedir,
                                                                              domain):
    folder = _copy(tmp_path, localedir, domain)
    parsed = i18n.english(folder, domain)
    assert i18n.cache_path(folder, domain).is_file()
    assert parsed == i18n._parse_template(i18n.template_path(localedir, domain).read_bytes(), domain)
    i18n.english.cache_clear()
    monkeypatch.setattr(i18n, "_parse_template", _no_parsing)
    cached = i18n.english(folder, domain)
    assert cached == parsed and list(cached) == list(parsed)
    assert all(type(m) is i18n.Message for m in cached.values())
    plural = [m for m in cached.values() if m.plural is not None]
    assert all(m.count for m in plural) and (plural or domain == "goofspiel")


def test_a_changed_template_is_read_again_even_with_the_same_size_and_time(tmp_path):
    folder = _copy(tmp_path, ROOT / "tests" / "tutorial" / "locale", "goofspiel")
    pot = i18n.template_path(folder, "goofspiel")
    assert i18n.english(folder, "goofspiel")["figure.score"].text == "score"
    stat = pot.stat()
    pot.write_bytes(pot.read_bytes().replace(b'msgid "score"', b'msgid "SCORE"'))
    os.utime(pot, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert pot.stat().st_size == stat.st_size
    i18n.english.cache_clear()
    assert i18n.english(folder, "goofspiel")["figure.score"].text == "SCORE"
    i18n.english.cache_clear()
    assert i18n.english(folder, "goofspiel")["figure.score"].text == "SCORE"     # and the cache renewed


@pytest.mark.parametrize("content", [b"", b"not marshal data", marshal.dumps((99, b"", (), ())),
                                     marshal.dumps("a string"), marshal.dumps((i18n._CACHE_VERSION, b"x"))],
                         ids=["empty", "garbage", "other-version", "other-shape", "too-short"])
def test_a_broken_cache_file_is_read_again_from_the_template_and_replaced(tmp_path, content):
    folder = _copy(tmp_path, ROOT / "tests" / "tutorial" / "locale", "goofspiel")
    expected = i18n.english(folder, "goofspiel")
    i18n.cache_path(folder, "goofspiel").write_bytes(content)
    i18n.english.cache_clear()
    assert i18n.english(folder, "goofspiel") == expected
    version, source, _keys, _rows = marshal.loads(i18n.cache_path(folder, "goofspiel").read_bytes())
    assert (version, source) == (i18n._CACHE_VERSION, i18n.template_path(folder, "goofspiel").read_bytes())


def test_a_folder_that_cannot_take_the_cache_only_means_parsing(tmp_path, monkeypatch):
    folder = _copy(tmp_path, ROOT / "tests" / "tutorial" / "locale", "goofspiel")
    (folder / "__pycache__").write_text("a file where the cache folder would be")
    expected = i18n._parse_template(i18n.template_path(folder, "goofspiel").read_bytes(), "goofspiel")
    assert i18n.english(folder, "goofspiel") == expected
    assert sorted(p.name for p in folder.iterdir()) == ["__pycache__", "goofspiel.pot"]

    other = _copy(tmp_path / "other", ROOT / "tests" / "tutorial" / "locale", "goofspiel")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)   # PYTHONDONTWRITEBYTECODE: data, not bytecode: kept
    assert i18n.english(other, "goofspiel") == expected
    assert i18n.cache_path(other, "goofspiel").is_file()


def test_compiling_the_catalogues_also_writes_the_english_cache(tmp_path, monkeypatch):
    folder = _copy(tmp_path, ROOT / "tests" / "tutorial" / "locale", "goofspiel")
    assert not i18n.cache_path(folder, "goofspiel").exists()
    i18n.compile_all(tmp_path)
    monkeypatch.setattr(i18n, "_parse_template", _no_parsing)
    assert i18n.english(folder, "goofspiel")["figure.score"] == i18n.Message("figure.score", "score")


WORDS = """
import sys
from pathlib import Path
from bitbox.i18n import Words
class W(Words):
    DOMAIN, LOCALEDIR = "goofspiel", Path(sys.argv[1])
print(W("fr").t("event.prize", round=2, card=5))
print(W("en").t("figure.score"))
print("babel.messages.pofile" in sys.modules)
"""


def test_words_are_the_same_on_a_first_and_a_later_start_and_a_later_start_does_not_load_babel(tmp_path):
    source = ROOT / "tests" / "tutorial" / "locale"
    folder = tmp_path / "locale"
    shutil.copytree(source, folder, ignore=shutil.ignore_patterns("__pycache__"))
    def start() -> list[str]:
        proc = subprocess.run([sys.executable, "-c", WORDS, str(folder)], capture_output=True, text=True,
                              timeout=60)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.splitlines()

    first, later = start(), start()
    assert first[:2] == later[:2]
    assert first[1] == "score"
    assert first[0] != "event.prize" and "2" in first[0] and "5" in first[0] and "prize" not in first[0]
    assert (first[2], later[2]) == ("True", "False")
