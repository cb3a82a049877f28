"""The home screen and the after-game menu (any game): one row per choice, the row under the
cursor framed in the accent colour with ◀ ▶ around its value, what that row means under the
rows, the controllers found and the controls at the bottom. Drawn with the lobby's fonts and
sizes (readable from 3 m: no text under 22 px at 1080p); see :mod:`bitbox.table.home`."""
from __future__ import annotations

from typing import Any

import pygame

from .lobby import MIN_PX, MIN_TEXT, _Screen
from .shell import ACCENT, BAD, BG, DIM, PANEL, PANEL_2, TEXT


class HomeScreen(_Screen):
    """Draws a :class:`bitbox.table.home.Menu`; :attr:`rows` holds each row's rectangle and
    :attr:`cursor` the framed one (tests read them)."""

    def __init__(self, size: tuple[int, int] = (1920, 1080)) -> None:
        super().__init__(size)
        self.rows: list[pygame.Rect] = []
        self.cursor: pygame.Rect | None = None

    def draw(self, surf: pygame.Surface, menu: Any, *, title: str = "8Bitbox") -> None:
        say = menu.words()
        self.labels, self.rows, self.cursor = [], [], None
        surf.fill(BG)
        w, h = surf.get_size()
        p = lambda n: self.px(surf, n)  # noqa: E731
        margin = p(64)
        self.text(surf, title, 64, (margin, p(36)), TEXT, bold=True, max_width=w - 2 * margin)
        self.text(surf, say.t("home.subtitle"), 30, (margin, p(124)), DIM, max_width=w - 2 * margin)
        rows = menu.rows
        top = p(190)
        bottom = h - p(230)
        row_h = min(p(96), (bottom - top) // max(1, len(rows)))
        size = min(40, max(22, row_h * 1080 // max(1, h) * 2 // 5))
        inner = w - 2 * margin
        # the labels' column: as wide as its widest label (2/5 to 3/5 of the rows), the values the rest
        font = self.fonts.get(max(MIN_PX, self.px(surf, max(size, MIN_TEXT))), True)
        widest = max((font.size("▶ " + menu.label(r))[0] for r in rows), default=0) + p(48)
        label_w = min(inner * 3 // 5, max(inner * 2 // 5, widest))
        for i, row in enumerate(rows):
            rect = pygame.Rect(margin, top + i * row_h, w - 2 * margin, row_h - p(10))
            here = i == menu.cursor
            pygame.draw.rect(surf, PANEL_2 if here else PANEL, rect, border_radius=p(10))
            if here:
                pygame.draw.rect(surf, ACCENT, rect, width=max(2, p(5)), border_radius=p(10))
                self.cursor = rect
            self.text(surf, ("▶ " if here else "   ") + menu.label(row), size, (rect.x + p(24), rect.centery),
                      ACCENT if here else TEXT, bold=here, anchor="midleft", max_width=label_w - p(24))
            value = menu.shown(row, row.value)
            self.text(surf, f"◀  {value}  ▶" if here else value, size, (rect.x + label_w + p(24), rect.centery),
                      TEXT if here else DIM, bold=True, anchor="midleft", max_width=rect.w - label_w - p(48))
            self.rows.append(rect)
        help_line = getattr(menu, "help", lambda r: "")(menu.row) if rows else ""
        y = bottom + p(12)
        if help_line:
            self.text(surf, help_line, 28, (margin, y), TEXT, max_width=w - 2 * margin)
        note = menu.note()
        if note:
            self.text(surf, note, 26, (margin, y + p(50)), BAD if getattr(menu, "problem", None) else DIM,
                      max_width=w - 2 * margin)
        self.text(surf, say.t("home.keys"), 26, (margin, h - p(84)), ACCENT, bold=True, anchor="midleft",
                  max_width=w - 2 * margin)
        self.text(surf, say.t("home.keyboard"), 26, (margin, h - p(40)), DIM, bold=True, anchor="midleft",
                  max_width=w - 2 * margin)
        self.dirty = False


__all__ = ["HomeScreen"]
