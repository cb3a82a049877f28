"""The game's line at the start of play names its options in the game's words, in the table's
language: the game's ``setting.NAME`` (and ``setting.NAME.VALUE``), the home screen's keys
(goofspiel_worded.py: the tutorial game with ``setting.cards``, "Cards" / "Cartes", in
catalogues compiled here with the project's own compile step); a game without them gets the
name in words (underscores as spaces) and the value as the table shows values. Real
subprocesses and gettext catalogues."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from .test_console_table import run

HERE = Path(__file__).resolve().parent


@pytest.fixture
def worded(tmp_path, monkeypatch) -> Path:
    """The tutorial's catalogues plus ``setting.cards`` (English and French), compiled."""
    from bitbox.i18n import compile_all
    locale = tmp_path / "game" / "locale"
    shutil.copytree(HERE / "locale", locale, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    for path, text in ((locale / "goofspiel.pot", ""), (locale / "fr/LC_MESSAGES/goofspiel.po", "Cartes")):
        with open(path, "a", encoding="utf-8") as f:
            f.write(f'\nmsgctxt "setting.cards"\nmsgid "Cards"\nmsgstr "{text}"\n')
    assert [p.name for p in compile_all(tmp_path)] == ["goofspiel.mo"]
    monkeypatch.setenv("GOOFSPIEL_WORDS", str(locale))
    monkeypatch.setenv("BITBOX_GAMES", "goofspiel=goofspiel_worded:CARTRIDGE")
    yield tmp_path
    sys.modules.pop("goofspiel_worded", None)


@pytest.mark.parametrize("lang,line", [
    ("en", "Goofspiel game 1: Red (bot), Blue (bot); seed 1; Cards 4; journal j.sqlite"),
    ("fr", "Partie 1 (Goofspiel) : Rouge (bot), Bleu (bot) ; graine 1 ; Cartes 4 ; journal j.sqlite"),
    ("es", "Partida 1 de Goofspiel: Rojo (bot), Azul (bot); semilla 1; Cards 4; diario j.sqlite"),  # no Spanish: English
])
def test_the_game_line_says_the_options_in_the_games_words(worded, lang, line):
    r = run(["play", "--headless", "--speed", "0", "--players", "2", "--seed", "1", "--cards", "4", "--journal",
             "j.sqlite", "--lang", lang], worded)
    assert r.returncode == 0, r.stderr
    assert line in r.stderr.splitlines(), r.stderr


def test_without_words_of_its_own_an_option_is_its_name_in_words(tmp_path):
    r = run(["play", "--headless", "--speed", "0", "--players", "2", "--seed", "1", "--cards", "4", "--journal",
             "j.sqlite", "--lang", "fr"], tmp_path)                     # the tutorial: no setting.cards
    assert r.returncode == 0, r.stderr
    assert "Partie 1 (Goofspiel) : Rouge (bot), Bleu (bot) ; graine 1 ; cards 4 ; journal j.sqlite" in \
        r.stderr.splitlines(), r.stderr
    from bitbox.table.words import GameWords, option_shown
    bare = GameWords(SimpleNamespace(name="bare", title="Bare"), "fr")       # no catalogue at all
    assert option_shown(bare, "first_zombie", "each") == "first zombie each"
    assert option_shown(bare, "fast", True) == f"fast {bare.t('word.yes')}"
