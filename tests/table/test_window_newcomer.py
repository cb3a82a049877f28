"""The window for a table of people (issue 14, "the window"), on real frames (SDL's dummy
video driver): every panel redrawn after F11 or a resize, Esc leaves the keyboard hot-seat
(saved), text readable from 3 m at 1920×1080 and no labels over each other at the smallest
window; bad --size and --speed are one line."""
from __future__ import annotations

import io
import subprocess
import sys

import pygame
import pytest

from bitbox.display.shell import BG, OUT, PANEL, PANEL_2
from bitbox.table.app import MIN_WINDOW
from bitbox.table.journal import Journal, rebuild
from outspeed.display import Lang, TableDisplay
from outspeed.journaling import RULES
from .helpers import TableLoop

from .helpers import Table, new_game


def _mid_game(players: int = 6, turn: int = 4) -> Table:
    t = Table(new_game(players=players, seed=4), bots=("red", "blue", "green", "yellow", "purple", "orange")[:players])
    for _ in range(20000):
        if t.game.state.turn >= turn or t.s.finished:
            break
        t.pump(rounds=1)
    return t


def _non_black(surf: pygame.Surface, rect: pygame.Rect) -> int:
    """How many sampled pixels of ``rect`` are not the background."""
    n = 0
    for x in range(rect.x + 2, rect.right - 2, max(1, rect.w // 23)):
        for y in range(rect.y + 2, rect.bottom - 2, max(1, rect.h // 17)):
            c = surf.get_at((x, y))[:3]
            if c != (0, 0, 0) and c != BG:
                n += 1
    return n


class Blackout:
    """Presses F11 at frame ``at``; on the next frame (after the loop has read the key) it
    paints the whole window black, as a real full-screen switch leaves it; two frames later
    it reads every panel's pixels and closes the window."""

    def __init__(self, at: int = 5) -> None:
        self.at, self.n, self.seen = at, 0, None
        self.display = None

    def update(self, session, now) -> None:
        self.n += 1
        if self.n == self.at:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F11))
        elif self.n == self.at + 1:
            pygame.display.get_surface().fill((0, 0, 0))
        elif self.n == self.at + 3:
            self.seen = pygame.display.get_surface().copy()
            pygame.event.post(pygame.event.Event(pygame.QUIT))


@pytest.mark.parametrize("how", ["f11", "resize"])
def test_every_panel_is_drawn_again_after_f11_or_a_resize(how):
    t = _mid_game(players=4, turn=2)
    black = Blackout()
    if how == "resize":                 # the same, with a window event instead of the key
        def press(self=black):
            pygame.event.post(pygame.event.Event(pygame.WINDOWSIZECHANGED, x=1280, y=720))
        orig = black.update

        def update(session, now):
            if black.n + 1 == black.at:
                black.n += 1
                press()
                return
            orig(session, now)
        black.update = update           # type: ignore[method-assign]
    loop = TableLoop(t.s, t.hub, [black], None, Lang("en"), headless=False, out=io.StringIO(),
                     snapshots=None, size=(1280, 720), fps=500, max_seconds=30)
    assert loop.run() == 0
    assert loop.redraws >= 1 and black.seen is not None
    display = TableDisplay(size=black.seen.get_size(), lang="en")
    for name, rect in display.rects.items():
        assert _non_black(black.seen, rect) > 10, f"the {name} panel stayed black after {how}"


def test_esc_leaves_the_keyboard_hot_seat_and_the_game_is_saved(tmp_path):
    from .helpers import outspeed_keyboard
    j = Journal(tmp_path / "j.sqlite", RULES)
    game = new_game(players=3, seed=6)
    rec = j.new_game(game, {})
    t = Table(game, journal=rec)
    kb = outspeed_keyboard(t.sims, Lang("en"))

    class Esc:
        n = 0

        def update(self, session, now):
            self.n += 1
            if self.n == 4:
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))

    esc = Esc()
    loop = TableLoop(t.s, t.hub, [kb, esc], kb, Lang("en"), headless=False, out=io.StringIO(),
                     snapshots=None, size=(1280, 720), fps=500, max_seconds=30)
    assert loop.run() == 0
    assert esc.n < 50 and not t.s.finished              # it left at once, mid-game
    again, n = rebuild(Journal(tmp_path / "j.sqlite", RULES), rec.id)
    assert again.to_data() == t.game.to_data()


def _labels(display: TableDisplay) -> list[tuple[str, pygame.Rect, int, str]]:
    return [(region, rect, px, s) for region, labels in display.labels.items() for rect, px, s in labels]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_text_under_22_px_at_1080p(lang):
    t = _mid_game()
    d = TableDisplay(size=(1920, 1080), lang=lang)
    d.render(t.s.table(), full=True)
    labels = _labels(d)
    assert len(labels) > 40
    small = [(r, px, s) for r, _, px, s in labels if px < 22]
    assert not small, small
    # the glyphs themselves: a lower-case label ("bot", "eliminated") is at least 11 px tall
    heights = [d.fonts.get(px).size("x")[1] for _, _, px, _ in labels]
    assert min(heights) >= 22


def _contrast(a, b) -> float:
    def lum(c):
        ch = [v / 255 for v in c[:3]]
        ch = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in ch]
        return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_eliminated_reads_with_good_contrast():
    # WCAG AA for normal text: 4.5:1, on every panel colour it is drawn on
    for bg in (BG, PANEL, PANEL_2, (30, 34, 46)):
        assert _contrast(OUT, bg) >= 4.5, bg
    t = _mid_game()
    out = [p["player"] for p in t.game.public_view()["players"] if not p.get("active", True)]
    d = TableDisplay(size=(1920, 1080), lang="en")
    d.render(t.s.table(), full=True)
    if out:                             # the label is drawn in that colour
        rects = [rect for region, rect, px, s in _labels(d) if s == "eliminated"]
        assert rects
        colours = {tuple(d.surface.get_at((x, y))[:3]) for r in rects for x in range(r.x, r.right)
                   for y in range(r.y, r.bottom)}
        assert OUT in colours


@pytest.mark.parametrize("lang", ["en", "fr", "de", "es"])
def test_at_the_smallest_window_no_two_labels_overlap(lang):
    t = _mid_game()
    d = TableDisplay(size=MIN_WINDOW, lang=lang)
    d.render(t.s.table(), full=True)
    labels = _labels(d)
    assert len(labels) > 40
    assert min(px for _, _, px, _ in labels) >= 13          # the log and the labels stay legible
    for i, (ra, a, _, sa) in enumerate(labels):
        for rb, b, _, sb in labels[i + 1:]:
            assert not a.colliderect(b), f"{ra} {sa!r} over {rb} {sb!r}"


def test_a_small_window_opens_at_the_minimum_size():
    t = _mid_game(players=3, turn=1)

    class Look:
        size = None

        def update(self, session, now):
            self.size = pygame.display.get_surface().get_size()
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    look = Look()
    TableLoop(t.s, t.hub, [look], None, Lang("en"), headless=False, out=io.StringIO(), snapshots=None,
              size=(800, 600), fps=500, max_seconds=30).run()
    assert look.size[0] >= MIN_WINDOW[0] and look.size[1] >= MIN_WINDOW[1]


@pytest.mark.parametrize("args, words", [
    (["--size", "800"], "argument --size: expects WIDTHxHEIGHT"),
    (["--size", "10x10"], "argument --size: 10x10: expected a size from 320x180"),
    (["--size", "axb"], "argument --size: expects WIDTHxHEIGHT"),
    (["--speed", "-1"], "argument --speed: expected a number ≥ 0"),
    (["--speed", "nan"], "argument --speed: expected a number ≥ 0"),
    (["--speed", "inf"], "argument --speed: expected a number ≥ 0"),
])
def test_bad_size_and_speed_are_one_line(args, words, tmp_path):
    r = subprocess.run([sys.executable, "-m", "outspeed.cli", "play", "--headless", "--journal", "j.sqlite", *args],
                       capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in r.stderr
    assert not (tmp_path / "j.sqlite").exists()             # nothing started
