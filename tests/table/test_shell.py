"""The console's display shell draws any game: a game of its own here, with two regions of
its own and the shell's player panels, dice and log (pixels read from headless frames)."""
from __future__ import annotations

from typing import Any, Mapping

import pygame

from bitbox.colours import SCREEN_RGB
from bitbox.display.model import DieShown, LogEntry, PlayerStatus, ShellView
from bitbox.display.pieces import DIE_COLOURS, pip_centres
from bitbox.display.shell import BG, Shell


class Words:
    code = "en"

    def t(self, key: str, **data: Any) -> str:
        return key

    def event(self, kind: str, data: Mapping[str, Any] | None = None) -> str:
        return f"{kind} {dict(data or {})}"

    def player(self, name: Any) -> str:
        return str(name)

    def players(self, names: Any) -> str:
        return ", ".join(map(str, names))

    def token(self, token: Any) -> str:
        return str(token)


class TinyDisplay(Shell):
    """A game with a score board and the shell's regions."""

    REGIONS = {"board": (0, 0, 1920, 500), "players": (0, 520, 900, 560), "dice": (920, 520, 1000, 200),
               "log": (920, 740, 1000, 340)}

    def make_words(self, code: str) -> Words:
        return Words()

    def _key_board(self, t: ShellView) -> str:
        return self._k(t.view.get("score"))

    def _draw_board(self, surf: pygame.Surface, rect: pygame.Rect, t: ShellView) -> None:
        self._panel(surf, rect, (200, 0, 200))


def test_a_game_of_its_own_gets_panels_dice_log_and_dirty_rectangles():
    pygame.font.init()
    d = TinyDisplay(size=(1920, 1080), lang="en")
    view = {"score": 1, "players": [{"player": "red", "active": True}, {"player": "blue", "active": True}]}
    t = ShellView(view=view, players=(PlayerStatus("red", locked=True), PlayerStatus("blue")),
                  dice=(DieShown("red", "blue", 5),), log=(LogEntry("hello", {"player": "red"}),))
    dirty = d.render(t)
    assert len(dirty) == len(TinyDisplay.REGIONS)                 # the first frame: everything
    surf = d.surface
    assert surf.get_at(d.rects["board"].center)[:3] == (200, 0, 200)
    row = d.rects["players"]                                      # red's colour bar, first row
    assert surf.get_at((row.x + d.px(10) + d.px(3), row.y + d.px(40)))[:3] == SCREEN_RGB["red"]
    (die, r), = d.die_rects                                       # the die, its pips in the pip colour
    face, pip = DIE_COLOURS["blue"]
    assert surf.get_at(r.move(3, r.h // 2 - 3).topleft)[:3] == face
    assert all(surf.get_at(c)[:3] == pip for c in pip_centres(r, 5))
    assert d.render(t) == []                                      # nothing changed: nothing redrawn
    again = d.render(ShellView(view={**view, "score": 2}, players=t.players, dice=t.dice, log=t.log))
    assert again == [d.rects["board"]]                            # only the region that changed
    banner = d.render(ShellView(view={**view, "score": 2}, players=t.players, dice=t.dice, log=t.log,
                                banner=("paused", {})))
    assert d.overlay_rect in banner and surf.get_at(d.overlay_rect.center)[:3] != BG
