"""The table screen of any game: the console's shell with a banner and the game's public view.

A cartridge that brings no display of its own is drawn from its public view alone: the
banner (the game's title, the turn, who must act and on what, the winner at the end), the
players (the shell's panels), the public view as labelled lines (a list of players' values
as one row each) and the log in the game's words. It reads the
:class:`~bitbox.display.model.ShellView` the console's session gives and nothing else.
"""
from __future__ import annotations

from typing import Any, Mapping

import pygame


from .model import ShellView, Words
from .shell import ACCENT, DIM, TEXT, Shell

#: keys of a public view the board leaves out (the banner and the panels show them)
SHOWN_ELSEWHERE = ("players", "winners", "turn")


class GenericDisplay(Shell):
    REGIONS = {"banner": (20, 16, 1880, 196), "players": (20, 228, 620, 482), "board": (660, 228, 1240, 482),
               "log": (20, 726, 1880, 338)}

    def __init__(self, size: tuple[int, int] = (1920, 1080), lang: str | Words = "en", surface: pygame.Surface | None = None,
                 *, title: str = "", words: Words | None = None) -> None:
        self.title = title
        super().__init__(size, words if words is not None else lang, surface)

    def make_words(self, code: str) -> Words:
        raise TypeError("the generic display is given its game's words (bitbox.table.words.words_of)")

    # ---- what the banner says
    def banner_lines(self, t: ShellView) -> tuple[str, str]:
        L: Any = self.lang
        turn = t.view.get("turn")
        top = self.title if turn is None else f"{self.title} · {L.t('ui.round', turn=turn)}"
        winners = list(t.view.get("winners") or [])
        if t.stage == "finished":
            line = L.t("ui.winner", players=L.players(winners)) if winners else L.t("ui.no_winner")
        elif t.prompt is not None:
            key, data = t.prompt
            kind = str(data.get("kind", ""))
            asked = L.question(kind) if hasattr(L, "question") else kind
            line = L.t(key, players=L.players(data.get("players", ())), prompt=asked)
        else:
            line = ""
        return top, line

    def wheel_meanings(self, t: ShellView) -> tuple[str | None, str | None, str | None]:
        """What each wheel means for the prompt now: the game's ``wheels.KIND.left`` (and
        ``centre``, ``right``) when its words have them, else the console's own controls
        (the left wheel numbers the answers; the centre one adds 16 per stop)."""
        if t.stage == "finished" or t.prompt is None:
            return (None, None, None)
        L: Any = self.lang
        kind = str(t.prompt[1].get("kind", ""))
        own = tuple(L.text(f"wheels.{kind}.{w}") if hasattr(L, "text") else None for w in ("left", "centre", "right"))
        if any(own):
            return own  # type: ignore[return-value]
        return (L.t("wheel.index"), None, None)

    def _key_banner(self, t: ShellView) -> str:
        return self._k(self.banner_lines(t), self.wheel_meanings(t))

    def _draw_banner(self, surf: pygame.Surface, rect: pygame.Rect, t: ShellView) -> None:
        self._panel(surf, rect)
        top, line = self.banner_lines(t)
        self.blit(surf, self.text(top, 30, DIM, bold=True, max_width=rect.w - self.px(40)),
                  (rect.x + self.px(20), rect.y + self.px(10)))
        colour = ACCENT if t.stage == "finished" else TEXT
        self.blit(surf, self.text(line, 40, colour, bold=True, max_width=rect.w - self.px(40)),
                  (rect.x + self.px(20), rect.y + self.px(50)))
        self.draw_wheels(surf, pygame.Rect(rect.x + self.px(20), rect.y + self.px(112), rect.w - self.px(40), self.px(76)),
                         self.wheel_meanings(t))

    # ---- the board: the public view as lines
    def board_lines(self, t: ShellView) -> list[str]:
        L: Any = self.lang
        view = t.view.get("game", {})
        value = getattr(L, "value", str)
        lines: list[str] = []
        if not isinstance(view, Mapping):
            return [str(view)]
        for key, v in view.items():
            if key in SHOWN_ELSEWHERE and key != "players":
                continue
            label = L.text(f"view.{key}", key.replace("_", " ")) if hasattr(L, "text") else key
            if isinstance(v, list) and v and all(isinstance(x, Mapping) for x in v):
                for row in v:
                    head = row.get("player")
                    rest = " · ".join(f"{L.text(f'view.{k}', k.replace('_', ' '))} {value(x)}"
                                      for k, x in row.items() if k != "player")
                    lines.append(f"{L.player(head)}: {rest}" if head is not None else rest)
            else:
                lines.append(f"{label}: {value(v)}")
        return lines

    def _key_board(self, t: ShellView) -> str:
        return self._k(self.board_lines(t))

    def _draw_board(self, surf: pygame.Surface, rect: pygame.Rect, t: ShellView) -> None:
        self._panel(surf, rect)
        self._title(surf, rect, self.lang.t("ui.table"))
        y = rect.y + self.px(50)
        width = rect.w - self.px(40)
        for line in self.board_lines(t):
            for part in self.wrap(line, 30, width, lines=2):
                if y + self.px(38) > rect.bottom:
                    return
                self.blit(surf, self.text(part, 30, TEXT, max_width=width), (rect.x + self.px(20), y))
                y += self.px(40)


__all__ = ["GenericDisplay"]
