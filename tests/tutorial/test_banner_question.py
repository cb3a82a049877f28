"""The generic display's banner, which the whole table sees, words a prompt without its
context (private to the player asked): the game's ``ask.KIND`` (the tutorial's "bid a card
for the prize"); without it, a ``prompt.KIND`` that needs the context (the tutorial's "bid a
card for the {prize}") gives the console's neutral question there, never a placeholder as it
is; one that needs nothing is said as the game words it. Real frames on SDL's dummy driver."""
from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

HERE = Path(__file__).resolve().parent


@pytest.fixture()
def display_of(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from bitbox.display.generic import GenericDisplay
    from bitbox.table.words import words_of

    def make(cartridge, lang="en"):
        words = words_of(cartridge, lang)
        return GenericDisplay((960, 540), words, title=str(cartridge.title), words=words)
    return make


def asking(kind="bid"):
    from bitbox.display.model import ShellView
    return ShellView(view={"players": [], "winners": [], "game": {"prize": 4}, "turn": 1}, players=(),
                     stage="prompt", prompt=("ui.asking", {"players": ["red", "blue"], "kind": kind}), banner=None,
                     log=())


def goofspiel_words_raw(cartridge) -> str:
    from bitbox.table.words import words_of
    return str(words_of(cartridge, "en").raw("prompt.bid"))


def without_ask(tmp_path, prompt_msgid=None):
    """The tutorial's catalogues without its ``ask.bid`` (and, given, another ``prompt.bid``)."""
    locale = tmp_path / "locale"
    locale.mkdir()
    pot = (HERE / "locale" / "goofspiel.pot").read_text(encoding="utf-8")
    ask = 'msgctxt "ask.bid"\nmsgid "bid a card for the prize"\nmsgstr ""\n\n'
    assert ask in pot and 'msgid "bid a card for the {prize}"' in pot
    pot = pot.replace(ask, "")
    if prompt_msgid is not None:
        pot = pot.replace('msgid "bid a card for the {prize}"', f'msgid "{prompt_msgid}"')
    (locale / "goofspiel.pot").write_text(pot, encoding="utf-8")
    return SimpleNamespace(name="goofspiel", title="Goofspiel", locale=locale)


def test_the_games_public_question_is_the_banners(display_of):
    from bitbox.games import find
    goofspiel = find("goofspiel")
    assert "{prize}" in goofspiel_words_raw(goofspiel)
    for lang, line in (("en", "Red and Blue: bid a card for the prize"), ("fr", "Rouge et Bleu : misez une carte pour le prix")):
        top, said = display_of(goofspiel, lang).banner_lines(asking())
        assert "{" not in said and "4" not in said, said
        assert said == line
    display = display_of(goofspiel)
    display.render(asking(), full=True)                     # the frame draws it
    assert display.banner_lines(asking())[0] == "Goofspiel · Turn 1"


def test_a_question_that_needs_the_prompts_context_is_the_consoles_in_the_banner(display_of, tmp_path):
    cartridge = without_ask(tmp_path)
    top, said = display_of(cartridge).banner_lines(asking())
    assert (top, said) == ("Goofspiel · Turn 1", "Red and Blue: choose (bid)")
    display = display_of(cartridge)
    display.render(asking(), full=True)                     # the frame draws it


def test_a_question_that_needs_nothing_is_said_as_the_game_words_it(display_of, tmp_path):
    cartridge = without_ask(tmp_path, "bid a card")
    shutil.copytree(HERE / "locale" / "fr", cartridge.locale / "fr")
    assert display_of(cartridge).banner_lines(asking())[1] == "Red and Blue: bid a card"
    assert display_of(cartridge).banner_lines(asking("other"))[1] == "Red and Blue: choose (other)"
