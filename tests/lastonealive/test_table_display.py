"""The Last One Alive screen, read by its pixels (real pygame frames, SDL's dummy driver),
and the secrecy test in two worlds: two games identical except for the hidden part (the
bag's order beyond what is drawn, the object side of face-down tokens) give identical
frames, log lines and commands to the controllers, from the first prompt to the winner."""
from __future__ import annotations

import os
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from bitbox.colours import SCREEN_RGB
from lastonealive.display import TableDisplay
from lastonealive.display.render import BARRICADE_COLOUR, OBJECT_COLOUR, TYPE_COLOUR
from lastonealive.session import TableView
from lastonealive.words import LANGUAGES, Lang

from .test_table import Table

pygame.display.init()
pygame.font.init()


def view(**over):
    v = {"players": [
            {"player": "red", "in_game": True, "tokens": ["axe", "barricade", "hero"], "front": [["f1", "zombie", "zombie2"]]},
            {"player": "blue", "in_game": True, "tokens": ["barricade"], "front": []},
            {"player": "green", "in_game": False, "tokens": [], "front": []}],
         "variants": [], "active": "red", "phase": "shoot", "turn": 3, "level": 3, "night": False,
         "apocalypse_drawn": 2, "bag_size": 11, "pool": {"zombie": 5, "shoot": 1, "object": 3, "barricade": 3},
         "tray": [["z1", "zombie", "ambush"], ["s1", "shoot", "bang2"], ["s2", "shoot", "bang1plus"]],
         "turn_state": {}, "prompt": None, "eliminated": ["green"], "finished": False, "winners": [], "scores": {}}
    v.update(over)
    return v


def colour_at(surf, xy):
    return tuple(surf.get_at((int(xy[0]), int(xy[1]))))[:3]


def test_cards_tokens_dice_and_the_level_are_drawn():
    d = TableDisplay(size=(1920, 1080), lang="en")
    t = TableView(view=view(), stage="prompt", kind="shoot", prompt=("prompt.shoot", {"player": "red", "bangs": 3}))
    surf = d.render_full(t)
    # each card's head in the player's colour; the zombified card grey
    red = d.card_rects["red"]
    assert colour_at(surf, (red.x + red.w // 2, red.y + 6)) == SCREEN_RGB["red"]
    green = d.card_rects["green"]
    assert colour_at(surf, (green.right - 10, green.y + 20)) != SCREEN_RGB["green"]
    # tokens: the object face up (light), the barricade face down (brown), the hero gold
    kinds = {tok: r for p, tok, r in d.token_rects if p == "red"}
    assert colour_at(surf, (kinds["axe"].x + 4, kinds["axe"].centery)) == OBJECT_COLOUR
    assert colour_at(surf, (kinds["barricade"].x + 4, kinds["barricade"].centery)) == BARRICADE_COLOUR
    # the dice in the tray and in front, in their type's colour, with their labels' places
    where = {(w, i): r for w, i, f, r in d.dice_rects}
    z1 = where[("tray", "z1")]
    assert colour_at(surf, (z1.x + 3, z1.y + z1.h // 2)) == TYPE_COLOUR["zombie"]
    s1 = where[("tray", "s1")]
    assert colour_at(surf, (s1.x + 3, s1.y + s1.h // 2)) == TYPE_COLOUR["shoot"]
    f1 = where[("red", "f1")]
    assert colour_at(surf, (f1.x + 3, f1.y + f1.h // 2)) == TYPE_COLOUR["zombie"]
    # the level: a big number; a higher level draws more lit pips
    lit3 = sum(1 for x in range(d.rects["state"].x, d.rects["state"].right, 4)
               if colour_at(surf, (x, d.rects["state"].y + d.px(93))) != colour_at(surf, (d.rects["state"].x + 2, d.rects["state"].y + d.px(93))))
    surf4 = TableDisplay(size=(1920, 1080), lang="en").render_full(replace(t, view=view(level=1)))
    lit1 = sum(1 for x in range(d.rects["state"].x, d.rects["state"].right, 4)
               if colour_at(surf4, (x, d.rects["state"].y + d.px(93))) != colour_at(surf4, (d.rects["state"].x + 2, d.rects["state"].y + d.px(93))))
    assert lit3 > lit1


def test_dice_tumble_while_rolling_and_the_chain_appears():
    d = TableDisplay(size=(960, 540), lang="en")
    base = TableView(view=view(), stage="showing")
    still = pygame.image.tobytes(d.render_full(base), "RGB")
    frames = {pygame.image.tobytes(d.render_full(replace(base, rolling=("z1", "s1", "s2"), tick=k)), "RGB")
              for k in range(4)}
    assert len(frames) > 1 and still not in frames
    rect = d.rects["tray"]
    before = pygame.image.tobytes(d.render_full(base).subsurface(rect), "RGB")
    after = pygame.image.tobytes(d.render_full(replace(base, chain=("bang2",))).subsurface(rect), "RGB")
    assert before != after


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_language_renders_with_the_shipped_font(code):
    d = TableDisplay(size=(1280, 720), lang=code)
    for kind in ("before", "dice", "shoot", "give", "keep", "setup"):
        d.render_full(TableView(view=view(), stage="prompt", kind=kind,
                                prompt=(f"prompt.{kind}", {"player": "red", "bangs": 2, "results": 1, "needed": 4,
                                                           "forced": 2}),
                                refusal=("code.wrong_moment", {})))
    font = d.fonts.get(20)
    from lastonealive.words import all_strings
    missing = {ch for s in all_strings(code) for ch in s if ch.strip() and font.metrics(ch)[0] is None}
    assert not missing


# ---------------------------------------------------------------------------- secrecy in two worlds

class Recorder:
    def __init__(self) -> None:
        self.full = TableDisplay(size=(480, 270), lang="en")
        self.incremental = TableDisplay(size=(480, 270), lang="es")
        self.frames: list[bytes] = []
        self.n = 0

    def snap(self, t: Table) -> None:
        table = t.s.table()
        self.incremental.render(table)
        self.frames.append(pygame.image.tobytes(self.incremental.surface, "RGB"))
        if self.n % 7 == 0:
            self.frames.append(pygame.image.tobytes(self.full.render_full(table), "RGB"))
        self.n += 1


def play(seed: int, hidden: str | None = None, tail: int | None = None) -> tuple[Table, Recorder, list, int]:
    """A bots-only game; ``hidden``: world B's object side of every face-down token;
    ``tail``: world B's bag reversed beyond its first ``tail`` tokens."""
    t = Table(["bot"] * 4, seed=seed)
    if tail is not None:
        bag = t.g.state.bag
        bag[tail:] = list(reversed(bag[tail:]))
    rec = Recorder()
    differed = 0
    for _ in range(4000):
        t.step(1)
        if hidden is not None:
            for hs in t.g.state.held.values():
                for h in hs:
                    if h[0] == "barricade" and h[1] != hidden:
                        h[1] = hidden
                        differed += 1
        rec.snap(t)
        if t.s.finished:
            break
    assert t.s.finished
    lines = [Lang("de").event(e.kind, e.data) for e in t.s.log]
    return t, rec, lines, differed


def test_the_bag_order_and_face_down_objects_never_show():
    seed = 4
    a, rec_a, lines_a, _ = play(seed)
    initial = Table(["bot"] * 4, seed=seed).g.state.bag
    used = len(initial) - len(a.g.state.bag)
    b, rec_b, lines_b, differed = play(seed, hidden="flare", tail=used)
    assert differed > 0, "world B must differ in a hidden object"
    assert initial[used:] != list(reversed(initial[used:])), "world B must differ in the bag's order"
    assert lines_a == lines_b
    assert a.commands == b.commands
    assert len(rec_a.frames) == len(rec_b.frames)
    for i, (fa, fb) in enumerate(zip(rec_a.frames, rec_b.frames)):
        assert fa == fb, f"frame {i} differs"
    assert a.g.state.winners == b.g.state.winners
