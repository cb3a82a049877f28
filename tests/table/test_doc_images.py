"""The docs' pictures tool (tools/doc_images.py, ``python -m bitbox_tools.doc_images``): it
still draws from real games after the table changes (small frames here), its banner is the
prompt with what each wheel means, and a bad option is one line."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from bitbox_tools import doc_images
from lastonealive.controls import WHEELS
from lastonealive.words import Lang


def test_the_banner_is_a_real_games_shoot_prompt_with_what_each_wheel_means():
    surface, display = doc_images.render_banner("es", (1280, 720))
    assert surface.get_size() == (1280, 720)
    said = " ".join(s for _r, _px, s in display.labels["prompt"])
    L = Lang("es")
    assert L.t("prompt.shoot", player=L.player("red"), bangs=3).split()[0] in said
    for wheel, key in zip(("left", "centre", "right"), WHEELS["shoot"]):
        assert L.t(f"wheel.{wheel}").upper() in said and L.t(key).split()[0] in said
    assert not display.layout_problems()
    for lang in ("en", "de"):                               # the smallest window too (the level under its title)
        assert not doc_images.render_banner(lang, (1024, 576))[1].layout_problems(), lang


def test_the_home_screen_and_a_palette_png(tmp_path):
    surface = doc_images.render_home((1024, 576))
    size = doc_images.save_png(surface, tmp_path / "home.png")
    back = pygame.image.load(str(tmp_path / "home.png"))
    assert back.get_size() == (1024, 576) and 0 < size < 60_000


@pytest.mark.parametrize("argv, line", [(["--size", "12x3"], "--size 12x3: expected a size"),
                                        (["--only", "nope"], "unknown picture nope")])
def test_a_bad_option_is_one_line(argv, line, capsys, tmp_path):
    assert doc_images.main([*argv, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert line in err and len(err.strip().splitlines()) == 1
    assert not any(tmp_path.iterdir())
